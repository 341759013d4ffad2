"""More than one server process on one database: every change reaches every connection.

Real server processes (``python -m spieltisch.web``) share the PostgreSQL database named by
``SPIELTISCH_TEST_POSTGRES`` (skipped only when it is unset; ``.ci/run`` sets it). A table's
seats and a spectator sit on different processes; each move, a chat line, a revoked link and
the end must reach every page within :data:`BOUND` (far below the upkeep's slow look at the
database, so only the announcements can meet it). A process killed with SIGKILL mid-game: its
page reconnects to another, and the game and its bot go on there. Two processes sharing an
SQLite file hear each other through the announcements table. Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection

import spieltisch
from spieltisch.core.record import Record, replay_states
from spieltisch.web.cluster import leases

from .servers import Server, own_database, running

URL = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
needs_postgres = pytest.mark.skipif(not URL, reason="SPIELTISCH_TEST_POSTGRES is not set")

BOUND = 2.0
"""Seconds a change may take to reach a page on another process (the slow look beneath the
announcements comes every 5 s)."""
TAKEOVER = 20.0
"""Seconds a killed process's table may take to move on elsewhere (its lease lapses after
6 s, and the others look every 2 s)."""
GAME = 120.0
PACE = 0.15
SEED = 515
PERSONS = [{"kind": "person"}, {"kind": "person"}]

Message = dict[str, Any]


def create(srv: Server, seats: list[dict[str, str]], game: str = "awimbawe") -> Message:
    made = srv.http.post(
        "/api/tables", json={"game": game, "players": len(seats), "seats": seats, "seed": SEED}
    )
    assert made.status_code == 201, made.text
    table: Message = made.json()
    table["host"] = table["host_link"].split("#host=", 1)[1]
    table["tokens"] = {int(s): u.split("#seat=", 1)[1] for s, u in table["seat_links"].items()}
    for seat, token in table["tokens"].items():
        joined = srv.http.post(
            f"/api/tables/{table['id']}/join", json={"token": token, "name": f"P{seat}"}
        )
        assert joined.status_code == 200, joined.text
    started = srv.http.post(
        f"/api/tables/{table['id']}/start", headers={"Authorization": f"Bearer {table['host']}"}
    )
    assert started.status_code == 200, started.text
    return table


def until(ws: ClientConnection, wanted: Callable[[Message], bool], deadline: float) -> Message:
    """The first message ``wanted`` accepts, before ``deadline`` (monotonic)."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the message did not come in time")
        message: Message = json.loads(ws.recv(timeout=left))
        if wanted(message):
            return message


def until_each(
    ws: ClientConnection, wanted: Sequence[Callable[[Message], bool]], deadline: float
) -> list[Message]:
    """For each of ``wanted``, the first message it accepts, in whatever order they come,
    all before ``deadline`` (a message one test would skip may be the one another waits for)."""
    found: list[Message | None] = [None] * len(wanted)
    while any(m is None for m in found):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the messages did not all come in time")
        message: Message = json.loads(ws.recv(timeout=left))
        for i, accepts in enumerate(wanted):
            if found[i] is None and accepts(message):
                found[i] = message
    return [m for m in found if m is not None]


