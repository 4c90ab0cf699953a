"""Private tables and the creator's powers, the client's side (protocol §11.9). No Textual.

- :class:`Privacy`: the invite codes this client knows (given on the command
  line or in a link, typed in, or sent to it as a table's creator) and the
  invite link of a table it created;
- the creator's requests (:class:`CreatorRequests`: remove, lock, mute, hand
  over, let back) and the menu's choices (:func:`menu_choices`);
- how the lobby writes a private table (:func:`badge`, :func:`seats_taken`).

The refusals of §11.9 in plain words are :mod:`.refusals`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from craits.protocol.address import Target, parse_target
from craits.protocol.types import (
    ClientMsg,
    HandOverMsg,
    KickMsg,
    LockMsg,
    MuteMsg,
    TableInfo,
    UnbarMsg,
)
from craits.protocol.vocab import ClientMessage, ErrorCode, Phase, TableState

from .model import TableModel


@dataclass
class Privacy:
    """The invite codes this client knows, by table, and the server they lead to.

    Attributes:
        server: the server (its host, port, TLS) the links point at.
        codes: table name → invite code (given, typed, or sent as creator).
        shown: the tables whose invite link was shown to their creator already.
        refused: table name → the codes (as :func:`comparable`) the server
            refused there: never sent again.
    """

    server: Target
    codes: dict[str, str] = field(default_factory=dict)
    shown: set[str] = field(default_factory=set)
    refused: dict[str, set[str]] = field(default_factory=dict)
    pin: Callable[[], str | None] | None = None
    """For a server over TLS: the certificate fingerprint pinned for it now (given
    ahead or trusted on first use), put in links so friends pin it too (§1.1)."""
    public: str | None = None
    """``HOST:PORT`` players elsewhere reach the server at, as its ``welcome``
    says (``public_address``, protocol §4.1); links name it rather than
    :attr:`server`'s host and port. None: the server did not say."""

    def welcomed(self, welcome: Mapping[str, object]) -> None:
        """Take the server's public address from its ``welcome`` (a value that
        is no ``HOST:PORT`` is left out)."""
        public = welcome.get("public_address")
        self.public = None
        if isinstance(public, str):
            try:
                parse_target(public, self.server.port)
            except ValueError:
                return
            self.public = public

    def code_for(self, table: str, code: str | None = None) -> str | None:
        """The code to send to ``table``: ``code`` if given (kept for next time,
        e.g. a reconnection), else the one known, else None; never one the
        server refused there (:meth:`refuse`)."""
        if code:
            self.codes[table] = code.strip()
        known = self.codes.get(table)
        if known is not None and comparable(known) in self.refused.get(table, ()):
            del self.codes[table]
            return None
        return known

    def refuse(self, table: str) -> None:
        """The server refused the code sent to ``table`` as wrong: forget it,
        and never send it there again."""
        code = self.codes.pop(table, None)
        if code is not None:
            self.refused.setdefault(table, set()).add(comparable(code))

    def was_refused(self, table: str, code: str) -> bool:
        """Whether the server refused ``code`` at ``table`` already."""
        return comparable(code) in self.refused.get(table, ())

    def link(self, table: str) -> str | None:
        """The invite link of ``table``, if its code is known."""
        code = self.codes.get(table)
        if code is None:
            return None
        server = self.server
        if server.tls and server.fingerprint is None and self.pin is not None:
            server = replace(server, fingerprint=self.pin())
        if self.public is not None:
            public = parse_target(self.public, server.port)
            server = replace(server, host=public.host, port=public.port)
        return server.with_table(table, code).link()


LOOPBACK_NAMES = frozenset({"localhost", "::1", "0.0.0.0", "::"})
"""Host names that mean "this machine" (with ``127.*`` and ``*.localhost``)."""


def loopback(link: str) -> bool:
    """Whether ``link`` names a host only this machine reaches (``localhost``,
    ``127.0.0.1``…): useless to a friend elsewhere."""
    try:
        host = parse_target(link, 1).host.lower()
    except ValueError:
        return False
    return host in LOOPBACK_NAMES or host.startswith("127.") or host.endswith(".localhost")


def comparable(code: str) -> str:
    """An invite code as the server compares it: without regard to case,
    spaces and dashes (protocol §11.9)."""
    return "".join(c for c in code.upper() if c not in " -\t")


