"""The ASGI app: pages, the JSON API, and one WebSocket per open page.

Pages are static shells (the client is plain JavaScript modules shipped in the package, no
build step, nothing from a CDN); everything a page shows comes from the API and the table's
WebSocket. Secret tokens travel in a link's fragment and then in a message body or an
``Authorization`` header, never in a query string. Every response carries a content security
policy; every request and message is bounded in size, checked, and refused with a clear error
that changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.exc import OperationalError
from starlette.middleware.gzip import GZipMiddleware

import spieltisch
from spieltisch.agents import agent_names
from spieltisch.agents.ladder import load_ladder
from spieltisch.core.errors import SpieltischError
from spieltisch.core.words import N_
from spieltisch.games import REGISTRY
from spieltisch.locale import SOURCE
from spieltisch.web.common.buckets import TokenBucket
from spieltisch.web.common.option_words import labels_of
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.table_rules import ChatMode, ClockMode, TableRules, Takeover
from spieltisch.web.common.text import check_text
from spieltisch.web.common.tokens import token_hash
from spieltisch.web.common.words import read_language, worded
from spieltisch.web.people.rated import check_rated_bots
from spieltisch.web.routes import guard, pages
from spieltisch.web.routes.account_api import account_api
from spieltisch.web.routes.bound import own_seat, table_maker
from spieltisch.web.routes.fields import Field as Text
from spieltisch.web.routes.gate import Gate, client_address
from spieltisch.web.routes.guard import ASGIApp, Guard, Receive, Scope, Send
from spieltisch.web.routes.ladder_play import rated_bot_api
from spieltisch.web.routes.language import (
    language_api,
    page_language,
    page_response,
    query_language,
)
from spieltisch.web.routes.lessons import lessons_api
from spieltisch.web.routes.limits import ServerLimits, take_table_allowance
from spieltisch.web.routes.people_pages import people_pages
from spieltisch.web.routes.players import players_api
from spieltisch.web.routes.rules_at_hand import rules_api
from spieltisch.web.routes.seat_api import hub_of, live_of, refusal, seat_api
from spieltisch.web.routes.signed import current_session
from spieltisch.web.routes.socket_memory import ReleaseSockets
from spieltisch.web.routes.stalls import watched
from spieltisch.web.store.allowances import set_owner
from spieltisch.web.store.db import migrate
from spieltisch.web.tables import chat
from spieltisch.web.tables.checks import Answer, StepJob
from spieltisch.web.tables.clock import Clock
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.payload import error_message, rejected_message
from spieltisch.web.tables.pool import STRENGTHS, check_heavy, heavy
from spieltisch.web.tables.rated_seats import check_speaks_for_its_person
from spieltisch.web.tables.seats import check_session
from spieltisch.web.tables.table import AccountSeat, Connection, LiveTable, SeatPlan

LOG = logging.getLogger("spieltisch.web")
STATIC = Path(__file__).parent.parent / "static"
HELLO_TIMEOUT = 15.0
CHAT_RATE = 0.5
CHAT_BURST = 4
"""A connection may send ``CHAT_BURST`` chat lines at once and one every two seconds after."""
FONT_CACHE = "public, max-age=31536000, immutable"
"""The fonts: cut once from Debian's packages (scripts/fonts.py), a year in a browser's cache."""
ICON_CACHE = "public, max-age=2592000"
"""The app's icons and manifest: a month (a new mark reaches browsers within one)."""
ICONS = frozenset(
    {"icon.svg", "icon-turn.svg", "icon-192.png", "icon-512.png", "apple-touch-icon.png",
     "person.svg", "globe.svg", "speaker.svg"}
)  # fmt: skip
"""The files of ``static/art`` kept for ``ICON_CACHE`` (the boards' own art is not)."""
MANIFEST = STATIC / "manifest.webmanifest"
GZIP_MINIMUM = 500
"""Bytes below which a response is sent as it is (gzip's header would outweigh its gain)."""


