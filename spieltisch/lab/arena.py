"""The arena: agents play many games with seats rotated on the same deals, and are rated.

Games come in *deals*: for each deal the agents play one game per rotation of the seats, every
rotation with the same chance seed, so each agent meets the same first deal, roll or draw from
every seat and much of the luck cancels out. Each game's seeds derive from the run's seed, the
deal and the rotation only, so results do not depend on how many worker processes play them.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import spieltisch
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, OptionValue
from spieltisch.lab.play import derive_seed, play_game, seat_agents
from spieltisch.lab.stats import elo_ratings, mean_interval, wilson_interval


@dataclass(frozen=True, slots=True)
class Task:
    """One arena game to play: everything a worker process needs, and nothing more."""

    game: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]
    deal: int
    rotation: int
    seats: tuple[str, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one arena game ended."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    actions: int


def schedule(game: Game, agents: Sequence[str], games: int, seed: int) -> list[Task]:
    """The games to play: ``games`` rounded up to whole deals of one game per rotation."""
    players = game.players
    if len(agents) > players:
        raise OptionError(f"{len(agents)} agents for {players} seats")
    lineup = [agents[i % len(agents)] for i in range(players)]
    deals = -(-games // players)
    options = tuple(sorted(game.options.items()))
    tasks = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for rotation in range(players):
            seats = tuple(lineup[(seat - rotation) % players] for seat in range(players))
            tasks.append(Task(game.info.id, players, options, deal, rotation, seats, deal_seed))
    return tasks


def play_task(task: Task) -> GameResult:
    """Play one scheduled game (in this process or a worker)."""
    game = spieltisch.load(task.game, task.players, **dict(task.options))
    agent_seed = derive_seed(task.seed, "rotation", task.rotation)
    played = play_game(game, seat_agents(game, task.seats, agent_seed), task.seed)
    state = played.state
    return GameResult(
        task.deal, task.rotation, task.seats, state.scores(), state.returns(), played.actions
    )


def run(
    tasks: Sequence[Task], workers: int = 1, progress: Callable[[int], None] | None = None
) -> list[GameResult]:
    """Play every task, in ``workers`` processes; results come back in schedule order."""
    if workers <= 1:
        results = []
        for done, task in enumerate(tasks, 1):
            results.append(play_task(task))
            if progress:
                progress(done)
        return results
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_task, task): index for index, task in enumerate(tasks)}
        ordered: dict[int, GameResult] = {}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            ordered[futures[future]] = future.result()
            if progress:
                progress(done)
    return [ordered[i] for i in range(len(tasks))]


@dataclass(slots=True)
class AgentStats:
    """One agent's results over all its seats and games."""

    name: str
    returns: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)


def summarise(results: Sequence[GameResult], agents: Sequence[str]) -> dict[str, object]:
    """Per agent: games, win rate with a 95% interval, mean score and margin, Elo rating."""
    names = list(dict.fromkeys(agents))
    stats = {name: AgentStats(name) for name in names}
    head_to_head: dict[tuple[str, str], float] = {}
    for result in results:
        for seat, name in enumerate(result.seats):
            others = [s for i, s in enumerate(result.scores) if i != seat]
            stats[name].returns.append(result.returns[seat])
            stats[name].scores.append(result.scores[seat])
            stats[name].margins.append(result.scores[seat] - max(others))
        _count_pairs(result, head_to_head)
    ratings = elo_ratings(head_to_head, names)
    rows = []
    for name in names:
        s = stats[name]
        low, high = wilson_interval(sum(s.returns), len(s.returns))
        margin, margin_low, margin_high = mean_interval([float(m) for m in s.margins])
        rows.append(
            {
                "agent": name,
                "seats_played": len(s.returns),
                "win_rate": sum(s.returns) / max(len(s.returns), 1),
                "win_rate_ci95": [low, high],
                "mean_score": sum(s.scores) / max(len(s.scores), 1),
                "mean_margin": margin,
                "mean_margin_ci95": [margin_low, margin_high],
                "elo": ratings[name],
                "scores": s.scores,
            }
        )
    return {"games": len(results), "agents": rows}


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
