"""The lab's one engine: tasks, the pure ``play_task`` over a table, runners and the journal.

A run is a schedule of :class:`Task` values, each one game to play with everything a worker
process needs; :func:`play_task` plays it on a :class:`~spieltisch.session.Table` and returns
a typed :class:`GameResult`. A :class:`Runner` plays a schedule, in this process
(:class:`LocalRunner`) or in a pool of worker processes that take the games in chunks
(:class:`PoolRunner`), and hands back each result with its place in the schedule as soon as
its game ends. The arena and ``simulate`` are two schedules over this engine.

A run may keep a *journal*: every finished game as one JSON line, written as soon as it ends
(flushed to the file at least every :data:`FLUSH_SECONDS`, and when the run stops).
Given the same journal again, a run plays only the games it does not hold yet, so a run of
hours survives an interruption, can be extended to more games with the same seed, and leaves
each game's scores on disk for later study.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import spieltisch
from spieltisch.agents import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, OptionValue, State
from spieltisch.core.kit import RoundResult
from spieltisch.core.record import Record, replay_states
from spieltisch.games import kit_of
from spieltisch.lab import plugins, quality
from spieltisch.lab.agents import lab_agent
from spieltisch.lab.plugins import TracedGame
from spieltisch.session import Table, play_out


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a part of a run (a game, a seat), the same on every machine and run."""
    text = ":".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def seat_seeds(seed: int, players: int) -> tuple[int, ...]:
    """Each seat's seed, ``derive_seed(seed, "seat", seat)``, the text hashed built once (a
    native study derives a few for every game it plays)."""
    head = f"{seed}:seat:"
    sha256 = hashlib.sha256
    return tuple(
        int.from_bytes(sha256(f"{head}{seat}".encode()).digest()[:8], "big")
        for seat in range(players)
    )


def seat_agents(game: Game, names: Sequence[str], seed: int) -> list[Agent[object]]:
    """Agents by name, one per seat, each with its own seed derived from ``seed`` (the lab's
    own agents of the game included, see :mod:`spieltisch.lab.agents`)."""
    seeds = seat_seeds(seed, len(names))
    return [lab_agent(name, game, seeds[seat]) for seat, name in enumerate(names)]


@dataclass(frozen=True, slots=True)
class Task:
    """One game to play: everything a worker process needs, and nothing more.

    ``seed`` seeds the table's chance; the agents' seeds derive from ``agent_seed``, or, in
    the arena (``agent_seed`` is ``None``), from ``seed`` and the rotation.
    """

    game: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]
    deal: int
    rotation: int
    seats: tuple[str, ...]
    seed: int
    agent_seed: int | None = None
    keyed: bool = False
    """Draw chance keyed by each event's place (the experiments' common random numbers)."""
    keep_record: bool = field(default=False, compare=False)
    """Return the game's record with its result (not part of the game's identity)."""
    trace: bool = False
    """Measure the game's quality from who looked ahead at each decision
    (:mod:`spieltisch.lab.quality`); the result then carries those measures."""
    plugins: tuple[str, ...] = field(default=(), compare=False)
    """The metric plug-ins a traced game is also measured by (:mod:`spieltisch.lab.plugins`;
    what the game is measured by, not part of the game's identity)."""

    def agents_seed(self) -> int:
        """The seed the agents' own seeds derive from."""
        if self.agent_seed is not None:
            return self.agent_seed
        return derive_seed(self.seed, "rotation", self.rotation)

    def to_json(self) -> dict[str, object]:
        """The task as a journal stores it (the arena's fields only, where they suffice)."""
        data: dict[str, object] = {
            "game": self.game,
            "players": self.players,
            "options": [list(pair) for pair in self.options],
            "deal": self.deal,
            "rotation": self.rotation,
            "seats": list(self.seats),
            "seed": self.seed,
        }
        if self.agent_seed is not None:
            data["agent_seed"] = self.agent_seed
        if self.keyed:
            data["keyed"] = True
        if self.trace:
            data["trace"] = True
        return data


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game ended."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    actions: int
    moves: int = 0
    """Moves on the table, chance included."""
    finished: bool = True
    record: Record | None = None
    """The game's record, for a task that asked to keep it (never journaled)."""
    measures: tuple[tuple[str, float | None], ...] = ()
    """The game-quality measures of a traced task, by key (``None``: the game has none)."""
    engine: str | None = field(default=None, compare=False)
    """The engine that drew the game (``native`` or ``python``; ``None`` in a journal written
    before games named it): not part of the game's outcome."""
    rounds: tuple[RoundResult, ...] = ()
    """The results of a traced game's rounds in order (for a game played in rounds)."""

    def measure(self, key: str) -> float | None:
        """One game-quality measure of this game (``None`` if absent or undefined)."""
        return dict(self.measures).get(key)

    def to_json(self) -> dict[str, object]:
        """The result as a journal stores it."""
        return {
            "deal": self.deal,
            "rotation": self.rotation,
            "seats": list(self.seats),
            "scores": list(self.scores),
            "returns": list(self.returns),
            "actions": self.actions,
            "moves": self.moves,
            "finished": self.finished,
            **({"measures": dict(self.measures)} if self.measures else {}),
            **({"engine": self.engine} if self.engine is not None else {}),
            **({"rounds": [dict(r) for r in self.rounds]} if self.rounds else {}),
        }


