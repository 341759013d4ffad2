"""Bots at online tables: each bot move is worked out in a worker process, from a view.

A :class:`BotJob` carries everything a worker needs: the table's game, its moves so far and
which seat moves with which level. The worker rebuilds the table (keeping the last few it
built, so a game costs one replay, not one per move), makes the agent with a seed derived
from the table's seed, the seat and the version, and asks it with that seat's view and the
legal moves only. The same table and seed give the same bot moves after a restart.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import spieltisch
from spieltisch.agents import adviser, make_agent
from spieltisch.core.agent import Agent, Rated, Ratings
from spieltisch.core.game import Game, OptionValue, PlayerId
from spieltisch.core.record import Record
from spieltisch.core.seeds import derive_seed
from spieltisch.core.words import Words
from spieltisch.games import kit_of
from spieltisch.locale import SOURCE
from spieltisch.session import Table
from spieltisch.web.common.words import number, spoken

KEPT_TABLES = 16
HISTORY = 16
"""States a worker's table keeps (a bot reads the current one only)."""


@dataclass(frozen=True, slots=True)
class BotJob:
    """One bot move to work out."""

    table_id: str
    game: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]
    seed: int
    moves: tuple[str, ...]
    dictated: tuple[int, ...]
    seat: int
    level: str
    salt: int | None = None
    """Seeds the agent instead of the table's seed (a hint's: never the dice's own seed)."""
    language: str = SOURCE
    """The language a hint is worded in (the asking page's)."""

    def agent_seed(self) -> int:
        """The seed of this move's agent: the table's seed (or the salt), the seat and the
        version."""
        root = self.seed if self.salt is None else self.salt
        return derive_seed(root, "bot", self.seat, len(self.moves))


_tables: OrderedDict[str, Table] = OrderedDict()


def _table(job: BotJob) -> Table:
    """The job's table, from this worker's last tables where it can go on from one."""
    kept = _tables.pop(job.table_id, None)
    if kept is not None and [str(m) for m in kept.moves] == list(job.moves[: kept.version]):
        for index in range(kept.version, len(job.moves)):
            text = job.moves[index]
            state = kept.state
            move = state.parse(text)
            if state.is_chance():
                kept.advance_chance(move)
            else:
                kept.play(move)
        table = kept
    else:
        game = spieltisch.load(job.game, job.players, **dict(job.options))
        record = Record(
            job.game, job.players, dict(job.options), job.moves, job.seed, (), job.dictated
        )
        table = Table.from_record(game, record, history=HISTORY)
    _tables[job.table_id] = table
    while len(_tables) > KEPT_TABLES:
        _tables.popitem(last=False)
    return table


HINT_ITERATIONS = 300
"""The search's budget for a hint (a budget, not a clock: the same position, the same hint)."""


def hint_level(game: Game) -> str:
    """The adviser behind hints: the game's adviser (its strongest agent unless it names
    another), a search on a fixed budget."""
    name = adviser(game)
    return f"{name}:{HINT_ITERATIONS}" if name == "ismcts" else name


def hint(job: BotJob) -> str:
    """What the game's strongest agent would play here, and why, in one sentence of the game's
    words in ``job.language`` (a worker's job; ``job.level`` names the adviser)."""
    table = _table(job)
    if table.to_act() != job.seat:
        raise ValueError(f"seat {job.seat} is not to move at version {table.version}")
    return advise(
        table, job.seat, make_agent(job.level, table.game, job.agent_seed()), job.language
    )


def advise(table: Table, seat: PlayerId, adviser: Agent[Any], language: str) -> str:
    """What ``adviser`` would play for ``seat`` (to move at ``table``) and why, from the
    seat's view, in one sentence of the game's words in ``language``."""
    view, legal = table.view(seat), table.legal()
    words = spoken(kit_of(table.game).words, language)
    ratings = adviser.rate(view, legal)
    if ratings is None or not ratings.choices:  # forced, or from its book: no search to tell
        move = words.move_label(view, adviser.act(view, legal))
        return words._("{move}: the strongest bot plays it here without weighing others.").format(
            move=move
        )
    return advice_text(words, view, ratings, language)


def advice_text(words: Words[Any], view: object, ratings: Ratings, language: str = SOURCE) -> str:
    """The best rated move and why, with the next best for comparison (numbers written as
    ``language`` writes them)."""
    best, *rest = ratings.choices
    sampled = ratings.unit in ("win chance", "win and lead")
    chance = sampled or ratings.unit == "chance to win"

    def worth(rated: Rated) -> str:
        if chance:
            return f"{number(100 * rated.value, language, 0)}\u00a0%"
        return number(rated.value, language)

    if ratings.unit == "win and lead":
        text = words._(
            "{move}: it scores {worth} over the {n} games simulated from here, half for "
            "winning and half for the lead."
        ).format(move=words.move_label(view, best.move), worth=worth(best), n=best.samples or 0)
    elif sampled:
        text = words._("{move}: it wins {worth} of the {n} games simulated from here.").format(
            move=words.move_label(view, best.move), worth=worth(best), n=best.samples or 0
        )
    elif chance:
        text = words._(
            "{move}: it leaves a {worth} chance to win the game, by the exact odds."
        ).format(move=words.move_label(view, best.move), worth=worth(best))
    else:
        text = words._("{move}: it scores {worth} points this turn on average.").format(
            move=words.move_label(view, best.move), worth=worth(best)
        )
    if rest:
        text += " " + words._("Next best: {move} ({worth}).").format(
            move=words.move_label(view, rest[0].move), worth=worth(rest[0])
        )
    return text


def choose(job: BotJob) -> str:
    """The bot's move, as text (runs in a worker process)."""
    table = _table(job)
    if table.to_act() != job.seat:
        raise ValueError(f"seat {job.seat} is not to move at version {table.version}")
    agent = make_agent(job.level, table.game, job.agent_seed())
    return str(agent.act(table.view(job.seat), table.legal()))


def start_worker(parent: int, niceness: int) -> None:
    """Run in each worker as it starts: yield the processor to the server's event loop by
    ``niceness`` (a move waits on the loop, never on a worker's search or replay) and end
    with the server."""
    if niceness:
        os.nice(niceness)
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """End this worker as soon as the server that made it is gone (a server killed with
    SIGKILL cannot stop its pool)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
