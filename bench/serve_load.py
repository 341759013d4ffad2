"""Load on a real server over loopback: many tables, two seated clients and a spectator each.

Starts ``python -m spieltisch.web`` on a fresh SQLite file (or uses ``--url``), makes ``--tables``
two-person tables, and connects three WebSockets to each: both seats and one spectator. Each
table's acting seat plays a random legal move; the latency of a move is the time from sending
it to the moment every one of the table's three connections has an update that includes it.
Two phases: *paced* (each table moves once every ``--interval`` seconds, like people) and
*unpaced* (each table moves again as soon as all three connections have the last move: the
ceiling). A table whose game ends is replaced by a new one. Prints moves per second, p50/p99
latency and the server's CPU time per move; ``--profile FILE`` runs the server under cProfile
and prints where its time went. Every phase is bounded in time and every wait has a timeout;
it stops by itself and binds loopback only.

The server runs behind a pretend proxy (``--trust-proxy``): each table's people come from an
address of their own (``X-Forwarded-For``), as friends at their own homes would.

``--abuse`` measures the paced phase twice, without and then with an abusive client beside the
tables, from one address: floods of replay steps of a long finished game, of ``hello`` with
``since: 0`` at it, of dice checks of its record, of new tables, and of bodies sent chunked
past the limit. It reports the paced tables' latency both ways and what the abuser got back.
Each flood sends at most ``--flood-rate`` requests a second (100 by default; 0: as fast as it
can), ``--floods`` picks some; the abuser runs at the lowest CPU priority, since an attacker's
client would not share the server's cores. ``--memory SECONDS`` plays paced for that long with
games finishing and new tables made, sampling the server's resident memory every ``--sample``
seconds, and prints the curve as a Markdown table (``--plot FILE``: also as a PNG, with
matplotlib). ``--watch FILE`` has each server it starts look inside itself every ``--sample``
seconds (tracked objects by type, the summed sizes of the containers of spieltisch's,
uvicorn's, websockets' and SQLAlchemy's objects, glibc's heap, Python's blocks; with
``--watch-trace N`` also ``tracemalloc``) and prints what rose most: that is how a closed
socket's compression state was found waiting for the full collection
(``spieltisch/web/routes/socket_memory.py``).

``--starve SECONDS`` measures the bot pool's fairness on a server of its own (two bot workers,
the 0.8 s pause): the moves one address's table of ``--victim-level`` bots makes in that time
alone, then beside another address's ``--starve-tables`` tables of ``--starve-level`` bots
(``--heavy-for-all``: the server lets hosts who are not signed in seat the heaviest levels;
else the abuser falls back to ``ismcts:1s``).

``--servers N`` starts N server processes sharing one PostgreSQL database (``--url
postgresql+psycopg://...``, or the environment's ``SPIELTISCH_TEST_POSTGRES``), each on a port of
its own, and spreads the tables over them as a load balancer would, so that every move crosses
processes: table k is made (and started) on server k % N, its seat 0, seat 1 and spectator
connect to servers k % N, (k+1) % N and (k+2) % N (seat 1 joins on its own server; with
``--spread together`` all three use server k % N, as sticky routing per table would), and a move's
latency runs until all three connections have it. The server CPU per move is summed over every
server process and its children. ``--scaling 1,2,4`` runs the paced and unpaced phases with each
number of servers in turn (fresh servers each time, one database) and prints a Markdown table,
with each run's unpaced moves per second against the run with one server. ``--url`` names a
running server when it starts with ``http://`` (one server, nothing started), else the database
for the servers the bench starts (by default a fresh SQLite file; PostgreSQL as soon as a run
has more than one server). ``--abuse`` needs one server; ``--abuse``, ``--memory`` and
``--profile`` do not go with ``--scaling``; with ``--servers N``, ``--memory`` sums the servers'
memory and ``--profile`` writes FILE, FILE.1, ... and prints them merged.

    .venv/bin/python bench/serve_load.py --tables 200 --paced 30 --unpaced 20
    .venv/bin/python bench/serve_load.py --tables 200 --paced 60 --unpaced 0 --abuse
    .venv/bin/python bench/serve_load.py --tables 200 --paced 0 --unpaced 0 --memory 1800 \
        --plot docs/figures/serve-memory.png
    .venv/bin/python bench/serve_load.py --tables 200 --paced 0 --unpaced 0 --memory 600 \
        --sample 30 --watch /tmp/watch.jsonl
    .venv/bin/python bench/serve_load.py --starve 20 [--heavy-for-all]
    .venv/bin/python bench/serve_load.py --servers 2 --url postgresql+psycopg://u:p@127.0.0.1/db
    SPIELTISCH_TEST_POSTGRES=postgresql+psycopg://u:p@127.0.0.1/db \
        .venv/bin/python bench/serve_load.py --scaling 1,2,4 --tables 100 --paced 20 --unpaced 20
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import ctypes
import functools
import gc
import itertools
import json
import multiprocessing
import os
import pstats
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import httpx
from websockets.asyncio.client import ClientConnection, connect

MOVE_TIMEOUT = 10.0
"""Seconds a move may take to reach all three connections before it counts as timed out."""
SETUP_CONCURRENCY = 20
SETUP_TRIES = 3
START_TIMEOUT = 30.0
"""Seconds a server may take to answer after it starts."""
STOP_TIMEOUT = 30.0
"""Seconds the servers may take to shut down after SIGINT before they are killed."""
MAX_SERVERS = 16
POSTGRES_ENV = "SPIELTISCH_TEST_POSTGRES"
"""The environment variable that may name the PostgreSQL database for several servers."""

Figures = dict[str, float]
"""What one phase measured, by name."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (the state is the first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _tree(pids: list[int]) -> set[int]:
    """The processes ``pids`` and all their descendants alive now."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def _cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU seconds so far of the processes ``pids`` and their descendants: of
    the live ones, and of those they have waited for (from /proc)."""
    ticks = 0
    for pid in _tree(pids):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = _stat(pid)
            ticks += sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


