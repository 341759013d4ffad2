"""Allowances hold across server processes (audit item 6): two processes on one database give an
address the configured allowance once, not twice.

Before, each process kept its own count, so N processes let an address make N times twelve
tables at once and guess a name's password N times five times. Now the new-table allowance
and the sign-in and sign-up attempts are counted in the database, atomically, by every process
together. Real server processes (``python -m spieltisch.web``): two on one SQLite file, and two
on PostgreSQL when ``SPIELTISCH_TEST_POSTGRES`` names a server. The requests alternate between
the two; an allowance may refill by one while a slow machine hashes passwords (one every 10 s
for tables, 12 s for attempts), so each count may be one above the allowance, never double.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.signed import ATTEMPTS_BURST, SIGNUPS_BURST

from .servers import Server, own_database, running

pytestmark = pytest.mark.timeout(240)
POSTGRES = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
PASSWORD = "a table of friends 42"
TABLES_BURST = Settings().tables_burst


@pytest.fixture(params=["sqlite", "postgresql"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one database."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'shared.db'}"
        elif not POSTGRES:
            pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
        else:
            url = stack.enter_context(own_database(POSTGRES, "allowances"))
        first = stack.enter_context(running(url))
        yield first, stack.enter_context(running(url))


def test_two_processes_give_an_address_its_table_allowance_once(
    two: tuple[Server, Server],
) -> None:
    seats = [{"kind": "person"}] * 2
    answers = [
        two[n % 2].http.post("/api/tables", json={"game": "awimbawe", "seats": seats}).status_code
        for n in range(2 * TABLES_BURST)
    ]
    assert set(answers) == {201, 429}
    assert TABLES_BURST <= answers.count(201) <= TABLES_BURST + 1, answers  # before: 24


def test_two_processes_count_a_names_sign_in_attempts_together(
    two: tuple[Server, Server],
) -> None:
    origin = {"Origin": two[0].base}
    body = {"name": "Ann", "password": PASSWORD}
    assert two[0].http.post("/api/account/signup", json=body, headers=origin).status_code == 201
    wrong = {"name": "Ann", "password": "guess guess guess"}
    answers = [
        two[n % 2]
        .http.post("/api/account/signin", json=wrong, headers={"Origin": two[n % 2].base})
        .status_code
        for n in range(2 * ATTEMPTS_BURST)
    ]
    assert set(answers) == {401, 429}
    assert ATTEMPTS_BURST <= answers.count(401) <= ATTEMPTS_BURST + 1, answers  # before: 10


def test_two_processes_count_an_addresss_sign_ups_together(two: tuple[Server, Server]) -> None:
    answers = [
        two[n % 2]
        .http.post(
            "/api/account/signup",
            json={"name": f"Player {n}", "password": "short"},
            headers={"Origin": two[n % 2].base},
        )
        .status_code
        for n in range(2 * SIGNUPS_BURST)
    ]
    assert set(answers) == {422, 429}  # each refused for its password, and counted
    assert SIGNUPS_BURST <= answers.count(422) <= SIGNUPS_BURST + 1, answers  # before: 20
