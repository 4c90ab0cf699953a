"""Where the client is: in the lobby, or at a table (its :class:`~.model.TableModel`,
seated or watching); and the seat saved for this server and player, to take back later.
"""

from __future__ import annotations

from .model import TableModel
from .news import Listener
from .saved.resume_tokens import SavedSeat, TokenStore


class Place:
    """The table shown and the seat saved (protocol §11.7: a seat's resume token).

    The saved seat is per server and per player name (``key``, ``"HOST:PORT name"``):
    two people on one account, or one person playing two names, never take each
    other's seat.

    Args:
        store: where resume tokens are kept.
        key: this server and player's key in ``store``.
        listener: told when a table is shown, or left.
    """

    def __init__(self, store: TokenStore, key: str, listener: Listener):
        self.store = store
        self.key = key
        self.listener = listener
        self.model: TableModel | None = None
        """The table shown (seated or watching), or None in the lobby."""

    def at(self, table: str | None) -> TableModel | None:
        """The model, if it is of ``table``."""
        model = self.model
        return model if model is not None and model.name == table else None

    def show(self, model: TableModel) -> None:
        """Show ``model``'s table (a new one, or the one shown anew)."""
        self.model = model
        self.listener.table_shown()

    def drop(self) -> None:
        """Forget the table shown: back to the lobby."""
        self.model = None
        self.listener.table_left()

    def saved(self) -> SavedSeat | None:
        """The seat saved for this server and name."""
        return self.store.get(self.key)

    def save(self, token: str, table: str, name: str, seat: int) -> None:
        """Keep the seat just taken, to take it back later."""
        self.store.put(self.key, token, table, name, seat)

    def forget(self) -> None:
        """Forget the seat saved for this server and name."""
        self.store.drop(self.key)
