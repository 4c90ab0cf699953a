"""The table screen's add-bot dialog offers every bot level of the vocabulary."""

from __future__ import annotations

from craits.client.tui.screens.table_screen import BOT_LEVELS
from craits.protocol.vocab import BotLevel


def test_the_add_bot_dialog_offers_every_level() -> None:
    """easy, basic, expert and random: each once, each under its own key."""
    levels = [level for _, _, level in BOT_LEVELS]
    assert sorted(levels) == sorted(BotLevel)
    keys = [key for key, _, _ in BOT_LEVELS]
    assert len(set(keys)) == len(keys)
