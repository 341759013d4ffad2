"""An experiment's report: the CSV, the plots and report.md, redrawn identically from the saved
journal, through the ``spieltisch lab`` commands too."""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.lab.analysis import SMALL_CELL, analyse
from spieltisch.lab.engine import GameResult, LocalRunner
from spieltisch.lab.experiment import (
    CellResults,
    Experiment,
    ExperimentError,
    collect,
    parse_experiment,
    run_experiment,
)
from spieltisch.lab.report import findings, read_folder, redraw, report_text, write_outputs

EXPERIMENT = """
name = "report test"
game = "auf-die-eier"
players = [2]
games = 12
seed = 2
agents = ["heuristic"]
[grid]
shared_chicken_ladder = [false, true]
"""

runner = CliRunner()


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def test_the_outputs_hold_every_game_and_redraw_the_same(tmp_path: Path) -> None:
    experiment = parse_experiment(EXPERIMENT)
    (tmp_path / "experiment.toml").write_text(EXPERIMENT)
    cells = run_experiment(experiment, LocalRunner(), tmp_path / "journal.jsonl")
    analysis = write_outputs(tmp_path, experiment, cells)
    for name in ("results.csv", "report.md", "seat_advantage.png", "scores.png", "effects.png"):
        assert (tmp_path / name).stat().st_size > 0
    with (tmp_path / "results.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 2 * 12 * 2
    assert {r["seat_index"] for r in rows} == {"0", "1"}  # 0-based, as in the environments
    played = [r for c in cells for r in c.played]
    assert sum(float(r["win"]) for r in rows) == sum(sum(r.returns) for r in played)
    report = (tmp_path / "report.md").read_text()
    assert "shared_chicken_ladder=true" in report and "Holm" in report
    assert len(analysis.comparisons) == 3
    redraw(tmp_path)
    assert (tmp_path / "report.md").read_text() == report
    # A folder kept without its journal redraws the same from its CSV.
    (tmp_path / "journal.jsonl").unlink()
    assert redraw(tmp_path) == analysis
    assert (tmp_path / "report.md").read_text() == report
    # A file written before seats were 0-based (``seat``, 1-based) still reads the same.
    text = (tmp_path / "results.csv").read_text().splitlines()
    header, body = text[0].split(","), [line.split(",") for line in text[1:]]
    column = header.index("seat_index")
    header[column] = "seat"
    for line in body:
        line[column] = str(int(line[column]) + 1)
    (tmp_path / "results.csv").write_text("\n".join(",".join(x) for x in [header, *body]) + "\n")
    assert redraw(tmp_path) == analysis


def test_a_results_file_of_another_experiment_is_refused(tmp_path: Path) -> None:
    (tmp_path / "experiment.toml").write_text(EXPERIMENT)
    (tmp_path / "results.csv").write_text("cell,players\n0,2\n")
    with pytest.raises(ExperimentError, match="not this experiment"):
        redraw(tmp_path)


def test_a_small_cell_is_warned_about_and_the_findings_say_so() -> None:
    experiment = parse_experiment(EXPERIMENT)
    analysis = analyse(experiment, run_experiment(experiment, LocalRunner()))
    assert all(c.games < SMALL_CELL and c.warning for c in analysis.cells)
    sentences = findings(analysis)
    assert any("Too few games" in s for s in sentences)
    assert sum("comparisons are significant" in s for s in sentences) == 1


def test_lab_run_and_lab_report_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "out"
    result = runner.invoke(app, ["lab", "run", str(path), "--out", str(out), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "report written" in result.output
    journal = (out / "journal.jsonl").read_text()
    assert len(journal.splitlines()) == 24
    again = runner.invoke(app, ["lab", "run", str(path), "--out", str(out)])
    assert again.exit_code == 0 and (out / "journal.jsonl").read_text() == journal
    (out / "report.md").unlink()
    redrawn = runner.invoke(app, ["lab", "report", str(out)])
    assert redrawn.exit_code == 0 and (out / "report.md").is_file()


def test_a_folder_reads_the_same_games_from_its_journal_csv_or_parquet_and_writes_nothing(
    tmp_path: Path,
) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "out"
    assert runner.invoke(app, ["lab", "run", str(path), "--out", str(out)]).exit_code == 0

    def games() -> list[tuple[int, int, tuple[int, ...]]]:
        before = {f.name: f.read_bytes() for f in out.iterdir()}
        experiment, cells = read_folder(out)
        assert experiment.name == "report test" and len(cells) == 2
        assert {f.name: f.read_bytes() for f in out.iterdir()} == before
        return [(r.deal, r.rotation, r.scores) for c in cells for r in c.played]

    from_journal = games()
    assert len(from_journal) == 24
    (out / "journal.jsonl").unlink()
    assert games() == from_journal
    (out / "results.csv").unlink()
    assert games() == from_journal


def test_lab_commands_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = ['nobody']\n")
    result = runner.invoke(app, ["lab", "run", str(bad)])
    assert result.exit_code == 2 and "nobody" in result.output
    assert runner.invoke(app, ["lab", "report", str(tmp_path)]).exit_code == 2
    good = tmp_path / "good.toml"
    good.write_text(EXPERIMENT)
    local = runner.invoke(app, ["lab", "run", str(good), "--address", "x:1"])
    assert local.exit_code == 2 and "ray" in local.output


def test_an_interrupted_lab_run_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("spieltisch.lab.experiment.run_experiment", interrupted)
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    result = runner.invoke(app, ["lab", "run", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 130 and "run the same command again" in result.output


def test_listed_variants_are_each_compared_with_the_first_only() -> None:
    text = EXPERIMENT.replace(
        "[grid]\nshared_chicken_ladder = [false, true]",
        "variants = [{}, { shared_chicken_ladder = true }, { shared_chicken_ladder = false }]",
    )
    experiment = parse_experiment(text)
    analysis = analyse(experiment, run_experiment(experiment, LocalRunner()))
    assert {k.baseline for k in analysis.comparisons} == {"default"}
    assert len(analysis.comparisons) == 2 * 3
    # Setting the default value is the default game: the same games, no difference at all.
    same = [k for k in analysis.comparisons if k.variant == "shared_chicken_ladder=false"]
    assert all(k.difference.mean == 0 and k.difference.sd == 0 for k in same)


def test_counts_in_the_report_agree_with_their_nouns() -> None:
    """One worker, one game: no "1 workers" (issue 53)."""
    experiment = parse_experiment(
        EXPERIMENT.replace("games = 12", "games = 1")
        .replace("[grid]\n", "")
        .replace("shared_chicken_ladder = [false, true]\n", "")
    )
    analysis = analyse(experiment, run_experiment(experiment, LocalRunner()))
    run = {"backend": "local", "workers": 1, "games_per_second": 3.0}
    text = report_text(analysis, run)
    assert "with 1 worker at" in text
    assert "1 cell, 1 finished game in all" in text
    assert "(1 game)" in text and "only 1 game:" in analysis.cells[0].warning
    assert not re.search(r"\b1 (workers|games|cells)\b", text)
    assert "with 2 workers at" in report_text(analysis, {**run, "workers": 2})
    assert "with ? workers at" in report_text(analysis, {"backend": "local"})


CONSTANT = """
name = "a measure that cannot vary"
game = "auf-die-eier"
players = [2, 3]
games = 30
seed = 4
agents = ["heuristic"]
metrics = ["first-seat-win", "decisions"]
[grid]
shared_chicken_ladder = [false, true]
"""


def constant_run() -> tuple[Experiment, list[CellResults]]:
    """Made-up games: the first seat wins at random; every game at two players lasts 20
    decisions, and at three players those of the first variant only."""
    experiment = parse_experiment(CONSTANT)
    plan = experiment.schedule()
    tasks = [task for _, cell_tasks in plan for task in cell_tasks]
    rng = random.Random(3)
    results = {}
    for index, task in enumerate(tasks):
        winner = rng.randrange(len(task.seats))
        returns = tuple(1.0 if seat == winner else 0.0 for seat in range(len(task.seats)))
        scores = tuple(int(r) for r in returns)
        varies = len(task.seats) == 3 and dict(task.options)["shared_chicken_ladder"]
        actions = rng.randrange(10, 40) if varies else 20
        results[index] = GameResult(task.deal, task.rotation, task.seats, scores, returns, actions)
    return experiment, collect(plan, tasks, results)


def test_a_constant_measure_is_warned_about_and_left_out_of_the_tests() -> None:
    experiment, cells = constant_run()
    analysis = analyse(experiment, cells)
    tested = [(c.players, c.metric) for c in analysis.comparisons]
    # Two players: the length is 20 in both cells, no test of it; three: it varies in one.
    assert tested == [
        (2, "first seat's win rate"),
        (3, "first seat's win rate"),
        (3, "decisions per game"),
    ]
    text = report_text(analysis)
    two = "2 players, shared_chicken_ladder="
    for variant in ("false", "true"):
        assert (
            f"- {two}{variant}: `decisions` constant in this cell: cannot vary, left out of the "
            "tests (always 20)" in text
        )
    assert "- 3 players, shared_chicken_ladder=false: `decisions` constant in this cell: " in text
    assert "compared only with the cells where it varies (always 20)" in text
    assert "3 players, shared_chicken_ladder=true: `decisions`" not in text
    assert "first-seat-win` constant" not in text


BEHIND = """
name = "an agent behind random"
game = "auf-die-eier"
players = [3]
games = 60
seed = 5
agents = ["heuristic", "random", "expert"]
"""


def behind_run(heuristic_wins: float) -> tuple[Experiment, list[CellResults]]:
    """Made-up games: the heuristic wins with chance ``heuristic_wins``, random and the expert
    share the rest evenly."""
    experiment = parse_experiment(BEHIND)
    plan = experiment.schedule()
    tasks = [task for _, cell_tasks in plan for task in cell_tasks]
    rng = random.Random(6)
    results = {}
    for index, task in enumerate(tasks):
        draw = rng.random()
        name = (
            "heuristic"
            if draw < heuristic_wins
            else ("random" if draw < (1 + heuristic_wins) / 2 else "expert")
        )
        winner = task.seats.index(name)
        returns = tuple(1.0 if seat == winner else 0.0 for seat in range(len(task.seats)))
        scores = tuple(int(r) for r in returns)
        results[index] = GameResult(task.deal, task.rotation, task.seats, scores, returns, 20)
    return experiment, collect(plan, tasks, results)


def test_an_agent_that_plays_worse_than_random_is_warned_about() -> None:
    text = report_text(analyse(*behind_run(0.05)))
    assert "- 3 players, default: `heuristic` plays worse than random: it wins " in text
    assert "`expert` plays worse than random" not in text
    # As good as random (a third of the wins each): no warning.
    assert "plays worse than random" not in report_text(analyse(*behind_run(1 / 3)))
