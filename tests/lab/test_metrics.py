"""The lab's metrics: each on hand-made games with known answers, the game-quality measures on
a worked example, and an experiment that names its own metrics from file to report."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

import spieltisch
from spieltisch.core.record import replay_states
from spieltisch.lab import quality
from spieltisch.lab.analysis import analyse
from spieltisch.lab.engine import GameResult, LocalRunner, Task, journal_writer, play_task
from spieltisch.lab.experiment import ExperimentError, parse_experiment, run_experiment
from spieltisch.lab.metrics import (
    DEFAULT_METRICS,
    PLAIN,
    MetricError,
    catalogue,
    head_to_head_agents,
    metric,
    metrics,
)
from spieltisch.lab.report import redraw, write_outputs


def game(
    scores: tuple[int, ...],
    returns: tuple[float, ...],
    seats: tuple[str, ...] = (),
    actions: int = 10,
) -> GameResult:
    return GameResult(0, 0, seats or ("a",) * len(scores), scores, returns, actions)


def test_the_plain_metrics_of_a_game() -> None:
    won_by_second = game((3, 7, 5), (0.0, 1.0, 0.0), actions=42)
    assert metric("first-seat-win").value(won_by_second) == 0.0
    assert metric("seat-win:2").value(won_by_second) == 1.0
    assert metric("seat-win:4").value(won_by_second) is None  # no fourth seat here
    assert metric("mean-score").value(won_by_second) == 5.0
    assert metric("decisions").value(won_by_second) == 42.0
    assert metric("margin").value(won_by_second) == 2.0  # 7 less the next best 5
    shared = game((6, 6), (0.5, 0.5))
    assert metric("first-seat-win").value(shared) == 0.5
    assert metric("margin").value(shared) == 0.0


def test_seat_advantage_is_first_seat_win_and_counts_once() -> None:
    """The two named the same comparison (a constant apart at one player count): the old name
    still reads, as the first seat's win rate, and naming both gives one metric, one test."""
    assert "seat-advantage" not in PLAIN
    assert metric("seat-advantage") is metric("first-seat-win")
    both = metrics(["first-seat-win", "mean-score", "seat-advantage"])
    assert [m.key for m in both] == ["first-seat-win", "mean-score"]
    old = EXPERIMENT.replace(
        '"head-to-head:expert:heuristic", "margin", "lead-changes", "drama"',
        '"seat-advantage", "first-seat-win"',
    )
    assert [m.key for m in parse_experiment(old).measured()] == ["first-seat-win"]


def test_head_to_head_counts_every_meeting_of_the_two_agents() -> None:
    edge = metric("head-to-head:expert:heuristic")
    # The expert wins: ahead of both heuristic seats.
    assert edge.value(game((9, 4, 5), (1.0, 0.0, 0.0), ("expert", "heuristic", "heuristic"))) == 1.0
    # A heuristic seat wins; the expert is ahead of the other heuristic on points: 1 of 2.
    assert edge.value(game((5, 9, 4), (0.0, 1.0, 0.0), ("expert", "heuristic", "heuristic"))) == 0.5
    # Level on the win (none) and on points: a half.
    assert edge.value(game((4, 4), (0.0, 0.0), ("expert", "heuristic"))) == 0.5
    # A shared win with more points counts as level on the win, then ahead on points.
    assert edge.value(game((8, 6), (0.5, 0.5), ("expert", "heuristic"))) == 1.0
    # Two expert seats against one heuristic: both meetings count.
    assert edge.value(game((1, 9, 5), (0.0, 1.0, 0.0), ("expert", "expert", "heuristic"))) == 0.5
    assert edge.value(game((1, 2), (0.0, 1.0), ("random", "heuristic"))) is None


