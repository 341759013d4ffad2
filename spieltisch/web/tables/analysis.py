"""Analysing a finished game: each of one seat's decisions, rated by the game's strongest agent.

For every decision the seat faced (with more than one legal move), the analyst is asked with
that seat's view at that moment, never the true state: the move the seat made, the move the
analyst prefers, and how much the difference cost, in the analyst's unit (expected points this
turn from Auf die Eier's exact expert, or a win chance estimated from simulated games, with
their number, from the search). Costly decisions are flagged. Each decision is one job for the
server's bot pool (:func:`rate_decision` runs in a worker process); :class:`Analyses` runs
them for a server and keeps each finished analysis in the database.

A searched estimate is noisy: each decision carries a rough 95 % interval of its loss (the
normal approximation of two win rates, from the games each move was tried in). A loss that
is large but whose interval reaches zero is marked "not sure", never flagged. Each decision
names the two moves in the game's words, in every language the server speaks.
"""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass, field
from typing import Any

import spieltisch
from spieltisch.agents import IsmctsAgent, adviser, make_agent
from spieltisch.core.agent import Rated
from spieltisch.core.game import Move, OptionValue
from spieltisch.core.record import Record
from spieltisch.core.seeds import derive_seed
from spieltisch.core.words import Words
from spieltisch.games import kit_of
from spieltisch.locale import LANGUAGES
from spieltisch.session import Table
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.words import spoken
from spieltisch.web.store import table_store
from spieltisch.web.tables.pool import FairPool
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable

SEARCH_ITERATIONS = 400
"""The search's budget per decision when the strongest agent does not rate moves itself."""
COSTLY = {
    "expected points this turn": 1.0,
    "win chance": 0.10,
    "win and lead": 0.10,
    "chance to win": 0.05,
}
"""A decision is flagged when it cost at least this much (in its unit)."""
MIN_SAMPLES = 20
"""A searched decision is flagged only when the move made was tried this often or more."""
Z95 = 1.96
"""Standard errors either side of a loss for its rough 95 % interval."""


def loss_interval(best: Rated, mine: Rated | None, loss: float) -> tuple[float, float] | None:
    """A rough 95 % interval of ``loss`` when it rests on simulated games (``None``: exact).
    Each value is a win rate in [0, 1] over its samples; a move never tried has no bound."""
    if best.samples is None and (mine is None or mine.samples is None):
        return None
    if mine is None or not mine.samples or not best.samples:
        return (-1.0, 1.0)
    spread = math.sqrt(_variance(best) + _variance(mine))
    return (round(loss - Z95 * spread, 4), round(loss + Z95 * spread, 4))


def _variance(rated: Rated) -> float:
    rate = min(1.0, max(0.0, rated.value))
    return rate * (1 - rate) / max(1, rated.samples or 1)


@dataclass(frozen=True, slots=True)
class DecisionJob:
    """One decision to rate: the record up to it, and whose it was."""

    game: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]
    seed: int | None
    moves: tuple[str, ...]
    """The record's moves up to (and with) the decision's own move, which comes last."""
    seat: int


def decisions(record: Record, seat: int) -> list[int]:
    """The indices of the moves where ``seat`` chose among several legal moves."""
    table = Table(spieltisch.load_record(record))
    moves = record.moves
    found = []
    for index, text in enumerate(moves):
        state = table.state
        move = state.parse(text)
        if state.current_player() == seat and len(state.legal_actions()) > 1:
            found.append(index)
        if state.is_chance():
            table.advance_chance(move)
        else:
            table.play(move)
    return found


