"""The table: the game panel (seats, pile, hand, prompt), the log, chat, and the keys.

The keys are in the Footer; a key that does nothing now is greyed out
(:meth:`TableScreen.check_action` returns None), and one that never applies
here (a spectator's "draw") is hidden: :func:`craits.client.presenter.table_key`
decides. So that the Footer fits 80 columns whatever applies, ``b`` (I'm back),
``h`` (scores) and, during a game, the creator's ``x`` (end the game) are left
out of it: the prompt names the first two when they matter, ``x`` is the
"Close table" key shown when no game runs, and the rules page (``?``) lists
every key. The keys that play are the game
panel's (:class:`~craits.client.game.GamePanel`); the others are here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from craits.protocol.messages import MAX_CHAT
from craits.protocol.vocab import BotLevel, TableState
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from . import presenter
from .cards import CardStyle
from .creator import open_creator_menu
from .dialogs import ChoiceDialog, ConfirmDialog, RulesScreen
from .footer import KeyFooter
from .game import GamePanel
from .kept import KeptLines
from .model import LOG_LINES, TableModel
from .results import overtaken
from .session import Session
from .summary import SummaryScreen
from .widgets import FixedText, HandView, WrappedLog, freeze_heap_once

BOT_LEVELS = [
    ("e", Text("easy: a beginner, who slips now and then"), BotLevel.EASY),
    ("b", Text("basic: plays sensibly"), BotLevel.BASIC),
    ("x", Text("expert: thinks ahead about the cards it cannot see"), BotLevel.EXPERT),
    ("r", Text("random: any legal move"), BotLevel.RANDOM),
]
"""The choices of the add-bot dialog: key, words, level."""


KEY_ACTIONS = (*presenter.TABLE_KEYS, "leave", "rules")
"""The key actions whose state the Footer shows."""

TABLE_ESSENTIAL = ("play", "draw", "rules", "leave")
"""The table's keys the Footer never leaves out, however narrow (:mod:`.footer`)."""
TABLE_SHORT = {
    "announce": "One",
    "add_bot": "Bot",
    "new_game": "New",
    "close_table": "Close",
    "creator_menu": "Menu",
    "close_chat": "Close",
}
"""Shorter words for the table's keys on a narrow screen."""

WIDE = (80, 20)
"""The least terminal (columns, rows) for the table beside the log."""
LARGE = (160, 45)
"""From this terminal size: larger card faces, and more room for the log."""
STACKED = (40, 24)
"""The least terminal for the stacked layout (the log under the table); a
phone's browser is about 44 columns by 40 rows or more."""
STACKED_LOG = 9
"""Rows of the log and chat under the table in the stacked layout up to 30 rows;
a taller screen (a phone held upright) gives them half of each row more."""
FELT_LEAST = 7
"""The fewest rows of the drawn table in the stacked layout (two seats of two
rows and the pile between them; the style sheet's ``min-height``)."""
PROMPT_ROWS = 3
"""The prompt's rows (the style sheet's ``#prompt`` height)."""
LOG_LEAST = 3
"""The fewest rows of the game log under the table: one line in its frame."""
CHAT_ROWS = (4, 3)
"""The chat's rows under the table in the stacked layout: two lines, or one
when the screen is low."""


def stacked_rows(rows: int, hand: int) -> tuple[int, int]:
    """The stacked layout's rows under the table, and the chat's among them,
    for ``rows`` rows below the top line (the keys' line excluded) and a hand
    ``hand`` rows high (with its frame).

    The drawn table, the hand and the prompt come first (issue 23: at 40×24 the
    prompt, with ``b: I'm back``, was pushed off the screen): the log and chat
    get what they leave, up to :data:`STACKED_LOG` (and half of each row over
    30); the chat shrinks to one line, then goes, and below :data:`LOG_LEAST`
    rows the log goes too (0, 0) until the hand is shorter again."""
    most = STACKED_LOG + max(0, rows + 2 - 30) // 2
    room = min(most, rows - FELT_LEAST - hand - PROMPT_ROWS)
    if room < LOG_LEAST:
        return 0, 0
    if room >= LOG_LEAST + 2 + CHAT_ROWS[0]:
        return room, CHAT_ROWS[0]
    if room >= LOG_LEAST + CHAT_ROWS[1]:
        return room, CHAT_ROWS[1]
    return room, 0


