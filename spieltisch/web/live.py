"""The live tables of a server: seats, moves committed before they are shown, bots, and pushes.

The :class:`Hub` keeps each table being played in memory as a :class:`LiveTable` (a session
:class:`~spieltisch.session.Table` plus its seats and open connections). A move, from a person
or a bot, goes through :meth:`Hub.move`: under the table's lock it is validated and applied
once by the table, chance steps that follow are drawn from the table's own generator, and the
new moves are committed to the database by the one writer thread (a compare-and-set on the
table's version) before any connection hears of them. Then each connection gets the events
since its last version and its own view, through its own bounded queue and writer, so a slow
client never holds up a table; one that falls too far behind is closed and catches up when it
reconnects. Bots think in a bounded pool of worker processes, never on the event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import spieltisch
from spieltisch.agents import agent_names, make_agent
from spieltisch.core import fair
from spieltisch.core.errors import OptionError, SpieltischError
from spieltisch.core.game import Game, Move, OptionValue, PlayerId
from spieltisch.core.kit import GameKit
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.session import StaleVersionError, Table
from spieltisch.web import store
from spieltisch.web.analysis import DecisionJob, decisions, rate_decision
from spieltisch.web.bots import BotJob, choose, watch_parent
from spieltisch.web.bots import hint as hint_move
from spieltisch.web.db import make_engine
from spieltisch.web.payload import rejected_message, update_message
from spieltisch.web.settings import Settings
from spieltisch.web.store import SeatRow, VersionConflictError
from spieltisch.web.tokens import matches, new_seed, new_table_id, new_token, token_hash

MAX_NAME = 40
HINT_ITERATIONS = 300
"""The search's budget for a hint (a budget, not a clock: the same position, the same hint)."""