class CachedStatic(StaticFiles):
    """The static files, with a long ``Cache-Control`` on the fonts and the icons (every other
    file is checked again each time, by its ETag, so that a new version shows at once)."""

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        where = Path(full_path)
        if where.parent.name == "fonts":
            response.headers["Cache-Control"] = FONT_CACHE
        elif where.parent.name == "art" and where.name in ICONS:
            response.headers["Cache-Control"] = ICON_CACHE
        return response


def compressible(path: str) -> bool:
    """Whether a response to ``path`` is gzipped: what a page loads (its HTML, the static files,
    the catalogs, the games, the manifest); not the rest of the API, whose answers may carry a
    session's secrets next to what a request sent, nor the lobby's event stream."""
    return (
        path.startswith(("/static/", "/api/texts/"))
        or path in ("/api/games", "/manifest.webmanifest")
        or not path.startswith(("/api/", "/ws/"))
    )


class Compress:
    """Starlette's gzip (responses of ``GZIP_MINIMUM`` bytes and more, never an event stream)
    for the paths :func:`compressible` names; a socket passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=GZIP_MINIMUM, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and compressible(str(scope.get("path", ""))):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class SeatIn(BaseModel):
    """A seat of a table to create."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["person", "bot"]
    level: Annotated[Text, Field(max_length=40)] | None = None


class RulesIn(BaseModel):
    """A table's house rules (see :mod:`spieltisch.web.common.table_rules`)."""

    model_config = ConfigDict(extra="forbid")
    clock: ClockMode = ClockMode.NONE
    bank: Annotated[float, Field(ge=30, le=7 * 86400)] = 300.0
    increment: Annotated[float, Field(ge=0, le=3600)] = 10.0
    per_move: Annotated[float, Field(ge=60, le=14 * 86400)] = 86400.0
    grace: Annotated[float, Field(ge=0, le=7 * 86400)] = 120.0
    takeover: Takeover = Takeover.BOT
    chat: ChatMode = ChatMode.PLAYERS
    memory_aids: StrictBool = False
    rated: StrictBool = False
    give_way: StrictBool = True


class LevelsIn(BaseModel):
    """A table's game, player count and options (whose bot levels are asked for)."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[Text, Field(max_length=40)]
    players: Annotated[int, Field(ge=1, le=8)] | None = None
    options: Annotated[
        dict[
            Annotated[Text, Field(max_length=40)],
            StrictBool | StrictInt | Annotated[StrictStr, AfterValidator(check_text)],
        ],
        Field(max_length=24),
    ] = {}


class CreateIn(LevelsIn):
    """A table to create."""

    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=8)]
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None
    hints: StrictBool = False
    """The host allows the seats to ask the strongest bot for a hint."""
    rules: RulesIn = RulesIn()


class JoinIn(BaseModel):
    """A person taking their seat."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(max_length=100)]
    name: Annotated[str, Field(max_length=100)]
    salt: Annotated[str, Field(max_length=64)] | None = None
    """The person's random contribution to the table's dice (hexadecimal)."""


def level_menu_of(game: dict[str, Any]) -> list[str]:
    """Every level code a game's entry in ``/api/games`` offers."""
    levels: list[str] = game["levels"]
    return [*levels, *(f"{n}:{s}" for n in levels for s in game["strengths"].get(n, []))]


