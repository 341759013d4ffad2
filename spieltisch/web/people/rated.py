"""How a game ends for the people who played it: each seat's place, kept with the table, and
the ratings of a rated table, settled exactly once.

A table is *rated* when its host says so before the start (:attr:`TableRules.rated`); then
every person seat must be held by a signed-in person (checked when a seat is taken and again
at the start), and every bot seated must be a level on the bot ladder
(:mod:`spieltisch.agents.ladder`), whose rating is fixed: a rated game against bots moves the
people only. When the game ends, :func:`settle` writes the outcome (each seat's place: the
winners first, then by points, a seat that conceded last) and, at a rated table, the new
ratings, in one transaction that also marks the table as settled, so that however many
servers see the end, it counts once.
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
from spieltisch.web.people.ratings import Rating, default_rating, rate_against_fixed
from spieltisch.web.store.db import RATED, RATINGS, TABLES
from spieltisch.web.store.table_store import SeatRow

LOG = logging.getLogger("spieltisch.web")

__all__ = [
    "Outcome",
    "check_rated_bots",
    "ladder_ratings",
    "outcome_of",
    "ranks_of",
    "store_outcome",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: each seat's place (1 is best; equal places share) and the
    winners."""

    ranks: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> str:
        """As the database keeps it."""
        return json.dumps({"ranks": list(self.ranks), "winners": list(self.winners)})

    @classmethod
    def from_json(cls, text: str) -> Outcome:
        """Read a kept outcome."""
        data: Any = json.loads(text)
        return cls(tuple(int(r) for r in data["ranks"]), tuple(int(w) for w in data["winners"]))


def ranks_of(table: Table, left: Collection[int] = ()) -> tuple[int, ...]:
    """Each seat's place in a finished game: the winners share the first place, the others
    follow by their points (more is better); a seat that conceded, or whose person ``left``
    it to a bot, comes after every seat that did not (whatever the bot made of it)."""
    winners = table.winners()
    scores = table.state.scores()
    gone = {seat for seat, _ in table.conceded} | set(left)

    def key(seat: int) -> tuple[int, int, int]:
        return (1 if seat in gone else 0, 0 if seat in winners else 1, -scores[seat])

    keys = [key(seat) for seat in range(table.game.players)]
    return tuple(1 + sum(other < mine for other in keys) for mine in keys)


def outcome_of(table: Table, left: Collection[int] = ()) -> Outcome:
    """The outcome of a finished game (``left``: seats their people gave up to a bot)."""
    return Outcome(ranks_of(table, left), tuple(sorted(table.winners())))


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
    """Keep the outcome and apply the ratings of ``people`` (seat to account) in one
    transaction; False if the table's ratings were settled already (by this server or
    another)."""
    with engine.begin() as connection:
        connection.execute(
            sa.update(TABLES).where(TABLES.c.id == table_id).values(outcome=outcome.to_json())
        )
        if not people:
            return True
        try:
            with connection.begin_nested():
                connection.execute(sa.insert(RATED).values(table_id=table_id, at=time.time()))
        except IntegrityError:
            return False
        _rate(connection, game_id, players, outcome.ranks, people, bots)
    return True


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
