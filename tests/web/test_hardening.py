"""The server under attack and under faults (issue 29): each finding of the audit, as a test.

Bodies are bounded by the bytes read, chunked or not; bot levels are a fixed menu and the bot
pool is shared fairly and survives a killed worker; reads never wait for the writer; a full
disk is answered and backed off from; malformed input gets a clear error and no traceback;
names are normalised and unique; sockets are counted; the smaller items too.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

import spieltisch
import spieltisch.native
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.text import TextError, display_name
from spieltisch.web.routes import guard
from spieltisch.web.routes.app import create_app, same_origin
from spieltisch.web.store import table_store
from spieltisch.web.tables import bot_turns as live_module
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.pool import FairPool, level_menu, level_pace

from . import jobs
from .apart import run_apart
from .conftest import ThreadServer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, bot_pause=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def make(client: TestClient, game: str = "awimbawe", **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "person"}, {"kind": "person"}]
    answer = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    made["host"] = made["host_link"].split("#host=")[1]
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    return made


def chunks(total: int, size: int = 65_536) -> Iterator[bytes]:
    """A body of ``total`` bytes sent chunked (no Content-Length)."""
    sent = 0
    while sent < total:
        yield b" " * min(size, total - sent)
        sent += size


# --- 2. bodies without a length ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "total"),
    [("/api/tables", 100_000), ("/api/verify", 3_000_000), ("/api/tables/x/join", 100_000)],
)
def test_a_chunked_body_past_the_limit_is_refused_as_it_is_read(
    client: TestClient, path: str, total: int
) -> None:
    answer = client.post(path, content=chunks(total), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert "too large" in answer.json()["detail"]
    assert answer.headers["x-content-type-options"] == "nosniff"


def sizes_past(limit: int, size: int = 65_536) -> list[int]:
    """Chunk sizes that add up to one byte past ``limit`` (all read before the refusal)."""
    whole, rest = divmod(limit + 1, size)
    return [size] * whole + ([rest] if rest else [])


@pytest.mark.parametrize("path", ["/api/tables", "/api/verify"])
def test_a_refused_body_is_not_read_to_its_end(clocked: ThreadServer, path: str) -> None:
    """Past the limit, the answer ends the connection: the rest of a body (however long it
    says it is) is never read and thrown away, which would cost the server as much as reading
    it. Checked on a real server over a raw socket."""
    with socket.create_connection(("127.0.0.1", clocked.port), timeout=10) as raw:
        raw.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        for size in sizes_past(guard.limit_of(path)):  # a byte past; the body would go on
            raw.sendall(f"{size:x}\r\n".encode() + b" " * size + b"\r\n")
        received = b""
        while piece := raw.recv(65_536):  # a connection kept open would time out here
            received += piece
    head = received.split(b"\r\n\r\n", 1)[0].lower()
    assert head.startswith(b"http/1.1 413") and b"connection: close" in head


# --- 3. a fixed menu of bot levels, a fair pool --------------------------------------------


@pytest.mark.parametrize("level", ["ismcts:3600s", "ismcts:100000000", "ismcts:0.3s", "nobody"])
def test_levels_off_the_menu_are_refused(client: TestClient, level: str) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": level}]
    answer = client.post("/api/tables", json={"game": "awimbawe", "seats": seats})
    assert answer.status_code == 400 and "levels:" in answer.json()["detail"]
    made = make(client)
    handed = client.post(
        f"/api/tables/{made['id']}/seats/1/bot", json={"level": level},
        headers={"Authorization": f"Bearer {made['host']}"},
    )  # fmt: skip
    assert handed.status_code == 400


def test_the_menu_is_what_the_lobby_offers() -> None:
    game = spieltisch.load("auweier")
    menu = level_menu(game)
    assert menu[0] == "ismcts" and "ismcts:5s" in menu and "heuristic" in menu
    timed = [
        float(level.split(":")[1][:-1]) for level in menu if level.endswith("s") and ":" in level
    ]
    assert timed and max(timed) <= 5


def test_a_slow_table_cannot_hold_the_pool_from_the_others() -> None:
    async def scenario() -> list[str]:
        pool = FairPool(1)
        try:
            finished: list[tuple[float, str]] = []

            async def job(table: str) -> None:
                finished.append((await pool.run(table, jobs.nap, 0.3), table))

            slow = [asyncio.create_task(job("slow")) for _ in range(3)]
            await asyncio.sleep(0.05)
            quick = asyncio.create_task(job("quick"))
            await asyncio.gather(*slow, quick)
            return [table for _, table in sorted(finished)]
        finally:
            pool.shutdown()

    order = run_apart(scenario())
    assert order.index("quick") <= 1, order  # not behind every slow job


def test_a_worker_holds_none_of_the_servers_connections() -> None:
    """A worker forked while a browser's connection was open would keep it open after the
    server let it go, and the browser's next request on it would never be read."""
    with socket.socket() as browser_side:
        browser_side.bind(("127.0.0.1", 0))
        browser_side.listen()
        inode = os.fstat(browser_side.fileno()).st_ino

        async def scenario() -> list[int]:
            pool = FairPool(1)
            try:
                return await pool.run("t", jobs.open_sockets, None)
            finally:
                pool.shutdown()

        assert inode not in run_apart(scenario())


