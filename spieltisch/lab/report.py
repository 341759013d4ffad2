"""An experiment's output folder: the raw results as CSV, the plots and ``report.md``.

A run's folder holds ``experiment.toml`` (the file as run), ``journal.jsonl`` (every finished
game), and what this module writes from those two: ``results.csv`` (one row per game and seat,
for pandas or DuckDB; ``results.parquet`` holds the same rows with typed columns where pyarrow
is installed), ``rounds.csv`` (traced games of a game played in rounds: one row per round, in
order), ``seat_advantage.png``, ``effects.png`` (when variants are compared),
``scores.png``, ``uncertainty.png`` (when the games are traced for a game-quality measure)
and ``report.md``, which says in plain words what is significant and what is
not. :func:`redraw` writes them again from the saved files alone: the journal, or where a
folder is kept without it (the shipped studies), ``results.csv``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import spieltisch
from spieltisch.core.game import OptionValue
from spieltisch.lab.analysis import (
    ALPHA,
    CONSTANT_NOTE,
    NO_VALUE_NOTE,
    PRECISION,
    SMALL_CELL,
    Analysis,
    CellStats,
    Comparison,
    analyse,
)
from spieltisch.lab.engine import GameResult
from spieltisch.lab.experiment import (
    Cell,
    CellResults,
    Experiment,
    ExperimentError,
    load_experiment,
    saved_results,
)
from spieltisch.lab.plot import forest_plot, score_plot, seat_advantage_plot, uncertainty_plot
from spieltisch.lab.quality import CURVE_KEYS, MEASURE_KEYS
from spieltisch.lab.words import counted

EXPERIMENT_FILE = "experiment.toml"
JOURNAL_FILE = "journal.jsonl"
RESULTS_FILE = "results.csv"
ROUNDS_FILE = "rounds.csv"
"""One row per traced game and finished round, for games played in rounds."""
PARQUET_FILE = "results.parquet"
"""The same rows as Parquet, where pyarrow is installed (the data extra)."""
RUN_FILE = "run.json"
"""How the games were played (engine, backend, workers, games per second): not part of the
results (but the engine says which generator drew the games: see :mod:`spieltisch.lab.native`)."""
REPORT_FILE = "report.md"
UNCERTAINTY_PLOT = "uncertainty.png"
"""Uncertainty over time, per cell (experiments with a game-quality measure)."""


def write_csv(path: Path, experiment: Experiment, cells: Sequence[CellResults]) -> int:
    """One row per game and seat; returns the rows written. ``seat_index`` is 0-based, as in
    every environment and dataset (files written before it have ``seat``, 1-based:
    :func:`read_csv` reads both)."""
    names = experiment.varying()
    traced = [m.key for m in experiment.measured() if m.traced]
    if traced:  # uncertainty over time, for the plot: every traced game has it
        traced += [key for key in CURVE_KEYS if key not in traced]
    header = [
        "cell",
        "players",
        *names,
        "deal",
        "rotation",
        "seat_index",
        "agent",
        "score",
        "win",
        "margin",
        "actions",
        "moves",
        "finished",
        *traced,
    ]
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for cell_results in cells:
            cell = cell_results.cell
            options = spieltisch.load(experiment.game, cell.players, **dict(cell.options)).options
            values = [_cell_value(options[name]) for name in names]
            for r in cell_results.played:
                for seat, agent in enumerate(r.seats):
                    best_other = max(s for j, s in enumerate(r.scores) if j != seat)
                    writer.writerow(
                        [
                            cell.index,
                            cell.players,
                            *values,
                            r.deal,
                            r.rotation,
                            seat,
                            agent,
                            r.scores[seat],
                            r.returns[seat],
                            r.scores[seat] - best_other,
                            r.actions,
                            r.moves,
                            int(r.finished),
                            *(_measure_text(r.measure(key)) for key in traced),
                        ]
                    )
                    rows += 1
    return rows


def write_rounds_csv(path: Path, experiment: Experiment, cells: Sequence[CellResults]) -> int:
    """One row per traced game and finished round, in order (for a game played in rounds,
    such as Awimbawé): the game's cell, deal and rotation, the round's place, and each figure
    the game keeps of it, a list (one number per seat) as a column per seat. Nothing is
    written when no game has rounds (a redraw from ``results.csv``, which has none, keeps the
    file it finds); returns the rows."""
    games = [(c.cell, r) for c in cells for r in c.played if r.rounds]
    if not games:
        return 0
    fields = list(dict.fromkeys(key for _, r in games for rnd in r.rounds for key in rnd))
    names = experiment.varying()
    seats = max(len(r.seats) for _, r in games)
    header = ["cell", "players", *names, "deal", "rotation", "round_index"]
    for key in fields:
        header += [f"{key}_{s}" for s in range(seats)] if _per_seat(games, key) else [key]
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, header, restval="")
        writer.writeheader()
        for cell, result in games:
            options = dict(cell.options)
            base: dict[str, object] = {"cell": cell.index, "players": cell.players}
            base["deal"] = result.deal
            base |= {name: _cell_value(options[name]) for name in names if name in options}
            base["rotation"] = result.rotation
            for index, rnd in enumerate(result.rounds):
                row: dict[str, object] = {**base, "round_index": index}
                for key, value in rnd.items():
                    if isinstance(value, list):
                        row |= {f"{key}_{s}": v for s, v in enumerate(value)}
                    else:
                        row[key] = _cell_value(value) if isinstance(value, bool) else value
                writer.writerow(row)
                rows += 1
    return rows


def _per_seat(games: Sequence[tuple[Cell, GameResult]], key: str) -> bool:
    return any(isinstance(rnd.get(key), list) for _, r in games for rnd in r.rounds)


def _measure_text(value: float | None) -> str:
    return "" if value is None else repr(value)


def _cell_value(value: OptionValue) -> OptionValue:
    return str(value).lower() if isinstance(value, bool) else value


def write_outputs(folder: Path, experiment: Experiment, cells: Sequence[CellResults]) -> Analysis:
    """Write the CSV, the plots and the report into ``folder``; return the analysis."""
    analysis = analyse(experiment, cells)
    write_csv(folder / RESULTS_FILE, experiment, cells)
    write_parquet(folder / RESULTS_FILE, folder / PARQUET_FILE)
    write_rounds_csv(folder / ROUNDS_FILE, experiment, cells)
    title = f"{experiment.name}: seat advantage"
    seat_advantage_plot(analysis.cells, title, folder / "seat_advantage.png")
    score_plot(analysis.cells, f"{experiment.name}: final scores", folder / "scores.png")
    effects = folder / "effects.png"
    if analysis.comparisons:
        forest_plot(analysis.comparisons, f"{experiment.name}: variant effects", effects)
    elif effects.exists():
        effects.unlink()
    curve = folder / UNCERTAINTY_PLOT
    if any(c.uncertainty_curve for c in analysis.cells):
        uncertainty_plot(analysis.cells, f"{experiment.name}: uncertainty over time", curve)
    elif curve.exists():
        curve.unlink()
    (folder / REPORT_FILE).write_text(report_text(analysis, _run_info(folder)), encoding="utf-8")
    return analysis


def write_parquet(csv_path: Path, path: Path) -> bool:
    """The results CSV again as Apache Parquet (typed columns: whole numbers, flags, floats,
    an empty quality measure as null), for pandas, polars or DuckDB; False, writing nothing,
    where pyarrow (the data extra) is not installed."""
    try:
        from pyarrow import csv as pa_csv  # type: ignore[import-untyped]  # noqa: PLC0415
        from pyarrow import parquet as pq  # noqa: PLC0415 - lazy: the data extra
    except ModuleNotFoundError:
        if path.exists():
            path.unlink()  # an older file would no longer match the CSV
        return False
    table = pa_csv.read_csv(csv_path)
    pq.write_table(table, path, compression="zstd")
    return True


def read_parquet(path: Path, experiment: Experiment) -> list[CellResults]:
    """The cells' games from a ``results.parquet`` this module wrote (for a folder kept with
    neither its journal nor its CSV); needs pyarrow (the data extra)."""
    try:
        from pyarrow import csv as pa_csv  # noqa: PLC0415 - lazy: the data extra
        from pyarrow import parquet as pq  # noqa: PLC0415
    except ModuleNotFoundError:
        raise ExperimentError(
            f'{path} is Parquet, which needs pyarrow: pip install "spieltisch[data]"'
        ) from None
    buffer = io.BytesIO()
    pa_csv.write_csv(pq.read_table(path), buffer)
    return _read_rows(io.StringIO(buffer.getvalue().decode("utf-8")), path, experiment)


def read_csv(path: Path, experiment: Experiment) -> list[CellResults]:
    """The cells' games from a ``results.csv`` this module wrote (for a folder kept without
    its journal); :class:`ExperimentError` for a file that does not fit the experiment."""
    try:
        with path.open(encoding="utf-8", newline="") as file:
            return _read_rows(file, path, experiment)
    except UnicodeDecodeError as error:
        raise ExperimentError(f"{path} is not this experiment's results: {error!r}") from None


def _read_rows(file: TextIO, path: Path, experiment: Experiment) -> list[CellResults]:
    """The cells' games from the rows of a results file (CSV text)."""
    plan = experiment.schedule()
    games: dict[tuple[int, int, int], dict[int, dict[str, str]]] = {}
    try:
        for number, row in enumerate(csv.DictReader(file), 2):
            if number > MAX_CSV_ROWS:
                raise ExperimentError(f"{path} has more than {MAX_CSV_ROWS} rows")
            key = (int(row["cell"]), int(row["deal"]), int(row["rotation"]))
            seat = int(row["seat_index"]) if "seat_index" in row else int(row["seat"]) - 1
            games.setdefault(key, {})[seat] = row
        traced = sorted({*MEASURE_KEYS, *(m.key for m in experiment.measured() if m.traced)})
        cells = []
        for cell, tasks in plan:
            results: list[GameResult | None] = []
            for task in tasks:
                seats = games.get((cell.index, task.deal, task.rotation))
                results.append(None if seats is None else _game(seats, cell.players, traced))
            cells.append(CellResults(cell, tuple(tasks), tuple(results)))
    except (KeyError, ValueError, TypeError) as error:
        raise ExperimentError(f"{path} is not this experiment's results: {error!r}") from None
    return cells