def _client_cpu() -> float:
    """User plus system CPU seconds of this (the client's) process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Watcher:
    """One connection's knowledge of its table: the newest update it has."""

    ws: ClientConnection
    seat: int | None
    version: int = -1
    update: dict[str, Any] | None = None
    stamp: float = 0.0
    """When the newest update arrived."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Stats:
    """What one phase measured."""

    latencies: list[float] = field(default_factory=list)
    timeouts: int = 0
    refused: int = 0
    games: int = 0


class LiveTable:
    """One table of the bench: its id, its three connections and its mover."""

    def __init__(
        self, table_id: str, watchers: list[Watcher], ender: Callable[[], Awaitable[Any]]
    ) -> None:
        self.id = table_id
        self.watchers = watchers
        self.ender = ender
        """Concedes seat 0, which ends the game (so no later server takes the table up)."""
        self.readers = [asyncio.create_task(self._read(w)) for w in watchers]

    async def _read(self, watcher: Watcher) -> None:
        with contextlib.suppress(Exception):
            async for text in watcher.ws:
                message = json.loads(text)
                if message.get("type") == "update" and message["version"] >= watcher.version:
                    watcher.version, watcher.update = message["version"], message
                    watcher.stamp = time.monotonic()
                elif message.get("type") in {"rejected", "error"}:
                    watcher.update = {**(watcher.update or {}), "refused": message}
                watcher.changed.set()

    async def wait_all_past(self, version: int, deadline: float) -> float | None:
        """When the last of the three connections had a version after ``version`` (the
        arrival of its update), or ``None`` if one had none by ``deadline``."""
        for watcher in self.watchers:
            while watcher.version <= version:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                watcher.changed.clear()
                if watcher.version > version:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watcher.changed.wait(), left)
        return max(watcher.stamp for watcher in self.watchers)

    async def close(self, end: bool = False) -> None:
        """Close the connections; with ``end``, first end a game still being played."""
        latest = max(self.watchers, key=lambda w: w.version).update or {}
        if end and latest.get("status") == "playing":
            with contextlib.suppress(httpx.HTTPError, OSError):
                await self.ender()
        for watcher in self.watchers:
            with contextlib.suppress(Exception):
                await watcher.ws.close()
        for reader in self.readers:
            reader.cancel()


class Bench:
    """The client side: makes tables and plays them. With several servers (``bases``), table k
    is made on server k % N and its seat 0, seat 1 and spectator use servers k % N, (k+1) % N
    and (k+2) % N, as a load balancer would spread them (``spread="across"``), or all server
    k % N, as one that sends a table's pages to one process would (``"together"``)."""

    def __init__(
        self, bases: list[str], game: str, rng: random.Random, compression: bool,
        spread: str = "across",
    ) -> None:  # fmt: skip
        self.bases = bases
        self.spread = spread
        self.addresses = itertools.count(1)
        self.numbers = itertools.count()  # table k (made again after a failed step, still k)
        self.ws_bases = [base.replace("http://", "ws://") for base in bases]
        self.game = game
        self.compression: str | None = "deflate" if compression else None
        self.rng = rng
        self.https = [
            httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False) for base in bases
        ]
        self.setup = asyncio.Semaphore(SETUP_CONCURRENCY)
        self.setup_errors = 0

    async def close(self) -> None:
        for http in self.https:
            await http.aclose()

    async def new_table(self) -> LiveTable:
        """A started two-person table with both seats and a spectator connected; a refused
        step (say, a server error) is counted and the table made again, a few times."""
        number = next(self.numbers)
        for _ in range(SETUP_TRIES - 1):
            try:
                return await self._new_table(number)
            except (httpx.HTTPError, OSError, TimeoutError) as error:
                self.setup_errors += 1
                print(f"setup failed, trying again: {error!r}", file=sys.stderr, flush=True)
        return await self._new_table(number)

    async def _new_table(self, number: int) -> LiveTable:
        # the servers of seat 0 (who makes and starts the table), seat 1 and the spectator
        spread = 1 if self.spread == "across" else 0
        servers = [(number + i * spread) % len(self.bases) for i in range(3)]
        async with self.setup:
            address = next(self.addresses)
            octets = (address // 65536 % 256, address // 256 % 256, address % 256)
            home = {"X-Forwarded-For": "10." + ".".join(map(str, octets))}
            seats = [{"kind": "person"}, {"kind": "person"}]
            http = self.https[servers[0]]
            made = await http.post(
                "/api/tables", json={"game": self.game, "seats": seats}, headers=home
            )
            made.raise_for_status()
            data = made.json()
            table_id = data["id"]
            tokens = [data["seat_links"][str(s)].split("#seat=", 1)[1] for s in (0, 1)]
            for seat, token in enumerate(tokens):
                joined = await self.https[servers[seat]].post(
                    f"/api/tables/{table_id}/join",
                    json={"token": token, "name": f"P{seat}"},
                    headers=home,
                )
                joined.raise_for_status()
            host = data["host_link"].split("#host=", 1)[1]
            # the host starts once their server has seat 1, who may have joined on another
            # (as a person would: when the seat shows as taken)
            deadline = time.monotonic() + MOVE_TIMEOUT
            while True:
                started = await http.post(
                    f"/api/tables/{table_id}/start",
                    headers={"Authorization": f"Bearer {host}", **home},
                )
                if started.status_code != 409 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.05)
            started.raise_for_status()
            watchers = []
            viewers: list[tuple[int | None, str | None]] = [(0, tokens[0]), (1, tokens[1])]
            for server, (viewer, secret) in zip(servers, [*viewers, (None, None)], strict=True):
                ws = await connect(
                    f"{self.ws_bases[server]}/ws/{table_id}",
                    open_timeout=20,
                    max_size=2**22,
                    proxy=None,
                    compression=self.compression,
                    additional_headers=home,
                )
                await ws.send(json.dumps({"type": "hello", "token": secret, "since": 0}))
                watchers.append(Watcher(ws, viewer))
            table = LiveTable(
                table_id,
                watchers,
                functools.partial(
                    http.post,
                    f"/api/tables/{table_id}/concede",
                    headers={"Authorization": f"Bearer {tokens[0]}", **home},
                ),
            )
            await table.wait_all_past(0, time.monotonic() + MOVE_TIMEOUT)
            return table

    async def play(
        self, table: LiveTable, stats: Stats, interval: float, until: float, measure_from: float
    ) -> LiveTable:
        """Move at the table (once every ``interval`` seconds, or at once when 0) until
        ``until``, recording latencies of moves sent after ``measure_from``; the table last
        played (a finished game's table is replaced by a new one)."""
        next_at = time.monotonic() + self.rng.uniform(0, interval)
        while time.monotonic() < until:
            latest = max(table.watchers, key=lambda w: w.version)
            update = latest.update or {}
            if update.get("status") == "finished":
                stats.games += 1
                await table.close()
                table = await self.new_table()
                continue
            seat = update.get("to_act")
            mover = next((w for w in table.watchers if w.seat == seat), None)
            if mover is None or mover.update is None or mover.version != latest.version:
                await asyncio.sleep(0.01)
                continue
            if interval > 0:
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                next_at += interval
                if time.monotonic() >= until:
                    break
            version = mover.version
            legal = mover.update.get("legal") or []
            if not legal:
                await asyncio.sleep(0.01)
                continue
            choice = self.rng.choice(legal)
            sent = time.monotonic()
            mover.update.pop("refused", None)
            await mover.ws.send(
                json.dumps({"type": "move", "id": choice["id"], "version": version})
            )
            done = await table.wait_all_past(version, sent + MOVE_TIMEOUT)
            if done is None:
                if mover.update is not None and "refused" in mover.update:
                    stats.refused += 1
                    await asyncio.sleep(0.2)
                else:
                    stats.timeouts += 1
                continue
            if measure_from <= sent < until:
                stats.latencies.append(done - sent)
        return table


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def end_tables(players: list[asyncio.Task[LiveTable]]) -> None:
    """End the games the players left going and close their tables, so that no later server
    takes them up as orphans and spends a later phase's CPU on them."""
    last = [p.result() for p in players if p.done() and not p.cancelled() and not p.exception()]
    await asyncio.gather(*(table.close(end=True) for table in last))


