"""The friends' table through the API and its sockets (issue 28): a seat is one person's, no
one stalls a table, everyone lands at the rematch.

The server runs in the test's process (Starlette's TestClient) with a :class:`ManualClock`,
so every clock test moves time on by hand and never sleeps; the clock's checks are run
directly instead of waiting for the server's own look at them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import spieltisch
from spieltisch.core.record import Record
from spieltisch.session import Table
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.store import table_store
from spieltisch.web.tables.clock import ManualClock
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.seats import keep_revoked

pytestmark = pytest.mark.timeout(120)

Made = dict[str, Any]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, bot_pause=0)
    with TestClient(create_app(settings, clock)) as test_client:
        yield test_client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def run(client: TestClient, function: Any, *args: Any) -> Any:
    """Run a coroutine function on the server's own event loop."""
    assert client.portal is not None
    return client.portal.call(function, *args)


def make(
    client: TestClient, game: str = "awimbawe", people: int = 2, bots: int = 0,
    seed: int | None = 7, **extra: Any,
) -> Made:  # fmt: skip
    seats = [{"kind": "person"}] * people + [{"kind": "bot", "level": "random"}] * bots
    body: dict[str, Any] = {"game": game, "players": len(seats), "seats": seats, **extra}
    if seed is not None:
        body["seed"] = seed
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    made: Made = answer.json()
    made["host"] = made["host_link"].split("#host=")[1]
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    return made


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def join(client: TestClient, made: Made, seat: int, name: str, token: str | None = None) -> None:
    answer = client.post(
        f"/api/tables/{made['id']}/join", json={"token": token or made["seat"][seat], "name": name}
    )
    assert answer.status_code == 200, answer.text


def start(client: TestClient, made: Made) -> None:
    answer = client.post(f"/api/tables/{made['id']}/start", headers=bearer(made["host"]))
    assert answer.status_code == 200, answer.text


def seated(client: TestClient, made: Made, names: list[str]) -> Made:
    for seat, name in enumerate(names):
        join(client, made, seat, name)
    start(client, made)
    return made


def hello(ws: WebSocketTestSession, token: str | None, since: int = 0) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token, "since": since}))
    message: dict[str, Any] = ws.receive_json()
    return message


def until(
    ws: WebSocketTestSession, kind: str, test: Any = None, limit: int = 400
) -> dict[str, Any]:
    """The next message of type ``kind`` that passes ``test`` (bounded)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") == kind and (test is None or test(message)):
            return message
    raise AssertionError(f"no {kind} message in {limit}")


def about(client: TestClient, made: Made) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/tables/{made['id']}").json()
    return found


# --- 1. a replaced seat stops acting at once -------------------------------------------------


def test_a_replaced_seat_is_told_closed_and_can_no_longer_move(client: TestClient) -> None:
    made = seated(client, make(client, "auweier", people=3), ["Ann", "Ben", "Cid"])
    table = made["id"]
    with client.websocket_connect(f"/ws/{table}") as old:
        assert hello(old, made["seat"][2])["seat"] == 2
        answer = client.post(
            f"/api/tables/{table}/seats/2/bot",
            json={"level": "random"},
            headers=bearer(made["host"]),
        )
        assert answer.status_code == 200
        told = until(old, "stale")
        assert told["seat"] == 2 and told["name"] == "Cid" and told["reason"] == "bot"
        with pytest.raises(Exception):  # noqa: B017 - the server closed the socket
            for _ in range(50):
                old.receive_json()
    back = client.post(f"/api/tables/{table}/seats/2/person", headers=bearer(made["host"]))
    new_token = back.json()["seat_link"].split("#seat=")[1]
    join(client, made, 2, "Dee", token=new_token)
    with client.websocket_connect(f"/ws/{table}") as stale:
        said = hello(stale, made["seat"][2])
        assert said == {
            "type": "stale", "seat": 2, "name": "Cid", "reason": "bot", "at": said["at"]
        }  # fmt: skip
    with client.websocket_connect(f"/ws/{table}") as new:
        first = hello(new, new_token)
        assert first.get("seat") == 2, first
    assert about(client, made)["seats"][2]["name"] == "Dee"


def test_a_move_is_checked_against_the_seat_as_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another server hands the seat on (only the database knows, and this server has not
    looked yet): the old page's move is refused, never committed."""
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    hub = hub_of(client)

    async def not_looking() -> None:
        return None

    monkeypatch.setattr(hub.upkeep, "sync_once", not_looking)
    live = run(client, hub.get, made["id"])
    with client.websocket_connect(f"/ws/{made['id']}") as pages:
        first = hello(pages, made["seat"][live.table.to_act()])
        mover = first["seat"]
        row = table_store.load_table(hub.engine, made["id"])
        assert row is not None
        holder = row.seats[mover]
        assert holder.token_hash is not None
        # "the other server": the host handed the seat to a bot there
        keep_revoked(hub.engine, made["id"], holder.token_hash, mover, holder.name, "bot", 1.0)
        bot = table_store.SeatRow(mover, "bot", "Bot", "random", None, True)
        table_store.update_seat(hub.engine, made["id"], bot, new_holder=True)
        version = first["version"]
        move = {"type": "move", "id": first["legal"][0]["id"], "version": version}
        pages.send_text(json.dumps(move))
        told = until(pages, "stale")  # the commit found the seat changed: told, then closed
        assert told["seat"] == mover and told["reason"] == "bot"
    assert table_store.load_table(hub.engine, made["id"]).version == version  # type: ignore[union-attr]