def _games() -> list[dict[str, Any]]:
    """Every game with its player counts, options (with their meaning and, for a choice, each
    value's label) and bot levels: the levels people choose by name (the bot ladder's, weakest
    first, with their ratings, for each number of players) and every level by its code, for
    experts."""
    games, ladder = [], load_ladder()
    for game_id in REGISTRY.implemented():
        info = REGISTRY.game_class(game_id).info
        levels = agent_names(spieltisch.load(game_id))
        games.append(
            {
                "id": game_id,
                "name": info.name,
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": info.default_players,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "help": o.help,
                        "choices": list(o.choices),
                        "labels": labels_of(game_id, o),
                        "type": type(o.default).__name__,
                        **({"min": o.bounds[0], "max": o.bounds[1]} if o.bounds else {}),
                    }
                    for o in info.options
                ],
                "levels": list(levels),
                "levels_at": {
                    str(players): list(agent_names(spieltisch.load(game_id, players)))
                    for players in range(info.min_players, info.max_players + 1)
                },
                "strengths": {k: v for k, v in STRENGTHS.items() if k in levels},
                "ladder": {
                    str(players): [
                        {"level": n.rung.level, "name": n.name, "rating": round(n.rung.mu, 1)}
                        for n in ladder.named(game_id, players)
                    ]
                    for players in range(info.min_players, info.max_players + 1)
                },
            }
        )
    return games


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The server's app (its database is migrated when it starts); ``clock``: where its
    table clocks read the time (the system's wall clock by default; tests move their own)."""
    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, config.database_url())
        for game_id in REGISTRY.implemented():  # imported now, not on the loop at a first table
            REGISTRY.kit(game_id)
        hub = Hub(config, clock)
        app.state.hub, app.state.database, app.state.events = hub, hub.database, hub.events
        await hub.resume()
        try:
            async with watched(config.stall_ms):
                yield
        finally:
            await hub.close()

    app = FastAPI(
        title="spieltisch", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.mount("/static", CachedStatic(directory=STATIC), name="static")
    app.state.settings, app.state.limits = config, ServerLimits(config)

    app.add_middleware(Compress)  # innermost: the door and the guard see what is sent
    app.add_middleware(Gate)  # inside the guard: its refusals get the security headers too
    app.add_middleware(Guard)
    app.add_middleware(ReleaseSockets)  # outermost: it needs the server's own receive

    @app.exception_handler(OperationalError)
    async def unsaved(request: Request, error: OperationalError) -> JSONResponse:
        """The database refused (a full disk, a lost connection): said, never a 500."""
        LOG.error("%s %s: the database refused: %s", request.method, request.url.path,
                  type(error.orig).__name__)  # fmt: skip
        detail = "the server cannot save right now (its disk may be full); try again later"
        return JSONResponse({"detail": detail}, 503)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        """A request that does not fit: what is wrong, where, never the value sent."""
        problems = [
            {"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", ""))}
            for item in error.errors()[:10]
        ]
        return JSONResponse({"detail": problems}, 422)

    _pages(app)
    _api(app)
    seat_api(app)
    account_api(app)
    players_api(app)
    rated_bot_api(app)
    people_pages(app)
    lessons_api(app)
    rules_api(app)
    language_api(app)
    _finished_api(app)
    _socket(app, config)
    return app


_hub = hub_of
_live = live_of


