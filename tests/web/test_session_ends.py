"""Ending a session closes every page it authorised, on every server process.

A table page opened without the seat's link holds the seat by the signed-in account's session
(its cookie). Signing out (here or everywhere), a new password (the other sessions) and
deleting the account end sessions; every page a session that ended showed a seat to is told
so and closed, on whichever process it is open, through the same announcements as a revoked
link; and a move such a page sends before its close arrives is refused. Deleting the account
also ends its seats' links. Real server processes (``python -m spieltisch.web``) on one SQLite
file (one process, or two) and on PostgreSQL (two processes; skipped when
``SPIELTISCH_TEST_POSTGRES`` is unset). Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .servers import Server, own_database, running

URL = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
PASSWORD = "a table of friends 42"
BOUND = 5.0
"""Seconds an ended session may take to close a page on another process (the announcements
come within a second; the upkeep's slow look is no part of this)."""
SIGNED_OUT = "You were signed out"

Message = dict[str, Any]
Pair = tuple[Server, Server]
"""Where the page is open (A), and where the session is ended (B): the same process or not."""


@contextmanager
def servers(kind: str, tmp_path: Path) -> Iterator[Pair]:
    if kind == "postgres":
        if not URL:
            pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
        with own_database(URL, "sessions") as url, running(url) as a, running(url) as b:
            yield a, b
        return
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    if kind == "sqlite-one":
        with running(url) as a:
            yield a, a
        return
    with running(url) as a, running(url) as b:
        yield a, b


KINDS = ["sqlite-one", "sqlite-two", "postgres"]


class Person:
    """One browser: its own cookies, at the server ``srv``."""

    def __init__(self, srv: Server) -> None:
        self.srv = srv
        self.http = httpx.Client(base_url=srv.base, timeout=10.0, trust_env=False)
        self.csrf = ""

    def at(self, srv: Server) -> Person:
        """The same browser (its cookie) talking to another process."""
        other = Person(srv)
        other.http.cookies = self.http.cookies
        other.csrf = self.csrf
        return other

    def post(self, path: str, body: object = None, **headers: str) -> httpx.Response:
        sent = {"X-CSRF-Token": self.csrf, **headers}
        return self.http.post(path, json=body, headers=sent)

    def socket(self, table_id: str, token: str | None = None) -> ClientConnection:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = connect(
            f"ws://127.0.0.1:{self.srv.port}/ws/{table_id}", proxy=None, open_timeout=10,
            legacy=True, additional_headers={"Cookie": cookie} if cookie else None,
        )  # fmt: skip
        ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        return ws


def signed_up(srv: Server, name: str) -> Person:
    person = Person(srv)
    answer = person.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    person.csrf = answer.json()["csrf"]
    return person


def table_of(ann: Person) -> Message:
    """A two-person table: seat 0 taken by Ann signed in (bound to her account), seat 1 by
    link; started."""
    srv = ann.srv
    made = srv.http.post(
        "/api/tables",
        json={"game": "awimbawe", "players": 2, "seats": [{"kind": "person"}] * 2, "seed": 7},
    )
    assert made.status_code == 201, made.text
    table: Message = made.json()
    table["host"] = table["host_link"].split("#host=", 1)[1]
    table["tokens"] = {int(s): u.split("#seat=", 1)[1] for s, u in table["seat_links"].items()}
    mine = ann.post(f"/api/tables/{table['id']}/join", {"token": table["tokens"][0], "name": "x"})
    assert mine.status_code == 200 and mine.json()["name"] == "Ann", mine.text
    theirs = srv.http.post(
        f"/api/tables/{table['id']}/join", json={"token": table["tokens"][1], "name": "Bea"}
    )
    assert theirs.status_code == 200, theirs.text
    started = srv.http.post(
        f"/api/tables/{table['id']}/start", headers={"Authorization": f"Bearer {table['host']}"}
    )
    assert started.status_code == 200, started.text
    return table


def until(ws: ClientConnection, wanted: Callable[[Message], bool], deadline: float) -> Message:
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the message did not come in time")
        message: Message = json.loads(ws.recv(timeout=left))
        if wanted(message):
            return message


def update(ws: ClientConnection) -> Message:
    return until(ws, lambda m: m["type"] == "update", time.monotonic() + 10)


def until_closed(ws: ClientConnection, deadline: float) -> tuple[list[Message], int | None]:
    """Every message until the socket closes, and its close code; TimeoutError if it stays
    open past ``deadline``."""
    said: list[Message] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the page was not closed; it was sent {[m['type'] for m in said]}")
        try:
            said.append(json.loads(ws.recv(timeout=left)))
        except ConnectionClosed as closed:
            return said, None if closed.rcvd is None else closed.rcvd.code


def seat0_to_move(mine: ClientConnection, theirs: ClientConnection) -> Message:
    """Play seat 1 (by link) until it is seat 0's turn; seat 0's update then."""
    latest, other = update(mine), update(theirs)
    while latest["to_act"] != 0:
        time.sleep(0.15)
        move = {"type": "move", "id": other["legal"][0]["id"], "version": other["version"]}
        theirs.send(json.dumps(move))
        other = until(theirs, lambda m: m["type"] == "update", time.monotonic() + 10)
        latest = until(mine, lambda m: m["type"] == "update", time.monotonic() + 10)
    return latest


ENDINGS: dict[str, Callable[[Person], httpx.Response]] = {
    "signout-everywhere": lambda ann: ann.post("/api/account/signout-everywhere"),
    "delete": lambda ann: ann.post("/api/account/delete", {"confirm": "Ann"}),
}


@pytest.mark.timeout(180)
@pytest.mark.parametrize("ending", list(ENDINGS))
@pytest.mark.parametrize("kind", KINDS)
def test_ending_the_session_closes_its_pages_on_every_process(
    kind: str, ending: str, tmp_path: Path
) -> None:
    """Ann's page (by her cookie, no link) is open on A; she signs out everywhere, or deletes
    her account, through B: A tells the page and closes it within the bound, and it is never
    sent the seat's next update (Bea's move after the ending)."""
    with servers(kind, tmp_path) as (a, b), ExitStack() as stack:
        ann = signed_up(a, "Ann")
        table = table_of(ann)
        mine = stack.enter_context(ann.socket(table["id"]))
        theirs = stack.enter_context(b.socket(table["id"], table["tokens"][1]))
        first = update(mine)
        assert first["seat"] == 0
        other = update(theirs)
        ended = ENDINGS[ending](ann.at(b))
        assert ended.status_code == 204, ended.text
        said, code = until_closed(mine, time.monotonic() + BOUND)
        reasons = " ".join(str(m.get("reason")) for m in said if m["type"] in ("error", "stale"))
        if ending == "signout-everywhere":
            assert code == 4403 and SIGNED_OUT in reasons, (code, said)
        else:
            assert any(m["type"] in ("error", "stale") for m in said), said
        assert not [m for m in said if m["type"] == "update" and m["version"] > first["version"]]
        if other["to_act"] == 1:  # Bea moves on: the closed page hears nothing of it
            move = {"type": "move", "id": other["legal"][0]["id"], "version": other["version"]}
            theirs.send(json.dumps(move))
            until(theirs, lambda m: m["type"] == "update", time.monotonic() + 10)
        again = stack.enter_context(ann.socket(table["id"]))  # signed out: it watches
        assert update(again)["seat"] is None


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", ["sqlite-one", "postgres"])
def test_a_move_from_a_page_whose_session_ended_is_refused_before_its_close(
    kind: str, tmp_path: Path
) -> None:
    """The session's row goes (as a sign-out on another process, before its announcement
    arrives): the page is still open, but its move is refused (or the page closed as signed
    out, if the server's own check of the sessions comes first) and never stored."""
    with servers(kind, tmp_path) as (a, _), ExitStack() as stack:
        ann = signed_up(a, "Ann")
        table = table_of(ann)
        mine = stack.enter_context(ann.socket(table["id"]))
        theirs = stack.enter_context(a.socket(table["id"], table["tokens"][1]))
        latest = seat0_to_move(mine, theirs)
        url = database_url(a)
        engine = sa.create_engine(url)
        try:
            before = stored_version(engine, table["id"])
            with engine.begin() as db:  # no announcement: only the move's own check can see
                db.execute(sa.text("DELETE FROM sessions"))
            move = {"type": "move", "id": latest["legal"][0]["id"], "version": latest["version"]}
            mine.send(json.dumps(move))
            try:
                answer = until(
                    mine, lambda m: m["type"] in ("rejected", "update"), time.monotonic() + 10
                )
            except ConnectionClosed as closed:
                # the server's own check of the sessions came first and closed the page as
                # signed out (a loaded machine): the move is refused all the same
                assert closed.rcvd is not None and closed.rcvd.code == 4403, closed
            else:
                assert answer["type"] == "rejected", answer
            assert stored_version(engine, table["id"]) == before
        finally:
            engine.dispose()


def database_url(srv: Server) -> str:
    args = srv.process.args
    assert isinstance(args, list)
    return str(args[args.index("--db") + 1])


def stored_version(engine: sa.engine.Engine, table_id: str) -> int:
    with engine.connect() as db:
        found = db.execute(sa.text("SELECT version FROM tables WHERE id = :id"), {"id": table_id})
        return int(found.scalar_one())


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", ["sqlite-two", "postgres"])
def test_signing_out_here_closes_this_session_s_pages_elsewhere(kind: str, tmp_path: Path) -> None:
    """A plain sign-out ends one session: its page on the other process closes; the page of
    Ann's other session (another browser) stays."""
    with servers(kind, tmp_path) as (a, b), ExitStack() as stack:
        ann = signed_up(a, "Ann")
        table = table_of(ann)
        laptop = Person(a)
        signed = laptop.http.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        laptop.csrf = signed.json()["csrf"]
        mine = stack.enter_context(ann.socket(table["id"]))
        kept = stack.enter_context(laptop.socket(table["id"]))
        assert update(mine)["seat"] == 0 and update(kept)["seat"] == 0
        out = ann.at(b).post("/api/account/signout")
        assert out.status_code == 204, out.text
        _, code = until_closed(mine, time.monotonic() + BOUND)
        assert code == 4403
        kept.send(json.dumps({"type": "ping"}))
        until(kept, lambda m: m["type"] == "pong", time.monotonic() + 5)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", ["sqlite-one", "postgres"])
def test_a_deleted_account_s_seat_links_end(kind: str, tmp_path: Path) -> None:
    """Ann took seat 0 signed in; her account is deleted mid-game: the seat's link no longer
    joins (nor renames the seat back) nor opens the seat, and the seat stays a former player's."""
    with servers(kind, tmp_path) as (a, b):
        ann = signed_up(a, "Ann")
        table = table_of(ann)
        gone = ann.at(b).post("/api/account/delete", {"confirm": "Ann"})
        assert gone.status_code == 204, gone.text
        token = table["tokens"][0]
        for srv in (a, b):
            again = srv.http.post(
                f"/api/tables/{table['id']}/join", json={"token": token, "name": "Ann again"}
            )
            assert again.status_code == 403, again.text
            seats = srv.http.get(f"/api/tables/{table['id']}").json()["seats"]
            assert seats[0]["name"] == "former player"
            with srv.socket(table["id"], token) as ws:
                said = until(ws, lambda m: m["type"] in ("stale", "update"), time.monotonic() + 10)
                assert said["type"] == "stale", said
