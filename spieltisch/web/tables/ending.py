"""How a game ends at a live table: its outcome kept and, at a rated table, its ratings settled.

The outcome and the rating math are the people's (:mod:`~spieltisch.web.people.rated`); this
is the table's side: when a table in memory has finished, :func:`settle` reads who held each
seat and hands that to them, on the hub's writer. The game's end is committed with its last
moves, and the settling afterwards in a transaction of its own that marks the table settled:
a server that dies between the two (or a settling that fails) leaves the table owed, and
:func:`settle_owed`, run when a server starts, settles every owed table from what is stored.
Settling twice changes nothing.
"""

from __future__ import annotations

import logging

from spieltisch.web.people.rated import ladder_ratings, outcome_of, owed_tables, store_outcome
from spieltisch.web.store.table_store import load_table
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable, rebuild

LOG = logging.getLogger("spieltisch.web")


async def settle(services: Services, live: LiveTable) -> bool:
    """Keep a finished table's outcome and, if it is rated, settle its ratings (once). False
    if it was settled already, or could not be now (it stays owed: logged, and settled when a
    server starts)."""
    if live.status != "finished" or not live.table.over:
        return False
    people = {s.seat: s.account_id for s in live.seats if s.account_id is not None}
    # A seat a bot plays for good that still names its person's account was given up by them
    # (they left or conceded): a host can no longer hand away a seat of a rated game.
    left = [s.seat for s in live.seats if s.kind == "bot" and s.account_id is not None]
    outcome = outcome_of(live.table, left)
    bots = ladder_ratings(live.game.info.id, live.game.players, live.seats, people)
    rated = live.rules.rated and bots is not None
    if live.rules.rated and bots is None:
        LOG.warning("table %s: a seat is neither signed in nor a ladder bot; not rated", live.id)
    try:
        done: bool = await services.write(
            store_outcome, services.engine, live.id, live.game.info.id, live.game.players,
            outcome, people if rated else {}, bots or {},
        )  # fmt: skip
    except Exception as error:  # the game's end is stored: its settling is owed, not lost
        LOG.error("table %s: settling failed (%s); owed until a server starts", live.id, error)
        return False
    return done


async def settle_owed(services: Services) -> int:
    """Settle every finished rated table whose settling is owed (its server died between the
    end and the settling), each from its stored moves and seats; how many were settled now."""
    count = 0
    for table_id in await services.read(owed_tables, services.reader):
        row = await services.read(load_table, services.reader, table_id)
        if row is None:
            continue
        try:
            live = rebuild(row)
        except Exception as error:  # a damaged table must not keep a server from starting
            LOG.error("table %s: cannot be replayed to settle it (%s)", table_id, error)
            continue
        if await settle(services, live):
            LOG.info("table %s: its owed ratings are settled", table_id)
            count += 1
    return count