async def phase(
    bench: Bench, count: int, interval: float, seconds: float, server_pids: list[int]
) -> Figures:
    """Set up ``count`` tables, play them for ``seconds`` (after a short warm-up), report; the
    server CPU is that of ``server_pids`` and their children (none: not measured)."""
    tables = await asyncio.gather(*(bench.new_table() for _ in range(count)))
    stats = Stats()
    warmup = min(interval, 2.0) if interval > 0 else 1.0
    start = time.monotonic()
    measure_from = start + warmup
    until = measure_from + seconds
    cpu_before = None
    if server_pids:
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
    players = [
        asyncio.create_task(bench.play(t, stats, interval, until, measure_from)) for t in tables
    ]
    if server_pids:
        cpu_before = _cpu_seconds(server_pids)
    client_before = _client_cpu()
    _, late = await asyncio.wait(players, timeout=seconds + warmup + MOVE_TIMEOUT + 30)
    cpu = _cpu_seconds(server_pids) - cpu_before if cpu_before is not None else 0.0
    client = _client_cpu() - client_before
    for player in late:  # a table still at it past every timeout: not into the next phase
        player.cancel()
    if late:
        await asyncio.wait(late, timeout=10)
    await end_tables(players)  # after the measurement
    moves = len(stats.latencies)
    return {
        "tables": count,
        "seconds": seconds,
        "moves": moves,
        "moves_per_s": moves / seconds,
        "p50_ms": 1000 * _percentile(stats.latencies, 0.50),
        "p99_ms": 1000 * _percentile(stats.latencies, 0.99),
        "max_ms": 1000 * max(stats.latencies, default=float("nan")),
        "timeouts": stats.timeouts,
        "refused": stats.refused,
        "games_finished": stats.games,
        "server_cpu_ms_per_move": 1000 * cpu / moves if moves else float("nan"),
        "client_cpu_ms_per_move": 1000 * client / moves if moves else float("nan"),
        "setup_errors": bench.setup_errors,
        "late_tables": len(late),
    }


ABUSER = {"X-Forwarded-For": "203.0.113.66"}
"""The one address every flood comes from."""
FLOOD_CONCURRENCY = 8
"""Requests each kind of flood keeps in flight at once."""


@dataclass
class Abuse:
    """What the abuser sent and got back, per kind of flood."""

    sent: dict[str, int] = field(default_factory=dict)
    answers: dict[str, dict[str, int]] = field(default_factory=dict)
    cpu_seconds: float = 0.0
    """The abuser's own CPU time (on a machine it shares with the server, it takes from it)."""

    def count(self, kind: str, answer: str) -> None:
        self.sent[kind] = self.sent.get(kind, 0) + 1
        table = self.answers.setdefault(kind, {})
        table[answer] = table.get(answer, 0) + 1


