"""One error class per kind of illegal action.

Every illegal action raises a subclass of :class:`IllegalAction` and leaves the
game exactly as it was. Each class has a stable ``code``, the vocabulary's
:class:`~craits.protocol.vocab.ErrorCode` sent on the wire, and cites the rule
it enforces. :class:`IllegalAction` is a
:class:`~craits.protocol.errors.CodedError`, the one base of every error that
carries a wire code.
"""

from __future__ import annotations

from craits.protocol.errors import CodedError
from craits.protocol.vocab import ACTION_ERRORS, ErrorCode


class IllegalAction(CodedError, ValueError):
    """Base class: the action is refused and nothing changed (``str()`` and
    ``message`` say why).

    Only its subclasses are raised; each names its own :attr:`code`.
    """

    code: ErrorCode = ErrorCode.INVALID_ACTION

    def __init__(self, message: str = "") -> None:
        super().__init__(type(self).code, message)


class InvalidAction(IllegalAction):
    """The action is malformed: unknown seat, card code or suit code."""

    code = ErrorCode.INVALID_ACTION


class HandNotInPlay(IllegalAction):
    """No hand is being played: it is over (R8), or the game is (R2)."""

    code = ErrorCode.HAND_NOT_IN_PLAY


class ChoicePending(IllegalAction):
    """R3: the dealer must name the suit for a turned-up 8 or 9 before anyone plays or draws."""

    code = ErrorCode.CHOICE_PENDING


class NoChoicePending(IllegalAction):
    """R3: there is no suit to name for a turned-up card, or it is not this seat's to name."""

    code = ErrorCode.NO_CHOICE_PENDING


class NotYourTurn(IllegalAction):
    """R4: only the seat whose turn it is may play, draw or pass."""

    code = ErrorCode.NOT_YOUR_TURN


class CardNotInHand(IllegalAction):
    """R4: the card played is not in the player's hand."""

    code = ErrorCode.CARD_NOT_IN_HAND


class CardDoesNotMatch(IllegalAction):
    """R4: the card matches neither the suit in force nor the top card's rank, and is not wild."""

    code = ErrorCode.CARD_DOES_NOT_MATCH


class MustFollowCount(IllegalAction):
    """R6: during the count only an ace or a two may be played."""

    code = ErrorCode.MUST_FOLLOW_COUNT


class MustPlayCard(IllegalAction):
    """R4/R12: a player holding a legal card may not draw (nor decline the count holding A or 2)."""

    code = ErrorCode.MUST_PLAY_CARD


class MustPlayDrawnCard(IllegalAction):
    """R4 ``play_drawn_card``: after drawing, only the drawn card may be played, or pass."""

    code = ErrorCode.MUST_PLAY_DRAWN_CARD


class NothingToPass(IllegalAction):
    """R4: passing is only possible on a just-drawn card (option ``play_drawn_card``)."""

    code = ErrorCode.NOTHING_TO_PASS


class SuitNotAllowed(IllegalAction):
    """R5/R12: a 9 names only its own suit or its colour partner; only 8s and 9s name a suit."""

    code = ErrorCode.SUIT_NOT_ALLOWED


class NothingToAnnounce(IllegalAction):
    """R7: the seat owes no "one card" announcement."""

    code = ErrorCode.NOTHING_TO_ANNOUNCE


class NothingToCallIdiotOn(IllegalAction):
    """R7: the target owes no announcement (or the window closed), or callers called themselves."""

    code = ErrorCode.NOTHING_TO_CALL_IDIOT_ON


ERRORS: tuple[type[IllegalAction], ...] = (
    InvalidAction,
    HandNotInPlay,
    ChoicePending,
    NoChoicePending,
    NotYourTurn,
    CardNotInHand,
    CardDoesNotMatch,
    MustFollowCount,
    MustPlayCard,
    MustPlayDrawnCard,
    NothingToPass,
    SuitNotAllowed,
    NothingToAnnounce,
    NothingToCallIdiotOn,
)
"""Every concrete error class, for documentation and the protocol's error codes."""

if {cls.code for cls in ERRORS} != ACTION_ERRORS or len(ERRORS) != len(ACTION_ERRORS):
    raise RuntimeError("each of the vocabulary's action errors needs exactly one error class")
