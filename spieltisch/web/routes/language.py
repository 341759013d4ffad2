"""The page's language: the browser's words in it, and the game's words the server sends it.

``GET /api/texts/<language>`` answers the language's client catalog (each msgid to its text;
a msgid with a plural to its forms). It is the same for everyone and changes only with the
installed catalogs, so it is built once and may be cached by the browser for an hour.

A page names its language when it says hello (a replay step in its query, an API call in
``Accept-Language``); the server then words that page's events, move labels, hints and refusals in
it (:func:`~spieltisch.web.common.words.spoken`,
:meth:`~spieltisch.web.common.refusal.RefusedError.said`). A language changes only the words, never
what they tell: the same view gives the same facts in every language.
"""

from __future__ import annotations

import functools
import json
from typing import Protocol

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from spieltisch.locale import LANGUAGES, SOURCE, client_catalog, translation
from spieltisch.web.common.words import read_language

CACHE = "public, max-age=3600"


@functools.cache
def _encoded(language: str) -> bytes:
    return json.dumps(client_catalog(language), ensure_ascii=False, sort_keys=True).encode()


class Said(Protocol):
    """A reason that can be said in a language (a
    :class:`~spieltisch.web.common.refusal.RefusedError`)."""

    def said(self, language: str) -> str:
        """The reason in ``language``."""
        ...


def query_language(value: str) -> str:
    """The language a request names in its query (``?lang=``), or a clear refusal (422)."""
    language = read_language(value)
    if language is None:
        raise HTTPException(422, "the language must be one of en, de")
    return language


def asked_language(request: HTTPConnection) -> str:
    """The language a request asks its errors in: its ``Accept-Language`` header's first
    language if spieltisch speaks it (the pages send theirs), else English."""
    first = request.headers.get("accept-language", "")[:8].split(",")[0].split("-")[0]
    return read_language(first.strip().lower()) or SOURCE


def language_api(app: FastAPI) -> None:
    """Add the catalog route to ``app``, and say its HTTP errors in the asking page's
    language (a refusal with its placeholders filled; any other fixed detail as the
    catalog translates it)."""

    @app.exception_handler(StarletteHTTPException)
    async def in_language(request: Request, error: StarletteHTTPException) -> Response:
        language = asked_language(request)
        refused: Said | None = getattr(error, "refused", None)  # a RefusedError
        if refused is not None:
            detail: object = refused.said(language)
        elif isinstance(error.detail, str) and language != SOURCE:
            detail = translation(language).gettext(error.detail)
        else:
            detail = error.detail
        worded = HTTPException(error.status_code, detail, getattr(error, "headers", None))
        return await http_exception_handler(request, worded)

    @app.get("/api/texts/{language}")
    async def texts(language: str) -> Response:
        """The browser's words in ``language``."""
        if language not in LANGUAGES:
            raise HTTPException(404, "spieltisch speaks en, de")
        return Response(
            _encoded(language), media_type="application/json", headers={"Cache-Control": CACHE}
        )