@pytest.mark.parametrize(
    ("key", "pair"),
    [
        ("head-to-head:expert:heuristic", ("expert", "heuristic")),
        ("head-to-head:ismcts:2000:heuristic", ("ismcts:2000", "heuristic")),
        ("head-to-head:heuristic:ismcts:1s", ("heuristic", "ismcts:1s")),
        ("head-to-head:ismcts:0.5s:ismcts:500", ("ismcts:0.5s", "ismcts:500")),
        ("seat-win:2", None),
    ],
)
def test_a_head_to_head_names_agents_with_their_settings(
    key: str, pair: tuple[str, str] | None
) -> None:
    assert head_to_head_agents(key) == pair
    if pair is not None:
        assert metric(key).title == f"{pair[0]} ahead of {pair[1]}"


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("fun", "no metric 'fun'"),
        ("seat-win:0", "no metric"),
        ("seat-win:x", "no metric"),
        ("head-to-head:expert", "no metric"),
        ("head-to-head:expert:expert", "no metric"),
        ("head-to-head:ismcts:500:ismcts:500", "no metric"),
        ("head-to-head:ismcts:500", "no metric"),
        ("x" * 500, "at most"),
    ],
)
def test_an_unknown_metric_is_refused_naming_the_known_ones(key: str, says: str) -> None:
    with pytest.raises(MetricError, match=says):
        metric(key)


def test_every_metric_is_documented() -> None:
    rows = catalogue()
    assert all(formula for _, formula, _ in rows)
    assert set(quality.QUALITY_KEYS) <= {k for k, m in PLAIN.items() if m.traced}
    docs = (Path(__file__).parents[2] / "docs" / "lab" / "README.md").read_text()
    for key in (*PLAIN, "seat-win:", "head-to-head:", "uncertainty-at:"):
        assert f"`{key}" in docs, key


# --- the game-quality measures ------------------------------------------------------------------

# A worked example, computed by hand from the definitions (Ludii's, after Browne): three players,
# five decisions, player 2 wins. The leaders go 0, 0, 1, {1, 2}, 2: three changes in five
# decisions. The winner's gap to the leader: 0.3, 0.2, 0.2, 0, 0 (mean 0.14). The best any loser
# reached is 0.6 (player 0 at the first decision; player 1 reaches 0.5); the winner first passes
# it at the last decision (index 4 of 5): decisiveness 0.8.
WORKED = [
    (0.6, 0.1, 0.3),
    (0.5, 0.2, 0.3),
    (0.2, 0.5, 0.3),
    (0.1, 0.45, 0.45),
    (0.1, 0.2, 0.7),
]


def test_the_quality_measures_of_a_worked_example() -> None:
    winners = frozenset({2})
    assert quality.lead_changes(WORKED) == pytest.approx(3 / 5)
    assert quality.drama(WORKED, winners) == pytest.approx((0.3 + 0.2 + 0.2) / 5)
    assert quality.decisiveness(WORKED, winners) == pytest.approx(4 / 5)
    entropy = [-sum(x * math.log(x) for x in e) / math.log(3) for e in WORKED]
    assert quality.uncertainty(WORKED) == pytest.approx(sum(entropy) / 5)


def test_the_quality_measures_at_their_extremes() -> None:
    # A winner who leads throughout with certainty: no change, no drama, decided at once,
    # nothing uncertain.
    sure = [(1.0, 0.0)] * 4
    assert quality.lead_changes(sure) == 0
    assert quality.drama(sure, frozenset({0})) == 0
    assert quality.decisiveness(sure, frozenset({0})) == 0
    assert quality.uncertainty(sure) == 0
    # An even game throughout: everything uncertain, the winner never clear.
    even = [(0.5, 0.5)] * 4
    assert quality.uncertainty(even) == pytest.approx(1.0)
    assert quality.decisiveness(even, frozenset({1})) == 1.0
    # No winner: no drama, no decisiveness; no decisions: nothing at all.
    assert quality.drama(even, frozenset()) is None
    assert quality.decisiveness(even, frozenset()) is None
    assert quality.lead_changes([]) is None


