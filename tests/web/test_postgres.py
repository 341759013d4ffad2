"""Never lose a move, on PostgreSQL: restarts, SIGKILL, and two servers racing at one table.

These tests run real server processes (``python -m spieltisch.web``) against the PostgreSQL
database named by ``SPIELTISCH_TEST_POSTGRES`` (an SQLAlchemy URL; ``scripts/ci_postgres.sh``
prepares one and prints it) and are skipped only when that variable is unset. The module's
servers run on a database of its own beside that one (servers take up tables left playing in
their database); each table has its own random id, so the tests share it. Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection

import spieltisch
from spieltisch.core.record import Record, replay, replay_states

from .servers import Server, own_database, running

URL = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
pytestmark = pytest.mark.skipif(not URL, reason="SPIELTISCH_TEST_POSTGRES is not set")

GAME = 180.0
"""Seconds a bots' game may take: an iteration-budget bot's move is paced to a second, so a
game of these bots takes about a minute, more on a busy machine (60 s was too close)."""
WAIT = 10.0
"""Seconds any one message may take to arrive."""
BOT_LEVELS = ("ismcts:50", "heuristic", "ismcts:50")
SEED = 4_242
RACE_ROUNDS = 40
PACE = 0.15
"""Seconds between one connection's moves: keeps it under the server's rate limit."""


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """This module's own database (see :func:`own_database`): its servers take up every table
    left playing in their database, and other tests leave tables playing in the shared one."""
    with own_database(URL, "postgres") as url:
        yield url


@pytest.fixture(scope="module")
def engine(database: str) -> Iterator[sa.engine.Engine]:
    made = sa.create_engine(database)
    yield made
    made.dispose()


Starter = Callable[[], AbstractContextManager[Server]]
"""Starts a server on this module's database."""


@pytest.fixture
def server(database: str) -> Starter:
    """Starts a server on this module's database, ended with its process group on the way out."""
    return lambda: running(database)


def create(srv: Server, game: str, seats: list[dict[str, str]], seed: int) -> dict[str, Any]:
    body = {"game": game, "players": len(seats), "seats": seats, "seed": seed}
    made = srv.http.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    data["host"] = data["host_link"].split("#host=", 1)[1]
    data["tokens"] = {int(s): link.split("#seat=", 1)[1] for s, link in data["seat_links"].items()}
    return data


def join_and_start(srv: Server, table: dict[str, Any]) -> None:
    for seat, token in table["tokens"].items():
        joined = srv.http.post(
            f"/api/tables/{table['id']}/join", json={"token": token, "name": f"P{seat}"}
        )
        assert joined.status_code == 200, joined.text
    started = srv.http.post(
        f"/api/tables/{table['id']}/start", headers={"Authorization": f"Bearer {table['host']}"}
    )
    assert started.status_code == 200, started.text


SIDE_MESSAGES = {"seats", "notes", "rematch"}
"""Messages about the table's seats and notes, sent beside the updates."""


def receive(ws: ClientConnection, deadline: float) -> dict[str, Any]:
    """The next message that is not about the seats or the notes (bounded)."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no message in time")
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if message.get("type") not in SIDE_MESSAGES:
            return message


def update_at(ws: ClientConnection, version: int) -> dict[str, Any]:
    """The first update at ``version`` or later (bounded)."""
    deadline = time.monotonic() + WAIT
    while True:
        message = receive(ws, deadline)
        if message["type"] == "update" and message["version"] >= version:
            return message


def outcome(ws: ClientConnection, version: int) -> dict[str, Any]:
    """What became of a move sent at ``version``: its ``rejected``, or the update after it."""
    deadline = time.monotonic() + WAIT
    while True:
        message = receive(ws, deadline)
        if message["type"] == "rejected":
            return message
        if message["type"] == "update" and message["version"] > version:
            return message
        assert message["type"] == "update", message


def settled(ws: ClientConnection, version: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What became of a move sent at ``version`` on a connection that may also hear of the
    other server's move first: a ping sent after the move is answered after it, so everything
    up to the pong tells. Its ``rejected`` if it had one, else the last update after it; and
    the last update heard."""
    ws.send(json.dumps({"type": "ping"}))
    deadline = time.monotonic() + WAIT
    rejected: dict[str, Any] | None = None
    heard: dict[str, Any] | None = None
    while (message := receive(ws, deadline))["type"] != "pong":
        if message["type"] == "rejected":
            rejected = rejected or message
        elif message["type"] == "update" and message["version"] > version:
            heard = message
    result = rejected or heard
    assert result is not None, "the move was neither applied nor refused"
    return result, heard