class RefusedError(Exception):
    """A request the server will not carry out, with the reason to show."""

    def __init__(self, reason: str, status: int = 400, version: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.version = version


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """A seat of a table to be made: a person's (open until they join) or a bot's."""

    kind: str
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    """A new table: its id, the host's token and each person seat's token."""

    table_id: str
    host_token: str
    seat_tokens: dict[int, str]


@dataclass(eq=False)
class Analysis:
    """One seat's analysis, while it runs and once it is done."""

    seat: int
    total: int = 0
    done: int = 0
    items: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As the API serves it."""
        status = "failed" if self.error else "done" if self.finished else "running"
        return {
            "seat": self.seat,
            "status": status,
            "done": self.done,
            "total": self.total,
            "decisions": self.items,
            "error": self.error,
        }


@dataclass(eq=False)
class Connection:
    """One open page: who it is (a seat, or ``None`` for a spectator) and what it was sent."""

    viewer: PlayerId | None
    queue: asyncio.Queue[str | None]
    sent_version: int = 0
    closed: bool = False
    lagging: bool = False


@dataclass(eq=False)
class LiveTable:
    """A table in the server's memory."""

    id: str
    game: Game
    kit: GameKit[Any]
    seed: int
    status: str
    host_hash: str
    seats: list[SeatRow]
    table: Table
    secret: str | None = None
    """The secret behind the table's dice (revealed at the end), if they are verifiable."""
    commitment: str | None = None
    committed: int = 0
    """The version the database holds (the table in memory may be ahead while it commits)."""
    hints: bool = False
    """The host allows a seat to ask the strongest bot for advice."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    last_move_at: float = 0.0
    bot_task: asyncio.Task[None] | None = None

    def proof(self) -> fair.FairDice | None:
        """What the table reveals of its dice once it is over (``None`` before, or without)."""
        if self.secret is None or self.commitment is None or not self.table.over:
            return None
        salts = tuple(seat.salt or "" for seat in self.seats)
        return fair.FairDice(self.id, self.commitment, self.secret, salts)

    def fairness(self) -> dict[str, Any] | None:
        """The fair-dice part of every update: the commitment, and at the end the proof."""
        if self.commitment is None:
            return None
        shown: dict[str, Any] = {"scheme": fair.SCHEME, "commitment": self.commitment}
        proof = self.proof()
        if proof is not None:
            shown.update(secret=proof.secret, salts=list(proof.salts), seed=self.seed)
        return shown

    def record(self) -> Record:
        """The game's record, with the proof of its dice once the game is over."""
        return replace(self.table.record(), fair=self.proof())


def _names(seats: Sequence[SeatRow]) -> tuple[str, ...]:
    return tuple(s.name for s in seats)


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RefusedError("a display name is needed")
    clean = " ".join(name.split())
    if len(clean) > MAX_NAME:
        raise RefusedError(f"a display name has at most {MAX_NAME} characters")
    return clean


class Hub:
    """Every live table of one server process, and the workers it hands work to."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.database_url())
        self.writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="db-writer")
        self.bots = concurrent.futures.ProcessPoolExecutor(
            max_workers=settings.bot_workers, initializer=watch_parent, initargs=(os.getpid(),)
        )
        self.tables: dict[str, LiveTable] = {}
        self.analyses: dict[tuple[str, int], Analysis] = {}
        self._analysing: set[asyncio.Task[None]] = set()
        self._loading = asyncio.Lock()

    # --- running ---------------------------------------------------------------------------

    async def write(self, function: Any, *args: Any) -> Any:
        """Run a database write on the one writer thread, without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.writer, function, *args)

    async def read(self, function: Any, *args: Any) -> Any:
        """Run a database read in a worker thread."""
        return await asyncio.to_thread(function, *args)

    async def resume(self) -> None:
        """Take up every table being played (after a restart): replay it, finish it if its
        game is over (a crash before the finish was saved), restart its bots."""
        for table_id in await self.read(store.unfinished, self.engine):
            live = await self.get(table_id)
            if live is None:
                continue
            if live.table.over:
                async with live.lock:
                    await self._commit(live, live.table.version)
            self._schedule(live)

    async def close(self) -> None:
        """Stop the bots, the analyses and the writer."""
        for task in list(self._analysing):
            task.cancel()
        for live in self.tables.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.writer.shutdown(wait=True)
        self.engine.dispose()

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
                row = await self.read(store.load_table, self.engine, table_id)
                if row is None:
                    return None
                live = self._rebuild(row)
                self.tables[table_id] = live
        return live

    async def refresh(self, live: LiveTable) -> None:
        """Take the table up again if another server sharing the database moved it on."""
        stored = await self.read(store.version_of, self.engine, live.id)
        if stored is not None and stored != (live.status, live.committed):
            async with live.lock:
                await self._reload(live)

    def _rebuild(self, row: store.TableRow) -> LiveTable:
        game = spieltisch.load(row.game, row.players, **row.options)
        names = _names(row.seats)
        record = Record(
            row.game, row.players, row.options, row.moves, row.seed, names, row.dictated
        )
        table = Table.from_record(game, record)
        return LiveTable(
            row.id,
            game,
            kit_of(game),
            row.seed,
            row.status,
            row.host_hash,
            list(row.seats),
            table,
            row.secret,
            row.commitment,
            len(row.moves),
            row.hints,
        )

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, OptionValue],
        seats: Sequence[SeatPlan],
        seed: int | None = None,
        rematch_of: str | None = None,
        names: Sequence[str] = (),
        hints: bool = False,
    ) -> Created:
        """Make a new open table; bots sit at once, people join with their seat's token."""
        game = spieltisch.load(game_id, players, **options)
        if len(seats) != game.players:
            raise RefusedError(
                f"{game.info.name} with {game.players} players needs {game.players} seats"
            )
        levels = agent_names(game)
        rows, tokens = [], {}
        for number, plan in enumerate(seats):
            if plan.kind == "bot":
                level = plan.level or levels[0]
                check_level(game, level)
                rows.append(
                    SeatRow(number, "bot", f"Bot {number + 1} ({level})", level, None, True)
                )
            elif plan.kind == "person":
                token = new_token()
                tokens[number] = token
                name = names[number] if number < len(names) else f"Seat {number + 1}"
                rows.append(SeatRow(number, "person", name, None, token_hash(token), False))
            else:
                raise RefusedError(f"a seat is for a person or a bot, not {plan.kind!r}")
        host = new_token()
        table_id = new_table_id()
        # Without a seed asked for, the dice are fair: the seed follows at the start from a
        # secret committed to now and the salts of the people who sit down.
        secret = secrets.token_hex(32) if seed is None else None
        promised = None if secret is None else fair.commitment(table_id, secret)
        await self.write(
            store.create_table,
            self.engine,
            table_id,
            game.info.id,
            game.players,
            dict(game.options),
            new_seed() if seed is None else seed,
            token_hash(host),
            rows,
            rematch_of,
            secret,
            promised,
            hints,
        )
        return Created(table_id, host, tokens)

    def seat_of(self, live: LiveTable, token: object) -> PlayerId | None:
        """The person seat whose token this is, or ``None``."""
        for seat in live.seats:
            if seat.kind == "person" and matches(token, seat.token_hash):
                return seat.seat
        return None

    def check_host(self, live: LiveTable, token: object) -> None:
        """Refuse unless ``token`` is the table's host token."""
        if not matches(token, live.host_hash):
            raise RefusedError("only the host may do that", 403)

    async def join(
        self, live: LiveTable, token: object, name: object, salt: object = None
    ) -> PlayerId:
        """A person takes their seat under a display name, adding their salt to the dice."""
        seat = self.seat_of(live, token)
        if seat is None:
            raise RefusedError("this link holds no seat at this table", 403)
        clean = _check_name(name)
        try:
            own = fair.check_salt(salt)
        except ValueError as error:
            raise RefusedError(str(error)) from None
        async with live.lock:
            current = live.seats[seat]
            # A salt counts only before the start: once the game is on, its dice are fixed.
            salt_now = own if live.status == "open" else current.salt
            row = replace(current, name=clean, joined=True, salt=salt_now)
            await self.write(store.update_seat, self.engine, live.id, row)
            live.seats[seat] = row
            self._rename(live)
        await self.broadcast(live)
        return seat

    async def start(self, live: LiveTable, host: object) -> None:
        """The host starts the game once every seat is taken."""
        self.check_host(live, host)
        async with live.lock:
            if live.status != "open":
                raise RefusedError(f"the table is {live.status}, not waiting to start")
            waiting = [s.seat + 1 for s in live.seats if not s.joined]
            if waiting:
                raise RefusedError(f"seats {', '.join(map(str, waiting))} are still free")
            if live.secret is not None:
                salts = [seat.salt or "" for seat in live.seats]
                live.seed = fair.seed_of(live.id, live.secret, salts)
                await self.write(store.set_seed, self.engine, live.id, live.seed)
                live.table = Table(live.game, _names(live.seats), live.seed)
            await self.write(store.set_status, self.engine, live.id, "playing")
            live.status = "playing"
            await self._after_move(live)
        await self.broadcast(live)
        self._schedule(live)

    async def seat_to_bot(self, live: LiveTable, host: object, seat: int, level: str) -> None:
        """The host hands a seat (say, abandoned) to a bot; its token stops working."""
        self.check_host(live, host)
        number = self._seat_number(live, seat)
        check_level(live.game, level)
        async with live.lock:
            row = SeatRow(number, "bot", f"Bot {number + 1} ({level})", level, None, True)
            await self.write(store.update_seat, self.engine, live.id, row)
            live.seats[number] = row
            self._rename(live)
        await self.broadcast(live)
        self._schedule(live)

    async def seat_to_person(self, live: LiveTable, host: object, seat: int) -> str:
        """The host gives a seat back to a person: a new token, so a new join link."""
        self.check_host(live, host)
        number = self._seat_number(live, seat)
        token = new_token()
        async with live.lock:
            row = SeatRow(number, "person", f"Seat {number + 1}", None, token_hash(token), False)
            await self.write(store.update_seat, self.engine, live.id, row)
            live.seats[number] = row
            self._rename(live)
        await self.broadcast(live)
        return token

    def _seat_number(self, live: LiveTable, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < live.game.players:
            raise RefusedError(f"no seat {seat!r} at this table")
        return seat

    def _rename(self, live: LiveTable) -> None:
        """Give the table the seats' names as they are now (they go into the record)."""
        live.table.seats = _names(live.seats)

    # --- moves -----------------------------------------------------------------------------

    async def move(
        self, live: LiveTable, viewer: PlayerId | None, text: object, action_id: object,
        version: object,
    ) -> None:  # fmt: skip
        """A seat's move (its text or its action id) at ``version``; :class:`RefusedError` with the
        engine's reason (and the table's version) if it cannot be played."""
        async with live.lock:
            if viewer is None:
                raise RefusedError("spectators cannot move", 403, live.table.version)
            if live.status != "playing" or live.seats[viewer].kind != "person":
                await self._reload(live)  # another server may have started it or moved seats
            table = live.table
            if live.status != "playing":
                raise RefusedError(f"the table is {live.status}", 409, table.version)
            if live.seats[viewer].kind != "person":
                raise RefusedError("a bot plays this seat now", 403, table.version)
            if version is not None and type(version) is not int:
                raise RefusedError("version must be a whole number", 400, table.version)
            move = self._read_move(live, text, action_id)
            await self._play(live, move, viewer, version)
        await self.broadcast(live)
        self._schedule(live)

    def _read_move(self, live: LiveTable, text: object, action_id: object) -> Move:
        table = live.table
        try:
            if action_id is not None:
                return table.game.action_from_id(action_id)
            if not isinstance(text, str):
                raise RefusedError("a move is its text or its id", 400, table.version)
            return table.state.parse(text[:1000]) if len(text) <= 1000 else _too_long(text)
        except SpieltischError as error:
            raise RefusedError(str(error), 422, table.version) from None

    async def _play(self, live: LiveTable, move: Move, seat: PlayerId, version: object) -> None:
        """Apply one player move and the chance after it, commit them, or refuse (the table
        is unchanged then). The caller holds the lock."""
        table = live.table
        start = table.version
        try:
            table.play(move, version if isinstance(version, int) else None, by=seat)
        except StaleVersionError as error:
            raise RefusedError(str(error), 409, table.version) from None
        except SpieltischError as error:
            raise RefusedError(str(error), 422, table.version) from None
        await self._commit(live, start)

    async def _after_move(self, live: LiveTable) -> None:
        """Draw every chance step now due and commit it (the caller holds the lock)."""
        start = live.table.version
        await self._commit(live, start)

    async def _commit(self, live: LiveTable, start: int) -> None:
        """Draw the chance now due, then commit every move since version ``start`` before
        anyone sees it; on a conflict with another server, take up the table as stored."""
        table = live.table
        while not table.over and table.to_act() is None:
            table.advance_chance()
        record = table.record()
        dictated = set(record.dictated)
        moves = [(record.moves[i], i in dictated) for i in range(start, table.version)]
        final = live.record().dumps() if table.over and live.status == "playing" else None
        try:
            await self.write(store.append_moves, self.engine, live.id, start, moves, final)
        except VersionConflictError:
            await self._reload(live)
            raise RefusedError("another move came first", 409, live.table.version) from None
        except Exception:
            await self._reload(live)  # what is in memory must never run ahead of the database
            raise RefusedError(
                "the move could not be saved; try again", 503, live.table.version
            ) from None
        live.committed = table.version
        live.last_move_at = time.monotonic()
        if final is not None:
            live.status = "finished"

    async def _reload(self, live: LiveTable) -> None:
        """Take the table up again as the database holds it."""
        row = await self.read(store.load_table, self.engine, live.id)
        if row is not None:
            fresh = self._rebuild(row)
            live.table, live.status, live.seats = fresh.table, fresh.status, fresh.seats
            live.seed, live.committed = fresh.seed, fresh.committed

    # --- bots ------------------------------------------------------------------------------

    def _schedule(self, live: LiveTable) -> None:
        """Start the table's bot, if a bot is to move and none is thinking yet."""
        if live.status != "playing" or live.table.over:
            return
        seat = live.table.to_act()
        if seat is None or live.seats[seat].kind != "bot":
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.create_task(self._bot_turn(live))

    async def _bot_turn(self, live: LiveTable) -> None:
        while True:
            table = live.table
            seat = table.to_act()
            if live.status != "playing" or table.over or seat is None:
                return
            level = live.seats[seat].level
            if live.seats[seat].kind != "bot" or level is None:
                return
            version = table.version
            pause = live.last_move_at + self.settings.bot_pause - time.monotonic()
            if pause > 0:
                await asyncio.sleep(pause)
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self.bots, choose, _bot_job(live, seat, level))
            async with live.lock:
                if live.table.version != version or live.seats[seat].kind != "bot":
                    continue  # the table moved on meanwhile (a seat changed hands)
                move = live.table.state.parse(text)
                try:
                    await self._play(live, move, seat, version)
                except RefusedError:
                    continue
            await self.broadcast(live)

    # --- connections -----------------------------------------------------------------------

    def connect(self, live: LiveTable, viewer: PlayerId | None, since: int) -> Connection:
        """A new connection for ``viewer`` that has seen the table up to version ``since``."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self.settings.queue_limit)
        connection = Connection(viewer, queue, max(0, min(since, live.table.version)))
        live.connections.add(connection)
        return connection

    def disconnect(self, live: LiveTable, connection: Connection) -> None:
        """Forget a connection."""
        connection.closed = True
        live.connections.discard(connection)

    async def broadcast(self, live: LiveTable) -> None:
        """Send every connection of the table what it has not seen yet."""
        async with live.lock:
            for connection in list(live.connections):
                self.push(live, connection)

    def push(self, live: LiveTable, connection: Connection) -> None:
        """Queue for ``connection`` the events since its last version and its own view."""
        if connection.closed:
            return
        message = update_message(
            live.id,
            live.status,
            live.table,
            live.kit.words,
            connection.viewer,
            connection.sent_version,
        )
        shown = live.fairness()
        if shown is not None:
            message["fair"] = shown
        message["hints"] = live.hints
        connection.sent_version = live.table.version
        self.send(connection, message)

    def send(self, connection: Connection, message: dict[str, Any]) -> None:
        """Queue one message; a connection that falls too far behind is closed instead: what
        it has not been sent yet is dropped whole (so it holds no gap), and it catches up from
        its last version when it reconnects."""
        if connection.closed:
            return
        try:
            connection.queue.put_nowait(json.dumps(message, ensure_ascii=False))
        except asyncio.QueueFull:
            connection.lagging = True
            connection.closed = True
            while not connection.queue.empty():
                connection.queue.get_nowait()
            connection.queue.put_nowait(None)

    def reject(self, connection: Connection, refusal: RefusedError, version: int) -> None:
        """Tell a connection why its move was refused."""
        self.send(connection, rejected_message(refusal.reason, version))

    async def rematch(self, live: LiveTable, host: object) -> Created:
        """A new table with the same game, options and seats (bots keep their levels, people
        their names); each person at the old table is sent their new seat's token over their
        own connection, and everyone the new table's id."""
        self.check_host(live, host)
        if live.status != "finished":
            raise RefusedError("a rematch follows a finished game")
        plans = [SeatPlan(s.kind, s.level) for s in live.seats]
        names = [s.name for s in live.seats]
        created = await self.create(
            live.game.info.id,
            live.game.players,
            dict(live.game.options),
            plans,
            rematch_of=live.id,
            names=names,
            hints=live.hints,
        )
        async with live.lock:
            for connection in live.connections:
                message: dict[str, Any] = {"type": "rematch", "table": created.table_id}
                viewer = connection.viewer
                token = None if viewer is None else created.seat_tokens.get(viewer)
                if token is not None:
                    message["token"] = token
                message["version"] = live.table.version
                self.send(connection, message)
        return created

    async def hint(self, live: LiveTable, viewer: PlayerId | None) -> str:
        """Advice for the seat to move, from the game's strongest agent (if the host allows)."""
        if not live.hints:
            raise RefusedError("the host has not allowed hints at this table", 403)
        table = live.table
        if viewer is None or table.to_act() != viewer or live.status != "playing":
            raise RefusedError("a hint is for the seat whose turn it is", 409, table.version)
        name = agent_names(live.game)[0]
        level = f"{name}:{HINT_ITERATIONS}" if name == "ismcts" else name
        loop = asyncio.get_running_loop()
        job = _bot_job(live, viewer, level)
        advice: str = await loop.run_in_executor(self.bots, hint_move, job)
        return advice

    # --- analysis --------------------------------------------------------------------------

    async def analysis(self, live: LiveTable, seat: object) -> Analysis | None:
        """The analysis of ``seat``'s decisions: running, done (kept in the database) or none."""
        number = self._seat_number(live, seat)
        found = self.analyses.get((live.id, number))
        if found is not None:
            return found
        kept = await self.read(store.load_analysis, self.engine, live.id, number)
        if kept is None:
            return None
        data = json.loads(kept)
        done = Analysis(number, data["total"], data["done"], data["decisions"], finished=True)
        self.analyses[(live.id, number)] = done
        return done

    async def analyse(self, live: LiveTable, seat: object) -> Analysis:
        """Start analysing ``seat``'s decisions in the bot pool (once per seat and table)."""
        if live.status != "finished":
            raise RefusedError("a game is analysed once it is over", 403)
        number = self._seat_number(live, seat)
        found = await self.analysis(live, number)
        if found is not None:
            return found
        record = live.table.record()
        chosen = await self.read(decisions, record, number)
        running = Analysis(number, total=len(chosen))
        self.analyses[(live.id, number)] = running
        task = asyncio.create_task(self._run_analysis(live, record, chosen, running))
        self._analysing.add(task)
        task.add_done_callback(self._analysing.discard)
        return running

    async def _run_analysis(
        self, live: LiveTable, record: Record, chosen: list[int], running: Analysis
    ) -> None:
        loop = asyncio.get_running_loop()
        options = tuple(sorted(live.game.options.items()))
        try:
            for index in chosen:
                job = DecisionJob(
                    live.game.info.id,
                    live.game.players,
                    options,
                    record.seed,
                    record.moves[: index + 1],
                    running.seat,
                )
                item = await loop.run_in_executor(self.bots, rate_decision, job)
                if item is not None:
                    running.items.append(item)
                running.done += 1
            running.finished = True
            kept = json.dumps(
                {"total": running.total, "done": running.done, "decisions": running.items}
            )
            await self.write(store.save_analysis, self.engine, live.id, running.seat, kept)
        except Exception as error:  # said on the page, never lost silently
            running.error = f"the analysis stopped: {error}"

    async def expire(self) -> int:
        """Mark tables that never started, and are older than the limit, expired."""
        cutoff = time.time() - self.settings.expire_after
        count: int = await self.write(store.expire, self.engine, cutoff)
        for live in self.tables.values():
            if live.status == "open":
                row = await self.read(store.load_table, self.engine, live.id)
                if row is not None:
                    live.status = row.status
        return count


def _bot_job(live: LiveTable, seat: PlayerId, level: str) -> BotJob:
    """A worker's job for ``seat`` at the table as it stands: a bot's move, or a hint."""
    record = live.table.record()
    options = tuple(sorted(live.game.options.items()))
    return BotJob(
        live.id,
        live.game.info.id,
        live.game.players,
        options,
        live.seed,
        record.moves,
        record.dictated,
        seat,
        level,
    )


def check_level(game: Game, level: str) -> None:
    """Refuse an agent level the game does not offer (with the ones it does)."""
    if not isinstance(level, str) or len(level) > 40:
        raise RefusedError("a bot level is a short name such as heuristic or ismcts:1s")
    try:
        from_name = level.partition(":")[0]
        if from_name not in agent_names(game):
            raise OptionError(f"unknown agent {from_name!r}")
        make_agent(level, game, 0)
    except SpieltischError as error:
        known = ", ".join(agent_names(game))
        raise RefusedError(f"{error} (levels: {known})") from None


def _too_long(text: str) -> Move:
    raise RefusedError(f"a move is at most 1000 characters, not {len(text)}", 413)
