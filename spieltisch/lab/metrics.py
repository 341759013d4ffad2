"""What an experiment measures: metrics as small named functions of one game's result.

Each :class:`Metric` turns one finished game into a number (or ``None`` when the game says
nothing about it, such as a head-to-head metric in a game where the two agents did not meet).
An experiment names the metrics it wants (``metrics = [...]``); the analysis takes each one's
mean per cell with an interval from resampling the deals, and compares variants on it deal by
deal. Metrics with a parameter are written ``key:parameter``: ``seat-win:2``,
``head-to-head:expert:heuristic``, ``head-to-head:ismcts:2000:heuristic`` (an agent's setting
starts with a digit, so the second agent is the first later part that starts with a letter).

The game-quality measures (``lead-changes``, ``drama``, ``decisiveness``, ``uncertainty``) need
to know who looked ahead at every decision; an experiment asking for one has its games traced
where they are played (:mod:`spieltisch.lab.quality`), and the result carries the numbers.
:data:`CATALOGUE` lists every metric with its formula and where it comes from;
``docs/lab/README.md`` shows the same list.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spieltisch.core.errors import OptionError
from spieltisch.lab.engine import GameResult
from spieltisch.lab.plugins import PluginMetric, declared
from spieltisch.lab.plugins import load as load_plugins
from spieltisch.lab.quality import CURVE_KEYS

MAX_METRICS = 16
"""The most metrics one experiment may name."""
MAX_KEY = 120


class Scale(enum.Enum):
    """How a metric's values read: a rate shown in percentage points, or a plain number."""

    RATE = "rate"
    NUMBER = "number"


@dataclass(frozen=True, slots=True)
class Metric:
    """One named measurement of a game."""

    key: str
    title: str
    scale: Scale
    precision: float
    """The half-width the sample-size guide aims at for a difference in this metric."""
    measure: Callable[[GameResult], float | None] = field(compare=False)
    formula: str = field(compare=False)
    reference: str = ""
    traced: bool = False
    """Whether the games must be traced (a game-quality measure, a plug-in's metric)."""
    source: str = ""
    """The plug-in it comes from (empty for a built-in metric)."""

    def value(self, result: GameResult) -> float | None:
        """This metric for one game (``None``: this game says nothing about it)."""
        return self.measure(result)

    @property
    def percent(self) -> bool:
        """Whether values read as percentage points."""
        return self.scale is Scale.RATE


class MetricError(OptionError):
    """A metric name that is not known or whose parameter does not fit."""


def _first_seat(result: GameResult) -> float:
    return result.returns[0]


def _mean_score(result: GameResult) -> float:
    return sum(result.scores) / len(result.scores)


def _decisions(result: GameResult) -> float:
    return float(result.actions)


def _top_score(result: GameResult) -> float:
    return float(max(result.scores))


def _margin(result: GameResult) -> float | None:
    if len(result.scores) < 2:
        return None
    top, second = sorted(result.scores, reverse=True)[:2]
    return float(top - second)


def ahead(result: GameResult, a: int, b: int) -> float:
    """1 if seat ``a`` finished ahead of seat ``b`` (a larger share of the win, then more
    points), 0 if behind, ½ if level on both."""
    mine = (result.returns[a], result.scores[a])
    theirs = (result.returns[b], result.scores[b])
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def head_to_head_agents(key: str) -> tuple[str, str] | None:
    """The two agents a ``head-to-head:A:B`` key names, or ``None`` when it does not name two
    different ones. A or B may carry a setting (``ismcts:2000``, ``ismcts:1s``): settings start
    with a digit and agent names with a letter, so B is the first part after A's name that
    starts with a letter."""
    parts = key.split(":")
    if len(parts) < 3 or parts[0] != "head-to-head":
        return None
    cut = next((i for i in range(2, len(parts)) if parts[i][:1].isalpha()), None)
    if cut is None:
        return None
    first, second = ":".join(parts[1:cut]), ":".join(parts[cut:])
    return (first, second) if first and first != second else None


def head_to_head(first: str, second: str) -> Callable[[GameResult], float | None]:
    """The share of meetings ``first`` finished ahead of ``second``, over every pair of their
    seats in one game; ``None`` when they did not both play."""

    def measure(result: GameResult) -> float | None:
        pairs = [
            ahead(result, a, b)
            for a, name_a in enumerate(result.seats)
            for b, name_b in enumerate(result.seats)
            if a != b and name_a == first and name_b == second
        ]
        return sum(pairs) / len(pairs) if pairs else None

    return measure


def seat_win(seat: int) -> Callable[[GameResult], float | None]:
    """Seat ``seat``'s (1-based) share of the win; ``None`` at a smaller table."""

    def measure(result: GameResult) -> float | None:
        return result.returns[seat - 1] if seat <= len(result.returns) else None

    return measure


def _traced(key: str) -> Callable[[GameResult], float | None]:
    def measure(result: GameResult) -> float | None:
        return result.measure(key)

    return measure


BROWNE = (
    "Browne, Automatic Generation and Evaluation of Recombination Games (2008), ch. 5; "
    "as computed by Ludii's evaluation metrics"
)

