"""How many connections one address holds (protocol §4.7, "Too many
connections from one address").

The server's connection cap (``max_connections``) is for the whole server:
without a rule per address, one address could open every connection there is
and, from each, create and join a table. :class:`ConnectionsPerAddress`
counts the open connections of each address (an IPv4 address, or an IPv6
/64: :func:`~craits.server.empty_tables.address_key`, the same unit as the
limit of tables nobody sits at) and refuses one more past the limit; the
:class:`~craits.server.connection.Client` that is refused is told
``too_many_connections`` and closed, before its ``hello``. Loopback is not
exempt: a load test or a test opening many connections from one machine
runs its server with the limit off (0).
"""

from __future__ import annotations

from collections import Counter

DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64
"""Connections one address may hold at once by default: far more than one
household's players and spectators, far fewer than the server's cap."""


class ConnectionsPerAddress:
    """The open connections of each address, at most ``limit`` each (0: no limit).

    :meth:`admit` counts a connection in (or refuses it); :meth:`release` counts
    it out when it closes. Only admitted connections are released."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"the limit of connections per address must be >= 0, not {limit}")
        self.limit = limit
        """Connections one address may hold at once; 0: no limit."""
        self._open: Counter[str] = Counter()

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address`` in; False (nothing counted)
        if that address already holds :attr:`limit` connections."""
        if self.limit and self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def release(self, address: str) -> None:
        """Count out a closed connection that :meth:`admit` let in."""
        left = self._open[address] - 1
        if left > 0:
            self._open[address] = left
        else:
            del self._open[address]

    def held(self, address: str) -> int:
        """Open connections ``address`` holds now."""
        return self._open.get(address, 0)