def play_first(ws: ClientConnection, update: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move of ``update`` (after a pause) and return what became of it."""
    time.sleep(PACE)
    move = {"type": "move", "id": update["legal"][0]["id"], "version": update["version"]}
    ws.send(json.dumps(move))
    return outcome(ws, update["version"])


def stored(engine: sa.engine.Engine, table_id: str) -> tuple[str, int, list[int], tuple[str, ...]]:
    """The table's status and version as the database holds them, its move indices and texts."""
    with engine.connect() as db:
        status, version = db.execute(
            sa.text("SELECT status, version FROM tables WHERE id = :id"), {"id": table_id}
        ).one()
        rows = db.execute(
            sa.text("SELECT idx, text FROM moves WHERE table_id = :id ORDER BY idx"),
            {"id": table_id},
        ).all()
    return status, version, [idx for idx, _ in rows], tuple(text for _, text in rows)


def replayed(game_id: str, players: int, moves: tuple[str, ...]) -> list[bool]:
    """Replay the moves (each re-validated); for each, whether chance made it."""
    game = spieltisch.load(game_id, players)
    states = list(replay_states(game, moves))
    return [state.is_chance() for state in states[:-1]]


def bot_record(srv: Server, table_id: str) -> str:
    deadline = time.monotonic() + GAME
    while time.monotonic() < deadline:
        about = srv.http.get(f"/api/tables/{table_id}").json()
        if about["status"] == "finished":
            record = srv.http.get(f"/api/tables/{table_id}/record")
            assert record.status_code == 200, record.text
            return record.text
        time.sleep(0.05)
    raise TimeoutError("the game did not finish in time")


def test_a_table_continues_where_it_was_after_a_restart(
    engine: sa.engine.Engine, server: Starter
) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
    with server() as first:
        table = create(first, "awimbawe", seats, SEED)
        join_and_start(first, table)
        token = table["tokens"][0]
        with first.socket(table["id"], token) as ws:
            update = update_at(ws, 0)
            while update["version"] < 20:
                assert update["status"] == "playing"
                if update["to_act"] != 0:
                    update = update_at(ws, update["version"] + 1)
                    continue
                update = play_first(ws, update)
                assert update["type"] == "update", update
            while update["to_act"] != 0:  # the bot's reply is committed before we stop
                update = update_at(ws, update["version"] + 1)
        first.terminate()
    status, version, indices, before = stored(engine, table["id"])
    assert (status, version) == ("playing", update["version"])
    assert indices == list(range(version))

    with server() as second:
        with second.socket(table["id"], token) as ws:
            resumed = update_at(ws, 0)
            assert resumed["version"] == update["version"]
            assert resumed["view"] == update["view"]
            assert resumed["legal"] == update["legal"]
            assert len(resumed["events"]) == version
            while resumed["status"] == "playing":
                if resumed["to_act"] != 0:
                    resumed = update_at(ws, resumed["version"] + 1)
                    continue
                resumed = play_first(ws, resumed)
                assert resumed["type"] == "update", resumed
        record = Record.loads(second.http.get(f"/api/tables/{table['id']}/record").text)
    status, version, indices, moves = stored(engine, table["id"])
    assert status == "finished"
    assert indices == list(range(version))
    assert record.moves == moves
    assert moves[: len(before)] == before
    game = spieltisch.load(record.game, record.players, **record.options)
    assert replay(game, record).is_terminal()


def test_a_killed_server_resumes_exactly_on_postgres(
    engine: sa.engine.Engine, server: Starter
) -> None:
    seats = [{"kind": "bot", "level": level} for level in BOT_LEVELS]
    with server() as srv:
        reference = create(srv, "auf-die-nuesse", seats, SEED)
        join_and_start(srv, reference)
        expected = bot_record(srv, reference["id"])
    with server() as first:
        table = create(first, "auf-die-nuesse", seats, SEED)
        with first.socket(table["id"], None) as spectator:
            update_at(spectator, 0)
            join_and_start(first, table)
            shown = update_at(spectator, 40)
            first.kill()
    status, version, indices, _ = stored(engine, table["id"])
    assert status == "playing"
    assert indices == list(range(version))
    assert shown["version"] <= version < len(Record.loads(expected).moves)
    with server() as second:
        assert bot_record(second, table["id"]) == expected


def race(engine: sa.engine.Engine, one: Server, two: Server, game: str) -> list[int]:
    """Race one two-person table of ``game`` on both servers: every move is sent by its seat
    to both at once. Checks that each is applied exactly once; how often each server won."""
    with ExitStack() as stack:
        table = create(one, game, [{"kind": "person"}, {"kind": "person"}], SEED)
        join_and_start(one, table)
        sockets = {
            seat: (
                stack.enter_context(one.socket(table["id"], token)),
                stack.enter_context(two.socket(table["id"], token)),
            )
            for seat, token in table["tokens"].items()
        }
        latest = {seat: update_at(pair[0], 1) for seat, pair in sockets.items()}
        for pair in sockets.values():
            update_at(pair[1], 1)
        wins = [0, 0]
        while sum(wins) < RACE_ROUNDS and latest[0]["status"] == "playing":
            seat = latest[0]["to_act"]
            version = latest[seat]["version"]
            move = json.dumps(
                {"type": "move", "id": latest[seat]["legal"][0]["id"], "version": version}
            )
            for ws in sockets[seat] if sum(wins) % 2 == 0 else sockets[seat][::-1]:
                ws.send(move)
            settles = [settled(ws, version) for ws in sockets[seat]]
            results = [result for result, _ in settles]
            assert sorted(r["type"] for r in results) == ["rejected", "update"], results
            won = [r["type"] for r in results].index("update")
            applied, refused = results[won], results[1 - won]
            assert refused["version"] == applied["version"]  # the loser reloaded the winner's
            heard = settles[1 - won][1]  # it may have heard of the winner's move already
            if heard is None or heard["version"] < applied["version"]:
                heard = update_at(sockets[seat][1 - won], applied["version"])
            assert heard["version"] == applied["version"]
            wins[won] += 1
            for other in sockets:
                latest[other] = (
                    applied if other == seat else update_at(sockets[other][won], applied["version"])
                )
            time.sleep(PACE)
    status, version, indices, moves = stored(engine, table["id"])
    assert indices == list(range(version))
    chance = replayed(game, 2, moves)  # every move re-validated in order
    assert chance.count(False) == sum(wins)  # every racing move applied exactly once
    assert status == latest[0]["status"]
    for srv in (one, two):  # status not compared: see the finish xfail in test_persistence
        assert srv.http.get(f"/api/tables/{table['id']}").json()["version"] == version
    return wins


def test_two_servers_racing_apply_each_move_once(engine: sa.engine.Engine, server: Starter) -> None:
    with server() as one, server() as two:
        wins = [race(engine, one, two, game) for game in ("auf-die-eier", "awimbawe")]
    assert all(sum(w) >= 10 for w in wins), wins


def test_a_table_started_on_another_server_takes_moves(
    engine: sa.engine.Engine, server: Starter
) -> None:
    with server() as one, server() as two:
        table = create(one, "awimbawe", [{"kind": "person"}, {"kind": "person"}], SEED)
        token = table["tokens"][0]
        with two.socket(table["id"], token) as early:  # two loads the table while it is open
            assert update_at(early, 0)["status"] == "open"
        join_and_start(one, table)
        with one.socket(table["id"], token) as ws:
            update = update_at(ws, 1)
        assert update["to_act"] == 0
        with two.socket(table["id"], token) as ws:
            seen = update_at(ws, 0)
            assert (seen["status"], seen["version"]) == ("playing", update["version"])
            answer = play_first(ws, seen)
        assert answer["type"] == "update", answer
        assert stored(engine, table["id"])[1] > update["version"]


def test_a_seat_revoked_on_one_server_closes_its_socket_on_the_other(server: Starter) -> None:
    """The host hands seat 1 to a bot through server A; seat 1's page is open on server B:
    B tells it whose seat it was and closes it (within a bound), and shows the others the
    seat's new holder."""
    with server() as first, server() as second:
        table = create(first, "awimbawe", [{"kind": "person"}, {"kind": "person"}], SEED)
        join_and_start(first, table)
        old = second.socket(table["id"], table["tokens"][1])
        other = second.socket(table["id"], table["tokens"][0])
        try:
            update_at(old, 1)
            update_at(other, 1)
            handed = first.http.post(
                f"/api/tables/{table['id']}/seats/1/bot",
                json={"level": "random"},
                headers={"Authorization": f"Bearer {table['host']}"},
            )
            assert handed.status_code == 200, handed.text
            deadline = time.monotonic() + WAIT
            told = None
            while told is None:
                left = deadline - time.monotonic()
                assert left > 0, "server B never told the old page"
                message = json.loads(old.recv(timeout=left))
                if message["type"] == "stale":
                    told = message
            assert told["seat"] == 1 and told["reason"] == "bot" and told["name"] == "P1"
            with pytest.raises(Exception):  # noqa: B017 - B closed it
                old.recv(timeout=WAIT)
            deadline = time.monotonic() + WAIT
            while True:  # the other page on B sees the seat's new holder
                left = deadline - time.monotonic()
                assert left > 0, "server B never showed the new holder"
                message = json.loads(other.recv(timeout=left))
                if message["type"] == "seats" and message["seats"][1]["kind"] == "bot":
                    break
        finally:
            old.close()
            other.close()