@lru_cache(maxsize=64)
def _load(game: str, players: int, options: tuple[tuple[str, OptionValue], ...]) -> Game:
    """The game of a task, read from its id, players and options once per process."""
    return spieltisch.load(game, players, **dict(options))


load_game = _load
"""The game of a task's id, players and options (loaded once per process)."""


def play_task(task: Task, max_moves: int = 1_000_000) -> GameResult:
    """Play one scheduled game (in this process or a worker) on a table of its own."""
    game = _load(task.game, task.players, task.options)
    table = Table(game, task.seats, task.seed, keyed_chance=task.keyed)
    actions = play_out(table, seat_agents(game, task.seats, task.agents_seed()), max_moves)
    state = table.state
    record = table.record() if task.keep_record or task.trace else None
    measures: tuple[tuple[str, float | None], ...] = ()
    rounds: tuple[RoundResult, ...] = ()
    if task.trace and record is not None:
        states = list(replay_states(game, record.moves))
        measures, rounds = traced_measures(task, game, states, record)
    return GameResult(
        task.deal,
        task.rotation,
        task.seats,
        state.scores(),
        state.returns(),
        actions,
        table.version,
        state.is_terminal(),
        record if task.keep_record else None,
        measures,
        engine="python",
        rounds=rounds,
    )


def traced_measures(
    task: Task, game: Game, states: Sequence[State], record: Record
) -> tuple[tuple[tuple[str, float | None], ...], tuple[RoundResult, ...]]:
    """A traced game's measures (the game-quality ones and its plug-ins' metrics) and its
    rounds' results, from every state it went through and its record."""
    estimates = quality.trace(states, quality.estimator(task.game))
    final = states[-1]
    winners = final.winners() if final.is_terminal() else frozenset()
    values: dict[str, float | None] = dict(quality.measures(estimates, winners))
    rounds = kit_of(game).rounds(final)
    if task.plugins:
        seen = TracedGame(
            task.game,
            task.players,
            dict(task.options),
            task.seats,
            final.scores(),
            final.returns(),
            winners,
            record,
            rounds,
            tuple(estimates),
        )
        for plugin in plugins.load(task.plugins).values():
            if plugin.source in task.plugins:  # not every installed package's, unasked
                values[plugin.key] = plugins.measure(plugin, seen)
    measures = tuple(
        (key, None if value is None else round(value, MEASURE_DIGITS))
        for key, value in sorted(values.items())
    )
    return measures, rounds


