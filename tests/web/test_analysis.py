"""Analysing a finished game's decisions, and replaying any record file."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spieltisch.core.record import Record
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=2, bot_pause=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def finished(client: TestClient, game: str, levels: tuple[str, str]) -> str:
    """A bots-only table of ``game``, played to its end; its id."""
    seats = [{"kind": "bot", "level": level} for level in levels]
    made = client.post("/api/tables", json={"game": game, "seats": seats, "seed": 3}).json()
    host = {"Authorization": f"Bearer {made['host_link'].split('#host=')[1]}"}
    assert client.post(f"/api/tables/{made['id']}/start", headers=host).status_code == 200
    for _ in range(600):
        if client.get(f"/api/tables/{made['id']}").json()["status"] == "finished":
            return str(made["id"])
        time.sleep(0.1)
    raise AssertionError("the bots did not finish")


def analysed(client: TestClient, table: str, seat: int) -> dict[str, Any]:
    started = client.post(f"/api/tables/{table}/analysis/{seat}")
    assert started.status_code == 202 and started.json()["status"] in {"running", "done"}
    for _ in range(1200):
        found: dict[str, Any] = client.get(f"/api/tables/{table}/analysis/{seat}").json()
        if found["status"] != "running":
            return found
        time.sleep(0.1)
    raise AssertionError("the analysis did not end")


def test_a_random_players_dice_are_rated_in_expected_points_and_its_blunders_flagged(
    client: TestClient,
) -> None:
    table = finished(client, "auf-die-eier", ("random", "expert"))
    assert client.get(f"/api/tables/{table}/analysis/0").json()["status"] == "none"
    found = analysed(client, table, 0)
    assert found["status"] == "done" and found["done"] == found["total"] > 0
    rows = found["decisions"]
    assert {r["unit"] for r in rows} == {"expected points this turn"}
    assert all(r["loss"] >= 0 and r["samples"] is None and r["analyst"] == "expert" for r in rows)
    assert any(r["costly"] for r in rows)  # a random player throws points away
    assert all(r["costly"] == (r["loss"] >= 1.0) for r in rows)
    assert all(r["interval"] is None and not r["unsure"] for r in rows)  # exact: never unsure
    for row in rows:  # each move in the game's words, in each language
        assert set(row["labels"]) == {"en", "de"}
        if row["made"] == "stop":
            assert row["labels"]["en"]["made"] != row["labels"]["de"]["made"]
    expert = analysed(client, table, 1)["decisions"]
    assert expert and all(r["loss"] == 0 and r["made"] == r["preferred"] for r in expert)
    again = client.post(f"/api/tables/{table}/analysis/0").json()  # kept: not run twice
    assert again["status"] == "done" and again["decisions"] == rows


def test_a_card_game_is_rated_by_search_with_its_sample_sizes(client: TestClient) -> None:
    table = finished(client, "awimbawe", ("random", "heuristic"))
    rows = analysed(client, table, 0)["decisions"]
    assert rows and {r["unit"] for r in rows} == {"win chance"}
    assert all(0 <= r["value"] <= 1 and r["best_samples"] > 0 for r in rows)
    for row in rows:  # a searched loss carries its interval; flagged only when it is sure
        low, high = row["interval"]
        assert low <= row["loss"] <= high
        assert not (row["costly"] and row["unsure"])
        if row["costly"]:
            assert low > 0 and row["samples"] >= 20


def test_a_loss_resting_on_few_games_is_not_sure() -> None:
    from spieltisch.core.agent import Rated
    from spieltisch.web.tables.analysis import loss_interval

    few = loss_interval(Rated("a", 0.8, 10), Rated("b", 0.5, 10), 0.3)
    many = loss_interval(Rated("a", 0.8, 2000), Rated("b", 0.5, 2000), 0.3)
    assert few is not None and many is not None
    assert few[0] < 0 and few[1] > 0.3  # ten games each cannot tell these apart
    assert 0.25 < many[0] < 0.3 < many[1] < 0.35
    assert loss_interval(Rated("a", 3.0), Rated("b", 2.0), 1.0) is None  # exact: no interval
    assert loss_interval(Rated("a", 0.9, 50), None, 0.4) == (-1.0, 1.0)  # never tried


def test_an_unfinished_game_cannot_be_analysed_and_a_bad_seat_is_refused(
    client: TestClient,
) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = client.post("/api/tables", json={"game": "auf-die-eier", "seats": seats}).json()
    assert client.post(f"/api/tables/{made['id']}/analysis/0").status_code == 403
    table = finished(client, "auf-die-eier", ("random", "random"))
    assert client.post(f"/api/tables/{table}/analysis/5").status_code == 400


def test_a_dropped_record_file_replays_from_any_side(client: TestClient) -> None:
    table = finished(client, "awimbawe", ("random", "random"))
    record = client.get(f"/api/tables/{table}/record").text
    headers = {"Content-Type": "application/json"}
    step = client.post("/api/replay", params={"at": 2, "seat": 0}, content=record, headers=headers)
    assert step.status_code == 200
    data = step.json()
    assert data["version"] == 2 and data["viewer"] == 0 and len(data["events"]) == 2
    same = client.get(f"/api/tables/{table}/replay", params={"at": 2, "seat": 0}).json()
    assert same["view"] == data["view"] and same["events"] == data["events"]
    moves = Record.loads(record).moves
    broken = record.replace(moves[3], "play X9", 1)
    refused = client.post("/api/replay", content=broken, headers=headers)
    assert refused.status_code == 422 and "move 3" in refused.json()["detail"]


def test_a_finished_tables_replay_steps_match_its_record_replayed_afresh(
    client: TestClient,
) -> None:
    """The live table keeps each side's finished log once worked out; every step it answers
    from that must equal the same step worked out afresh from the record file, asked twice."""
    table = finished(client, "awimbawe", ("random", "random"))
    record = client.get(f"/api/tables/{table}/record").text
    last = len(Record.loads(record).moves)
    headers = {"Content-Type": "application/json"}
    for seat in (0, 1, -1):
        for at in (0, 1, last // 2, last, last + 5):
            params = {"at": at, "seat": seat}
            fresh = client.post("/api/replay", params=params, content=record, headers=headers)
            for _ in range(2):
                kept = client.get(f"/api/tables/{table}/replay", params=params).json()
                assert kept["version"] == fresh.json()["version"] == min(at, last)
                assert kept["view"] == fresh.json()["view"]
                assert kept["events"] == fresh.json()["events"]


def test_a_finished_table_tells_each_page_opened_on_it_the_same_log(client: TestClient) -> None:
    """The catch-up of a finished table is kept once worked out: a second page opened on it,
    from the same side, hears exactly what the first heard."""
    table = finished(client, "awimbawe", ("random", "random"))
    heard = []
    for _ in range(2):
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": None, "since": 0})
            message = ws.receive_json()
            while message["type"] != "update":
                message = ws.receive_json()
            heard.append(message)
    assert heard[0]["status"] == "finished" and heard[0]["events"]
    assert heard[0]["events"] == heard[1]["events"] and heard[0]["view"] == heard[1]["view"]
