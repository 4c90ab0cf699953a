"""The game panel of the table screen: the seats, the pile, the hand, the prompt, and
the keys that play (choose a card, play it, draw, pass, say "one card", call idiot).

The panel holds the hand's focus, so its keys are the first in the Footer. What
each key does now and what the texts say come from :mod:`craits.client.present.presenter`;
what is sent is one of the view's legal actions, through the session. A key
that cannot act now (greyed out in the Footer) says why in one line, from
:mod:`craits.client.present.feedback`; ``h`` opens the running score sheet.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from craits.protocol.actions import Action, Play
from craits.protocol.vocab import ActionKind
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import Widget

from ...core.model import TableModel
from ...core.session import Session
from ...present import feedback, presenter, tableview
from ...present.card_style import CardStyle
from ..dialogs.base import ChoiceDialog, suit_dialog
from ..dialogs.scores import ScoreSheetScreen
from ..widgets.felt_view import FeltView
from ..widgets.fixed_text import FixedText
from ..widgets.hand_view import HandView
from ..widgets.motion import Motion


class KeyFeedback(Widget):
    """A widget whose keys, when they cannot act now (greyed out in the Footer),
    say why in one line (:func:`craits.client.present.feedback.key_refusal`), instead of
    doing nothing silently. The subclass has ``session``, ``style`` and
    ``current_card()``."""

    REFUSED_AGAIN_AFTER = 2.0
    """Seconds before the same refusal is shown again (a key held down)."""
    ALWAYS: ClassVar[frozenset[str]] = frozenset({"score_sheet"})
    """Actions that always act (no refusal)."""

    session: Session
    style: CardStyle

    def current_card(self) -> str | None:
        """The chosen card, or None."""
        raise NotImplementedError

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each key when it can apply here; grey it out when it does nothing
        now (the screen decides)."""
        return self.screen.check_action(action, parameters)

    def _key_actions(self) -> dict[str, str]:
        """Each key of this widget's bindings, and the name of its action."""
        actions = getattr(self, "_actions_of_keys", None)
        if actions is None:
            actions = {
                key.strip(): b.action.partition("(")[0]
                for b in self.BINDINGS
                if isinstance(b, Binding)
                for key in b.key.split(",")
            }
            self._actions_of_keys: dict[str, str] = actions
        return actions

    def on_key(self, event: events.Key) -> None:
        """A game key that cannot act now says why, in one line."""
        name = self._key_actions().get(event.key)
        if name is None or name in self.ALWAYS or self.check_action(name, ()) is True:
            return
        event.stop()
        event.prevent_default()
        self.refuse(name)

    def refuse(self, action: str) -> None:
        """Say why the key of ``action`` cannot act now (once, while it repeats)."""
        text = feedback.key_refusal(
            action,
            self.session.model,
            self.style,
            online=self.session.online,
            card=self.current_card(),
        )
        now = time.monotonic()
        last, when = getattr(self, "_refused", ("", 0.0))
        if text == last and now - when < self.REFUSED_AGAIN_AFTER:
            return
        self._refused = (text, now)
        self.app.bell()
        self.notify(text, severity="warning", timeout=4, markup=False)


