"""The house variants of RULES.md as the client offers them: a view over the
vocabulary's :data:`~craits.protocol.vocab.RULE_OPTIONS`.

This is only what to show. The server checks every option when a table is
created (``bad_rules``).
"""

from __future__ import annotations

from collections.abc import Mapping

from craits.protocol.vocab import RULE_OPTIONS, RuleOption

__all__ = ["RULE_OPTIONS", "RuleOption", "changed_options", "describe_rules", "switched_value"]


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
    return ", ".join(o.short for o in changed) if changed else "standard"