# --- 2. nobody stalls a table: presence, clocks, takeovers, votes ---------------------------


def test_presence_shows_who_is_connected_and_since_when_they_are_away(
    client: TestClient, clock: ManualClock
) -> None:
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    with client.websocket_connect(f"/ws/{made['id']}") as ann:
        hello(ann, made["seat"][0])
        seats = until(ann, "seats", lambda m: m["seats"][0]["connected"])
        assert seats["seats"][1]["connected"] is False and seats["seats"][1]["away_since"]
        with client.websocket_connect(f"/ws/{made['id']}") as ben:
            hello(ben, made["seat"][1])
            until(ann, "seats", lambda m: m["seats"][1]["connected"])
        clock.advance(30)
        gone = until(ann, "seats", lambda m: m["seats"][1]["connected"] is False)
        assert gone["now"] - gone["seats"][1]["away_since"] <= 30


def test_a_live_clock_hands_a_seat_to_a_bot_when_its_time_runs_out_and_back(
    client: TestClient, clock: ManualClock
) -> None:
    rules = {"clock": "live", "bank": 60, "increment": 5, "grace": 0}
    made = seated(client, make(client, "awimbawe", rules=rules), ["Ann", "Ben"])
    hub = hub_of(client)
    live = run(client, hub.get, made["id"])
    slow = live.table.to_act()
    version = live.table.version
    clock.advance(59)
    run(client, hub.takeovers.check, live)
    assert live.seats[slow].stand_in is None and live.table.version == version
    clock.advance(2)
    run(client, hub.takeovers.check, live)
    assert live.seats[slow].stand_in is not None  # a bot plays for them now
    with client.websocket_connect(f"/ws/{made['id']}") as page:
        hello(page, made["seat"][1 - slow])
        notes = until(page, "notes")
        keys = [n["notice"]["key"] for n in notes["notes"] if n["kind"] == "notice"]
        assert "standin.time" in keys
        until(page, "update", lambda m: m["version"] > version)  # the stand-in moved
    with client.websocket_connect(f"/ws/{made['id']}") as back:
        hello(back, made["seat"][slow])
        until(back, "seats", lambda m: m["seats"][slow]["stand_in"] is None)
    assert live.seats[slow].stand_in is None and live.seats[slow].bank >= 60


def test_a_relaxed_clock_gives_each_move_a_day(client: TestClient, clock: ManualClock) -> None:
    made = seated(client, make(client, "awimbawe", rules={"clock": "relaxed"}), ["Ann", "Ben"])
    hub = hub_of(client)
    live = run(client, hub.get, made["id"])
    seat = live.table.to_act()
    clock.advance(86_399)  # away all that time: normal in correspondence play
    run(client, hub.takeovers.check, live)
    assert live.seats[seat].stand_in is None
    clock.advance(2)
    run(client, hub.takeovers.check, live)
    assert live.seats[seat].stand_in is not None


def test_the_others_vote_to_hand_an_away_seat_to_a_bot(
    client: TestClient, clock: ManualClock
) -> None:
    rules = {"takeover": "vote", "grace": 60}
    made = seated(client, make(client, "auweier", people=3, rules=rules), ["Ann", "Ben", "Cid"])
    hub = hub_of(client)
    live = run(client, hub.get, made["id"])
    away = live.table.to_act()
    others = [s for s in range(3) if s != away]
    sockets = [client.websocket_connect(f"/ws/{made['id']}") for _ in others]
    pages = [ws.__enter__() for ws in sockets]
    try:
        for page, seat in zip(pages, others, strict=True):
            hello(page, made["seat"][seat])
        url = f"/api/tables/{made['id']}/votes/{away}"
        too_soon = client.post(url, json={"yes": True}, headers=bearer(made["seat"][others[0]]))
        assert too_soon.status_code == 409
        clock.advance(61)
        run(client, hub.takeovers.check, live)
        seen = until(pages[0], "seats", lambda m: m["votes"])
        assert seen["votes"][0]["seat"] == away and seen["votes"][0]["why"] == "away"
        own = client.post(url, json={"yes": True}, headers=bearer(made["seat"][away]))
        assert own.status_code == 403  # nobody votes on their own seat
        first = client.post(url, json={"yes": True}, headers=bearer(made["seat"][others[0]]))
        assert first.json()["result"] == "open"  # one of two is not more than half
        second = client.post(url, json={"yes": True}, headers=bearer(made["seat"][others[1]]))
        assert second.json()["result"] == "passed"
        assert live.seats[away].stand_in is not None
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


