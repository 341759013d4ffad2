"""A clock that runs out does not let a bot play out the game of someone sitting right there.

Seen by a German group: Anna's live clock ran out while she sat at the table; the stand-in bot
then played each of her turns at once, her page never had a turn again, and only a reload
gave her the seat back. Now her page can take the seat back at once (a ``back`` message), and,
unless the table says otherwise (``give_way``), the stand-in finishes the turn the clock ran
out on and gives the seat back by itself when her next turn comes and her page is open.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from spieltisch.web.tables.clock import ManualClock

from .test_friends_table import Made, about, client, clock, hello, hub_of, make, run, seated, until

__all__ = ["client", "clock"]  # the fixtures this module borrows

RULES = {"clock": "live", "bank": 60, "increment": 5, "grace": 0}


def out_of_time(client: TestClient, clock: ManualClock, **rules: Any) -> tuple[Made, int, Any]:
    """A two-person Awimbawé table whose seat to move has just run out of time: the table,
    that seat, the live table."""
    made = seated(client, make(client, "awimbawe", rules={**RULES, **rules}), ["Anna", "Ben"])
    hub = hub_of(client)
    live = run(client, hub.get, made["id"])
    slow = live.table.to_act()
    clock.advance(61)
    run(client, hub.takeovers.check, live)
    assert live.seats[slow].stand_in is not None
    return made, slow, live


def wait_for(predicate: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait (bounded) until the server's loop, running beside the test, makes ``predicate``
    true."""
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def play_on(client: TestClient, live: Any, ben: Any, slow: int, turns: int) -> list[int]:
    """Ben plays his first legal move at each of his turns while the stand-in holds Anna's
    seat, for at most ``turns`` of his turns or until the seat is Anna's again; the versions
    Ben moved at."""
    hub, moved = hub_of(client), []
    for _ in range(turns):
        wait_for(lambda: live.table.over or live.seats[slow].stand_in is None
                 or live.table.to_act() == 1 - slow)  # fmt: skip
        if live.table.over or live.seats[slow].stand_in is None:
            break
        move = live.table.state.legal_actions()[0]
        moved.append(live.shown)
        action = live.game.action_id(move)
        run(client, hub.move, live, ben, None, action, live.shown)
    return moved


def test_the_seats_person_takes_it_back_at_once(client: TestClient, clock: ManualClock) -> None:
    made, slow, live = out_of_time(client, clock, give_way=False)
    with client.websocket_connect(f"/ws/{made['id']}") as watcher:
        hello(watcher, None)
        watcher.send_text(json.dumps({"type": "back"}))  # a spectator holds no seat
        assert until(watcher, "error")["reason"] == "this link no longer holds a seat at this table"
    with client.websocket_connect(f"/ws/{made['id']}") as other:
        hello(other, made["seat"][1 - slow])
        other.send_text(json.dumps({"type": "back"}))  # the other seat has no stand-in
        assert "no bot stands in for you" in until(other, "error")["reason"]
    assert about(client, made)["seats"][slow]["stand_in"] is not None  # neither changed it
    with client.websocket_connect(f"/ws/{made['id']}") as anna:
        hello(anna, made["seat"][slow])
        anna.send_text(json.dumps({"type": "back"}))
        until(anna, "seats", lambda m: m["seats"][slow]["stand_in"] is None)
    assert live.seats[slow].stand_in is None


def present(client: TestClient, made: Made, live: Any, seat: int) -> Any:
    """Open ``seat``'s page at the table (a connection that stays, as a page left open)."""
    return run(client, hub_of(client).connect, live, made["seat"][seat], 0)


def test_the_stand_in_gives_way_at_the_present_persons_next_turn(
    client: TestClient, clock: ManualClock
) -> None:
    made = seated(client, make(client, "awimbawe", rules=RULES), ["Anna", "Ben"])
    live = run(client, hub_of(client).get, made["id"])
    slow = live.table.to_act()
    present(client, made, live, slow)  # Anna sits right there, her page open
    ben = present(client, made, live, 1 - slow)
    clock.advance(61)
    run(client, hub_of(client).takeovers.check, live)
    assert live.seats[slow].stand_in is not None  # her time ran out: a bot finishes her turn
    moved = play_on(client, live, ben, slow, turns=20)
    assert moved  # the stand-in played her turn out, then Ben moved
    wait_for(lambda: live.seats[slow].stand_in is None)
    assert live.table.to_act() == slow  # her next turn is hers again, without a reload
    assert about(client, made)["seats"][slow]["stand_in"] is None


def test_without_give_way_the_stand_in_plays_on(client: TestClient, clock: ManualClock) -> None:
    made = seated(
        client, make(client, "awimbawe", rules={**RULES, "give_way": False}), ["Anna", "Ben"]
    )
    live = run(client, hub_of(client).get, made["id"])
    slow = live.table.to_act()
    present(client, made, live, slow)
    ben = present(client, made, live, 1 - slow)
    clock.advance(61)
    run(client, hub_of(client).takeovers.check, live)
    moved = play_on(client, live, ben, slow, turns=4)
    assert len(moved) == 4 and live.seats[slow].stand_in is not None  # it played on


def test_a_seat_given_to_a_new_person_mid_game_keeps_its_name_until_they_join(
    client: TestClient,
) -> None:
    """Seen: the seat became "Seat 2", played by a hidden stand-in, into the result, the scores
    and the lobby's finished list. Now it keeps the name the game knows it by, its stand-in is
    shown as one, and the new person's name comes when they join."""
    made = seated(client, make(client, "awimbawe"), ["Anna", "Ben"])
    host = {"Authorization": f"Bearer {made['host']}"}
    given = client.post(f"/api/tables/{made['id']}/seats/1/person", headers=host)
    assert given.status_code == 200, given.text
    seat = about(client, made)["seats"][1]
    assert seat["name"] == "Ben" and seat["stand_in"] is not None and not seat["joined"]
    new_link = given.json()["seat_link"].split("#seat=")[1]
    joined = client.post(f"/api/tables/{made['id']}/join", json={"token": new_link, "name": "Cleo"})
    assert joined.status_code == 200, joined.text
    seat = about(client, made)["seats"][1]
    assert seat["name"] == "Cleo" and seat["joined"]
