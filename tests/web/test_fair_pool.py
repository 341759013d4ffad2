"""The bot pool shares its workers fairly by who made the tables, then by table, and budgets
each table's think time (audit item 4: one address with 11 tables of the heaviest bots starved
every other table's bots).

The schedule's order is followed step by step without processes (:class:`Schedule`, a clock
of the test's own), and once through a real pool whose one worker runs the jobs in the order
the pool hands them out. Who made a table is kept in the database with the table (a rematch
counts as its first table's).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.store.allowances import owner_of, set_owner
from spieltisch.web.store.db import TABLES, make_engine, migrate
from spieltisch.web.tables.pool import FairPool, Schedule, check_heavy, heavy

from . import jobs
from .apart import run_apart

pytestmark = pytest.mark.timeout(120)

A_TABLES = [f"a{n}" for n in range(11)]


class Clock:
    """Seconds the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def queue_abuse(schedule: Schedule[str], jobs_each: int = 3) -> None:
    """Address A's 11 tables queue ``jobs_each`` jobs each."""
    for _ in range(jobs_each):
        for table in A_TABLES:
            schedule.add(table, "address:A", f"{table}-job")


def test_one_owners_many_tables_leave_a_worker_for_another_owners_table() -> None:
    schedule: Schedule[str] = Schedule(2)
    queue_abuse(schedule)
    first = schedule.pick()
    assert first is not None and first[1] == "address:A"
    assert schedule.pick() is None  # A holds all workers but one, however much it queues
    schedule.add("b", "address:B", "b-job")
    assert schedule.pick() == ("b", "address:B", "b-job")  # the free worker: B's at once
    # from now on, B's next job runs whenever a worker frees up, whatever A has queued
    running = {"a": first, "b": ("b", "address:B", "b-job")}
    for _ in range(10):
        schedule.add("b", "address:B", "b-job")  # B's bot moves again
        table, owner, _item = running["a"]
        schedule.finished(table, owner, 5.0)  # A's search ends first
        picked = schedule.pick()
        assert picked is not None and picked[1] == "address:A"  # B holds its share already
        running["a"] = picked
        table, owner, _item = running["b"]
        schedule.finished(table, owner, 0.25)
        assert schedule.pick() == ("b", "address:B", "b-job")
        running["b"] = ("b", "address:B", "b-job")


def test_with_one_worker_another_owner_goes_next() -> None:
    schedule: Schedule[str] = Schedule(1)
    queue_abuse(schedule)
    order = []
    running = schedule.pick()
    assert running is not None
    schedule.add("b", "address:B", "b-job")  # B's one table asks while A's first job runs
    for _ in range(6):
        order.append(running[0])
        schedule.finished(running[0], running[1], 1.0)
        if running[0] == "b":
            schedule.add("b", "address:B", "b-job")  # B's next bot turn
        running = schedule.pick()
        assert running is not None
    # every other job is B's: its one table weighs as much as A's eleven together
    assert order == ["a0", "b", "a1", "b", "a2", "b"]


def test_within_an_owner_its_tables_take_turns() -> None:
    schedule: Schedule[str] = Schedule(1)
    for _ in range(3):
        schedule.add("slow", "address:A", "slow-job")
    schedule.add("quick", "address:A", "quick-job")
    order = []
    while (picked := schedule.pick()) is not None:
        order.append(picked[0])
        schedule.finished(picked[0], picked[1], 1.0)
    assert order == ["slow", "quick", "slow", "slow"]


def test_a_tables_think_time_is_budgeted() -> None:
    clock = Clock()
    schedule: Schedule[str] = Schedule(2, rate=30 / 60, burst=10.0, clock=clock)
    for _ in range(4):
        schedule.add("heavy", "address:A", "search")
    picked = schedule.pick()
    assert picked is not None
    schedule.finished("heavy", "address:A", 12.0)  # 2 s past its budget
    assert schedule.pick() is None  # nothing else waits, and still it waits
    assert schedule.ready_in() == pytest.approx(4.0)  # 2 s at 0.5 s a second
    schedule.add("other", "address:A", "move")
    assert schedule.pick() == ("other", "address:A", "move")  # the same owner's other table
    schedule.finished("other", "address:A", 1.0)
    clock.now = 4.0
    assert schedule.pick() == ("heavy", "address:A", "search")


def test_the_pool_serves_another_owner_before_the_abusers_other_tables() -> None:
    """A real pool of one worker: A's eleven tables queue a job each while A's first runs,
    then B's one table asks; B's job is the next to run, not the twelfth."""

    async def scenario() -> list[str]:
        pool = FairPool(1)
        try:
            finished: list[tuple[float, str]] = []

            async def job(table: str, owner: str) -> None:
                finished.append((await pool.run(table, jobs.nap, 0.2, owner), table))

            tasks = [asyncio.create_task(job(table, "address:A")) for table in A_TABLES]
            await asyncio.sleep(0.05)
            tasks.append(asyncio.create_task(job("b", "address:B")))
            await asyncio.gather(*tasks)
            return [table for _, table in sorted(finished)]
        finally:
            pool.shutdown()

    order = run_apart(scenario())
    assert order[:2] == ["a0", "b"], order


@pytest.mark.parametrize("level", ["ismcts:5s", "ismcts:2s", "ismcts:2000"])
def test_the_heaviest_levels_are_for_signed_in_hosts(level: str) -> None:
    assert heavy(level)
    with pytest.raises(RefusedError) as refused:
        check_heavy(["heuristic", level], allowed=False)
    assert refused.value.status == 403 and level in refused.value.reason
    check_heavy([level], allowed=True)


@pytest.mark.parametrize("level", ["ismcts", "ismcts:1s", "ismcts:0.25s", "ismcts:500", "random"])
def test_lighter_levels_are_for_everyone(level: str) -> None:
    assert not heavy(level)
    check_heavy([level], allowed=False)


def test_a_tables_owner_is_kept_and_a_rematch_counts_as_its_first_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'owners.db'}"
    migrate(url)
    engine = make_engine(url)
    common = {
        "game": "awimbawe", "players": 2, "options": "{}", "seed": 1, "status": "open",
        "version": 0, "host_hash": "h" * 64, "created_at": 0.0,
    }  # fmt: skip
    with engine.begin() as db:
        db.execute(TABLES.insert().values(id="first", **common))
        db.execute(TABLES.insert().values(id="again", rematch_of="first", **common))
        db.execute(TABLES.insert().values(id="third", rematch_of="again", **common))
        db.execute(TABLES.insert().values(id="lone", **common))
    set_owner(engine, "first", "address:198.51.100.7")
    set_owner(engine, "first", "address:someone else")  # the first word stays
    assert owner_of(engine, "first") == "address:198.51.100.7"
    assert owner_of(engine, "third") == "address:198.51.100.7"
    assert owner_of(engine, "lone") is None
    assert owner_of(engine, "nosuch") is None
    with engine.begin() as db:  # the owner goes with its table
        db.execute(sa.text("DELETE FROM tables WHERE id IN ('third', 'again', 'first')"))
        assert db.execute(sa.text("SELECT count(*) FROM table_owners")).scalar() == 0
    engine.dispose()
