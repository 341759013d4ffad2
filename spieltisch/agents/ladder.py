"""The bot ladder: every rated bot level of every game, with a fixed rating from measured games.

The ladder is a file in this package, ``ladder.json``, written by ``spieltisch lab ladder``
(:mod:`spieltisch.lab.ladder`, which also says how the ratings are measured; ``docs/ladder.md``
shows the table). For each game and number of players it lists the levels weakest first, each
with its rating on OpenSkill's scale (``mu``), the 95% interval the measurement quotes
(``low``, ``high``), ``sigma`` read from that interval, and the games behind it. A person's
rated game against bots moves only the person; the bots keep these numbers. Beside the
tables the file keeps the measurement's *check* (:class:`Agreement`): for each two rungs side
by side, the chance the ratings give the stronger to finish ahead of the weaker
(:func:`ahead_chance`) against the rate their own games measured.

:func:`finishing_ranks` is the one way a finished game is turned into ranks, both for the
ladder's measurement and for rating people, so the two are on the same footing. Pure: the
file is read with :mod:`importlib.resources`, nothing else touches the outside world.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from spieltisch.core.errors import SpieltischError
from spieltisch.core.words import N_

LADDER_FILE = "ladder.json"
"""The ladder's file, beside this module."""
MODEL = "PlackettLuce"
"""The rating model the ladder's numbers belong to (OpenSkill's)."""
BETA = 25 / 6
"""OpenSkill's default ``beta`` (the ladder's scale: see :func:`ahead_chance`)."""


_Row = TypeVar("_Row")


class LadderError(SpieltischError):
    """A ladder file that cannot be read: the message names what is wrong and where."""


@dataclass(frozen=True, slots=True)
class Rung:
    """One bot level's fixed rating for one game and number of players."""

    level: str
    """The level's agent name, as the lobby seats it (``heuristic``, ``ismcts:500``)."""
    mu: float
    """Its strength on OpenSkill's scale."""
    sigma: float
    """Its uncertainty: the 95% interval's width over 3.92."""
    low: float
    """The 95% interval's lower end."""
    high: float
    """The 95% interval's upper end."""
    games: int
    """The measured games it took part in."""

    def to_json(self) -> dict[str, object]:
        """The rung as the file stores it."""
        return {
            "level": self.level,
            "mu": self.mu,
            "sigma": self.sigma,
            "low": self.low,
            "high": self.high,
            "games": self.games,
        }


def ahead_chance(stronger: float, weaker: float, players: int) -> float:
    """The chance the ratings ``stronger`` and ``weaker`` (two ``mu`` of one table) give a seat
    of the first to finish ahead of a seat of the second in a game of ``players`` bots. In
    Plackett-Luce, which OpenSkill's model is at zero sigma, a seat is ahead of another with
    the chance ``g_a / (g_a + g_b)``, ``g = exp(mu / (sqrt(players) * beta))``, whoever else
    is at the table; with two players it is the chance to win."""
    return 1.0 / (1.0 + math.exp(-(stronger - weaker) / (math.sqrt(players) * BETA)))


@dataclass(frozen=True, slots=True)
class Agreement:
    """Two rungs side by side in a table: the head-to-head their ratings predict
    (:func:`ahead_chance`) against the one measured in the games they played each other."""

    weaker: str
    stronger: str
    games: int
    """The games the two played each other (0: they never met, nothing to compare)."""
    predicted: float
    """The chance a seat of ``stronger`` finishes ahead of a seat of ``weaker``, by the
    ratings."""
    measured: float
    """The share of their games' seat pairs that ``stronger`` finished ahead in (ties half)."""
    low: float
    """The 95% Wilson interval of ``measured`` (each game counted once), lower end."""
    high: float
    """... and upper end."""

    @property
    def agrees(self) -> bool:
        """Whether the prediction lies within the measured interval (never, unmeasured)."""
        return self.games > 0 and self.low <= self.predicted <= self.high

    def to_json(self) -> dict[str, object]:
        """The agreement as the file stores it."""
        return {
            "weaker": self.weaker,
            "stronger": self.stronger,
            "games": self.games,
            "predicted": self.predicted,
            "measured": self.measured,
            "low": self.low,
            "high": self.high,
            "agrees": self.agrees,
        }


