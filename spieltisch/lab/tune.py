"""Search a rule parameter: the value that brings a metric to a target, with its interval.

An experiment file with a ``[tune]`` table names one whole-number rule parameter, a metric and
a target (a number, or the metric's value in the default game at another player count)::

    game = "auf-die-eier"
    players = [4, 6]             # one search per player count
    games = 200                  # games at a value on first look
    agents = ["heuristic"]
    [tune]
    parameter = "goal"
    metric = "decisions"
    reference_players = 2        # the target: decisions per game at 2 players, default goal
    low = 20                     # the range searched (default: the parameter's bounds)
    high = 100
    max_games = 1600             # the most games one value is given

The search assumes the metric moves one way as the parameter grows (it checks the two ends).
It bisects the range; at each value it plays more games (doubling, up to ``max_games``) while
the metric's 95% interval still holds the target, so it spends games where the answer is close
and few where it is plainly not. Every value plays the same deals (common random numbers), so
neighbouring values are compared on the same dice and cards. The *answer* is where the straight
line between the last two values bracketing the target meets it; its *interval* is every value
no evaluated point rules out: above the largest value whose metric is clearly on the target's
near side, below the smallest one clearly beyond it (the two values next to the answer are
always evaluated, so the interval is as narrow as the noise allows).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import spieltisch
from spieltisch.lab.engine import GameResult, Play, Runner, Task, play_task
from spieltisch.lab.experiment import Cell, Experiment, ExperimentError
from spieltisch.lab.metrics import Metric, MetricError, metric
from spieltisch.lab.native import play_for
from spieltisch.lab.stats import mean_interval
from spieltisch.lab.words import counted

MAX_EVALUATIONS = 40
"""A safety stop: a bisection of the widest range takes about ten."""
TUNE_KEYS = frozenset(
    {"parameter", "metric", "target", "reference_players", "low", "high", "max_games"}
)


@dataclass(frozen=True, slots=True)
class TuneSpec:
    """What to search: a parameter, its range, a metric and the target."""

    parameter: str
    metric: str
    low: int
    high: int
    max_games: int
    target: float | None = None
    reference_players: int | None = None


@dataclass(frozen=True, slots=True)
class Point:
    """The metric at one value of the parameter, over ``games`` games."""

    value: int | None
    """The parameter's value (``None``: its default, for a reference)."""
    games: int
    deals: int
    mean: float
    half: float
    """Half the width of the 95% interval of the mean (deals as the units)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The search's outcome at one player count."""

    players: int
    target: float
    target_half: float
    """Half-width of the target's own interval (0 for a number given in the file)."""
    value: float
    """Where the metric meets the target (interpolated between whole values)."""
    low: int
    high: int
    """The whole values no evaluated point rules out (the answer's interval); ``low > high``
    when every whole value is ruled out: the metric jumps over the target between two
    neighbours."""
    below: int | None
    above: int | None
    """The nearest values ruled out on either side (``None``: none was): the crossing lies
    strictly between them."""
    points: tuple[Point, ...]
    reached: bool
    """False when the target lies beyond what the range's ends reach."""
    games: int
    """Games this search looked at (the reference included), played now or journaled."""
    reference: Point | None = None
    """What measured the target: the default game at ``reference_players`` (``None`` for a
    number given in the file)."""