def test_a_killed_worker_is_replaced_and_its_job_run_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> str:
        pool = FairPool(1)
        try:
            return await pool.run("t", jobs.die_once, str(tmp_path / "flag"))
        finally:
            assert pool.rebuilt == 1
            pool.shutdown()

    with caplog.at_level(logging.WARNING, logger="spieltisch.web"):
        assert run_apart(scenario()) == "answered"
    assert "bot worker died" in caplog.text


def test_a_quick_bot_reply_waits_for_its_levels_pace() -> None:
    assert level_pace("heuristic", 0.8) == 0.8
    assert level_pace("ismcts", 0.8) == 1.0
    assert level_pace("ismcts:2s", 0.8) == 2.0
    assert level_pace("ismcts:500", 0.8) == 1.0


# --- 5. reads never wait for the writer ----------------------------------------------------


def test_an_open_read_does_not_hold_up_a_write(client: TestClient) -> None:
    made = make(client)
    hub = hub_of(client)
    done = threading.Event()
    with hub.reader.connect() as reading:
        reading.begin()
        reading.execute(sa.text("SELECT count(*) FROM tables")).scalar()

        def write() -> None:
            table_store.set_status(hub.engine, made["id"], "open")
            done.set()

        writer = threading.Thread(target=write)
        writer.start()
        assert done.wait(10), "the write waited for a read"
        reading.rollback()
    writer.join()


# --- 8. a full disk ------------------------------------------------------------------------


def _full(*args: object, **kwargs: object) -> None:
    raise OperationalError("INSERT", {}, Exception("database or disk is full"))


def test_a_full_disk_refuses_a_new_table_in_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_store, "create_table", _full)
    answer = client.post(
        "/api/tables", json={"game": "awimbawe", "seats": [{"kind": "person"}] * 2}
    )
    assert answer.status_code == 503 and "disk may be full" in answer.json()["detail"]


