"""A player's games as the database keeps them: their tables, records, outcomes and ratings,
the leaderboards, and what deleting an account does to its games.

Read by the player pages (:mod:`spieltisch.web.routes.players`) and the account routes; nothing here
reads a game's state: a history holds a table's id, game, seat and outcome, never a view.
``forget_player`` lets a deleted account's games stay, played by a "former player".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

import spieltisch
from spieltisch.core.record import Record
from spieltisch.session import Table
from spieltisch.web.common.table_rules import TableRules
from spieltisch.web.people.accounts import FORMER_PLAYER, name_key
from spieltisch.web.people.rated import Outcome, outcome_of, settled
from spieltisch.web.store.db import ACCOUNTS, RATINGS, SEATS, TABLES

MIN_GAMES = 5
"""Rated games a player needs to appear on a leaderboard."""
HISTORY_LIMIT = 200
"""The most games a profile lists (the newest)."""
BOARD_LIMIT = 100
"""The most players a leaderboard lists."""
EXPORT_LIMIT = 5000
"""The most games an export holds."""


@dataclass(frozen=True, slots=True)
class Player:
    """An account as its profile shows it."""

    id: str
    name: str
    listed: bool


@dataclass(frozen=True, slots=True)
class Played:
    """One of a player's tables, as the database has it."""

    table: str
    game: str
    players: int
    status: str
    seat: int
    rated: bool
    finished_at: float | None
    outcome: Outcome | None


def replayed_outcome(text: str) -> Outcome | None:
    """The outcome of a finished game's stored record (``None`` if it cannot be replayed)."""
    try:
        record = Record.loads(text)
        game = spieltisch.load(record.game, record.players, **dict(record.options))
        table = Table.from_record(game, record)
    except Exception:  # an old or damaged record: the game is listed without its outcome
        return None
    return outcome_of(table) if table.over else None


# --- the database -------------------------------------------------------------------------


def find_account(engine: Engine, name: str) -> Player | None:
    """The account whose name reads as ``name`` (casefolded)."""
    with engine.connect() as connection:
        row = connection.execute(
            sa.select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.listed).where(
                ACCOUNTS.c.name_key == name_key(name)
            )
        ).first()
    return None if row is None else Player(row.id, row.name, bool(row.listed))


def history(engine: Engine, account_id: str) -> list[Played]:
    """The account's tables, newest first."""
    query = (
        sa.select(
            TABLES.c.id,
            TABLES.c.game,
            TABLES.c.players,
            TABLES.c.status,
            SEATS.c.seat,
            TABLES.c.rules,
            TABLES.c.finished_at,
            TABLES.c.outcome,
        )
        .join(SEATS, SEATS.c.table_id == TABLES.c.id)
        .where(SEATS.c.account_id == account_id, TABLES.c.status != "expired")
        .order_by(sa.func.coalesce(TABLES.c.finished_at, TABLES.c.created_at).desc())
        .limit(HISTORY_LIMIT)
    )
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    return [
        Played(
            r.id,
            r.game,
            r.players,
            r.status,
            r.seat,
            TableRules.from_json(r.rules).rated,
            r.finished_at,
            None if r.outcome is None else Outcome.from_json(r.outcome),
        )
        for r in rows
    ]


def seat_names(engine: Engine, table_ids: Sequence[str]) -> dict[str, dict[int, str]]:
    """The seats' names of each table."""
    names: dict[str, dict[int, str]] = {}
    if not table_ids:
        return names
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.name).where(
                SEATS.c.table_id.in_(list(table_ids))
            )
        ).all()
    for row in rows:
        names.setdefault(row.table_id, {})[row.seat] = row.name
    return names


def ratings_of(engine: Engine, account_id: str) -> list[tuple[str, int, float, float, int]]:
    """The account's ratings: game, players, mu, sigma, games."""
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(
                RATINGS.c.game, RATINGS.c.players, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games
            )
            .where(RATINGS.c.account_id == account_id)
            .order_by(RATINGS.c.game, RATINGS.c.players)
        ).all()
    return [(r.game, r.players, r.mu, r.sigma, r.games) for r in rows]


