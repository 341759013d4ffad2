"""How a game ends for the people who played it: each seat's place, kept with the table, and
the ratings of a rated table, settled exactly once.

A table is *rated* when its host says so before the start (:attr:`TableRules.rated`); then
every person seat must be held by a signed-in person (checked when a seat is taken and again
at the start), and every bot seated must be a level on the bot ladder
(:mod:`spieltisch.agents.ladder`), whose rating is fixed: a rated game against bots moves the
people only.

The rulings (:func:`ranks_of`): the winners share the first place and the others follow by
their points; a seat whose person conceded or left it comes after every seat still played
(its bot's result is not theirs: giving up is a loss); a stand-in that played for a person
whose clock ran out (or who stayed away past the grace) played *for* them, so the seat's place
is the person's, a win included. Whoever is placed first won (:attr:`Outcome.winners`).

When the game ends, :func:`store_outcome` writes the outcome and, at a rated table, the new
ratings, in one transaction that also marks the table as settled (a row of ``rated``), so that
however many servers see the end, and however often, it counts once. The end itself is
committed with the last moves; what is owed follows from what is stored (a finished rated
table with no outcome and no ``rated`` row: :func:`owed_tables`), so a server that dies
between the two settles it when it starts again.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spieltisch.agents.ladder import load_ladder
from spieltisch.core.words import N_
from spieltisch.session import Table
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.table_rules import TableRules
from spieltisch.web.people.ratings import Rating, default_rating, rate_against_fixed
from spieltisch.web.store.db import RATED, RATINGS, TABLES
from spieltisch.web.store.table_store import SeatRow

LOG = logging.getLogger("spieltisch.web")

__all__ = [
    "Outcome",
    "check_rated_bots",
    "ladder_ratings",
    "of_ranks",
    "outcome_of",
    "owed_tables",
    "ranks_of",
    "settled",
    "store_outcome",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: each seat's place (1 is best; equal places share) and the
    winners, who are exactly the seats placed first."""

    ranks: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> str:
        """As the database keeps it."""
        return json.dumps({"ranks": list(self.ranks), "winners": list(self.winners)})

    @classmethod
    def from_json(cls, text: str) -> Outcome:
        """Read a kept outcome (its winners are the seats placed first, whatever an older
        version kept beside the places)."""
        data: Any = json.loads(text)
        return of_ranks(tuple(int(r) for r in data["ranks"]))


def of_ranks(ranks: Sequence[int]) -> Outcome:
    """The outcome of these places: the seats placed first won."""
    return Outcome(tuple(ranks), tuple(seat for seat, rank in enumerate(ranks) if rank == 1))


def ranks_of(table: Table, left: Collection[int] = ()) -> tuple[int, ...]:
    """Each seat's place in a finished game: the winners share the first place, the others
    follow by their points (more is better); a seat that conceded, or whose person ``left``
    it to a bot, comes after every seat that did not (whatever the bot made of it: giving up
    is a loss). A stand-in's result is its person's: it is no seat's leaving."""
    winners = table.winners()
    scores = table.state.scores()
    gone = {seat for seat, _ in table.conceded} | set(left)

    def key(seat: int) -> tuple[int, int, int]:
        won = seat in winners
        return (1 if seat in gone else 0, 0 if won else 1, 0 if won else -scores[seat])

    keys = [key(seat) for seat in range(table.game.players)]
    return tuple(1 + sum(other < mine for other in keys) for mine in keys)


def outcome_of(table: Table, left: Collection[int] = ()) -> Outcome:
    """The outcome of a finished game (``left``: seats their people gave up to a bot)."""
    return of_ranks(ranks_of(table, left))


def check_rated_bots(game_id: str, players: int, levels: Sequence[str]) -> None:
    """Refuse a rated table whose bots are not all on the ladder (their rating would be a
    guess: a time budget's strength depends on the machine)."""
    ladder = load_ladder()
    for level in levels:
        if ladder.rung(game_id, players, level) is None:
            raise RefusedError(
                N_("a rated table seats only bots on the ladder, and {level} is not on it"),
                422, params={"level": level},
            )  # fmt: skip


