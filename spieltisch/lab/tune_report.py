"""A parameter search's output folder: ``tune.md`` in words and tables, ``tune.json`` with every
value looked at, and ``tune.png``.

Beside them, ``experiment.toml`` (the file as run) and ``journal.jsonl`` (every game played, as
it ended): a search run again with the same file and folder takes its games from the journal,
so an interrupted search goes on where it stopped and a finished one redraws at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from spieltisch.lab.engine import (
    GameResult,
    Runner,
    Task,
    check_engine,
    journal_games,
    journal_writer,
)
from spieltisch.lab.experiment import Experiment
from spieltisch.lab.native import Used, play_of
from spieltisch.lab.plot import tune_plot
from spieltisch.lab.tune import Answer, TuneSpec, describe, tune
from spieltisch.lab.words import counted

JOURNAL_FILE = "journal.jsonl"


def run_tune(
    folder: Path,
    experiment: Experiment,
    spec: TuneSpec,
    runner: Runner,
    on_game: Callable[[Task, GameResult], None] = lambda task, result: None,
    engine: Used | None = None,
) -> list[Answer]:
    """Search (resuming from the folder's journal, which another engine than this run's must
    not have drawn) and write the outputs; the answers. The games are played with ``engine``,
    or the experiment's (:meth:`~spieltisch.lab.experiment.Experiment.engine_used`)."""
    journal = folder / JOURNAL_FILE
    played = journal_games(journal)
    play = play_of(engine or experiment.engine_used())
    check_engine(played.values(), play, journal)
    with journal_writer(journal) as write:

        def keep(task: Task, result: GameResult) -> None:
            write(task, result)
            on_game(task, result)

        answers = tune(experiment, spec, runner, played, keep, play)
    write_tune(folder, experiment, spec, answers)
    return answers


def write_tune(
    folder: Path, experiment: Experiment, spec: TuneSpec, answers: Sequence[Answer]
) -> None:
    """``tune.md``, ``tune.json`` and ``tune.png`` in ``folder``."""
    tune_plot(answers, spec, f"{experiment.name}: {spec.parameter} for {spec.metric}",
              folder / "tune.png")  # fmt: skip
    (folder / "tune.json").write_text(
        json.dumps([_answer_json(a) for a in answers], indent=2) + "\n", encoding="utf-8"
    )
    (folder / "tune.md").write_text(tune_text(experiment, spec, answers), encoding="utf-8")


def _answer_json(answer: Answer) -> dict[str, object]:
    return {
        "players": answer.players,
        "target": answer.target,
        "target_half_width": answer.target_half,
        "value": answer.value,
        "interval": [answer.low, answer.high] if answer.low <= answer.high else None,
        "ruled_out_below": answer.below,
        "ruled_out_above": answer.above,
        "reached": answer.reached,
        "games": answer.games,
        "reference": None
        if answer.reference is None
        else {
            "games": answer.reference.games,
            "deals": answer.reference.deals,
            "mean": answer.reference.mean,
            "half": answer.reference.half,
        },
        "points": [
            {"value": p.value, "games": p.games, "deals": p.deals, "mean": p.mean, "half": p.half}
            for p in answer.points
        ],
    }


def tune_text(experiment: Experiment, spec: TuneSpec, answers: Sequence[Answer]) -> str:
    """``tune.md``: what was searched, the answers in a sentence each, every value looked at."""
    reference = next((a.reference for a in answers if a.reference is not None), None)
    target = (
        f"its value in the default game at {spec.reference_players} players"
        + (
            f" ({reference.mean:.3g} ± {reference.half:.2g}, measured over "
            f"{counted(reference.games, 'game')}, {counted(reference.deals, 'deal')})"
            if reference is not None
            else ""
        )
        if spec.reference_players is not None
        else f"{spec.target:g}"
    )
    lines = [
        f"# {experiment.name}",
        "",
        *([experiment.notes.strip(), ""] if experiment.notes else []),
        f"Game `{experiment.game}`; agents {', '.join(experiment.agents)}; seed "
        f"{experiment.seed}. Searched `{spec.parameter}` from {spec.low} to {spec.high} for "
        f"the value that brings `{spec.metric}` to {target}: a bisection that gives a value "
        f"{experiment.games} games on first look and more (doubling, up to {spec.max_games}) "
        "while the target lies within its 95% interval; every value plays the same deals.",
        "",
        "## Answers",
        "",
        *[f"- {describe(a, spec)}." for a in answers],
        "",
        "![the search](tune.png)",
        "",
    ]
    for a in answers:
        lines += [
            f"## {a.players} players",
            "",
            f"| {spec.parameter} | games | {spec.metric} (95% interval) |",
            "|---:|---:|---|",
        ]
        for p in a.points:
            lines.append(
                f"| {p.value} | {p.games} | {p.mean:.3g} ({p.mean - p.half:.3g} to "
                f"{p.mean + p.half:.3g}) |"
            )
        lines.append("")
    lines += [
        "The interval is every value no look rules out, assuming the metric moves one way as "
        "the parameter grows. `spieltisch lab tune` with this folder's `experiment.toml` "
        "takes every game from `journal.jsonl` and writes these files again.",
        "",
    ]
    return "\n".join(lines)
