"""The translation machinery (craits.protocol.i18n): which language is chosen, that
it changes at run time (lazy strings included), the pseudo-language's marks, and
that catalogs load from their .po (compiled in memory) and from a .mo beside it."""

from __future__ import annotations

import gettext
import os
import shutil
import time
from pathlib import Path

import pytest
from craits.protocol import i18n
from craits.protocol.i18n import (
    PSEUDO,
    LazyString,
    _,
    _l,
    choose_language,
    given_language,
    lazy_ngettext,
    lazy_pgettext,
    ngettext,
    pgettext,
    pseudo,
    set_language,
)


def test_the_command_line_comes_before_the_locale() -> None:
    env = {"LC_ALL": "el_GR.UTF-8", "LANG": "de_DE.UTF-8"}
    assert choose_language("de", env) == "de"
    assert choose_language(None, env) == "el"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LC_ALL": "de_AT.UTF-8", "LC_MESSAGES": "el_GR", "LANG": "en_US"}, "de"),
        ({"LC_MESSAGES": "el_GR.UTF-8", "LANG": "de_DE"}, "el"),
        ({"LANG": "de_CH.UTF-8"}, "de"),
        ({"LANG": "el"}, "el"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),  # the first set decides, as for libc
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # a language Craits does not speak
        ({"LC_ALL": "", "LANG": "el_GR"}, "el"),  # empty is unset
        ({}, "en"),
    ],
)
def test_the_locale_s_variables_in_posix_order(env: dict[str, str], lang: str) -> None:
    assert choose_language(None, env) == lang


def test_an_unknown_language_on_the_command_line_is_refused() -> None:
    with pytest.raises(ValueError, match="known: en, de, el"):
        choose_language("fr")


def test_lang_is_read_before_the_parser() -> None:
    assert given_language(["host", "--lang", "de", "--plain"]) == "de"
    assert given_language(["--lang=el", "host"]) == "el"
    assert given_language(["host"]) is None


def test_a_lazy_string_speaks_the_language_of_the_moment_it_is_drawn() -> None:
    spades = lazy_pgettext("suit", "spades")  # defined while English is spoken
    draw = _l("clockwise")
    cards = lazy_ngettext("{n} card", "{n} cards")
    assert (str(spades), f"{draw}", cards.count(2)) == ("spades", "clockwise", "2 cards")
    set_language("de")
    assert (str(spades), f"{draw}", cards.count(2)) == ("Pik", "im Uhrzeigersinn", "2 Karten")
    set_language("el")
    assert (str(spades), cards.count(1), cards.count(3)) == ("μπαστούνι", "1 φύλλο", "3 φύλλα")
    set_language("en")
    assert str(spades) == "spades"


def test_lazy_strings_are_equal_by_their_message_whatever_the_language() -> None:
    a, b = lazy_pgettext("suit", "hearts"), lazy_pgettext("suit", "hearts")
    set_language("de")
    assert a == b and hash(a) == hash(b) and a != LazyString("hearts", "rank")


def test_plurals_and_contexts_follow_the_catalog() -> None:
    set_language("de")
    assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 Karte"
    assert pgettext("rank", "jack") == "Bube"  # not the rule page's "Wagenheber"
    set_language("el")
    assert pgettext("rank", "jack") == "βαλές"
    assert pgettext("term", "the count") == "το μέτρημα"  # not the page's "crank"
    assert _("an unknown card") == "ένα άγνωστο φύλλο"


def test_the_pseudo_language_marks_every_text_and_keeps_its_placeholders() -> None:
    marked = pseudo("{player} played the {card} (%(prog)s)")
    assert marked.startswith(i18n.PSEUDO_OPEN) and marked.endswith(i18n.PSEUDO_CLOSE)
    assert "{player}" in marked and "{card}" in marked and "%(prog)s" in marked
    assert "á" not in "{player}" and "éd" in marked  # letters accented, placeholders not
    assert len(marked) >= len("{player} played the {card} (%(prog)s)") * 1.4
    set_language(PSEUDO)
    said = _("You sit at table {table}.").format(table="ok")
    assert said.startswith(i18n.PSEUDO_OPEN) and "ok" in said


def test_a_catalog_compiles_in_memory_from_its_po() -> None:
    compiled = i18n.compile_po(i18n.catalog_path("de"))
    t = gettext.GNUTranslations(__import__("io").BytesIO(compiled))
    assert t.ngettext("{n} card", "{n} cards", 2) == "{n} Karten"


def test_a_mo_beside_the_po_is_used_only_when_not_older(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    po = locale / "de" / "LC_MESSAGES" / "craits.po"
    mo = po.with_suffix(".mo")
    fake = po.read_text(encoding="utf-8").replace('msgstr "Bube"', 'msgstr "Unter"')
    mo.write_bytes(i18n.compile_po(_written(tmp_path / "fake.po", fake)))
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("de").pgettext("rank", "jack") == "Unter"  # the .mo
        later = time.time() + 10
        os.utime(po, (later, later))  # the .po changed since: compiled anew
        i18n.translations.cache_clear()
        assert i18n.translations("de").pgettext("rank", "jack") == "Bube"
    finally:
        i18n.translations.cache_clear()


def _written(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / "de" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    target = path.parent / "de" / "LC_MESSAGES" / path.name
    target.write_text(text, encoding="utf-8")
    return target
