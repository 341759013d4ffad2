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
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from spieltisch.locale import LANGUAGES, SOURCE, client_catalog, translation
from spieltisch.web.common.words import read_language
from spieltisch.web.routes.signed import current_session

CACHE = "public, max-age=3600"
COOKIE = "spieltisch_lang"
"""The cookie that keeps a browser's choice of language (set by the page's language switch)."""
MAX_ACCEPT, MAX_RANGES = 256, 16
"""How much of an ``Accept-Language`` header is read: characters, and language ranges."""


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


def accepted(header: str) -> str | None:
    """The language spieltisch speaks that an ``Accept-Language`` header likes best (by its
    q-values; of equals, the first named), or ``None`` if it names none of them."""
    best, best_q = None, 0.0
    for part in header[:MAX_ACCEPT].split(",")[:MAX_RANGES]:
        tag, _, parameters = part.partition(";")
        weight = 1.0
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and weight > best_q:
            best, best_q = primary, weight
    return best


def asked_language(request: HTTPConnection) -> str:
    """The language a request asks its errors in: the one its ``Accept-Language`` likes best
    of those spieltisch speaks (the pages send theirs), else English."""
    return accepted(request.headers.get("accept-language", "")) or SOURCE


async def page_language(request: HTTPConnection) -> str:
    """The language a page opens in, chosen on the server so that its first paint is in it:
    the signed-in account's choice, else the choice this browser keeps (:data:`COOKIE`), else
    what the browser asks for (``Accept-Language``), else English."""
    session = await current_session(request)
    if session is not None and session.account.language in LANGUAGES:
        return session.account.language
    kept = request.cookies.get(COOKIE)
    if kept in LANGUAGES:
        return kept
    return asked_language(request)


def page_response(html: str, language: str) -> HTMLResponse:
    """A page in ``language``; caches are told that it varies with what chose the language."""
    headers = {"Content-Language": language, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(html, headers=headers)


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