def test_a_bot_backs_off_while_its_moves_cannot_be_saved(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = [{"kind": "bot", "level": "random"}] * 2
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats, "seed": 3}).json()
    host = made["host_link"].split("#host=")[1]
    calls: list[int] = []
    real = table_store.append_moves

    def failing(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) > 1:  # the start saves its deal; every bot move after fails
            _full()
        real(*args, **kwargs)

    monkeypatch.setattr(table_store, "append_moves", failing)
    sleeps: list[float] = []
    real_sleep = asyncio.sleep

    async def counted_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await real_sleep(min(seconds, 0.01))

    # only the hub's own sleeps are counted (the upkeep loops keep theirs)
    own = types.SimpleNamespace(**{**vars(asyncio), "sleep": counted_sleep})
    monkeypatch.setattr(live_module, "asyncio", own)
    client.post(f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {host}"})
    deadline = time.monotonic() + 60  # a spawned bot worker starts in a second or two
    while len(sleeps) < 4 and time.monotonic() < deadline:
        client.get("/api/games")
    assert sleeps[:4] == [1.0, 2.0, 4.0, 8.0]


# --- 9. malformed input --------------------------------------------------------------------


def test_a_deeply_nested_message_gets_an_error_and_the_socket_stays(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    made = make(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "since": 0}))
        ws.receive_json()
        with caplog.at_level(logging.DEBUG):
            ws.send_text("[" * 2000 + "]" * 2000)
            reply = ws.receive_json()
            while reply["type"] != "error":
                reply = ws.receive_json()
            assert reply["reason"] == "unknown message"
            ws.send_text(json.dumps({"type": "ping"}))
            while ws.receive_json()["type"] != "pong":
                pass
    assert "Traceback" not in caplog.text


def test_a_lone_surrogate_is_refused_and_no_token_reaches_the_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    made = make(client)
    token = made["seat"][0]
    body = '{"token": "' + token + '", "name": "Ann\\ud800"}'
    token_body = '{"token": "\\ud800' + token + '", "name": "Ann"}'
    with caplog.at_level(logging.DEBUG):
        for text in (body, token_body):
            answer = client.post(
                f"/api/tables/{made['id']}/join",
                content=text.encode(),
                headers={"Content-Type": "application/json"},
            )
            assert answer.status_code in (400, 403, 422), answer.text
            assert made["seat"][0] not in answer.text
    assert made["seat"][0] not in caplog.text and "Traceback" not in caplog.text
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text('{"type": "hello", "token": "\\udfff", "since": 0}')
        assert ws.receive_json()["reason"] == "messages must be valid Unicode"


# --- 10. names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["", "   ", "\u200b\u200b", "Ann\u202eX", "Ann\x00", "Bot 2 (ismcts)", "bot", "x" * 41],
)
def test_names_that_hide_imitate_or_break_are_refused(client: TestClient, name: str) -> None:
    made = make(client)
    answer = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": name}
    )
    assert answer.status_code == 400, answer.text


def test_names_are_normalised_and_unique_at_a_table(client: TestClient) -> None:
    made = make(client)
    first = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "Ａｎｎ"}
    )
    assert first.json()["name"] == "Ann"
    second = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][1], "name": "ANN"}
    )
    assert second.status_code == 400 and "called Ann already" in second.json()["detail"]
    again = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "Ann"}
    )
    assert again.status_code == 200  # one's own name is not a clash
    with pytest.raises(TextError):
        display_name("Chance")


# --- 7. limits per token and per address ---------------------------------------------------


def test_one_link_opens_a_bounded_number_of_pages(client: TestClient) -> None:
    made = make(client)
    assert hub_of(client).settings.sockets_per_token == 4
    opened = []
    try:
        for _ in range(4):
            ws = client.websocket_connect(f"/ws/{made['id']}").__enter__()
            ws.send_text(json.dumps({"type": "hello", "token": made["seat"][0], "since": 0}))
            ws.receive_json()
            opened.append(ws)
        with client.websocket_connect(f"/ws/{made['id']}") as fifth:
            fifth.send_text(json.dumps({"type": "hello", "token": made["seat"][0], "since": 0}))
            answer = fifth.receive_json()
            while answer["type"] != "error":
                answer = fifth.receive_json()
            assert "open in 4 pages" in answer["reason"]
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)