# --- 3. leaving and conceding --------------------------------------------------------------


def test_leaving_frees_a_seat_before_the_start_and_seats_a_bot_after(client: TestClient) -> None:
    made = make(client, "auf-die-eier", people=3)
    join(client, made, 1, "Ben")
    left = client.post(f"/api/tables/{made['id']}/leave", headers=bearer(made["seat"][1]))
    assert left.status_code == 200
    assert about(client, made)["seats"][1]["joined"] is False
    for seat, name in enumerate(["Ann", "Ben", "Cid"]):
        join(client, made, seat, name)
    start(client, made)
    client.post(f"/api/tables/{made['id']}/leave", headers=bearer(made["seat"][2]))
    seat = about(client, made)["seats"][2]
    assert seat["kind"] == "bot" and seat["name"] == "Cid"
    again = client.post(f"/api/tables/{made['id']}/leave", headers=bearer(made["seat"][2]))
    assert again.status_code == 403  # the link is dead now


def test_conceding_two_players_ends_the_game_for_the_other(client: TestClient) -> None:
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    answer = client.post(f"/api/tables/{made['id']}/concede", headers=bearer(made["seat"][0]))
    assert answer.json() == {"status": "finished", "ended": True}
    record = Record.loads(client.get(f"/api/tables/{made['id']}/record").text)
    assert [seat for seat, _ in record.conceded] == [0]
    table = Table.from_record(spieltisch.load_record(record), record)
    assert table.over and table.winners() == frozenset({1})
    with client.websocket_connect(f"/ws/{made['id']}") as page:
        final = hello(page, None)
        assert final["status"] == "finished" and final["result"]["winners"] == [1]
        assert final["result"]["conceded"] == [0]


def test_conceding_with_more_players_leaves_a_bot_playing_on(client: TestClient) -> None:
    made = seated(client, make(client, "auf-die-eier", people=3), ["Ann", "Ben", "Cid"])
    answer = client.post(f"/api/tables/{made['id']}/concede", headers=bearer(made["seat"][1]))
    assert answer.json() == {"status": "playing", "ended": False}
    seat = about(client, made)["seats"][1]
    assert seat["kind"] == "bot" and seat["conceded"] is True and seat["name"] == "Ben"


# --- 4. the rematch takes everyone along ----------------------------------------------------


def test_a_rematch_offers_every_page_its_seat_and_starts_when_all_are_back(
    client: TestClient,
) -> None:
    made = seated(client, make(client, "awimbawe", people=1, bots=1), ["Ann"])
    table = made["id"]
    client.post(f"/api/tables/{table}/concede", headers=bearer(made["seat"][0]))
    with client.websocket_connect(f"/ws/{table}") as page:
        hello(page, made["seat"][0])
        first = client.post(f"/api/tables/{table}/rematch", headers=bearer(made["seat"][0]))
        offered = until(page, "rematch")
        assert offered["table"] == first.json()["id"]
    again = client.post(f"/api/tables/{table}/rematch", headers=bearer(made["host"]))
    assert again.json()["id"] == first.json()["id"]  # one rematch per finished table
    assert about(client, made)["rematch"] == first.json()["id"]
    rematch = {"id": first.json()["id"], "seat": made["seat"], "host": made["host"]}
    fresh = about(client, rematch)
    assert fresh["status"] == "open" and fresh["rematch_of"] == table
    assert fresh["seats"][1]["level"] == "random" and fresh["seats"][0]["name"] == "Ann"
    join(client, rematch, 0, "Ann")  # the old link holds the same seat at the rematch
    assert about(client, rematch)["status"] == "playing"  # everyone is back: it starts


def test_only_people_at_the_table_ask_for_its_rematch(client: TestClient) -> None:
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    url = f"/api/tables/{made['id']}/rematch"
    assert client.post(url, headers=bearer(made["seat"][0])).status_code == 409  # not over
    assert client.post(url, headers=bearer("x" * 43)).status_code == 403


# --- 5. the host page, and starting ---------------------------------------------------------


