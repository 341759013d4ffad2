"""Analysing a finished game: each of one seat's decisions, rated by the game's strongest agent.

For every decision the seat faced (with more than one legal move), the analyst is asked with
that seat's view at that moment, never the true state: the move the seat made, the move the
analyst prefers, and how much the difference cost, in the analyst's unit (expected points this
turn from Auf die Eier's exact expert, or a win chance estimated from simulated games, with
their number, from the search). Costly decisions are flagged. Each decision is one job for the
server's bot pool (:func:`rate_decision` runs in a worker process).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import spieltisch
from spieltisch.agents import IsmctsAgent, make_agent, strongest_agent
from spieltisch.core.game import OptionValue
from spieltisch.core.record import Record
from spieltisch.core.seeds import derive_seed
from spieltisch.session import Table

SEARCH_ITERATIONS = 400
"""The search's budget per decision when the strongest agent does not rate moves itself."""
COSTLY = {"expected points this turn": 1.0, "win chance": 0.10}
"""A decision is flagged when it cost at least this much (in its unit)."""
MIN_SAMPLES = 20
"""A searched decision is flagged only when the move made was tried this often or more."""


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
    name = strongest_agent(game)
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
    costly = loss >= COSTLY.get(ratings.unit, 1.0) and (tried is None or tried >= MIN_SAMPLES)
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
        "costly": costly,
        "analyst": rated_by,
    }
