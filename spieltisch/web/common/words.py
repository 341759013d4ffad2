"""A game's words and the server's reasons in a page's language, for every room that words
something for a page (the payloads, the bots' advice, the checks), and the languages a page
may name."""

from __future__ import annotations

import functools
from typing import Any

from spieltisch.core.words import Words
from spieltisch.locale import LANGUAGES, SOURCE, number, translation

__all__ = ["number", "read_language", "spoken", "worded"]


@functools.cache
def spoken(words: Words[Any], language: str) -> Words[Any]:
    """A game's ``words`` in ``language`` (one of :data:`LANGUAGES`)."""
    return words if language == SOURCE else words.speaking(translation(language))


def worded(reason: str, language: str) -> str:
    """``reason``, a msgid of the catalog, said in ``language``."""
    return reason if language == SOURCE else translation(language).gettext(reason)


def read_language(value: object) -> str | None:
    """The language a page names (English if it names none), or ``None`` if spieltisch does
    not speak it."""
    if value is None:
        return SOURCE
    return value if isinstance(value, str) and value in LANGUAGES else None
