"""The pages about people: the account, a player's profile and the ratings.

Like the other pages, these are HTML shells whose scripts fill them from the API: the
account page (``account.js``) signs up and in, by password or passkey, and keeps the
account's settings; a profile (``profile.js``) shows what its player chose to show (or,
to the player themselves, everything, their unfinished tables too); the ratings page
(``ratings.js``) shows each game's leaderboards beside its bot ladder. Nothing here reads
an account: a page is the same for everyone, and its script asks the API what the asker may
see.
"""

from __future__ import annotations

from html import escape

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from spieltisch.locale import N_, SOURCE
from spieltisch.web.routes.language import page_language, page_response
from spieltisch.web.routes.pages import shell

MAX_NAME = 64
"""The longest name a profile's address is read with (an account's name is no longer)."""

_ACCOUNT = N_("Your account")
_RATINGS = N_("Ratings")
_LOADING = N_("Loading…")


def account(language: str = SOURCE) -> str:
    """The account page: the forms to sign up and in, or, signed in, the account's own."""
    heading, loading = _ACCOUNT, _LOADING  # marked outside the f-string: Babel reads
    body = f"""<h1 data-t id="page-title">{heading}</h1>
<div id="account" aria-live="polite"><p data-t>{loading}</p></div>
<p id="account-note" role="status"></p>"""
    return shell(_ACCOUNT, "account.js", body, language=language)


def player(name: str, language: str = SOURCE) -> str:
    """A player's profile: their ratings, record, finished games (and, to themselves, their
    unfinished tables)."""
    loading = _LOADING
    shown = escape(name[:MAX_NAME])
    body = f"""<h1 id="page-title">{shown}</h1>
<div id="profile" aria-live="polite"><p data-t>{loading}</p></div>"""
    return shell(name[:MAX_NAME], "profile.js", body, f' data-player="{shown}"', language)


def ratings(language: str = SOURCE) -> str:
    """The ratings: for a game and player count, its leaderboard and its bot ladder."""
    heading, loading = _RATINGS, _LOADING
    body = f"""<h1 data-t id="page-title">{heading}</h1>
<form id="choose" class="panel seat-row"></form>
<div id="boards" class="boards" aria-live="polite"><p data-t>{loading}</p></div>"""
    return shell(_RATINGS, "ratings.js", body, language=language)


def people_pages(app: FastAPI) -> None:
    """Add the account page, the profiles and the ratings page to ``app``."""

    @app.get("/account", response_class=HTMLResponse)
    async def account_page(request: Request) -> HTMLResponse:
        language = await page_language(request)
        return page_response(account(language), language)

    @app.get("/players/{name}", response_class=HTMLResponse)
    async def player_page(request: Request, name: str) -> HTMLResponse:
        language = await page_language(request)
        return page_response(player(name, language), language)

    @app.get("/ratings", response_class=HTMLResponse)
    async def ratings_page(request: Request) -> HTMLResponse:
        language = await page_language(request)
        return page_response(ratings(language), language)