def fits(width: int, height: int) -> tuple[bool, bool]:
    """Whether a ``width`` × ``height`` terminal takes the stacked layout, and
    whether it is too small for any (then the screen asks for a bigger one)."""
    narrow = width < WIDE[0]
    least = STACKED if narrow else WIDE
    return narrow, width < least[0] or height < least[1]


def too_small_text(width: int, height: int) -> Text:
    """The request shown instead of the table in a terminal too small for it
    (with ``--ascii`` its ``×`` reaches the terminal as ``x``)."""
    out = Text("The terminal is too small for the table.\n\n", style="bold")
    out.append(
        f"Make the terminal at least {WIDE[0]}×{WIDE[1]} "
        f"(or {STACKED[0]}×{STACKED[1]}, the log under the table); "
        f"it is {width}×{height} now.\n\nq leaves the table; the game goes on meanwhile."
    )
    return out


LOG_JUMP_AFTER = 1.0
"""Seconds a full game log waits after a scroll before it scrolls again (jump
scroll: the lines of a fast game, bots playing, come in one scroll of several
rows rather than one at a time, each of which paints the whole log again)."""


def fit(screen: Screen[None], width: int, height: int) -> None:
    """Give the table ``screen`` the layout for a terminal of ``width`` ×
    ``height``: side by side from 80 columns, stacked (the log under the table)
    below, and a plain request for a bigger terminal below the least that can
    be played."""
    if not screen.query("#right"):
        return  # the app is closing as the table opens: nothing to lay out
    narrow, small = fits(width, height)
    screen.set_class(narrow, "-narrow")
    screen.set_class(width >= LARGE[0] and height >= LARGE[1], "-large")
    screen.set_class(small, "-too-small")
    if narrow:
        stack(screen, height)
    else:
        right = screen.query_one("#right")
        right.styles.height = None  # (as the style sheet says)
        right.display = True
        screen.query_one("#chatlog").styles.height = None
        screen.query_one("#chatlog").display = True
    if small:
        screen.query_one("#too-small", Static).update(too_small_text(width, height))


def stack(screen: Screen[None], height: int | None = None) -> None:
    """In the stacked layout, give the log and chat under the table the rows
    the table, the hand and the prompt leave them (:func:`stacked_rows`) on a
    screen ``height`` rows high (by default the screen's); nothing is laid out
    again when they do not change."""
    height = screen.size.height if height is None else height
    banner = screen.query_one("#banner")
    rows = height - 2 - (banner.outer_size.height if banner.display else 0)
    hand = screen.query_one("#hand").styles.height
    right_rows, chat_rows = stacked_rows(rows, int(hand.value) if hand is not None else 5)
    if screen.query_one("#chat-input").display:  # typing: the line and the log's frame
        right_rows = max(right_rows, LOG_LEAST + 1)
    right, chat = screen.query_one("#right"), screen.query_one("#chatlog")
    if right.styles.height is None or right.styles.height.value != right_rows:
        right.styles.height = right_rows
    right.display = right_rows > 0
    chat.display = chat_rows > 0
    if chat_rows and (chat.styles.height is None or chat.styles.height.value != chat_rows):
        chat.styles.height = chat_rows


def show_topbar(screen: TableScreen) -> None:
    """The table ``screen``'s top line, in fewer words on a narrow screen."""
    model = screen.model
    if screen._ready and model is not None:
        topbar = presenter.topbar(model, short=screen.has_class("-narrow"))
        screen.query_one("#topbar", FixedText).update(topbar)