async def finished_game(base: str) -> tuple[str, str]:
    """A finished game of bots (a long one: Auf die Nüsse! for four) to flood with replays and
    dice checks; its id and its seat-free spectator path."""
    async with httpx.AsyncClient(base_url=base, timeout=60.0, trust_env=False) as http:
        seats = [{"kind": "bot", "level": "random"}] * 4
        made = (
            await http.post(
                "/api/tables",
                json={"game": "auf-die-nuesse", "players": 4, "seats": seats},
                headers={"X-Forwarded-For": "198.51.100.1"},
            )
        ).json()
        host = made["host_link"].split("#host=", 1)[1]
        await http.post(
            f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {host}"}
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            about = (await http.get(f"/api/tables/{made['id']}")).json()
            if about["status"] == "finished":
                return made["id"], made["seat_links"].get("0", "")
            await asyncio.sleep(0.5)
    raise RuntimeError("the game to flood did not finish")


FLOODS = ("replay", "verify", "new table", "chunked 4 MB", "hello since 0")
"""Every kind of flood the abuser knows."""


async def abuse(
    base: str, table_id: str, until: float, report: Abuse, kinds: tuple[str, ...] = FLOODS,
    rate: float = 0.0,
) -> None:  # fmt: skip
    """The floods ``kinds`` at once until ``until``, each with a few requests in flight and
    (if ``rate`` > 0) at most ``rate`` requests a second."""
    gap = FLOOD_CONCURRENCY / rate if rate > 0 else 0.0  # seconds between one worker's sends
    http = httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False, headers=ABUSER)
    ws_base = base.replace("http://", "ws://")
    record = (await http.get(f"/api/tables/{table_id}/record")).content

    async def answer(kind: str, request: Any) -> None:
        try:
            response = await request
            report.count(kind, str(response.status_code))
        except (httpx.HTTPError, OSError) as error:
            report.count(kind, type(error).__name__)

    def big_body() -> Any:
        async def chunks() -> Any:
            for _ in range(64):
                yield b" " * 65_536

        return chunks()

    floods = {
        "replay": lambda: http.get(f"/api/tables/{table_id}/replay", params={"at": 200}),
        "verify": lambda: http.post("/api/verify", content=record),
        "new table": lambda: http.post(
            "/api/tables", json={"game": "awimbawe", "seats": [{"kind": "person"}] * 2}
        ),
        "chunked 4 MB": lambda: http.post(
            "/api/tables", content=big_body(), headers={"Content-Type": "application/json"}
        ),
    }

    async def paced(send: Any) -> None:
        next_at = time.monotonic()
        while (now := time.monotonic()) < until:
            if next_at > now:
                await asyncio.sleep(next_at - now)
            next_at = max(next_at + gap, time.monotonic() - gap)
            await send()

    async def flood(kind: str) -> None:
        await paced(lambda: answer(kind, floods[kind]()))

    async def hello_flood() -> None:
        await paced(hello)

    async def hello() -> None:
        try:
            async with connect(
                f"{ws_base}/ws/{table_id}", open_timeout=10, proxy=None,
                additional_headers=ABUSER, max_size=2**24,
            ) as ws:  # fmt: skip
                await ws.send(json.dumps({"type": "hello", "token": None, "since": 0}))
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                report.count("hello since 0", message.get("type", "?"))
        except (OSError, TimeoutError, Exception) as error:
            report.count("hello since 0", type(error).__name__)

    tasks = [
        asyncio.create_task(flood(kind) if kind in floods else hello_flood())
        for kind in kinds
        for _ in range(FLOOD_CONCURRENCY)
    ]
    await asyncio.gather(*tasks)
    await http.aclose()


def abuse_process(
    base: str, table_id: str, seconds: float, answers: Any, kinds: tuple[str, ...], rate: float
) -> None:
    """The abuser's process: the floods ``kinds`` for ``seconds`` (each at most ``rate``
    requests a second), then what it got back."""
    os.nice(19)  # an attacker's client runs on a machine of its own: here it takes what is spare
    report = Abuse()
    asyncio.run(abuse(base, table_id, time.monotonic() + seconds, report, kinds, rate))
    report.cpu_seconds = time.process_time()
    answers.put(report)