PLAIN: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric(
            "first-seat-win",
            "first seat's win rate",
            Scale.RATE,
            0.02,
            _first_seat,
            "the first seat's share of the win (1 for a win, 1/k for a win shared by k)",
            "Ludii's AdvantageP1",
        ),
        Metric(
            "mean-score",
            "mean score",
            Scale.NUMBER,
            1.0,
            _mean_score,
            "the mean of the players' final scores",
        ),
        Metric(
            "decisions",
            "decisions per game",
            Scale.NUMBER,
            1.0,
            _decisions,
            "the players' decisions in the game (chance not counted)",
        ),
        Metric(
            "top-score",
            "top score",
            Scale.NUMBER,
            1.0,
            _top_score,
            "the highest final score (the winner's, in a game won on points)",
        ),
        Metric(
            "margin",
            "score margin",
            Scale.NUMBER,
            1.0,
            _margin,
            "the highest final score less the second highest (0 for a tie at the top)",
        ),
        *(
            Metric(
                key,
                title,
                Scale.NUMBER,
                0.02,
                _traced(key),
                formula,
                BROWNE,
                traced=True,
            )
            for key, title, formula in (
                (
                    "lead-changes",
                    "lead changes",
                    "decisions at which the set of leaders differs from the decision before, "
                    "over the decisions",
                ),
                (
                    "drama",
                    "drama",
                    "mean over decisions of the leader's chance less the eventual winner's",
                ),
                (
                    "decisiveness",
                    "decisiveness",
                    "share of the decisions played before a winner's chance first exceeds the "
                    "best chance any loser ever had (lower: decided earlier)",
                ),
                (
                    "uncertainty",
                    "uncertainty",
                    "mean over decisions of the entropy of the chances over log(players)",
                ),
            )
        ),
    )
}

ALIASES = {"seat-advantage": "first-seat-win"}
"""Older names still accepted in experiment files, each for the metric it now reads as.
``seat-advantage`` was the first seat's share less 1/players: at one player count that is
``first-seat-win`` moved by a constant, the same comparison, so it no longer takes a test of
its own."""

DEFAULT_METRICS = ("first-seat-win", "mean-score", "decisions")
"""What an experiment measures when it names no metrics."""

PARAMETRISED = {
    "seat-win": "seat-win:N: seat N's win rate (1-based)",
    "head-to-head": "head-to-head:A:B: the share of meetings agent A finished ahead of agent B "
    "(a larger share of the win, then more points; ½ for level)",
    "uncertainty-at": "uncertainty-at:P: the uncertainty in the tenth of the game ending at P% "
    "(P = 10, 20, ..., 100)",
}


def _plugin_metric(found: PluginMetric) -> Metric:
    """A plug-in's metric as the analysis reads it: from the traced game's measures."""
    return Metric(
        found.key,
        found.title,
        Scale.RATE if found.rate else Scale.NUMBER,
        found.precision,
        _traced(found.key),
        found.formula,
        f"plug-in {Path(found.source).name if found.source.endswith('.py') else found.source}",
        traced=True,
        source=found.source,
    )


def metric(key: str, plugins: Sequence[str] = ()) -> Metric:
    """The metric called ``key``, built in or of one of the ``plugins`` (or of an installed
    package's declared plug-in); :class:`MetricError` naming the known ones otherwise."""
    if len(key) > MAX_KEY:
        raise MetricError(f"metric names are at most {MAX_KEY} characters")
    key = ALIASES.get(key, key)
    if key in PLAIN:
        return PLAIN[key]
    extra = load_plugins(plugins, frozenset(PLAIN)) if plugins or declared() else {}
    if key in extra:
        return _plugin_metric(extra[key])
    name, _, rest = key.partition(":")
    if name == "seat-win" and rest.isdigit() and 1 <= int(rest) <= 8:
        seat = int(rest)
        return Metric(
            key,
            f"seat {seat}'s win rate",
            Scale.RATE,
            0.02,
            seat_win(seat),
            f"seat {seat}'s share of the win",
        )
    if key in CURVE_KEYS:
        return Metric(
            key,
            f"uncertainty to {rest}% of the game",
            Scale.NUMBER,
            0.02,
            _traced(key),
            f"mean over the decisions in the tenth of the game ending at {rest}% of its "
            "decisions of the entropy of the chances over log(players)",
            BROWNE,
            traced=True,
        )
    pair = head_to_head_agents(key) if name == "head-to-head" else None
    if pair is not None:
        first, second = pair
        return Metric(
            key,
            f"{first} ahead of {second}",
            Scale.RATE,
            0.02,
            head_to_head(first, second),
            f"the share of meetings {first} finished ahead of {second}, over every pair of "
            "their seats (a larger share of the win, then more points; ½ when level)",
        )
    own = f"; of the plug-ins: {', '.join(extra)}" if extra else ""
    raise MetricError(
        f"no metric {key!r}; known: {', '.join(PLAIN)}, and {'; '.join(PARAMETRISED.values())}"
        + own
    )


def metrics(keys: Sequence[str], plugins: Sequence[str] = ()) -> tuple[Metric, ...]:
    """The metrics called ``keys``, each checked (at most :data:`MAX_METRICS`, none twice).
    A metric named again by an older name (:data:`ALIASES`) is measured once, so an old
    experiment file naming both still runs and the comparison counts once among the tests."""
    if not keys or len(keys) > MAX_METRICS:
        raise MetricError(f"name 1 to {MAX_METRICS} metrics")
    if len(set(keys)) != len(keys):
        raise MetricError("a metric is named twice")
    found = {m.key: m for m in (metric(key, plugins) for key in keys)}
    return tuple(found.values())


def catalogue() -> list[tuple[str, str, str]]:
    """Every metric as (key, formula, reference), the parametrised ones by their pattern."""
    rows = [(m.key, m.formula, m.reference) for m in PLAIN.values()]
    rows += [(key + ":…", text, "") for key, text in PARAMETRISED.items()]
    return rows
