"""The lab's native path: a study whose agents all have native counterparts plays in Rust and
writes the files a Python run writes; sampled games replay in Python, and a corrupted native
game stops the study; anything else falls back to Python."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.core.errors import NativeError, SpieltischError
from spieltisch.core.record import Record, replay_states
from spieltisch.lab import arena
from spieltisch.lab import native as lab_native
from spieltisch.lab.engine import GameResult, LocalRunner, Task, load_game, play_task
from spieltisch.lab.experiment import parse_experiment, run_experiment
from spieltisch.lab.report import write_csv
from spieltisch.lab.simulate import simulate
from spieltisch.native import agents as native_agents
from tests.native.agreement import REQUIRE_VARIABLE, require_native

require_native("auf-die-eier")
if not native_agents.supported():  # an older build of the native core
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail("the native core is built without native agents", pytrace=False)
    pytest.skip("the native core is built without native agents", allow_module_level=True)

STUDY = """
name = "expert against heuristic"
game = "auf-die-eier"
players = [2]
games = 60
seed = 3
agents = ["expert", "heuristic"]
metrics = ["head-to-head:expert:heuristic", "first-seat-win", "decisions", "margin"]
[grid]
shared_chicken_ladder = [false, true]
"""


def _task(deal: int, **changes: object) -> Task:
    task = Task("auf-die-eier", 2, (), deal, 0, ("expert", "heuristic"), 11, keyed=True)
    return dataclasses.replace(task, **changes)  # type: ignore[arg-type]


def test_a_study_of_native_agents_plays_natively_and_others_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = parse_experiment(STUDY).tasks(parse_experiment(STUDY).cells()[0])
    assert lab_native.choose_play(tasks) is lab_native.play_native
    mixed = [dataclasses.replace(tasks[0], seats=("expert", "ismcts")), *tasks[1:]]
    assert lab_native.choose_play(mixed) is play_task
    auweier = [Task("auweier", 2, (), 0, 0, ("deck-weddings-late", "random"), 1)]
    assert lab_native.choose_play(auweier) is play_task
    monkeypatch.setattr(native_agents, "available", lambda: False)
    assert lab_native.choose_play(tasks) is play_task


def test_native_results_have_the_python_results_form() -> None:
    experiment = parse_experiment(STUDY)
    native = run_experiment(experiment, LocalRunner())
    python = run_experiment(experiment, LocalRunner(), play=play_task)
    for ours, theirs in zip(native, python, strict=True):
        assert ours.tasks == theirs.tasks
        for a, b in zip(ours.played, theirs.played, strict=True):
            assert (a.deal, a.rotation, a.seats) == (b.deal, b.rotation, b.seats)
            assert len(a.scores) == len(b.scores) and sum(a.returns) == 1 == sum(b.returns)
            assert a.finished and a.moves > a.actions > 0
            assert type(a.scores[0]) is type(b.scores[0]) and a.measures == b.measures == ()


def test_the_expert_edge_is_the_same_natively_and_in_python() -> None:
    """The native games are another sample of the same games: the expert's win rate agrees
    (a two-proportion test at about four standard errors)."""
    experiment = dataclasses.replace(parse_experiment(STUDY), games=600, grid=())

    def expert_wins(play: object) -> tuple[int, int]:
        cells = run_experiment(experiment, LocalRunner(), play=play)  # type: ignore[arg-type]
        games = [g for c in cells for g in c.played]
        wins = sum(g.returns[g.seats.index("expert")] for g in games)
        return round(wins), len(games)

    native, n = expert_wins(lab_native.play_native)
    python, m = expert_wins(play_task)
    p = (native + python) / (n + m)
    spread = (p * (1 - p) * (1 / n + 1 / m)) ** 0.5
    assert abs(native / n - python / m) < 4 * spread


def test_lab_run_writes_the_same_files_natively(tmp_path: Path) -> None:
    runner = CliRunner()
    folders = []
    for engine in ("native", "python"):
        folder = tmp_path / engine
        path = tmp_path / f"{engine}.toml"
        path.write_text(STUDY)
        command = ["lab", "run", str(path), "--out", str(folder), "--engine", engine]
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
        assert json.loads((folder / "run.json").read_text())["engine"] == engine
        folders.append(folder)
    native, python = folders
    assert sorted(p.name for p in native.iterdir()) == sorted(p.name for p in python.iterdir())
    with (native / "results.csv").open() as ours, (python / "results.csv").open() as theirs:
        rows, others = list(csv.reader(ours)), list(csv.reader(theirs))
    assert rows[0] == others[0] and len(rows) == len(others)


def test_a_sampled_deal_is_replayed_and_a_corrupted_game_stops_the_study(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert lab_native.replayed(_task(0)) and lab_native.replayed(_task(lab_native.REPLAY_EVERY))
    assert not lab_native.replayed(_task(1))
    real = native_agents.play_games

    def wrong_scores(*args: object, **kwargs: object) -> list[native_agents.Played]:
        played = real(*args, **kwargs)  # type: ignore[arg-type]
        return [dataclasses.replace(p, scores=(p.scores[0] + 5, *p.scores[1:])) for p in played]

    monkeypatch.setattr(native_agents, "play_games", wrong_scores)
    with pytest.raises(NativeError, match="replays in Python"):
        lab_native.play_native(_task(0))
    lab_native.play_native(_task(1))  # not sampled: not replayed

    def wrong_step(*args: object, **kwargs: object) -> list[native_agents.Played]:
        played = real(*args, **kwargs)  # type: ignore[arg-type]
        return [
            dataclasses.replace(p, steps=[(9, 0, 0, 0, 0, 0), *(p.steps or [])[1:]]) for p in played
        ]

    monkeypatch.setattr(native_agents, "play_games", wrong_step)
    with pytest.raises(SpieltischError):
        lab_native.play_native(_task(0))


def test_a_traced_native_game_carries_the_python_measures_and_its_record() -> None:
    task = _task(3, trace=True, keep_record=True)
    native, python = lab_native.play_native(task), play_task(task)
    assert [key for key, _ in native.measures] == [key for key, _ in python.measures]
    assert native.record is not None
    states = list(replay_states(load_game(task.game, 2, ()), native.record.moves))
    assert tuple(states[-1].scores()) == native.scores
    assert len(native.record.moves) == native.moves


def test_auto_plays_a_native_study_natively_and_run_json_and_the_report_say_so(
    tmp_path: Path,
) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    result = CliRunner().invoke(app, ["lab", "run", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out" / "run.json").read_text())["engine"] == "native"
    assert "by the native engine" in (tmp_path / "out" / "report.md").read_text()
    path.write_text(STUDY.replace("[grid]", 'engine = "python"\n[grid]'))  # the file's engine
    result = CliRunner().invoke(app, ["lab", "run", str(path), "--out", str(tmp_path / "py")])
    assert json.loads((tmp_path / "py" / "run.json").read_text())["engine"] == "python"
    again = ["lab", "run", str(path), "--out", str(tmp_path / "py"), "--engine", "native"]
    result = CliRunner().invoke(app, again)  # the journal's games are Python's: refused
    assert result.exit_code != 0 and "drawn by the python engine" in result.output


def test_native_is_refused_for_an_agent_without_a_native_counterpart(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(
        'game = "auf-die-eier"\nplayers = 2\ngames = 2\nagents = ["expert", "ismcts:50"]'
    )
    command = ["lab", "run", str(path), "--out", str(tmp_path / "out"), "--engine", "native"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code != 0
    assert "ismcts:50 has no native counterpart in auf-die-eier" in result.output
    assert not (tmp_path / "out" / "journal.jsonl").exists()
    arena_command = ["arena", "auf-die-eier", "--agents", "expert,ismcts", "--engine", "native"]
    result = CliRunner().invoke(app, arena_command)
    assert result.exit_code != 0 and "ismcts has no native counterpart" in result.output


def test_arena_and_simulate_play_natively_and_their_games_replay_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every native game checked by its Python replay (the sample made every deal)."""
    monkeypatch.setattr(lab_native, "REPLAY_EVERY", 1)
    game = load_game("auf-die-eier", 3, ())
    tasks = arena.schedule(game, ["expert", "heuristic", "random"], 12, seed=5)
    assert arena.play_for(tasks) is lab_native.play_native
    results = arena.run(tasks, engine="native")
    assert {r.engine for r in results} == {"native"}
    assert results == [lab_native.play_native(task) for task in tasks]  # one game at a time
    records: list[Record] = []
    lineup = ["expert", "heuristic", "random"]
    summary = simulate(game, lineup, 6, 2, on_record=lambda i, r: records.append(r))
    assert len(records) == 6 and summary.games == 6
    totals = [0, 0, 0]
    for record in records:  # each record is the native game as Python replays it
        final = list(replay_states(game, record.moves))[-1]
        totals = [t + s for t, s in zip(totals, final.scores(), strict=True)]
    assert totals == list(summary.score_totals)
    python = simulate(game, lineup, 6, 2, engine="python")
    assert python.games == 6 and python != summary  # another sample from the same seed


def test_the_chunked_native_path_gives_the_results_of_game_by_game(tmp_path: Path) -> None:
    """The speed work changes no figure: a runner's chunks played in one native call each give
    the results, and results.csv, of playing one game per call (the path before chunks)."""
    experiment = parse_experiment(STUDY)

    def one_at_a_time(task: Task) -> GameResult:
        return lab_native.play_native(task)  # no ``many``: the runner plays game by game

    chunked = run_experiment(experiment, LocalRunner(), tmp_path / "a.jsonl")
    single = run_experiment(experiment, LocalRunner(), tmp_path / "b.jsonl", play=one_at_a_time)
    assert [c.results for c in chunked] == [c.results for c in single]
    write_csv(tmp_path / "a.csv", experiment, chunked)
    write_csv(tmp_path / "b.csv", experiment, single)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    tasks = [task for _, cell_tasks in experiment.schedule() for task in cell_tasks]
    mixed = [tasks[1], tasks[0], tasks[-1], tasks[2]]  # sampled and unsampled deals, two cells
    assert lab_native.play_native.many(mixed) == [lab_native.play_native(t) for t in mixed]
