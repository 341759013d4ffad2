"""The live tables of a server: moves committed before they are shown, bots, and pushes.

The :class:`Hub` keeps each table being played in memory as a
:class:`~spieltisch.web.tables.LiveTable` (a session :class:`~spieltisch.session.Table` plus
its seats and open connections). A move, from a person or a bot, goes through
:meth:`Hub.move`: under the table's lock the mover's token is checked against the seat as it
stands, the move is validated and applied once by the table, chance steps that follow are
drawn from the table's own generator, and the new moves are committed to the database by the
one writer thread (a compare-and-set on the table's version and its seats' epoch) before any
connection hears of them. Then each connection gets the events since its last version and its
own view, through its own bounded queue and writer, so a slow client never holds up a table.
Bots think in a bounded pool of worker processes, never on the event loop.

The concerns around a table live beside the hub, each in its own module: the seats and the
links that stop working (:mod:`~spieltisch.web.seats`), who is connected
(:mod:`~spieltisch.web.presence`), the clock (:mod:`~spieltisch.web.clock`), stand-ins and
votes (:mod:`~spieltisch.web.takeover`), chat and notices (:mod:`~spieltisch.web.chat`),
rematches (:mod:`~spieltisch.web.rematch`), the lobby (:mod:`~spieltisch.web.lobby`) and
analyses (:mod:`~spieltisch.web.analysis`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import spieltisch
from spieltisch.agents import agent_names
from spieltisch.core import fair
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Game, Move, OptionValue, PlayerId
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.locale import SOURCE
from spieltisch.session import StaleVersionError, Steps, Table
from spieltisch.web import chat, store
from spieltisch.web import clock as timing
from spieltisch.web.analysis import Analyses
from spieltisch.web.bots import choose, hint_level
from spieltisch.web.bots import hint as hint_move
from spieltisch.web.checks import Checks
from spieltisch.web.clock import Clock, SystemClock
from spieltisch.web.db import make_engine
from spieltisch.web.fanout import Fanout, stop
from spieltisch.web.language import spoken
from spieltisch.web.leases import Leases
from spieltisch.web.limits import ServerLimits
from spieltisch.web.lobby import Lobby, lobby_rows
from spieltisch.web.payload import step_events, update_message
from spieltisch.web.pool import FairPool, check_level, level_pace
from spieltisch.web.presence import Presence, clear_presence
from spieltisch.web.rated import settle
from spieltisch.web.rematch import Rematches
from spieltisch.web.seats import Seating, close_revoked, revoked_since, stale_message
from spieltisch.web.settings import Settings
from spieltisch.web.store import SeatRow, VersionConflictError
from spieltisch.web.table_rules import TableRules
from spieltisch.web.tables import (
    HISTORY,
    Connection,
    Created,
    LiveTable,
    RefusedError,
    SeatPlan,
    token_key,
)
from spieltisch.web.takeover import Takeovers, load_votes
from spieltisch.web.tokens import (
    derive_token,
    new_origin,
    new_seed,
    new_table_id,
    new_token,
    token_hash,
)
from spieltisch.web.upkeep import Upkeep

CATCH_UP = HISTORY
"""A page more moves behind than this is brought up to date off the event loop (older states
are rebuilt from a checkpoint, which is no work for the loop)."""
SAVE_BACKOFF_CAP = 30.0
"""The longest a bot waits before trying again to save a move the database refused."""


class Hub:
    """Every live table of one server process, and the workers it hands work to."""

    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.server = secrets.token_hex(8)
        self.hint_secret, self.lesson_secret = secrets.randbits(62), secrets.randbits(62)
        """Seed the hints' search (never the table's seed, which draws its dice) and deal a
        lesson's closing game; :meth:`resume` takes the ones the database keeps for all."""
        self.engine = make_engine(settings.database_url())
        self.reader = make_engine(settings.database_url(), writer=False)
        self.writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="db-writer")
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
            lambda: self.read(lobby_rows, self.reader, settings.max_tables_listed),
            settings.max_tables_listed,
        )
        self._background: list[asyncio.Task[None]] = []
        self._catching: set[asyncio.Task[None]] = set()
        self.limits = ServerLimits(settings)
        self.upkeep, self.fanout, self.leases = Upkeep(self), Fanout(self), Leases(self)

    # --- running ---------------------------------------------------------------------------

    async def write(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database write on the one writer thread, without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.writer, function, *args)

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database read in a worker thread."""
        return await asyncio.to_thread(function, *args)

    async def finished_record(self, live: LiveTable) -> str:
        """A finished table's record as a file holds it (worked out once: it never changes)."""
        if live.finished_record is None:
            live.finished_record = await asyncio.to_thread(lambda: live.record().dumps())
        return live.finished_record

    async def resume(self) -> None:
        """Take up every table being played (after a restart): replay it, finish it if its
        game is over (a crash before the finish was saved), restart its bots; then start the
        clocks, the presence and the lobby."""
        self.hint_secret = await self.write(store.shared_secret, self.engine, "hints")
        self.lesson_secret = await self.write(store.shared_secret, self.engine, "lessons")
        for table_id in await self.read(store.unfinished, self.reader):
            live = await self.get(table_id)
            if live is None:
                continue
            if live.table.over:
                async with live.lock:
                    await self.commit(live, live.table.version)
            self.schedule(live)
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
        self.writer.shutdown(wait=True)
        self.engine.dispose()
        self.reader.dispose()

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
                row = await self.read(store.load_table, self.reader, table_id)
                if row is None:
                    return None
                live = self._rebuild(row)
                live.votes = await self.read(load_votes, self.reader, table_id)
                self.tables[table_id] = live
                await self.leases.take(live)  # if no other server moves it
        return live

    async def refresh(self, live: LiveTable) -> None:
        """Take the table up again if another server sharing the database moved it on."""
        stored = await self.read(store.version_of, self.reader, live.id)
        if stored is not None and live.behind(stored):
            async with live.lock:
                await self.reload(live)

    def _rebuild(self, row: store.TableRow) -> LiveTable:
        game = spieltisch.load(row.game, row.players, **row.options)
        names = tuple(s.name for s in row.seats)
        conceded = sorted(
            ((s.seat, s.conceded_at) for s in row.seats if s.conceded_at is not None),
            key=lambda pair: (pair[1], pair[0]),
        )
        record = Record(
            row.game, row.players, row.options, row.moves, row.seed, names, row.dictated,
            conceded=tuple(conceded),
        )  # fmt: skip
        return LiveTable(
            row.id, game, kit_of(game), row.seed, row.status, row.host_hash, list(row.seats),
            Table.from_record(game, record, history=HISTORY), row.secret, row.commitment,
            len(row.moves),
            row.hints, TableRules.from_json(row.rules), row.epoch, row.rematch,
            row.rematch_of, row.turn_since,
        )  # fmt: skip

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
        levels = agent_names(game)
        host, table_id = new_token(), new_table_id()
        rows, tokens = [], {}
        for number, plan in enumerate(seats):
            if plan.kind == "bot":
                level = plan.level or levels[0]
                check_level(game, level)
                rows.append(
                    SeatRow(number, "bot", f"Bot {number + 1} ({level})", level, None, True)
                )
            elif plan.kind == "person":
                origin = new_origin(table_id)
                token = derive_token(host, origin, number)
                tokens[number] = token
                rows.append(
                    SeatRow(
                        number, "person", f"Seat {number + 1}", None, token_hash(token), False,
                        token_origin=origin,
                    )
                )  # fmt: skip
            else:
                raise RefusedError("a seat is for a person or a bot")
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
            store.create_table, self.engine, table_id, game.info.id, game.players,
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
            if type(version) is not int:
                raise RefusedError("a move names the version it was chosen at (a number)", 400)
            if live.status != "playing" or live.holder(connection.token_hash) is None:
                await self.reload(live)  # another server may have started it or moved seats
            seat = live.holder(connection.token_hash)
            if seat is None:
                raise RefusedError("this link no longer holds a seat at this table", 403)
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
            await self._play(live, move, seat, table.version)
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

    async def _play(self, live: LiveTable, move: Move, seat: PlayerId, version: int) -> None:
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
        since = None if table.over else self.clock.now()
        try:
            await self.write(
                store.append_moves, self.engine, live.id, start, moves, final, live.epoch, since
            )
        except VersionConflictError:
            await self.reload(live)
            raise RefusedError("another move came first", 409, live.shown) from None
        except Exception:
            await self.reload(live)  # what is in memory must never run ahead of the database
            raise RefusedError("the move could not be saved; try again", 503, live.shown) from None
        live.committed = table.version
        live.steps.update(table)
        live.last_move_at = live.touched = time.monotonic()
        await self._charge(live, mover, since)
        if final is not None:
            live.status = "finished"
            self.lobby.changed()
            await settle(self, live)

    async def _charge(self, live: LiveTable, mover: PlayerId | None, now: float | None) -> None:
        """Charge the mover's clock for its move; the next turn's clock runs from ``now``
        (the caller holds the lock)."""
        if mover is not None and now is not None:
            charged = timing.charge(live.seats[mover], live.rules, live.turn_since, now)
            if charged != live.seats[mover]:
                await self.write(store.update_seat, self.engine, live.id, charged)
                live.seats[mover] = charged
        live.turn_since = now

    async def reload(self, live: LiveTable) -> None:
        """Take the table up again as the database holds it; pages whose token no longer
        holds a seat are told why and closed."""
        row = await self.read(store.load_table, self.reader, live.id)
        if row is None:
            return
        fresh = self._rebuild(row)
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

    # --- bots ------------------------------------------------------------------------------

    def schedule(self, live: LiveTable) -> None:
        """Start the table's bot, if a bot (or a stand-in) is to move, none thinks yet, and
        this server holds the table's lease (one server moves a table's bots)."""
        if live.status != "playing" or live.table.over:
            return
        seat = live.table.to_act()
        if seat is None or live.seats[seat].playing_level is None:
            return
        if not self.leases.holds(live):
            self.leases.want(live)  # another server moves it, or none did yet
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.create_task(self._bot_turn(live))

    async def _bot_turn(self, live: LiveTable) -> None:
        failures = 0
        while True:
            table = live.table
            seat = table.to_act()
            if (
                live.status != "playing"
                or table.over
                or seat is None
                or live.id not in self.leases.held
            ):
                return
            level = live.seats[seat].playing_level
            if level is None:
                return
            version = table.version
            text = await self.pool.run(live.id, choose, live.bot_job(seat, level))
            # The move arrives no sooner than its level's pace after the last move: how long
            # the bot thought must not tell how many moves it had to choose from.
            pace = level_pace(level, self.settings.bot_pause) if self.settings.bot_pause else 0
            wait = live.last_move_at + pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            async with live.lock:
                if live.table.version != version or live.seats[seat].playing_level != level:
                    continue  # the table moved on meanwhile (a seat changed hands)
                move = live.table.state.parse(text)
                try:
                    await self._play(live, move, seat, version)
                    failures = 0
                except RefusedError as refused:
                    if refused.status != 503:
                        continue
                    failures += 1  # the move could not be saved (a full disk?): back off
            if failures:
                await asyncio.sleep(min(SAVE_BACKOFF_CAP, 2.0 ** (failures - 1)))
                continue
            await self.broadcast(live)

    # --- connections -----------------------------------------------------------------------

    async def connect(
        self, live: LiveTable, token: object, since: int, language: str = SOURCE
    ) -> Connection:
        """A new connection for the seat ``token`` holds (``None``: a spectator) that has
        seen the table up to version ``since`` and reads ``language``; its person is back if a
        bot stood in."""
        viewer = None if token is None else live.seat_of(token)
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self.settings.queue_limit)
        hashed = None if viewer is None else token_key(token)
        connection = Connection(viewer, queue, max(0, min(since, live.shown)), False, False,
                                hashed, language=language)  # fmt: skip
        async with live.lock:
            if viewer is not None:
                await self.takeovers.returned(live, viewer)
            live.connections.add(connection)
            live.touched = time.monotonic()
            self.presence.touched(live, viewer)
            self.presence.update(live)
            self.push(live, connection)
            notes = await self.read(chat.load_notes, self.reader, live.id)
            shown = chat.visible(notes, live.rules.chat, viewer)
            connection.send(chat.notes_message(shown, live.names()))
            self.rematches.offer(live)
        await self.broadcast(live)
        self.schedule(live)
        return connection

    async def disconnect(self, live: LiveTable, connection: Connection) -> None:
        """Forget a connection."""
        connection.closed = True
        live.connections.discard(connection)
        live.touched = time.monotonic()
        self.presence.touched(live, connection.viewer)
        if self.presence.update(live):
            await self.broadcast(live)

    async def broadcast(self, live: LiveTable) -> None:
        """Send every connection of the table what it has not seen yet, and the seats."""
        async with live.lock:
            for connection in list(live.connections):
                self.push(live, connection)

    def push(self, live: LiveTable, connection: Connection) -> None:
        """Queue for ``connection`` the events since its last version and its own view, then
        the seats as they stand (people, presence, clocks, votes); each only if the page has
        not had it yet."""
        if connection.closed or connection.catching_up:
            return
        shown = live.shown
        running = live.table.version if connection.viewer == live.steps.owner else None
        state = (shown, running, live.status, live.rematch, live.hints)
        if state != connection.sent_state:
            if shown - connection.sent_version > CATCH_UP:
                self._catch_up(live, connection)
                return
            message = update_message(
                live.id, live.status, live.table, spoken(live.kit.words, connection.language),
                connection.viewer,
                connection.sent_version, live.steps,
            )  # fmt: skip
            fair = live.fairness()
            if fair is not None:
                message["fair"] = fair
            message["hints"] = live.hints
            message["rematch"] = live.rematch
            if connection.held:  # the events worked out in a thread come first
                later = message["events"]
                message["events"] = [*connection.held, *(later if isinstance(later, list) else [])]
                connection.held = []
            connection.sent_version = shown
            connection.sent_state = state
            connection.send(message)
        seats = self.seats_message(live)
        text = json.dumps(seats, sort_keys=True)
        if text != connection.sent_seats:
            connection.sent_seats = text
            connection.send({**seats, "now": round(self.clock.now(), 3)})

    def _catch_up(self, live: LiveTable, connection: Connection) -> None:
        """Bring a page far behind up to date: its older events are worked out in a thread
        (the moves up to now never change), then the rest as usual."""
        connection.catching_up = True
        since, until = connection.sent_version, live.shown
        viewer, language, steps = connection.viewer, connection.language, live.steps
        words, side = spoken(live.kit.words, language), (viewer, language)

        async def run() -> None:
            try:
                kept = live.finished_steps.get(side) if live.status == "finished" else None
                if kept is not None:  # a finished game never changes: worked out once a side
                    early = kept[since:until]
                else:
                    early = await asyncio.to_thread(
                        step_events, live.table, words, viewer, steps, since, until
                    )
                    if live.status == "finished" and since == 0 and until == steps.public:
                        live.finished_steps[side] = early
                async with live.lock:
                    connection.sent_version = until
                    connection.held = early
            finally:
                connection.catching_up = False
            await self.broadcast(live)

        task = asyncio.create_task(run())
        self._catching.add(task)
        task.add_done_callback(self._catching.discard)

    def seats_message(self, live: LiveTable) -> dict[str, Any]:
        """Every seat as the table shows it to everyone: who holds it, whether its person is
        here, what time it has (at the start of the running turn, which the page counts
        down), and the votes; nothing of the game's state."""
        to_act = live.table.to_act() if live.status == "playing" else None
        since = live.turn_since
        presence = self.presence.seats_json(live)
        seats = [
            {
                "seat": row.seat, "kind": row.kind, "name": row.name, "level": row.level,
                "joined": row.joined, "stand_in": row.stand_in,
                "conceded": row.conceded_at is not None, **presence[row.seat],
                "time_left": timing.remaining(row, live.rules, to_act, since, since or 0.0),
            }
            for row in live.seats
        ]  # fmt: skip
        return {
            "type": "seats", "version": live.shown, "status": live.status,
            "seats": seats, "votes": self.takeovers.votes_json(live),
            "rules": live.rules.public(), "clock_running": to_act, "turn_since": since,
        }  # fmt: skip

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
