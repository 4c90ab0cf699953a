"""The table: the game panel (seats, pile, hand, prompt), the log, chat, and the keys.

The keys are in the Footer; a key that does nothing now is greyed out
(:meth:`TableScreen.check_action` returns None), and one that never applies
here (a spectator's "draw") is hidden: :func:`craits.client.present.presenter.table_key`
decides. So that the Footer fits 80 columns whatever applies, ``b`` (I'm back),
``h`` (scores) and, during a game, the creator's ``x`` (end the game) are left
out of it: the prompt names the first two when they matter, ``x`` is the
"Close table" key shown when no game runs, and the rules page (``?``) lists
every key. ``t`` asks for a hint (protocol §7.6) while the seat has something
to do. The keys that play are the game panel's
(:class:`~craits.client.tui.screens.game_panel.GamePanel`); the others are here.
"""

from __future__ import annotations

import gc
from typing import ClassVar

from craits.protocol.i18n import N_, LazyString, _, _l
from craits.protocol.vocab import BotLevel
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...core.model import LOG_LINES, TableModel
from ...core.session import Session
from ...present import presenter
from ...present.card_style import CardStyle
from ..dialogs.base import ChoiceDialog
from ..dialogs.private import CreatorMenu
from ..dialogs.rules import RulesScreen
from ..messages import LanguageChanged, LinkChanged, TableChanged, TableShown, follow_news, reported
from ..widgets.cached import CachedLines
from ..widgets.chat_line import ChatLine
from ..widgets.hand_view import HandView
from ..widgets.key_footer import KeyFooter
from ..widgets.top_bar import TopBar
from ..widgets.wrapped_log import WrappedLog
from .game_panel import GamePanel
from .hand_summary import HandSummary
from .table_layout import TableLayout
from .table_logs import TableLogs
from .table_questions import TableQuestions

BOT_LEVELS: list[tuple[str, LazyString, BotLevel]] = [
    ("e", _l("easy: a beginner, who slips now and then"), BotLevel.EASY),
    ("b", _l("basic: plays sensibly"), BotLevel.BASIC),
    ("x", _l("expert: thinks ahead about the cards it cannot see"), BotLevel.EXPERT),
    ("r", _l("random: any legal move"), BotLevel.RANDOM),
]
"""The choices of the add-bot dialog: key, words, level."""


KEY_ACTIONS = (*presenter.TABLE_KEYS, "leave", "rules")
"""The key actions whose state the Footer shows."""


TABLE_ESSENTIAL = ("play", "draw", "rules", "leave")
"""The table's keys the Footer never leaves out, however narrow (:mod:`..widgets.key_footer`)."""


TABLE_SHORT = {
    "announce": N_("One"),
    "add_bot": N_("Bot"),
    "new_game": N_("New"),
    "rematch": N_("Again"),
    "close_table": N_("Close"),
    "creator_menu": N_("Menu"),
    "close_chat": N_("Close"),
}
"""Shorter words for the table's keys on a narrow screen."""


LOG_JUMP_AFTER = 1.0
"""Seconds a full game log waits after a scroll before it scrolls again (jump
scroll: the lines of a fast game, bots playing, come in one scroll of several
rows rather than one at a time, each of which paints the whole log again)."""


_heap_frozen = False


def freeze_heap_once() -> None:
    """Once per process (the first table shown): collect, then move every object
    alive now (Textual, the app, its screens and widgets) out of the garbage
    collector's reach (``gc.freeze``). The oldest generation's collections then
    walk only what came after, not those ~60,000 objects: they took ~60 ms each,
    every 30 or so updates of a game watched."""
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.collect()
        gc.freeze()


