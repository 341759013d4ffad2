"""The arena and its statistics: rotations on shared deals, workers, intervals, Elo."""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from typer.testing import CliRunner

import spieltisch
from spieltisch.cli import app
from spieltisch.core.errors import OptionError
from spieltisch.lab import arena, plot
from spieltisch.lab.stats import elo_ratings, mean_interval, wilson_interval
from spieltisch.lab.summary import AgentRow, ArenaSummary


def row(name: str, rate: float, interval: tuple[float, float], scores: list[int]) -> AgentRow:
    """A summary row with the figures a plot reads (the others zero)."""
    return AgentRow(name, len(scores), rate, interval, 0.0, 0.0, (0.0, 0.0), 1500.0, tuple(scores))


def test_games_come_in_deals_with_every_rotation_on_the_same_seed() -> None:
    game = spieltisch.load("auf-die-eier", 3)
    tasks = arena.schedule(game, ["expert", "heuristic", "random"], games=7, seed=1)
    assert len(tasks) == 9  # rounded up to three whole deals
    first = tasks[:3]
    assert {t.seed for t in first} == {first[0].seed}
    assert [t.seats for t in first] == [
        ("expert", "heuristic", "random"),
        ("random", "expert", "heuristic"),
        ("heuristic", "random", "expert"),
    ]
    assert tasks[3].seed != first[0].seed


def test_two_workers_give_the_same_results_as_one() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    tasks = arena.schedule(game, ["heuristic", "random"], games=6, seed=5)
    assert arena.run(tasks, workers=1) == arena.run(tasks, workers=2)


def test_the_summary_rates_the_stronger_agent_higher() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    results = arena.run(arena.schedule(game, ["expert", "random"], games=20, seed=2))
    summary = arena.summarise(results, ["expert", "random"])
    expert, rand = summary.row("expert"), summary.row("random")
    assert expert.seats_played == rand.seats_played == 20
    assert expert.win_rate + rand.win_rate == pytest.approx(1)
    assert expert.win_rate > 0.7 and expert.elo > rand.elo
    low, high = expert.win_rate_ci95
    assert low <= expert.win_rate <= high
    assert expert.mean_margin == -rand.mean_margin


def test_wilson_interval_matches_the_textbook_value() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_and_elo_behave() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2 and low < 2 < high
    ratings = elo_ratings({("a", "b"): 75.0, ("b", "a"): 25.0}, ["a", "b"])
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(75.5 / 25.5), abs=0.5)
    assert sum(ratings.values()) / 2 == pytest.approx(1500)


