"""What the player types to the plain client: a number (one of the choices offered),
or a command and its words (``play 8h``, ``draw``, ``hand``, ``say hello``…). Each
command has its English word and its word in the player's language (``ziehen``,
``τράβα``), both understood. Nothing here decides a rule: a typed play is sent
only when the server lists it (``view.legal``, protocol §8).
"""

from __future__ import annotations

from collections.abc import Callable

from craits.protocol.actions import Action, Announce, CallIdiot, Draw, Pass, Play
from craits.protocol.i18n import LazyString, _, lazy_pgettext
from craits.protocol.types import CreateTableMsg
from craits.protocol.vocab import SUIT_SYMBOLS, SUITS, BotLevel, ClientMessage
from craits.protocol.words import RANK_NAMES, SUIT_NAMES

from ..core.model import TableModel
from ..core.session import Session
from . import describe
from .output import Speaker

COMMANDS: dict[str, LazyString] = {
    # TRANSLATORS: the words typed to the plain client; the English word is
    # always understood too; give one word, without spaces
    "help": lazy_pgettext("command", "help"),
    "hand": lazy_pgettext("command", "hand"),
    "table": lazy_pgettext("command", "table"),
    "scores": lazy_pgettext("command", "scores"),
    "log": lazy_pgettext("command", "log"),
    "play": lazy_pgettext("command", "play"),
    "draw": lazy_pgettext("command", "draw"),
    "pass": lazy_pgettext("command", "pass"),
    "one": lazy_pgettext("command", "one"),
    "idiot": lazy_pgettext("command", "idiot"),
    "say": lazy_pgettext("command", "say"),
    "back": lazy_pgettext("command", "back"),
    "tables": lazy_pgettext("command", "tables"),
    "join": lazy_pgettext("command", "join"),
    "watch": lazy_pgettext("command", "watch"),
    "create": lazy_pgettext("command", "create"),
    "bot": lazy_pgettext("command", "bot"),
    "start": lazy_pgettext("command", "start"),
    "leave": lazy_pgettext("command", "leave"),
    "quit": lazy_pgettext("command", "quit"),
}
"""Each command, by its English word, and its word in the player's language."""

ALIASES = {"score": "scores", "exit": "quit", "keep": "pass", "list": "tables", "?": "help"}
"""Other English words for some commands."""

LOG_LINES = 12
"""The lines ``log`` says again."""


def command_of(word: str) -> str | None:
    """The command (its English word) typed as ``word``, in English or in the
    player's language, any case; None if there is none."""
    word = word.casefold()
    word = ALIASES.get(word, word)
    if word in COMMANDS:
        return word
    return next((k for k, v in COMMANDS.items() if str(v).casefold() == word), None)


def card_of(text: str) -> str | None:
    """A typed card as a card code: a rank (``A 2``…``10 J Q K``, ``T`` too) and a
    suit letter or symbol (``8h``, ``10S``, ``q♠``); None if it is not one."""
    text = text.strip().upper()
    if len(text) < 2:
        return None
    rank, suit = text[:-1], text[-1]
    rank = "T" if rank == "10" else rank
    symbols = {v: k for k, v in SUIT_SYMBOLS.items()}
    suit = symbols.get(suit, suit)
    return rank + suit if rank in RANK_NAMES and suit in SUITS else None


def suit_of(text: str) -> str | None:
    """A typed suit (a letter, a symbol, or its name in English or the player's
    language) as a suit code; None if it is not one."""
    word = text.strip().casefold()
    for code, name in SUIT_NAMES.items():
        if word in (code.casefold(), SUIT_SYMBOLS[code], name.message, str(name).casefold()):
            return code
    return None


def _last_lines(model: TableModel) -> list[str]:
    """The table's last :data:`LOG_LINES` events, as said."""
    return [line.plain for line in model.log.lines[-LOG_LINES:]]