def _rss_mib(pids: list[int]) -> float:
    """The resident memory of processes and their descendants (bot workers), in MiB."""
    total = 0
    for pid in _tree(pids):
        with contextlib.suppress(OSError, IndexError, ValueError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


# --- looking inside the server (--watch) -----------------------------------------------------

WATCH_FILE = "SERVE_LOAD_WATCH"
"""The environment variable naming the file a watched server writes its samples to."""
WATCH_EVERY = "SERVE_LOAD_WATCH_EVERY"
WATCH_TRACE = "SERVE_LOAD_WATCH_TRACE"
"""Frames per allocation ``tracemalloc`` keeps in a watched server (unset: not traced)."""
WATCH_BOOT = (
    "import runpy, sys; sys.path.insert(0, {folder!r}); import serve_load; "
    "serve_load.watch_heap(); runpy.run_module('spieltisch.web', run_name='__main__', "
    "alter_sys=True)"
)
"""What a watched server runs: this module's watcher, then ``python -m spieltisch.web``."""
CONTAINERS = (dict, set, list, collections.deque, frozenset, tuple)
WATCHED_MODULES = ("spieltisch", "uvicorn", "starlette", "websockets", "sqlalchemy")
"""Whose objects' containers a watched server measures."""


def _mallinfo() -> dict[str, int]:
    """glibc's view of the C heap (``mallinfo2``): bytes taken from the system and in use."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        fields = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                  "uordblks", "fordblks", "keepcost")  # fmt: skip

        class Info(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in fields]

        libc.mallinfo2.restype = Info
        info = libc.mallinfo2()
        return {name: int(getattr(info, name)) for name in ("arena", "hblkhd", "uordblks",
                                                            "fordblks")}  # fmt: skip
    except (OSError, AttributeError):
        return {}


def heap_sample() -> dict[str, Any]:
    """One look inside this process: its RSS, the C heap, Python's blocks, the tracked
    objects by type, and for every object of spieltisch's own classes the summed lengths of
    its containers, by class and attribute (what grows shows up as a rising count)."""
    objects = gc.get_objects()  # the objects made since the server settled (frozen ones not)
    types: collections.Counter[str] = collections.Counter()
    sizes: collections.Counter[str] = collections.Counter()
    for obj in objects:
        kind = type(obj)
        types[kind.__qualname__] += 1
        module = kind.__dict__.get("__module__")
        if not isinstance(module, str) or not module.startswith(WATCHED_MODULES):
            continue
        name = f"{module}.{kind.__qualname__}"
        with contextlib.suppress(Exception):  # a proxy, say, that answers no attribute
            attributes: dict[str, Any] = dict(getattr(obj, "__dict__", {}))
            for slot in getattr(kind, "__slots__", ()):
                attributes[slot] = getattr(obj, slot, None)
            for attribute, value in attributes.items():
                if isinstance(value, CONTAINERS):
                    sizes[f"{name}.{attribute}"] += len(value)
    del objects
    status = Path("/proc/self/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return {
        "t": time.monotonic(),
        "rss_kib": rss,
        "malloc": _mallinfo(),
        "py_blocks": sys.getallocatedblocks(),
        "objects": sum(types.values()),
        "types": dict(types.most_common(60)),
        "containers": dict(sizes.most_common(60)),
    }


def watch_heap() -> None:
    """In a server started by ``--watch``: a thread that appends :func:`heap_sample` (and
    with ``SERVE_LOAD_WATCH_TRACE``, the allocations grown most since the first sample) to
    the file ``SERVE_LOAD_WATCH`` names, every ``SERVE_LOAD_WATCH_EVERY`` seconds."""
    target = Path(os.environ[WATCH_FILE])
    every = float(os.environ.get(WATCH_EVERY, "60"))
    frames = int(os.environ.get(WATCH_TRACE, "0"))
    if frames:
        tracemalloc.start(frames)

    def watched() -> None:
        first: tracemalloc.Snapshot | None = None
        while True:
            time.sleep(every)
            try:
                sample = heap_sample()
            except Exception as error:  # the server goes on, the file says why
                sample = {"error": repr(error)}
            if frames:
                snapshot = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, tracemalloc.__file__)]
                )
                first = first or snapshot
                grown = snapshot.compare_to(first, "traceback")[:12]
                sample["traced_mib"] = tracemalloc.get_traced_memory()[0] / 2**20
                sample["grown"] = [
                    {"kib": stat.size_diff / 1024, "count": stat.count_diff,
                     "where": [f"{f.filename}:{f.lineno}" for f in stat.traceback]}
                    for stat in grown
                ]  # fmt: skip
            with target.open("a") as out:
                out.write(json.dumps(sample) + "\n")

    threading.Thread(target=watched, name="serve-load-watch", daemon=True).start()


def watch_report(path: Path) -> None:
    """What rose in a watched server between the sample a tenth into the run and the last."""
    lines = path.read_text().splitlines()
    samples = [s for s in map(json.loads, filter(None, lines)) if "error" not in s]
    if len(samples) < 2:
        print(f"watch: {len(samples)} samples in {path}, nothing to compare", flush=True)
        return
    before, after = samples[len(samples) // 10], samples[-1]
    minutes = (after["t"] - before["t"]) / 60
    print(f"watch ({path}): over the last {minutes:.1f} minutes", flush=True)
    for key in ("rss_kib", "py_blocks", "objects"):
        print(f"  {key}: {before[key]} -> {after[key]}", flush=True)
    for key, value in after["malloc"].items():
        print(f"  malloc {key}: {before['malloc'].get(key, 0) / 2**20:.1f} -> "
              f"{value / 2**20:.1f} MiB", flush=True)  # fmt: skip
    for part in ("types", "containers"):
        rises = {k: v - before[part].get(k, 0) for k, v in after[part].items()}
        top = sorted(rises.items(), key=lambda kv: -kv[1])[:15]
        print(f"  {part} that rose most: "
              + ", ".join(f"{k} {before[part].get(k, 0)}->{after[part][k]}" for k, _ in top),
              flush=True)  # fmt: skip
    for grown in after.get("grown", []):
        print(f"  traced +{grown['kib']:.0f} KiB ({grown['count']:+d}) at "
              + " <- ".join(grown["where"][::-1][:6]), flush=True)  # fmt: skip


async def memory_run(
    bench: Bench, count: int, interval: float, seconds: float, pids: list[int], every: float
) -> list[tuple[float, float]]:
    """Play paced for ``seconds``, printing the servers' memory every ``every`` seconds (and
    at the end); the curve, as (seconds, MiB)."""
    tables = await asyncio.gather(*(bench.new_table() for _ in range(count)))
    stats = Stats()
    start = time.monotonic()
    until = start + seconds
    players = [asyncio.create_task(bench.play(t, stats, interval, until, start)) for t in tables]
    curve: list[tuple[float, float]] = []
    for k in itertools.count():
        await asyncio.sleep(max(0.0, min(start + k * every, until) - time.monotonic()))
        curve.append((time.monotonic() - start, _rss_mib(pids)))
        print(
            f"memory t={curve[-1][0]:7.0f}s rss={curve[-1][1]:7.1f} MiB "
            f"moves={len(stats.latencies)} games={stats.games}",
            flush=True,
        )
        if time.monotonic() >= until:
            break
    _, late = await asyncio.wait(players, timeout=MOVE_TIMEOUT + 30)
    for player in late:
        player.cancel()
    await end_tables(players)
    samples = [mib for _, mib in curve]
    settled = samples[len(samples) // 10 :] or samples
    print(
        f"memory: first {samples[0]:.1f} MiB, after warm-up {settled[0]:.1f}, "
        f"last {samples[-1]:.1f}, "
        f"max {max(settled):.1f} (last/after warm-up {samples[-1] / settled[0]:.3f}); "
        f"p50 {1000 * _percentile(stats.latencies, 0.5):.1f} ms, p99 "
        f"{1000 * _percentile(stats.latencies, 0.99):.1f} ms, games {stats.games}",
        flush=True,
    )
    print(memory_table(curve), flush=True)
    return curve


def memory_table(curve: list[tuple[float, float]]) -> str:
    """The curve as a Markdown table: minute, resident MiB."""
    rows = [f"| {seconds / 60:.1f} | {mib:.1f} |" for seconds, mib in curve]
    return "\n".join(["| minute | resident MiB |", "|---:|---:|", *rows])


def plot_memory(curve: list[tuple[float, float]], path: Path, title: str) -> bool:
    """Draw the curve into a PNG at ``path`` if matplotlib is at hand; whether it was."""
    try:
        import matplotlib  # noqa: PLC0415 - optional, and slow to import

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        print("memory: no matplotlib here, no plot", flush=True)
        return False
    figure, axes = plt.subplots(figsize=(7, 3.2), dpi=110)
    axes.plot([s / 60 for s, _ in curve], [mib for _, mib in curve], marker=".")
    axes.set_xlabel("minutes of paced play")
    axes.set_ylabel("resident memory, MiB")
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    print(f"memory: plot in {path}", flush=True)
    return True


def parse_cpus(cpus: str) -> set[int]:
    """The cores named as taskset takes them (``0``, ``0,2``, ``1-3``)."""
    found: set[int] = set()
    for part in cpus.split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


def start_server(
    database: str, profile: Path | None, cpus: str = "", stall_ms: float = 0.0,
    watch: Path | None = None,
) -> tuple[subprocess.Popen[bytes], str]:  # fmt: skip
    """Start ``python -m spieltisch.web`` on a free port of loopback with ``database`` (a
    SQLAlchemy URL); the process and its address, once it answers. With ``watch``, the
    server samples its own heap into that file (:func:`watch_heap`)."""
    port = _free_port()
    prefix = [sys.executable] + (["-m", "cProfile", "-o", str(profile)] if profile else [])
    environment = dict(os.environ)
    if watch is not None:
        watch.parent.mkdir(parents=True, exist_ok=True)
        watch.unlink(missing_ok=True)
        environment[WATCH_FILE] = str(watch)
        boot = WATCH_BOOT.format(folder=str(Path(__file__).resolve().parent))
        prefix = [sys.executable, "-c", boot]
    if cpus:  # the server (and its workers) on cores of their own, the clients on the others
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)) - parse_cpus(cpus) or {0})
        prefix = ["taskset", "-c", cpus, *prefix]
    command = [
        *prefix, *([] if watch else ["-m", "spieltisch.web"]),
        "--host", "127.0.0.1", "--port", str(port), "--db", database,
        "--bot-workers", "1", "--bot-pause", "0",
        "--trust-proxy", "--stall-ms", str(stall_ms),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, start_new_session=True, env=environment
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} ended at start ({process.returncode})")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/api/games", timeout=2, trust_env=False).status_code == 200:
                return process, base
        time.sleep(0.1)
    stop_servers([process])
    raise RuntimeError(f"the server on port {port} did not answer in {START_TIMEOUT:.0f} s")


def stop_servers(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGINT to every server (uvicorn shuts down, cProfile writes its file), then make sure
    each one's process group ends."""
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + STOP_TIMEOUT
    for process in processes:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _profile_file(profile: Path | None, index: int) -> Path | None:
    """Where server ``index`` writes its profile: FILE for the first, FILE.1, ... after."""
    if profile is None or index == 0:
        return profile
    return profile.with_name(f"{profile.name}.{index}")


