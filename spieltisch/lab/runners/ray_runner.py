"""The Ray backend: a run's games in batches of tens, as Ray tasks, on a local or joined cluster.

A Ray task costs a couple of milliseconds and ``ray.init`` several seconds, so games go out in
batches (``batch`` games a task, :data:`BATCH` by default) and at most ``workers`` batches run
at once; each batch's results come back, and are journaled, as soon as it ends. Without an
address a local cluster of ``workers`` CPUs starts (and stops at the end of the run); with one
the run joins that cluster. A batch whose worker dies is sent again, up to ``retries`` times, so
a lost worker costs only its batch. Seeds come from the tasks alone, so the numbers are the
ones the local backend gives. Needs ``pip install "spieltisch[cluster]"``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import ray

from spieltisch.lab.engine import GameResult, Play, Played, Task, play_many

BATCH = 32
"""Games per Ray task: enough that Ray's cost per task (about 2 ms) is small beside them."""


def _play_batch(play: Play, batch: Sequence[tuple[int, Task]]) -> list[tuple[int, GameResult]]:
    results = play_many(play, [task for _, task in batch])
    return [(index, result) for (index, _), result in zip(batch, results, strict=True)]


_remote_batch: Any = None


def _remote() -> Any:
    """The remote form of :func:`_play_batch` (made once, after Ray is imported)."""
    global _remote_batch  # noqa: PLW0603 - one remote function per process
    if _remote_batch is None:
        _remote_batch = ray.remote(max_retries=0)(_play_batch)
    return _remote_batch


class RayRunner:
    """Plays a schedule on Ray (see the module docstring)."""

    def __init__(
        self,
        workers: int = 2,
        address: str | None = None,
        batch: int = BATCH,
        retries: int = 3,
    ) -> None:
        self.workers = max(1, workers)
        self.address = address
        self.batch = max(1, batch)
        self.retries = retries
        self.retried = 0
        """Batches sent again after a failure, over this runner's runs."""

    def _start(self) -> bool:
        """Start or join Ray unless it is up already; True if this runner started it."""
        if ray.is_initialized():
            return False
        if self.address:
            ray.init(address=self.address, log_to_driver=False)
        else:
            # A private cluster on this machine, for this run only: no tokens to hand out.
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False)
        return True

    def run(self, play: Play, tasks: Sequence[tuple[int, Task]]) -> Played:
        started = self._start()
        remote = _remote()
        batches = [list(tasks[i : i + self.batch]) for i in range(0, len(tasks), self.batch)]
        pending: dict[Any, tuple[list[tuple[int, Task]], int]] = {}
        queue = list(reversed(batches))
        try:
            while queue or pending:
                while queue and len(pending) < self.workers:
                    batch = queue.pop()
                    pending[remote.remote(play, batch)] = (batch, 0)
                ready, _ = ray.wait(list(pending), num_returns=1)
                ref = ready[0]
                batch, tries = pending.pop(ref)
                try:
                    results = ray.get(ref)
                except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                        ray.exceptions.RayActorError, ray.exceptions.ObjectLostError,
                        ray.exceptions.LocalRayletDiedError) as error:  # fmt: skip
                    if tries >= self.retries:
                        raise RuntimeError(f"a batch failed {tries + 1} times: {error}") from None
                    self.retried += 1
                    pending[remote.remote(play, batch)] = (batch, tries + 1)
                    continue
                by_index = dict(batch)
                for index, result in results:
                    yield index, by_index[index], result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()
