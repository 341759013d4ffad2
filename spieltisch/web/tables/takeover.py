"""Nobody stalls a table: a seat out of time or away too long is played by a stand-in bot.

What happens is the table's choice (:class:`~spieltisch.web.common.table_rules.Takeover`): a bot
stands in at once, or the other people at the table may vote for it, any of them starting the
vote (the host is not special). A stand-in is announced, plays with the seat's view like any
bot, and leaves the moment its person comes back (their link still holds the seat). A vote
passes when more than half of the people who could vote say yes, and fails when half or more
say no; it ends when its seat's person comes back.

A rated game's seats change hands only by their own people (leave, concede) and by the
clock they all agreed to when they sat down: nobody votes another person's seat away there,
and a seat out of time or away past the grace gets its stand-in at once, whatever the table
says of votes. That stand-in plays *for* its person: the seat's result is theirs
(:mod:`spieltisch.web.people.rated`).
"""

from __future__ import annotations

from dataclasses import replace

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from spieltisch.agents import agent_names
from spieltisch.core.words import N_
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.table_rules import TableRules, Takeover
from spieltisch.web.store.db import VOTES
from spieltisch.web.store.table_store import set_turn_since, update_seat
from spieltisch.web.tables import clock as timing
from spieltisch.web.tables.chat import NOTICE, notice
from spieltisch.web.tables.presence import Presence
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable


def stand_in_level(live: LiveTable) -> str:
    """The bot that stands in for an absent person: the game's strongest."""
    return agent_names(live.game)[0]


def takeover_of(rules: TableRules) -> Takeover:
    """What happens to a seat out of time or away too long: the table's choice, except at a
    rated table, where the clock alone decides (a stand-in at once; nobody votes)."""
    return Takeover.BOT if rules.rated else rules.takeover


RATED_NO_VOTE = N_(
    "a rated game's seats change hands only by their own people or by the clock: nobody votes "
    "on another's seat"
)
"""Why a vote on a seat of a rated game is refused."""