MAX_CSV_ROWS = 50_000_000
"""The most rows a results file may have (every game of the largest experiment, every seat)."""


def _game(seats: dict[int, dict[str, str]], players: int, traced: Sequence[str]) -> GameResult:
    """One game from its rows, with the measures (``traced``: their keys) its columns hold."""
    rows = [seats[seat] for seat in range(players)]
    first = rows[0]
    measures = tuple(
        (key, float(first[key]) if first[key] not in ("", None) else None)
        for key in traced
        if key in first
    )
    return GameResult(
        int(first["deal"]),
        int(first["rotation"]),
        tuple(r["agent"] for r in rows),
        tuple(int(r["score"]) for r in rows),
        tuple(float(r["win"]) for r in rows),
        int(first["actions"]),
        int(first["moves"]),
        int(first["finished"]) == 1,
        measures=measures,
    )


def read_folder(folder: Path) -> tuple[Experiment, list[CellResults]]:
    """An experiment folder's experiment file and its games, read from its journal, or, for a
    folder kept without its journal, its ``results.csv`` (or, without that, its
    ``results.parquet``); nothing is written (a script comparing studies reads them so)."""
    experiment = load_experiment(folder / EXPERIMENT_FILE)
    journal = folder / JOURNAL_FILE
    if journal.exists():
        return experiment, saved_results(experiment, journal)
    if (folder / RESULTS_FILE).exists() or not (folder / PARQUET_FILE).exists():
        return experiment, read_csv(folder / RESULTS_FILE, experiment)
    return experiment, read_parquet(folder / PARQUET_FILE, experiment)


