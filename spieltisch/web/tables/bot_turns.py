"""Bots' turns at a live table: started when a bot (or a stand-in) is to move, thought out in
the fair pool of worker processes, paced, and played as any move is.

Only the server holding the table's lease (:mod:`~spieltisch.web.cluster.leases`) moves its
bots; another asks for the lease and starts the bot when it comes. A bot's move arrives no
sooner than its level's pace after the last move, so how long it thought never tells how many
moves it had to choose from. A move the database refused (a full disk) is tried again after a
growing pause. Each table's jobs count in the pool as its owner's, who made it (as the
database keeps it), so that one address with many tables gets no more of the pool than another
with one; the pool budgets each table's think time as the settings say.
"""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from spieltisch.core.game import Move, PlayerId
from spieltisch.web.cluster.leases import Leases
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.store.allowances import owner_of
from spieltisch.web.tables.bots import choose
from spieltisch.web.tables.pool import MAX_REMEMBERED, FairPool, level_pace
from spieltisch.web.tables.presence import Presence
from spieltisch.web.tables.table import LiveTable
from spieltisch.web.tables.takeover import Takeovers

SAVE_BACKOFF_CAP = 30.0
"""The longest a bot waits before trying again to save a move the database refused."""


class BotHub(Protocol):
    """What the bots' turns need of the hub."""

    settings: Settings
    pool: FairPool
    reader: Engine
    leases: Leases
    presence: Presence
    takeovers: Takeovers

    async def play(self, live: LiveTable, move: Move, seat: PlayerId, version: int) -> None: ...

    async def read(self, function: Any, *args: Any) -> Any: ...

    async def broadcast(self, live: LiveTable) -> None: ...


class BotTurns:
    """The bots of one server's tables."""

    def __init__(self, hub: BotHub) -> None:
        self.hub = hub
        settings = hub.settings
        hub.pool.limit_think_time(settings.bot_seconds_per_minute, settings.bot_seconds_burst)
        self.owners: collections.OrderedDict[str, str] = collections.OrderedDict()
        """Who made each table whose bots moved here lately (as the database says)."""

    async def owner(self, live: LiveTable) -> str:
        """Who made ``live``, as the pool counts it: the owner the database keeps (a rematch's
        is its first table's), else the first account seated, else the table itself. Told to
        the pool, so that hints and analyses count as the owner's too."""
        found = self.owners.get(live.id)
        if found is None:
            kept = await self.hub.read(owner_of, self.hub.reader, live.id)
            accounts = [s.account_id for s in live.seats if s.person and s.account_id]
            found = kept or (f"account:{accounts[0]}" if accounts else f"table:{live.id}")
            self.owners[live.id] = found
            while len(self.owners) > MAX_REMEMBERED:
                self.owners.popitem(last=False)
            self.hub.pool.own(live.id, found)
        return found

    async def _gave_way(self, live: LiveTable, seat: int) -> bool:
        """Whether the bot standing in at ``seat`` gave the seat back to its person, who is at
        the table as their next turn comes (the stand-in finished the turn the clock ran out
        on), if the table's rules say a stand-in gives way."""
        row = live.seats[seat]
        if row.stand_in is None or not live.rules.give_way or seat not in live.played_out:
            return False  # the turn the clock ran out on is the stand-in's to finish
        if not self.hub.presence.connected(live, seat):
            return False
        async with live.lock:
            if live.seats[seat].stand_in is None or live.table.to_act() != seat:
                return False
            await self.hub.takeovers.returned(live, seat)
        await self.hub.broadcast(live)
        return True

    def schedule(self, live: LiveTable) -> None:
        """Start the table's bot, if a bot (or a stand-in) is to move, none thinks yet, and
        this server holds the table's lease (one server moves a table's bots)."""
        if live.status != "playing" or live.table.over:
            return
        seat = live.table.to_act()
        if seat is None or live.seats[seat].playing_level is None:
            return
        if not self.hub.leases.holds(live.id):
            self.hub.leases.want(live.id)  # another server moves it, or none did yet
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.create_task(self._turns(live))

    async def _turns(self, live: LiveTable) -> None:
        hub, failures = self.hub, 0
        while True:
            table = live.table
            seat = table.to_act()
            if (
                live.status != "playing"
                or table.over
                or seat is None
                or not hub.leases.holds(live.id)
            ):
                return
            level = live.seats[seat].playing_level
            if level is None or await self._gave_way(live, seat):
                return
            version = table.version
            owner = await self.owner(live)
            text = await hub.pool.run(live.id, choose, live.bot_job(seat, level), owner)
            # The move arrives no sooner than its level's pace after the last move: how long
            # the bot thought must not tell how many moves it had to choose from. A private
            # run (a deck built by hand) is paced once, at its first step: how many steps it
            # took must not show in how long it took either.
            paced = hub.settings.bot_pause and live.steps.owner != seat
            pace = level_pace(level, hub.settings.bot_pause) if paced else 0
            wait = live.last_move_at + pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            async with live.lock:
                if live.table.version != version or live.seats[seat].playing_level != level:
                    continue  # the table moved on meanwhile (a seat changed hands)
                move = live.table.state.parse(text)
                try:
                    await hub.play(live, move, seat, version)
                    failures = 0
                    if live.seats[seat].stand_in is not None and live.table.to_act() != seat:
                        live.played_out.add(seat)  # its turn played out: next time, give way
                except RefusedError as refused:
                    if refused.status != 503:
                        continue
                    failures += 1  # the move could not be saved (a full disk?): back off
            if failures:
                await asyncio.sleep(min(SAVE_BACKOFF_CAP, 2.0 ** (failures - 1)))
                continue
            await hub.broadcast(live)