class Takeovers:
    """Stand-ins and votes at the tables of one server."""

    def __init__(self, services: Services, presence: Presence) -> None:
        self.services = services
        self.presence = presence

    async def check(self, live: LiveTable) -> None:
        """Act on the seat to move if it is due: seat a stand-in, or open the vote; a seat no
        longer due (it moved, or came back) is no longer open to a vote."""
        async with live.lock:
            changed = False
            to_act = live.table.to_act() if live.status == "playing" else None
            why = None
            if to_act is not None:
                why = timing.due(
                    live.seats[to_act], live.rules, to_act, live.turn_since,
                    live.away_since.get(to_act), self.services.clock.now(),
                )  # fmt: skip
            for seat in [s for s in live.votable if s != to_act or why is None]:
                live.votable.pop(seat)
                if live.votes.pop(seat, None) is not None:
                    await self.services.write(clear_votes, self.services.engine, live.id, seat)
                changed = True
            if to_act is not None and why is not None:
                if takeover_of(live.rules) is Takeover.BOT:
                    await self.stand_in(live, to_act, why)
                    changed = True
                elif live.votable.get(to_act) != why:
                    live.votable[to_act] = why
                    changed = True
        if changed:
            await self.services.broadcast(live)
            self.services.schedule(live)

    async def stand_in(self, live: LiveTable, seat: int, why: str) -> None:
        """Seat a stand-in bot for ``seat`` (the caller holds the table's lock)."""
        row = live.seats[seat]
        if row.stand_in is not None or not row.person:
            return
        standing = replace(row, stand_in=stand_in_level(live))
        await self.services.write(update_seat, self.services.engine, live.id, standing)
        live.seats[seat] = standing
        live.votable.pop(seat, None)
        live.votes.pop(seat, None)
        await self.services.write(clear_votes, self.services.engine, live.id, seat)
        await self.services.note(live, NOTICE, None, notice(f"standin.{why}", name=row.name))

    async def returned(self, live: LiveTable, seat: int) -> bool:
        """``seat``'s person is back: the stand-in leaves, any vote on them ends (the caller
        holds the lock). True if anything changed."""
        row = live.seats[seat]
        voting = seat in live.votable or seat in live.votes
        live.played_out.discard(seat)
        live.votable.pop(seat, None)
        if live.votes.pop(seat, None) is not None:
            await self.services.write(clear_votes, self.services.engine, live.id, seat)
        if row.stand_in is None:
            return voting
        again = timing.back(row, live.rules)
        await self.services.write(update_seat, self.services.engine, live.id, again)
        live.seats[seat] = again
        if live.status == "playing" and live.table.to_act() == seat:
            # Back on their own turn: its clock runs from now, from the bank they came back
            # with (else the time the stand-in had already used would put it in again at once).
            now = self.services.clock.now()
            await self.services.write(set_turn_since, self.services.engine, live.id, now)
            live.turn_since = now
        await self.services.note(live, NOTICE, None, notice("back", name=row.name))
        return True

    def voters(self, live: LiveTable, seat: int) -> list[int]:
        """Who may vote on handing ``seat`` to a bot: the other people, present ones."""
        return [p for p in live.people() if p != seat and live.seats[p].stand_in is None]

    async def vote(self, live: LiveTable, voter: int, seat: int, yes: bool) -> str:
        """``voter``'s vote on handing ``seat`` to a bot (a first yes starts the vote); what
        it came to: ``open``, ``passed`` or ``failed``."""
        async with live.lock:
            if live.rules.rated:
                raise RefusedError(RATED_NO_VOTE, 403)
            if type(seat) is not int or not 0 <= seat < len(live.seats):
                raise RefusedError("no seat {seat} at this table", params={"seat": str(seat)[:20]})
            if seat not in live.votable:
                raise RefusedError("that seat is neither out of time nor away too long", 409)
            eligible = self.voters(live, seat)
            if voter not in eligible:
                raise RefusedError("only the other people at the table vote on a seat", 403)
            ballots = live.votes.setdefault(seat, {})
            if not ballots and not yes:
                raise RefusedError("a vote starts with a yes", 409)
            ballots[voter] = bool(yes)
            now = self.services.clock.now()
            await self.services.write(
                cast_vote, self.services.engine, live.id, seat, voter, yes, now
            )
            result = tally(ballots, len(eligible))
            name = live.seats[seat].name
            if result == "passed":
                await self.stand_in(live, seat, "vote")
            elif result == "failed":
                live.votes.pop(seat, None)
                await self.services.write(clear_votes, self.services.engine, live.id, seat)
                await self.services.note(live, NOTICE, None, notice("vote.failed", name=name))
            elif len(ballots) == 1:
                starter = live.seats[voter].name
                await self.services.note(
                    live, NOTICE, None, notice("vote.started", name=name, by=starter)
                )
        await self.services.broadcast(live)
        self.services.schedule(live)
        return result

    def votes_json(self, live: LiveTable) -> list[dict[str, object]]:
        """The seats open to a vote, and how each vote stands, as pages show them."""
        return [
            {
                "seat": seat,
                "why": why,
                "yes": sorted(v for v, yes in live.votes.get(seat, {}).items() if yes),
                "no": sorted(v for v, yes in live.votes.get(seat, {}).items() if not yes),
                "voters": self.voters(live, seat),
            }
            for seat, why in sorted(live.votable.items())
        ]


def tally(ballots: dict[int, bool], eligible: int) -> str:
    """``passed`` with more than half of ``eligible`` for, ``failed`` with half or more
    against, else ``open``."""
    yes = sum(1 for v in ballots.values() if v)
    no = len(ballots) - yes
    if 2 * yes > eligible:
        return "passed"
    if 2 * no >= eligible:
        return "failed"
    return "open"


# --- kept in the database -------------------------------------------------------------------


def cast_vote(engine: Engine, table_id: str, seat: int, voter: int, yes: bool, at: float) -> None:
    """Keep one vote (a voter who votes again changes their vote)."""
    with engine.begin() as db:
        db.execute(
            VOTES.delete().where(
                VOTES.c.table_id == table_id, VOTES.c.seat == seat, VOTES.c.voter == voter
            )
        )
        db.execute(VOTES.insert().values(table_id=table_id, seat=seat, voter=voter, yes=yes, at=at))


def clear_votes(engine: Engine, table_id: str, seat: int) -> None:
    """Forget the votes on ``seat``."""
    with engine.begin() as db:
        db.execute(VOTES.delete().where(VOTES.c.table_id == table_id, VOTES.c.seat == seat))


def load_votes(engine: Engine, table_id: str) -> dict[int, dict[int, bool]]:
    """The votes kept for a table: per seat, each voter's yes or no."""
    found: dict[int, dict[int, bool]] = {}
    with engine.connect() as db:
        for seat, voter, yes in db.execute(
            sa.select(VOTES.c.seat, VOTES.c.voter, VOTES.c.yes).where(VOTES.c.table_id == table_id)
        ):
            found.setdefault(int(seat), {})[int(voter)] = bool(yes)
    return found