@contextlib.contextmanager
def running_servers(
    count: int, database: str, profile: Path | None, cpus: str, stall_ms: float,
    watch: Path | None = None,
) -> Iterator[tuple[list[str], list[int]]]:  # fmt: skip
    """``count`` servers on one database, their addresses and pids; stopped on leaving (with
    ``watch``, each writes its heap's samples to FILE, FILE.1, ...)."""
    processes: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    try:
        for index in range(count):  # one after another: the first makes the schema
            process, base = start_server(
                database, _profile_file(profile, index), cpus, stall_ms,
                _profile_file(watch, index),
            )  # fmt: skip
            processes.append(process)
            bases.append(base)
        yield bases, [process.pid for process in processes]
    finally:
        stop_servers(processes)


def _show(name: str, figures: Figures) -> None:
    parts = [f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()]
    print(f"{name}: " + " ".join(parts), flush=True)


def _hide_password(url: str) -> str:
    return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", url)


async def run(
    args: argparse.Namespace, bases: list[str], pids: list[int]
) -> list[tuple[str, Figures]]:
    """The phases ``args`` asks for against the servers ``bases`` (whose processes are ``pids``,
    if known); what each measured, by phase."""
    bench = Bench(bases, args.game, random.Random(args.seed), not args.no_compression, args.spread)
    done: list[tuple[str, Figures]] = []

    async def measured(name: str, count: int, interval: float, seconds: float) -> None:
        figures = await phase(bench, count, interval, seconds, pids)
        _show(name, figures)
        done.append((name, figures))

    try:
        if args.memory > 0 and pids:
            curve = await memory_run(
                bench, args.tables, args.interval, args.memory, pids, args.sample
            )
            if args.plot:
                title = (f"{args.tables} paced tables ({args.game}, a move every "
                         f"{args.interval:g} s a table): server's resident memory")  # fmt: skip
                plot_memory(curve, args.plot, title)
        if args.abuse and args.paced > 0:
            base = bases[0]
            target, _ = await finished_game(base)
            await measured("paced, no abuse", args.tables, args.interval, args.paced)
            # the abuser is a process of its own, as an attacker's client would be
            context = multiprocessing.get_context("spawn")
            answers: multiprocessing.Queue[Abuse] = context.Queue()
            abuser = context.Process(
                target=abuse_process,
                args=(
                    base,
                    target,
                    args.paced + 15,
                    answers,
                    tuple(args.floods.split(",")),
                    args.flood_rate,
                ),
                daemon=True,
            )
            abuser.start()
            await measured("paced, under abuse", args.tables, args.interval, args.paced)
            report = await asyncio.to_thread(answers.get, True, args.paced + 120)
            abuser.join(30)
            for kind in report.sent:
                got = " ".join(f"{k}:{v}" for k, v in sorted(report.answers[kind].items()))
                print(f"abuse {kind}: {report.sent[kind]} sent; answers {got}", flush=True)
            seconds = args.paced + 15
            print(f"abuser: {sum(report.sent.values()) / seconds:.0f} requests/s, "
                  f"{report.cpu_seconds / seconds:.2f} cores of its own", flush=True)  # fmt: skip
        elif args.paced > 0:
            await measured("paced", args.tables, args.interval, args.paced)
        if args.unpaced > 0:
            await measured("unpaced", args.unpaced_tables or args.tables, 0.0, args.unpaced)
    finally:
        await bench.close()
    return done