def redraw(folder: Path) -> Analysis:
    """Write the outputs again from what :func:`read_folder` reads of the folder."""
    experiment, cells = read_folder(folder)
    return write_outputs(folder, experiment, cells)


def _run_info(folder: Path) -> dict[str, object]:
    path = folder / RUN_FILE
    if not path.is_file() or path.stat().st_size > 100_000:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


# --- the words --------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return f"{x:.2f}"


def _cell_name(stats: CellStats) -> str:
    return f"{stats.cell.players} players, {stats.cell.label}"


def _constant_warnings(cells: Sequence[CellStats]) -> list[str]:
    """A warning for each metric constant in a cell: left out of the tests when it is constant
    in every cell it is compared with too (those at its player count), else tested only against
    the cells where it varies."""
    lines = []
    for c in cells:
        for key, value in c.constant:
            alike = [o for o in cells if o.cell.players == c.cell.players]
            everywhere = all(key in dict(o.constant) for o in alike)
            note = (
                CONSTANT_NOTE
                if everywhere
                else CONSTANT_NOTE.replace(
                    "left out of the tests", "compared only with the cells where it varies"
                )
            )
            lines.append(f"- {_cell_name(c)}: `{key}` {note} (always {value:g})")
        for metric, _, covered in c.metrics:
            if not covered:
                lines.append(f"- {_cell_name(c)}: `{metric.key}` {NO_VALUE_NOTE}")
    return lines