def ladder_ratings(
    game_id: str, players: int, seats: Sequence[SeatRow], people: Mapping[int, str]
) -> dict[int, Rating] | None:
    """The fixed ratings of the seats no account holds (their bots' ladder ratings), or
    ``None`` if one cannot be rated (no account and no bot on the ladder)."""
    ladder = load_ladder()
    fixed = {}
    for seat in seats:
        if seat.seat in people:
            continue
        rung = None if seat.level is None else ladder.rung(game_id, players, seat.level)
        if rung is None:
            return None
        fixed[seat.seat] = Rating(rung.mu, rung.sigma, rung.games)
    return fixed


def store_outcome(
    engine: Engine, table_id: str, game_id: str, players: int, outcome: Outcome,
    people: Mapping[int, str], bots: Mapping[int, Rating],
) -> bool:  # fmt: skip
    """Settle a finished table: keep its outcome and apply the ratings of ``people`` (seat to
    account; none: an unrated table) in one transaction that marks it settled. False, and
    nothing changed, if it was settled already (by this server or another): settling twice
    changes nothing."""
    with engine.begin() as connection:
        kept = sa.update(TABLES).where(TABLES.c.id == table_id)
        if not people:  # compare-and-set: only the first outcome kept counts
            done = connection.execute(
                kept.where(TABLES.c.outcome.is_(None)).values(outcome=outcome.to_json())
            )
            return bool(done.rowcount)
        try:
            with connection.begin_nested():
                connection.execute(sa.insert(RATED).values(table_id=table_id, at=time.time()))
        except IntegrityError:
            return False  # nothing written: the savepoint took the insert back
        connection.execute(kept.values(outcome=outcome.to_json()))
        _rate(connection, game_id, players, outcome.ranks, people, bots)
    return True


def owed_tables(engine: Engine) -> list[str]:
    """The finished rated tables whose ratings were never settled (a server died between the
    game's end, committed with its last moves, and the settling)."""
    applied = sa.exists().where(RATED.c.table_id == TABLES.c.id)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(TABLES.c.id, TABLES.c.rules)
            .where(TABLES.c.status == "finished", TABLES.c.outcome.is_(None))
            .where(TABLES.c.rules.contains("rated"), ~applied)
            .order_by(TABLES.c.finished_at)
        ).all()
    return [str(r.id) for r in rows if TableRules.from_json(r.rules).rated]


def settled(connection: Connection, table_id: str) -> bool:
    """Whether a finished table is settled, or needs no settling: an unrated table, or a
    rated one whose ratings were applied (or that could not be rated and kept its outcome)."""
    row = connection.execute(
        sa.select(TABLES.c.rules, TABLES.c.outcome).where(TABLES.c.id == table_id)
    ).first()
    if row is None or row.outcome is not None or not TableRules.from_json(row.rules).rated:
        return True
    found = connection.execute(sa.select(RATED.c.table_id).where(RATED.c.table_id == table_id))
    return found.first() is not None


def _rate(
    connection: Connection, game_id: str, players: int, ranks: Sequence[int],
    people: Mapping[int, str], bots: Mapping[int, Rating],
) -> None:  # fmt: skip
    """Move the people's ratings by the game (the bots' stay as the ladder has them)."""
    now = {seat: _read(connection, account, game_id, players) for seat, account in people.items()}
    new = rate_against_fixed(
        {seat: rating for seat, (rating, _) in now.items()}, bots,
        {seat: float(ranks[seat]) for seat in range(len(ranks))},
    )  # fmt: skip
    stamp = time.time()
    for seat, account in people.items():
        rating, stored = new[seat], now[seat][1]
        values = {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
            "updated_at": stamp,
        }
        key = (RATINGS.c.account_id == account) & (RATINGS.c.game == game_id)
        key &= RATINGS.c.players == players
        if stored:
            connection.execute(sa.update(RATINGS).where(key).values(**values))
        else:
            connection.execute(
                sa.insert(RATINGS).values(
                    account_id=account, game=game_id, players=players, **values
                )
            )


def _read(connection: Connection, account: str, game_id: str, players: int) -> tuple[Rating, bool]:
    """An account's rating (locked for this transaction), and whether it was stored."""
    row = connection.execute(
        sa.select(RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
        .where(RATINGS.c.account_id == account, RATINGS.c.game == game_id)
        .where(RATINGS.c.players == players)
        .with_for_update()
    ).first()
    if row is None:
        return default_rating(), False
    return Rating(row.mu, row.sigma, row.games), True