NAMES = (
    N_("Beginner"),
    N_("Casual"),
    N_("Advanced"),
    N_("Strong"),
    N_("Expert"),
    N_("Virtuoso"),
    N_("Master"),
)
"""What people call the ladder's levels, weakest first (msgids: each surface says them in its
reader's language). The raw level ids stay for experts."""


def rung_names(count: int) -> tuple[str, ...]:
    """The names of ``count`` rungs, weakest first, each a different one: the weakest is a
    beginner and the strongest a master, whatever their number; between them, the names in
    order (more rungs than names: the middle names repeat with a number)."""
    if count <= 0:
        return ()
    if count == 1:
        return (NAMES[-1],)
    middle = list(NAMES[:-1][: count - 1])
    extra = count - 1 - len(middle)
    middle += [f"{NAMES[-2]} {index + 2}" for index in range(extra)]
    return (*middle, NAMES[-1])


@dataclass(frozen=True, slots=True)
class NamedRung:
    """A rung with the name people choose it by."""

    rung: Rung
    name: str
    """A msgid of :data:`NAMES` (``Beginner`` ... ``Master``)."""


@dataclass(frozen=True, slots=True)
class Ladder:
    """The rated bot levels of every game and number of players, and how they were measured."""

    command: str
    """The command that measures the ladder again (same arguments: the same file)."""
    seed: int
    """The measurement's seed."""
    tables: Mapping[str, Mapping[int, tuple[Rung, ...]]]
    """Game id, then number of players, then the rungs weakest first."""
    model: str = MODEL
    notes: tuple[str, ...] = ()
    """What a reader of the file should know (fewer games somewhere, and why)."""
    checks: Mapping[str, Mapping[int, tuple[Agreement, ...]]] = field(default_factory=dict)
    """Game id, then number of players, then each pair of rungs side by side, weakest first:
    the measurement's check (none in a file written before it)."""

    def disagreements(self) -> list[tuple[str, int, Agreement]]:
        """The checked pairs whose prediction lies outside the measured interval (or that never
        met), with their game and number of players."""
        return [
            (game, players, pair)
            for game in sorted(self.checks)
            for players in sorted(self.checks[game])
            for pair in self.checks[game][players]
            if not pair.agrees
        ]

    def rungs(self, game: str, players: int) -> tuple[Rung, ...]:
        """The rungs of ``game`` for ``players``, weakest first (none if not measured)."""
        return self.tables.get(game, {}).get(players, ())

    def rung(self, game: str, players: int, level: str) -> Rung | None:
        """The rung of ``level``, if it is on the ladder."""
        return next((r for r in self.rungs(game, players) if r.level == level), None)

    def named(self, game: str, players: int) -> tuple[NamedRung, ...]:
        """The rungs of ``game`` for ``players``, weakest first, each with the name people
        choose it by (:func:`rung_names`)."""
        rungs = self.rungs(game, players)
        return tuple(
            NamedRung(r, name) for r, name in zip(rungs, rung_names(len(rungs)), strict=True)
        )

    def name_of(self, game: str, players: int, level: str) -> str | None:
        """The name people know ``level`` by at this table size (``None``: not on the ladder)."""
        return next((n.name for n in self.named(game, players) if n.rung.level == level), None)

    def level_near(self, game: str, players: int, mu: float) -> str | None:
        """The level whose ``mu`` is nearest to ``mu`` (the weaker one on an exact tie)."""
        rungs = self.rungs(game, players)
        if not rungs:
            return None
        return min(rungs, key=lambda r: abs(r.mu - mu)).level

    def between(self, game: str, players: int, value: float) -> tuple[str | None, str | None]:
        """The levels just below and just above ``value`` (by their ``mu``; ``None`` past an
        end). A value equal to a rung's ``mu`` counts as above that rung."""
        rungs = self.rungs(game, players)
        below = [r for r in rungs if r.mu <= value]
        above = [r for r in rungs if r.mu > value]
        lower = max(below, key=lambda r: r.mu).level if below else None
        upper = min(above, key=lambda r: r.mu).level if above else None
        return lower, upper

    def to_json(self) -> str:
        """The ladder as its file holds it: stable key order, one rung a line, a final newline."""
        lines = ["{"]
        lines.append(f'  "command": {json.dumps(self.command)},')
        lines.append(f'  "seed": {self.seed},')
        lines.append(f'  "model": {json.dumps(self.model)},')
        lines.append(f'  "notes": {json.dumps(list(self.notes), ensure_ascii=False)},')
        lines.append('  "games": {')
        lines += _nested(self.tables, lambda rung: rung.to_json())
        if self.checks:
            lines.append("  },")
            lines.append('  "check": {')
            lines += _nested(self.checks, lambda pair: pair.to_json())
        lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _nested(
    tables: Mapping[str, Mapping[int, Sequence[Rung | Agreement]]],
    row: Callable[[Any], dict[str, object]],
) -> list[str]:
    """The lines of a table of game ids, then player counts, then rows (one a line)."""
    lines = []
    games = sorted(tables)
    for g_index, game in enumerate(games):
        lines.append(f"    {json.dumps(game)}: {{")
        counts = sorted(tables[game])
        for c_index, players in enumerate(counts):
            lines.append(f'      "{players}": [')
            rows = tables[game][players]
            for r_index, item in enumerate(rows):
                comma = "," if r_index < len(rows) - 1 else ""
                lines.append(f"        {json.dumps(row(item), ensure_ascii=False)}{comma}")
            lines.append("      ]" + ("," if c_index < len(counts) - 1 else ""))
        lines.append("    }" + ("," if g_index < len(games) - 1 else ""))
    return lines