def tune_spec(experiment: Experiment, data: Mapping[str, object]) -> TuneSpec:
    """The ``[tune]`` table of an experiment, checked against its game and metrics."""
    unknown = sorted(set(data) - TUNE_KEYS)
    if unknown:
        raise ExperimentError(f"[tune]: unknown keys {', '.join(unknown)}")
    name = data.get("parameter")
    if not isinstance(name, str):
        raise ExperimentError('[tune]: name the parameter to search (parameter = "goal")')
    spec = spieltisch.load(experiment.game, experiment.players[0]).info.option(name)
    if spec.bounds is None:
        raise ExperimentError(f"[tune]: {name} is not a rule parameter (it has no bounds)")
    key = data.get("metric")
    if not isinstance(key, str):
        raise ExperimentError("[tune]: name the metric to bring to the target")
    try:
        metric(key)
    except MetricError as error:
        raise ExperimentError(f"[tune]: {error}") from None
    target, reference = data.get("target"), data.get("reference_players")
    if (target is None) == (reference is None):
        raise ExperimentError("[tune]: give a target or reference_players, one of the two")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int | float)):
        raise ExperimentError("[tune]: target is a number")
    if reference is not None and (isinstance(reference, bool) or not isinstance(reference, int)):
        raise ExperimentError("[tune]: reference_players is a player count")
    low, high = _bound(data, "low", spec.bounds), _bound(data, "high", spec.bounds)
    if not spec.bounds[0] <= low < high <= spec.bounds[1]:
        raise ExperimentError(
            f"[tune]: search from low to high within {spec.bounds[0]}-{spec.bounds[1]}, "
            f"low below high (not {low}-{high})"
        )
    if name in dict(experiment.fixed) or name in experiment.varying():
        raise ExperimentError(f"[tune]: {name} is searched, so it may not be set in [options]")
    most = data.get("max_games", 8 * experiment.games)
    if isinstance(most, bool) or not isinstance(most, int) or most < experiment.games:
        raise ExperimentError("[tune]: max_games is a whole number, at least games")
    return TuneSpec(
        name,
        key,
        low,
        high,
        most,
        None if target is None else float(target),
        None if reference is None else int(reference),
    )


def _bound(data: Mapping[str, object], key: str, bounds: tuple[int, int]) -> int:
    value = data.get(key, bounds[0] if key == "low" else bounds[1])
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExperimentError(f"[tune]: {key} is a whole number")
    return value


class Search:
    """One search at one player count; plays what it needs through ``runner`` and keeps every
    game it has played (``played``), so a value looked at again costs only its new deals."""

    def __init__(
        self,
        experiment: Experiment,
        spec: TuneSpec,
        players: int,
        runner: Runner,
        played: dict[Task, GameResult],
        on_game: Callable[[Task, GameResult], None] = lambda task, result: None,
        play: Play = play_task,
    ) -> None:
        self.experiment = experiment
        self.spec = spec
        self.players = players
        self.runner = runner
        self.played = played
        self.on_game = on_game
        self.play = play
        self.metric: Metric = metric(spec.metric)
        self.used: set[Task] = set()

    def evaluate(self, value: int | None, games: int, players: int | None = None) -> Point:
        """The metric with the parameter at ``value`` (``None``: its default) over the first
        ``games`` games of the cell."""
        count = self.players if players is None else players
        options = dict(self.experiment.fixed)
        if value is not None:
            options[self.spec.parameter] = value
        cell = Cell(0, count, (), tuple(sorted(options.items())))
        sized = _with_games(self.experiment, games)
        tasks = sized.tasks(cell)
        missing = [(i, t) for i, t in enumerate(tasks) if t not in self.played]
        for _, task, result in self.runner.run(self.play, missing):
            self.played[task] = result
            self.on_game(task, result)
        self.used.update(tasks)
        by_deal: dict[int, list[float]] = {}
        for task in tasks:
            result = self.played[task]
            measured = self.metric.value(result) if result.finished else None
            if measured is not None:
                by_deal.setdefault(task.deal, []).append(measured)
        means = [sum(v) / len(v) for v in by_deal.values()]
        if not means:
            raise ExperimentError(
                f"no game at {self.spec.parameter}={value} measures {self.metric.key}"
            )
        mean, low, _ = mean_interval(means)
        return Point(value, len(tasks), len(means), mean, mean - low)

    def run(self) -> Answer:
        """Search the range (see the module docstring)."""
        spec = self.spec
        start = self.experiment.games
        reference = (
            None
            if spec.reference_players is None
            else self.evaluate(None, spec.max_games, spec.reference_players)
        )
        if reference is not None:
            target, target_half = reference.mean, reference.half
        else:
            target, target_half = float(spec.target or 0.0), 0.0
        points: dict[int, Point] = {}

        def look(value: int) -> Point:
            games = start
            point = self.evaluate(value, games)
            while _undecided(point, target, target_half) and games < spec.max_games:
                games = min(2 * games, spec.max_games)
                point = self.evaluate(value, games)
            points[value] = point
            return point

        low, high = look(spec.low), look(spec.high)
        rising = high.mean >= low.mean
        reached = (
            _side(low, target, target_half, rising) <= 0 <= _side(high, target, target_half, rising)
        )
        lo, hi = spec.low, spec.high
        while hi - lo > 1 and len(points) < MAX_EVALUATIONS:
            mid = (lo + hi) // 2
            point = look(mid)
            if (point.mean - target) * (1 if rising else -1) >= 0:
                hi = mid
            else:
                lo = mid
        for neighbour in (lo - 1, hi + 1):
            if spec.low <= neighbour <= spec.high and neighbour not in points:
                look(neighbour)
        answer = _crossing(lo, points[lo], hi, points[hi], target)
        ruled_low = [v for v, p in points.items() if _side(p, target, target_half, rising) < 0]
        ruled_high = [v for v, p in points.items() if _side(p, target, target_half, rising) > 0]
        below = max(ruled_low) if ruled_low else None
        above = min(ruled_high) if ruled_high else None
        first = below + 1 if below is not None else spec.low
        last = above - 1 if above is not None else spec.high
        return Answer(
            self.players,
            target,
            target_half,
            answer,
            first,
            last,
            below,
            above,
            tuple(points[v] for v in sorted(points)),
            reached,
            len(self.used),
            reference,
        )


