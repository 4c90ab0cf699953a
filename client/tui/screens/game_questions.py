"""The questions a move asks before it is sent: which suit an 8 or a 9 names (or the
turned-up card's, R5), and whom to call idiot when several may be (R8)."""

from __future__ import annotations

from collections.abc import Callable

from craits.protocol.actions import Action
from craits.protocol.i18n import _
from rich.text import Text
from textual.widget import Widget

from ...core.model import TableModel
from ...core.session import Session
from ...present import presenter
from ...present.card_style import CardStyle
from ...present.phrases import fill
from ..dialogs.base import ChoiceDialog, suit_dialog


class GameQuestions:
    """Asks, in a dialog over ``widget``'s screen, what a move needs, then sends the
    legal action the answer makes (through ``send``). Each question closes by
    itself once the move it is for is no longer legal (``still_valid``).

    Args:
        widget: the game panel the dialogs come from.
        session: the table shown (its legal actions).
        style: how cards are written.
        send: sends a legal action (None: the key's refusal is said).
    """

    def __init__(
        self,
        widget: Widget,
        session: Session,
        style: CardStyle,
        send: Callable[[Action | None], None],
    ):
        self.widget = widget
        self.session = session
        self.style = style
        self.send = send

    def play_suit(self, card: str, announce: bool, suits: list[str]) -> None:
        """Which suit the play of ``card`` (an 8 or a 9) names, among ``suits``."""
        title = fill(_("You play {card}: which suit?"), card=self.style.card(card))

        def play_with(suit: str) -> None:
            model = self.session.model
            plays = presenter.play_choice(model, card, announce, suit).plays if model else []
            self.send(plays[0] if plays else None)

        def still_valid() -> bool:
            model = self.session.model
            return model is not None and bool(model.plays(card))

        self._ask_suit(title, suits, play_with, still_valid)

    def turned_up_suit(self, model: TableModel) -> None:
        """Which suit the dealer names for the turned-up 8 or 9."""
        top = model.view["top"] if model.view is not None else None
        said = _("Name the suit for the turned-up {card}")
        title = fill(said, card=self.style.card(top or ""))

        def name(suit: str) -> None:
            model = self.session.model
            choices = model.suit_choices() if model is not None else []
            self.send(next((a for a in choices if a.suit == suit), None))

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

        self.widget.app.push_screen(suit_dialog(self.style, title, suits, still_valid), done)

    def idiot_target(self, model: TableModel, targets: list[int]) -> None:
        """Whom to call idiot on, among the seats ``targets``."""
        choices = [(str(i + 1), Text(model.name_of(t)), t) for i, t in enumerate(targets)]

        def still_valid() -> bool:
            return self.session.model is not None and bool(self.session.model.idiot_targets())

        def done(target: int | None) -> None:
            model = self.session.model
            if target is not None and model is not None:
                self.send(model.idiot_call(target))

        self.widget.app.push_screen(
            ChoiceDialog(_("Call idiot on whom?"), choices, still_valid), done
        )
