"""spieltisch's words in other languages: gettext catalogs, one per language, for every
surface (the server's words and the browser's alike).

English is the source language: each msgid is the English text, so English needs no
catalog. ``<language>/LC_MESSAGES/spieltisch.po`` holds a language's translations and its
``.mo`` the same compiled; ``spieltisch.pot`` lists every msgid, extracted by Babel from the
Python sources and the browser's scripts (``scripts/catalogs.py``: update, or check that
all are current and complete, as CI does).
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

from babel.numbers import format_decimal

DOMAIN = "spieltisch"
DIRECTORY = Path(__file__).parent
SOURCE = "en"
LANGUAGES = ("en", "de")
"""The languages spieltisch speaks, its source language first."""
CatalogEntry = str | list[str]


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``msgid`` for extraction where it is written; it is translated where it is used."""
    return msgid


class LanguageError(ValueError):
    """A language spieltisch does not speak."""


def _check(language: str) -> str:
    if language not in LANGUAGES:
        raise LanguageError(f"spieltisch speaks {', '.join(LANGUAGES)}, not {language[:20]!r}")
    return language


@functools.cache
def translation(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (English: the msgids themselves)."""
    if _check(language) == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, DIRECTORY, languages=[language])


def language_of(speech: object) -> str:
    """The language a :func:`translation` speaks (English for the msgids themselves, or for
    anything that is not a loaded catalog)."""
    if not isinstance(speech, gettext.GNUTranslations):
        return SOURCE
    said = speech.info().get("language", SOURCE)
    return said if said in LANGUAGES else SOURCE


def number(value: float, language: str, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals as ``language`` writes numbers (``14,2`` in German,
    ``14.2`` in English), by Babel's locale data."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=_check(language))


@functools.cache
def client_catalog(language: str) -> dict[str, CatalogEntry]:
    """``language``'s translations as the browser reads them: each msgid to its text, or, for
    a msgid with a plural, the singular msgid to its forms."""
    found = translation(language)
    if not isinstance(found, gettext.GNUTranslations):
        return {}
    entries: dict[str, CatalogEntry] = {}
    plurals: dict[str, dict[int, str]] = {}
    kept: dict[str | tuple[str, int], str] = getattr(found, "_catalog", {})  # gettext has no
    for key, text in kept.items():  # public list of its entries
        if isinstance(key, tuple):
            plurals.setdefault(key[0], {})[key[1]] = text
        elif key and text:
            entries[key] = text
    for msgid, forms in plurals.items():
        entries[msgid] = [forms[index] for index in sorted(forms)]
    return entries