def rate_decision(job: DecisionJob) -> dict[str, Any] | None:
    """Rate one decision (in a worker process); ``None`` for one the analyst plays by rote."""
    game = spieltisch.load(job.game, job.players, **dict(job.options))
    *before, made_text = job.moves
    # Without a seed every chance step of the record is taken as it stands.
    table = Table.from_record(game, Record(job.game, job.players, dict(job.options), tuple(before)))
    view, legal = table.view(job.seat), table.legal()
    made = table.state.parse(made_text)
    seed = derive_seed(job.seed or 0, "analysis", job.seat, len(before))
    name = adviser(game)
    spec = f"{name}:{SEARCH_ITERATIONS}" if name == "ismcts" else name  # a budget, not a clock
    analyst = make_agent(spec, game, seed)
    ratings = analyst.rate(view, legal)
    rated_by = spec
    if ratings is None:
        ratings = IsmctsAgent(game, seed, iterations=SEARCH_ITERATIONS).rate(view, legal)
        rated_by = f"ismcts:{SEARCH_ITERATIONS}"
    if ratings is None or not ratings.choices:
        return None
    best = ratings.choices[0]
    mine = ratings.of(made)
    value = best.value if mine is None else mine.value
    loss = max(0.0, best.value - value)
    tried = None if mine is None else mine.samples
    interval = loss_interval(best, mine, loss)
    large = loss >= COSTLY.get(ratings.unit, 1.0)
    sure = interval is None or (interval[0] > 0 and (tried or 0) >= MIN_SAMPLES)
    return {
        "version": len(before) + 1,
        "made": made_text,
        "preferred": str(best.move),
        "unit": ratings.unit,
        "best": round(best.value, 4),
        "value": round(value, 4),
        "loss": round(loss, 4),
        "samples": tried,
        "best_samples": best.samples,
        "costly": large and sure,
        "unsure": large and not sure,
        "interval": None if interval is None else list(interval),
        "labels": _labels(kit_of(game).words, view, made, best.move),
        "analyst": rated_by,
    }


def _labels(words: Words[Any], view: object, made: Move, preferred: Move) -> dict[str, Any]:
    """The two moves in the game's words, in each language (the seat's view before them)."""
    return {
        language: {
            "made": spoken(words, language).move_label(view, made),
            "preferred": spoken(words, language).move_label(view, preferred),
        }
        for language in LANGUAGES
    }


# --- the server's side: one analysis per seat and finished table ----------------------------


@dataclass(eq=False)
class Analysis:
    """One seat's analysis, while it runs and once it is done."""

    seat: int
    total: int = 0
    done: int = 0
    items: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As the API serves it."""
        status = "failed" if self.error else "done" if self.finished else "running"
        return {
            "seat": self.seat,
            "status": status,
            "done": self.done,
            "total": self.total,
            "decisions": self.items,
            "error": self.error,
        }


class Analyses:
    """The analyses of one server: run in its bot pool, kept in the database once done."""

    def __init__(self, services: Services, pool: FairPool) -> None:
        self.services = services
        self.pool = pool
        self.running: dict[tuple[str, int], Analysis] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def close(self) -> None:
        """Stop every analysis still running."""
        for task in list(self._tasks):
            task.cancel()

    async def find(self, live: LiveTable, seat: int) -> Analysis | None:
        """The analysis of ``seat``'s decisions: running, done (kept) or none."""
        found = self.running.get((live.id, seat))
        if found is not None:
            return found
        kept = await self.services.read(
            table_store.load_analysis, self.services.reader, live.id, seat
        )
        if kept is None:
            return None
        data = json.loads(kept)
        done = Analysis(seat, data["total"], data["done"], data["decisions"], finished=True)
        self.running[(live.id, seat)] = done
        return done

    async def start(self, live: LiveTable, seat: int) -> Analysis:
        """Start analysing ``seat``'s decisions in the bot pool (once per seat and table)."""
        if live.status != "finished":
            raise RefusedError("a game is analysed once it is over", 403)
        found = await self.find(live, seat)
        if found is not None:
            return found
        record = live.table.record()
        chosen = await self.services.read(decisions, record, seat)
        running = Analysis(seat, total=len(chosen))
        self.running[(live.id, seat)] = running
        task = asyncio.create_task(self._run(live, record, chosen, running))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return running

    async def _run(
        self, live: LiveTable, record: Record, chosen: list[int], running: Analysis
    ) -> None:
        options = tuple(sorted(live.game.options.items()))
        try:
            for index in chosen:
                job = DecisionJob(
                    live.game.info.id, live.game.players, options, record.seed,
                    record.moves[: index + 1], running.seat,
                )  # fmt: skip
                item = await self.pool.run(live.id, rate_decision, job)
                if item is not None:
                    running.items.append(item)
                running.done += 1
            running.finished = True
            kept = json.dumps(
                {"total": running.total, "done": running.done, "decisions": running.items}
            )
            await self.services.write(
                table_store.save_analysis, self.services.engine, live.id, running.seat, kept
            )
        except Exception as error:  # said on the page, never lost silently
            running.error = f"the analysis stopped: {error}"