def _random_warnings(cells: Sequence[CellStats]) -> list[str]:
    """A warning for each agent that plays worse than random in a cell: it wins less per seat
    than the random seats of the same games (see :func:`~.analysis.behind_random`)."""
    return [
        f"- {_cell_name(c)}: `{name}` plays worse than random: it wins "
        f"{100 * -gap.value:.1f} points less per seat than the random seats of the same games "
        f"(95% interval {100 * -gap.high:.1f} to {100 * -gap.low:.1f})"
        for c in cells
        for name, gap in c.behind_random
    ]


def report_text(analysis: Analysis, run: dict[str, object] | None = None) -> str:
    """``report.md``: the setup, the findings in words, then the tables."""
    e = analysis.experiment
    lines = [f"# {e.name}", ""]
    if e.notes:
        lines += [e.notes.strip(), ""]
    games = sum(c.games for c in analysis.cells)
    lineup = ", ".join(e.agents)
    lines += [
        f"Game `{e.game}`; {counted(len(analysis.cells), 'cell')}, "
        f"{counted(games, 'finished game')} in all ({e.games} per cell asked for); agents "
        f"{lineup}; seed {e.seed}. Every cell with the "
        "same player count played the same deals with keyed chance, so variants are compared "
        "deal by deal (common random numbers).",
        "",
    ]
    if run:
        lines += [
            f"Played on the {run.get('backend', '?')} backend with "
            f"{counted(run.get('workers', '?'), 'worker')} at "
            f"{run.get('games_per_second', '?')} games/s"
            + (f", by the {run['engine']} engine." if "engine" in run else "."),
            "",
        ]
    lines += [
        "## Findings",
        "",
        "Intervals are 95% intervals, each on its own; whether a variant effect is called real "
        "is decided by its Holm-corrected p-value, so an interval that just misses zero may "
        "still be called not significant.",
        "",
    ]
    lines += [f"- {sentence}" for sentence in findings(analysis)]
    lines += ["", "![seat advantage](seat_advantage.png)", ""]
    if analysis.comparisons:
        lines += ["![variant effects](effects.png)", ""]
    lines += ["![final scores](scores.png)", ""]
    if any(c.uncertainty_curve for c in analysis.cells):
        lines += [f"![uncertainty over time]({UNCERTAINTY_PLOT})", ""]
    lines += ["## Cells", ""]
    lines += [
        "| cell | games | deals | seat win rates (95% interval) | mean scores | "
        "decisions per game |",
        "|---|---:|---:|---|---|---:|",
    ]
    for c in analysis.cells:
        rates = "; ".join(
            f"{s.seat}: {_pct(s.win_rate.value)} ({_pct(s.win_rate.low)}-{_pct(s.win_rate.high)})"
            for s in c.seats
        )
        scores = "; ".join(
            f"{s.seat}: {_num(s.score.value)} ±{_num((s.score.high - s.score.low) / 2)}"
            for s in c.seats
        )
        length = f"{c.length.value:.1f}"
        lines.append(f"| {_cell_name(c)} | {c.games} | {c.deals} | {rates} | {scores} | {length} |")
    lines += _metric_table(analysis)
    if any(c.agents for c in analysis.cells):
        lines += ["", "Win rate per agent (over all seats):", ""]
        for c in analysis.cells:
            rows = ", ".join(
                f"{name} {_pct(i.value)} ({_pct(i.low)}-{_pct(i.high)})" for name, i in c.agents
            )
            lines.append(f"- {_cell_name(c)}: {rows}")
    if analysis.comparisons:
        lines += [
            "",
            "## Variant effects",
            "",
            "Variant minus baseline, paired by deal; interval from resampling the deals; p from "
            "a paired z test, then Holm-corrected over every comparison in this report.",
            "",
            "| players | variant − baseline | metric | difference (95% interval) | p | p (Holm) | "
            "deals | deals for ± precision |",
            "|---:|---|---|---|---:|---:|---:|---:|",
        ]
        for k in analysis.comparisons:
            d = k.difference
            lines.append(
                f"| {k.players} | {k.variant} − {k.baseline} | {k.metric} | "
                f"{_difference(k)} | {_p(d.p_value)} | {_p(k.p_holm)} | {d.pairs} | "
                f"{k.pairs_needed} |"
            )
    lines += [
        "",
        "## Sample sizes",
        "",
        f"A seat's win rate from n independent games is known within about ±1/√n (95%). For "
        f"±{100 * PRECISION:.0f} points a cell needs about "
        + ", ".join(
            f"{counted(c.games_needed, 'game')} at {p} players"
            for p, c in {c.cell.players: c for c in analysis.cells}.items()
        )
        + f". Cells under {SMALL_CELL} games are flagged. The last column of the effects table "
        "says how many paired deals would pin each difference down to its metric's precision "
        "(see the metrics below).",
        "",
    ]
    warnings = [f"- {_cell_name(c)}: {c.warning}" for c in analysis.cells if c.warning]
    warnings += _random_warnings(analysis.cells)
    warnings += _constant_warnings(analysis.cells)
    if warnings:
        lines += ["Warnings:", "", *warnings, ""]
    lines += _metric_notes(analysis)
    lines += [
        "The raw results are in `results.csv` (one row per game and seat; the same rows, "
        "typed, in `results.parquet` where pyarrow is installed); "
        "`spieltisch lab report DIR` redraws this report from `experiment.toml` and "
        "`journal.jsonl` (or, without the journal, from `results.csv`).",
        "",
    ]
    return "\n".join(lines)