def test_uncertainty_over_time_averages_each_tenth_of_the_game() -> None:
    # Twenty decisions: two in each tenth. Even chances for the first ten, then certainty.
    even, sure = (0.5, 0.5), (1.0, 0.0)
    curve = quality.uncertainty_curve([even] * 10 + [sure] * 10)
    assert curve == pytest.approx((1.0,) * 5 + (0.0,) * 5)
    # A tenth of mixed decisions takes their mean.
    curve = quality.uncertainty_curve([even] * 11 + [sure] * 9)
    assert curve is not None and curve[5] == pytest.approx(0.5)
    # Four decisions: the empty tenths take the decision nearest their middle.
    short = quality.uncertainty_curve([even, even, sure, sure])
    assert short == pytest.approx((1.0,) * 5 + (0.0,) * 5)
    assert quality.uncertainty_curve([]) is None
    # The curve's mean over equal tenths is the game's uncertainty.
    game = [(0.5, 0.5), (0.7, 0.3), (0.9, 0.1), (0.6, 0.4), (1.0, 0.0)] * 2
    curve = quality.uncertainty_curve(game)
    assert curve is not None and sum(curve) / 10 == pytest.approx(quality.uncertainty(game))


def test_a_tenth_of_uncertainty_is_a_metric_of_its_own() -> None:
    tenth = metric("uncertainty-at:30")
    assert tenth.traced and "30%" in tenth.title
    result = GameResult(
        0, 0, ("a", "b"), (1, 0), (1.0, 0.0), 5, measures=(("uncertainty-at:30", 0.25),)
    )
    assert tenth.measure(result) == 0.25
    with pytest.raises(MetricError, match="uncertainty-at:P"):
        metric("uncertainty-at:35")


