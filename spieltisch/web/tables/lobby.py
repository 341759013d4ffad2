"""The lobby, live: summaries of the newest tables, kept in memory and pushed to every open
lobby page when they change (server-sent events).

A summary names a table's game, player count, options, status, its seats' names and how many
person seats are free: nothing from any game's state, so a summary cannot carry a hidden card.
The summaries are read from the database when a table of this server changes, and at least
every few seconds while lobby pages are open (tables made through another server then appear
too); reading them never takes the writer's lock. Each page's feed is bounded: it holds only
the newest summary not yet sent, and there is a limit on open feeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spieltisch.core.record import option_values
from spieltisch.games import REGISTRY
from spieltisch.web.common.table_rules import ClockMode, TableRules
from spieltisch.web.store.db import PRESENCE, SEATS, TABLES
from spieltisch.web.tables.presence import STALE_AFTER

STATUSES = ("open", "playing", "finished")
ABANDONED = "abandoned"
"""The lobby's list of games being played that their people walked away from."""
REFRESH = 3.0
"""Seconds between reads of the database while lobby pages are open."""
MAX_FEEDS = 500
"""Lobby pages this server feeds at once."""
KEEPALIVE = 20.0
"""Seconds after which an idle feed sends a comment, so that proxies keep it open."""


def lobby_rows(
    engine: Engine, limit: int, now: float | None = None, abandoned_after: float = math.inf
) -> dict[str, list[dict[str, Any]]]:
    """The newest ``limit`` tables of each status, summarised; games being played that were
    walked away from (:func:`walked_away`) are listed apart, as ``abandoned``."""
    found: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as db:
        tables = []
        for status in STATUSES:
            tables += list(
                db.execute(
                    sa.select(TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options,
                              TABLES.c.status, TABLES.c.turn_since, TABLES.c.rules)
                    .where(TABLES.c.status == status)
                    .order_by(TABLES.c.created_at.desc())
                    .limit(limit)
                ).mappings()
            )  # fmt: skip
        ids = [t["id"] for t in tables]
        seats: dict[str, list[Any]] = {i: [] for i in ids}
        if ids:
            for row in db.execute(
                sa.select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.name,
                          SEATS.c.joined)
                .where(SEATS.c.table_id.in_(ids))
                .order_by(SEATS.c.table_id, SEATS.c.seat)
            ).mappings():  # fmt: skip
                seats[row["table_id"]].append(row)
        here = _with_people_here(db, ids, now)
    for status in (*STATUSES, ABANDONED):
        found[status] = []
    for table in tables:
        rows = seats[table["id"]]
        kind = table["status"]
        if (
            kind == "playing"
            and table["id"] not in here
            and walked_away(
                TableRules.from_json(table["rules"]), table["turn_since"], now, abandoned_after
            )
        ):
            kind = ABANDONED
        found[kind].append(
            {
                "id": table["id"],
                "game": table["game"],
                "name": _game_name(table["game"]),
                "players": table["players"],
                "options": option_values(json.loads(table["options"])),
                "status": table["status"],
                "seats_free": sum(1 for s in rows if s["kind"] == "person" and not s["joined"]),
                "names": [s["name"] for s in rows],
            }
        )
    return found


def walked_away(
    rules: TableRules, turn_since: float | None, now: float | None, after: float
) -> bool:
    """Whether a game being played without a clock has gone ``after`` seconds without a move
    (a clock hands a stalled seat to a bot instead); whether anyone is at the table is the
    caller's to add."""
    if now is None or turn_since is None or rules.clock is not ClockMode.NONE:
        return False
    return now - turn_since >= after


def _with_people_here(db: Connection, ids: list[str], now: float | None) -> set[str]:
    """The tables among ``ids`` that a server saw a page of lately."""
    if not ids or now is None:
        return set()
    rows = db.execute(
        sa.select(PRESENCE.c.table_id)
        .where(PRESENCE.c.table_id.in_(ids), PRESENCE.c.connections > 0)
        .where(PRESENCE.c.seen_at >= now - STALE_AFTER)
        .distinct()
    ).all()
    return {row[0] for row in rows}


def _game_name(game_id: str) -> str:
    try:
        return REGISTRY.game_class(game_id).info.name
    except KeyError:
        return game_id


class Lobby:
    """The lobby's summaries and the feeds of the pages that show them."""

    def __init__(self, read: Callable[[], Any], limit: int, refresh: float = REFRESH) -> None:
        self._read = read
        self.limit = limit
        self.refresh = refresh
        self.summary: dict[str, list[dict[str, Any]]] | None = None
        self._text = ""
        self.feeds: set[asyncio.Queue[str]] = set()
        self._dirty = asyncio.Event()
        self._stale = True
        self._reading = asyncio.Lock()

    def changed(self) -> None:
        """A table of this server changed in a way the lobby shows."""
        self._stale = True
        self._dirty.set()

    async def current(self) -> dict[str, list[dict[str, Any]]]:
        """The summaries (read again if a table of this server changed since)."""
        async with self._reading:
            if self.summary is None or self._stale:
                return await self._update()
            return self.summary

    async def update(self) -> dict[str, list[dict[str, Any]]]:
        """Read the summaries again and push them to every feed if they changed."""
        async with self._reading:
            return await self._update()

    async def _update(self) -> dict[str, list[dict[str, Any]]]:
        self._stale = False
        summary: dict[str, list[dict[str, Any]]] = await self._read()
        text = json.dumps(summary, sort_keys=True, ensure_ascii=False)
        self.summary = summary
        if text != self._text:
            self._text = text
            for queue in list(self.feeds):
                _replace(queue, text)
        return summary

    async def run(self) -> None:
        """Keep the summaries current while lobby pages are open (runs until cancelled)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), self.refresh)
            self._dirty.clear()
            if self.feeds or self.summary is not None:
                with contextlib.suppress(Exception):
                    await self.update()

    async def feed(self) -> AsyncIterator[str]:
        """One page's server-sent events: the summaries now, then each change."""
        if len(self.feeds) >= MAX_FEEDS:
            yield "retry: 30000\nevent: busy\ndata: {}\n\n"
            return
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self.feeds.add(queue)
        try:
            await self.current()
            _replace(queue, self._text)
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                yield f"event: tables\ndata: {text}\n\n"
        finally:
            self.feeds.discard(queue)


def _replace(queue: asyncio.Queue[str], text: str) -> None:
    """Leave only ``text`` in ``queue`` (a page needs the newest summary, not every one)."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(text)
