"""The catalogs: the template (.pot) is what the code marks today, and every
catalog (de, el) translates all of it, with the same placeholders, every plural
form its language has, and compiles. Run ``scripts/i18n.sh update`` when the
first fails, translate, and commit both (docs/i18n.md)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from craits.protocol import i18n

ROOT = Path(__file__).resolve().parents[2]
POT = i18n.LOCALE_DIR / "craits.pot"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
PYBABEL = Path(sys.executable).with_name("pybabel")


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=i18n.DOMAIN)


def _keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def _keywords() -> list[str]:
    """The extraction's keywords, as scripts/i18n.sh gives them (one source)."""
    script = (ROOT / "scripts" / "i18n.sh").read_text(encoding="utf-8")
    found = re.search(r'^KEYWORDS="([^"]*)"', script, re.M)
    assert found, "scripts/i18n.sh names its KEYWORDS"
    return found.group(1).split()


def test_the_template_is_up_to_date_with_the_code(tmp_path: Path) -> None:
    if not PYBABEL.exists():
        pytest.skip(f"{PYBABEL} is not installed (babel)")
    fresh = tmp_path / "fresh.pot"
    subprocess.run(
        [
            str(PYBABEL),
            "-q",
            "extract",
            *_keywords(),
            "-o",
            str(fresh),
            "client",
            "protocol",
            "server",
        ],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    now, kept = _keys(_read(fresh)), _keys(_read(POT))
    assert not now - kept, f"marked in the code, not in the .pot: {sorted(now - kept, key=str)}"
    assert not kept - now, f"in the .pot, no longer in the code: {sorted(kept - now, key=str)}"


@pytest.mark.parametrize("lang", i18n.CATALOGS)
def test_a_catalog_translates_the_whole_template(lang: str) -> None:
    template = _read(POT)
    catalog = _read(i18n.catalog_path(lang), lang)
    rule = get_plural(lang)
    assert (catalog.num_plurals, catalog.plural_expr) == (rule.num_plurals, rule.plural_expr), (
        "Plural-Forms as Babel's rules for the language say"
    )
    problems = []
    for m in template:
        if not m.id:
            continue
        t = catalog.get(m.id, m.context)
        if t is None or t.fuzzy:
            problems.append(f"{m.id!r}: missing or fuzzy")
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = t.string if isinstance(t.string, tuple) else (t.string,)
        if isinstance(m.id, tuple) and len(strings) != catalog.num_plurals:
            problems.append(f"{m.id!r}: {len(strings)} plural forms, not {catalog.num_plurals}")
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for s in strings:
            if not s:
                problems.append(f"{m.id!r}: untranslated")
            elif set(PLACEHOLDER.findall(s)) - wanted or (
                not isinstance(m.id, tuple) and set(PLACEHOLDER.findall(s)) != wanted
            ):
                problems.append(f"{m.id!r}: placeholders {s!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", i18n.CATALOGS)
def test_a_plural_s_forms_keep_its_other_placeholders(lang: str) -> None:
    """A plural may leave the number out of its singular ("eine Karte"), but every
    form keeps the other placeholders."""
    catalog = _read(i18n.catalog_path(lang), lang)
    for m in catalog:
        if m.id and isinstance(m.id, tuple):
            others = set(PLACEHOLDER.findall(m.id[1])) - {"{n}"}
            for s in m.string:
                assert others <= set(PLACEHOLDER.findall(s)), (m.id, s)


@pytest.mark.parametrize("lang", i18n.CATALOGS)
def test_a_catalog_compiles_and_every_translation_formats(lang: str) -> None:
    import gettext

    t = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(i18n.catalog_path(lang))))
    fill = {"n": 2, "player": "Ana", "card": "7", "suit": "S", "cards": "7 8"}
    for m in _read(POT):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            said = t.npgettext(m.context, *m.id, 2) if m.context else t.ngettext(*m.id, 2)
        else:
            said = t.pgettext(m.context, m.id) if m.context else t.gettext(m.id)
        names = {p.strip("{}") for p in PLACEHOLDER.findall(said)}
        said.format(**{k: fill.get(k, k) for k in names})  # no stray brace breaks it


def test_the_package_ships_the_catalogs(tmp_path: Path) -> None:
    """``pip install .`` gets the .po files and the .pot (pyproject's package-data):
    the wheel built from the worktree holds them."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("craits-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in i18n.CATALOGS:
        assert f"craits/protocol/locale/{lang}/LC_MESSAGES/craits.po" in names
    assert "craits/protocol/locale/craits.pot" in names
