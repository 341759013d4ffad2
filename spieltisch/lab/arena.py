"""The arena: agents play many games with seats rotated on the same deals, and are rated.

Games come in *deals*: for each deal the agents play one game per rotation of the seats, every
rotation with the same chance seed, so each agent meets the same first deal, roll or draw from
every seat and much of the luck cancels out. Each game's seeds derive from the run's seed, the
deal and the rotation only, so results do not depend on how many worker processes play them.

A run may keep a *journal*: every finished game as one JSON line, written as soon as it ends.
Given the same journal again, a run plays only the games it does not hold yet, so a run of
hours survives an interruption, can be extended to more games with the same seed, and leaves
each game's scores on disk for later study.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

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
    tasks: Sequence[Task],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    journal: Path | None = None,
) -> list[GameResult]:
    """Play every task, in ``workers`` processes; results come back in schedule order.

    With a ``journal``, the games it already holds are taken from it, and every game played
    is added to it the moment it ends (see the module docstring)."""
    kept = {}
    if journal is not None:
        _drop_cut_off_line(journal)
        kept = read_journal(journal, tasks)
    results: dict[int, GameResult] = {i: kept[t] for i, t in enumerate(tasks) if t in kept}
    if progress and results:
        progress(len(results))
    to_play = [(i, t) for i, t in enumerate(tasks) if i not in results]
    with _journal_writer(journal) as record:
        for index, task, result in _play_all(to_play, workers):
            results[index] = result
            record(task, result)
            if progress:
                progress(len(results))
    return [results[i] for i in range(len(tasks))]


def _play_all(
    to_play: Sequence[tuple[int, Task]], workers: int
) -> Iterator[tuple[int, Task, GameResult]]:
    """Each game's result as it ends, with its place in the schedule and its task."""
    if workers <= 1:
        for index, task in to_play:
            yield index, task, play_task(task)
        return
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
    try:
        futures = {pool.submit(play_task, task): (index, task) for index, task in to_play}
        for future in concurrent.futures.as_completed(futures):
            index, task = futures[future]
            yield index, task, future.result()
    finally:
        # On an interruption or a failed game, the games not started yet are dropped rather
        # than played for nobody (they stay missing from the journal, to be played on resume).
        pool.shutdown(wait=False, cancel_futures=True)


def _drop_cut_off_line(path: Path) -> None:
    """Cut off a last line that an interrupted run left half written (every whole line ends
    with a newline), so that the journal reads and the next game starts a line of its own."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as file:
            file.truncate(data.rfind(b"\n") + 1)


@contextmanager
def _journal_writer(path: Path | None) -> Iterator[Callable[[Task, GameResult], None]]:
    """A function that appends one JSON line per finished game to the journal at ``path``
    (and does nothing without one)."""
    if path is None:
        yield lambda task, result: None
        return
    with path.open("a", encoding="utf-8") as file:

        def record(task: Task, result: GameResult) -> None:
            file.write(json.dumps({"task": asdict(task), "result": asdict(result)}) + "\n")
            file.flush()

        yield record


def read_journal(path: Path, tasks: Sequence[Task]) -> dict[Task, GameResult]:
    """The games of ``tasks`` that the journal at ``path`` holds (none if it does not exist).

    Raises :class:`OptionError` for a journal that holds games this run would not play (a
    different game, options, seed or agents): its results would be mixed in unseen."""
    if not path.exists():
        return {}
    scheduled = set(tasks)
    kept: dict[Task, GameResult] = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        task, result = _parse_line(path, number, text)
        if task not in scheduled:
            raise OptionError(
                f"journal {path} line {number} holds a game this run does not schedule: it "
                "comes from a run with another game, options, seed or agents, or with more "
                "games than asked for now; repeat that run's arguments or give a new journal"
            )
        kept[task] = result
    return kept


def _parse_line(path: Path, number: int, text: str) -> tuple[Task, GameResult]:
    """One journal line as the task it played and its result."""
    try:
        line = json.loads(text)
        task, result = line["task"], line["result"]
        played = Task(
            str(task["game"]),
            int(task["players"]),
            tuple((str(name), _option_value(value)) for name, value in task["options"]),
            int(task["deal"]),
            int(task["rotation"]),
            tuple(str(seat) for seat in task["seats"]),
            int(task["seed"]),
        )
        outcome = GameResult(
            int(result["deal"]),
            int(result["rotation"]),
            tuple(str(seat) for seat in result["seats"]),
            tuple(int(score) for score in result["scores"]),
            tuple(float(share) for share in result["returns"]),
            int(result["actions"]),
        )
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise OptionError(f"journal {path} line {number} is not an arena game: {error!r}") from None
    return played, outcome


def _option_value(value: object) -> OptionValue:
    """A game option's value as the journal stored it (a flag, a number or a name)."""
    if not isinstance(value, bool | int | str):
        raise TypeError(f"an option value must be a flag, a number or a name, not {value!r}")
    return value


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
