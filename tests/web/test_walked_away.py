"""Games walked away from: listed apart in the lobby, and ended by one of their people.

Seen: tables people walked away from stayed under "Being played" for ever when they had no
clock. Now a game without a clock that nobody has moved at for ``abandoned_after`` seconds,
with nobody at the table, is listed apart, and any of its seated people may end it (kept as
``abandoned``: no result, no ratings); nobody may end a game still alive.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from spieltisch.web.common.settings import Settings
from spieltisch.web.tables.clock import ManualClock

from .test_friends_table import about, bearer, client, clock, hub_of, make, run, seated

__all__ = ["client", "clock"]  # the fixtures this module borrows

LONG = Settings().abandoned_after


def lobby(client: TestClient) -> dict[str, list[dict[str, Any]]]:
    hub = hub_of(client)
    rows: dict[str, list[dict[str, Any]]] = run(client, hub.lobby.update)
    return rows


def ids(rows: list[dict[str, Any]]) -> list[str]:
    return [row["id"] for row in rows]


def test_a_game_nobody_plays_on_is_listed_apart_and_ended_by_its_people(
    client: TestClient, clock: ManualClock
) -> None:
    made = seated(client, make(client, "awimbawe"), ["Anna", "Ben"])
    end = f"/api/tables/{made['id']}/end"
    assert client.post(end, headers=bearer(made["seat"][0])).status_code == 409  # alive
    clock.advance(LONG + 1)
    listed = lobby(client)
    assert made["id"] in ids(listed["abandoned"]) and made["id"] not in ids(listed["playing"])
    assert client.post(end).status_code in (401, 403)  # a spectator ends nothing
    ended = client.post(end, headers=bearer(made["seat"][1]))
    assert ended.status_code == 200 and ended.json()["status"] == "abandoned"
    assert about(client, made)["status"] == "abandoned"
    listed = lobby(client)
    assert made["id"] not in ids(listed["abandoned"]) + ids(listed["playing"])


def test_a_game_with_someone_at_the_table_or_a_clock_is_not_walked_away_from(
    client: TestClient, clock: ManualClock
) -> None:
    timed = seated(client, make(client, "awimbawe", rules={"clock": "relaxed"}), ["A", "B"])
    watched = seated(client, make(client, "awimbawe"), ["C", "D"])
    live = run(client, hub_of(client).get, watched["id"])
    here = live.table.to_act()  # at the table (it is their turn); the other asks to end
    with client.websocket_connect(f"/ws/{watched['id']}") as page:
        page.send_json({"type": "hello", "token": watched["seat"][here], "since": 0})
        page.receive_json()
        clock.advance(LONG + 1)
        assert hub_of(client).presence.connected(live, here)
        asker = bearer(watched["seat"][1 - here])
        end = client.post(f"/api/tables/{watched['id']}/end", headers=asker)
        assert end.status_code == 409 and "nobody else at the table" in end.json()["detail"]
    timed_end = client.post(f"/api/tables/{timed['id']}/end", headers=bearer(timed["seat"][0]))
    assert timed_end.status_code == 409  # a clock hands a stalled seat to a bot instead
    assert timed["id"] not in ids(lobby(client)["abandoned"])


def test_a_rated_game_or_ones_own_turn_is_not_ended_so(
    client: TestClient, clock: ManualClock
) -> None:
    """Ending a walked-away game leaves no result: it is never the way out of a rated game,
    nor for the person whose turn it is (they stalled it themselves)."""
    made = seated(client, make(client, "awimbawe"), ["Anna", "Ben"])
    live = run(client, hub_of(client).get, made["id"])
    to_act = live.table.to_act()
    clock.advance(LONG + 1)
    own_turn = client.post(f"/api/tables/{made['id']}/end", headers=bearer(made["seat"][to_act]))
    assert own_turn.status_code == 409 and "your turn" in own_turn.json()["detail"]
    assert about(client, made)["status"] == "playing"
    rated = run(client, hub_of(client).get, made["id"])
    object.__setattr__(rated, "rules", replace(rated.rules, rated=True))
    other = client.post(f"/api/tables/{made['id']}/end", headers=bearer(made["seat"][1 - to_act]))
    assert other.status_code == 409 and "rated" in other.json()["detail"]
    rated.rules = replace(rated.rules, rated=False)
    ended = client.post(f"/api/tables/{made['id']}/end", headers=bearer(made["seat"][1 - to_act]))
    assert ended.status_code == 200 and about(client, made)["status"] == "abandoned"
