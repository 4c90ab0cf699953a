"""The game panel of the table screen: the seats, the pile, the hand, the prompt, and
the keys that play (choose a card, play it, draw, pass, say "one card", call idiot).

The panel holds the hand's focus, so its keys are the first in the Footer. What
each key does now and what the texts say come from :mod:`craits.client.present.presenter`;
what is sent is one of the view's legal actions, through the session. A key
that cannot act now (greyed out in the Footer) says why in one line, from
:mod:`craits.client.present.feedback`; ``h`` opens the running score sheet.
"""

from __future__ import annotations

from typing import ClassVar

from craits.protocol.actions import Action, Play
from craits.protocol.i18n import N_, _
from craits.protocol.vocab import ActionKind
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from ...core.model import TableModel
from ...core.session import Session
from ...present import feedback, presenter, tableview
from ...present.card_style import CardStyle
from ...present.hint_text import hint_card, hint_line
from ..dialogs.scores import ScoreSheetScreen
from ..widgets.felt_view import FeltView
from ..widgets.fixed_text import FixedText
from ..widgets.hand_view import HandView
from ..widgets.motion import Motion
from .game_questions import GameQuestions
from .key_refusals import KeyRefusals


class GamePanel(Vertical):
    """The left of the table screen: seats, pile, hand and prompt, and the keys that play.

    Args:
        session: the session (the model, and where actions are sent).
        style: how cards are drawn.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", N_("Card"), key_display="←→"),
        Binding("right", "move(1)", N_("Card"), show=False),
        Binding("home", "first", N_("First card"), show=False),
        Binding("end", "last", N_("Last card"), show=False),
        *(Binding(str((i + 1) % 10), f"pick({i})", show=False) for i in range(10)),
        Binding("enter", "play", N_("Play"), key_display="⏎"),
        Binding("d", "draw", N_("Draw")),
        Binding("p", "pass", N_("Pass")),
        Binding("o", "announce", N_("One card")),
        Binding("i", "idiot", N_("Idiot")),
        Binding("h", "score_sheet", N_("Scores"), show=False),
    ]

    def __init__(self, session: Session, style: CardStyle, *, id: str | None = None):
        super().__init__(id=id)
        self.session = session
        self.style = style
        self.selected: int | None = 0
        """The index of the chosen card in the hand as shown."""
        self.selected_card: str | None = None
        self.armed = False
        """Announce "one card" with the next play (``o`` before playing the second-last card)."""
        self._was_my_turn = False
        self.motion = Motion()
        self._asked_suit_at: int | None = None
        self._hinted: object | None = None  # the hint last pointed at in the hand
        self.refusals = KeyRefusals(self, session, style, self.current_card)
        """Says why a game key that cannot act now does nothing."""
        self.questions = GameQuestions(self, session, style, self._send)
        """Asks which suit a move names, or whom to call idiot on."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each key when it can apply here; grey it out when it does nothing
        now (the screen decides)."""
        return self.screen.check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A game key that cannot act now says why, in one line (:class:`KeyRefusals`)."""
        self.refusals.on_key(event)

    def compose(self) -> ComposeResult:
        """Seats, pile, hand, prompt."""
        yield FeltView(self.style, id="felt")
        yield HandView(self.style, id="hand")
        yield FixedText(id="prompt")

    def on_mount(self) -> None:
        """The hand takes the focus."""
        model = self.session.model
        for hand in self.query("#hand"):  # (none when the app closes as the table opens)
            hand.border_title = _("Watching") if model and model.spectator else _("Your hand")
            hand.focus()

    # --------------------------------------------------------------- drawing

    def retitle(self) -> None:
        """The hand's title again (in the language spoken now)."""
        model = self.session.model
        for hand in self.query("#hand"):
            hand.border_title = _("Watching") if model and model.spectator else _("Your hand")

    def sync(self, model: TableModel, new_update: bool = False) -> None:
        """Redraw from ``model`` (``new_update``: a move of the game came in)."""
        self._fix_selection(model, new_update)
        hand = self.query_one("#hand", HandView)
        title = _("Watching") if model.spectator else _("Your hand")
        if hand.border_title != title:  # (setting it repaints the whole hand)
            hand.border_title = title
        self.motion.seen(model, self.query_one(FeltView), hand)
        self.show_seats(model)
        selected = self.selected if model.hand else None
        hand.show(model.hand, presenter.playable_cards(model), selected, presenter.hand_note(model))
        self._show_prompt(model)

    def show_seats(self, model: TableModel) -> None:
        """Redraw the table (the turn timer ticks)."""
        seats = tableview.seat_views(model, timer=self.session.online)
        self.query_one(FeltView).show(seats, tableview.middle_view(model))

    def _show_prompt(self, model: TableModel) -> None:
        text = presenter.prompt(model, self.style, online=self.session.online, armed=self.armed)
        hint = self.session.hints.current(model)
        if hint is not None:  # the hint's line under the prompt (protocol §7.6)
            text = Text.assemble(text, "\n", hint_line(hint, model, self.style))
        self.query_one("#prompt", FixedText).update(text)

    def _fix_selection(self, model: TableModel, new_update: bool) -> None:
        hand = model.hand
        if not hand:
            self.selected = None
            self.selected_card = None
            return
        mine = model.my_turn
        if self.selected_card in hand:
            self.selected = hand.index(self.selected_card)
        else:
            self.selected = min(self.selected or 0, len(hand) - 1)
        if mine and (new_update or not self._was_my_turn):
            self.selected = presenter.first_playable(model, self.selected)  # a fresh turn
        self._was_my_turn = mine
        hint = self.session.hints.current(model)
        card = hint_card(hint) if hint is not None and hint is not self._hinted else None
        if card in hand:  # a hint just came: its card is chosen, Enter plays it
            self.selected = hand.index(card)
        self._hinted = hint
        self.selected_card = hand[self.selected]
        self.armed = self.armed and model.can_announce_with_play()

    def maybe_ask_suit(self, model: TableModel) -> None:
        """Open the suit dialog by itself when this seat must name a turned-up card's suit."""
        if (
            model.suit_choices()
            and self._asked_suit_at != model.seq
            and self.app.screen is self.screen
        ):
            self._asked_suit_at = model.seq
            self.call_after_refresh(self.action_play)

    def current_card(self) -> str | None:
        """The chosen card, or None."""
        model = self.session.model
        if model is None or self.selected is None:
            return None
        hand = model.hand
        return hand[self.selected] if 0 <= self.selected < len(hand) else None

    def _redraw_hand(self) -> None:
        model = self.session.model
        if model is None:
            return
        self.selected_card = self.current_card()
        hand = self.query_one("#hand", HandView)
        hand.show(model.hand, presenter.playable_cards(model), self.selected, hand.note)
        self._show_prompt(model)
        self.screen.refresh_bindings()

    # ------------------------------------------------------------ choosing

    def action_move(self, delta: int) -> None:
        """Choose the card to the left or right."""
        self.session.requests.back()
        model = self.session.model
        if model is None or not model.hand:
            return
        self.selected = ((self.selected or 0) + delta) % len(model.hand)
        self._redraw_hand()

    def action_first(self) -> None:
        """Choose the first card of the hand (Home)."""
        self.choose(0)

    def action_last(self) -> None:
        """Choose the last card of the hand (End)."""
        model = self.session.model
        self.choose(len(model.hand) - 1 if model is not None else -1)

    def action_pick(self, digit: int) -> None:
        """Choose a card by its digit (:func:`~craits.client.present.presenter.digit_choice`)."""
        count = len(self.session.model.hand) if self.session.model is not None else 0
        index = presenter.digit_choice(count, self.selected, digit)
        self.choose(digit if index is None else index)

    def choose(self, index: int) -> None:
        """Choose the card at ``index`` of the hand as shown (from 0)."""
        self.session.requests.back()
        model = self.session.model
        if model is None or not 0 <= index < len(model.hand):
            if model is not None and model.hand:
                self.notify(feedback.no_such_card(model, index), severity="warning", markup=False)
            return
        self.selected = index
        self._redraw_hand()

    @on(HandView.Clicked)
    def _clicked(self, event: HandView.Clicked) -> None:
        if event.index == self.selected:
            self.action_play()
        else:
            self.choose(event.index)

    # -------------------------------------------------------------- playing

    def _send(self, action: Action | None, key: str = "play") -> None:
        if action is None:
            self.refusals.refuse(key)
            return
        if isinstance(action, Play):
            self.armed = False
        self.session.requests.act(action)

    def action_play(self) -> None:
        """Play the chosen card (asking the suit for an 8 or 9), or name a pending suit."""
        model = self.session.model
        if model is None or model.spectator:
            return
        if model.suit_choices():
            self.questions.turned_up_suit(model)
            return
        card = self.current_card()
        if card is None:
            return
        if not model.plays(card):
            self.refusals.refuse("play")
            return
        announce = self.armed
        choice = presenter.play_choice(model, card, announce)
        if len(choice.suits) <= 1:
            self._send(choice.plays[0])
            return
        self.questions.play_suit(card, announce, choice.suits)

    def action_draw(self) -> None:
        """Draw (only when nothing can be played)."""
        model = self.session.model
        if model is not None:
            self._send(model.find(ActionKind.DRAW), "draw")

    def action_pass(self) -> None:
        """Keep the card just drawn."""
        model = self.session.model
        if model is not None:
            self._send(model.find(ActionKind.PASS), "pass")

    def action_announce(self) -> None:
        """Say "one card": now if owed, else with the next play."""
        model = self.session.model
        if model is None:
            return
        owed = model.find(ActionKind.ANNOUNCE)
        if owed is not None:
            self._send(owed)
        elif model.can_announce_with_play():
            self.armed = not self.armed
            self._redraw_hand()
        else:
            self.refusals.refuse("announce")

    def action_idiot(self) -> None:
        """Call idiot on a seat that did not announce (asking on whom if several)."""
        model = self.session.model
        if model is None:
            return
        targets = model.idiot_targets()
        if not targets:
            self.refusals.refuse("idiot")
            return
        if len(targets) == 1:
            self._send(model.idiot_call(targets[0]))
            return
        self.questions.idiot_target(model, targets)

    # ------------------------------------------------------------ the sheet

    def action_score_sheet(self) -> None:
        """The running score sheet; its ``l`` opens the last hand's summary."""
        model = self.session.model
        if model is None:
            return

        def done(last_hand: bool | None) -> None:
            show = getattr(self.screen, "show_summary", None)
            if last_hand and callable(show):
                show()

        self.app.push_screen(ScoreSheetScreen(self.session, self.style), done)