def refocus(screen: Screen[None]) -> None:
    """Give the table ``screen`` its focus back after its panels were hidden (a
    terminal too small hides them, and the focus with them): to the chat line if
    it is open, else to the hand, so the game's keys act again."""
    if screen.focused is not None or screen.has_class("-too-small") or not screen.query("#hand"):
        return
    chat = screen.query_one("#chat-input", Input)
    (chat if chat.display else screen.query_one("#hand")).focus()


def key_context(screen: TableScreen) -> presenter.KeyContext:
    """What the table ``screen``'s keys' states depend on beyond the model."""
    online, name = screen.session.online, screen.session.player_name
    if not screen._ready:
        return presenter.KeyContext(online, name)
    chat_open = bool(screen.query_one("#chat-input").display)
    return presenter.KeyContext(online, name, screen.game.current_card(), chat_open)


class TableQuestions:
    """The questions the table screen asks before it acts (protocol §11.2,
    §11.3): close the table, end the game by closing it, leave a game. Mixed
    into :class:`TableScreen`."""

    session: Session
    if TYPE_CHECKING:
        app: App[Any]

    def action_close_table(self) -> None:
        """Close the table, once confirmed: everyone at it goes back to the lobby."""
        model = self.session.model
        if model is not None:
            question = (
                f"Close table {model.name}? Everyone at it goes back to the lobby, "
                "and it is gone from the list."
            )
            self._confirm(question, self.session.close_table)

    def action_end_game(self) -> None:
        """Close the table during its game, once confirmed: the game ends,
        recorded as abandoned, and everyone goes back to the lobby."""
        model = self.session.model
        if model is not None:
            question = (
                f"Close table {model.name} and end the game? The game stops where it "
                "stands (its record keeps it, marked abandoned), and everyone at the "
                "table goes back to the lobby."
            )
            self._confirm(question, lambda: self.session.close_table(end_game=True))

    def _confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` in a dialog; on yes, call ``then``."""
        self.app.push_screen(ConfirmDialog(question), lambda yes: then() if yes else None)

    def action_leave(self) -> None:
        """Leave the table (asking first in the middle of a game)."""
        model = self.session.model
        if model is None or model.spectator or model.state != TableState.PLAYING:
            self.session.leave()
            return
        self._confirm(
            "Leave the game? Your seat stays yours: the server plays it while "
            "others play on (with nobody else playing, the game waits for you). "
            "Come back with r in the lobby, or start craits-client again.",
            self.session.leave,
        )


class TableScreen(Screen[None], KeptLines, TableQuestions):
    """One table, seated or watching.

    Args:
        session: the session (the model, and where requests go).
        style: how cards are drawn.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "back", "I'm back", show=False),
        Binding("b", "add_bot", "Add bot"),
        Binding("B", "choose_bot", "Bot level", show=False),
        Binding("s", "start", "Start"),
        Binding("n", "new_game", "New game"),
        Binding("x", "close_table", "Close table"),
        Binding("x", "end_game", "End game", show=False),
        Binding("h", "summary", "Scores", show=False),
        Binding("c", "chat", "Chat"),
        Binding("m", "creator_menu", "Creator"),
        Binding("m", "creator_menu_in_play", "Creator", show=False),
        Binding("escape", "close_chat", "Close chat", key_display="Esc"),
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self._chat_shown = 0
        self._log_shown = 0
        self._log_rewrites = 0
        self._ready = False
        self._game: GamePanel | None = None
        self._banner: Text | None = None
        self._key_states: tuple[object, ...] = ()
        self.bot_level = BotLevel.BASIC
        """The level of the bots ``b`` seats (``B`` chooses it, and seats one)."""

    def compose(self) -> ComposeResult:
        """Top bar, banner, the game panel; log and chat on the right."""
        yield FixedText(id="topbar")
        yield Static(id="banner")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            yield GamePanel(self.session, self.style, id="left")
            with Vertical(id="right"):
                yield WrappedLog(id="log", indent=2, max_lines=LOG_LINES, classes="panel")
                yield WrappedLog(id="chatlog", max_lines=LOG_LINES, classes="panel")
                chat_input = Input(
                    id="chat-input",
                    placeholder="Say something (Enter sends, Esc closes)",
                    max_length=MAX_CHAT,
                    compact=True,
                )
                chat_input.display = False  # hidden from the first, so is its Esc key
                yield chat_input
        yield KeyFooter(essential=TABLE_ESSENTIAL, short=TABLE_SHORT, show_command_palette=False)

    def on_mount(self) -> None:
        """Titles, the timer tick, and the first drawing."""
        if not self.query("#log"):
            return  # the app is closing as the table opens: nothing to draw
        self.query_one("#log").border_title = "Game"
        self.query_one("#log", WrappedLog).jump_after = LOG_JUMP_AFTER
        self.query_one("#chatlog").border_title = "Chat"
        self.set_interval(0.5, self._tick)
        self._game = self.query_one(GamePanel)
        self._ready = True
        self.sync()
        self.call_after_refresh(freeze_heap_once)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the layout (:func:`fit`) and the top line to the terminal; back from
        the request for a bigger one, the keys go to the hand (or chat line) again."""
        fit(self, event.size.width, event.size.height)
        self.call_after_refresh(refocus, self)
        show_topbar(self)

    @on(HandView.Grown)
    def _hand_grown(self) -> None:
        """The hand took more rows, or fewer: the log under it, in the stacked
        layout, gives them or takes them back."""
        if self._ready and self.has_class("-narrow"):
            stack(self)

    def on_screen_resume(self) -> None:
        """Back from a dialog or summary: redraw (a suit may now need naming)."""
        self.sync()

    def _tick(self) -> None:
        model = self.model
        if model and model.deadline is not None and self._ready and self.game.is_attached:
            self.game.show_seats(model)  # (under a dialog too: the table stays live)

    @property
    def model(self) -> TableModel | None:
        """The table as the session knows it."""
        return self.session.model

    @property
    def game(self) -> GamePanel:
        """The game panel."""
        game = self._game
        return game if game is not None else self.query_one(GamePanel)

    @property
    def selected_card(self) -> str | None:
        """The card chosen in the hand."""
        return self.game.selected_card

    @property
    def armed(self) -> bool:
        """Whether "one card" will be said with the next play."""
        return self.game.armed

    # ---------------------------------------------------------------- state

    def sync(self, new_update: bool = False) -> None:
        """Redraw everything from the model (after any message)."""
        model = self.model
        if not self._ready or model is None or not self.game.is_attached:
            return  # (not drawn yet, or the app closing under a dialog)
        if new_update:
            self._close_stale_dialogs()
        on_top = self.app.screen is self
        if not on_top:  # live under a dialog, but no card sliding in (issue 23)
            self.game.motion.forget()
        show_topbar(self)
        text = presenter.banner(self.session.online, self.session.link.detail)
        self.query_one("#banner").display = text is not None
        if text is not None and text != self._banner:  # (an update lays the screen out)
            self._banner = text
            self.query_one("#banner", Static).update(text)
        self.game.sync(model, new_update)
        self._write_logs(model)
        if model.summary_due:
            self.show_summary(auto=True)
        self.game.maybe_ask_suit(model)
        for screen in self.app.screen_stack:
            if isinstance(screen, SummaryScreen):
                screen.sync()
        if on_top:
            self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Redraw the Footer when a key's state changed (it is rebuilt whole)."""
        context = key_context(self)  # (once: each key's state reads the same)
        states = tuple(presenter.table_key(a, self.model, context) for a in KEY_ACTIONS)
        focus = self.focused
        if (states, focus) != self._key_states:
            self._key_states = (states, focus)
            self.refresh_bindings()

    def _close_stale_dialogs(self, all_game: bool = False) -> None:
        """Close a question about the game that an update made pointless."""
        screen = self.app.screen
        if not isinstance(screen, ChoiceDialog) or screen.still_valid is None:
            return
        if all_game or not screen.still_valid():
            screen.finish(None)

    def _write_logs(self, model: TableModel) -> None:
        log = self.query_one("#log", WrappedLog)
        if model.log_rewrites != self._log_rewrites:  # a state rewrote the hand so far
            self._log_rewrites = model.log_rewrites
            log.clear()
            self._log_shown = model.logged - len(model.log)
        new = model.logged - self._log_shown
        if new > 0:
            bullet = presenter.log_bullet(self.style)
            for line in model.log[-min(new, len(model.log)) :]:
                log.add(line, bullet)
            self._log_shown = model.logged
        chat = self.query_one("#chatlog", WrappedLog)
        for said in model.chat[self._chat_shown :]:
            chat.add(presenter.chat_line(said))
        self._chat_shown = len(model.chat)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each key when it can apply here; grey it out when it does nothing now."""
        return presenter.table_key(action, self.model, key_context(self))

    # -------------------------------------------------------------- actions

    def action_creator_menu(self) -> None:
        """The creator's menu: remove, lock, mute, hand over, the invite (§11.9)."""
        open_creator_menu(self.app, self.session)

    def action_creator_menu_in_play(self) -> None:
        """The creator's menu during a hand (its key is not in the Footer then)."""
        open_creator_menu(self.app, self.session)

    def action_back(self) -> None:
        """Tell the server I am back: it stops playing my turns."""
        self.session.back()

    def action_add_bot(self) -> None:
        """Seat a computer player of the level last chosen (basic at first): each
        ``b`` seats one."""
        self.session.add_bot(self.bot_level)

    def action_choose_bot(self) -> None:
        """Choose the level of the bots ``b`` seats, and seat one."""

        def done(level: BotLevel | None) -> None:
            if level:
                self.bot_level = level
                self.session.add_bot(level)

        self.app.push_screen(ChoiceDialog("Add a bot to a free seat", BOT_LEVELS), done)

    def action_start(self) -> None:
        """Start the game with the players seated."""
        self.session.start_game()

    def action_new_game(self) -> None:
        """Start a new game, same seats."""
        self.session.new_game()

    def action_summary(self) -> None:
        """Show the last hand's summary again."""
        self.show_summary()

    def show_summary(self, auto: bool = False) -> None:
        """Show the summary of the last hand (or put it in the one open). A question
        about the game is closed first; another dialog (the rules, say) is left
        open, and the summary comes when it closes, unless what comes after
        it has come by then (``auto``: shown at the hand's end, not asked for;
        :func:`~craits.client.summary.overtaken`)."""
        model = self.model
        if model is None or model.last_result is None:
            return
        for screen in self.app.screen_stack:
            if isinstance(screen, SummaryScreen):
                model.summary_due = False
                screen.result = model.last_result
                screen.sync()
                return
        if auto and overtaken(model.last_result, model):
            model.summary_due = False  # the next hand (or game) is on: no summary now
            return
        self._close_stale_dialogs(all_game=True)
        top = self.app.screen
        if top is not self and not (isinstance(top, ChoiceDialog) and top.still_valid):
            model.summary_due = True
            return
        model.summary_due = False
        self.app.push_screen(SummaryScreen(self.session, self.style, model.last_result, auto=auto))

    def action_chat(self) -> None:
        """Open the chat line."""
        field = self.query_one("#chat-input", Input)
        field.display = True
        if self.has_class("-narrow"):
            stack(self)
        field.focus()  # the keys shown change with the focus (no Footer with every key and Esc)

    def action_close_chat(self) -> None:
        """Close the chat line, back to the cards."""
        field = self.query_one("#chat-input", Input)
        field.value = ""
        field.display = False
        if self.has_class("-narrow"):
            stack(self)
        self.query_one("#hand").focus()
        self.refresh_bindings()

    @on(Input.Submitted, "#chat-input")
    def _chat_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.session.chat(text[:MAX_CHAT])
        self.action_close_chat()

    def action_rules(self) -> None:
        """Show the rules."""
        self.app.push_screen(RulesScreen(self.style.ascii))
