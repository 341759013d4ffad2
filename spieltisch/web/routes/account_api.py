"""The account routes under ``/api/account``: sign up, sign in and out (here or everywhere),
change the password, the account's settings, deleting it, and its passkeys.

A sign-in or sign-up answers like ``GET /api/account`` (the account and the session's CSRF
token) and sets the session cookie; every change a cookie authorises needs that token in
``X-CSRF-Token`` (see :mod:`spieltisch.web.people.accounts`). Refusals are JSON ``{"detail": ...}``
in words the catalogs translate.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictStr

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.text import check_text, same_name
from spieltisch.web.people.accounts import (
    MAX_PASSWORD,
    Account,
    set_language,
    set_listed,
)
from spieltisch.web.people.events import end_account, end_every_session, end_one_session
from spieltisch.web.routes import passkey_api
from spieltisch.web.routes.seat_api import refusal
from spieltisch.web.routes.signed import (
    AccountLimits,
    begin_session,
    change_password,
    clear_cookie,
    current_session,
    database_at,
    described,
    events_at,
    facts_of,
    sign_in,
    sign_up,
    signed_in_session,
)

NO_STORE = {"Cache-Control": "no-store"}

Name = Annotated[StrictStr, AfterValidator(check_text), Field(max_length=100)]
"""A name sent (checked as any text: never a control character)."""


class PasswordIn(BaseModel):
    """A name and a password (to sign up or in)."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    password: Annotated[StrictStr, Field(max_length=MAX_PASSWORD)]
    listed: StrictBool = False
    """At sign-up: show the profile and appear on the leaderboards from the start."""


class NewPasswordIn(BaseModel):
    """A new password, and the current one to show that the owner asks."""

    model_config = ConfigDict(extra="forbid")
    current: Annotated[StrictStr, Field(max_length=MAX_PASSWORD)]
    new: Annotated[StrictStr, Field(max_length=MAX_PASSWORD)]


class SettingsIn(BaseModel):
    """What an account's owner may change."""

    model_config = ConfigDict(extra="forbid")
    listed: StrictBool | None = None
    language: Literal["en", "de"] | None = None
    """The language the account's pages open in."""


class DeleteIn(BaseModel):
    """Deleting an account: its name, typed again to confirm."""

    model_config = ConfigDict(extra="forbid")
    confirm: Name


def account_api(app: FastAPI) -> None:
    """Register the account routes (and keep their allowances on ``app.state.accounts``)."""
    app.state.accounts = AccountLimits()
    _password_routes(app)
    _session_routes(app)
    passkey_api.passkey_routes(app, signed_in_answer)


async def signed_in_answer(
    request: Request, response: Response, account: Account, status: int = 200
) -> dict[str, Any]:
    """Sign ``account`` in on this browser (a new session and cookie) and answer like
    ``GET /api/account``."""
    started = await begin_session(request, response, account)
    response.status_code = status
    response.headers.update(NO_STORE)
    return described(await facts_of(request, account), started.csrf)


def _password_routes(app: FastAPI) -> None:
    @app.post("/api/account/signup", status_code=201)
    async def signup(request: Request, response: Response, body: PasswordIn) -> dict[str, Any]:
        try:
            account = await sign_up(request, body.name, body.password)
        except RefusedError as refused:
            raise refusal(refused) from None
        if body.listed:  # chosen at sign-up: on the leaderboards once the games are played
            database = database_at(request)
            await database.write(set_listed, database.engine, account.id, True)
            account = replace(account, listed=True)
        return await signed_in_answer(request, response, account, 201)

    @app.post("/api/account/signin")
    async def signin(request: Request, response: Response, body: PasswordIn) -> dict[str, Any]:
        account = await sign_in(request, body.name, body.password)
        return await signed_in_answer(request, response, account)

    @app.post("/api/account/password")
    async def password(request: Request, response: Response, body: NewPasswordIn) -> dict[str, Any]:
        session = await signed_in_session(request)
        try:
            await change_password(request, session, body.current, body.new)
        except RefusedError as refused:
            raise refusal(refused) from None
        response.headers.update(NO_STORE)
        return described(await facts_of(request, session.account), session.csrf)


def _session_routes(app: FastAPI) -> None:
    @app.get("/api/account")
    async def account(request: Request, response: Response) -> dict[str, Any]:
        response.headers.update(NO_STORE)
        session = await current_session(request)
        if session is None:
            return described(None, None)
        return described(await facts_of(request, session.account), session.csrf)

    @app.post("/api/account/signout", status_code=204)
    async def signout(request: Request) -> Response:
        session = await signed_in_session(request)
        await end_one_session(
            database_at(request), events_at(request), session.account.id, session.id_hash
        )
        return _signed_out(request)

    @app.post("/api/account/signout-everywhere", status_code=204)
    async def signout_everywhere(request: Request) -> Response:
        session = await signed_in_session(request)
        await end_every_session(database_at(request), events_at(request), session.account.id)
        return _signed_out(request)

    @app.post("/api/account/settings")
    async def settings(request: Request, response: Response, body: SettingsIn) -> dict[str, Any]:
        session = await signed_in_session(request)
        database, account = database_at(request), session.account
        if body.listed is not None:
            await database.write(set_listed, database.engine, account.id, body.listed)
        if body.language is not None:
            await database.write(set_language, database.engine, account.id, body.language)
        changed = replace(
            account,
            listed=account.listed if body.listed is None else body.listed,
            language=body.language or account.language,
        )
        response.headers.update(NO_STORE)
        return described(await facts_of(request, changed), session.csrf)

    @app.post("/api/account/delete", status_code=204)
    async def delete(request: Request, body: DeleteIn) -> Response:
        session = await signed_in_session(request)
        if not same_name(body.confirm.strip(), session.account.name):
            raise HTTPException(422, "type your account's name to confirm")
        await end_account(database_at(request), events_at(request), session.account.id)
        return _signed_out(request)


def _signed_out(request: Request) -> Response:
    response = Response(status_code=204, headers=NO_STORE)
    clear_cookie(request, response)
    return response
