"""Never lose a move: a real server killed with SIGKILL mid-game resumes exactly where it was.

Each test starts real server processes (``python -m spieltisch.web``) on a SQLite file over
loopback, plays a table of bots with a fixed seed, kills the server with SIGKILL after some
moves were committed and shown, restarts it on the same file, and lets the game finish. The
record must be the one an uninterrupted server makes from the same table and seed, and every
move a connection was shown before the kill must still be there. Every wait is bounded.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

import spieltisch
from spieltisch.core.record import Record, replay
from spieltisch.web.store import table_store
from spieltisch.web.store.db import make_engine, migrate

from .servers import Server, running

GAME = 60.0
"""Seconds a game of bots may take to finish."""
GAME_ID = "auf-die-nuesse"
LEVELS = ("ismcts:50", "heuristic", "ismcts:50")
"""Deterministic levels (an iteration budget, not a time budget): the same seed, the same game."""
SEED = 20_261_201
KILL_AFTER = 40
"""Versions a spectator must have been shown before the server is killed."""


@contextmanager
def server(database: Path) -> Iterator[Server]:
    """A server on the SQLite file ``database``, ended with its process group on the way out."""
    with running(f"sqlite:///{database}") as process:
        yield process


def create_bot_table(srv: Server) -> tuple[str, str]:
    """A table of bots with the fixed seed; its id and host token."""
    seats = [{"kind": "bot", "level": level} for level in LEVELS]
    body = {"game": GAME_ID, "players": len(LEVELS), "seats": seats, "seed": SEED}
    made = srv.http.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    data = made.json()
    return data["id"], data["host_link"].split("#host=", 1)[1]


def start(srv: Server, table_id: str, host: str) -> None:
    started = srv.http.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"}
    )
    assert started.status_code == 200, started.text


def wait_shown(ws: ClientConnection, version: int, timeout: float) -> dict[str, Any]:
    """The first update the connection gets at ``version`` or later (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no update at version {version} within {timeout} s")
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if message["type"] == "update" and message["version"] >= version:
            return message


def wait_finished(srv: Server, table_id: str, timeout: float = GAME) -> str:
    """The record of the table once its game is over (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        about = srv.http.get(f"/api/tables/{table_id}").json()
        if about["status"] == "finished":
            record = srv.http.get(f"/api/tables/{table_id}/record")
            assert record.status_code == 200, record.text
            return record.text
        assert about["status"] == "playing", about
        time.sleep(0.05)
    raise TimeoutError(f"the game did not finish within {timeout} s")


def stored(database: Path, table_id: str) -> tuple[str, int, list[tuple[int, str]]]:
    """What the file holds of the table: its status, its version and its moves."""
    with sqlite3.connect(database) as db:
        status, version = db.execute(
            "SELECT status, version FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        moves = db.execute(
            "SELECT idx, text FROM moves WHERE table_id = ? ORDER BY idx", (table_id,)
        ).fetchall()
    return status, version, moves


def uninterrupted(tmp_path: Path) -> str:
    """The record of the same table and seed played on a fresh server without a break."""
    with server(tmp_path / "reference.sqlite") as srv:
        table_id, host = create_bot_table(srv)
        start(srv, table_id, host)
        return wait_finished(srv, table_id)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    return uninterrupted(tmp_path_factory.mktemp("reference"))


def test_the_same_seed_gives_the_same_game(reference: str, tmp_path: Path) -> None:
    again = uninterrupted(tmp_path)
    assert again == reference
    record = Record.loads(reference)
    game = spieltisch.load(record.game, record.players, **record.options)
    assert replay(game, record).is_terminal()
    assert record.seed == SEED
    assert len(record.moves) > 2 * KILL_AFTER


def test_a_server_killed_mid_game_resumes_exactly(reference: str, tmp_path: Path) -> None:
    database = tmp_path / "tables.sqlite"
    with server(database) as first:
        table_id, host = create_bot_table(first)
        with first.socket(table_id) as spectator:
            wait_shown(spectator, 0, 10)
            start(first, table_id, host)
            shown = wait_shown(spectator, KILL_AFTER, GAME)
            first.kill()
    status, version, moves = stored(database, table_id)
    assert status == "playing"
    assert [i for i, _ in moves] == list(range(version))
    assert version >= shown["version"]  # nothing a connection was shown is lost
    final = Record.loads(reference)
    assert version < len(final.moves)  # the kill came mid-game
    assert [text for _, text in moves] == list(final.moves[:version])

    with server(database) as second:
        about = second.http.get(f"/api/tables/{table_id}").json()
        assert about["status"] in {"playing", "finished"}
        assert about["version"] >= version
        record = wait_finished(second, table_id)
    assert record == reference


def test_a_table_that_never_started_survives_a_kill(reference: str, tmp_path: Path) -> None:
    database = tmp_path / "open.sqlite"
    with server(database) as first:
        table_id, host = create_bot_table(first)
        first.kill()
    with server(database) as second:
        about = second.http.get(f"/api/tables/{table_id}").json()
        assert (about["status"], about["version"]) == ("open", 0)
        with second.socket(table_id) as spectator:
            wait_shown(spectator, 0, 10)
            start(second, table_id, host)
            moved = wait_shown(spectator, KILL_AFTER, GAME)
    assert moved["status"] == "playing"
    final = Record.loads(reference).moves
    assert stored(database, table_id)[2][:KILL_AFTER] == list(enumerate(final[:KILL_AFTER]))


def test_no_bot_worker_outlives_a_killed_server(tmp_path: Path) -> None:
    with server(tmp_path / "orphans.sqlite") as srv:
        table_id, host = create_bot_table(srv)
        with srv.socket(table_id) as spectator:
            wait_shown(spectator, 0, 10)
            start(srv, table_id, host)
            wait_shown(spectator, 2, GAME)  # a bot has moved: the pool has its worker
        srv.kill()
        deadline = time.monotonic() + 5
        while srv.group_alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert srv.group_alive() == []


def test_a_kill_between_the_last_move_and_the_finish_is_repaired(
    reference: str, tmp_path: Path
) -> None:
    database = tmp_path / "last.sqlite"
    with server(database) as first:
        table_id, host = create_bot_table(first)
        start(first, table_id, host)
        wait_finished(first, table_id)
        first.kill()
    with sqlite3.connect(database) as db:  # the file as a kill just before the finish leaves it
        db.execute(
            "UPDATE tables SET status = 'playing', record = NULL, finished_at = NULL WHERE id = ?",
            (table_id,),
        )
    with server(database) as second:
        assert wait_finished(second, table_id, timeout=5) == reference


def test_writes_never_fail_while_tables_are_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'busy.sqlite'}"
    migrate(url)
    engine = make_engine(url)
    seat = table_store.SeatRow(0, "person", "Seat 1", None, "0" * 64, False)
    table_store.create_table(engine, "t0", GAME_ID, 3, {}, SEED, "0" * 64, [seat])
    failures: list[str] = []
    done = threading.Event()

    def write() -> None:
        for number in range(1, 601):
            try:
                table_store.create_table(
                    engine, f"t{number}", GAME_ID, 3, {}, SEED, "0" * 64, [seat]
                )
                table_store.append_moves(engine, "t0", number - 1, [(f"move {number}", False)])
            except Exception as error:  # every failure is the finding
                failures.append(f"write {number}: {type(error).__name__}: {error}")
        done.set()

    def read() -> None:
        while not done.is_set():
            try:
                table_store.load_table(engine, "t0")
            except Exception as error:
                failures.append(f"read: {type(error).__name__}")

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    engine.dispose()
    assert done.is_set()
    assert failures == []


def test_a_table_whose_record_no_longer_replays_keeps_no_other_from_play(tmp_path: Path) -> None:
    """A damaged record (a chance step the seed never drew, say) is logged and left as
    stored when a server starts; the server starts, and every other table plays on."""
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    seats = [{"kind": "person"}, {"kind": "person"}]
    made = []
    with running(url) as first:
        for _ in range(2):
            answer = first.http.post(
                "/api/tables", json={"game": "awimbawe", "seats": seats, "seed": 11}
            ).json()
            host = answer["host_link"].split("#host=")[1]
            for seat, link in answer["seat_links"].items():
                token = link.split("#seat=")[1]
                first.http.post(
                    f"/api/tables/{answer['id']}/join", json={"token": token, "name": f"P{seat}"}
                )
            first.http.post(
                f"/api/tables/{answer['id']}/start", headers={"Authorization": f"Bearer {host}"}
            )
            made.append(answer["id"])
    with sqlite3.connect(tmp_path / "db.sqlite") as db:  # two cards of the deal swapped
        (deal,) = db.execute(
            "SELECT text FROM moves WHERE table_id = ? AND idx = 0", (made[0],)
        ).fetchone()
        cards = deal.split(" ")
        cards[1], cards[2] = cards[2], cards[1]
        db.execute(
            "UPDATE moves SET text = ? WHERE table_id = ? AND idx = 0", (" ".join(cards), made[0])
        )
    with running(url) as second:
        healthy = second.http.get(f"/api/tables/{made[1]}")
        assert healthy.status_code == 200 and healthy.json()["status"] == "playing"
        assert second.process.poll() is None
