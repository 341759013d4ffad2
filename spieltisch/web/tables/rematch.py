"""Everyone lands at the rematch: one new table per finished one, the same people in the same
seats.

Any seated person (or the host) asks; the first to ask makes the rematch, and whoever asks
after is sent to the same table. The new table has the same game, options and house rules;
bots keep their levels; each person seat keeps its person's token, so the link they hold opens
their seat at the new table too, and the host's link stays the host's. Every page open at the
old table is offered the rematch; a person accepts by taking their seat there, and the game
starts as soon as every person has (the host may hand a seat that stays empty to a bot). The
old table links to the new one, so who comes back later finds it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.tokens import matches, new_table_id
from spieltisch.web.store.table_store import SeatRow, set_rematch
from spieltisch.web.tables.chat import NOTICE, notice
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable

MakeTable = Callable[[LiveTable, str, list[SeatRow]], Awaitable[None]]
"""Store a new open table like ``live`` under the given id with these seats."""


def rematch_seats(live: LiveTable) -> list[SeatRow]:
    """The seats of ``live``'s rematch: bots as they were, people keeping their tokens and
    names (not joined until they accept)."""
    seats = []
    for row in live.seats:
        if row.kind == "bot" and row.conceded_at is None:
            seats.append(SeatRow(row.seat, "bot", row.name, row.level, None, True))
        elif row.person:
            seats.append(
                SeatRow(
                    row.seat, "person", row.name, None, row.token_hash, False,
                    token_origin=row.token_origin, account_id=row.account_id,
                )
            )  # fmt: skip
        else:  # a conceded seat played on by a bot: its person may come back to the rematch
            seats.append(SeatRow(row.seat, "person", row.name, None, None, False))
    return seats


class Rematches:
    """The rematches of one server's tables."""

    def __init__(self, services: Services, make: MakeTable) -> None:
        self.services = services
        self.make = make

    async def ask(self, live: LiveTable, token: object, host: object) -> str:
        """The rematch of finished ``live``, made if it has none yet; asked by a seated
        person (``token``) or the host. Its id."""
        seat = live.seat_of(token)
        if seat is None and not matches(host, live.host_hash):
            raise RefusedError("only the people at the table or its host ask for a rematch", 403)
        if live.status != "finished":
            raise RefusedError("a rematch follows a finished game", 409)
        if live.rematch is not None:
            return live.rematch
        async with live.lock:
            if live.rematch is None:
                wanted = new_table_id()
                found = await self.services.write(
                    set_rematch, self.services.engine, live.id, wanted
                )
                if found == wanted:
                    await self.make(live, wanted, rematch_seats(live))
                live.rematch = found
                who = live.seats[seat].name if seat is not None else None
                await self.services.note(live, NOTICE, None, notice("rematch", table=found, by=who))
            self.offer(live)
        return live.rematch

    def offer(self, live: LiveTable) -> None:
        """Offer every page open at ``live`` its rematch."""
        if live.rematch is None:
            return
        for connection in list(live.connections):
            connection.send({"type": "rematch", "table": live.rematch, "version": live.shown})