def test_an_address_opens_pages_at_a_bounded_rate(tmp_path: Path) -> None:
    """A reconnect storm is refused at the door: the socket is closed before it is accepted,
    saying why, and nothing of the table is read for it."""
    settings = Settings(
        database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, bot_pause=0,
        opens_per_second=0.01, opens_burst=3,
    )  # fmt: skip
    with TestClient(create_app(settings)) as limited:
        made = make(limited)
        for _ in range(3):  # each page is closed again: only the rate of opening counts
            with limited.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": None, "since": 0}))
                assert ws.receive_json()["type"] != "error"
        with pytest.raises(WebSocketDisconnect) as refused:
            limited.websocket_connect(f"/ws/{made['id']}").__enter__()
    assert refused.value.code == 4429 and "too many pages opened" in refused.value.reason


def test_floods_are_refused_at_the_door_with_the_security_headers(client: TestClient) -> None:
    """Each allowance is taken before routing: a flood gets a 429 naming the allowance (and
    the headers every answer carries) whatever the body, even one that would not parse."""
    answers = [client.post("/api/replay", content=b"not a record") for _ in range(22)]
    assert [a.status_code for a in answers[:20]] == [422] * 20
    assert answers[-1].status_code == 429 and "records and dice checks" in answers[-1].text
    assert answers[-1].headers["x-frame-options"] == "DENY"
    assert client.get("/api/tables/nosuch/replay").status_code == 404  # others uncounted


def test_an_address_makes_a_bounded_number_of_tables(client: TestClient) -> None:
    seats = [{"kind": "person"}] * 2
    answers = [
        client.post("/api/tables", json={"game": "awimbawe", "seats": seats}).status_code
        for _ in range(14)
    ]
    assert answers.count(201) == 12 and answers[-1] == 429


def test_heavy_routes_are_counted_per_address(client: TestClient) -> None:
    answers = [client.post("/api/verify", content=b"{}").status_code for _ in range(24)]
    assert 429 in answers and answers[:20].count(429) == 0


# --- 11. the smaller items -----------------------------------------------------------------


def test_a_socket_from_another_site_is_refused(client: TestClient) -> None:
    made = make(client)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/{made['id']}", headers={"origin": "http://evil.example"}
        ) as ws,
    ):
        ws.receive_json()
    assert same_origin({"origin": "http://testserver", "host": "testserver"})
    assert same_origin({"host": "testserver"})  # not a browser page: nothing to check
    assert not same_origin({"origin": "http://evil.example", "host": "testserver"})


def test_no_openapi_and_errors_carry_the_security_headers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert client.get("/openapi.json").status_code == 404

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(hub_of(client).lobby, "_read", broken)
    hub_of(client).lobby.changed()
    with caplog.at_level(logging.DEBUG):
        answer = client.get("/api/tables")
    assert answer.status_code == 500
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert "Traceback" not in caplog.text and "GET /api/tables failed" in caplog.text


def test_hints_are_seeded_apart_from_the_dice(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = make(client, hints=True, seed=77)
    for seat, name in ((0, "Ann"), (1, "Ben")):
        client.post(
            f"/api/tables/{made['id']}/join", json={"token": made["seat"][seat], "name": name}
        )
    client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    hub = hub_of(client)
    seen: list[Any] = []

    async def capture(table: str, function: Any, job: Any) -> str:
        seen.append(job)
        return "advice"

    monkeypatch.setattr(hub.pool, "run", capture)
    assert client.portal is not None
    live = client.portal.call(hub.get, made["id"])
    assert live is not None
    to_act = live.table.to_act()

    async def ask() -> str:
        return await hub.hint(live, to_act)

    assert client.portal.call(ask) == "advice"
    assert seen[0].seed == 77 and seen[0].salt == hub.hint_secret != 77


# --- 6. memory -----------------------------------------------------------------------------


def test_an_idle_finished_table_leaves_memory_and_comes_back_when_asked(
    client: TestClient,
) -> None:
    seats = [{"kind": "bot", "level": "random"}] * 2
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats, "seed": 4}).json()
    host = {"Authorization": f"Bearer {made['host_link'].split('#host=')[1]}"}
    client.post(f"/api/tables/{made['id']}/start", headers=host)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "since": 0}))
        while ws.receive_json().get("status") != "finished":
            pass
    hub = hub_of(client)
    playing = client.post(
        "/api/tables", json={"game": "auweier", "players": 2, "seats": seats, "seed": 5}
    ).json()  # not started: open, and idle too
    assert made["id"] in hub.tables
    gone = hub.upkeep.forget_idle(idle=0.0)
    assert made["id"] in gone and made["id"] not in hub.tables
    assert playing["id"] not in hub.tables  # it was never loaded
    again = client.get(f"/api/tables/{made['id']}").json()
    assert again["status"] == "finished" and made["id"] in hub.tables


