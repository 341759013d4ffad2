"""The routes that change who sits where: joining and starting, the host's seat changes and
links, a person leaving or conceding, votes on an absent seat, and the rematch.

Tokens travel in an ``Authorization: Bearer`` header (a seat's or the host's), never in a
query string. Every refusal says why in words and changes nothing. In a rated game being
played nobody but a seat's own person changes who plays it
(:mod:`~spieltisch.web.tables.rated_seats`): the host hands no seat on, nobody votes, and a
seat's link gives it up or takes it only from its own account.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.people.rated import check_rated_bots
from spieltisch.web.routes.bound import bearer, binding_account, seat_credential, table_maker
from spieltisch.web.routes.fields import Field as Text
from spieltisch.web.routes.signed import acting_account
from spieltisch.web.tables.abandoned import end_walked_away
from spieltisch.web.tables.chat import NOTICE, notice
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.pool import check_heavy, check_level
from spieltisch.web.tables.rated_seats import check_host_hands, check_own_rated_seat
from spieltisch.web.tables.seats import missing_for_start
from spieltisch.web.tables.table import LiveTable

Authorization = Annotated[str | None, Header()]


class JoinIn(BaseModel):
    """A person taking their seat."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[Text, Field(max_length=100)]
    name: Annotated[str, Field(max_length=100)]
    """Checked and normalised as a display name
    (:func:`spieltisch.web.common.text.display_name`)."""
    salt: Annotated[Text, Field(max_length=64)] | None = None
    """The person's random contribution to the table's dice (hexadecimal)."""


class BotIn(BaseModel):
    """A seat handed to a bot."""

    model_config = ConfigDict(extra="forbid")
    level: Annotated[Text, Field(max_length=40)]


class VoteIn(BaseModel):
    """A vote on handing an absent seat to a bot."""

    model_config = ConfigDict(extra="forbid")
    yes: StrictBool


class Refusal(HTTPException):
    """A refusal as the HTTP error that says it (in the asking page's language: see
    :func:`spieltisch.web.routes.language.language_api`'s error handler)."""

    def __init__(self, refused: RefusedError) -> None:
        super().__init__(refused.status, refused.reason)
        self.refused = refused


def refusal(refused: RefusedError) -> HTTPException:
    """A refusal as the HTTP error that says it."""
    return Refusal(refused)


def hub_of(request: Request) -> Hub:
    """The server's hub."""
    hub: Hub = request.app.state.hub
    return hub


async def live_of(request: Request, table_id: str) -> LiveTable:
    """The table ``table_id``, or 404."""
    live = await hub_of(request).get(table_id)
    if live is None:
        raise HTTPException(404, "no such table")
    return live


async def own_credential(request: Request, live: LiveTable, authorization: str | None) -> object:
    """The asker's seat credential for giving their seat up (leave, concede): at a rated game
    being played a seat's link speaks for its person only from their own account."""
    credential = await seat_credential(request, live, authorization)
    if live.rules.rated and live.status == "playing":
        account = await acting_account(request)
        check_own_rated_seat(live, credential, None if account is None else account.id)
    return credential


def link(table_id: str, token: str) -> str:
    """A seat's join link."""
    return f"/t/{table_id}#seat={token}"


def seat_api(app: FastAPI) -> None:
    """Register the routes."""
    _joining(app)
    _hosting(app)
    _own_seat(app)


def _joining(app: FastAPI) -> None:
    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinIn) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            account = await binding_account(request)
            token = await seat_credential(request, live, None) if not body.token else body.token
            check_own_rated_seat(live, token, None if account is None else account.id)
            seat = await hub.seating.join(live, token, body.name, body.salt, account)
            back = live.rematch_of is not None and live.status == "open"
            if back and missing_for_start(live) is None:  # everyone is back: rematch begins
                await hub.seating.start(live)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"seat": seat, "name": live.seats[seat].name}

    @app.post("/api/tables/{table_id}/start")
    async def start(
        request: Request, table_id: str, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            hub.seating.check_host(live, bearer(authorization))
            await hub.seating.start(live)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"status": live.status, "version": live.shown}


