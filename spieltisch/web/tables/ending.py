"""How a game ends at a live table: its outcome kept and, at a rated table, its ratings settled.

The outcome and the rating math are the people's (:mod:`~spieltisch.web.people.rated`); this
is the table's side: when a table in memory has finished, :func:`settle` reads who held each
seat and hands that to them, on the hub's writer.
"""

from __future__ import annotations

import logging

from spieltisch.web.people.rated import ladder_ratings, outcome_of, store_outcome
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable

LOG = logging.getLogger("spieltisch.web")


async def settle(services: Services, live: LiveTable) -> None:
    """Keep a finished table's outcome and, if it is rated, settle its ratings (once)."""
    if live.status != "finished" or not live.table.over:
        return
    people = {s.seat: s.account_id for s in live.seats if s.account_id is not None}
    left = [s.seat for s in live.seats if s.kind == "bot" and s.account_id is not None]
    outcome = outcome_of(live.table, left)
    bots = ladder_ratings(live.game.info.id, live.game.players, live.seats, people)
    rated = live.rules.rated and bots is not None
    if live.rules.rated and bots is None:
        LOG.warning("table %s: a seat is neither signed in nor a ladder bot; not rated", live.id)
    await services.write(
        store_outcome, services.engine, live.id, live.game.info.id, live.game.players,
        outcome, people if rated else {}, bots or {},
    )  # fmt: skip