def test_a_long_expired_table_is_deleted(client: TestClient) -> None:
    made = make(client)
    hub = hub_of(client)
    later = 2e10
    assert table_store.expire(hub.engine, later) == 1
    assert table_store.delete_expired(hub.engine, later) == 1
    assert table_store.load_table(hub.engine, made["id"]) is None


# --- 1. how a deck was built, through the live server -------------------------------------


def _seat_0_stream(client: TestClient, script: list[str]) -> list[tuple[int, int, int]]:
    """What seat 0's page is sent while seat 1 builds its deck by ``script``: per update,
    its version, how many events and how many of them hidden."""
    made = make(client, "auweier", players=2, seed=8)
    for seat, name in ((0, "Ann"), (1, "Ben")):
        client.post(
            f"/api/tables/{made['id']}/join", json={"token": made["seat"][seat], "name": name}
        )
    client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    seen: list[tuple[int, int, int]] = []
    with (
        client.websocket_connect(f"/ws/{made['id']}") as ann,
        client.websocket_connect(f"/ws/{made['id']}") as ben,
    ):
        ann.send_text(json.dumps({"type": "hello", "token": made["seat"][0], "since": 0}))
        ben.send_text(json.dumps({"type": "hello", "token": made["seat"][1], "since": 0}))
        update = _next_update(ann)
        ann.send_text(
            json.dumps({"type": "move", "text": "deck shuffle", "version": update["version"]})
        )
        own = _next_update(ben)
        while own["to_act"] != 1:
            own = _next_update(ben)
        for text in script:
            ben.send_text(json.dumps({"type": "move", "text": text, "version": own["version"]}))
            own = _next_update(ben)
        ann.send_text(json.dumps({"type": "ping"}))
        message = ann.receive_json()
        while message["type"] != "pong":
            if message["type"] == "update":
                events = message["events"]
                seen.append((message["version"], len(events), sum(e["hidden"] for e in events)))
            message = ann.receive_json()
    return seen


def _next_update(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "update":
            return message
        assert message["type"] not in ("rejected", "error"), message


def test_seat_0_is_sent_the_same_whatever_way_seat_1_builds_its_deck(client: TestClient) -> None:
    streams = {
        name: _seat_0_stream(client, script)
        for name, script in {
            "at once": ["deck shuffle"],
            "five Weddings first": ["deck H"] * 5 + ["deck shuffle"],
            "by hand": ["deck 7 6 5* 4 4 3 3 2* 2 2 1 1 1 F K K H H H H H H"],
        }.items()
    }
    assert len(set(map(tuple, streams.values()))) == 1, streams
    assert streams["at once"][-1][0] == 2  # one version per deck, however it was built


def test_the_server_says_which_build_runs(client: TestClient) -> None:
    about = client.get("/api/about").json()
    assert about["version"] == spieltisch.__version__
    assert about["native"] is spieltisch.native.available()
    assert about["build"] == ("native" if about["native"] else "pure")
    assert "native_core" not in about  # a broken install's reason names the server's paths