MEASURE_DIGITS = 4
"""Decimals a game-quality measure keeps (journal and CSV alike; far below any interval)."""

Play = Callable[[Task], GameResult]
Played = Iterator[tuple[int, Task, GameResult]]
"""Each game's place in the schedule, its task and its result, as games end."""


class Runner(Protocol):
    """Plays scheduled games, somewhere."""

    def run(self, play: Play, tasks: Sequence[tuple[int, Task]]) -> Played:
        """Play every ``(index, task)`` with ``play``; yield each result as its game ends."""
        ...


def play_many(play: Play, tasks: Sequence[Task]) -> list[GameResult]:
    """Every task played with ``play``, in order: in one call where ``play`` has a ``many``
    that plays a chunk at once (the native engine's), else game by game."""
    many: Callable[[Sequence[Task]], list[GameResult]] | None = getattr(play, "many", None)
    if many is None:
        return [play(task) for task in tasks]
    return many(tasks)


LOCAL_CHUNK = 256
"""Games the local runner hands a ``play`` with a ``many`` at once (a few hundredths of a
second of native games: results still come back, and are journaled, as they are played)."""


class LocalRunner:
    """Plays the games one after another in this process (a chunk at a time where the play
    function plays chunks, see :func:`play_many`)."""

    def run(self, play: Play, tasks: Sequence[tuple[int, Task]]) -> Played:
        if not hasattr(play, "many"):
            for index, task in tasks:
                yield index, task, play(task)
            return
        for start in range(0, len(tasks), LOCAL_CHUNK):
            yield from _zipped(play, tasks[start : start + LOCAL_CHUNK])


def _zipped(play: Play, chunk: Sequence[tuple[int, Task]]) -> Played:
    results = play_many(play, [task for _, task in chunk])
    for (index, task), result in zip(chunk, results, strict=True):
        yield index, task, result


def _play_chunk(play: Play, chunk: Sequence[tuple[int, Task]]) -> list[tuple[int, GameResult]]:
    results = play_many(play, [task for _, task in chunk])
    return [(index, result) for (index, _), result in zip(chunk, results, strict=True)]