def _hosting(app: FastAPI) -> None:
    """The host's requests (their token in the header)."""

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def to_bot(
        request: Request, table_id: str, seat: int, body: BotIn,
        authorization: Authorization = None,
    ) -> dict[str, Any]:  # fmt: skip
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            hub.seating.check_host(live, bearer(authorization))
            number = hub.seating.number(live, seat)
            check_level(live.game, body.level)
            if live.rules.rated:
                check_rated_bots(live.game.info.id, live.game.players, [body.level])
            maker = await table_maker(request)  # the heaviest levels: signed-in hosts only
            check_heavy([body.level], maker.signed_in or hub.settings.heavy_bots_for_all)
            async with live.lock:
                check_host_hands(live)
                name = live.seats[number].name
                await hub.seating.to_bot(live, number, body.level, "bot")
                await hub.note(live, NOTICE, None, notice("tobot", name=name))
        except RefusedError as refused:
            raise refusal(refused) from None
        await hub.broadcast(live)
        hub.schedule(live)
        hub.lobby.changed()
        return {"seat": number, "name": live.seats[number].name}

    @app.post("/api/tables/{table_id}/seats/{seat}/person")
    async def to_person(
        request: Request, table_id: str, seat: int, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        host = bearer(authorization)
        try:
            hub.seating.check_host(live, host)
            number = hub.seating.number(live, seat)
            token = await hub.seating.to_person(live, host or "", number)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"seat": number, "seat_link": link(live.id, token)}

    @app.get("/api/tables/{table_id}/links")
    async def links(
        request: Request, table_id: str, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        host = bearer(authorization)
        try:
            hub.seating.check_host(live, host)
        except RefusedError as refused:
            raise refusal(refused) from None
        found = hub.seating.links(live, host or "")
        return {"seat_links": {str(seat): link(live.id, t) for seat, t in found.items()}}


def _own_seat(app: FastAPI) -> None:
    """What a seated person does with their own seat (their seat's token in the header)."""

    @app.post("/api/tables/{table_id}/leave")
    async def leave(
        request: Request, table_id: str, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            own = await own_credential(request, live, authorization)
            await hub.seating.leave(live, own)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"status": live.status}

    @app.post("/api/tables/{table_id}/concede")
    async def concede(
        request: Request, table_id: str, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            ended = await hub.seating.concede(
                live, await own_credential(request, live, authorization)
            )
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"status": live.status, "ended": ended}

    @app.post("/api/tables/{table_id}/end")
    async def end(
        request: Request, table_id: str, authorization: Authorization = None
    ) -> dict[str, Any]:
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            await end_walked_away(hub, live, await seat_credential(request, live, authorization))
        except RefusedError as refused:
            raise refusal(refused) from None
        return {"status": live.status}

    @app.post("/api/tables/{table_id}/votes/{seat}")
    async def vote(
        request: Request, table_id: str, seat: int, body: VoteIn,
        authorization: Authorization = None,
    ) -> dict[str, Any]:  # fmt: skip
        hub, live = hub_of(request), await live_of(request, table_id)
        try:
            own = await seat_credential(request, live, authorization)
            voter = hub.seating.person_of(live, own)
            result = await hub.takeovers.vote(live, voter, seat, body.yes)
        except RefusedError as refused:
            raise refusal(refused) from None
        return {"seat": seat, "result": result}

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(
        request: Request, table_id: str, authorization: Authorization = None,
        host: Annotated[str | None, Header(alias="X-Host-Token")] = None,
    ) -> dict[str, Any]:  # fmt: skip
        hub, live = hub_of(request), await live_of(request, table_id)
        token = bearer(authorization)
        try:
            own = await seat_credential(request, live, authorization)
            made = await hub.rematches.ask(live, own, host or token)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"id": made, "link": f"/t/{made}"}