# ------------------------------------------------------------ the lobby


def badge(info: TableInfo) -> str:
    """What a table's name carries in the lobby: `` (private)``, `` (locked)``, or nothing."""
    flags = (("private", info.get("private")), ("locked", info.get("locked")))
    marks = [word for word, on in flags if on]
    return f" ({', '.join(marks)})" if marks else ""


def seats_taken(info: TableInfo) -> int:
    """The seats taken: a private table's lobby entry lists no players, but says how many."""
    return info.get("seated", len(info["players"]))


REQUEST_ERRORS = frozenset(
    {
        ErrorCode.BAD_INVITE_CODE,
        ErrorCode.TOO_MANY_ATTEMPTS,
        ErrorCode.BARRED,
        ErrorCode.TABLE_LOCKED,
    }
)
"""The refusals that answer a ``join`` or ``spectate`` (they end the request)."""


# ------------------------------------------------------ the creator's menu


class CreatorRequests:
    """The requests only a table's creator may make (protocol §11.9); the server
    checks again, and answers in plain words when it refuses.

    Args:
        send: sends a message now (False, and the user told, when offline).
    """

    def __init__(self, send: Callable[[ClientMsg], bool]):
        self.send = send

    def kick(self, seat: int) -> bool:
        """Remove the player at ``seat`` (a bot takes the seat once a game was played)."""
        return self.send(KickMsg(type=ClientMessage.KICK, seat=seat))

    def lock(self, locked: bool) -> bool:
        """Lock the table (nobody new comes) or unlock it."""
        return self.send(LockMsg(type=ClientMessage.LOCK, locked=locked))

    def mute(self, seat: int | None, muted: bool) -> bool:
        """Mute (or unmute) the player at ``seat``, or every spectator (``seat`` None)."""
        message = MuteMsg(type=ClientMessage.MUTE, muted=muted)
        if seat is None:
            message["watchers"] = True
        else:
            message["seat"] = seat
        return self.send(message)

    def hand_over(self, seat: int) -> bool:
        """Make the player at ``seat`` the table's creator."""
        return self.send(HandOverMsg(type=ClientMessage.HAND_OVER, seat=seat))

    def unbar(self, name: str | None = None) -> bool:
        """Let back the person removed under ``name``, or everyone removed."""
        message = UnbarMsg(type=ClientMessage.UNBAR)
        if name is not None:
            message["name"] = name
        return self.send(message)


MenuItem = tuple[str, str, str]
"""A choice of the creator's menu: key, words, what it does (``kick``, ``lock``…)."""


def menu_choices(model: TableModel, has_link: bool) -> list[MenuItem]:
    """The creator's menu at ``model``'s table, as it stands."""
    info = model.info
    locked = bool(info is not None and info.get("locked"))
    watchers_muted = bool(info is not None and info.get("watchers_muted"))
    playing = model.state != TableState.WAITING
    items: list[MenuItem] = [
        ("k", "Replace a player by a bot" if playing else "Remove a player", "kick"),
        ("l", "Unlock the table" if locked else "Lock the table (no one new)", "lock"),
        ("m", "Mute or unmute a player", "mute"),
        ("w", "Unmute the spectators" if watchers_muted else "Mute the spectators", "watchers"),
        ("h", "Hand the creator's role over", "hand_over"),
    ]
    if info is not None and info.get("barred"):
        items.append(("u", "Let removed players back", "unbar"))
    if has_link:
        items.append(("i", "Show the invite link", "invite"))
    return items


def others(model: TableModel, *, connected: bool = False) -> list[tuple[int, str]]:
    """The seats of the other people at the table (not bots), with their names;
    ``connected``: only those with a connection."""
    return [
        (p["seat"], p["name"])
        for p in model.players
        if p["seat"] != model.seat and p["bot"] is None and (p["connected"] or not connected)
    ]


def creator_key(model: TableModel, player_name: str, in_play: bool) -> bool:
    """The creator's menu key (``m``), to the creator only: the key shown in
    the Footer between hands (``in_play`` False), the same key unshown while a
    hand is in play (the Footer has no room left then)."""
    view = model.view
    playing = view is not None and view["phase"] == Phase.PLAY
    return model.is_creator(player_name) and playing == in_play
