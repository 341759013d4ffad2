"""The page's language: the browser's words in it, from spieltisch's gettext catalogs.

``GET /api/texts/<language>`` answers the language's client catalog (each msgid to its text;
a msgid with a plural to its forms). It is the same for everyone and changes only with the
installed catalogs, so it is built once and may be cached by the browser for an hour.
"""

from __future__ import annotations

import functools
import json

from fastapi import FastAPI, HTTPException, Response

from spieltisch.locale import LANGUAGES, client_catalog

CACHE = "public, max-age=3600"


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