class Commands:
    """Carries out what the player types.

    Args:
        session: the session the commands act on.
        speaker: where the answers are said.
        stop: called by ``quit``.
    """

    def __init__(self, session: Session, speaker: Speaker, stop: Callable[[], None]):
        self.session = session
        self.speaker = speaker
        self.stop = stop
        self._run: dict[str, Callable[[str], None]] = {
            "help": lambda rest: self.help(),
            "hand": lambda rest: self._ask_table(lambda m: [describe.hand(m)]),
            "table": lambda rest: self._ask_table(describe.table),
            "scores": lambda rest: self._ask_table(lambda m: [describe.scores(m)]),
            "log": lambda rest: self._ask_table(_last_lines),
            "play": self.play,
            "draw": lambda rest: self._act_kind(Draw),
            "pass": lambda rest: self._act_kind(Pass),
            "one": lambda rest: self._act_kind(Announce),
            "idiot": self.idiot,
            "say": self.chat,
            "back": lambda rest: self.session.requests.back(),
            "tables": lambda rest: self.tables(),
            "join": self.join,
            "watch": lambda rest: self._named(rest, self.session.requests.spectate),
            "create": self.create,
            "bot": lambda rest: self.session.requests.add_bot(BotLevel.BASIC),
            "start": lambda rest: self.session.requests.start_game(),
            "leave": lambda rest: self.session.requests.leave(),
            "quit": lambda rest: self.stop(),
        }

    def take(self, line: str) -> None:
        """Carry out one typed line (an empty one says the choices again)."""
        line = line.strip()
        if not line:
            self._repeat()
            return
        word, _sep, rest = line.partition(" ")
        if word.isdigit():
            self.choose(int(word))
            return
        command = command_of(word)
        if command is None:
            self.speaker.line(
                _("Unknown command {word}. Type help for the commands.").format(word=word)
            )
            return
        self._run[command](rest.strip())

    def _repeat(self) -> None:
        model = self.session.model
        if model is not None and self.speaker.offered:
            self.speaker.line(describe.menu(self.speaker.offered, model))
        else:
            self.speaker.line(_("Type help for the commands."))

    def help(self) -> None:
        """Say every command."""
        self.speaker.lines(
            [
                _("Type the number of a choice when it is offered, or a command:"),
                _("play CARD, e.g. play 8h, or play 8h clubs (an eight names a suit); draw; pass."),
                _("Suits as letters: s spades, h hearts, d diamonds, c clubs."),
                _("one: say one card. idiot NAME: call idiot on a player."),
                _("hand: your cards. table: the table. scores: the scores. log: the last events."),
                _("say TEXT: chat with the table. back: I am back."),
                _("tables: the tables. join NAME [CODE]: sit at a table. watch NAME: watch one."),
                _("create NAME: open a table. bot: seat a bot. start: start the game."),
                _("leave: leave the table. quit: end the client."),
            ]
        )

    def _ask_table(self, what: Callable[..., list[str]]) -> None:
        model = self.session.model
        if model is None:
            self.speaker.line(_("You are not at a table. Type tables to list them."))
            return
        self.speaker.lines(what(model))

    # ------------------------------------------------------------ acting

    def _send(self, action: Action) -> None:
        if not self.session.requests.act(action):
            self.speaker.line(_("Not connected: try again in a moment."))

    def choose(self, number: int) -> None:
        """Carry out the choice numbered ``number``."""
        offered = self.speaker.offered
        if not 1 <= number <= len(offered):
            self.speaker.line(_("There is no choice {number} now.").format(number=number))
            return
        self._send(offered[number - 1])

    def _act_kind(self, kind: type) -> None:
        found = next(
            (a for a in describe.choices_or_none(self.session.model) if isinstance(a, kind)), None
        )
        if found is None:
            self.speaker.line(_("You cannot do that now."))
            return
        self._send(found)

    def play(self, rest: str) -> None:
        """``play CARD [SUIT]``: play a card the server lists as playable."""
        words = rest.split()
        card = card_of(words[0]) if words else None
        if card is None:
            self.speaker.line(_("Which card? For example: play 8h, play 10s, play qd."))
            return
        plays = [
            a
            for a in describe.choices_or_none(self.session.model)
            if isinstance(a, Play) and a.card == card
        ]
        if not plays:
            self.speaker.line(_("You cannot play that card now."))
            return
        if len(words) > 1:
            suit = suit_of(words[1])
            plays = [p for p in plays if p.suit == suit]
            if not plays:
                self.speaker.line(_("Name a suit: spades, hearts, diamonds or clubs."))
                return
        if len({p.suit for p in plays}) > 1:
            self.speaker.line(_("That card names a suit: add it, e.g. play 8h clubs."))
            return
        self._send(plays[0])

    def idiot(self, rest: str) -> None:
        """``idiot NAME``: call idiot on a player (R7), when the server lists it."""
        model = self.session.model
        calls = [a for a in describe.choices_or_none(model) if isinstance(a, CallIdiot)]
        wanted = rest.casefold()
        if model is not None and wanted:
            calls = [a for a in calls if model.name_of(a.target).casefold() == wanted]
        if len(calls) != 1:
            if calls:
                self.speaker.line(_("Say whom: idiot NAME."))
            else:
                self.speaker.line(_("Nobody can be called idiot now."))
            return
        self._send(calls[0])

    # ------------------------------------------------------------ table and lobby

    def chat(self, text: str) -> None:
        """``say TEXT``: chat with the table."""
        if not text:
            self.speaker.line(_("Say what? For example: say good game."))
        elif self.session.model is None:
            self.speaker.line(_("You are not at a table. Type tables to list them."))
        else:
            self.session.requests.chat(text)

    def tables(self) -> None:
        """``tables``: the lobby's tables, a sentence each."""
        listed = sorted(self.session.lobby.tables.values(), key=lambda t: t["name"])
        if not listed:
            self.speaker.line(_("There is no table yet. Type create NAME to open one."))
        for t in listed:
            seated = t.get("seated", len(t["players"]))
            self.speaker.line(
                _("Table {table}: {seated} of {seats} seats taken, {state}.").format(
                    table=t["name"],
                    seated=seated,
                    seats=t["seats"],
                    state=describe.state_words(t["state"]),
                )
            )

    def _named(self, rest: str, then: Callable[[str], None]) -> None:
        name = rest.strip()
        if not name:
            self.speaker.line(_("Which table? Type tables to list them."))
            return
        then(name)

    def join(self, rest: str) -> None:
        """``join NAME [CODE]``: sit at a table (a private one with its invite code)."""
        name, _sep, code = rest.strip().partition(" ")
        if not name:
            self.speaker.line(_("Which table? Type tables to list them."))
            return
        self.session.requests.join(name, code=code.strip() or None)

    def create(self, rest: str) -> None:
        """``create NAME [SEATS]``: open a table of 4 seats (or SEATS) and sit at it."""
        name, _sep, seats = rest.strip().rpartition(" ")
        if not (seats.isdigit() and name):
            name, seats = rest.strip(), "4"
        if not name:
            self.speaker.line(_("Name the table: create NAME."))
            return
        request = CreateTableMsg(type=ClientMessage.CREATE_TABLE, name=name, seats=int(seats))
        self.session.requests.create_table(request)
