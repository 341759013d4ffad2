"""A designer's own metric: a plug-in file named by an experiment is measured on every traced
game (on either engine), reported, compared and kept like a built-in metric, with the game's
per-round results beside it; a plug-in that cannot be used is refused with its name."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from spieltisch.cli import _keep_experiment
from spieltisch.core.record import Record
from spieltisch.lab.analysis import Analysis
from spieltisch.lab.engine import LocalRunner
from spieltisch.lab.experiment import ExperimentError, load_experiment, run_experiment
from spieltisch.lab.plugins import PluginError, TracedGame, measure, metric
from spieltisch.lab.report import redraw, write_outputs
from spieltisch.native.agents import plays_natively

PLUGIN = """
from spieltisch.lab.plugins import metric

@metric("comeback", "comeback rate", rate=True, formula="the winner lost the first round")
def comeback(game):
    if len(game.rounds) < 2 or len(game.winners) != 1:
        return None
    return float(game.rounds[0]["winner"] not in game.winners)

@metric("estimates-seen", "decisions with an estimate")
def seen(game):
    assert len(game.record.moves) > len(game.estimates) > 0
    return float(len(game.estimates))
"""

EXPERIMENT = """
name = "plug-in test"
game = "awimbawe"
players = [2]
games = 6
seed = 4
agents = ["heuristic"]
plugins = ["mine/comeback.py"]
metrics = ["comeback", "estimates-seen", "decisions"]
engine = "{engine}"
[grid]
rounds_to_win = [1, 3]
"""


def _experiment(tmp_path: Path, engine: str = "python", plugin: str = PLUGIN) -> Path:
    (tmp_path / "mine").mkdir(exist_ok=True)
    (tmp_path / "mine" / "comeback.py").write_text(plugin, encoding="utf-8")
    path = tmp_path / "study.toml"
    path.write_text(EXPERIMENT.format(engine=engine), encoding="utf-8")
    return path


ENGINES = ["python"] + (["native"] if plays_natively("awimbawe", ["heuristic"]) else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_plugin_metric_is_measured_reported_and_kept(tmp_path: Path, engine: str) -> None:
    experiment = load_experiment(_experiment(tmp_path, engine))
    assert all(t.trace and t.plugins for _, tasks in experiment.schedule() for t in tasks)
    out = tmp_path / "out"
    out.mkdir()
    cells = run_experiment(experiment, LocalRunner(), out / "journal.jsonl")
    assert {c.engine for cell in cells for c in cell.played} == {engine}
    analysis = write_outputs(out, experiment, cells)
    one, three = analysis.cells
    comeback = {m.key: covered for m, _, covered in one.metrics}
    assert comeback["comeback"] == 0 and comeback["estimates-seen"] == 6  # one round: no value
    assert {m.key: covered for m, _, covered in three.metrics}["comeback"] == 6
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "comeback rate" in report and "plug-in comeback.py" in report
    assert "`comeback` has no value in this cell" in report
    assert [c.metric for c in analysis.comparisons] == [
        "decisions with an estimate",
        "decisions per game",
    ]  # the comeback rate has nothing to compare at one round
    line = json.loads((out / "journal.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert "comeback" in line["result"]["measures"] and len(line["result"]["rounds"]) >= 3
    with (out / "rounds.csv").open(encoding="utf-8") as file:
        rounds = list(csv.DictReader(file))
    assert {r["rounds_to_win"] for r in rounds} == {"1", "3"}
    assert all(r["winner"] in ("0", "1") and r["crowns_1"] for r in rounds)
    with (out / "results.csv").open(encoding="utf-8") as file:
        assert "comeback" in next(csv.reader(file))


def test_a_run_folder_keeps_its_plugin_and_redraws_from_it(tmp_path: Path) -> None:
    path = _experiment(tmp_path)
    experiment = load_experiment(path)
    out = tmp_path / "out"
    out.mkdir()
    cells = run_experiment(experiment, LocalRunner(), out / "journal.jsonl")
    before = write_outputs(out, experiment, cells)
    _keep_experiment(path, out)
    assert (out / "mine" / "comeback.py").read_text(encoding="utf-8") == PLUGIN
    (tmp_path / "mine" / "comeback.py").unlink()  # the run folder stands alone
    after = redraw(out)

    def figures(analysis: Analysis) -> list[list[tuple[str, object, int]]]:
        return [[(m.key, i, n) for m, i, n in c.metrics] for c in analysis.cells]

    assert figures(after) == figures(before)
    (out / "journal.jsonl").unlink()  # a shipped study keeps only its CSV files
    assert figures(redraw(out)) == figures(before)
    assert (out / "rounds.csv").stat().st_size > 0


@pytest.mark.parametrize(
    ("plugin", "complaint"),
    [
        ("x = 1\n", "defines no metric"),
        ("raise RuntimeError('broken')\n", "importing it failed: RuntimeError('broken')"),
        (PLUGIN.replace('"comeback",', '"margin",'), "'margin' is a built-in metric's key"),
        (PLUGIN.replace('"comeback",', '"Come Back",'), "is not 1 to 40 lower-case letters"),
    ],
)
def test_a_plugin_that_cannot_be_used_is_refused_by_name(
    tmp_path: Path, plugin: str, complaint: str
) -> None:
    with pytest.raises(ExperimentError, match=r"plug-in .*comeback\.py") as refused:
        load_experiment(_experiment(tmp_path, plugin=plugin))
    assert complaint in str(refused.value)


def test_a_missing_plugin_file_is_named(tmp_path: Path) -> None:
    path = _experiment(tmp_path)
    (tmp_path / "mine" / "comeback.py").unlink()
    with pytest.raises(ExperimentError, match=r"comeback\.py: no such file"):
        load_experiment(path)


def test_a_measure_that_fails_names_its_metric_and_game() -> None:
    @metric("broken", "broken")
    def broken(game: TracedGame) -> float | None:
        raise ZeroDivisionError("oops")

    record = Record(game="awimbawe", players=2, options={}, moves=(), seats=("a", "b"))
    game = TracedGame(
        "awimbawe", 2, {}, ("a", "b"), (1, 0), (1.0, 0.0), frozenset({0}), record, (), ()
    )
    with pytest.raises(PluginError, match=r"'broken' .* failed on a game of awimbawe .*oops"):
        measure(broken, game)
