"""What a server's error means beyond its words (protocol §12), given the request it
answered: a seat gone, a name taken, no seat free, a private table's code refused…
:class:`Refusals` holds one reaction per such code; other errors are shown as said.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from craits.protocol.i18n import LazyString, _, _l
from craits.protocol.types import ErrorMsg
from craits.protocol.vocab import ErrorCode, TableState

from .news import Severity
from .requests import Intent, Want

if TYPE_CHECKING:
    from .session import Session

_ERROR_CODES = frozenset(ErrorCode)

QUIET_ERRORS = frozenset({ErrorCode.STALE})
"""Refusals not worth a notification (the next update explains itself)."""

PLAIN: dict[ErrorCode, tuple[LazyString, Severity]] = {
    ErrorCode.BARRED: (
        _l(
            "You cannot join {table}: its creator removed you from it (only they can let you back)."
        ),
        "warning",
    ),
    ErrorCode.TABLE_LOCKED: (
        _l("Table {table} is locked by its creator: no one new may join or watch it now."),
        "warning",
    ),
    ErrorCode.MUTED: (_l("The table's creator has muted your chat here."), "warning"),
    ErrorCode.NOTHING_TO_DECIDE: (
        _l("No hint now: you have nothing to decide (not your turn, or only one move)."),
        "information",
    ),
    ErrorCode.HINT_PENDING: (_l("Still thinking about your last hint…"), "information"),
    ErrorCode.HINTS_OFF: (_l("No hints at a rated table."), "information"),
}
"""Refusals of protocol §11.9 and the hints' (§7.6) said in these words (``{table}``:
the table asked for)."""


class Refusals:
    """The client's reaction to each error that means more than its words.

    Each reaction is given the :class:`~.requests.Intent` the error came to and the
    server's words, and returns True when nothing more is to be said (else the
    server's words are shown).

    Args:
        session: whose table, seat, requests and codes an error may end.
    """

    def __init__(self, session: Session):
        self.session = session
        self._reactions: dict[ErrorCode, Callable[[Intent, str], bool]] = {
            ErrorCode.BAD_TOKEN: self._bad_token,
            ErrorCode.REPLACED: self._replaced,
            ErrorCode.NAME_TAKEN: self._name_taken,
            ErrorCode.TABLE_FULL: self._table_full,
            ErrorCode.NO_SUCH_TABLE: self._no_such_table,
            ErrorCode.NOT_AT_TABLE: self._not_at_table,
            ErrorCode.SHUTDOWN: self._shutdown,
            ErrorCode.ALREADY_AT_TABLE: self._already_at_table,
            ErrorCode.BAD_INVITE_CODE: self._code_refused,
            ErrorCode.KICKED: self._kicked,
            ErrorCode.TOO_MANY_ATTEMPTS: self._too_many,
            **{code: self._plain(*said) for code, said in PLAIN.items()},
        }

    def take(self, m: ErrorMsg) -> None:
        """Act on an ``error``: end the request it answers, react to what it means,
        and say it (as a warning when it answers an ``act``: it has an ``id``)."""
        code = ErrorCode(m["code"]) if m["code"] in _ERROR_CODES else None
        text = m["message"]
        if code in QUIET_ERRORS:
            return
        if self.session.account.refused(code, text):  # a register or login's answer (§7.5)
            return
        intent = self.session.requests.refused(code)
        reaction = self._reactions.get(code) if code is not None else None
        if reaction is not None and reaction(intent, text):
            return
        self.session.say(text, "error" if "id" not in m else "warning")

    # ------------------------------------------------------------ seats

    def _bad_token(self, intent: Intent, text: str) -> bool:
        session = self.session
        model = session.model
        if model is not None:
            session.say(f"Your seat at {model.name} is gone.", "warning")
        else:
            session.say("The seat saved for this server is gone.", "warning")
        session.place.forget()
        session.place.drop()
        if model is None:
            session.begin()
        return True

    def _replaced(self, intent: Intent, text: str) -> bool:
        session = self.session
        session.say("Your seat was taken back from another window.", "warning")
        if session.model is not None:
            session.model.token = None
        session.place.drop()
        return True

    def _name_taken(self, intent: Intent, text: str) -> bool:
        if intent.want != Want.JOIN or intent.table is None:
            return False
        self.session.listener.name_taken(intent.table, text)
        return True

    def _table_full(self, intent: Intent, text: str) -> bool:
        # no seat for this player (a link or --table to a table whose game runs): watch?
        if intent.want != Want.JOIN or intent.table is None:
            return False
        table = intent.table
        info = self.session.lobby.tables.get(table)
        if info is not None and info["state"] != TableState.WAITING:
            why = f"The game at table {table} is already {info['state']}: no seat is free."
        elif info is not None:
            why = f"Table {table} is full: all {info['seats']} seats are taken."
        else:
            why = f"You cannot sit at table {table}: {text}."
        self.session.listener.watch_offered(table, f"{why} Watch it instead?")
        return True

    def _no_such_table(self, intent: Intent, text: str) -> bool:
        # watching again after a reconnection, but the table is gone
        session = self.session
        model = session.place.at(intent.table)
        if intent.want != Want.WATCH_AGAIN or model is None or not model.spectator:
            return False
        session.place.drop()
        session.say(f"Table {intent.table} is gone (the server restarted?).", "warning")
        return True

    def _not_at_table(self, intent: Intent, text: str) -> bool:
        # the server no longer counts this client at the table it shows
        session = self.session
        model = session.model
        if model is None:
            return False
        session.place.drop()
        session.say(f"You are no longer at table {model.name}.", "warning")
        session.requests.list_tables()
        return True

    def _shutdown(self, intent: Intent, text: str) -> bool:
        self.session.say("The server is shutting down.", "warning")
        return True

    def _already_at_table(self, intent: Intent, text: str) -> bool:
        return intent.want == Want.RESUME  # (a resume raced a join: nothing to say)

    # --------------------------------------- private tables (protocol §11.9)

    def _code_refused(self, intent: Intent, text: str) -> bool:
        """A private table refused the code (or its absence): never send that code
        again (issue 23), and ask for one."""
        table = intent.table
        if intent.want not in (Want.JOIN, Want.SPECTATE) or table is None:
            return False
        self.session.privacy.refuse(table)
        self.session.listener.code_needed(table, intent.want == Want.SPECTATE, text)
        return True

    def _too_many(self, intent: Intent, text: str) -> bool:
        """Wrong codes spent the budget: say how long to wait; the code sent is
        not sent again by itself (it may be wrong too): the next try asks for one."""
        if intent.table is not None and intent.want in (Want.JOIN, Want.SPECTATE):
            self.session.privacy.codes.pop(intent.table, None)
        wait = text.rsplit(":", 1)[-1].strip()  # "… try again in 30 s"
        self.session.say(f"Too many wrong invite codes: {wait}.", "error", 8)
        return True

    def _kicked(self, intent: Intent, text: str) -> bool:
        """The creator removed this client (or its saved seat's token was revoked)."""
        session = self.session
        model = session.model
        where = f"table {model.name}" if model is not None else "the table"
        session.say(
            f"The creator of {where} removed you from it. You cannot sit or watch there "
            "again unless they let you back."
            if model is not None
            else f"{text[:1].upper()}{text[1:]}: that seat is gone.",
            "warning",
            10,
        )
        session.place.forget()
        if model is not None:
            session.place.drop()
            session.requests.list_tables()
        else:
            session.begin()
        return True

    def _plain(self, words: LazyString, severity: Severity) -> Callable[[Intent, str], bool]:
        """A reaction that says ``words`` (:data:`PLAIN`'s, ``{table}`` the table asked for)."""

        def react(intent: Intent, text: str) -> bool:
            table = intent.table or _("this table")
            self.session.say(str(words).format(table=table), severity, 8)
            return True

        return react