def board(engine: Engine, game: str, players: int) -> list[dict[str, Any]]:
    """The leaderboard: listed players with enough rated games, best cautious rating (mu less
    three sigma) first; each with that figure and their rating (mu, the ladder's scale)."""
    conservative = RATINGS.c.mu - 3 * RATINGS.c.sigma
    query = (
        sa.select(ACCOUNTS.c.name, conservative.label("cautious"), RATINGS.c.mu, RATINGS.c.games)
        .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
        .where(RATINGS.c.game == game, RATINGS.c.players == players)
        .where(RATINGS.c.games >= MIN_GAMES, ACCOUNTS.c.listed.is_(True))
        .order_by(conservative.desc(), ACCOUNTS.c.name_key)
        .limit(BOARD_LIMIT)
    )
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    return [
        {
            "name": r.name,
            "rating": round(r.mu, 1),
            "cautious": round(r.cautious, 1),
            "games": r.games,
        }
        for r in rows
    ]


def stored_record(engine: Engine, table_id: str) -> str | None:
    """A finished table's stored record."""
    with engine.connect() as connection:
        text: str | None = connection.execute(
            sa.select(TABLES.c.record).where(TABLES.c.id == table_id)
        ).scalar()
    return text


def keep_outcome(engine: Engine, table_id: str, outcome: Outcome) -> None:
    """Keep an outcome worked out from a record (of a game finished before outcomes were
    kept), unless the table is a rated one whose settling is still owed: that keeps the
    outcome its ratings are settled by, once
    (:func:`~spieltisch.web.people.rated.store_outcome`)."""
    with engine.begin() as connection:
        if not settled(connection, table_id):
            return
        connection.execute(
            sa.update(TABLES)
            .where(TABLES.c.id == table_id, TABLES.c.outcome.is_(None))
            .values(outcome=outcome.to_json())
        )


def finished_records(engine: Engine, account_id: str) -> list[Any]:
    """The records of the account's finished games (each as its JSON), newest first."""
    query = (
        sa.select(TABLES.c.record)
        .join(SEATS, SEATS.c.table_id == TABLES.c.id)
        .where(SEATS.c.account_id == account_id, TABLES.c.status == "finished")
        .where(TABLES.c.record.is_not(None))
        .order_by(TABLES.c.finished_at.desc())
        .limit(EXPORT_LIMIT)
    )
    with engine.connect() as connection:
        texts = connection.execute(query).scalars().all()
    return [json.loads(text) for text in dict.fromkeys(texts)]


def forget_player(target: Engine | Connection, account_id: str) -> list[str]:
    """Let a deleted account's games stay, played by a "former player": its seats lose the
    account and its name, and so do the stored records of its finished games. The tables
    touched, so that a server can take up those it holds in memory again."""
    if isinstance(target, Engine):
        with target.begin() as connection:
            return forget_player(connection, account_id)
    connection = target
    seats = connection.execute(
        sa.select(SEATS.c.table_id, SEATS.c.seat).where(SEATS.c.account_id == account_id)
    ).all()
    connection.execute(
        sa.update(SEATS)
        .where(SEATS.c.account_id == account_id)
        .values(account_id=None, name=FORMER_PLAYER)
    )
    tables: dict[str, list[int]] = {}
    for row in seats:
        tables.setdefault(row.table_id, []).append(row.seat)
    for table_id, numbers in tables.items():
        _rename_in_record(connection, table_id, numbers)
    return sorted(tables)


def _rename_in_record(connection: Connection, table_id: str, seats: Sequence[int]) -> None:
    text = connection.execute(sa.select(TABLES.c.record).where(TABLES.c.id == table_id)).scalar()
    if text is None:
        return
    record = Record.loads(text)
    names = list(record.seats)
    for seat in seats:
        if seat < len(names):
            names[seat] = FORMER_PLAYER
    renamed = replace(record, seats=tuple(names)).dumps()
    connection.execute(sa.update(TABLES).where(TABLES.c.id == table_id).values(record=renamed))
