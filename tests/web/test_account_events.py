"""An account's end as an event: the people publish it, the live tables subscribe.

People know nothing of live tables (the rooms' contracts forbid the import); deleting an
account renames its seats in the database and publishes :class:`AccountEnded`, and the hub
shows the new name at the tables it holds in memory.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocketDisconnect

from spieltisch.web.people.events import AccountEnded, AccountEvents
from tests.web.test_api import hello
from tests.web.test_rated import (
    PASSWORD,
    Browser,
    browsers,
    database,
    join,
    make_table,
    sign_in,
    sign_up,
    start,
)

__all__ = ["browsers", "database"]  # the fixtures this module borrows


class Kept(logging.Handler):
    """Keeps the records it is handed (the server's logger may not propagate to the root)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_every_subscriber_hears_the_end_in_turn_even_after_one_fails() -> None:
    events, heard, kept = AccountEvents(), [], Kept()

    async def first(ended: AccountEnded) -> None:
        heard.append(("first", ended.tables))

    async def failing(ended: AccountEnded) -> None:
        raise RuntimeError("a subscriber's trouble")

    async def last(ended: AccountEnded) -> None:
        heard.append(("last", ended.tables))

    for handler in (first, failing, last):
        events.subscribe(handler)
    logger = logging.getLogger("spieltisch.web")
    logger.addHandler(kept)
    try:
        # A thread of its own: a browser test earlier in the run may leave an event loop
        # set on this one, where asyncio.run would refuse to start.
        worker = threading.Thread(
            target=asyncio.run, args=(events.publish(AccountEnded("someone", ("t1", "t2"))),)
        )
        worker.start()
        worker.join(10)
    finally:
        logger.removeHandler(kept)
    assert heard == [("first", ("t1", "t2")), ("last", ("t1", "t2"))]
    assert [r.getMessage() for r in kept.records] == ["account someone ended: a subscriber failed"]


def names_until_pong(ws: Any) -> list[list[str]]:
    """Ping, and the seat names of every ``seats`` message the page gets before the pong."""
    ws.send_json({"type": "ping"})
    seen = []
    while (message := ws.receive_json()).get("type") != "pong":
        if message.get("type") == "seats":
            seen.append([seat["name"] for seat in message["seats"]])
    return seen


def test_a_page_watching_sees_the_former_player_as_soon_as_the_account_ends(
    browsers: Callable[[], Browser],
) -> None:
    """The deletion answers once the subscribers have done their part, so the watching page
    has the new name before anything it asks later (before the start the seat is free again:
    the deleted account's link ended with it)."""
    ann, watcher = browsers(), browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann, game="awimbawe")
    assert join(ann, made, 0, csrf).status_code == 200
    with watcher.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": 0})
        assert names_until_pong(ws)[-1][0] == "Ann"
        deleted = ann.post(
            "/api/account/delete", json={"confirm": "Ann"}, headers={"X-CSRF-Token": csrf}
        )
        assert deleted.status_code == 204, deleted.text
        assert names_until_pong(ws) == [["Seat 1", "Bot Berta"]]


def closed_with(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Every message a page is sent until its socket is closed, and the close's code
    (``None``: it answered a ping instead, so it was not closed)."""
    ws.send_json({"type": "ping"})
    said: list[dict[str, Any]] = []
    while True:
        try:
            message = ws.receive_json()
        except WebSocketDisconnect as closed:
            return said, closed.code
        if message.get("type") == "pong":
            return said, None
        said.append(message)


def still_open(ws: Any) -> bool:
    """Whether the page's socket still answers a ping."""
    ws.send_json({"type": "ping"})
    while ws.receive_json().get("type") != "pong":
        pass
    return True


SIGNED_OUT = {
    "en": "You were signed out, so this page no longer holds your seat: sign in again to play "
    "on, or reload the page to watch.",
}


def test_signing_out_everywhere_closes_the_table_pages_that_hold_a_seat_by_the_account(
    browsers: Callable[[], Browser],
) -> None:
    """A page that holds its seat by the signed-in account (no link) is told why and closed
    when the account signs out everywhere; a page with the seat's link, a spectator and
    another account's page stay."""
    phone, laptop, stranger = browsers(), browsers(), browsers()
    csrf = sign_up(phone, "Ann")
    made = make_table(phone)
    assert join(phone, made, 0, csrf).status_code == 200
    start(phone, made)
    sign_in(laptop, "Ann")
    sign_up(stranger, "Bea")
    table = f"/ws/{made['id']}"
    with (
        laptop.websocket_connect(table) as by_account,
        laptop.websocket_connect(table) as by_link,
        stranger.websocket_connect(table) as watching,
    ):
        assert hello(by_account, None)["seat"] == 0
        assert hello(by_link, made["seat"][0])["seat"] == 0
        assert hello(watching, None)["seat"] is None
        out = phone.post("/api/account/signout-everywhere", headers={"X-CSRF-Token": csrf})
        assert out.status_code == 204, out.text
        said, code = closed_with(by_account)
        assert code == 4403
        assert {"type": "error", "reason": SIGNED_OUT["en"]} in [
            {k: m.get(k) for k in ("type", "reason")} for m in said
        ]
        assert still_open(by_link) and still_open(watching)
    with laptop.websocket_connect(table) as again:  # signed out now: the page watches
        assert hello(again, None)["seat"] is None


def test_a_new_password_closes_the_pages_of_the_other_sessions_only(
    browsers: Callable[[], Browser],
) -> None:
    phone, laptop = browsers(), browsers()
    csrf = sign_up(phone, "Ann")
    made = make_table(phone)
    assert join(phone, made, 0, csrf).status_code == 200
    start(phone, made)
    sign_in(laptop, "Ann")
    table = f"/ws/{made['id']}"
    with phone.websocket_connect(table) as here, laptop.websocket_connect(table) as there:
        assert hello(here, None)["seat"] == 0 and hello(there, None)["seat"] == 0
        body = {"current": PASSWORD, "new": "another long walk home"}
        changed = phone.post("/api/account/password", json=body, headers={"X-CSRF-Token": csrf})
        assert changed.status_code == 200, changed.text
        said, code = closed_with(there)
        assert code == 4403 and any(m.get("type") == "error" for m in said)
        assert still_open(here)  # the session that changed it goes on


def test_the_german_page_is_told_in_german(browsers: Callable[[], Browser]) -> None:
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann)
    assert join(ann, made, 0, csrf).status_code == 200
    with ann.websocket_connect(f"/ws/{made['id']}") as ws:
        assert hello(ws, None, language="de")["seat"] == 0
        ann.post("/api/account/signout-everywhere", headers={"X-CSRF-Token": csrf})
        said, code = closed_with(ws)
        reasons = [m["reason"] for m in said if m.get("type") == "error"]
        assert code == 4403 and reasons and "abgemeldet" in reasons[0]
