"""One error class per kind of illegal action.

Every illegal action raises a subclass of :class:`IllegalAction` and leaves the
game exactly as it was. Each class has a stable ``code`` (used on the wire) and
cites the rule it enforces.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """Base class: the action is refused and nothing changed."""

    code = "illegal"


class InvalidAction(IllegalAction):
    """The action is malformed: unknown seat, card code or suit code."""

    code = "invalid_action"


class HandNotInPlay(IllegalAction):
    """No hand is being played: it is over (R8), or the game is (R2)."""

    code = "hand_not_in_play"


class ChoicePending(IllegalAction):
    """R3: the dealer must name the suit for a turned-up 8 or 9 before anyone plays or draws."""

    code = "choice_pending"


class NoChoicePending(IllegalAction):
    """R3: there is no suit to name for a turned-up card, or it is not this seat's to name."""

    code = "no_choice_pending"


class NotYourTurn(IllegalAction):
    """R4: only the seat whose turn it is may play, draw or pass."""

    code = "not_your_turn"


class CardNotInHand(IllegalAction):
    """R4: the card played is not in the player's hand."""

    code = "card_not_in_hand"


class CardDoesNotMatch(IllegalAction):
    """R4: the card matches neither the suit in force nor the top card's rank, and is not wild."""

    code = "card_does_not_match"


class MustFollowCount(IllegalAction):
    """R6: during the count only an ace or a two may be played."""

    code = "must_follow_count"


class MustPlayCard(IllegalAction):
    """R4/R12: a player holding a legal card may not draw (nor decline the count holding A or 2)."""

    code = "must_play_card"


class MustPlayDrawnCard(IllegalAction):
    """R4 ``play_drawn_card``: after drawing, only the drawn card may be played, or pass."""

    code = "must_play_drawn_card"


class NothingToPass(IllegalAction):
    """R4: passing is only possible on a just-drawn card (option ``play_drawn_card``)."""

    code = "nothing_to_pass"


class SuitNotAllowed(IllegalAction):
    """R5/R12: a 9 names only its own suit or its colour partner; only 8s and 9s name a suit."""

    code = "suit_not_allowed"


class NothingToAnnounce(IllegalAction):
    """R7: the seat owes no "one card" announcement."""

    code = "nothing_to_announce"


class NothingToCallIdiotOn(IllegalAction):
    """R7: the target owes no announcement (or the window closed), or callers called themselves."""

    code = "nothing_to_call_idiot_on"


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
