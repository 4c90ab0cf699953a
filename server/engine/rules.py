"""The rules options: every house variant of RULES.md, with its default."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Rules:
    """The house variants of RULES.md; each field's default is the rule book's.

    Attributes:
        strip_kings_queens: R1. With 2 or 3 players, remove kings and queens.
        short_game: R2. Play hands 1–8 only.
        dealer_follows_direction: R2. The deal passes in the direction of play.
        play_drawn_card: R4. A single card drawn for want of a play may be played at once.
        seven_hits_next: R5. A 7 always hits the next player.
        idiot_card: R7. An idiot call costs one card and no lost turn.
        one_card_deal: R7. In the one-card hand every player announces on receiving the card.
        going_out_bonus: R9. Going out scores −10 instead of 0.
        threes_cancel_eights: R9. A 3 may cancel an 8.
        cancelling_three_scores: R9. What a 3 that cancels a card scores (3 or 0).
        three_penalty: R9. Threes cannot cancel aces or threes; a 3 cancelling nothing scores 100.
        face_cards: R11. J, Q♠ and K have functions.
    """

    strip_kings_queens: bool = False
    short_game: bool = False
    dealer_follows_direction: bool = False
    play_drawn_card: bool = False
    seven_hits_next: bool = False
    idiot_card: bool = False
    one_card_deal: bool = False
    going_out_bonus: bool = False
    threes_cancel_eights: bool = False
    cancelling_three_scores: int = 3
    three_penalty: bool = False
    face_cards: bool = False

    @property
    def hands(self) -> int:
        """Number of hands in a game (R2): 15, or 8 with ``short_game``."""
        return 8 if self.short_game else 15

    @classmethod
    def from_dict(cls, options: Mapping[str, Any] | None) -> Rules:
        """Build rules from option overrides; options left out keep their defaults.

        Raises:
            ValueError: an unknown option name, a value of the wrong type, or
                ``cancelling_three_scores`` other than 0 or 3.
        """
        if not options:
            return cls()
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for name, value in options.items():
            field = known.get(name)
            if field is None:
                raise ValueError(f"unknown rules option {name!r}")
            if field.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise ValueError(f"rules option {name!r} must be true or false")
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"rules option {name!r} must be an integer")
            values[name] = value
        rules = cls(**values)
        if rules.cancelling_three_scores not in (0, 3):
            raise ValueError("rules option 'cancelling_three_scores' must be 0 or 3")
        return rules

    def to_dict(self) -> dict[str, bool | int]:
        """All options by name, defaults included."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> dict[str, bool | int]:
        """Only the options that differ from the rule book's defaults (a new dict)."""
        return dict(_changed(self))


@functools.lru_cache(maxsize=256)
def _changed(rules: Rules) -> tuple[tuple[str, bool | int], ...]:
    """:meth:`Rules.changed`, computed once per set of rules (views ask it at every update)."""
    default = Rules()
    return tuple((k, v) for k, v in rules.to_dict().items() if getattr(default, k) != v)
