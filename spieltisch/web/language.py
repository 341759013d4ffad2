"""The page's language: the browser's words in it, and the game's words the server sends it.

``GET /api/texts/<language>`` answers the language's client catalog (each msgid to its text;
a msgid with a plural to its forms). It is the same for everyone and changes only with the
installed catalogs, so it is built once and may be cached by the browser for an hour.

A page names its language when it says hello (and a replay step in its query); the server
then words that page's events and move labels in it (:func:`spoken`). A language changes
only the words, never what they tell: the same view gives the same facts in every language.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from fastapi import FastAPI, HTTPException, Response

from spieltisch.core.errors import IllegalActionError, SpieltischError
from spieltisch.core.words import Words
from spieltisch.locale import LANGUAGES, SOURCE, client_catalog, translation

CACHE = "public, max-age=3600"


@functools.cache
def spoken(words: Words[Any], language: str) -> Words[Any]:
    """A game's ``words`` in ``language`` (one of :data:`LANGUAGES`)."""
    return words if language == SOURCE else words.speaking(translation(language))


def refusal_in(reason: str, cause: SpieltischError | None, language: str) -> str:
    """Why a move was refused, in ``language``: the rule the engine named is translated, and
    its detail if that is a fixed text; a detail worked out from the position (in English
    only) is left out, the rule says what matters."""
    error = cause
    if language == SOURCE or not isinstance(error, IllegalActionError):
        return reason
    speech = translation(language)
    text = speech.gettext("illegal move {move}: {rule}").format(
        move=repr(error.action), rule=speech.gettext(error.rule)
    )
    detail = speech.gettext(error.detail) if error.detail else ""
    return f"{text} ({detail})" if detail and detail != error.detail else text


def read_language(value: object) -> str | None:
    """The language a page names (English if it names none), or ``None`` if spieltisch does
    not speak it."""
    if value is None:
        return SOURCE
    return value if isinstance(value, str) and value in LANGUAGES else None


@functools.cache
def _encoded(language: str) -> bytes:
    return json.dumps(client_catalog(language), ensure_ascii=False, sort_keys=True).encode()


def language_api(app: FastAPI) -> None:
    """Add the catalog route to ``app``."""

    @app.get("/api/texts/{language}")
    async def texts(language: str) -> Response:
        """The browser's words in ``language``."""
        if language not in LANGUAGES:
            raise HTTPException(404, f"spieltisch speaks {', '.join(LANGUAGES)}")
        return Response(
            _encoded(language), media_type="application/json", headers={"Cache-Control": CACHE}
        )
