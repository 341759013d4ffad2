"""``lab tune``: a parameter search that finds an answer known by construction, narrows its
interval where the noise allows, measures a target at another player count, resumes from its
journal, and refuses a [tune] table it cannot run."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.lab.engine import GameResult, LocalRunner, Task
from spieltisch.lab.experiment import ExperimentError, parse_experiment
from spieltisch.lab.tune import describe, tune, tune_spec
from spieltisch.lab.tune_report import run_tune, tune_text

runner = CliRunner()

ROUNDS = """
name = "rounds for a top score of 3"
game = "awimbawe"
players = [2]
games = 4
seed = 5
agents = ["random"]
[tune]
parameter = "rounds_to_win"
metric = "top-score"
target = 3
max_games = 8
"""


def test_a_search_finds_an_answer_known_by_construction() -> None:
    """In Awimbawé the winner's score is the rounds it takes to win, in every game: the value
    that brings the top score to 3 is 3, with no doubt at all."""
    experiment = parse_experiment(ROUNDS)
    spec = tune_spec(experiment, dict(experiment.tuning))
    (answer,) = tune(experiment, spec, LocalRunner())
    assert answer.reached and answer.value == 3.0
    assert (answer.low, answer.high) == (3, 3)
    looked = {p.value: p.mean for p in answer.points}
    assert looked[1] == 1.0 and looked[5] == 5.0 and looked[3] == 3.0
    assert (answer.below, answer.above) == (2, 4)
    assert describe(answer, spec).startswith(
        "2 players: rounds_to_win = 3.0 brings top-score to 3; whole values no look rules out "
        "(95%): 3, the crossing lying between 2 and 4"
    )


GOAL = """
name = "a goal for a length"
game = "auf-die-eier"
players = [2, 4]
games = 20
seed = 1
agents = ["heuristic"]
[tune]
parameter = "goal"
metric = "decisions"
{target}
low = 20
high = 300
max_games = 320
"""


def fake_play(task: Task) -> GameResult:
    """A game whose length is the goal times the players over four, give or take 6 (noise
    drawn from the deal, so every value meets the same noise on the same deal)."""
    goal = dict(task.options).get("goal", 100)
    assert isinstance(goal, int)
    noise = random.Random(task.seed).uniform(-6, 6)
    length = round(goal * task.players / 4 + noise)
    return GameResult(task.deal, task.rotation, task.seats, (0,) * task.players,
                      (1.0,) + (0.0,) * (task.players - 1), length)  # fmt: skip


def test_a_noisy_search_brackets_the_answer_and_spends_games_near_it() -> None:
    experiment = parse_experiment(GOAL.format(target="target = 50"))
    spec = tune_spec(experiment, dict(experiment.tuning))
    two, four = tune(experiment, spec, LocalRunner(), play=fake_play)
    # The true answers: 50 = goal * 2 / 4 at goal 100, and goal 50 at four players.
    assert two.low <= 100 <= two.high and two.high - two.low <= 12
    assert four.low <= 50 <= four.high and four.high - four.low <= 12
    assert abs(two.value - 100) <= 4 and abs(four.value - 50) <= 3
    games = {p.value: p.games for p in two.points}
    assert games[20] == games[300] == 20  # far from the target: the first look settles it
    assert max(games.values()) > 20  # near it: more games before deciding
    values = [p.value for p in two.points if p.value is not None]
    assert values == sorted(values) and len(values) == len(two.points)


def test_a_target_measured_at_another_player_count() -> None:
    experiment = parse_experiment(GOAL.format(target="reference_players = 2").replace(
        "players = [2, 4]", "players = [4]"))  # fmt: skip
    spec = tune_spec(experiment, dict(experiment.tuning))
    (four,) = tune(experiment, spec, LocalRunner(), play=fake_play)
    # At two players and the default goal a game lasts 50 decisions: four players match it
    # at goal 50.
    assert four.target == pytest.approx(50, abs=1) and four.target_half > 0
    assert four.low <= 50 <= four.high


def test_a_target_out_of_reach_is_said_so() -> None:
    experiment = parse_experiment(GOAL.format(target="target = 500"))
    spec = tune_spec(experiment, dict(experiment.tuning))
    two, _ = tune(experiment, spec, LocalRunner(), play=fake_play)
    assert not two.reached and "does not reach 500" in describe(two, spec)


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ('parameter = "shared_chicken_ladder"\nmetric = "decisions"\ntarget = 1',
         "not a rule parameter"),
        ('parameter = "goal"\nmetric = "decisions"', "a target or reference_players"),
        ('parameter = "goal"\nmetric = "decisions"\ntarget = 1\nreference_players = 2',
         "one of the two"),
        ('parameter = "goal"\nmetric = "fun"\ntarget = 1', "no metric 'fun'"),
        ('parameter = "goal"\nmetric = "decisions"\ntarget = 1\nlow = 500', "within 20-300"),
        ('parameter = "colour"\nmetric = "decisions"\ntarget = 1', "no option 'colour'"),
    ],
)  # fmt: skip
def test_a_tune_table_that_cannot_run_is_refused(table: str, says: str) -> None:
    text = GOAL.split("[tune]", maxsplit=1)[0] + "[tune]\n" + table + "\n"
    experiment = parse_experiment(text)
    with pytest.raises(Exception, match=says):
        tune_spec(experiment, dict(experiment.tuning))


def test_an_unknown_key_in_the_tune_table_is_named_with_its_line() -> None:
    text = GOAL.format(target="target = 5\ntarrget = 6")
    with pytest.raises(ExperimentError, match=r"line 12: tune.tarrget: unknown key"):
        parse_experiment(text)


def test_lab_tune_writes_its_findings_and_resumes_from_its_journal(tmp_path: Path) -> None:
    path = tmp_path / "rounds.toml"
    path.write_text(ROUNDS)
    result = runner.invoke(app, ["lab", "tune", str(path)])
    assert result.exit_code == 0, result.output
    assert "rounds_to_win = 3.0 brings top-score to 3; whole values no look rules out (95%): 3" in (
        result.output
    )
    folder = tmp_path / "rounds"
    for name in ("tune.md", "tune.json", "tune.png", "journal.jsonl", "experiment.toml"):
        assert (folder / name).stat().st_size > 0
    report = (folder / "tune.md").read_text()
    # Run again: every game comes from the journal, none is played, the answer is the same.
    experiment = parse_experiment(ROUNDS)
    spec = tune_spec(experiment, dict(experiment.tuning))
    played: list[Task] = []
    answers = run_tune(folder, experiment, spec, LocalRunner(), lambda t, r: played.append(t))
    assert played == [] and answers[0].value == 3.0
    assert (folder / "tune.md").read_text() == report


def test_lab_tune_needs_a_tune_table(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text(ROUNDS.split("[tune]", maxsplit=1)[0])
    result = runner.invoke(app, ["lab", "tune", str(path)])
    assert result.exit_code != 0 and "has no [tune] table" in result.output


def jumpy_play(task: Task) -> GameResult:
    """A game whose length jumps from 10 to 20 between goal 50 and 51, without noise."""
    goal = dict(task.options).get("goal", 100)
    assert isinstance(goal, int)
    length = 10 if goal <= 50 else 20
    return GameResult(task.deal, task.rotation, task.seats, (0,) * task.players,
                      (1.0,) + (0.0,) * (task.players - 1), length)  # fmt: skip


def test_a_metric_that_jumps_over_the_target_is_said_to() -> None:
    experiment = parse_experiment(GOAL.format(target="target = 15"))
    spec = tune_spec(experiment, dict(experiment.tuning))
    two, _ = tune(experiment, spec, LocalRunner(), play=jumpy_play)
    assert (two.below, two.above) == (50, 51) and two.low > two.high
    assert two.value == pytest.approx(50.5)
    assert "no whole goal brings decisions to 15: it jumps past it between goal=50 and 51" in (
        describe(two, spec)
    )


def test_tune_md_says_how_many_games_measured_the_reference() -> None:
    """The target's own interval depends on how many games measured it: tune.md says so."""
    experiment = parse_experiment(GOAL.format(target="reference_players = 2").replace(
        "players = [2, 4]", "players = [4]"))  # fmt: skip
    spec = tune_spec(experiment, dict(experiment.tuning))
    (four,) = tune(experiment, spec, LocalRunner(), play=fake_play)
    assert four.reference is not None and four.reference.games == spec.max_games
    text = tune_text(experiment, spec, [four])
    assert f"measured over {spec.max_games} games, {four.reference.deals} deals" in text
    assert f"at 2 players over {spec.max_games} games)" in describe(four, spec)