class PoolRunner:
    """Plays the games in ``workers`` processes, handing them out in chunks so that a quick
    game does not cost the parent more than it takes to play; results still come back (and
    are journaled) one game at a time, each chunk as it ends."""

    def __init__(self, workers: int, chunk: int | None = None) -> None:
        self.workers = workers
        self.chunk = chunk

    def _chunk_size(self, count: int) -> int:
        if self.chunk is not None:
            return max(1, self.chunk)
        return max(1, min(64, count // (self.workers * 8)))

    def run(self, play: Play, tasks: Sequence[tuple[int, Task]]) -> Played:
        size = self._chunk_size(len(tasks))
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers)
        try:
            futures = {pool.submit(_play_chunk, play, chunk): chunk for chunk in chunks}
            for future in concurrent.futures.as_completed(futures):
                by_index = dict(futures[future])
                for index, result in future.result():
                    yield index, by_index[index], result
        finally:
            # On an interruption or a failed game, the games not started yet are dropped rather
            # than played for nobody (they stay missing from the journal, to be played on resume).
            pool.shutdown(wait=False, cancel_futures=True)


def runner_for(workers: int) -> Runner:
    """The local runner for one worker, else a process pool of ``workers``."""
    return LocalRunner() if workers <= 1 else PoolRunner(workers)


def run_tasks(
    tasks: Sequence[Task],
    play: Play,
    runner: Runner,
    progress: Callable[[int], None] | None = None,
    journal: Path | None = None,
) -> list[GameResult]:
    """Play every task with ``runner``; results come back in schedule order. With a
    ``journal``, the games it already holds are taken from it, and every game played is added
    to it the moment its result arrives (see the module docstring)."""
    kept: dict[Task, GameResult] = {}
    if journal is not None:
        kept = read_journal(journal, tasks)
        check_engine(kept.values(), play, journal)
    results: dict[int, GameResult] = {i: kept[t] for i, t in enumerate(tasks) if t in kept}
    if progress and results:
        progress(len(results))
    to_play = [(i, t) for i, t in enumerate(tasks) if i not in results]
    with journal_writer(journal) as write:
        for index, task, result in runner.run(play, to_play):
            results[index] = result
            write(task, result)
            if progress:
                progress(len(results))
    return [results[i] for i in range(len(tasks))]


class EngineError(OptionError):
    """An engine that cannot play a run (``native`` without the core or an agent's native
    counterpart, see :mod:`spieltisch.lab.native`, or an engine other than the journal's)."""


def check_engine(kept: Iterable[GameResult], play: Play, journal: Path) -> None:
    """Refuse to resume a journal whose games another engine drew than ``play``'s (a function
    with no ``engine`` is the Python engine's): the engines draw other samples from the same
    seeds (see :mod:`spieltisch.lab.native`). Games that name no engine (a journal written
    before they did) pass."""
    engine = getattr(play, "engine", "python")
    others = sorted({r.engine for r in kept if r.engine is not None and r.engine != engine})
    if others:
        raise EngineError(
            f"the journal {journal} holds games drawn by the {others[0]} engine; this run plays "
            f"with the {engine} engine, and a study mixing the two draws two samples: resume "
            f'it with --engine {others[0]} (or engine = "{others[0]}" in an experiment '
            "file), or give a new folder or journal"
        )


# --- the journal ------------------------------------------------------------------------------


FLUSH_SECONDS = 0.5
"""How long finished games may wait in the journal's buffer before they are written out (a
quick native game takes a few microseconds: a flush per game would cost more than the game).
The file is flushed and closed when a run ends, is interrupted or fails, so only a killed
process loses the last moments' games, which a resumed run plays again."""


@contextmanager
def journal_writer(path: Path | None) -> Iterator[Callable[[Task, GameResult], None]]:
    """A function that appends one JSON line per finished game to the journal at ``path``
    (and does nothing without one), written out at least every :data:`FLUSH_SECONDS`. A last
    line that an interrupted run left half written (every whole line ends with a newline) is
    cut off first."""
    if path is None:
        yield lambda task, result: None
        return
    _drop_cut_off_line(path)
    with path.open("a", encoding="utf-8") as file:
        flushed = [time.monotonic()]

        def write(task: Task, result: GameResult) -> None:
            line = {"task": task.to_json(), "result": result.to_json()}
            file.write(json.dumps(line) + "\n")
            now = time.monotonic()
            if now - flushed[0] >= FLUSH_SECONDS:
                file.flush()
                flushed[0] = now

        yield write


JOURNAL_HEAD = '{"task": {"game": '
"""How every journal line begins (the writer's ``json.dumps`` of the task first)."""


def _cut_off_by_the_writer(tail: str) -> bool:
    """Whether ``tail`` (a last line without its newline) can be the start of a journal line
    that an interruption cut off: only such a line is the arena's to cut away."""
    return tail.startswith(JOURNAL_HEAD)


def _drop_cut_off_line(path: Path) -> None:
    """Cut off a last line an interrupted run left half written; anything else without a
    newline at its end was not written by the arena and is refused, never truncated."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        tail = data[data.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")
        if not _cut_off_by_the_writer(tail):
            raise OptionError(f"{path} is not a journal: its last line is no journal line")
        with path.open("r+b") as file:
            file.truncate(data.rfind(b"\n") + 1)


def read_journal(path: Path, tasks: Sequence[Task]) -> dict[Task, GameResult]:
    """The games of ``tasks`` that the journal at ``path`` holds (none if it does not exist).

    Raises :class:`OptionError` for a journal that holds games this run would not play (a
    different game, options, seed or agents): its results would be mixed in unseen. A last
    line cut off by an interruption is skipped (the writer cuts it off before writing)."""
    if not path.exists():
        return {}
    scheduled = {task: task for task in tasks}
    kept: dict[Task, GameResult] = {}
    if path.is_dir():
        raise OptionError(f"journal {path} is a folder, not a file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"{path} is not a journal: it is not text") from None
    lines = text.split("\n")
    if text and not text.endswith("\n"):  # an empty file is a journal of no game yet
        if not _cut_off_by_the_writer(lines[-1]):
            raise OptionError(
                f"{path} is not a journal: its last line is no journal line (a journal's "
                "lines are the arena's own; give a new file or the journal of this run)"
            )
        lines = lines[:-1]
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        task, result = _parse_line(path, number, line)
        match = scheduled.get(task)
        if match is None and not task.trace and replace(task, trace=True) in scheduled:
            continue  # played without the quality measures this run asks for: play it again
        if match is None:
            raise OptionError(
                f"journal {path} line {number} holds a game this run does not schedule: it "
                "comes from a run with another game, options, seed or agents, or with more "
                "games than asked for now; repeat that run's arguments or give a new journal"
            )
        kept[match] = result
    return kept


def journal_games(path: Path) -> dict[Task, GameResult]:
    """Every game the journal at ``path`` holds, whatever run wrote it (a search that decides
    what to play as it goes has no schedule to check against); a last line cut off by an
    interruption is skipped."""
    if not path.is_file():
        return {}
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError:
        raise OptionError(f"{path} is not a journal: it is not text") from None
    games = {}
    for number, line in enumerate(lines[:-1], 1):  # the last piece is "" or cut off
        if line.strip():
            task, result = _parse_line(path, number, line)
            games[task] = result
    return games


def _parse_line(path: Path, number: int, text: str) -> tuple[Task, GameResult]:
    """One journal line as the task it played and its result."""
    try:
        line = json.loads(text)
        task, result = line["task"], line["result"]
        agent_seed = task.get("agent_seed")
        played = Task(
            str(task["game"]),
            int(task["players"]),
            tuple((str(name), _option_value(value)) for name, value in task["options"]),
            int(task["deal"]),
            int(task["rotation"]),
            tuple(str(seat) for seat in task["seats"]),
            int(task["seed"]),
            None if agent_seed is None else int(agent_seed),
            bool(task.get("keyed", False)),
            trace=bool(task.get("trace", False)),
        )
        outcome = GameResult(
            int(result["deal"]),
            int(result["rotation"]),
            tuple(str(seat) for seat in result["seats"]),
            tuple(int(score) for score in result["scores"]),
            tuple(float(share) for share in result["returns"]),
            int(result["actions"]),
            int(result.get("moves", 0)),
            bool(result.get("finished", True)),
            measures=_measures(result.get("measures", {})),
            engine=_engine(result.get("engine")),
            rounds=_rounds(result.get("rounds", [])),
        )
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise OptionError(f"journal {path} line {number} is not an arena game: {error!r}") from None
    return played, outcome


def _measures(value: object) -> tuple[tuple[str, float | None], ...]:
    """A game's quality measures as the journal stored them (key to number or null)."""
    if not isinstance(value, dict):
        raise TypeError(f"measures must be a table of key to number, not {value!r}")
    return tuple((str(k), None if v is None else float(v)) for k, v in sorted(value.items()))


def _rounds(value: object) -> tuple[RoundResult, ...]:
    """A game's rounds as the journal stored them (a list of tables)."""
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise TypeError(f"rounds must be a list of tables, not {value!r}")
    return tuple(value)


def _engine(value: object) -> str | None:
    """The engine a journal line names (``None`` for a line written before lines named it)."""
    if value is None:
        return None
    if value in ("native", "python"):
        return str(value)
    raise TypeError(f"the engine is native or python, not {value!r}")


def _option_value(value: object) -> OptionValue:
    """A game option's value as the journal stored it (a flag, a number or a name)."""
    if not isinstance(value, bool | int | str):
        raise TypeError(f"an option value must be a flag, a number or a name, not {value!r}")
    return value
