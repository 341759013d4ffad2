"""An account's end as an event: the people publish it, the live tables subscribe.

People know nothing of live tables (the rooms' contracts forbid the import); deleting an
account renames its seats in the database and publishes :class:`AccountEnded`, and the hub
shows the new name at the tables it holds in memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from spieltisch.web.people.events import AccountEnded, AccountEvents
from tests.web.test_rated import Browser, browsers, database, join, make_table, sign_up

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
        asyncio.run(events.publish(AccountEnded("someone", ("t1", "t2"))))
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
    has the new name before anything it asks later."""
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
        assert names_until_pong(ws) == [["former player", "Bot Berta"]]