def _metric_table(analysis: Analysis) -> list[str]:
    """Each cell's value of every metric the experiment names, and its game lengths."""
    metrics = analysis.experiment.measured()
    head = " | ".join(m.title for m in metrics)
    lines = [
        "",
        "Metrics per cell (mean and 95% interval, deals resampled; the games a metric covers "
        "when fewer than all), and the spread of game lengths:",
        "",
        f"| cell | {head} | decisions: 10% / 25% / median / 75% / 90% |",
        "|---|" + "---:|" * len(metrics) + "---|",
    ]
    for c in analysis.cells:
        values = []
        for metric, i, covered in c.metrics:
            if i is None:
                values.append("-")
                continue
            show = [_plain(x, metric.percent, metric.precision) for x in (i.value, i.low, i.high)]
            text = f"{show[0]} ({show[1]} to {show[2]})"
            values.append(text + (f" in {covered}" if covered < c.games else ""))
        spread = " / ".join(f"{x:g}" for _, x in c.length_quantiles) or "-"
        lines.append(f"| {_cell_name(c)} | {' | '.join(values)} | {spread} |")
    return lines


def _metric_notes(analysis: Analysis) -> list[str]:
    """What each metric of the report measures, and its precision for the sample-size guide."""
    lines = ["Metrics:", ""]
    for m in analysis.experiment.measured():
        unit = f"±{100 * m.precision:g} points" if m.percent else f"±{m.precision:g}"
        source = f" ({m.reference})" if m.reference else ""
        lines.append(f"- `{m.key}`, {m.title}: {m.formula}{source}; precision {unit}.")
    return [*lines, ""]