def finishing_ranks(scores: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Each seat's rank in a finished game, 0 the best: the winners first (the game's own
    winners, which may break a tie on points), then the others by points, more is better.
    Equal ranks are ties. ``winners`` are seat numbers."""
    won = set(winners)
    keys = [(seat not in won, -score) for seat, score in enumerate(scores)]
    return tuple(sum(other < key for other in keys) for key in keys)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LadderError(f"{where} must be a finite number, not {value!r}")
    return float(value)


def _rung(data: object, where: str) -> Rung:
    if not isinstance(data, dict):
        raise LadderError(f"{where} must be an object, not {type(data).__name__}")
    wanted = {"level", "mu", "sigma", "low", "high", "games"}
    if set(data) != wanted:
        missing, extra = sorted(wanted - set(data)), sorted(set(data) - wanted)
        raise LadderError(f"{where} has keys missing {missing} and unknown {extra}")
    level, games = data["level"], data["games"]
    if not isinstance(level, str) or not level:
        raise LadderError(f"{where}.level must be an agent name, not {level!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise LadderError(f"{where}.games must be a count, not {games!r}")
    rung = Rung(
        level,
        _number(data["mu"], f"{where}.mu"),
        _number(data["sigma"], f"{where}.sigma"),
        _number(data["low"], f"{where}.low"),
        _number(data["high"], f"{where}.high"),
        games,
    )
    if rung.sigma < 0 or not rung.low <= rung.mu <= rung.high:
        raise LadderError(
            f"{where} ({level}): its interval [{rung.low}, {rung.high}] must hold mu {rung.mu} "
            f"and sigma {rung.sigma} must not be negative"
        )
    return rung


def _rungs(data: object, where: str) -> tuple[Rung, ...]:
    if not isinstance(data, list):
        raise LadderError(f"{where} must be a list of rungs")
    rungs = tuple(_rung(item, f"{where}[{i}]") for i, item in enumerate(data))
    levels = [r.level for r in rungs]
    if len(set(levels)) != len(levels):
        raise LadderError(f"{where} names a level twice: {levels}")
    if any(a.mu > b.mu for a, b in itertools.pairwise(rungs)):
        raise LadderError(f"{where} is not weakest first: {levels}")
    return rungs


def _agreement(data: object, where: str) -> Agreement:
    if not isinstance(data, dict):
        raise LadderError(f"{where} must be an object, not {type(data).__name__}")
    wanted = {"weaker", "stronger", "games", "predicted", "measured", "low", "high", "agrees"}
    if set(data) != wanted:
        missing, extra = sorted(wanted - set(data)), sorted(set(data) - wanted)
        raise LadderError(f"{where} has keys missing {missing} and unknown {extra}")
    weaker, stronger, games = data["weaker"], data["stronger"], data["games"]
    if not all(isinstance(level, str) and level for level in (weaker, stronger)):
        raise LadderError(f"{where} must name two levels, not {weaker!r} and {stronger!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise LadderError(f"{where}.games must be a count, not {games!r}")
    pair = Agreement(
        str(weaker),
        str(stronger),
        games,
        *(_number(data[key], f"{where}.{key}") for key in ("predicted", "measured", "low", "high")),
    )
    if data["agrees"] is not pair.agrees:
        raise LadderError(f"{where}.agrees must be {pair.agrees}: it is what the numbers say")
    return pair


def _by_table(
    data: object, key: str, rows: Callable[[object, str], _Row]
) -> dict[str, dict[int, _Row]]:
    if not isinstance(data, dict):
        raise LadderError(f"{key!r} must be an object of game ids")
    tables: dict[str, dict[int, _Row]] = {}
    for game, counts in data.items():
        if not isinstance(counts, dict):
            raise LadderError(f"{key}.{game} must be an object of player counts")
        tables[game] = {}
        for players, items in counts.items():
            if not (isinstance(players, str) and players.isdigit() and int(players) >= 1):
                raise LadderError(f"{key}.{game}: {players!r} is not a number of players")
            tables[game][int(players)] = rows(items, f"{key}.{game}.{players}")
    return tables


def _agreements(data: object, where: str) -> tuple[Agreement, ...]:
    if not isinstance(data, list):
        raise LadderError(f"{where} must be a list of checked pairs")
    return tuple(_agreement(item, f"{where}[{i}]") for i, item in enumerate(data))


def ladder_from_json(text: str) -> Ladder:
    """The ladder a file holds. Raises :class:`LadderError` naming what is wrong."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise LadderError(f"the ladder is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise LadderError("the ladder must be a JSON object")
    for key in ("command", "seed", "model", "games"):
        if key not in data:
            raise LadderError(f"the ladder has no {key!r}")
    command, seed, model, notes = data["command"], data["seed"], data["model"], data.get("notes")
    if not isinstance(command, str) or not command.startswith("spieltisch lab ladder"):
        raise LadderError(f"'command' must be a 'spieltisch lab ladder' command, not {command!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise LadderError(f"'seed' must be a whole number, not {seed!r}")
    if model != MODEL:
        raise LadderError(f"'model' must be {MODEL!r}, not {model!r}")
    notes = [] if notes is None else notes
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise LadderError("'notes' must be a list of sentences")
    tables = _by_table(data["games"], "games", _rungs)
    checks = _by_table(data.get("check", {}), "check", _agreements)
    return Ladder(command, seed, tables, model, tuple(notes), checks)


@functools.cache
def load_ladder() -> Ladder:
    """The ladder shipped in this package (read once)."""
    text = resources.files("spieltisch.agents").joinpath(LADDER_FILE).read_text(encoding="utf-8")
    return ladder_from_json(text)


__all__ = [
    "BETA",
    "LADDER_FILE",
    "MODEL",
    "Agreement",
    "Ladder",
    "LadderError",
    "Rung",
    "ahead_chance",
    "finishing_ranks",
    "ladder_from_json",
    "load_ladder",
]
