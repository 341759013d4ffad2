"""The Ray backend on a local cluster: the local backend's numbers, and a dead worker's batch
played again. One ``ray.init(num_cpus=2)`` for the whole test session."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.lab.engine import GameResult, LocalRunner, Task, play_task
from spieltisch.lab.experiment import parse_experiment, run_experiment

ray = pytest.importorskip("ray")
ray_runner = pytest.importorskip("spieltisch.lab.runners.ray_runner")

EXPERIMENT = """
game = "auf-die-eier"
players = [2, 3]
games = 10
seed = 5
agents = ["heuristic", "random"]
[grid]
shared_chicken_ladder = [false, true]
"""


@pytest.fixture(scope="session")
def cluster() -> Iterator[None]:
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_gives_the_numbers_of_the_local_backend(cluster: None, tmp_path: Path) -> None:
    experiment = parse_experiment(EXPERIMENT)
    local = run_experiment(experiment, LocalRunner())
    journal = tmp_path / "journal.jsonl"
    on_ray = run_experiment(experiment, ray_runner.RayRunner(2, batch=7), journal)
    assert [c.results for c in on_ray] == [c.results for c in local]
    assert len(journal.read_text().splitlines()) == sum(len(c.tasks) for c in local)


@dataclass(frozen=True)
class CrashOnce:
    """Plays a game, but kills its worker process the first time deal 1 comes up (a marker
    file remembers that it did)."""

    marker: str

    def __call__(self, task: Task) -> GameResult:
        marker = Path(self.marker)
        if task.deal == 1 and task.rotation == 0 and not marker.exists():
            marker.write_text("crashed")
            os._exit(1)
        return play_task(task)


def test_a_dead_workers_batch_is_played_again(cluster: None, tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    experiment = parse_experiment(EXPERIMENT)
    runner = ray_runner.RayRunner(2, batch=4)
    results = run_experiment(experiment, runner, play=CrashOnce(str(marker)))
    assert marker.exists() and runner.retried >= 1
    assert [c.results for c in results] == [
        c.results for c in run_experiment(experiment, LocalRunner(), play=play_task)
    ]


def test_lab_run_on_ray_writes_the_results_of_a_local_run(cluster: None, tmp_path: Path) -> None:
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    runner = CliRunner()
    local = runner.invoke(app, ["lab", "run", str(path), "--out", str(tmp_path / "local")])
    on_ray = runner.invoke(
        app, ["lab", "run", str(path), "--backend", "ray", "--out", str(tmp_path / "ray")]
    )
    assert local.exit_code == 0 and on_ray.exit_code == 0, on_ray.output
    csv_local = (tmp_path / "local" / "results.csv").read_text()
    assert csv_local == (tmp_path / "ray" / "results.csv").read_text()

    def findings(folder: str) -> list[str]:
        text = (tmp_path / folder / "report.md").read_text()
        return [line for line in text.splitlines() if not line.startswith("Played on")]

    assert findings("local") == findings("ray")