def update_past(version: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "update" and m["version"] > version


def at_least(version: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "update" and m["version"] >= version


def connected(seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "seats" and bool(m["seats"][seat]["connected"])


def move(ws: ClientConnection, update: Message) -> None:
    """Send the first legal move of ``update`` (after a pause: a page may send ten a second)."""
    time.sleep(PACE)
    ws.send(
        json.dumps({"type": "move", "id": update["legal"][0]["id"], "version": update["version"]})
    )


def stored_moves(url: str, table_id: str) -> tuple[str, tuple[str, ...]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            status = db.execute(
                sa.text("SELECT status FROM tables WHERE id = :id"), {"id": table_id}
            ).scalar_one()
            texts = db.execute(
                sa.text("SELECT text FROM moves WHERE table_id = :id ORDER BY idx"),
                {"id": table_id},
            ).scalars()
            return str(status), tuple(texts)
    finally:
        engine.dispose()


@pytest.fixture
def database() -> Iterator[str]:
    """A database of this test's own (see :func:`own_database`)."""
    with own_database(URL, "servers") as url:
        yield url


@pytest.fixture
def three(database: str) -> Iterator[tuple[Server, Server, Server]]:
    with running(database) as a, running(database) as b, running(database) as c:
        yield a, b, c


@needs_postgres
def test_moves_chat_a_revoked_link_and_the_end_reach_every_process(
    three: tuple[Server, Server, Server], database: str
) -> None:
    """Seat 0 on A, seat 1 on B, a spectator on C: A shows seat 1 connected, each move
    reaches the other two within the bound; so do a chat line, the host handing seat 1 to a
    bot (through C: B closes the old page) and the end of the game, played out by that bot."""
    a, b, c = three
    table = create(a, PERSONS)
    with ExitStack() as stack:
        seat0 = stack.enter_context(a.socket(table["id"], table["tokens"][0]))
        seat1 = stack.enter_context(b.socket(table["id"], table["tokens"][1]))
        watcher = stack.enter_context(c.socket(table["id"], None))
        pages = {0: seat0, 1: seat1}
        # A's page must hear both its first update and that seat 1's page (on B) is connected,
        # in whichever order A sends them.
        latest = {0: until_each(seat0, [at_least(1), connected(1)], time.monotonic() + 10)[0]}
        latest[1] = until(seat1, at_least(1), time.monotonic() + 10)
        until(watcher, at_least(1), time.monotonic() + 10)
        slowest, moves = 0.0, 0
        while moves < 6 and latest[0]["status"] == "playing":
            seat, version = latest[0]["to_act"], latest[0]["version"]
            sent = time.monotonic()
            move(pages[seat], latest[seat])
            for ws in (*pages.values(), watcher):
                heard = until(ws, update_past(version), sent + BOUND)
                if ws is not watcher:
                    latest[0 if ws is seat0 else 1] = heard
            slowest, moves = max(slowest, time.monotonic() - sent), moves + 1
        assert moves == 6, "the game ended too soon for the test"
        seat0.send(json.dumps({"type": "chat", "text": "hello from A"}))
        said = time.monotonic()
        notes = until(seat1, lambda m: m["type"] == "notes" and m["notes"], said + BOUND)
        assert notes["notes"][-1]["text"] == "hello from A"  # (the players' chat: no spectator)
        handed = c.http.post(
            f"/api/tables/{table['id']}/seats/1/bot",
            json={"level": "random"},
            headers={"Authorization": f"Bearer {table['host']}"},
        )
        assert handed.status_code == 200, handed.text
        told = until(seat1, lambda m: m["type"] == "stale", time.monotonic() + BOUND)
        assert (told["seat"], told["reason"]) == (1, "bot")
        for ws in (seat0, watcher):
            until(ws, lambda m: m["type"] == "seats" and m["seats"][1]["kind"] == "bot",
                  time.monotonic() + BOUND)  # fmt: skip
        final, watched = play_out(seat0, watcher, latest[0])
        assert final["status"] == "finished"
        finished = lambda m: m["type"] == "update" and m["status"] == "finished"  # noqa: E731
        ended = next(filter(finished, watched), None) or until(
            watcher, finished, time.monotonic() + BOUND
        )
        assert ended["version"] == final["version"]
    status, texts = stored_moves(database, table["id"])
    assert status == "finished"
    assert list(replay_states(spieltisch.load("awimbawe", 2), texts))  # each move legal
    print(f"slowest of {moves} moves to reach all three pages: {slowest * 1000:.0f} ms")


def play_out(
    ws: ClientConnection, watcher: ClientConnection, update: Message
) -> tuple[Message, list[Message]]:
    """Play seat 0's first legal move whenever it is to act until the game ends (the other
    seat's bot moves meanwhile), reading the watcher's messages as they come (a client that
    stops reading stops answering pings); the last update, and what the watcher was sent."""
    deadline = time.monotonic() + GAME
    latest, watched = update, []
    while latest["status"] == "playing":
        if latest["to_act"] == 0 and latest.get("legal"):
            move(ws, latest)
        latest = until(ws, update_past(latest["version"]), deadline)
        watched += drain(watcher)
    return latest, watched


def drain(ws: ClientConnection) -> list[Message]:
    """The messages that have already come."""
    came = []
    with suppress(TimeoutError):
        while True:
            came.append(json.loads(ws.recv(timeout=0)))
    return came


@needs_postgres
def test_a_killed_process_s_page_reconnects_elsewhere_and_its_bot_goes_on(database: str) -> None:
    """A table of a person and a bot is made on A (A moves the bot); the person's page is on
    A, a spectator's on B. A is killed with SIGKILL mid-game: the page reconnects to B, the
    bot moves again (B takes the table over when A's lease lapses), and the game ends with
    each move stored once."""
    with running(database) as b, running(database) as a:
        table = create(a, [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}])
        with b.socket(table["id"], None) as watcher:
            with a.socket(table["id"], table["tokens"][0]) as page:
                latest = until(page, at_least(1), time.monotonic() + 10)
                for _ in range(3):  # a few turns of each, the bot's by A
                    while latest["to_act"] != 0:
                        latest = until(page, update_past(latest["version"]), time.monotonic() + 30)
                    move(page, latest)
                    latest = until(page, update_past(latest["version"]), time.monotonic() + 30)
                held = leases.holder(sa.create_engine(database), table["id"])
                assert held is not None
                a.kill()
            killed_at, version = time.monotonic(), latest["version"]
            with b.socket(table["id"], table["tokens"][0], since=version) as page:
                latest = until(page, at_least(version), time.monotonic() + 10)
                final, _ = play_out(page, watcher, latest)
            assert final["status"] == "finished"
            print(f"game ended {time.monotonic() - killed_at:.1f} s after the kill")
        record = Record.loads(b.http.get(f"/api/tables/{table['id']}/record").text)
    status, texts = stored_moves(database, table["id"])
    assert status == "finished"
    assert list(replay_states(spieltisch.load("awimbawe", 2), texts))
    assert record.moves == texts


@needs_postgres
def test_workers_share_one_port_and_a_killed_worker_is_replaced(database: str) -> None:
    """``--workers 2``: two processes behind one port; pages on either see each other's
    moves; one worker killed with SIGKILL, the port still answers and the game goes on."""
    with running(database, workers=2) as srv:
        children = workers_of(srv.process.pid)
        assert len(children) == 2, children
        table = create(srv, PERSONS)
        with ExitStack() as stack:
            pages = {
                s: stack.enter_context(srv.socket(table["id"], t))
                for s, t in table["tokens"].items()
            }
            latest = {s: until(ws, at_least(1), time.monotonic() + 10) for s, ws in pages.items()}
            for turn in range(4):
                if turn == 2:
                    os.kill(children[0], signal.SIGKILL)
                    assert answers(srv.base)
                    pages = reconnect(stack, srv, table, latest[0]["version"])
                    latest = {
                        s: until(ws, at_least(latest[s]["version"]), time.monotonic() + 10)
                        for s, ws in pages.items()
                    }
                seat = latest[0]["to_act"]
                sent = time.monotonic()
                move(pages[seat], latest[seat])
                for s, ws in pages.items():
                    latest[s] = until(ws, update_past(latest[s]["version"]), sent + BOUND)
        deadline = time.monotonic() + 30
        while len(workers_of(srv.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(workers_of(srv.process.pid)) == 2, "uvicorn did not start a new worker"


def answers(base: str) -> bool:
    """Whether a new connection to the port is answered (one the dead worker had taken may
    be reset, as a browser's would be: it asks again)."""
    for _ in range(5):
        with suppress(httpx.TransportError):
            return httpx.get(f"{base}/api/games", timeout=10, trust_env=False).status_code == 200
        time.sleep(0.2)
    return False


def reconnect(
    stack: ExitStack, srv: Server, table: Message, since: int
) -> dict[int, ClientConnection]:
    """Both seats' pages opened again (a page whose worker died does so by itself)."""
    return {
        s: stack.enter_context(srv.socket(table["id"], t, since=since))
        for s, t in table["tokens"].items()
    }


def workers_of(pid: int) -> list[int]:
    """The server processes uvicorn started under ``pid`` (not their bots' workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with suppress(OSError):
            stat = (entry / "stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
            if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in command:
                found.append(int(entry.name))
    return sorted(found)


def test_two_processes_on_one_sqlite_file_hear_each_other(tmp_path: Path) -> None:
    """Without PostgreSQL: the announcements table carries a move from A to B's page."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with running(url) as a, running(url) as b:
        table = create(a, PERSONS)
        with (
            a.socket(table["id"], table["tokens"][0]) as seat0,
            b.socket(table["id"], table["tokens"][1]) as seat1,
        ):
            latest = [until(ws, at_least(1), time.monotonic() + 10) for ws in (seat0, seat1)]
            for _ in range(4):
                seat = latest[0]["to_act"]
                sent = time.monotonic()
                move((seat0, seat1)[seat], latest[seat])
                latest = [
                    until(ws, update_past(latest[i]["version"]), sent + BOUND)
                    for i, ws in enumerate((seat0, seat1))
                ]


def test_more_than_one_process_on_sqlite_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    done = subprocess.run(  # our own module, fixed arguments
        [sys.executable, "-m", "spieltisch.web", "--db", url, "--workers", "2", "--port", "1"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--workers 2 needs PostgreSQL" in done.stderr
    assert not (tmp_path / "one.db").exists()  # refused before anything was made