class GamePanel(KeyFeedback, Vertical):
    """The left of the table screen: seats, pile, hand and prompt, and the keys that play.

    Args:
        session: the session (the model, and where actions are sent).
        style: how cards are drawn.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Card", key_display="←→"),
        Binding("right", "move(1)", "Card", show=False),
        Binding("home", "first", "First card", show=False),
        Binding("end", "last", "Last card", show=False),
        *(Binding(str((i + 1) % 10), f"pick({i})", show=False) for i in range(10)),
        Binding("enter", "play", "Play", key_display="⏎"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass", "Pass"),
        Binding("o", "announce", "One card"),
        Binding("i", "idiot", "Idiot"),
        Binding("h", "score_sheet", "Scores", show=False),
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

    def compose(self) -> ComposeResult:
        """Seats, pile, hand, prompt."""
        yield FeltView(self.style, id="felt")
        yield HandView(self.style, id="hand")
        yield FixedText(id="prompt")

    def on_mount(self) -> None:
        """The hand takes the focus."""
        model = self.session.model
        for hand in self.query("#hand"):  # (none when the app closes as the table opens)
            hand.border_title = "Watching" if model and model.spectator else "Your hand"
            hand.focus()

    # --------------------------------------------------------------- drawing

    def sync(self, model: TableModel, new_update: bool = False) -> None:
        """Redraw from ``model`` (``new_update``: a move of the game came in)."""
        self._fix_selection(model, new_update)
        hand = self.query_one("#hand", HandView)
        title = "Watching" if model.spectator else "Your hand"
        if hand.border_title != title:  # (setting it repaints the whole hand)
            hand.border_title = title
        self.motion.seen(model, self.query_one(FeltView), hand)
        self.show_seats(model)
        selected = self.selected if model.hand else None
        hand.show(model.hand, presenter.playable_cards(model), selected, presenter.hand_note(model))
        self._show_prompt(model)
        _sync_sheets(self.app.screen_stack, model)

    def show_seats(self, model: TableModel) -> None:
        """Redraw the table (the turn timer ticks)."""
        seats = tableview.seat_views(model, timer=self.session.online)
        self.query_one(FeltView).show(seats, tableview.middle_view(model))

    def _show_prompt(self, model: TableModel) -> None:
        text = presenter.prompt(model, self.style, online=self.session.online, armed=self.armed)
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
        self.session.back()
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
        self.session.back()
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
            self.refuse(key)
            return
        if isinstance(action, Play):
            self.armed = False
        self.session.act(action)

    def action_play(self) -> None:
        """Play the chosen card (asking the suit for an 8 or 9), or name a pending suit."""
        model = self.session.model
        if model is None or model.spectator:
            return
        if model.suit_choices():
            self._name_the_turned_up_suit(model)
            return
        card = self.current_card()
        if card is None:
            return
        if not model.plays(card):
            self.refuse("play")
            return
        announce = self.armed
        choice = presenter.play_choice(model, card, announce)
        if len(choice.suits) <= 1:
            self._send(choice.plays[0])
            return
        title = Text("You play ")
        title.append_text(self.style.card(card))
        title.append(": which suit?")

        def play_with(suit: str) -> None:
            model = self.session.model
            plays = presenter.play_choice(model, card, announce, suit).plays if model else []
            self._send(plays[0] if plays else None)

        def still_valid() -> bool:
            model = self.session.model
            return model is not None and bool(model.plays(card))

        self._ask_suit(title, choice.suits, play_with, still_valid)

    def _name_the_turned_up_suit(self, model: TableModel) -> None:
        title = Text("Name the suit for the turned-up ")
        top = model.view["top"] if model.view is not None else None
        title.append_text(self.style.card(top or ""))

        def name(suit: str) -> None:
            model = self.session.model
            choices = model.suit_choices() if model is not None else []
            self._send(next((a for a in choices if a.suit == suit), None))

        def still_valid() -> bool:
            model = self.session.model
            return model is not None and bool(model.suit_choices())

        suits = [a.suit for a in model.suit_choices()]
        self._ask_suit(title, suits, name, still_valid)

    def _ask_suit(
        self,
        title: Text,
        suits: list[str],
        then: Callable[[str], None],
        still_valid: Callable[[], bool],
    ) -> None:
        def done(suit: str | None) -> None:
            if suit is not None:
                then(suit)

        self.app.push_screen(suit_dialog(self.style, title, suits, still_valid), done)

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
            self.refuse("announce")

    def action_idiot(self) -> None:
        """Call idiot on a seat that did not announce (asking on whom if several)."""
        model = self.session.model
        if model is None:
            return
        targets = model.idiot_targets()
        if not targets:
            self.refuse("idiot")
            return
        if len(targets) == 1:
            self._send(model.idiot_call(targets[0]))
            return
        choices = [(str(i + 1), Text(model.name_of(t)), t) for i, t in enumerate(targets)]

        def still_valid() -> bool:
            return self.session.model is not None and bool(self.session.model.idiot_targets())

        def done(target: int | None) -> None:
            model = self.session.model
            if target is not None and model is not None:
                self._send(model.idiot_call(target))

        self.app.push_screen(ChoiceDialog("Call idiot on whom?", choices, still_valid), done)

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

        self.app.push_screen(ScoreSheetScreen(model, self.style), done)


def _sync_sheets(screens: list[Screen[Any]], model: TableModel) -> None:
    """Draw again the score sheet, if one is open."""
    for screen in screens:
        if isinstance(screen, ScoreSheetScreen):
            screen.sync(model)
