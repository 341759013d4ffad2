"""A whole lab study, native against Python: 16,000 games of Auf die Eier, heuristic and expert.

    python bench/lab_study.py [--runs 3] [--python-runs 1] [--games 5334] [--phases-only]

The study: Auf die Eier at 2, 3 and 4 players, the lineup heuristic and expert with seats
rotated on every deal, ``--games`` games a cell (16,004 in all at the default). It prints

- the CPU time (user and system, of the child process) of the whole ``spieltisch lab run`` on
  the native engine and with ``--engine python``, the medians of ``--runs`` and
  ``--python-runs`` runs, each a fresh interpreter and a fresh folder, and their ratio;
- the native run's breakdown: a fresh interpreter's import of the command and of the report
  module (matplotlib), then the CPU time of each phase inside the run (the schedule, the games
  with their journal, the analysis with its bootstrap, the CSV and Parquet files, the plots,
  the report), medians over ``--runs``;
- whether every native run wrote the same results.csv (the same seed: it must).

Figures only: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

STUDY = """\
name = "Auf die Eier: heuristic against expert, 2-4 players"
game = "auf-die-eier"
players = [2, 3, 4]
games = {games}
seed = 16000
agents = ["heuristic", "expert"]
metrics = ["head-to-head:expert:heuristic", "first-seat-win", "mean-score", "decisions"]
"""

WHOLE = "from spieltisch.cli import main; main()"

PHASES = r"""
import json, sys, time
from spieltisch import cli
imports = time.process_time()
from spieltisch.lab import experiment, report, plot
report_imports = time.process_time() - imports

spent = {}

def timed(module, name, label):
    inner = getattr(module, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    setattr(module, name, wrapper)

timed(experiment.Experiment, "schedule", "schedule")
timed(cli.lab_experiment, "run_experiment", "games and journal (schedule included)")
timed(report, "analyse", "analysis (bootstrap included)")
timed(report, "write_csv", "results.csv")
timed(report, "write_parquet", "results.parquet")
for name in ("seat_advantage_plot", "score_plot", "forest_plot", "uncertainty_plot"):
    timed(report, name, "plots")
timed(report, "report_text", "report.md")
timed(cli, "_lab_outputs", "outputs (all of the above but the games)")
sys.argv = ["spieltisch", "lab", "run", *sys.argv[1:]]
try:
    cli.main()
except SystemExit:
    pass
spent["imports: spieltisch.cli"] = imports
spent["imports: the report (matplotlib)"] = report_imports
spent["whole"] = time.process_time()
print(json.dumps(spent))
"""


def child_cpu(code: str, *args: str) -> tuple[float, str]:
    """The CPU time (user and system) of a fresh interpreter running ``code``, and its output."""
    before = os.times()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE,
        env={**os.environ, "PYTHONPATH": str(HERE)},
    )
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, done.stdout


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python-runs", type=int, default=1)
    parser.add_argument("--games", type=int, default=5334, help="games per cell (3 cells)")
    parser.add_argument("--phases-only", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        study = folder / "study.toml"
        study.write_text(STUDY.format(games=args.games), encoding="utf-8")
        phases: list[dict[str, float]] = []
        digests = set()
        for run in range(args.runs):
            out = folder / f"phases-{run}"
            _, text = child_cpu(PHASES, str(study), "--out", str(out), "--engine", "native")
            phases.append(json.loads(text.strip().splitlines()[-1]))
            digests.add(digest(out / "results.csv"))
        print(f"native run, breakdown (CPU s, median of {args.runs}):")
        for key in phases[0]:
            print(f"  {key:40} {statistics.median(p.get(key, 0.0) for p in phases):7.3f}")
        print(f"results.csv the same in every native run: {len(digests) == 1}")
        if args.phases_only:
            return
        whole: dict[str, list[float]] = {"native": [], "python": []}
        for engine, runs in (("native", args.runs), ("python", args.python_runs)):
            for run in range(runs):
                out = folder / f"{engine}-{run}"
                cpu, _ = child_cpu(WHOLE, "lab", "run", str(study), "--out", str(out),
                                   "--engine", engine)  # fmt: skip
                whole[engine].append(cpu)
                run_json = json.loads((out / "run.json").read_text(encoding="utf-8"))
                print(f"  lab run --engine {engine}: {cpu:.2f} s CPU ({run_json['engine']})")
        native = statistics.median(whole["native"])
        python = statistics.median(whole["python"])
        print(
            f"whole lab run, CPU s: native {native:.2f} (median of {len(whole['native'])}), "
            f"python {python:.2f} (median of {len(whole['python'])}): {python / native:.1f}x"
        )


if __name__ == "__main__":
    main()
