"""Experiments as files: a game, a grid of player counts and option values, agents, a seed.

An experiment is a TOML file::

    name = "Nüsse: the 5-nut store"
    game = "auf-die-nuesse"
    players = [2, 3, 4]          # one cell per player count and variant
    games = 400                  # games per cell (rounded up to whole deals)
    seed = 1
    agents = ["heuristic"]       # the seat lineup, repeated round the table
    rotate = true                # rotate the seats on each deal (when the lineup mixes agents)
    metrics = ["first-seat-win", "mean-score", "decisions"]   # what to measure and compare
    engine = "auto"              # auto (native where it can), native or python
    [options]                    # options every cell plays with
    late_jokers = true
    [grid]                       # options that vary: every combination is a variant
    store_table = ["standard", "five_25"]

Instead of a grid, ``variants`` may list the variants one by one, each a table of the options
it changes (``{}`` is the default game): ``variants = [{}, {collect_order = "next_first"},
{raccoon_optional = false}]`` compares single rulings without playing every combination.

Every cell with the same player count plays the same deals: deal ``d`` has the chance seed
``derive_seed(seed, "deal", players, d)`` and the same agent seeds whatever the variant, and its
tables draw *keyed* chance (see :mod:`spieltisch.session.table`), so two variants meet the same
rolls and deals wherever their games are at the same place: the comparison between them is
paired (common random numbers). Seeds depend only on the experiment, never on the worker that
plays a game, so every backend and worker count gives the same results; but the native and
the Python engine draw other games from the same seeds (:mod:`spieltisch.lab.native`), so a run
names the engine it played with, and a journal is resumed only by its own engine.
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import spieltisch
from spieltisch.core.errors import OptionError, SpieltischError
from spieltisch.core.game import OptionValue
from spieltisch.lab.agents import lab_agent
from spieltisch.lab.engine import (
    GameResult,
    Runner,
    Task,
    check_engine,
    derive_seed,
    journal_writer,
    read_journal,
)
from spieltisch.lab.metrics import (
    DEFAULT_METRICS,
    PLAIN,
    Metric,
    MetricError,
    head_to_head_agents,
)
from spieltisch.lab.metrics import metrics as metrics_named
from spieltisch.lab.native import ENGINES, Used, play_of, resolve_engine
from spieltisch.lab.plugins import PluginError
from spieltisch.lab.plugins import load as load_plugins
from spieltisch.lab.schema import MAX_ERRORS, known_keys, schema_errors

MAX_FILE_BYTES = 100_000
"""The largest experiment file read; a longer one is refused unread."""
MAX_PLAYER_COUNTS = 8
MAX_GRID_OPTIONS = 6
MAX_VALUES = 12
MAX_CELLS = 256
MAX_GAMES_PER_CELL = 1_000_000
MAX_GAMES = 5_000_000
MAX_AGENTS = 8
MAX_TEXT = 200
"""Bounds on an experiment, so a mistyped file cannot schedule more than a machine can hold."""

KNOWN_KEYS = known_keys()
"""The keys an experiment file may have (the schema's)."""


class ExperimentError(OptionError):
    """An experiment file that cannot be run, naming what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the grid: a player count and one value for every varying option."""

    index: int
    players: int
    variant: tuple[tuple[str, OptionValue], ...]
    """The grid's options and their values here (the options that vary)."""
    options: tuple[tuple[str, OptionValue], ...]
    """Every option the games are loaded with (fixed and varying), sorted by name."""

    @property
    def label(self) -> str:
        """The variant in words: ``store_table=five_25`` (``default`` without a grid)."""
        return ", ".join(f"{name}={_text(value)}" for name, value in self.variant) or "default"


@dataclass(frozen=True, slots=True)
class Experiment:
    """A parsed experiment file (see the module docstring)."""

    name: str
    game: str
    players: tuple[int, ...]
    games: int
    seed: int
    agents: tuple[str, ...]
    rotate: bool = True
    fixed: tuple[tuple[str, OptionValue], ...] = ()
    grid: tuple[tuple[str, tuple[OptionValue, ...]], ...] = ()
    notes: str = ""
    variants: tuple[tuple[tuple[str, OptionValue], ...], ...] = ()
    """Variants listed one by one (instead of a grid): the options each one sets."""
    metrics: tuple[str, ...] = DEFAULT_METRICS
    """What the analysis measures and compares (keys of :mod:`spieltisch.lab.metrics`)."""
    tuning: tuple[tuple[str, bool | int | float | str], ...] = ()
    """The ``[tune]`` table as written (what ``lab tune`` searches; see
    :mod:`spieltisch.lab.tune`)."""
    engine: str = "auto"
    """The engine asked for: ``auto``, ``native`` or ``python`` (see
    :func:`~spieltisch.lab.native.resolve_engine`)."""
    plugins: tuple[str, ...] = ()
    """The metric plug-ins it names (:mod:`spieltisch.lab.plugins`), file paths resolved."""

    def engine_used(self, engine: str | None = None) -> Used:
        """The engine this experiment's games are played with: ``engine`` (a command's
        choice) or the file's, resolved for its game and agents (:class:`EngineError` where
        ``native`` is asked for and cannot play them)."""
        return resolve_engine(engine or self.engine, {self.game: self.agents})

    def measured(self) -> tuple[Metric, ...]:
        """The experiment's metrics."""
        return metrics_named(self.metrics, self.plugins)

    @property
    def traced(self) -> bool:
        """Whether the games are traced for a game-quality measure."""
        return any(m.traced for m in self.measured())

    def plugin_sources(self) -> tuple[str, ...]:
        """The plug-ins a traced game must be measured by: those of the metrics it names."""
        return tuple(dict.fromkeys(m.source for m in self.measured() if m.source))

    def variant_list(self) -> list[tuple[tuple[str, OptionValue], ...]]:
        """The variants: the listed ones, or every combination of the grid's values."""
        if self.variants:
            return list(self.variants)
        names = [name for name, _ in self.grid]
        combos = itertools.product(*(values for _, values in self.grid))
        return [tuple(zip(names, combo, strict=True)) for combo in combos]

    def varying(self) -> list[str]:
        """The names of the options that vary, in the order the file gives them."""
        return list(dict.fromkeys(name for v in self.variant_list() for name, _ in v))

    def cells(self) -> list[Cell]:
        """The grid's cells: player counts outermost, then the varying options in file order."""
        cells: list[Cell] = []
        for players in self.players:
            for variant in self.variant_list():
                options = tuple(sorted({**dict(self.fixed), **dict(variant)}.items()))
                cells.append(Cell(len(cells), players, variant, options))
        return cells

    def lineup(self, players: int) -> tuple[str, ...]:
        """The agents in seat order before any rotation: the list repeated round the table."""
        return tuple(self.agents[seat % len(self.agents)] for seat in range(players))

    def rotations(self, players: int) -> int:
        """Games per deal: one per rotation of the seats when the lineup mixes agents, else one
        (rotating equal agents would replay the same deal with the same players)."""
        if self.rotate and len(set(self.lineup(players))) > 1:
            return players
        return 1

    def deals(self, players: int) -> int:
        """Deals per cell at this player count: the games per cell in whole deals."""
        return -(-self.games // self.rotations(players))

    def tasks(self, cell: Cell) -> list[Task]:
        """The games of one cell, deal by deal, each rotation of a deal in turn."""
        players = cell.players
        lineup = self.lineup(players)
        traced = self.traced
        sources = self.plugin_sources()
        tasks = []
        for deal in range(self.deals(players)):
            deal_seed = derive_seed(self.seed, "deal", players, deal)
            for rotation in range(self.rotations(players)):
                seats = tuple(lineup[(seat - rotation) % players] for seat in range(players))
                tasks.append(
                    Task(
                        self.game,
                        players,
                        cell.options,
                        deal,
                        rotation,
                        seats,
                        deal_seed,
                        keyed=True,
                        trace=traced,
                        plugins=sources,
                    )
                )
        return tasks

    def schedule(self) -> list[tuple[Cell, list[Task]]]:
        """Every cell with its games."""
        return [(cell, self.tasks(cell)) for cell in self.cells()]


def load_experiment(path: Path) -> Experiment:
    """Read and check the experiment file at ``path`` (:class:`ExperimentError` if unusable)."""
    if not path.is_file():
        raise ExperimentError(f"no experiment file at {path}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ExperimentError(f"{path} is longer than {MAX_FILE_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ExperimentError(f"{path} is not UTF-8 text") from None
    return parse_experiment(text, str(path), path.parent)


def parse_experiment(
    text: str, where: str = "the experiment", base: Path | None = None
) -> Experiment:
    """The experiment in TOML ``text``, checked against the schema (each mistake named with
    its line, see :mod:`spieltisch.lab.schema`), then against its game (see :func:`check`)."""
    if len(text) > MAX_FILE_BYTES:
        raise ExperimentError(f"{where} is longer than {MAX_FILE_BYTES} characters")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExperimentError(f"{where} is not TOML: {error}") from None
    errors = schema_errors(data, text)
    if errors:
        more = f" (and {len(errors) - MAX_ERRORS} more)" if len(errors) > MAX_ERRORS else ""
        raise ExperimentError(f"{where}: " + "; ".join(errors[:MAX_ERRORS]) + more)
    experiment = from_mapping(data, where, base)
    check(experiment)
    return experiment


def from_mapping(
    data: Mapping[str, object], where: str = "the experiment", base: Path | None = None
) -> Experiment:
    """An experiment from the parsed TOML table (types and bounds checked, not the game);
    plug-in files are found from ``base`` (the experiment file's folder), else from here."""
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise ExperimentError(f"{where}: unknown keys {', '.join(unknown)}")
    game = _string(data, "game", where)
    players = _int_list(data.get("players"), "players", where)
    if not players or len(players) > MAX_PLAYER_COUNTS:
        raise ExperimentError(f"{where}: players lists 1 to {MAX_PLAYER_COUNTS} player counts")
    games = _int(data.get("games"), "games", where)
    if not 1 <= games <= MAX_GAMES_PER_CELL:
        raise ExperimentError(f"{where}: games per cell must be 1 to {MAX_GAMES_PER_CELL}")
    seed = _int(data.get("seed", 0), "seed", where)
    agents = data.get("agents")
    if isinstance(agents, str):
        agents = [agents]
    if not isinstance(agents, list) or not agents or len(agents) > MAX_AGENTS:
        raise ExperimentError(f"{where}: agents lists 1 to {MAX_AGENTS} agent names")
    if not all(isinstance(a, str) and 0 < len(a) <= MAX_TEXT for a in agents):
        raise ExperimentError(f"{where}: every agent is a short name such as 'heuristic'")
    rotate = data.get("rotate", True)
    if not isinstance(rotate, bool):
        raise ExperimentError(f"{where}: rotate is true or false")
    fixed = _options(data.get("options", {}), where)
    grid = _grid(data.get("grid", {}), where)
    variants = _variants(data.get("variants", []), where)
    if grid and variants:
        raise ExperimentError(f"{where}: give a [grid] or a list of variants, not both")
    varied = {name for name, _ in grid} | {name for v in variants for name, _ in v}
    overlap = {name for name, _ in fixed} & varied
    if overlap:
        raise ExperimentError(f"{where}: {', '.join(sorted(overlap))} both fixed and in the grid")
    engine = data.get("engine", "auto")
    if engine not in ENGINES:
        raise ExperimentError(f"{where}: engine is one of {', '.join(ENGINES)}")
    name = data.get("name", game)
    notes = data.get("notes", "")
    if not isinstance(name, str) or not isinstance(notes, str) or len(name) > MAX_TEXT:
        raise ExperimentError(f"{where}: name and notes are text (a name of {MAX_TEXT} at most)")
    plugins = _plugins(data.get("plugins", []), base, where)
    experiment = Experiment(
        name,
        game,
        tuple(players),
        games,
        seed,
        tuple(agents),
        rotate,
        fixed,
        grid,
        notes,
        variants,
        _metrics(data.get("metrics", list(DEFAULT_METRICS)), where, plugins),
        _tuning(data.get("tune", {}), where),
        str(engine),
        plugins,
    )
    cells = len(players) * (len(variants) or math.prod(len(values) for _, values in grid))
    if cells > MAX_CELLS:
        raise ExperimentError(f"{where}: {cells} cells, more than {MAX_CELLS}")
    if cells * games > MAX_GAMES:
        raise ExperimentError(f"{where}: {cells * games} games, more than {MAX_GAMES}")
    return experiment


def check(experiment: Experiment) -> None:
    """Load every cell's game and agents once, so a bad option, player count or agent name is
    reported before any game is played (the game's own error, as an :class:`ExperimentError`).
    A head-to-head metric must name two of the experiment's agents."""
    for key in experiment.metrics:
        pair = head_to_head_agents(key)
        if pair is not None:
            missing = [a for a in pair if a not in experiment.agents]
            if missing:
                raise ExperimentError(
                    f"metric {key}: {', '.join(missing)} is not among the agents "
                    f"({', '.join(experiment.agents)})"
                )
    for cell in experiment.cells():
        try:
            game = spieltisch.load(experiment.game, cell.players, **dict(cell.options))
            for agent in set(experiment.agents):
                lab_agent(agent, game, 0)
        except SpieltischError as error:
            raise ExperimentError(f"cell {cell.players} players, {cell.label}: {error}") from None


# --- running -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunProgress:
    """How far a run is: games and whole cells done, of how many."""

    games_done: int
    games_total: int
    cells_done: int
    cells_total: int


@dataclass(frozen=True, slots=True)
class CellResults:
    """One cell's games, in schedule order (``None`` for a game not played yet)."""

    cell: Cell
    tasks: tuple[Task, ...]
    results: tuple[GameResult | None, ...]

    @property
    def played(self) -> list[GameResult]:
        """The games of the cell that have been played."""
        return [r for r in self.results if r is not None]


def run_experiment(
    experiment: Experiment,
    runner: Runner,
    journal: Path | None = None,
    progress: Callable[[RunProgress], None] | None = None,
    play: Callable[[Task], GameResult] | None = None,
) -> list[CellResults]:
    """Play every cell's games with ``runner``; with a ``journal``, the games it holds are
    taken from it and every game played is added as it ends (so a run resumes; a journal
    another engine drew is refused). Without a ``play``, the games are played with the
    experiment's engine (:meth:`Experiment.engine_used`: by default natively where every agent
    has a native counterpart and the native core is built, else in Python)."""
    plan = experiment.schedule()
    tasks = [task for _, cell_tasks in plan for task in cell_tasks]
    if play is None:
        play = play_of(experiment.engine_used())
    owner = [cell.index for cell, cell_tasks in plan for _ in cell_tasks]
    kept = read_journal(journal, tasks) if journal is not None else {}
    if journal is not None:
        check_engine(kept.values(), play, journal)
    results: dict[int, GameResult] = {i: kept[t] for i, t in enumerate(tasks) if t in kept}
    missing = [len(cell_tasks) for _, cell_tasks in plan]
    for index in results:
        missing[owner[index]] -= 1
    done = [sum(1 for m in missing if m == 0)]

    def report() -> None:
        if progress is not None:
            progress(RunProgress(len(results), len(tasks), done[0], len(plan)))

    report()
    to_play = [(i, t) for i, t in enumerate(tasks) if i not in results]
    with journal_writer(journal) as write:
        for index, task, result in runner.run(play, to_play):
            results[index] = result
            cell = owner[index]
            missing[cell] -= 1
            done[0] += missing[cell] == 0
            write(task, result)
            report()
    return collect(plan, tasks, results)


def saved_results(experiment: Experiment, journal: Path) -> list[CellResults]:
    """The cells' games as far as the journal holds them (for a report without playing)."""
    plan = experiment.schedule()
    tasks = [task for _, cell_tasks in plan for task in cell_tasks]
    kept = read_journal(journal, tasks)
    return collect(plan, tasks, {i: kept[t] for i, t in enumerate(tasks) if t in kept})


def collect(
    plan: Sequence[tuple[Cell, list[Task]]],
    tasks: Sequence[Task],
    results: Mapping[int, GameResult],
) -> list[CellResults]:
    """The results by cell, in schedule order."""
    cells = []
    start = 0
    for cell, cell_tasks in plan:
        indices = range(start, start + len(cell_tasks))
        cells.append(CellResults(cell, tuple(cell_tasks), tuple(results.get(i) for i in indices)))
        start += len(cell_tasks)
    return cells


# --- reading the file ------------------------------------------------------------------------


def _text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _string(data: Mapping[str, object], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise ExperimentError(f"{where}: {key} must be given as a short text")
    return value


def _int(value: object, key: str, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ExperimentError(f"{where}: {key} must be a whole number")
    return value


def _int_list(value: object, key: str, where: str) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if not isinstance(value, list):
        raise ExperimentError(f"{where}: {key} is a whole number or a list of them")
    numbers = [_int(v, key, where) for v in value]
    if len(set(numbers)) != len(numbers):
        raise ExperimentError(f"{where}: {key} lists a player count twice")
    return numbers


def _value(value: object, name: str, where: str) -> OptionValue:
    if isinstance(value, bool | int) or (isinstance(value, str) and len(value) <= MAX_TEXT):
        return value
    raise ExperimentError(f"{where}: option {name} takes a flag, a number or a name")


def _options(value: object, where: str) -> tuple[tuple[str, OptionValue], ...]:
    if not isinstance(value, dict) or len(value) > 64:
        raise ExperimentError(f"{where}: [options] is a table of option = value")
    return tuple(sorted((str(k), _value(v, str(k), where)) for k, v in value.items()))


def _grid(value: object, where: str) -> tuple[tuple[str, tuple[OptionValue, ...]], ...]:
    if not isinstance(value, dict) or len(value) > MAX_GRID_OPTIONS:
        raise ExperimentError(f"{where}: [grid] is a table of at most {MAX_GRID_OPTIONS} options")
    grid = []
    for name, values in value.items():
        if not isinstance(values, list) or not 0 < len(values) <= MAX_VALUES:
            raise ExperimentError(f"{where}: grid option {name} lists 1 to {MAX_VALUES} values")
        parsed = tuple(_value(v, str(name), where) for v in values)
        if len(set(parsed)) != len(parsed):
            raise ExperimentError(f"{where}: grid option {name} lists a value twice")
        grid.append((str(name), parsed))
    return tuple(grid)


def _tuning(value: object, where: str) -> tuple[tuple[str, bool | int | float | str], ...]:
    if not isinstance(value, dict):
        raise ExperimentError(f"{where}: [tune] is a table")
    pairs = []
    for key, item in sorted(value.items()):
        if not isinstance(item, bool | int | float | str):
            raise ExperimentError(f"{where}: [tune] {key} is a number or a name")
        pairs.append((str(key), item))
    return tuple(pairs)


def _plugins(value: object, base: Path | None, where: str) -> tuple[str, ...]:
    """The plug-ins named, each file's path resolved from ``base`` (a module name stays)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ExperimentError(f"{where}: plugins lists plug-in files such as 'comeback.py'")
    found = []
    for source in map(str, value):
        path = Path(source)
        if source.endswith(".py") and not path.is_absolute():
            path = (base or Path()) / path
        found.append(str(path.resolve()) if source.endswith(".py") else source)
    try:
        load_plugins(found, frozenset(PLAIN))
    except PluginError as error:
        raise ExperimentError(f"{where}: {error}") from None
    return tuple(found)


def _metrics(value: object, where: str, plugins: tuple[str, ...] = ()) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise ExperimentError(f"{where}: metrics lists metric names such as 'mean-score'")
    keys = tuple(str(k) for k in value)
    try:
        metrics_named(keys, plugins)
    except MetricError as error:
        raise ExperimentError(f"{where}: {error}") from None
    return keys


def _variants(value: object, where: str) -> tuple[tuple[tuple[str, OptionValue], ...], ...]:
    if not isinstance(value, list) or len(value) > MAX_VALUES * 2:
        raise ExperimentError(f"{where}: variants lists at most {2 * MAX_VALUES} option tables")
    variants = tuple(_options(v, where) for v in value)
    if len(set(variants)) != len(variants):
        raise ExperimentError(f"{where}: variants lists one variant twice")
    return variants
