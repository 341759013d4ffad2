"""Games walked away from: a table without a clock that nobody has moved at for a long while.

A clock hands a stalled seat to a bot; without one, a game whose people went home would sit
under "Being played" for ever. A game being played counts as walked away from when it has no
clock, nobody has moved for :attr:`~spieltisch.web.common.settings.Settings.abandoned_after`
seconds and none of its people is at the table (the lobby lists it apart:
:func:`~spieltisch.web.tables.lobby.walked_away`). Any of its seated people may then end it: it
is kept as ``abandoned``, with no result and no ratings, and its pages are told why.
"""

from __future__ import annotations

from typing import Protocol

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.store import table_store
from spieltisch.web.tables.chat import NOTICE, notice
from spieltisch.web.tables.lobby import Lobby, walked_away
from spieltisch.web.tables.presence import Presence
from spieltisch.web.tables.seats import Seating
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable


class WalkedAwayHub(Services, Protocol):
    """What ending a walked-away game needs of the hub."""

    settings: Settings
    presence: Presence
    seating: Seating
    lobby: Lobby

    async def refresh(self, live: LiveTable) -> None: ...


def is_walked_away(hub: WalkedAwayHub, live: LiveTable, but: int | None = None) -> bool:
    """Whether ``live`` is a game walked away from, leaving out ``but``'s own presence (the
    person asking is at the table to ask)."""
    if live.status != "playing":
        return False
    stale = walked_away(live.rules, live.turn_since, hub.clock.now(), hub.settings.abandoned_after)
    here = [s for s in live.people() if s != but and hub.presence.connected(live, s)]
    return stale and not here


async def end_walked_away(hub: WalkedAwayHub, live: LiveTable, token: object) -> None:
    """A seated person ends a game walked away from; :class:`RefusedError` when it is not.
    Never a rated game (its result counts: leave or concede instead), never by the person whose
    turn it is (they stalled it themselves), and only as the table is stored (a move made
    meanwhile through another server keeps it alive)."""
    await hub.refresh(live)
    seat = hub.seating.person_of(live, token)
    async with live.lock:
        if live.rules.rated:
            raise RefusedError("a rated game counts: leave it or concede it instead", 409)
        if live.table.to_act() == seat:
            raise RefusedError("it is your turn: play on, or leave the table", 409)
        if not is_walked_away(hub, live, but=seat):
            raise RefusedError(
                "only a game without a clock that nobody has moved at for a long while, with "
                "nobody else at the table, can be ended this way", 409,
            )  # fmt: skip
        ended: bool = await hub.write(
            table_store.end_abandoned, hub.engine, live.id, live.committed, live.epoch
        )
        if not ended:
            raise RefusedError("the table moved on meanwhile", 409)
        live.status = "abandoned"
        await hub.note(live, NOTICE, None, notice("ended", name=live.seats[seat].name))
    hub.lobby.changed()
    await hub.broadcast(live)