def test_the_host_sees_every_seats_link_again_and_start_says_what_is_missing(
    client: TestClient,
) -> None:
    made = make(client, "auweier", people=3)
    links = client.get(f"/api/tables/{made['id']}/links", headers=bearer(made["host"])).json()
    assert links["seat_links"] == {str(s): link for s, link in made["seat_links"].items()}
    assert (
        client.get(f"/api/tables/{made['id']}/links", headers=bearer(made["seat"][0])).status_code
        == 403
    )
    join(client, made, 0, "Ann")
    refused = client.post(f"/api/tables/{made['id']}/start", headers=bearer(made["host"]))
    assert refused.status_code == 409
    assert refused.json()["detail"].endswith(
        "seats 2, 3 are still free: their people have not joined yet"
    )
    new = client.post(f"/api/tables/{made['id']}/seats/1/person", headers=bearer(made["host"]))
    links = client.get(f"/api/tables/{made['id']}/links", headers=bearer(made["host"])).json()
    assert links["seat_links"]["1"] == new.json()["seat_link"]


# --- 6. chat -----------------------------------------------------------------------------


def test_chat_is_text_bounded_and_read_only_by_whom_the_table_allows(client: TestClient) -> None:
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    with (
        client.websocket_connect(f"/ws/{made['id']}") as ann,
        client.websocket_connect(f"/ws/{made['id']}") as watcher,
    ):
        hello(ann, made["seat"][0])
        hello(watcher, None)
        ann.send_text(json.dumps({"type": "chat", "text": "  <b>hi</b>\u202e there\n "}))
        said = until(ann, "notes", lambda m: any(n["kind"] == "chat" for n in m["notes"]))
        line = next(n for n in said["notes"] if n["kind"] == "chat")
        assert line["text"] == "<b>hi</b> there" and line["name"] == "Ann"
        assert set(line) == {"idx", "kind", "version", "at", "seat", "name", "text"}
        ann.send_text(json.dumps({"type": "chat", "text": "x" * 301}))
        assert "at most 300" in until(ann, "error")["reason"]
        watcher.send_text(json.dumps({"type": "chat", "text": "hello"}))
        assert "people at the table" in until(watcher, "error")["reason"]
    with client.websocket_connect(f"/ws/{made['id']}") as late_watcher:
        hello(late_watcher, None)
        kept = until(late_watcher, "notes")
        assert all(n["kind"] != "chat" for n in kept["notes"])  # players only, by default
    open_chat = seated(client, make(client, "awimbawe", rules={"chat": "everyone"}), ["A", "B"])
    with client.websocket_connect(f"/ws/{open_chat['id']}") as ann:
        hello(ann, open_chat["seat"][0])
        ann.send_text(json.dumps({"type": "chat", "text": "gg"}))
        until(ann, "notes", lambda m: any(n["kind"] == "chat" for n in m["notes"]))
    with client.websocket_connect(f"/ws/{open_chat['id']}") as watcher:
        hello(watcher, None)
        assert any(n["kind"] == "chat" for n in until(watcher, "notes")["notes"])
    silent = seated(client, make(client, "awimbawe", rules={"chat": "off"}), ["A", "B"])
    with client.websocket_connect(f"/ws/{silent['id']}") as ann:
        hello(ann, silent["seat"][0])
        ann.send_text(json.dumps({"type": "chat", "text": "hi"}))
        assert "no chat" in until(ann, "error")["reason"]


def test_chat_is_rate_limited(client: TestClient) -> None:
    made = seated(client, make(client, "awimbawe"), ["Ann", "Ben"])
    with client.websocket_connect(f"/ws/{made['id']}") as ann:
        hello(ann, made["seat"][0])
        for number in range(8):
            ann.send_text(json.dumps({"type": "chat", "text": f"line {number}"}))
        assert "too fast" in until(ann, "error")["reason"]


# --- 7. the lobby, live -------------------------------------------------------------------


def test_the_lobby_feed_sends_the_tables_and_each_change(client: TestClient) -> None:
    first = make(client, "awimbawe")
    with client.stream("GET", "/api/lobby") as feed:
        lines = feed.iter_lines()
        summary = _next_event(lines)
        assert [t["id"] for t in summary["open"]] == [first["id"]]
        assert summary["open"][0]["seats_free"] == 2
        second = make(client, "auweier", people=1, bots=1)
        changed = _next_event(lines)
        assert {t["id"] for t in changed["open"]} == {first["id"], second["id"]}
        summary_keys = {"id", "game", "name", "players", "options", "status", "seats_free"}
        for item in changed["open"]:  # a summary names the table, never its game's state
            assert set(item) == summary_keys | {"names"}


def _next_event(lines: Iterator[str]) -> dict[str, Any]:
    for line in lines:
        if line.startswith("data: "):
            found: dict[str, Any] = json.loads(line.removeprefix("data: "))
            return found
    raise AssertionError("the feed ended")
