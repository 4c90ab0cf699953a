"""The words people read, in their language: gettext, with the catalogs ``de`` and
``el`` (docs/i18n.md).

Every text a player or an operator reads is marked with one of these functions,
whose names the extraction (``scripts/i18n.sh``, Babel's ``pybabel extract``)
knows:

- ``_("text")``: a sentence, translated now;
- ``ngettext("{n} card", "{n} cards", n)``: a sentence with a count, its plural
  chosen by the language's rule (German and Greek have two forms, as English);
- ``pgettext("card rank", "jack")`` and ``npgettext``: one English word with
  several meanings, told apart by a context;
- ``N_("text")``: marked, left in English where a ``str`` must be kept (a key's
  description), translated with ``_`` by whatever draws it;
- ``_l("text")`` and ``lazy_pgettext``: a :class:`LazyString` for a constant
  defined when a module is imported (a table of words), translated each time it
  is drawn (``str()``, ``format()``, an f-string), so changing the language at
  run time (:func:`set_language`) changes it too; ``lazy_ngettext`` the same
  for a sentence with a count (:class:`LazyPlural`).

Placeholders are named (``{player}``, ``{n}``), so that a translation may put
them in another order; one message is one whole sentence, never glued from
translated pieces.

The language is chosen once at start (:func:`choose_language`: ``--lang``, else
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, else English) and may be changed at any
time. The catalogs are ``.po`` files in the package (``locale/LANG/LC_MESSAGES/
craits.po``); a ``.mo`` beside one, as ``scripts/i18n.sh compile`` writes, is
used when it is not older than its ``.po``, else the ``.po`` is compiled in
memory with Babel at its first use (so ``pip install .`` and an editable install
both work, with nothing written into the package).

The pseudo-language :data:`PSEUDO` (``--lang qps``) marks every translated text
visibly (``⟦Ýóú plàý~~~⟧``: accented, 40 % longer, in brackets): a screen or a
line in it that shows a text without the brackets shows one not yet translated.

This module is in :mod:`craits.protocol` because the server's command line and
every client (the terminal's, the plain one, the bots) read words, and the
protocol is the one package they all import; it imports nothing of any of them.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

DOMAIN = "craits"
"""The gettext domain: the catalogs' file name (``craits.po``)."""

SOURCE = "en"
"""The language the texts are written in (no catalog)."""

CATALOGS = ("de", "el")
"""The languages with a catalog in the package."""

PSEUDO = "qps"
"""The pseudo-language for tests: every translated text visibly marked (a code of
the range ISO 639 keeps for local use, as Windows' ``qps-ploc``)."""

LANGUAGES = (SOURCE, *CATALOGS)
"""The languages a player may choose (:data:`PSEUDO` is for tests, not listed)."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/LANG/LC_MESSAGES/craits.po``."""

PSEUDO_OPEN = "⟦"
"""What every pseudo-translated text starts with."""
PSEUDO_CLOSE = "⟧"
"""What every pseudo-translated text ends with."""

_ENV_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The locale's variables, in the order POSIX gives them precedence."""

_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx%]")
"""A placeholder, ``{name}`` or ``%(name)s``, that a translation keeps as it is."""


def normalize(code: str | None) -> str | None:
    """The language of a locale name (``de_DE.UTF-8`` → ``de``, ``el-GR`` →
    ``el``, ``en_US`` → ``en``), or None for one without a language (``C``,
    ``POSIX``, empty) or of a language Craits does not speak."""
    if not code:
        return None
    for part in code.split(":"):  # a list, as LANGUAGE holds: the first known wins
        lang = re.split(r"[_.@-]", part.strip(), maxsplit=1)[0].lower()
        if lang in LANGUAGES or lang == PSEUDO:
            return lang
    return None