@pytest.mark.parametrize("name", ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"])
def test_a_traced_game_carries_its_measures_and_its_estimates_are_chances(name: str) -> None:
    players = 2
    task = Task(name, players, (), 0, 0, ("heuristic",) * players, 7, trace=True, keep_record=True)
    result = play_task(task)
    assert result.finished and result.record is not None
    assert {key for key, _ in result.measures} == set(quality.MEASURE_KEYS)
    for key, value in result.measures:
        assert value is not None and 0.0 <= value <= 1.0, (key, value)
    game_ = spieltisch.load(name, players)
    estimates = quality.trace(replay_states(game_, result.record.moves), quality.estimator(name))
    assert len(estimates) == result.actions  # one estimate per decision
    assert all(math.isclose(sum(e), 1.0) and min(e) >= 0 for e in estimates)
    assert play_task(task).measures == result.measures  # the same game, the same figures


# --- an experiment naming its metrics -----------------------------------------------------------

EXPERIMENT = """
name = "metrics test"
game = "auf-die-eier"
players = [2]
games = 8
seed = 3
agents = ["expert", "heuristic"]
metrics = ["head-to-head:expert:heuristic", "margin", "lead-changes", "drama"]
[grid]
shared_chicken_ladder = [false, true]
"""


def test_an_experiment_measures_and_compares_the_metrics_it_names(tmp_path: Path) -> None:
    experiment = parse_experiment(EXPERIMENT)
    assert experiment.traced and all(t.trace for _, tasks in experiment.schedule() for t in tasks)
    (tmp_path / "experiment.toml").write_text(EXPERIMENT)
    cells = run_experiment(experiment, LocalRunner(), tmp_path / "journal.jsonl")
    analysis = write_outputs(tmp_path, experiment, cells)
    titles = ["expert ahead of heuristic", "score margin", "lead changes", "drama"]
    assert [c.metric for c in analysis.comparisons] == titles
    assert [k.percent for k in analysis.comparisons] == [True, False, False, False]
    for stats in analysis.cells:
        assert [m.key for m, _, _ in stats.metrics] == list(experiment.metrics)
        edge = stats.metrics[0][1]
        assert edge is not None and 0 <= edge.low <= edge.value <= edge.high <= 1
        assert [q for q, _ in stats.length_quantiles] == [10, 25, 50, 75, 90]
        assert {a for a, _ in stats.agent_scores} == {"expert", "heuristic"}
    played = [r for c in cells for r in c.played]
    # The head-to-head mean is the games' own figure: every game seats both agents once.
    mine = [metric("head-to-head:expert:heuristic").value(r) for r in cells[0].played]
    values = [v for v in mine if v is not None]
    assert len(values) == len(mine)
    first = analysis.cells[0].metrics[0][1]
    assert first is not None and first.value == pytest.approx(sum(values) / len(values))
    report = (tmp_path / "report.md").read_text()
    assert "expert ahead of heuristic" in report and "`lead-changes`" in report
    # Uncertainty over time: each cell's curve, the mean of its games' tenths, drawn.
    for stats, cell in zip(analysis.cells, cells, strict=True):
        fifth = [v for r in cell.played if r.finished and (v := r.measure("uncertainty-at:50"))]
        assert len(stats.uncertainty_curve) == 10
        assert stats.uncertainty_curve[4] == pytest.approx(sum(fifth) / len(fifth))
    assert (tmp_path / "uncertainty.png").stat().st_size > 0 and "uncertainty.png" in report
    with (tmp_path / "results.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert {"lead-changes", "drama"} <= set(rows[0]) and len(rows) == 2 * len(played)
    assert set(quality.CURVE_KEYS) <= set(rows[0])
    # The same rows, typed, as Parquet: DuckDB reads the quality measures as numbers.
    import duckdb

    parquet = str(tmp_path / "results.parquet")
    ((count, drama, flags),) = (
        duckdb.connect()
        .execute(
            "SELECT count(*), avg(drama), count(DISTINCT shared_chicken_ladder) "
            "FROM read_parquet(?)",
            [parquet],
        )
        .fetchall()
    )
    assert count == len(rows) and flags == 2
    assert drama == pytest.approx(sum(float(r["drama"]) for r in rows if r["drama"]) / len(rows))
    # Without the journal the CSV alone redraws the same report, quality measures included.
    (tmp_path / "journal.jsonl").unlink()
    assert redraw(tmp_path) == analysis
    assert (tmp_path / "report.md").read_text() == report
    # Kept with neither the journal nor the CSV, the Parquet file alone redraws it too.
    (tmp_path / "results.csv").unlink()
    assert redraw(tmp_path) == analysis
    assert (tmp_path / "report.md").read_text() == report


def test_an_experiment_without_metrics_measures_the_three_of_old() -> None:
    experiment = parse_experiment(EXPERIMENT.replace('metrics = ["head', '# metrics = ["head'))
    assert experiment.metrics == DEFAULT_METRICS and not experiment.traced


def test_games_journaled_without_their_trace_are_played_again(tmp_path: Path) -> None:
    traced = parse_experiment(EXPERIMENT)
    plain = parse_experiment(EXPERIMENT.replace(', "lead-changes", "drama"', ""))
    journal = tmp_path / "journal.jsonl"
    task = plain.schedule()[0][1][0]
    with journal_writer(journal) as write:
        write(task, play_task(task))
    cells = run_experiment(traced, LocalRunner(), journal)
    assert all(r.measures for c in cells for r in c.played)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('metrics = ["fun"]', "no metric 'fun'"),
        ('metrics = ["head-to-head:expert:random"]', "random is not among the agents"),
        ('metrics = ["margin", "margin"]', "lists one value twice"),
        ("metrics = 3", "line 8: metrics: 3 is not of type 'array'"),
    ],
)
def test_a_bad_metric_in_an_experiment_is_refused(line: str, says: str) -> None:
    text = EXPERIMENT.replace(
        'metrics = ["head-to-head:expert:heuristic", "margin", "lead-changes", "drama"]', line
    )
    with pytest.raises(ExperimentError, match=says):
        parse_experiment(text)


def test_the_analysis_of_a_traced_run_is_the_same_on_a_pool() -> None:
    from spieltisch.lab.engine import PoolRunner

    experiment = parse_experiment(EXPERIMENT.replace("games = 8", "games = 4"))
    local = analyse(experiment, run_experiment(experiment, LocalRunner()))
    pooled = analyse(experiment, run_experiment(experiment, PoolRunner(2)))
    assert local == pooled