def scaling_table(results: list[tuple[int, str, Figures]]) -> str:
    """The figures of a ``--scaling`` run as a Markdown table, with each run's unpaced moves per
    second against the run with one server."""
    alone = next((f["moves_per_s"] for n, name, f in results if n == 1 and name == "unpaced"), None)
    lines = [
        "| servers | phase | tables | moves/s | p50 ms | p99 ms | timeouts | server CPU ms/move "
        "| unpaced moves/s vs 1 server |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for servers, name, f in results:
        ratio = ""
        if name == "unpaced":
            ratio = f"{f['moves_per_s'] / alone:.2f}×" if alone else "n/a"
        lines.append(
            f"| {servers} | {name} | {f['tables']:.0f} | {f['moves_per_s']:.1f} "
            f"| {f['p50_ms']:.1f} | {f['p99_ms']:.1f} | {f['timeouts']:.0f} "
            f"| {f['server_cpu_ms_per_move']:.2f} | {ratio} |"
        )
    if alone is None:
        lines.append("\n(no unpaced run with 1 server: no ratio)")
    return "\n".join(lines)


def _server_counts(scaling: str) -> list[int]:
    """The numbers of servers ``--scaling`` names (``1,2,4``)."""
    try:
        counts = [int(part) for part in scaling.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or not all(1 <= count <= MAX_SERVERS for count in counts):
        raise ValueError(f"--scaling takes numbers of servers from 1 to {MAX_SERVERS}, e.g. 1,2,4")
    return counts


def _fail(message: str) -> NoReturn:
    """Stop with a one-line error."""
    sys.exit(f"serve_load: {message}")


STARVE_VICTIM = "203.0.113.1"
STARVE_ABUSER = "198.51.100.66"
"""The addresses the starvation run's victim and abuser come from (``X-Forwarded-For``)."""


def _bot_table(client: httpx.Client, address: str, level: str, players: int = 2) -> str | None:
    """Make and start a table of bots only at ``level`` from ``address``; its id, or ``None``
    if the server refused it (it says why)."""
    headers = {"X-Forwarded-For": address}
    seats = [{"kind": "bot", "level": level}] * players
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats}, headers=headers)
    if made.status_code != 201:
        print(f"  {address}: {level} refused ({made.status_code}): {made.text[:120]}", flush=True)
        return None
    table = made.json()
    host = table["host_link"].split("#host=", 1)[1]
    started = client.post(
        f"/api/tables/{table['id']}/start", headers={**headers, "Authorization": f"Bearer {host}"}
    )
    if started.status_code != 200:
        raise RuntimeError(f"a bot table did not start: {started.text[:200]}")
    return str(table["id"])


def _victim_moves(client: httpx.Client, seconds: float, level: str) -> int:
    """The moves the victim's bots make in ``seconds`` (a finished game is replaced)."""
    deadline, done = time.monotonic() + seconds, 0
    table = _bot_table(client, STARVE_VICTIM, level)
    assert table is not None
    while (left := deadline - time.monotonic()) > 0:
        time.sleep(min(0.25, left))
        about = client.get(f"/api/tables/{table}").json()
        if about["status"] != "playing":
            done += about["version"]
            table = _bot_table(client, STARVE_VICTIM, level)
            assert table is not None
    return done + int(client.get(f"/api/tables/{table}").json()["version"])


def starve(args: argparse.Namespace) -> None:
    """Audit item 4: one address's ``--starve-tables`` tables of ``--starve-level`` bots beside
    another address's one table of ``--victim-level`` bots; the victim's moves in
    ``--starve`` seconds without, then with them. The server as deployed: two bot workers, the
    0.8 s pause; ``--heavy-for-all`` lets hosts who are not signed in seat the heaviest levels
    (else the abuser falls back to ``ismcts:1s``, the heaviest it may seat)."""
    environment = dict(os.environ)
    if args.heavy_for_all:
        environment["SPIELTISCH_HEAVY_BOTS"] = "everyone"
    with tempfile.TemporaryDirectory(prefix="serve_starve_") as folder:
        port = _free_port()
        command = [
            sys.executable, "-m", "spieltisch.web", "--host", "127.0.0.1", "--port", str(port),
            "--db", f"sqlite:///{Path(folder) / 'starve.sqlite'}", "--bot-workers", "2",
            "--bot-pause", "0.8", "--trust-proxy",
        ]  # fmt: skip
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, start_new_session=True, env=environment
        )
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base, timeout=30.0, trust_env=False) as client:
                deadline = time.monotonic() + START_TIMEOUT
                while time.monotonic() < deadline:
                    with contextlib.suppress(httpx.TransportError):
                        if client.get("/api/games").status_code == 200:
                            break
                    time.sleep(0.1)
                alone = _victim_moves(client, args.starve, args.victim_level)
                print(f"victim ({args.victim_level}) alone: {alone} moves in "
                      f"{args.starve:.0f} s", flush=True)  # fmt: skip
                level = args.starve_level
                made = [_bot_table(client, STARVE_ABUSER, level)]
                if made[0] is None:  # refused (the table allowance counts it too)
                    level = "ismcts:1s"
                made += [
                    _bot_table(client, STARVE_ABUSER, level)
                    for _ in range(args.starve_tables - (made[0] is not None))
                ]
                time.sleep(2.0)  # every abusive table has a search running or queued
                beside = _victim_moves(client, args.starve, args.victim_level)
                print(f"victim ({args.victim_level}) beside {args.starve_tables} tables of "
                      f"{level} from one address: {beside} moves in {args.starve:.0f} s",
                      flush=True)  # fmt: skip
                moved = sum(client.get(f"/api/tables/{t}").json()["version"] for t in made if t)
                print(f"the abuser's tables: {moved} moves in all", flush=True)
        finally:
            stop_servers([process])


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--unpaced-tables", type=int, default=0, help="default: --tables")
    parser.add_argument("--game", default="awimbawe")
    parser.add_argument("--interval", type=float, default=2.0, help="paced: seconds a move")
    parser.add_argument("--paced", type=float, default=30.0, help="seconds measured paced")
    parser.add_argument("--unpaced", type=float, default=20.0, help="seconds measured unpaced")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--spread",
        choices=("across", "together"),
        default="across",
        help="several servers: a table's three pages on three servers, or all on one",
    )
    parser.add_argument(
        "--no-compression", action="store_true", help="no permessage-deflate (browsers use it)"
    )
    parser.add_argument(
        "--url", default="",
        help="http://...: an already running server (nothing starts); else the SQLAlchemy URL "
        "of the database the servers started share (default: a fresh SQLite file, or with more "
        f"than one server ${POSTGRES_ENV})",
    )  # fmt: skip
    parser.add_argument("--pid", type=int, help="with --url: the server's pid, to read its CPU")
    parser.add_argument(
        "--servers", type=int, default=1,
        help="server processes to start, sharing one database (PostgreSQL when more than one)",
    )  # fmt: skip
    parser.add_argument(
        "--scaling", default="",
        help="numbers of servers, e.g. 1,2,4: the phases with each in turn, then a Markdown table",
    )  # fmt: skip
    parser.add_argument("--profile", type=Path, help="cProfile the server into this file")
    parser.add_argument(
        "--server-cpus", default="",
        help="cores for the server alone, as taskset takes them (e.g. 0): the clients and the "
        "abuser run on the others, as they would on machines of their own",
    )  # fmt: skip
    parser.add_argument("--stall-ms", type=float, default=0.0, help="the server logs loop stalls")
    parser.add_argument("--abuse", action="store_true", help="paced twice: without, with floods")
    parser.add_argument(
        "--floods", default=",".join(FLOODS), help=f"--abuse: which ({', '.join(FLOODS)})"
    )
    parser.add_argument(
        "--flood-rate", type=float, default=100.0,
        help="--abuse: requests a second of each flood at most (0: as fast as it can)",
    )  # fmt: skip
    parser.add_argument("--memory", type=float, default=0.0, help="seconds of paced play, RSS")
    parser.add_argument(
        "--starve", type=float, default=0.0,
        help="seconds: a victim table's bot moves without, then beside one address's tables",
    )  # fmt: skip
    parser.add_argument("--starve-tables", type=int, default=11, help="--starve: the abuser's")
    parser.add_argument("--starve-level", default="ismcts:5s", help="--starve: their bots")
    parser.add_argument("--victim-level", default="heuristic", help="--starve: the victim's")
    parser.add_argument(
        "--heavy-for-all", action="store_true",
        help="--starve: the server lets hosts who are not signed in seat the heaviest bots",
    )  # fmt: skip
    parser.add_argument("--sample", type=float, default=60.0, help="--memory: seconds a sample")
    parser.add_argument("--plot", type=Path, help="--memory: the curve as a PNG (matplotlib)")
    parser.add_argument(
        "--watch", type=Path,
        help="the server samples its own heap into this file every --sample seconds (objects "
        "by type, container sizes of spieltisch's objects, the C heap); a summary at the end",
    )  # fmt: skip
    parser.add_argument(
        "--watch-trace", type=int, default=0,
        help="--watch: also tracemalloc with this many frames (slow), and what grew most",
    )  # fmt: skip
    return parser


