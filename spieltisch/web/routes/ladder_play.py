"""Rated play against the ladder's bots: the lobby's "rated game against the bot of my level".

``POST /api/rated-bot`` makes a rated table of the game and player count asked for, with the
signed-in asker at a random seat (no seat is better by habit) and, at every other, the
ladder's bot whose rating is nearest the asker's (25, the start, for a first game), and starts
it at once; the asker's page then holds the seat by their account.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from spieltisch.agents.ladder import load_ladder
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.table_rules import TableRules
from spieltisch.web.people.profile import ratings_of
from spieltisch.web.routes.bound import table_maker
from spieltisch.web.routes.fields import Field as Text
from spieltisch.web.routes.limits import take_table_allowance
from spieltisch.web.routes.seat_api import hub_of, refusal
from spieltisch.web.routes.signed import signed_in
from spieltisch.web.store.allowances import set_owner
from spieltisch.web.tables.table import SeatPlan

START_MU = 25.0
"""A new player's rating (OpenSkill's default mu)."""


class RatedBotIn(BaseModel):
    """A rated game against the bots of the asker's level."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[Text, Field(max_length=40)]
    players: Annotated[int, Field(ge=2, le=8)]


def rated_bot_api(app: FastAPI) -> None:
    """Register the route."""

    @app.post("/api/rated-bot", status_code=201)
    async def rated_bot(request: Request, body: RatedBotIn) -> dict[str, Any]:
        account = await signed_in(request)
        hub = hub_of(request)
        ladder = load_ladder()
        if not ladder.rungs(body.game, body.players):
            raise HTTPException(404, "the ladder has no bots for this game and player count")
        ratings = await hub.read(ratings_of, hub.reader, account.id)
        mu = next((r[2] for r in ratings if r[:2] == (body.game, body.players)), START_MU)
        level = ladder.level_near(body.game, body.players, mu) or ""
        seat = secrets.randbelow(body.players)
        plans = [
            SeatPlan("person", None) if n == seat else SeatPlan("bot", level)
            for n in range(body.players)
        ]
        try:
            maker = await table_maker(request)  # one allowance of tables across processes
            await take_table_allowance(hub.database, hub.settings, maker.address)
            made = await hub.create(
                body.game, body.players, {}, plans, None, rules=TableRules(rated=True)
            )
            await hub.write(set_owner, hub.engine, made.table_id, f"account:{account.id}")
            live = await hub.get(made.table_id)
            if live is None:
                raise RefusedError("no such table", 404)
            await hub.seating.join(live, made.seat_tokens[seat], account.name, None, account)
            await hub.seating.start(live)
        except RefusedError as refused:
            raise refusal(refused) from None
        hub.lobby.changed()
        return {"id": made.table_id, "link": f"/t/{made.table_id}", "seat": seat, "level": level}
