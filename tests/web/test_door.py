"""What the door refuses, on real server processes, on SQLite and on PostgreSQL.

- A control character (NUL among them) in a path, a query or a body's text: 400 at the door
  on every route that takes a name or an id, and a socket closed before it is accepted;
  never a 500 (PostgreSQL refuses NUL in text).
- Names the server gives seats itself, in every language it speaks (``former player``, a free
  seat's ``Seat 2`` / ``Platz 2``, a bot's, chance's): no person takes one, at a seat or as an
  account.
- A socket's ``Origin`` is matched against ``X-Forwarded-Host`` only with ``--trust-proxy``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import WebSocketRoute
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app

from .servers import Server, own_database, running

URL = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
PASSWORD = "a table of friends 42"
NUL = "A%00B"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    if request.param == "postgres":
        if not URL:
            pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
        with own_database(URL, "door") as url, running(url) as made:
            yield made
        return
    folder = tmp_path_factory.mktemp("door")
    with running(f"sqlite:///{folder / 'door.db'}") as made:
        yield made


def routes() -> list[tuple[str, str]]:
    """Every route with a parameter in its path (a name or an id), each with a NUL there,
    and its methods."""
    app = create_app(Settings(database="sqlite:///:memory:"))
    found = []
    for route in app.routes:
        if isinstance(route, APIRoute) and "{" in route.path:
            path = re.sub(r"\{[^}]+\}", NUL, route.path)
            found += [(method, path) for method in sorted(route.methods or ()) if method != "HEAD"]
    return found


def sockets() -> list[str]:
    app = create_app(Settings(database="sqlite:///:memory:"))
    return [
        re.sub(r"\{[^}]+\}", NUL, r.path)
        for r in app.routes
        if isinstance(r, WebSocketRoute) and "{" in r.path
    ]


def test_every_route_with_a_name_or_an_id_refuses_a_nul_at_the_door(srv: Server) -> None:
    found = routes()
    assert any("players" in path for _, path in found) and len(found) > 20
    wrong = {}
    for method, path in found:
        answer = srv.http.request(method, path, json={} if method == "POST" else None)
        if answer.status_code != 400 or "not allowed" not in answer.text:
            wrong[f"{method} {path}"] = (answer.status_code, answer.text[:80])
    assert not wrong, wrong
    for name in ("A%01B", "A%7FB", "A%C2%85B", "A%0AB"):  # other control characters too
        answer = srv.http.get(f"/api/players/{name}")
        assert answer.status_code == 400, (name, answer.text)


def test_a_socket_with_a_nul_in_its_path_is_closed_before_it_is_accepted(srv: Server) -> None:
    for path in sockets():
        address = f"ws://127.0.0.1:{srv.port}{path}"
        with (
            pytest.raises(InvalidStatus),  # closed before it is accepted: never opened
            connect(address, proxy=None, open_timeout=10) as ws,
        ):
            ws.send(json.dumps({"type": "hello", "token": None, "since": 0}))
            ws.recv(timeout=10)


def test_a_query_with_a_control_character_is_refused(srv: Server) -> None:
    for path in ("/?lang=%00", "/api/tables/abc/replay?lang=de%00", "/t/x?a=%1b", "/?%00=1"):
        answer = srv.http.get(path)
        assert answer.status_code == 400, (path, answer.text)


def body_with(field: str, value: str, **rest: Any) -> bytes:
    return json.dumps({field: value, **rest}).encode()


def test_a_body_s_text_with_a_control_character_is_refused(srv: Server) -> None:
    """Sign-in, sign-up, a seat's name, the passkey routes: 400 at the door, never a 500."""
    made = srv.http.post(
        "/api/tables", json={"game": "awimbawe", "players": 2, "seats": [{"kind": "person"}] * 2}
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    token = made.json()["seat_links"]["0"].split("#seat=", 1)[1]
    sent = {
        "/api/account/signin": body_with("name", "A\x00B", password=PASSWORD),
        "/api/account/signup": body_with("name", "A\x00B", password=PASSWORD),
        f"/api/tables/{table}/join": body_with("name", "A\x00B", token=token),
        "/api/account/passkeys/remove": body_with("id", "A\x00B"),
        "/api/account/passkeys/signin/options": body_with("name", "A\x00B"),
    }
    for path, body in sent.items():
        for spelt in (body, body.replace(b"\\u0000", b"\\n"), body.replace(b"\\u0000", b"\x01")):
            answer = srv.http.post(
                path, content=spelt, headers={"Content-Type": "application/json"}
            )
            assert answer.status_code == 400, (path, spelt, answer.status_code, answer.text)
    fine = srv.http.post(  # an escaped backslash before a u is no control character
        "/api/account/signin",
        content=body_with("name", "A\\u0000B", password=PASSWORD),
        headers={"Content-Type": "application/json"},
    )
    assert fine.status_code == 401, fine.text


RESERVED = [
    "former player", "Former  Player", "Seat 2", "seat 1", "SEAT 12", "Platz 1", "platz 3",
    "Bot Anton", "bot berta", "Zufall", "Chance",
]  # fmt: skip


def test_names_the_server_gives_seats_are_refused_at_a_seat_and_as_an_account(
    srv: Server,
) -> None:
    made = srv.http.post(
        "/api/tables", json={"game": "awimbawe", "players": 2, "seats": [{"kind": "person"}] * 2}
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    token = made.json()["seat_links"]["1"].split("#seat=", 1)[1]
    for name in RESERVED:
        joined = srv.http.post(f"/api/tables/{table}/join", json={"token": token, "name": name})
        assert joined.status_code == 400, (name, joined.text)
    for name in RESERVED[::2]:  # (sign-ups from one address are counted: not all of them)
        with httpx.Client(base_url=srv.base, trust_env=False) as browser:
            signed = browser.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 422, (name, signed.text)
    german = srv.http.post(
        f"/api/tables/{table}/join",
        json={"token": token, "name": "Platz 2"},
        headers={"Accept-Language": "de"},
    )
    assert german.status_code == 400 and "Platz" in german.json()["detail"], german.text
    fine = srv.http.post(f"/api/tables/{table}/join", json={"token": token, "name": "Platzhirsch"})
    assert fine.status_code == 200, fine.text


@contextmanager
def serving(folder: Path, *extra: str) -> Iterator[str]:
    """A server process (SQLite) with ``extra`` arguments; its address (host and port)."""
    with running(f"sqlite:///{folder / 'probe.db'}") as probe:
        port = probe.port  # a free port: the probe is gone before ours starts
    command = [
        sys.executable, "-m", "spieltisch.web", "--db", f"sqlite:///{folder / 'origin.db'}",
        "--port", str(port), "--bot-workers", "1", *extra,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None and time.monotonic() < deadline, "no server"
            with suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/api/games", trust_env=False).is_success:
                    break
            time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        with suppress(subprocess.TimeoutExpired):
            process.wait(15)
        if process.poll() is None:
            process.kill()


def opened(address: str, table: str) -> bool:
    """Whether a page of ``evil.example`` that names itself in ``X-Forwarded-Host`` may open
    the table's socket."""
    headers = {"Origin": "http://evil.example", "X-Forwarded-Host": "evil.example"}
    try:
        with connect(
            f"ws://{address}/ws/{table}", proxy=None, open_timeout=10, additional_headers=headers
        ) as ws:
            ws.send(json.dumps({"type": "hello", "token": None, "since": 0}))
            said: dict[str, Any] = json.loads(ws.recv(timeout=10))
            return bool(said["type"] == "update")
    except (InvalidStatus, ConnectionClosed):
        return False


@pytest.mark.timeout(120)
@pytest.mark.parametrize("trusted", [False, True])
def test_the_socket_s_origin_check_believes_x_forwarded_host_only_behind_a_trusted_proxy(
    tmp_path: Path, trusted: bool
) -> None:
    with serving(tmp_path, *(["--trust-proxy"] if trusted else [])) as address:
        made = httpx.post(
            f"http://{address}/api/tables",
            json={"game": "awimbawe", "players": 2, "seats": [{"kind": "bot"}] * 2},
            trust_env=False,
        )
        assert made.status_code == 201, made.text
        assert opened(address, made.json()["id"]) is trusted
