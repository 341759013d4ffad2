"""The public routes' work that costs CPU, done in a worker process of its own: a record's
dice checked, a record file replayed to one step, a step of a finished table's replay.

A thread would hold the server's interpreter lock while it replays, and every move's
broadcast would wait on it (a flood of checks raised the moving tables' p99 by half); a
process does not. Callers are served round robin by address, so a flood from one address
waits behind its own requests, not before everyone else's. A finished table's rebuilt game and
each side's log are kept in the worker once worked out (a replay is stepped through), a few
tables at a time. Each job answers with its HTTP status and JSON body, worked out and encoded
in the worker.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass
from typing import Any

import spieltisch
from spieltisch.core.codec import JSON, to_jsonable
from spieltisch.core.errors import RecordError
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.locale import SOURCE
from spieltisch.session import Table, verify
from spieltisch.web.common.words import spoken
from spieltisch.web.tables.payload import events_for
from spieltisch.web.tables.pool import FairPool

WORKERS = 1
"""Processes that do the checks (the bots have a pool of their own)."""
KEPT_TABLES = 8
"""Finished tables a worker keeps rebuilt, the least recently stepped through forgotten."""


@dataclass(frozen=True)
class Answer:
    """What a route answers: an HTTP status and a JSON body, encoded."""

    status: int
    body: bytes


@dataclass(frozen=True)
class StepJob:
    """A replay step wanted: of the record ``record`` (a finished table's, named ``table``,
    or a file sent, ``None``), at version ``at`` from seat ``seat``'s side (-1: a
    spectator's)."""

    record: str
    at: int
    seat: int
    table: str | None = None
    language: str = SOURCE


def _encoded(status: int, data: JSON) -> Answer:
    return Answer(status, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())


def check_job(text: str) -> Answer:
    """Check a record's dice against its commitment (in a worker)."""
    try:
        record = Record.loads(text)
        checked = verify(spieltisch.load_record(record), record)
    except (RecordError, RecursionError) as error:
        return _encoded(422, {"detail": f"the dice do not check out: {error}"})
    return _encoded(
        200,
        {
            "ok": True, "table": checked.table, "commitment": checked.commitment,
            "seed": checked.seed, "moves": checked.moves, "chance_steps": checked.chance_steps,
            "finished": checked.finished,
        },
    )  # fmt: skip


_Logs = dict[tuple[int | None, str], list[Any]]
_kept: collections.OrderedDict[tuple[str, int], tuple[Table, _Logs]] = collections.OrderedDict()
"""A worker's finished tables, rebuilt, with each side's log (by table id and record length)."""


def step_job(job: StepJob) -> Answer:
    """A replay step (in a worker): that side's view then, and its log up to then."""
    key = (job.table, len(job.record)) if job.table is not None else None
    kept = _kept.pop(key, None) if key is not None else None
    if kept is None:
        try:
            record = Record.loads(job.record)
            kept = (Table.from_record(spieltisch.load_record(record), record), {})
        except (RecordError, RecursionError) as error:
            return _encoded(422, {"detail": f"not a record that replays: {error}"})
    if key is not None:
        _kept[key] = kept
        while len(_kept) > KEPT_TABLES:
            _kept.popitem(last=False)
    table, logs = kept
    return _encoded(200, replay_step(table, logs, job.at, job.seat, job.language))


def replay_step(
    table: Table, logs: _Logs, at: int, seat: int,
    language: str = SOURCE,
) -> JSON:  # fmt: skip
    """Version ``at`` of a finished table from ``seat``'s side (a spectator's, if no seat),
    its log in ``language``; each side's whole log is worked out once into ``logs``."""
    viewer = seat if 0 <= seat < table.game.players else None
    version = max(0, min(at, table.version))
    side = (viewer, language)
    if side not in logs:
        logs[side] = events_for(table, spoken(kit_of(table.game).words, language), viewer, 0)
    return {
        "game": table.game.info.id,
        "version": version,
        "last": table.version,
        "viewer": viewer,
        "names": list(table.seats),
        "view": to_jsonable(table.view(viewer, at=version)),
        "events": logs[side][:version],
    }


CHECK_NICENESS = 10
"""Anyone's checks and replays run below the bots and far below the server's loop: a flood of
them slows its own answers, never a table's moves."""


class Checks:
    """The server's side of the checks: a fair pool of one worker (see the module docstring)."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.pool = FairPool(workers, kind="check", niceness=CHECK_NICENESS)

    async def verify(self, address: str, text: str) -> Answer:
        """A record's dice checked, for a caller at ``address``."""
        return await self.pool.run(address, check_job, text)

    async def step(self, address: str, job: StepJob) -> Answer:
        """A replay step, for a caller at ``address``."""
        return await self.pool.run(address, step_job, job)

    def shutdown(self) -> None:
        """Stop the worker."""
        self.pool.shutdown()