def choose_language(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``given`` (``--lang``), else the first of
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set (one naming a language
    Craits does not speak, or ``C``, means English), else English.

    Raises:
        ValueError: ``given`` names a language Craits does not speak (the
            message lists those it does).
    """
    if given:
        lang = normalize(given)
        if lang is None:
            raise ValueError(f"unknown language {given!r}; known: {', '.join(LANGUAGES)}")
        return lang
    env = os.environ if environ is None else environ
    for var in _ENV_VARIABLES:
        value = env.get(var)
        if value:  # the first set decides, as for the C library
            return normalize(value) or SOURCE
    return SOURCE


def given_language(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` (``--lang X`` or ``--lang=X``) in a command line, if
    any: read before the parser is built, so that its help is in that language."""
    given = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            given = argv[i + 1]
        elif arg.startswith("--lang="):
            given = arg.partition("=")[2]
    return given


def language_argument(value: str) -> str:
    """``--lang``'s value checked, as an argparse ``type``: the language it names.

    Raises:
        argparse.ArgumentTypeError: not a language Craits speaks, with the known
            ones (argparse says so, and exits).
    """
    import argparse

    try:
        return choose_language(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def speak_as_asked(argv: Sequence[str] | None = None) -> str:
    """Speak the language a command's line asks (``--lang``), else the locale's
    (:func:`choose_language`); returns it. A bad ``--lang`` leaves the locale's
    language spoken, for the parser to report it."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        return set_language(choose_language(given_language(args)))
    except ValueError:
        return set_language(choose_language())


# ------------------------------------------------------------------ catalogs


def catalog_path(lang: str, suffix: str = ".po") -> Path:
    """The file of ``lang``'s catalog (``.po``, or ``.mo`` compiled)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def compile_po(po: Path) -> bytes:
    """The ``.mo`` of the catalog ``po``, compiled with Babel (fuzzy entries left
    out, as gettext's ``msgfmt`` does).

    Raises:
        OSError: ``po`` cannot be read.
        babel.messages.pofile.PoFileError: it is not a valid catalog.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (the source language's are the texts
    themselves), loaded once: from its ``.mo`` when that is up to date, else
    from its ``.po`` compiled in memory.

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES` nor :data:`PSEUDO`.
        OSError: its catalog is missing (a broken install).
    """
    if lang == SOURCE:
        return gettext.NullTranslations()
    if lang == PSEUDO:
        return PseudoTranslations()
    if lang not in CATALOGS:
        raise ValueError(f"no catalog for {lang!r}")
    po, mo = catalog_path(lang), catalog_path(lang, ".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))


# ------------------------------------------------------------ the language


class _Current:
    """The language spoken now, and its translations (one per process)."""

    def __init__(self) -> None:
        self.lang = SOURCE
        self.translations: gettext.NullTranslations = gettext.NullTranslations()


_current = _Current()


def set_language(lang: str) -> str:
    """Speak ``lang`` from now on (every :class:`LazyString` too, when next drawn);
    returns the language set.

    Raises:
        ValueError: ``lang`` is not a language Craits speaks.
    """
    code = normalize(lang)
    if code is None:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    _current.translations = translations(code)
    _current.lang = code
    return code


def language() -> str:
    """The language spoken now (``en``, ``de``, ``el``, or :data:`PSEUDO`)."""
    return _current.lang


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n``, in the current language
    (the placeholders are left to fill: ``ngettext(...).format(n=n)``)."""
    return _current.translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` meant as ``context`` says (``pgettext("card rank", "jack")``),
    in the current language."""
    return _current.translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return _current.translations.npgettext(context, singular, plural, n)


class LazyString:
    """A text marked for translation, translated when drawn (``str()``,
    ``format()``, an f-string), so a table of words defined at import speaks the
    language of the moment. Two are equal when they are the same message (their
    context and English text), whatever the language."""

    __slots__ = ("context", "message")

    def __init__(self, message: str, context: str | None = None):
        self.message = message
        self.context = context

    def __str__(self) -> str:
        if self.context is None:
            return _(self.message)
        return pgettext(self.context, self.message)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def format(self, *args: Any, **kwargs: Any) -> str:
        """The translation with its placeholders filled (as :meth:`str.format`)."""
        return str(self).format(*args, **kwargs)

    def __repr__(self) -> str:
        return f"LazyString({self.message!r}, context={self.context!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LazyString):
            return NotImplemented
        return (self.context, self.message) == (other.context, other.message)

    def __hash__(self) -> int:
        return hash((self.context, self.message))


class LazyPlural:
    """A sentence with a count, marked for translation and translated when drawn
    (:meth:`count`): the singular and plural English forms, the language's
    plural rule choosing."""

    __slots__ = ("plural", "singular")

    def __init__(self, singular: str, plural: str):
        self.singular = singular
        self.plural = plural

    def count(self, n: int, **kwargs: Any) -> str:
        """The form for ``n`` in the current language, its placeholders filled
        (``{n}`` is ``n``, the others from ``kwargs``)."""
        return ngettext(self.singular, self.plural, n).format(n=n, **kwargs)

    def __repr__(self) -> str:
        return f"LazyPlural({self.singular!r}, {self.plural!r})"


def lazy_ngettext(singular: str, plural: str) -> LazyPlural:
    """:func:`ngettext` for a table of sentences, translated when drawn with a
    count (:class:`LazyPlural`)."""
    return LazyPlural(singular, plural)


def N_(message: str) -> str:
    """``message`` marked for translation and returned as it is, for a place that
    must hold a ``str`` defined at import (a Textual key's description): whoever
    draws it translates it then, with :func:`_`."""
    return message


def _l(message: str) -> LazyString:
    """``message`` marked for translation, translated when drawn (:class:`LazyString`)."""
    return LazyString(message)


def lazy_pgettext(context: str, message: str) -> LazyString:
    """:func:`pgettext`, translated when drawn (:class:`LazyString`)."""
    return LazyString(message, context)


# ------------------------------------------------------------ pseudo-language

_ACCENTED = str.maketrans(
    "AaCcEeGgIiKkLlNnOoRrSsUuYyZz",
    "ÅåÇçÉéĜĝÎîĶķĻļÑñÖöŔŕŠšÛûÝýŽž",
)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language: its letters accented, 40 % longer (``~``
    added), between :data:`PSEUDO_OPEN` and :data:`PSEUDO_CLOSE`; its placeholders
    (``{player}``, ``%(prog)s``) and markup kept as they are."""
    out: list[str] = []
    done = 0
    for m in _PLACEHOLDER.finditer(text):
        out.append(text[done : m.start()].translate(_ACCENTED))
        out.append(m.group())
        done = m.end()
    out.append(text[done:].translate(_ACCENTED))
    body = "".join(out)
    pad = "~" * ((len(text) * 2 + 4) // 5)
    return f"{PSEUDO_OPEN}{body}{pad}{PSEUDO_CLOSE}"


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-language :data:`PSEUDO`: every text through :func:`pseudo`
    (English plural rule)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
