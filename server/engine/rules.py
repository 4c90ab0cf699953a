"""The rules options: every house variant of RULES.md, with its default.

The options themselves (name, RULES.md section, default, allowed values) are
the vocabulary's :data:`~craits.protocol.vocab.RULE_OPTIONS`; :class:`Rules`
holds one value for each, and takes each default from there.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from craits.protocol.vocab import RULE_OPTIONS, RuleOption

_OPTIONS: dict[str, RuleOption] = {o.name: o for o in RULE_OPTIONS}


def _flag(name: str) -> bool:
    """The default of the on/off option ``name`` (a field default of :class:`Rules`)."""
    default = _OPTIONS[name].default
    if type(default) is not bool:
        raise TypeError(f"rules option {name!r} is not on/off")
    return default


def _number(name: str) -> int:
    """The default of the numeric option ``name`` (a field default of :class:`Rules`)."""
    default = _OPTIONS[name].default
    if type(default) is not int:
        raise TypeError(f"rules option {name!r} is not a number")
    return default


@dataclass(frozen=True, slots=True)
class Rules:
    """The house variants of RULES.md; each field's default is the rule book's.

    The fields are exactly the vocabulary's options (checked at import), in
    this order, which orders the wire's ``rules`` maps.

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

    strip_kings_queens: bool = _flag("strip_kings_queens")
    short_game: bool = _flag("short_game")
    dealer_follows_direction: bool = _flag("dealer_follows_direction")
    play_drawn_card: bool = _flag("play_drawn_card")
    seven_hits_next: bool = _flag("seven_hits_next")
    idiot_card: bool = _flag("idiot_card")
    one_card_deal: bool = _flag("one_card_deal")
    going_out_bonus: bool = _flag("going_out_bonus")
    threes_cancel_eights: bool = _flag("threes_cancel_eights")
    cancelling_three_scores: int = _number("cancelling_three_scores")
    three_penalty: bool = _flag("three_penalty")
    face_cards: bool = _flag("face_cards")

    @property
    def hands(self) -> int:
        """Number of hands in a game (R2): 15, or 8 with ``short_game``."""
        return 8 if self.short_game else 15

    @classmethod
    def from_dict(cls, options: Mapping[str, object] | None) -> Rules:
        """Build rules from option overrides; options left out keep their defaults.

        Raises:
            ValueError: an unknown option name, a value of the wrong type, or
                one the option does not allow (``cancelling_three_scores``: 0 or 3).
        """
        if not options:
            return cls()
        values: dict[str, Any] = {}  # each checked against its option's kind by _checked
        for name, value in options.items():
            option = _OPTIONS.get(name)
            if option is None:
                raise ValueError(f"unknown rules option {name!r}")
            values[name] = _checked(option, value)
        return cls(**values)

    def to_dict(self) -> dict[str, bool | int]:
        """All options by name, defaults included, in field order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> dict[str, bool | int]:
        """Only the options that differ from the rule book's defaults (a new dict)."""
        return dict(_changed(self))


def _checked(option: RuleOption, value: object) -> bool | int:
    """``value`` if ``option`` may take it.

    Raises:
        ValueError: a value of the wrong type, or one the option does not allow.
    """
    name = option.name
    if type(option.default) is bool:
        if not isinstance(value, bool):
            raise ValueError(f"rules option {name!r} must be true or false")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"rules option {name!r} must be an integer")
    if value not in option.values:
        allowed = " or ".join(str(v) for v in sorted(option.values))
        raise ValueError(f"rules option {name!r} must be {allowed}")
    return value


@functools.lru_cache(maxsize=256)
def _changed(rules: Rules) -> tuple[tuple[str, bool | int], ...]:
    """:meth:`Rules.changed`, computed once per set of rules (views ask it at every update)."""
    return tuple((k, v) for k, v in rules.to_dict().items() if _OPTIONS[k].default != v)


if {f.name for f in dataclasses.fields(Rules)} != set(_OPTIONS) or len(
    dataclasses.fields(Rules)
) != len(RULE_OPTIONS):
    raise RuntimeError("Rules' fields must be exactly the vocabulary's rules options")
