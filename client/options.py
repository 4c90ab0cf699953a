"""The house variants of RULES.md as the client offers them: names, labels, defaults.

This is only what to show. The server checks every option when a table is
created (``bad_rules``).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class RuleOption(NamedTuple):
    """One option of RULES.md: its wire name, the rule, and how it is shown."""

    name: str
    rule: str
    label: str
    short: str
    default: Any = False
    on_value: Any = True


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("short_game", "R2", "Short game: hands 1–8", "short"),
    RuleOption("strip_kings_queens", "R1", "No K/Q with 2–3 players", "no K/Q"),
    RuleOption("dealer_follows_direction", "R2", "Deal follows direction", "deal dir"),
    RuleOption("play_drawn_card", "R4", "Play a drawn card", "play drawn"),
    RuleOption("seven_hits_next", "R5", "7 always hits next", "7 hits next"),
    RuleOption("idiot_card", "R7", "Idiot costs 1 card only", "idiot 1 card"),
    RuleOption("one_card_deal", "R7", "Announce 1-card deal", "1-card deal"),
    RuleOption("going_out_bonus", "R9", "Going out scores −10", "out −10"),
    RuleOption("threes_cancel_eights", "R9", "3s may cancel 8s", "3 cancels 8"),
    RuleOption("cancelling_three_scores", "R9", "Cancelling 3 scores 0", "3 scores 0", 3, 0),
    RuleOption("three_penalty", "R9", "Three penalty", "3 penalty"),
    RuleOption("face_cards", "R11", "Face cards act: J Q♠ K", "face cards"),
)
"""Every option, in the order the create-table dialog shows them."""


def changed_options(rules: dict[str, Any] | None) -> list[RuleOption]:
    """The options of a table's ``rules`` that differ from the rule book's defaults."""
    if not rules:
        return []
    return [o for o in RULE_OPTIONS if o.name in rules and rules[o.name] != o.default]


def describe_rules(rules: dict[str, Any] | None) -> str:
    """Short words for the options a table changed (``standard`` if none)."""
    changed = changed_options(rules)
    return ", ".join(o.short for o in changed) if changed else "standard"