def test_arena_command_prints_json_and_writes_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "arena.png"
    result = CliRunner().invoke(
        app,
        ["arena", "auf-die-eier", "--agents", "heuristic,random", "--games", "6", "--json",
         "--plot", str(plot), "--workers", "2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "arena: 6/6 games" in result.stderr
    assert data["games"] == 6 and [r["agent"] for r in data["agents"]] == ["heuristic", "random"]
    assert {"win_rate", "win_rate_ci95", "mean_score", "mean_margin", "elo"} <= set(
        data["agents"][0]
    )
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_table_and_bad_agents() -> None:
    runner = CliRunner()
    table = runner.invoke(app, ["arena", "auf-die-eier", "--agents", "heuristic", "--games", "2"])
    assert table.exit_code == 0 and "Elo" in table.output
    bad = runner.invoke(app, ["arena", "auf-die-eier", "--agents", "chess-engine"])
    assert bad.exit_code == 2 and "unknown agent" in bad.output


@pytest.mark.parametrize(
    ("scores", "score_bars"),
    [
        ([[2, 2, 1, 0], [0, 1, 2, 2]], 6),  # few values (match wins): three bars per agent
        ([list(range(20)), list(range(5, 25))], 0),  # many values: a box plot, no bars
    ],
)
def test_plot_draws_few_score_values_as_bars_and_many_as_boxes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scores: list[list[int]], score_bars: int
) -> None:
    rows = tuple(
        row(name, 0.5, (0.3, 0.7), agent) for name, agent in zip(["a", "b"], scores, strict=True)
    )
    figures: list[Figure] = []
    monkeypatch.setattr(plt, "close", figures.append)  # keep the figure to look at it
    plot.arena_plot(ArenaSummary(4, rows), "test", tmp_path / "p.png", players=2)
    left, right = figures[0].axes
    assert len(left.patches) == 2
    assert len(right.patches) == score_bars
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plot_marks_a_seats_even_share_even_when_one_agent_fills_several_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    rows = tuple(
        row(name, 0.3, (0.2, 0.4), [1, 2])
        for name in ["expert", "heuristic"]  # heuristic fills all the other seats
    )
    figures: list[Figure] = []
    monkeypatch.setattr(plt, "close", figures.append)
    plot.arena_plot(ArenaSummary(2, rows), "test", tmp_path / "p.png", players=players)
    even = figures[0].axes[0].get_lines()[-1]  # drawn last, after the bars' caps
    assert np.asarray(even.get_ydata(), dtype=float).tolist() == [pytest.approx(1 / players)] * 2


@pytest.mark.parametrize("trials", [1, 7, 40, 400, 1000])
def test_wilson_interval_always_holds_the_rate_even_at_zero_and_one(trials: int) -> None:
    for successes in [0.0, 0.5, *range(1, trials + 1)]:
        low, high = wilson_interval(successes, trials)
        assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert wilson_interval(trials, trials)[1] == 1.0 and wilson_interval(0, trials)[0] == 0.0


def test_a_clean_sweep_is_plotted_and_the_figures_come_first(tmp_path: Path) -> None:
    plot_file = tmp_path / "sweep.png"
    result = CliRunner().invoke(
        app,
        ["arena", "awimbawe", "--agents", "heuristic,random", "--games", "2", "--seed", "1",
         "--json", "--plot", str(plot_file)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[0])
    assert summary["agents"][0]["win_rate"] == 1.0  # the case that once broke the plot
    assert "scores" not in summary["agents"][0]
    assert plot_file.read_bytes()[:4] == b"\x89PNG"


def test_a_run_with_a_journal_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = spieltisch.load("auf-die-eier", 2)
    tasks = arena.schedule(game, ["heuristic", "random"], games=8, seed=4)
    journal = tmp_path / "run.jsonl"
    arena.run(tasks[:3], journal=journal, engine="python")  # a run cut short after three games
    assert len(journal.read_text().splitlines()) == 3
    played: list[arena.Task] = []
    play = arena.play_task

    def counted(task: arena.Task) -> arena.GameResult:
        played.append(task)
        return play(task)

    monkeypatch.setattr(arena, "play_task", counted)
    seen: list[int] = []
    resumed = arena.run(tasks, journal=journal, progress=seen.append, engine="python")
    assert played == list(tasks[3:])  # only the games the journal lacked
    assert seen[0] == 3 and seen[-1] == len(tasks)
    assert resumed == [play(task) for task in tasks]
    assert len(journal.read_text().splitlines()) == len(tasks)
    more = arena.schedule(game, ["heuristic", "random"], games=12, seed=4)
    played.clear()
    arena.run(more, journal=journal, engine="python")  # the same run extended to more games
    assert played == list(more[len(tasks) :])


def eier_duel(games: int, seed: int) -> list[arena.Task]:
    """The schedule of a 2-player Auf die Eier run of the heuristic against random."""
    return arena.schedule(spieltisch.load("auf-die-eier", 2), ["heuristic", "random"], games, seed)


def test_a_journal_of_another_run_or_of_anything_else_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    arena.run(eier_duel(games=2, seed=1), journal=journal)
    other_seed = eier_duel(games=2, seed=2)
    with pytest.raises(OptionError, match="line 1 holds a game this run does not schedule"):
        arena.run(other_seed, journal=journal)
    for line in ('{"task": {"game": "auf-die-eier"}}', '{"task": "x", "result": {}}', "[1]"):
        journal.write_text(line + "\n")
        with pytest.raises(OptionError, match="line 1 is not an arena game"):
            arena.run(other_seed, journal=journal)


def test_a_journal_resumes_with_workers_and_after_a_half_written_line(tmp_path: Path) -> None:
    tasks = eier_duel(games=6, seed=8)
    journal = tmp_path / "run.jsonl"
    arena.run(tasks[:4], journal=journal)
    whole = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(whole[:3]) + whole[3][:40])  # killed while writing game 4
    assert arena.run(tasks, workers=2, journal=journal) == arena.run(tasks)
    lines = journal.read_text().splitlines()
    assert len(lines) == len(tasks) and all(json.loads(line) for line in lines)


def test_a_journal_of_more_games_than_asked_for_says_how_to_go_on(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    arena.run(eier_duel(games=4, seed=1), journal=journal)
    with pytest.raises(OptionError, match="more games than asked for now; repeat"):
        arena.run(eier_duel(games=2, seed=1), journal=journal)


def test_the_arena_command_keeps_a_journal(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    command = ["arena", "auf-die-eier", "--agents", "heuristic,random", "--games", "4", "--json",
               "--journal", str(journal)]  # fmt: skip
    first = CliRunner().invoke(app, command)
    assert first.exit_code == 0, first.output
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [line["result"]["rotation"] for line in lines] == [0, 1, 0, 1]
    again = CliRunner().invoke(app, command)  # nothing left to play: the same figures
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(first.stdout)
    assert len(journal.read_text().splitlines()) == 4
