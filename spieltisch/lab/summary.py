"""Typed summaries of a run: per agent for the arena, per seat for ``simulate``.

Both are built from the engine's :class:`~spieltisch.lab.engine.GameResult` values and print
as the JSON objects the commands have always printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from spieltisch.lab.engine import GameResult
from spieltisch.lab.stats import elo_ratings, mean_interval, wilson_interval


@dataclass(frozen=True, slots=True)
class AgentRow:
    """One agent's results over all its seats and games."""

    agent: str
    seats_played: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    mean_margin: float
    mean_margin_ci95: tuple[float, float]
    elo: float
    scores: tuple[int, ...]

    def to_json(self, *, scores: bool = True) -> dict[str, object]:
        """The row as JSON data (without the list of scores unless ``scores``)."""
        data: dict[str, object] = {
            "agent": self.agent,
            "seats_played": self.seats_played,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "mean_score": self.mean_score,
            "mean_margin": self.mean_margin,
            "mean_margin_ci95": list(self.mean_margin_ci95),
            "elo": self.elo,
        }
        if scores:
            data["scores"] = list(self.scores)
        return data


@dataclass(frozen=True, slots=True)
class ArenaSummary:
    """An arena run: how many games, and a row per agent."""

    games: int
    agents: tuple[AgentRow, ...]
    game: str = ""
    players: int = 0
    seed: int = 0

    def row(self, agent: str) -> AgentRow:
        """The row of ``agent``."""
        return next(r for r in self.agents if r.agent == agent)

    def to_json(self, *, scores: bool = True) -> dict[str, object]:
        """The summary as the JSON object ``spieltisch arena --json`` prints."""
        return {
            "games": self.games,
            "agents": [row.to_json(scores=scores) for row in self.agents],
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
        }


@dataclass(slots=True)
class _Tally:
    returns: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)


def summarise(
    results: Sequence[GameResult],
    agents: Sequence[str],
    *,
    game: str = "",
    players: int = 0,
    seed: int = 0,
) -> ArenaSummary:
    """Per agent: games, win rate with a 95% interval, mean score and margin, Elo rating."""
    names = list(dict.fromkeys(agents))
    tallies = {name: _Tally() for name in names}
    head_to_head: dict[tuple[str, str], float] = {}
    for result in results:
        for seat, name in enumerate(result.seats):
            others = [s for i, s in enumerate(result.scores) if i != seat]
            tally = tallies[name]
            tally.returns.append(result.returns[seat])
            tally.scores.append(result.scores[seat])
            tally.margins.append(result.scores[seat] - max(others))
        _count_pairs(result, head_to_head)
    ratings = elo_ratings(head_to_head, names)
    rows = []
    for name in names:
        t = tallies[name]
        low, high = wilson_interval(sum(t.returns), len(t.returns))
        margin, margin_low, margin_high = mean_interval([float(m) for m in t.margins])
        rows.append(
            AgentRow(
                agent=name,
                seats_played=len(t.returns),
                win_rate=sum(t.returns) / max(len(t.returns), 1),
                win_rate_ci95=(low, high),
                mean_score=sum(t.scores) / max(len(t.scores), 1),
                mean_margin=margin,
                mean_margin_ci95=(margin_low, margin_high),
                elo=ratings[name],
                scores=tuple(t.scores),
            )
        )
    return ArenaSummary(len(results), tuple(rows), game, players, seed)


def _count_pairs(result: GameResult, wins: dict[tuple[str, str], float]) -> None:
    """Add each pair of different agents' head-to-head points from one game."""
    for i, a in enumerate(result.seats):
        for j, b in enumerate(result.seats):
            if a == b or i == j:
                continue
            mine = (result.returns[i], result.scores[i])
            theirs = (result.returns[j], result.scores[j])
            points = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            wins[(a, b)] = wins.get((a, b), 0.0) + points


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A ``simulate`` run: totals per seat over the games that finished."""

    game: str
    players: int
    agents: tuple[str, ...]
    seed: int
    games: int
    wins: tuple[float, ...]
    score_totals: tuple[int, ...]
    actions: int
    moves: int
    unfinished: int

    @classmethod
    def of(
        cls,
        results: Sequence[GameResult],
        game: str,
        players: int,
        agents: Sequence[str],
        seed: int,
    ) -> SeatSummary:
        """The totals of ``results``."""
        done = [r for r in results if r.finished]
        wins = tuple(sum(r.returns[p] for r in done) for p in range(players)) if done else ()
        totals = tuple(sum(r.scores[p] for r in done) for p in range(players)) if done else ()
        return cls(
            game,
            players,
            tuple(agents),
            seed,
            len(done),
            wins,
            totals,
            sum(r.actions for r in done),
            sum(r.moves for r in done),
            len(results) - len(done),
        )

    def to_json(self) -> dict[str, object]:
        """The summary as the JSON object ``spieltisch simulate --json`` prints."""
        games = max(self.games, 1)
        return {
            "game": self.game,
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "wins": [round(w, 6) for w in self.wins],
            "win_rates": [round(w / games, 6) for w in self.wins],
            "mean_scores": [round(s / games, 4) for s in self.score_totals],
            "mean_actions": round(self.actions / games, 4),
            "mean_moves": round(self.moves / games, 4),
            "unfinished": self.unfinished,
        }