def _watch_settings(args: argparse.Namespace, running: bool) -> None:
    """Hand ``--watch``'s settings to the servers to be started (they read them at start)."""
    if args.profile or running:
        _fail("--watch starts the servers itself, without --profile")
    os.environ[WATCH_EVERY] = str(args.sample)
    if args.watch_trace:
        os.environ[WATCH_TRACE] = str(args.watch_trace)


def main() -> None:
    parser = _parser()
    args = parser.parse_args()
    if args.starve > 0:
        starve(args)
        return
    if unknown := set(args.floods.split(",")) - set(FLOODS):
        parser.error(f"no such flood: {', '.join(sorted(unknown))}")
    if not 1 <= args.tables <= 2000 or args.paced > 600 or args.unpaced > 600:
        parser.error("at most 2000 tables and 600 seconds a phase")
    if args.memory > 7200:
        parser.error("--memory: at most two hours")
    if not 1 <= args.servers <= MAX_SERVERS:
        parser.error(f"--servers: from 1 to {MAX_SERVERS}")
    try:
        counts = _server_counts(args.scaling) if args.scaling else [args.servers]
    except ValueError as error:
        parser.error(str(error))
    running = args.url.startswith(("http://", "https://"))
    if running and (args.scaling or args.servers > 1):
        _fail(
            "--url http://... names one running server; --servers and --scaling start their own "
            "(give --url the PostgreSQL database instead)"
        )
    if args.scaling and (args.abuse or args.memory > 0 or args.profile or args.watch):
        _fail("--abuse, --memory, --profile and --watch do not go with --scaling")
    if args.watch:
        _watch_settings(args, running)
    if args.abuse and max(counts) > 1:
        _fail("--abuse floods one server: it needs --servers 1")
    if running:
        asyncio.run(run(args, [args.url.rstrip("/")], [args.pid] if args.pid else []))
        return
    database = args.url
    if max(counts) > 1:
        database = database or os.environ.get(POSTGRES_ENV, "")
        if not database.startswith("postgresql"):
            _fail(
                f"{max(counts)} servers need a PostgreSQL database to share: --url "
                f"postgresql+psycopg://USER:PASSWORD@HOST/DB or ${POSTGRES_ENV} "
                f"(got {_hide_password(database) or 'none'})"
            )
    profiles = [_profile_file(args.profile, index) for index in range(max(counts))]
    for stale in profiles:  # none left from an earlier run to be merged with this one's
        if stale is not None:
            stale.unlink(missing_ok=True)
    results: list[tuple[int, str, Figures]] = []
    with tempfile.TemporaryDirectory(prefix="serve_load_") as folder:
        database = database or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        for count in counts:
            with running_servers(
                count, database, args.profile, args.server_cpus, args.stall_ms, args.watch
            ) as (bases, pids):
                listed = ", ".join(f"{b} (pid {p})" for b, p in zip(bases, pids, strict=True))
                print(
                    f"{'server' if count == 1 else f'{count} servers'} {listed}, game {args.game}, "
                    f"database {_hide_password(database)}",
                    flush=True,
                )
                results += [(count, name, f) for name, f in asyncio.run(run(args, bases, pids))]
    if args.scaling:
        print(scaling_table(results), flush=True)
    for index in range(max(counts) if args.watch else 0):
        if (watched := _profile_file(args.watch, index)) and watched.exists():
            watch_report(watched)
    if found := [str(path) for path in profiles if path is not None and path.exists()]:
        stats = pstats.Stats(*found)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
