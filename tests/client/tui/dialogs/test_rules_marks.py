"""The rules page (``?``) explains every badge a seat can wear on the table
(:mod:`craits.client.present.tableview`), in its long and its short form, so a badge
added to the table without a word on the page is caught."""

from __future__ import annotations

from craits.client.present import tableview
from craits.client.tui.dialogs.rules import rules_text


def test_the_rules_page_names_every_badge_a_seat_can_wear() -> None:
    badges = [b for b in vars(tableview).values() if isinstance(b, tableview.Badge)]
    assert len(badges) >= 7  # dealer, bot, away, offline, one card, unsaid, loses a turn
    text = rules_text()
    plain = rules_text(ascii=True)
    for badge in badges:
        for word in (badge.long, badge.short):
            assert f"`{word}`" in text, word
            assert f"`{word}`" in plain, word