def _p(p: float) -> str:
    """A p-value in three digits; the smallest ones as a bound (the normal tail underflows)."""
    return "< 1e-12" if p < 1e-12 else f"{p:.3g}"


def _p_is(p: float) -> str:
    """``= 0.0123`` or ``< 1e-12``, for a sentence."""
    text = _p(p)
    return text if text.startswith("<") else f"= {text}"


def _decimals(precision: float) -> int:
    """Decimals that show a value to a tenth of its metric's precision (two at least)."""
    return max(2, 1 - math.floor(math.log10(precision)))


def _difference(k: Comparison, prefix: str = "") -> str:
    """A comparison's difference with its interval: ``+1.2 pts (-0.3 pts to +2.7 pts)``."""
    d = k.difference
    mean, low, high = (_signed(x, k.percent, k.precision) for x in (d.mean, d.low, d.high))
    return f"{mean} ({prefix}{low} to {high})"


def _signed(x: float, percent: bool, precision: float = 1.0) -> str:
    if percent:
        return f"{100 * x:+.1f} pts"
    return f"{x:+.{_decimals(precision)}f}"


def _plain(x: float, percent: bool, precision: float = 1.0) -> str:
    return _pct(x) if percent else f"{x:.{_decimals(precision)}f}"


def findings(analysis: Analysis) -> list[str]:
    """The headline sentences: seat balance per cell, then every variant effect."""
    out = []
    for c in analysis.cells:
        if not c.seats or not c.games:
            out.append(f"{_cell_name(c)}: no finished games yet.")
            continue
        even = 1 / c.cell.players
        first = c.seats[0].win_rate
        off = [s for s in c.seats if s.win_rate.low > even or s.win_rate.high < even]
        text = (
            f"{_cell_name(c)} ({counted(c.games, 'game')}): the first seat wins "
            f"{_pct(first.value)} "
            f"(95% {_pct(first.low)}-{_pct(first.high)}; an even share is {_pct(even)}). "
        )
        if off:
            seats = ", ".join(
                f"seat {s.seat} ({'more' if s.win_rate.low > even else 'less'})" for s in off
            )
            text += f"Seats whose 95% interval (each on its own) misses the even share: {seats}."
        else:
            text += "No seat's win rate differs clearly from the even share."
        if c.agents:
            ranked = sorted(c.agents, key=lambda pair: -pair[1].value)
            rates = ", ".join(
                f"{name} {_pct(i.value)} ({_pct(i.low)}-{_pct(i.high)})" for name, i in ranked
            )
            text += f" By agent, over all seats: {rates}."
        if c.warning:
            text += " Too few games to be sure (see the warnings)."
        out.append(text)
    significant = [k for k in analysis.comparisons if k.significant]
    for k in analysis.comparisons:
        d = k.difference
        verdict = "a real difference" if k.significant else "not significant (no difference shown)"
        out.append(
            f"{k.players} players, {k.variant} against {k.baseline}, {k.metric}: "
            f"{_difference(k, '95% ')[:-1]}, {d.pairs} paired deals): {verdict}, "
            f"Holm p {_p_is(k.p_holm)}."
        )
    if analysis.comparisons:
        out.append(
            f"{len(significant)} of {len(analysis.comparisons)} comparisons are significant at "
            f"{100 * ALPHA:.0f}% after the Holm correction."
        )
    return out
