"""The live tables of a server, coordinated: loaded, moved, committed before they are shown.

The :class:`Hub` keeps each table being played in memory as a
:class:`~spieltisch.web.tables.table.LiveTable` (a session :class:`~spieltisch.session.Table`
plus its seats and open pages). A move, from a person or a bot, goes through
:meth:`Hub.move`: under the table's lock the mover's token is checked against the seat as it
stands, the move is validated and applied once by the table, chance steps that follow are
drawn from the table's own generator, and the new moves are committed to the database by the
one writer thread (a compare-and-set on the table's version and its seats' epoch) before any
page hears of them.

The hub does only that; every concern around a table lives beside it in a module of its own,
and sees the hub through a protocol (:mod:`~spieltisch.web.tables.services`):
the pages and what each is sent (:mod:`~spieltisch.web.tables.connections`), bots' turns
(:mod:`~spieltisch.web.tables.bot_turns`), the seats and the links that stop working
(:mod:`~spieltisch.web.tables.seats`), who is connected (:mod:`~spieltisch.web.tables.presence`),
the clock (:mod:`~spieltisch.web.tables.clock`), stand-ins and votes
(:mod:`~spieltisch.web.tables.takeover`), chat and notices (:mod:`~spieltisch.web.tables.chat`),
rematches (:mod:`~spieltisch.web.tables.rematch`), the lobby (:mod:`~spieltisch.web.tables.lobby`),
analyses (:mod:`~spieltisch.web.tables.analysis`), a finished game's outcome
(:mod:`~spieltisch.web.tables.ending`), other processes' changes
(:mod:`~spieltisch.web.tables.remote`) and the work between requests
(:mod:`~spieltisch.web.tables.upkeep`). An account's end reaches the hub as an event
(:mod:`~spieltisch.web.people.events`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import spieltisch
from spieltisch.core import fair
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Game, Move, OptionValue, PlayerId
from spieltisch.locale import SOURCE
from spieltisch.session import StaleVersionError, Steps
from spieltisch.web.cluster.fanout import Fanout, stop
from spieltisch.web.cluster.leases import Leases
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.table_rules import TableRules
from spieltisch.web.common.tokens import (
    new_seed,
    new_table_id,
    new_token,
    token_hash,
)
from spieltisch.web.people.events import AccountEnded, AccountEvents, SessionsEnded
from spieltisch.web.store import table_store
from spieltisch.web.store.database import Database
from spieltisch.web.store.table_store import SeatRow, VersionConflictError
from spieltisch.web.tables import chat
from spieltisch.web.tables import clock as timing
from spieltisch.web.tables.analysis import Analyses
from spieltisch.web.tables.bot_turns import BotTurns
from spieltisch.web.tables.bots import hint as hint_move
from spieltisch.web.tables.bots import hint_level
from spieltisch.web.tables.checks import Checks
from spieltisch.web.tables.clock import Clock, SystemClock
from spieltisch.web.tables.connections import Connections
from spieltisch.web.tables.ending import settle, settle_owed
from spieltisch.web.tables.lobby import Lobby, lobby_rows
from spieltisch.web.tables.pool import FairPool
from spieltisch.web.tables.presence import Presence, clear_presence
from spieltisch.web.tables.rated_seats import check_speaks_for_its_person
from spieltisch.web.tables.rematch import Rematches
from spieltisch.web.tables.remote import Remote
from spieltisch.web.tables.seats import (
    Seating,
    check_session,
    close_ended_sessions,
    close_revoked,
    new_seats,
    revoked_since,
    stale_message,
)
from spieltisch.web.tables.table import (
    Connection,
    Created,
    LiveTable,
    SeatPlan,
    rebuild,
)
from spieltisch.web.tables.takeover import Takeovers, load_votes
from spieltisch.web.tables.upkeep import Upkeep

LOG = logging.getLogger("spieltisch.web")


class Hub:
    """Every live table of one server process, and the workers it hands work to."""

    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.server = secrets.token_hex(8)
        self.hint_secret, self.lesson_secret = secrets.randbits(62), secrets.randbits(62)
        """Seed the hints' search (never the table's seed, which draws its dice) and deal a
        lesson's closing game; :meth:`resume` takes the ones the database keeps for all."""
        self.database = Database(settings.database_url())
        self.engine, self.reader = self.database.engine, self.database.reader
        self.events = AccountEvents()
        self.events.subscribe(self._account_ended)
        self.events.subscribe_sessions(self._sessions_ended)
        self.pool = FairPool(settings.bot_workers)
        self.checks = Checks()
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self.presence = Presence(self.server, self.clock)
        self.takeovers = Takeovers(self, self.presence)
        self.seating = Seating(self)
        self.rematches = Rematches(self, self._make_rematch)
        self.analyses = Analyses(self, self.pool)
        self.lobby = Lobby(
            lambda: self.read(
                lobby_rows,
                self.reader,
                settings.max_tables_listed,
                self.clock.now(),
                settings.abandoned_after,
            ),
            settings.max_tables_listed,
        )
        self._background: list[asyncio.Task[None]] = []
        self.connections, self.bots = Connections(self), BotTurns(self)
        self.upkeep, self.remote = Upkeep(self), Remote(self)
        self.fanout = Fanout(self.database, self.remote.in_memory, self.remote.take_up)
        self.leases = Leases(self.server, self.database, self.tables, self._start, self._adopt)

    # --- running ---------------------------------------------------------------------------

    async def write(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database write on the one writer thread, without blocking the event loop."""
        return await self.database.write(function, *args)

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database read in a worker thread."""
        return await self.database.read(function, *args)

    async def finished_record(self, live: LiveTable) -> str:
        """A finished table's record as a file holds it (worked out once: it never changes)."""
        if live.finished_record is None:
            live.finished_record = await asyncio.to_thread(lambda: live.record().dumps())
        return live.finished_record

    async def resume(self) -> None:
        """Take up every table being played (after a restart): replay it, finish it if its
        game is over (a crash before the finish was saved), restart its bots; then start the
        clocks, the presence and the lobby."""
        self.hint_secret = await self.write(table_store.shared_secret, self.engine, "hints")
        self.lesson_secret = await self.write(table_store.shared_secret, self.engine, "lessons")
        for table_id in await self.read(table_store.unfinished, self.reader):
            try:
                live = await self.get(table_id)
            except SpieltischError as error:  # one damaged record must not keep all from play
                LOG.error("table %s: cannot be replayed, left as stored (%s)", table_id, error)
                continue
            if live is None:
                continue
            if live.table.over:
                async with live.lock:
                    await self.commit(live, live.table.version)
            self.schedule(live)
        await settle_owed(self)  # rated games that ended but were never settled (a crash)
        self._background += self.fanout.tasks()
        for loop in (self.upkeep.ticking, self.upkeep.syncing, self.upkeep.sweeping,
                     self.leases.renewing, self.lobby.run):  # fmt: skip
            self._background.append(asyncio.create_task(loop()))

    async def close(self) -> None:
        """Stop the background work, the bots, the analyses and the writer."""
        await stop(self._background)
        await self.leases.close()
        self.analyses.close()
        for live in self.tables.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        with contextlib.suppress(Exception):
            await self.write(clear_presence, self.engine, self.server)
        self.pool.shutdown()
        self.checks.shutdown()
        self.database.close()

    def _start(self, table_id: str) -> None:
        """Start the bot of a table in memory (its lease just came to this server)."""
        live = self.tables.get(table_id)
        if live is not None:
            self.schedule(live)

    async def _adopt(self, table_id: str) -> None:
        """Load a table nobody holds in memory (its mover died) and move it on."""
        live = await self.get(table_id)
        if live is not None:
            self.schedule(live)

    async def _account_ended(self, ended: AccountEnded) -> None:
        """Tables held in memory whose seats an ended account held show their new name (its
        seats' links ended: their pages are told so and closed)."""
        for live in list(self.tables.values()):
            held = any(s.account_id == ended.account_id for s in live.seats)
            if live.id in ended.tables or held:
                async with live.lock:
                    await self.reload(live)
                await self.broadcast(live)

    async def _sessions_ended(self, ended: SessionsEnded) -> None:
        """Pages at the tables in memory that hold a seat by a session that ended are told so
        and closed (they watch when they come back signed out); the others see the seat's
        person go as each socket closes (:meth:`disconnect`). Other processes hear of it
        through the database (:mod:`~spieltisch.web.tables.remote`)."""
        for live in list(self.tables.values()):
            if any(c.account_id == ended.account_id for c in live.connections):
                await close_ended_sessions(self, live)

    # --- tables ----------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id`` (loaded and replayed from the database if need be)."""
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        live = self.tables.get(table_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.tables.get(table_id)
            if live is None:
                row = await self.read(table_store.load_table, self.reader, table_id)
                if row is None:
                    return None
                live = rebuild(row)
                live.votes = await self.read(load_votes, self.reader, table_id)
                self.tables[table_id] = live
                await self.leases.take(live.id)  # if no other server moves it
        return live

    async def refresh(self, live: LiveTable) -> None:
        """Take the table up again if another server sharing the database moved it on."""
        stored = await self.read(table_store.version_of, self.reader, live.id)
        if stored is not None and live.behind(stored):
            async with live.lock:
                await self.reload(live)

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, OptionValue],
        seats: Sequence[SeatPlan],
        seed: int | None = None,
        hints: bool = False,
        rules: TableRules | None = None,
    ) -> Created:
        """Make a new open table; bots sit at once, people join with their seat's token
        (derived from the host's, so the host page can list every link again)."""
        game = spieltisch.load(game_id, players, **options)
        if len(seats) != game.players:
            raise RefusedError(
                "{game} with {n} players needs {n} seats",
                params={"game": game.info.name, "n": game.players},
            )
        host, table_id = new_token(), new_table_id()
        rows, tokens = new_seats(game, seats, host, table_id)
        await self._store_new(
            table_id, game, rows, token_hash(host), seed, hints, rules or TableRules(), None
        )
        return Created(table_id, host, tokens)

    async def _store_new(
        self, table_id: str, game: Game, rows: list[SeatRow], host_hash: str, seed: int | None,
        hints: bool, rules: TableRules, rematch_of: str | None,
    ) -> None:  # fmt: skip
        # Without a seed asked for, the dice are fair: the seed follows at the start from a
        # secret committed to now and the salts of the people who sit down.
        secret = secrets.token_hex(32) if seed is None else None
        promised = None if secret is None else fair.commitment(table_id, secret)
        await self.write(
            table_store.create_table, self.engine, table_id, game.info.id, game.players,
            dict(game.options), new_seed() if seed is None else seed, host_hash, rows,
            rematch_of, secret, promised, hints, rules.to_json(),
        )  # fmt: skip
        self.lobby.changed()

    async def _make_rematch(self, live: LiveTable, table_id: str, rows: list[SeatRow]) -> None:
        await self._store_new(
            table_id, live.game, rows, live.host_hash, None, live.hints, live.rules, live.id
        )

    # --- moves -----------------------------------------------------------------------------

    async def move(
        self, live: LiveTable, connection: Connection, text: object, action_id: object,
        version: object,
    ) -> None:  # fmt: skip
        """A seat's move (its text or its action id) at ``version``, by the page
        ``connection``; :class:`RefusedError` with the engine's reason (and the table's
        version) if it cannot be played. The page's token must hold its seat now."""
        async with live.lock:
            if connection.token_hash is None:
                raise RefusedError("spectators cannot move", 403, live.shown)
            await check_session(self, connection)  # its session may have ended elsewhere
            if type(version) is not int:
                raise RefusedError("a move names the version it was chosen at (a number)", 400)
            if live.status != "playing" or live.holder(connection.token_hash) is None:
                await self.reload(live)  # another server may have started it or moved seats
            seat = live.holder(connection.token_hash)
            if seat is None:
                raise RefusedError("this link no longer holds a seat at this table", 403)
            check_speaks_for_its_person(live, connection)
            table = live.table
            if live.status != "playing":
                raise RefusedError(
                    "the table is {status}", 409, live.shown, params=live.status_params
                )
            move = self._read_move(live, text, action_id)
            if version != live.shown:
                raise RefusedError(
                    "the move was chosen at version {chosen}, but the table is at version {now}",
                    409, live.shown, params={"chosen": version, "now": live.shown},
                )  # fmt: skip
            await self.takeovers.returned(live, seat)  # a stand-in leaves as its person plays
            await self.play(live, move, seat, table.version)
        await self.broadcast(live)
        self.schedule(live)

    def _read_move(self, live: LiveTable, text: object, action_id: object) -> Move:
        table = live.table
        try:
            if action_id is not None:
                return table.game.action_from_id(action_id)
            if not isinstance(text, str):
                raise RefusedError("a move is its text or its id", 400, live.shown)
            if len(text) > 1000:
                raise RefusedError("a move is at most {n} characters", 413, params={"n": 1000})
            return table.state.parse(text)
        except SpieltischError as error:
            raise RefusedError.of(error, 422, live.shown) from None

    async def play(self, live: LiveTable, move: Move, seat: PlayerId, version: int) -> None:
        """Apply one player move and the chance after it, commit them, or refuse (the table
        is unchanged then). The caller holds the lock."""
        table = live.table
        start = table.version
        try:
            table.play(move, version, by=seat)
        except StaleVersionError as error:  # another move came first (between two servers)
            raise RefusedError("another move came first", 409, live.shown, error) from None
        except SpieltischError as error:
            raise RefusedError.of(error, 422, live.shown) from None
        await self.commit(live, start, seat)

    async def commit(self, live: LiveTable, start: int, mover: PlayerId | None = None) -> None:
        """Draw the chance now due, then commit every move since version ``start`` before
        anyone sees it; on a conflict with another server (a move, or a seat that changed
        hands), take up the table as stored. ``mover``'s clock is charged for its move."""
        table = live.table
        while not table.over and table.to_act() is None:
            table.advance_chance()
        record = table.record()
        dictated = set(record.dictated)
        moves = [(record.moves[i], i in dictated) for i in range(start, table.version)]
        final = live.record().dumps() if table.over and live.status == "playing" else None
        live.steps.update(table)
        hidden = live.steps.owner is not None  # a private run goes on: nobody else may notice
        now = self.clock.now()
        since = None if table.over else live.turn_since if hidden else now
        try:
            await self.write(
                table_store.append_moves,
                self.engine,
                live.id,
                start,
                moves,
                final,
                live.epoch,
                since,
            )
        except VersionConflictError:
            await self.reload(live)
            raise RefusedError("another move came first", 409, live.shown) from None
        except Exception:
            await self.reload(live)  # what is in memory must never run ahead of the database
            raise RefusedError("the move could not be saved; try again", 503, live.shown) from None
        live.committed = table.version
        live.last_move_at = live.touched = time.monotonic()
        if not hidden:  # a private run is charged once, as one move, when it is over
            await self._charge(live, mover, since, now)
        if final is not None:
            live.status = "finished"
            self.lobby.changed()
            await settle(self, live)

    async def _charge(
        self, live: LiveTable, mover: PlayerId | None, since: float | None, now: float
    ) -> None:
        """Charge the mover's clock for its move (up to ``now``); the next turn's clock runs
        from ``since`` (``None``: the game is over). The caller holds the lock."""
        if mover is not None and since is not None:
            charged = timing.charge(live.seats[mover], live.rules, live.turn_since, now)
            if charged != live.seats[mover]:
                await self.write(table_store.update_seat, self.engine, live.id, charged)
                live.seats[mover] = charged
        live.turn_since = since

    async def reload(self, live: LiveTable) -> None:
        """Take the table up again as the database holds it; pages whose token no longer
        holds a seat are told why and closed."""
        row = await self.read(table_store.load_table, self.reader, live.id)
        if row is None:
            return
        fresh = rebuild(row)
        was = live.status
        live.table, live.status, live.seats = fresh.table, fresh.status, fresh.seats
        live.seed, live.committed, live.epoch = fresh.seed, fresh.committed, fresh.epoch
        live.rematch, live.turn_since = fresh.rematch, fresh.turn_since
        live.steps, live.finished_record = Steps(), None  # its names may have changed
        live.votes = await self.read(load_votes, self.reader, live.id)
        gone = {c.token_hash for c in live.connections if c.token_hash is not None}
        gone -= {s.token_hash for s in live.seats if s.person}
        if gone:
            revoked = await self.read(revoked_since, self.reader, live.id)
            for old in gone:
                said = revoked.get(old, (None, None, None, None))
                close_revoked(live, old, stale_message(*said))
        if was != live.status:
            self.lobby.changed()

    # --- what the concerns beside the hub do -----------------------------------------------

    def schedule(self, live: LiveTable) -> None:
        """Start the table's bot, if a bot is to move and this server moves the table."""
        self.bots.schedule(live)

    async def connect(
        self, live: LiveTable, token: object, since: int, language: str = SOURCE
    ) -> Connection:
        """A new page at ``live`` (see :meth:`Connections.connect`)."""
        return await self.connections.connect(live, token, since, language)

    async def disconnect(self, live: LiveTable, connection: Connection) -> None:
        """Forget a page."""
        await self.connections.disconnect(live, connection)

    async def broadcast(self, live: LiveTable) -> None:
        """Send every connection of the table what it has not seen yet, and the seats."""
        await self.connections.broadcast(live)

    def seats_message(self, live: LiveTable) -> dict[str, Any]:
        """Every seat as the table shows it to everyone (nothing of the game's state)."""
        return self.connections.seats_message(live)

    async def take_back(self, live: LiveTable, connection: Connection) -> None:
        """The page's person takes their seat back from the bot standing in for them (the
        page's link must hold the seat now)."""
        async with live.lock:
            seat = None if connection.token_hash is None else live.holder(connection.token_hash)
            if seat is None:
                raise RefusedError("this link no longer holds a seat at this table", 403)
            await check_session(self, connection)
            check_speaks_for_its_person(live, connection)
            if live.seats[seat].stand_in is None:
                raise RefusedError("no bot stands in for you: the seat is yours", 409)
            await self.takeovers.returned(live, seat)
        await self.broadcast(live)
        self.schedule(live)

    async def note(self, live: LiveTable, kind: str, seat: int | None, text: str) -> None:
        """Keep a note with the table and show it to every page that may see it."""
        await chat.keep_note(self, live, kind, seat, text)

    async def hint(self, live: LiveTable, viewer: PlayerId | None, language: str = SOURCE) -> str:
        """Advice for the seat to move, from the game's strongest agent (if the host allows),
        in ``language``."""
        if not live.hints:
            raise RefusedError("the host has not allowed hints at this table", 403)
        table = live.table
        if viewer is None or table.to_act() != viewer or live.status != "playing":
            raise RefusedError("a hint is for the seat whose turn it is", 409, live.shown)
        job = replace(
            live.bot_job(viewer, hint_level(live.game)), salt=self.hint_secret, language=language
        )
        advice: str = await self.pool.run(live.id, hint_move, job)
        return advice