def _with_games(experiment: Experiment, games: int) -> Experiment:
    return replace(experiment, games=games)


def _undecided(point: Point, target: float, target_half: float) -> bool:
    """Whether the target lies within the combined 95% interval of the point and the target."""
    return abs(point.mean - target) <= math.hypot(point.half, target_half)


def _side(point: Point, target: float, target_half: float, rising: bool) -> int:
    """-1 if the point's value is clearly below the answer, 1 clearly above, 0 not ruled out
    (for a metric that falls as the parameter grows, the sides swap)."""
    if _undecided(point, target, target_half):
        return 0
    above = point.mean > target
    return 1 if above == rising else -1


def _crossing(lo: int, a: Point, hi: int, b: Point, target: float) -> float:
    """Where the line through ``a`` (at ``lo``) and ``b`` (at ``hi``) meets ``target``
    (clamped between them)."""
    if a.mean == b.mean:
        return (lo + hi) / 2
    t = (target - a.mean) / (b.mean - a.mean)
    return lo + min(1.0, max(0.0, t)) * (hi - lo)


def tune(
    experiment: Experiment,
    spec: TuneSpec,
    runner: Runner,
    played: dict[Task, GameResult] | None = None,
    on_game: Callable[[Task, GameResult], None] = lambda task, result: None,
    play: Play | None = None,
) -> list[Answer]:
    """One search per player count of the experiment; without a ``play``, its games are played
    natively where every agent has a native counterpart (:mod:`spieltisch.lab.native`)."""
    games: dict[Task, GameResult] = {} if played is None else played
    if play is None:
        play = play_for(experiment.game, experiment.agents)
    return [
        Search(experiment, spec, players, runner, games, on_game, play).run()
        for players in experiment.players
    ]


def describe(answer: Answer, spec: TuneSpec) -> str:
    """The outcome in one sentence."""
    target = f"{answer.target:.3g}"
    if answer.target_half:
        games = f" over {counted(answer.reference.games, 'game')}" if answer.reference else ""
        target += (
            f" (±{answer.target_half:.2g}, measured at {spec.reference_players} players{games})"
        )
    if not answer.reached:
        return (
            f"{answer.players} players: {spec.metric} does not reach {target} between "
            f"{spec.parameter}={spec.low} and {spec.high}; the nearest is "
            f"{spec.parameter}={round(answer.value)}"
        )
    if answer.low > answer.high:
        return (
            f"{answer.players} players: no whole {spec.parameter} brings {spec.metric} to "
            f"{target}: it jumps past it between {spec.parameter}={answer.below} and "
            f"{answer.above} (the line between them meets it at {answer.value:.1f}; "
            f"{counted(len(answer.points), 'value')} looked at, {counted(answer.games, 'game')})"
        )
    whole = f"{answer.low}" if answer.low == answer.high else f"{answer.low} to {answer.high}"
    between = ""
    if answer.below is not None and answer.above is not None:
        between = f", the crossing lying between {answer.below} and {answer.above}"
    return (
        f"{answer.players} players: {spec.parameter} = {answer.value:.1f} brings {spec.metric} "
        f"to {target}; whole values no look rules out (95%): {whole}{between} "
        f"({counted(len(answer.points), 'value')} looked at, {counted(answer.games, 'game')})"
    )
