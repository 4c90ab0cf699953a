"""The house variants of RULES.md as the client offers them: a view over the
vocabulary's :data:`~craits.protocol.vocab.RULE_OPTIONS`.

This is only what to show. The server checks every option when a table is
created (``bad_rules``).
"""

from __future__ import annotations

from collections.abc import Mapping

from craits.protocol.i18n import LazyString, _, lazy_pgettext
from craits.protocol.vocab import RULE_OPTIONS, RuleOption

__all__ = [
    "RULE_OPTIONS",
    "RULE_WORDS",
    "RuleOption",
    "changed_options",
    "describe_rules",
    "option_label",
    "switched_value",
]

RULE_WORDS: dict[str, tuple[LazyString, LazyString]] = {
    # TRANSLATORS: each house rule: its label in the new-table dialog, and its short
    # tag in the lobby's list (one or two words)
    "short_game": (
        lazy_pgettext("rule", "Short game: hands 1–8"),
        lazy_pgettext("rule tag", "short"),
    ),
    "strip_kings_queens": (
        lazy_pgettext("rule", "No K/Q with 2–3 players"),
        lazy_pgettext("rule tag", "no K/Q"),
    ),
    "dealer_follows_direction": (
        lazy_pgettext("rule", "Deal follows direction"),
        lazy_pgettext("rule tag", "deal dir"),
    ),
    "play_drawn_card": (
        lazy_pgettext("rule", "Play a drawn card"),
        lazy_pgettext("rule tag", "play drawn"),
    ),
    "seven_hits_next": (
        lazy_pgettext("rule", "7 always hits next"),
        lazy_pgettext("rule tag", "7 hits next"),
    ),
    "idiot_card": (
        lazy_pgettext("rule", "Idiot costs 1 card only"),
        lazy_pgettext("rule tag", "idiot 1 card"),
    ),
    "one_card_deal": (
        lazy_pgettext("rule", "Announce 1-card deal"),
        lazy_pgettext("rule tag", "1-card deal"),
    ),
    "going_out_bonus": (
        lazy_pgettext("rule", "Going out scores −10"),
        lazy_pgettext("rule tag", "out −10"),
    ),
    "threes_cancel_eights": (
        lazy_pgettext("rule", "3s may cancel 8s"),
        lazy_pgettext("rule tag", "3 cancels 8"),
    ),
    "cancelling_three_scores": (
        lazy_pgettext("rule", "Cancelling 3 scores 0"),
        lazy_pgettext("rule tag", "3 scores 0"),
    ),
    "three_penalty": (
        lazy_pgettext("rule", "Three penalty"),
        lazy_pgettext("rule tag", "3 penalty"),
    ),
    "face_cards": (
        lazy_pgettext("rule", "Face cards act: J Q♠ K"),
        lazy_pgettext("rule tag", "face cards"),
    ),
}
"""Each option's label and tag in the player's language (the vocabulary's are English)."""


def option_label(option: RuleOption) -> str:
    """An option's label in the language spoken now."""
    words = RULE_WORDS.get(option.name)
    return option.label if words is None else str(words[0])


def option_tag(option: RuleOption) -> str:
    """An option's short tag in the language spoken now."""
    words = RULE_WORDS.get(option.name)
    return option.short if words is None else str(words[1])


def switched_value(option: RuleOption) -> bool | int:
    """The value an option takes when the player switches it on in the create-table
    dialog: the first of its values that is not the default (``True`` for a flag,
    ``0`` for ``cancelling_three_scores``)."""
    return next(v for v in option.values if v != option.default)


def changed_options(rules: Mapping[str, object] | None) -> list[RuleOption]:
    """The options of a table's ``rules`` that differ from the rule book's defaults."""
    if not rules:
        return []
    return [o for o in RULE_OPTIONS if o.name in rules and rules[o.name] != o.default]


def describe_rules(rules: Mapping[str, object] | None) -> str:
    """Short words for the options a table changed (``standard`` if none)."""
    changed = changed_options(rules)
    return ", ".join(option_tag(o) for o in changed) if changed else _("standard")
