"""The report's numbers of a fixed study stay what they were: the analysis of a made-up run
(results drawn from a seeded generator, so no engine or agent is involved) gives the figures
recorded when the cluster bootstrap still resampled in a Python loop, to the bit."""

from __future__ import annotations

import random

from spieltisch.lab.analysis import Analysis, analyse
from spieltisch.lab.engine import GameResult
from spieltisch.lab.experiment import CellResults, Experiment, collect, parse_experiment

STUDY = """
name = "made-up results"
game = "auf-die-eier"
players = [2, 3]
games = 120
seed = 11
agents = ["expert", "heuristic"]
rotate = true
metrics = ["head-to-head:expert:heuristic", "first-seat-win", "decisions", "margin"]
[grid]
shared_chicken_ladder = [false, true]
"""

RECORDED: list[list[float]] = [
    [24.957264957264957, 23.516484257871067, 26.61768928035982],
    [96.61538461538461, 93.0, 100.13699712643678],
    [4.316239316239316, -0.8999565343378724, 9.20791882819652],
    [92.2991452991453, 89.03326271186441, 95.73813559322033],
    [-4.316239316239316, -9.20791882819652, 0.8999565343378724],
    [0.44871794871794873, 0.36324786324786323, 0.5336134453781513, 117],
    [0.5427350427350427, 0.4482758620689655, 0.6356221932493118, 117],
    [24.957264957264957, 23.516737288135594, 26.547222222222224, 117],
    [24.726495726495727, 22.076906779661016, 27.32209901351845, 117],
    [24.47008547008547, 23.17094017094017, 25.752136752136753],
    [94.7948717948718, 91.22881355932203, 98.17408635425876],
    [3.247863247863248, -1.3851694915254231, 7.992097701149425],
    [91.54700854700855, 88.32253623188407, 94.85635593220339],
    [-3.247863247863248, -7.992097701149425, 1.3851694915254231],
    [0.49145299145299143, 0.4051066627703098, 0.5720338983050848, 117],
    [0.5256410256410257, 0.4444324712643678, 0.6174226234340456, 117],
    [24.47008547008547, 23.284208296492782, 25.603533009136456, 117],
    [22.427350427350426, 19.78426724137931, 25.147760812390416, 117],
    [24.71794871794872, 23.033259180790964, 26.20081896551724],
    [95.1025641025641, 91.74137931034483, 98.26143115942028],
    [-8.23076923076923, -12.58142309097552, -4.224042957334892],
    [93.88034188034187, 91.26800383946681, 96.583297715549],
    [-10.452991452991453, -14.72425482174167, -5.930579096045199],
    [91.28205128205128, 87.25036353671905, 95.69418103448275],
    [-16.017094017094017, -20.528296907523043, -11.654592871631412],
    [0.5064102564102564, 0.43428331078193994, 0.5818974572587655, 117],
    [0.3717948717948718, 0.2930851841028638, 0.4491737288135593, 117],
    [24.71794871794872, 23.24545659019343, 26.25862068965517, 117],
    [17.905982905982906, 15.720258620689657, 20.172976329631794, 117],
    [24.838983050847457, 23.40987394957983, 26.20520833333333],
    [96.09322033898304, 92.98262711864407, 99.34503453923942],
    [-9.805084745762711, -14.207112068965515, -5.9827030812324935],
    [93.2457627118644, 89.88852491670288, 96.8295197740113],
    [-13.5, -17.808814655172412, -8.804705526278308],
    [94.78813559322033, 91.36279661016948, 98.05901960784314],
    [-10.94915254237288, -14.748481341689217, -7.008262711864408],
    [0.4258474576271186, 0.3580508474576271, 0.4874452535251388, 118],
    [0.3432203389830508, 0.26689307078763713, 0.42374483691781795, 118],
    [24.838983050847457, 23.570935960591136, 26.212240065517733, 118],
    [13.88135593220339, 11.607955508474575, 16.236554621848736, 118],
    [
        0.0423728813559322,
        -0.0847457627118644,
        0.17372881355932204,
        0.5003286471050487,
        0.515358341189921,
        1.0,
    ],
    [
        -0.01694915254237288,
        -0.16101694915254236,
        0.13135593220338984,
        0.5625994294874589,
        0.8169993664945658,
        1.0,
    ],
    [
        -0.7288135593220338,
        -2.8822033898305075,
        1.262923728813559,
        8.389403226637953,
        0.5045900875555851,
        1.0,
    ],
    [
        -2.364406779661017,
        -6.373516949152542,
        1.4497881355932196,
        15.412945328318862,
        0.23866979837820146,
        1.0,
    ],
    [
        -0.08750000000000002,
        -0.19588541666666665,
        0.02083333333333332,
        0.3545341231030441,
        0.11854316880057314,
        0.829802181604012,
    ],
    [
        -0.035416666666666666,
        -0.1521354166666666,
        0.08125000000000002,
        0.367330159215039,
        0.5420001875152133,
        1.0,
    ],
    [
        0.1708333333333334,
        -1.917083333333333,
        2.1710416666666674,
        6.8533153226508485,
        0.8747303359073373,
        1.0,
    ],
    [
        -3.920833333333333,
        -6.918333333333334,
        -1.056875000000001,
        10.286008773850355,
        0.015917500756498684,
        0.12734000605198947,
    ],
]
"""The figures as the Python-loop bootstrap drew them."""


def made_up_run() -> tuple[Experiment, list[CellResults]]:
    """The study's schedule with every game's result drawn from a seeded generator (a few
    unfinished, so they are left out as a real run's are)."""
    experiment = parse_experiment(STUDY)
    plan = experiment.schedule()
    tasks = [task for _, cell_tasks in plan for task in cell_tasks]
    rng = random.Random(5)
    results = {}
    for index, task in enumerate(tasks):
        scores = tuple(rng.randrange(60, 130) for _ in task.seats)
        top = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == top]
        returns = tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores)))
        actions = rng.randrange(10, 40)
        finished = rng.random() > 0.02
        results[index] = GameResult(
            task.deal, task.rotation, task.seats, scores, returns, actions, 3 * actions, finished
        )
    return experiment, collect(plan, tasks, results)


def figures(analysis: Analysis) -> list[list[float]]:
    """Every resampled figure of the report: per cell the length, each seat's score and margin,
    each metric; per comparison the difference with its interval, spread and p-values."""
    out: list[list[float]] = []
    for cell in analysis.cells:
        out.append([cell.length.value, cell.length.low, cell.length.high])
        for seat in cell.seats:
            out.append([seat.score.value, seat.score.low, seat.score.high])
            out.append([seat.margin.value, seat.margin.low, seat.margin.high])
        for _, interval, games in cell.metrics:
            assert interval is not None
            out.append([interval.value, interval.low, interval.high, games])
    for comparison in analysis.comparisons:
        d = comparison.difference
        out.append([d.mean, d.low, d.high, d.sd, d.p_value, comparison.p_holm])
    return out


def test_the_report_numbers_of_a_fixed_study_are_the_recorded_ones() -> None:
    experiment, cells = made_up_run()
    assert figures(analyse(experiment, cells)) == RECORDED
