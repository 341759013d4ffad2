"""Experiments as files: parsing and its refusals, the grid's shared deals, equal results on
every worker count, and a journal that resumes an interrupted run."""

from __future__ import annotations

from pathlib import Path

import pytest

from spieltisch.core.errors import OptionError
from spieltisch.lab.engine import GameResult, LocalRunner, PoolRunner, Task, play_task
from spieltisch.lab.experiment import (
    CellResults,
    ExperimentError,
    RunProgress,
    load_experiment,
    parse_experiment,
    run_experiment,
    saved_results,
)

SMALL = """
name = "small"
game = "auf-die-eier"
players = [2, 3]
games = 6
seed = 7
agents = ["heuristic"]
[grid]
shared_chicken_ladder = [false, true]
"""

MIXED = """
game = "auf-die-eier"
players = 3
games = 6
seed = 1
agents = ["heuristic", "random"]
"""


def test_the_grid_has_a_cell_per_player_count_and_variant_with_shared_deals() -> None:
    experiment = parse_experiment(SMALL)
    cells = experiment.cells()
    assert [(c.players, c.label) for c in cells] == [
        (p, f"shared_chicken_ladder={v}") for p in (2, 3) for v in ("false", "true")
    ]
    plain, shared = (experiment.tasks(c) for c in cells[:2])
    assert len(plain) == experiment.games
    assert [t.seed for t in plain] == [t.seed for t in shared]
    assert all(t.keyed for t in plain)
    assert {t.seed for t in experiment.tasks(cells[2])}.isdisjoint({t.seed for t in plain})


def test_equal_agents_play_one_game_a_deal_and_mixed_agents_rotate() -> None:
    equal = parse_experiment(SMALL)
    assert equal.rotations(3) == 1
    mixed = parse_experiment(MIXED)
    tasks = mixed.tasks(mixed.cells()[0])
    assert mixed.rotations(3) == 3 and len(tasks) == 6
    assert {t.seats for t in tasks if t.deal == 0} == {
        ("heuristic", "random", "heuristic"),
        ("heuristic", "heuristic", "random"),
        ("random", "heuristic", "heuristic"),
    }


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = ['x']\nsed = 1", "unknown"),
        ("game = 'auf-die-eier'\nplayers = 2\ngames = 0\nagents = ['random']", "games"),
        ("game = 'auf-die-eier'\nplayers = 9\ngames = 5\nagents = ['random']", "9"),
        ("game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = ['nobody']", "nobody"),
        ("game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = []", "agents"),
        ("game = 'auf-die-eier'\nplayers = [2, 2]\ngames = 5\nagents = ['random']", "twice"),
        (
            "game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = ['random']\n"
            "[grid]\nshared_chicken_ladder = ['maybe']",
            "shared_chicken_ladder",
        ),
        (
            "game = 'auf-die-eier'\nplayers = [2,3,4,5,6]\ngames = 1000000\n"
            "agents = ['random']\n[grid]\nshared_chicken_ladder = [true, false]",
            "more than",
        ),
        ("game = 'auf-die-eier'\nplayers = 2\ngames = 5\nagents = ['random'", "not TOML"),
        ("game = 'no-such-game'\nplayers = 2\ngames = 5\nagents = ['random']", "no-such-game"),
    ],
)
def test_a_bad_experiment_is_refused_naming_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ExperimentError, match=says):
        parse_experiment(text)


def test_a_file_too_long_or_missing_is_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(ExperimentError, match="no experiment"):
        load_experiment(tmp_path / "missing.toml")
    long = tmp_path / "long.toml"
    long.write_text("# " + "x" * 200_000)
    with pytest.raises(ExperimentError, match="longer"):
        load_experiment(long)


def _numbers(cells: list[CellResults]) -> list[tuple[int, ...]]:
    out = []
    for cell in cells:
        for result in cell.played:
            out.append((*result.scores, result.actions, result.moves))
    return out


def test_the_same_seed_gives_the_same_results_on_every_worker_count() -> None:
    experiment = parse_experiment(SMALL)
    alone = run_experiment(experiment, LocalRunner())
    pooled = run_experiment(experiment, PoolRunner(2, chunk=1))
    assert [c.results for c in alone] == [c.results for c in pooled]
    assert len(_numbers(alone)) == 4 * experiment.games


def test_variants_meet_the_same_first_roll_on_every_deal() -> None:
    experiment = parse_experiment(SMALL.replace("games = 6", "games = 3"))
    cells = experiment.cells()[:2]
    first_rolls = []
    for cell in cells:
        tasks = [
            Task(
                t.game,
                t.players,
                t.options,
                t.deal,
                0,
                t.seats,
                t.seed,
                keyed=True,
                keep_record=True,
            )
            for t in experiment.tasks(cell)
        ]
        records = [play_task(t).record for t in tasks]
        first_rolls.append([r.moves[0] for r in records if r is not None])
    assert len(first_rolls[0]) == 3 and first_rolls[0] == first_rolls[1]


class StoppedError(Exception):
    """Stands for a run stopped half-way (Ctrl-C, a killed process)."""


def test_an_interrupted_run_resumes_from_its_journal_and_plays_only_what_is_missing(
    tmp_path: Path,
) -> None:
    experiment = parse_experiment(SMALL)
    journal = tmp_path / "journal.jsonl"
    played: list[Task] = []

    def stop_after_five(task: Task) -> GameResult:
        if len(played) == 5:
            raise StoppedError
        played.append(task)
        return play_task(task)

    with pytest.raises(StoppedError):
        run_experiment(experiment, LocalRunner(), journal, play=stop_after_five)
    assert len(journal.read_text().splitlines()) == 5
    again: list[Task] = []

    def counting(task: Task) -> GameResult:
        again.append(task)
        return play_task(task)

    seen: list[RunProgress] = []
    resumed = run_experiment(experiment, LocalRunner(), journal, seen.append, play=counting)
    whole = run_experiment(experiment, LocalRunner(), play=play_task)
    assert [c.results for c in resumed] == [c.results for c in whole]
    assert len(again) == 4 * experiment.games - 5 and not set(again) & set(played)
    assert seen[0].games_done == 5 and seen[-1] == RunProgress(24, 24, 4, 4)
    assert [c.results for c in saved_results(experiment, journal)] == [c.results for c in whole]


def test_a_journal_of_another_experiment_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    run_experiment(parse_experiment(SMALL), LocalRunner(), journal)
    other = parse_experiment(SMALL.replace("seed = 7", "seed = 8"))
    with pytest.raises(OptionError, match="does not schedule"):
        run_experiment(other, LocalRunner(), journal)


def test_variants_listed_one_by_one_are_cells_of_their_own() -> None:
    text = SMALL.replace(
        "[grid]\nshared_chicken_ladder = [false, true]",
        "variants = [{}, { shared_chicken_ladder = true }]",
    )
    experiment = parse_experiment(text)
    assert [c.label for c in experiment.cells()] == ["default", "shared_chicken_ladder=true"] * 2
    assert experiment.varying() == ["shared_chicken_ladder"]
    both = text + "[grid]\nshared_chicken_ladder = [false]\n"
    with pytest.raises(ExperimentError, match="not both"):
        parse_experiment(both)
    with pytest.raises(ExperimentError, match="twice"):
        parse_experiment(text.replace("variants = [{}, ", "variants = [{}, {}, "))
