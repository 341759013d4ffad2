"""A designer's own metrics: plug-ins the lab loads from a file of theirs or an installed package.

A plug-in is a Python file (or an importable module) that defines metrics with :func:`metric`::

    from spieltisch.lab.plugins import TracedGame, metric

    @metric("comeback", "comeback rate", rate=True,
            formula="1 when the match's winner lost its first round, else 0")
    def comeback(game: TracedGame) -> float | None:
        if len(game.rounds) < 2:
            return None  # a one-round match has no comeback to make
        return float(game.rounds[0]["winner"] not in game.winners)

An experiment names its plug-ins (``plugins = ["comeback.py"]``, paths relative to the
experiment file) and then their metrics like any other (``metrics = ["comeback"]``); installed
packages may also declare plug-in modules under the ``spieltisch.metrics`` entry-point group,
whose metrics every experiment may then name. Each metric is computed where its game is played,
from the traced game (:class:`TracedGame`: the record of every move, the per-round results the
game keeps, the per-decision chances to win the game-quality measures read), and kept with the
game's other measures (journal, CSV, report), so the analysis, the intervals and the
comparisons treat it as any built-in metric. A metric returns a number, or ``None`` when the
game says nothing about it (the game is then left out of its mean).

Checked when loaded (:class:`PluginError`, naming the plug-in and what is wrong): the file
exists and imports, defines at least one metric, every key is new (no built-in metric's, no
other plug-in's) and of lower-case letters, digits and hyphens; a measure that raises names the
metric and the game.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from spieltisch.core.errors import OptionError
from spieltisch.core.game import PlayerId
from spieltisch.core.record import Record

ENTRY_POINTS = "spieltisch.metrics"
"""The entry-point group under which installed packages declare plug-in modules."""
KEY = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""What a plug-in metric's key looks like."""
MAX_PLUGINS = 8
"""The most plug-ins one experiment may name."""

Estimate = tuple[float, ...]
Round = Mapping[str, object]
"""One round's result as the game keeps it (Awimbawé: ``number``, ``winner``, ``crowns``,
``hyenas``, ``fourth_hyena``)."""


class PluginError(OptionError):
    """A plug-in that cannot be used: the message names it and what is wrong."""


@dataclass(frozen=True, slots=True)
class TracedGame:
    """One finished game as a plug-in metric sees it."""

    game: str
    players: int
    options: Mapping[str, object]
    seats: tuple[str, ...]
    """Each seat's agent."""
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    winners: frozenset[PlayerId]
    record: Record
    """Every move of the game, chance included (``record.moves``), replayable."""
    rounds: tuple[Round, ...]
    """The results of the game's rounds in order (empty for a game without rounds)."""
    estimates: tuple[Estimate, ...]
    """Each player's chance to win at every decision, as the game-quality measures read it."""


@dataclass(frozen=True, slots=True)
class PluginMetric:
    """A metric of a plug-in: its key, how it reads, and its measure of a traced game."""

    key: str
    title: str
    measure: Callable[[TracedGame], float | None] = field(compare=False)
    rate: bool = False
    """Whether values are rates (shown in percentage points), else plain numbers."""
    formula: str = ""
    precision: float = 0.02
    """The half-width the sample-size guide aims at for a difference in this metric."""
    source: str = ""
    """The plug-in it came from (filled in when loaded)."""


def metric(
    key: str, title: str, *, rate: bool = False, formula: str = "", precision: float = 0.02
) -> Callable[[Callable[[TracedGame], float | None]], PluginMetric]:
    """Make the decorated function a plug-in metric called ``key`` (see the module docstring)."""

    def wrap(measure: Callable[[TracedGame], float | None]) -> PluginMetric:
        return PluginMetric(key, title, measure, rate, formula or title, precision)

    return wrap


@functools.cache
def _load_source(source: str) -> tuple[PluginMetric, ...]:
    """The metrics one plug-in defines (a ``.py`` file's path, or a module's name)."""
    module = _import(source)
    found = tuple(
        PluginMetric(m.key, m.title, m.measure, m.rate, m.formula, m.precision, source)
        for m in vars(module).values()
        if isinstance(m, PluginMetric)
    )
    if not found:
        raise PluginError(f"plug-in {source}: defines no metric (decorate one with @metric)")
    for m in found:
        if not KEY.fullmatch(m.key):
            raise PluginError(
                f"plug-in {source}: metric key {m.key!r} is not 1 to 40 lower-case letters, "
                "digits and hyphens starting with a letter"
            )
    return found


def _import(source: str) -> object:
    if source.endswith(".py"):
        path = Path(source)
        if not path.is_file():
            raise PluginError(f"plug-in {source}: no such file")
        name = f"spieltisch_plugin_{abs(hash(str(path.resolve())))}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise PluginError(f"plug-in {source}: cannot be imported")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as error:
            del sys.modules[name]
            raise PluginError(f"plug-in {source}: importing it failed: {error!r}") from None
        return module
    try:
        return importlib.import_module(source)
    except Exception as error:
        raise PluginError(f"plug-in {source}: importing it failed: {error!r}") from None


@functools.cache
def declared() -> tuple[str, ...]:
    """The plug-in modules installed packages declare (``spieltisch.metrics`` entry points)."""
    return tuple(sorted(e.value for e in metadata.entry_points(group=ENTRY_POINTS)))


def load(sources: Sequence[str], builtin: frozenset[str] = frozenset()) -> dict[str, PluginMetric]:
    """Every metric of the plug-ins ``sources`` and of the declared ones, by key; a key that
    is one of ``builtin`` or comes twice is refused."""
    if len(sources) > MAX_PLUGINS:
        raise PluginError(f"name at most {MAX_PLUGINS} plug-ins")
    found: dict[str, PluginMetric] = {}
    for source in (*sources, *declared()):
        for m in _load_source(source):
            if m.key in builtin:
                raise PluginError(f"plug-in {source}: {m.key!r} is a built-in metric's key")
            other = found.get(m.key)
            if other is not None and other.source != source:
                raise PluginError(f"plug-in {source}: {m.key!r} is also {other.source}'s metric")
            found[m.key] = m
    return found


def measure(plugin: PluginMetric, game: TracedGame) -> float | None:
    """``plugin``'s value for ``game`` (a :class:`PluginError` naming both if it fails)."""
    try:
        value = plugin.measure(game)
    except Exception as error:
        raise PluginError(
            f"plug-in metric {plugin.key!r} ({plugin.source}) failed on a game of {game.game} "
            f"(seats {', '.join(game.seats)}): {error!r}"
        ) from None
    if value is not None and not isinstance(value, int | float):
        raise PluginError(f"plug-in metric {plugin.key!r} returned {value!r}, not a number")
    return None if value is None else float(value)