class TableScreen(Screen[None], CachedLines):
    """One table, seated or watching.

    Args:
        session: the session (the model, and where requests go).
        style: how cards are drawn.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "back", N_("I'm back"), show=False),
        Binding("b", "add_bot", N_("Add bot")),
        Binding("B", "choose_bot", N_("Bot level"), show=False),
        Binding("s", "start", N_("Start")),
        Binding("n", "new_game", N_("New game")),
        Binding("r", "rematch", N_("Rematch")),
        Binding("x", "close_table", N_("Close table")),
        Binding("x", "end_game", N_("End game"), show=False),
        Binding("h", "summary", N_("Scores"), show=False),
        Binding("t", "hint", N_("Hint")),
        Binding("c", "chat", N_("Chat")),
        Binding("m", "creator_menu", N_("Creator")),
        Binding("m", "creator_menu_in_play", N_("Creator"), show=False),
        Binding("escape", "close_chat", N_("Close chat"), key_display="Esc"),
        Binding("question_mark", "rules", N_("Rules"), key_display="?"),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self._ready = False
        self._game: GamePanel | None = None
        self._banner: Text | None = None
        self._key_states: tuple[object, ...] = ()
        self.summary = HandSummary(self, session, style)
        """The last hand's summary over the table."""
        self.bot_level = BotLevel.BASIC
        """The level of the bots ``b`` seats (``B`` chooses it, and seats one)."""
        self.table_layout = TableLayout(self)
        """Lays the screen out for the terminal's size."""
        self.questions = TableQuestions(self, session)
        """Asks before closing the table or leaving a game."""
        self.creator_menu = CreatorMenu(self, session)
        """The creator's menu (protocol §11.9)."""

    def compose(self) -> ComposeResult:
        """Top bar, banner, the game panel; log and chat on the right."""
        yield TopBar(id="topbar")
        yield Static(id="banner")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            yield GamePanel(self.session, self.style, id="left")
            with Vertical(id="right"):
                yield WrappedLog(id="log", indent=2, max_lines=LOG_LINES, classes="panel")
                yield WrappedLog(id="chatlog", max_lines=LOG_LINES, classes="panel")
                yield ChatLine(id="chat-input")
        yield KeyFooter(essential=TABLE_ESSENTIAL, short=TABLE_SHORT, show_command_palette=False)

    def titles(self) -> None:
        """The panels' titles, in the language spoken now."""
        self.query_one("#log").border_title = _("Game")
        self.query_one("#chatlog").border_title = _("Chat")
        self.query_one(ChatLine).retitle()

    def on_mount(self) -> None:
        """Titles, the timer tick, the session's news followed, and the first drawing."""
        if not self.query("#log"):
            return  # the app is closing as the table opens: nothing to draw
        self.titles()
        self.query_one("#log", WrappedLog).jump_after = LOG_JUMP_AFTER
        self.set_interval(0.5, self._tick)
        self._game = self.query_one(GamePanel)
        self.logs = TableLogs(
            self.query_one("#log", WrappedLog), self.query_one("#chatlog", WrappedLog), self.style
        )
        self._ready = True
        follow_news(self)
        self.sync()
        self.call_after_refresh(freeze_heap_once)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the layout (:class:`TableLayout`) and the top line to the terminal;
        back from the request for a bigger one, the keys go to the hand (or chat
        line) again."""
        self.table_layout.fit(event.size.width, event.size.height)
        self.call_after_refresh(self.table_layout.refocus)
        self._show_topbar()

    @on(HandView.Grown)
    def _hand_grown(self) -> None:
        """The hand took more rows, or fewer: the log under it, in the stacked
        layout, gives them or takes them back."""
        if self._ready and self.has_class("-narrow"):
            self.table_layout.stack()

    def on_screen_resume(self) -> None:
        """Back from a dialog or summary: redraw (a suit may now need naming)."""
        self.sync()

    @on(TableShown)
    @on(LinkChanged)
    @reported
    def _shown(self, message: TableShown | LinkChanged) -> None:
        """The table anew, or the link changed: redraw."""
        self.sync()

    @on(LanguageChanged)
    @reported
    def _language(self, message: LanguageChanged) -> None:
        """Another language: the titles and keys, then everything drawn, in it."""
        self.titles()
        self.game.retitle()
        self.refresh_bindings()
        self.sync()

    @on(TableChanged)
    @reported
    def _changed(self, message: TableChanged) -> None:
        """The table changed (``new_update``: by a move of the game): redraw."""
        self.sync(new_update=message.new_update)

    def _tick(self) -> None:
        model = self.model
        if model and model.deadline is not None and self._ready and self.game.is_attached:
            self.game.show_seats(model)  # (under a dialog too: the table stays live)
        if self._ready and self.query_one(TopBar).counting:
            self._show_topbar()  # a quick-play table's countdown (protocol §11.13)

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
            self.summary.close_stale_questions()
        on_top = self.app.screen is self
        if not on_top:  # live under a dialog, but no card sliding in (issue 23)
            self.game.motion.forget()
        self._show_topbar()
        text = presenter.banner(self.session.online, self.session.link.detail)
        self.query_one("#banner").display = text is not None
        if text is not None and text != self._banner:  # (an update lays the screen out)
            self._banner = text
            self.query_one("#banner", Static).update(text)
        self.game.sync(model, new_update)
        self.logs.write(model)
        if model.summary_due:
            self.summary.show(auto=True)
        self.game.maybe_ask_suit(model)
        if on_top:
            self._refresh_keys()

    def _show_topbar(self) -> None:
        """The top line, in fewer words on a narrow screen."""
        model = self.model
        if self._ready and model is not None:
            self.query_one(TopBar).show(model, short=self.has_class("-narrow"))

    def _key_context(self) -> presenter.KeyContext:
        """What the keys' states depend on beyond the model."""
        online, name = self.session.online, self.session.player_name
        if not self._ready:
            return presenter.KeyContext(online, name)
        chat_open = bool(self.query_one("#chat-input").display)
        return presenter.KeyContext(online, name, self.game.current_card(), chat_open)

    def _refresh_keys(self) -> None:
        """Redraw the Footer when a key's state changed (it is rebuilt whole)."""
        context = self._key_context()  # (once: each key's state reads the same)
        states = tuple(presenter.table_key(a, self.model, context) for a in KEY_ACTIONS)
        focus = self.focused
        if (states, focus) != self._key_states:
            self._key_states = (states, focus)
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each key when it can apply here; grey it out when it does nothing now."""
        return presenter.table_key(action, self.model, self._key_context())

    # -------------------------------------------------------------- actions

    def action_creator_menu(self) -> None:
        """The creator's menu: remove, lock, mute, hand over, the invite (§11.9)."""
        self.creator_menu.open()

    def action_creator_menu_in_play(self) -> None:
        """The creator's menu during a hand (its key is not in the Footer then)."""
        self.creator_menu.open()

    def action_close_table(self) -> None:
        """Close the table, once confirmed (:class:`TableQuestions`)."""
        self.questions.close_table()

    def action_end_game(self) -> None:
        """End the game by closing the table, once confirmed."""
        self.questions.end_game()

    def action_leave(self) -> None:
        """Leave the table (asking first in the middle of a game)."""
        self.questions.leave()

    def action_back(self) -> None:
        """Tell the server I am back: it stops playing my turns."""
        self.session.requests.back()

    def action_add_bot(self) -> None:
        """Seat a computer player of the level last chosen (basic at first): each
        ``b`` seats one."""
        self.session.requests.add_bot(self.bot_level)

    def action_choose_bot(self) -> None:
        """Choose the level of the bots ``b`` seats, and seat one."""

        def done(level: BotLevel | None) -> None:
            if level:
                self.bot_level = level
                self.session.requests.add_bot(level)

        levels = [(key, Text(str(words)), level) for key, words, level in BOT_LEVELS]
        self.app.push_screen(ChoiceDialog(_("Add a bot to a free seat"), levels), done)

    def action_start(self) -> None:
        """Start the game with the players seated."""
        self.session.requests.start_game()

    def action_new_game(self) -> None:
        """Start a new game, same seats."""
        self.session.requests.new_game()

    def action_rematch(self) -> None:
        """Accept the rematch on offer (protocol §11.12)."""
        self.session.requests.rematch()

    def action_summary(self) -> None:
        """Show the last hand's summary again."""
        self.show_summary()

    def show_summary(self) -> None:
        """Show the last hand's summary (:class:`HandSummary`)."""
        self.summary.show()

    def action_chat(self) -> None:
        """Open the chat line."""
        # shown and focused: the keys shown change with the focus (no Footer with every key)
        self.query_one(ChatLine).open()
        if self.has_class("-narrow"):
            self.table_layout.stack()  # (laid out with the line shown)

    def action_close_chat(self) -> None:
        """Close the chat line, back to the cards."""
        self.query_one(ChatLine).close()
        if self.has_class("-narrow"):
            self.table_layout.stack()
        self.query_one("#hand").focus()
        self.refresh_bindings()

    @on(ChatLine.Said)
    def _said(self, message: ChatLine.Said) -> None:
        if message.text:
            self.session.requests.chat(message.text)
        self.action_close_chat()

    def action_hint(self) -> None:
        """Ask the server what the expert would do now (protocol §7.6): the answer
        shows under the prompt, its card chosen in the hand."""
        self.session.hints.ask()

    def action_rules(self) -> None:
        """Show the rules."""
        self.app.push_screen(RulesScreen(self.style.ascii))