def _pages(app: FastAPI) -> None:
    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        language = await page_language(request)
        return page_response(pages.lobby(language), language)

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        language = await page_language(request)
        return page_response(pages.table(table_id[:32], language), language)

    @app.get("/replay/{table_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        language = await page_language(request)
        return page_response(pages.replay(table_id[:32], language), language)

    @app.get("/manifest.webmanifest")
    async def manifest() -> Response:
        """What a browser needs to install the site as an app (name, colours, icons)."""
        return Response(
            MANIFEST.read_bytes(),
            media_type="application/manifest+json",
            headers={"Cache-Control": ICON_CACHE},
        )

    @app.get("/rules/{game_id}", response_class=HTMLResponse)
    async def rules_page(request: Request, game_id: str) -> HTMLResponse:
        if game_id not in REGISTRY.implemented():
            raise HTTPException(404, "no such game")
        language = await page_language(request)
        return page_response(pages.rules(game_id, language), language)


def _api(app: FastAPI) -> None:
    @app.get("/api/games")
    async def games(request: Request) -> list[dict[str, Any]]:
        found = _games()
        if not _hub(request).settings.heavy_bots_for_all:  # a page marks them: sign in first
            for game in found:
                game["heavy"] = [code for code in level_menu_of(game) if heavy(code)]
        return found

    @app.get("/api/about")
    async def about_server() -> dict[str, Any]:
        """This server's version and build (``native`` with the native core, else ``pure``)."""
        facts = spieltisch.about()
        return {
            "version": facts["version"],
            "build": facts["build"],
            "native": facts["native"],  # not why it is missing: that names server paths
        }

    @app.get("/api/tables")
    async def tables(request: Request) -> dict[str, list[dict[str, Any]]]:
        return await _hub(request).lobby.current()

    @app.get("/api/lobby")
    async def lobby_feed(request: Request) -> StreamingResponse:
        """The lobby's summaries as server-sent events: now, and at every change."""
        return StreamingResponse(
            _hub(request).lobby.feed(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.post("/api/tables", status_code=201)
    async def create(request: Request, body: CreateIn) -> dict[str, Any]:
        plans = [SeatPlan(s.kind, s.level) for s in body.seats]
        hub, maker = _hub(request), await table_maker(request)
        try:
            # the door counted this process's share; every process counts here together
            await take_table_allowance(hub.database, hub.settings, maker.address)
            heavy_ok = maker.signed_in or hub.settings.heavy_bots_for_all
            check_heavy([s.level or "" for s in body.seats if s.kind == "bot"], heavy_ok)
            rules = TableRules.of(body.rules.model_dump())
            if rules.rated:
                bots = [s.level or "" for s in body.seats if s.kind == "bot"]
                check_rated_bots(body.game, body.players or len(plans), bots)
            made = await _hub(request).create(
                body.game, body.players, dict(body.options), plans, body.seed,
                hints=body.hints, rules=rules,
            )  # fmt: skip
        except RefusedError as refused:
            raise refusal(refused) from None
        except (SpieltischError, ValueError) as error:
            raise HTTPException(422, str(error)) from None
        await hub.database.write(set_owner, hub.engine, made.table_id, maker.owner)
        return {
            "id": made.table_id,
            "host_link": f"/t/{made.table_id}#host={made.host_token}",
            "seat_links": {
                str(seat): f"/t/{made.table_id}#seat={token}"
                for seat, token in made.seat_tokens.items()
            },
        }

    @app.post("/api/levels")
    async def levels(body: LevelsIn) -> dict[str, list[str]]:
        """The bot levels a table of this game, player count and options offers, strongest
        first: the lobby's picker follows the options (a trained policy plays only the table
        it learned at)."""
        try:
            game = spieltisch.load(body.game, body.players, **dict(body.options))
        except (SpieltischError, ValueError) as error:
            raise HTTPException(422, str(error)) from None
        return {"levels": list(agent_names(game))}

    @app.get("/api/tables/{table_id}")
    async def about(request: Request, table_id: str) -> dict[str, Any]:
        live = await _live(request, table_id)
        return {
            "id": live.id,
            "game": live.game.info.id,
            "name": live.game.info.name,
            "players": live.game.players,
            "options": dict(live.game.options),
            "status": live.status,
            "version": live.shown,
            "rules": live.rules.public(),
            "rematch": live.rematch,
            "rematch_of": live.rematch_of,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "level": s.level,
                    "joined": s.joined,
                    "stand_in": s.stand_in,
                    "conceded": s.conceded_at is not None,
                }
                for s in live.seats
            ],
        }


def _finished_api(app: FastAPI) -> None:
    """What a finished table offers everyone: its record and its replay; and the check of
    any record's dice."""

    @app.post("/api/replay")
    async def replay_file(
        request: Request, at: int = 0, seat: int = -1, lang: str = SOURCE
    ) -> Response:
        """A step of any record sent (a file dropped on the replay page)."""
        text = (await request.body()).decode("utf-8", errors="replace")
        job = StepJob(text, at, seat, language=query_language(lang))
        return answered(await _hub(request).checks.step(_address(request), job))

    @app.post("/api/verify")
    async def verify_record(request: Request) -> Response:
        body = await request.body()
        if len(body) > guard.MAX_RECORD:
            raise HTTPException(413, "the record is too large")
        text = body.decode("utf-8", errors="replace")
        return answered(await _hub(request).checks.verify(_address(request), text))

    @app.post("/api/tables/{table_id}/analysis/{seat}", status_code=202)
    async def analyse(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        live = await _live(request, table_id)
        hub = _hub(request)
        try:
            running = await hub.analyses.start(live, hub.seating.number(live, seat))
        except RefusedError as refused:
            raise refusal(refused) from None
        return running.to_json()

    @app.get("/api/tables/{table_id}/analysis/{seat}")
    async def analysis(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        live = await _live(request, table_id)
        hub = _hub(request)
        try:
            found = await hub.analyses.find(live, hub.seating.number(live, seat))
        except RefusedError as refused:
            raise refusal(refused) from None
        if found is None:
            return {"seat": seat, "status": "none", "done": 0, "total": 0, "decisions": []}
        return found.to_json()

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        live = await _live(request, table_id)
        if live.status != "finished":
            raise HTTPException(403, "a game's record is served once the game is over")
        return Response(
            await _hub(request).finished_record(live),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{live.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        request: Request, table_id: str, at: int = 0, seat: int = -1, lang: str = SOURCE
    ) -> Response:
        live = await _live(request, table_id)
        if live.status != "finished":
            raise HTTPException(403, "a replay opens once the game is over")
        record = await _hub(request).finished_record(live)
        job = StepJob(record, at, seat, live.id, query_language(lang))
        return answered(await _hub(request).checks.step(_address(request), job))


def answered(answer: Answer) -> Response:
    """The response for a check's answer (worked out and encoded in the checks' worker)."""
    return Response(answer.body, answer.status, media_type="application/json")


def _address(request: Request) -> str:
    return client_address(request, _hub(request).settings)


def _socket(app: FastAPI, config: Settings) -> None:
    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        if not same_origin(websocket.headers, config.trust_proxy):
            await websocket.close(4403)  # a page of another site may not open our sockets
            return
        await websocket.accept()
        hub: Hub = websocket.app.state.hub
        limits: ServerLimits = websocket.app.state.limits
        asked = await page_language(websocket)  # until the hello names the page's language
        live = await hub.get(table_id)
        if live is None:
            await websocket.send_text(json.dumps(error_message("no such table", asked)))
            await websocket.close(4404)
            return
        try:
            hello = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await websocket.close(4400)
            return
        await hub.refresh(live)  # another server on the same database may have moved it on
        token, since, named, problem = _read_hello(hello, config.max_message)
        language = named or asked
        credential = await _credential(websocket, live, token)
        if problem is None and token is not None and live.seat_of(token) is None:
            # a link whose seat changed hands (or never had one): say whose it was
            await websocket.send_text(json.dumps(await hub.seating.stale(live, token)))
            await websocket.close(4403)
            return
        if problem is not None:
            await websocket.send_text(json.dumps(error_message(problem, language)))
            await websocket.close(4403)
            return
        too_many = limits.too_many_sockets(live, credential, language)
        address = client_address(websocket, config)
        if too_many is None and not limits.sockets.acquire(address):
            too_many = worded(N_("too many open pages from here"), language)
        if too_many is not None:
            await websocket.send_text(json.dumps(error_message(too_many)))
            await websocket.close(4429)
            return
        try:
            connection = await hub.connect(live, credential, since, language)
            writer = asyncio.create_task(_write(websocket, connection))
            try:
                await _listen(websocket, hub, live, connection, config)
            except WebSocketDisconnect:
                pass
            finally:
                await hub.disconnect(live, connection)
                with contextlib.suppress(asyncio.QueueFull):
                    connection.queue.put_nowait(None)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2)
        finally:
            limits.sockets.release(address)


async def _credential(websocket: WebSocket, live: LiveTable, token: str | None) -> object:
    """What a page holds its seat by: its link, or without one the seat its signed-in account
    holds (``None``: none; the page watches). At a rated table a link counts as the signed-in
    account's too, so that the page plays the seat only if that account is the seat's person
    (:func:`~spieltisch.web.tables.rated_seats.speaks_for_its_person`) and stops when its
    session ends."""
    rated = live.rules.rated
    session = await current_session(websocket) if token is None or rated else None
    if token is None:
        return None if session is None else own_seat(live, session.account.id, session.id_hash)
    if session is None:
        return token
    return AccountSeat(token_hash(token), session.account.id, session.id_hash)


def same_origin(headers: Mapping[str, str], trust_proxy: bool = False) -> bool:
    """Whether a socket's page comes from this server (a browser always says where it comes
    from; a client that says nothing is not a page of another site). ``X-Forwarded-Host``
    names this server only behind a trusted proxy (``--trust-proxy``): anyone else may send
    it."""
    origin = headers.get("origin")
    if origin is None:
        return True
    hosts = {headers.get("host")}
    if trust_proxy:
        hosts.add(headers.get("x-forwarded-host"))
    return urlsplit(origin).netloc in hosts - {None, ""}


def encodable(data: object) -> bool:
    """Whether ``data`` (read from JSON) holds only valid Unicode: JSON may spell a lone
    surrogate (``"\\ud800"``), which no encoder, database or log could take."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_hello(text: str, limit: int) -> tuple[str | None, int, str | None, str | None]:
    """The token, version and language a connection's first message names (the language
    ``None`` when the message was not read as far as its language), or the problem with it (a
    msgid)."""
    if len(text) > limit:
        return None, 0, None, N_("the message is too long")
    try:
        hello = json.loads(text)
    except (ValueError, RecursionError):
        return None, 0, None, N_("the first message must be a JSON hello")
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return None, 0, None, N_("the first message must be a hello")
    if not encodable(hello):
        return None, 0, None, N_("messages must be valid Unicode")
    since = hello.get("since", 0)
    if type(since) is not int or since < 0:
        return None, 0, None, N_("since must be a version (a whole number)")
    language = read_language(hello.get("language"))
    if language is None:
        return None, since, None, N_("the language must be one of en, de")
    token = hello.get("token")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 100):
        return None, since, language, N_("a token is a short text")
    return token, since, language, None


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queue in order; close it when asked (or when it fell behind)."""
    while True:
        item = await connection.queue.get()
        if item is None:
            with contextlib.suppress(Exception):
                await websocket.close(4008 if connection.lagging else connection.close_code)
            return
        try:
            await websocket.send_text(item)
        except Exception:
            return


async def _listen(
    websocket: WebSocket, hub: Hub, live: LiveTable, connection: Connection, config: Settings
) -> None:
    """Read the connection's messages until it closes: moves, chat, hints and pings."""
    bucket = TokenBucket(config.rate_per_second, config.rate_burst)
    chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST)
    while not connection.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        problem = None
        if not isinstance(text, str):
            problem = N_("messages are JSON text")
        elif not bucket.take():
            problem = N_("too many messages: slow down")
        elif len(text) > config.max_message:
            problem = N_("the message is too long")
        if problem is not None or not isinstance(text, str):
            said = error_message(str(problem), connection.language)
            connection.send({**said, "version": live.shown})
            continue
        await _handle(hub, live, connection, text, chat_bucket)


async def _handle(
    hub: Hub, live: LiveTable, connection: Connection, text: str, chat_bucket: TokenBucket
) -> None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
        data = None
    if data is not None and not encodable(data):
        said = error_message("messages must be valid Unicode", connection.language)
        connection.send({**said, "version": live.shown})
        return
    kind = data.get("type") if isinstance(data, dict) else None
    version = live.shown
    if kind == "ping":
        connection.send({"type": "pong", "version": version})
        return
    if not isinstance(data, dict) or kind not in ("hint", "chat", "move", "back"):
        connection.send(
            {**error_message("unknown message", connection.language), "version": version}
        )
        return
    try:
        if kind == "hint":  # advice reads the seat's hidden cards: its own person's only
            await check_session(hub, connection)
            check_speaks_for_its_person(live, connection)
            advice = await hub.hint(live, connection.viewer, connection.language)
            connection.send({"type": "hint", "text": advice, "version": live.shown})
        elif kind == "back":
            await hub.take_back(live, connection)
        elif kind == "chat":
            if not chat_bucket.take():
                raise RefusedError("you chat too fast: wait a moment")
            await chat.say(hub, live, connection, data.get("text"))
        else:
            await hub.move(live, connection, data.get("text"), data.get("id"), data.get("version"))
    except RefusedError as refused:
        shown = live.shown if refused.version is None else refused.version
        if kind == "move":
            connection.send(rejected_message(refused.said(connection.language), shown))
            async with live.lock:
                hub.connections.push(live, connection)  # catch up, in case the move was stale
        else:
            connection.send({**error_message(refused.said(connection.language)), "version": shown})
