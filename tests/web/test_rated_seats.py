"""A rated game's seats are their people's, its result is scored by stated rulings, and its
rating settles exactly once, whatever dies in between (issue 48, item 2).

Found by an outside audit: mid-game the host of a rated game handed the opponent's seat to a
ladder bot; the seat kept its account and was ranked last whatever the bot did, so the host's
rating moved as a win and the victim's as a loss (the bot had won: the victim's profile said
``"won": true, "place": 2``). And a server that died between a rated game's end and its
settling lost the rating. Now, in a rated game being played, nobody but a seat's own person
changes who plays it (the host hands nothing on, nobody votes, a seat's link gives it up only
from its own account), a seat given up is a loss and a stand-in's result is its person's, the
profile's ``won`` is its first place, and a game ended but never settled is settled when a
server starts, once.

The server runs in the test's process (Starlette's TestClient) with a :class:`ManualClock`;
the stand-ins play at the ``random`` level here (the strongest, which they are in a server,
would think for seconds a move). The crash tests also start real server processes, on SQLite
and, with ``SPIELTISCH_TEST_POSTGRES`` set, on PostgreSQL (two processes settling together).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.people.rated import Outcome
from spieltisch.web.routes.app import create_app
from spieltisch.web.store.db import ACCOUNTS, RATED, RATINGS, SEATS, TABLES, make_engine
from spieltisch.web.tables import ending, seats, takeover
from spieltisch.web.tables.clock import ManualClock
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.table import Connection, LiveTable

from .servers import own_database, running
from .test_rated import Browser, sign_up

pytestmark = pytest.mark.timeout(300)

POSTGRES = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
CLOCK: dict[str, Any] = {"clock": "live", "bank": 60, "increment": 5, "grace": 0, "give_way": False}
"""A live clock that a test runs out by moving its manual clock on a minute."""
RATED_SEATS_STAY = "a rated game's seats stay with the people who started it"
RATED_OWN_SEAT = (
    "a seat of a rated game is its account's: sign in as its person to leave, concede or take it"
)
RATED_NO_VOTE = (
    "a rated game's seats change hands only by their own people or by the clock: nobody votes "
    "on another's seat"
)
"""The refusals' msgids (:mod:`spieltisch.web.tables.rated_seats`, :mod:`~.takeover`)."""
SEEDS = range(1, 40)
"""Seeds tried until a game comes out as a test needs (each a few seconds at most)."""


@pytest.fixture(autouse=True)
def quick_stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-ins (and the bots of seats given up) play at random: quick, and as able to win."""
    monkeypatch.setattr(takeover, "stand_in_level", lambda live: "random")
    monkeypatch.setattr(seats, "stand_in_level", lambda live: "random")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db.sqlite'}"


class Server:
    """One server in the test's process on ``database``, and browsers with their own cookies."""

    def __init__(self, database: str, clock: ManualClock) -> None:
        settings = Settings(database=database, bot_workers=1, bot_pause=0)
        self.client = TestClient(create_app(settings, clock))
        self.database, self.clock = database, clock

    def __enter__(self) -> Server:
        self.client.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.__exit__(*exc)

    @property
    def hub(self) -> Hub:
        hub: Hub = self.client.app.state.hub  # type: ignore[attr-defined]
        return hub

    def run(self, function: Any, *args: Any) -> Any:
        """Run a coroutine function on the server's own event loop."""
        assert self.client.portal is not None
        return self.client.portal.call(function, *args)

    def browser(self) -> Browser:
        return Browser(self.client)


@pytest.fixture
def server(database: str, clock: ManualClock) -> Iterator[Server]:
    with Server(database, clock) as running_server:
        yield running_server


@dataclass
class Rated:
    """A started rated two-person Awimbawé table: Ann (seat 0, the host) and Bob (seat 1)."""

    id: str
    host: str
    links: dict[int, str]
    ann: Browser
    bob: Browser
    csrf: dict[int, str]
    live: LiveTable

    def own(self, seat: int) -> dict[str, str]:
        """The headers of a seat's own request: its link and its account's CSRF token."""
        return {"Authorization": f"Bearer {self.links[seat]}", "X-CSRF-Token": self.csrf[seat]}


def rated_table(srv: Server, seed: int = 7, **rules: Any) -> Rated:
    """A rated Awimbawé table of two signed-in people, started."""
    ann, bob = srv.browser(), srv.browser()
    csrf = {0: sign_up(ann, "Ann"), 1: sign_up(bob, "Bob")}
    seats_ = [{"kind": "person"}, {"kind": "person"}]
    body = {"game": "awimbawe", "seats": seats_, "seed": seed, "rules": {"rated": True, **rules}}
    made = ann.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    data = made.json()
    links = {int(k): v.split("#seat=")[1] for k, v in data["seat_links"].items()}
    host = join_and_start(data, links, (ann, bob), csrf)
    live = srv.run(srv.hub.get, data["id"])
    return Rated(data["id"], host, links, ann, bob, csrf, live)


def join_and_start(
    data: dict[str, Any], links: dict[int, str], people: tuple[Browser, Browser],
    csrf: dict[int, str],
) -> str:  # fmt: skip
    """Each person joins their seat by its link, signed in; the host (the first) starts the
    table. The host's token."""
    for seat, person in enumerate(people):
        joined = person.post(
            f"/api/tables/{data['id']}/join", json={"token": links[seat], "name": "x"},
            headers={"X-CSRF-Token": csrf[seat]},
        )  # fmt: skip
        assert joined.status_code == 200, joined.text
    host = str(data["host_link"].split("#host=")[1])
    started = people[0].post(
        f"/api/tables/{data['id']}/start", headers={"Authorization": f"Bearer {host}"}
    )
    assert started.status_code == 200, started.text
    return host


def wait_for(predicate: Callable[[], bool], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


async def first_legal(hub: Hub, live: LiveTable, seat: int) -> None:
    """``seat``'s person plays its first legal move, if it is their turn."""
    async with live.lock:
        if live.status != "playing" or live.table.to_act() != seat:
            return
        await hub.play(live, live.table.state.legal_actions()[0], seat, live.table.version)
    await hub.broadcast(live)
    hub.schedule(live)


def play_out(srv: Server, table: Rated, people: set[int]) -> None:
    """Play to the end: the seats in ``people`` move by hand, the others' bots by themselves."""
    live = table.live
    while live.status == "playing":
        seat = live.table.to_act()
        if seat in people:
            srv.run(first_legal, srv.hub, live, seat)
        else:
            time.sleep(0.01)
    wait_for(lambda: stored(srv.database, table.id)[0] is not None)


def stored(database: str, table_id: str) -> tuple[Outcome | None, int]:
    """The outcome kept with a table, and whether its ratings were settled (rows of
    ``rated``)."""
    engine = make_engine(database, writer=False)
    with engine.connect() as db:
        text = db.execute(sa.select(TABLES.c.outcome).where(TABLES.c.id == table_id)).scalar()
        settled = db.execute(
            sa.select(sa.func.count()).select_from(RATED).where(RATED.c.table_id == table_id)
        ).scalar_one()
    engine.dispose()
    return (None if text is None else Outcome.from_json(text)), int(settled)


def ratings(database: str) -> dict[str, tuple[float, int]]:
    """Each account's Awimbawé rating (mu, games)."""
    engine = make_engine(database, writer=False)
    with engine.connect() as db:
        rows = db.execute(
            sa.select(ACCOUNTS.c.name, RATINGS.c.mu, RATINGS.c.games).join(
                RATINGS, RATINGS.c.account_id == ACCOUNTS.c.id
            )
        ).all()
    engine.dispose()
    return {r.name: (float(r.mu), int(r.games)) for r in rows}


def seat_rows(database: str, table_id: str) -> list[Any]:
    engine = make_engine(database, writer=False)
    with engine.connect() as db:
        rows = db.execute(
            sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
        ).all()
        epoch = db.execute(sa.select(TABLES.c.epoch).where(TABLES.c.id == table_id)).scalar()
    engine.dispose()
    return [*rows, epoch]


def profile_game(person: Browser, name: str, table_id: str) -> dict[str, Any]:
    found = person.get(f"/api/players/{name}").json()
    entry: dict[str, Any] = next(g for g in found["finished"] if g["table"] == table_id)
    return entry


def check_scored(srv: Server, table: Rated, places: dict[int, int]) -> None:
    """The table's stored places are ``places`` (seat to place), each account's rating moved
    once and in the place's direction, and each profile's ``won`` is its first place."""
    outcome, settled = stored(srv.database, table.id)
    assert outcome is not None and settled == 1
    assert dict(enumerate(outcome.ranks)) == places
    moved = ratings(srv.database)
    for seat, (name, person) in enumerate((("Ann", table.ann), ("Bob", table.bob))):
        mu, games = moved[name]
        assert games == 1
        assert (mu > 25.0) == (places[seat] == 1), (name, mu, places)
        entry = profile_game(person, name, table.id)
        assert entry["place"] == places[seat] and entry["won"] == (places[seat] == 1)


def problem(answer: httpx.Response) -> str:
    detail: str = answer.json()["detail"]
    return detail


# --- 1. nobody but a seat's person changes who plays it --------------------------------------


def test_the_host_cannot_hand_a_rated_opponents_seat_to_a_bot(server: Server) -> None:
    """The audit's case: refused, and nothing changes (the seat, its token, the epoch); the
    game goes on and is scored as played."""
    table = rated_table(server)
    before = seat_rows(server.database, table.id)
    host = {"Authorization": f"Bearer {table.host}"}
    handed = table.ann.post(
        f"/api/tables/{table.id}/seats/1/bot", json={"level": "heuristic"}, headers=host
    )
    assert handed.status_code == 409 and problem(handed) == RATED_SEATS_STAY
    given = table.ann.post(f"/api/tables/{table.id}/seats/1/person", headers=host)
    assert given.status_code == 409 and problem(given) == RATED_SEATS_STAY
    assert seat_rows(server.database, table.id) == before
    assert table.live.seats[1].kind == "person" and table.live.seats[1].stand_in is None
    play_out(server, table, {0, 1})
    winner = table.live.table.winners()
    check_scored(server, table, {s: 1 if s in winner else 2 for s in (0, 1)})


def test_a_seats_link_gives_a_rated_seat_up_only_from_its_own_account(server: Server) -> None:
    """The host derives every seat's link (their page shows them all): with Bob's link, the
    host (signed in as Ann, or not at all) neither concedes nor leaves Bob's seat, nor takes
    it for another account; Bob, signed in, does."""
    table = rated_table(server)
    before = seat_rows(server.database, table.id)
    links = table.ann.get(
        f"/api/tables/{table.id}/links", headers={"Authorization": f"Bearer {table.host}"}
    ).json()["seat_links"]
    bobs = links["1"].split("#seat=")[1]
    as_ann = {"Authorization": f"Bearer {bobs}", "X-CSRF-Token": table.csrf[0]}
    for what in ("concede", "leave"):
        refused = table.ann.post(f"/api/tables/{table.id}/{what}", headers=as_ann)
        assert refused.status_code == 403 and problem(refused) == RATED_OWN_SEAT, refused.text
    anyone = server.browser()
    refused = anyone.post(
        f"/api/tables/{table.id}/concede", headers={"Authorization": f"Bearer {bobs}"}
    )
    assert refused.status_code == 403 and problem(refused) == RATED_OWN_SEAT
    carol = server.browser()
    carol_csrf = sign_up(carol, "Carol")
    taken = carol.post(
        f"/api/tables/{table.id}/join", json={"token": bobs, "name": "Carol"},
        headers={"X-CSRF-Token": carol_csrf},
    )  # fmt: skip
    assert taken.status_code == 403 and problem(taken) == RATED_OWN_SEAT
    assert seat_rows(server.database, table.id) == before
    conceded = table.bob.post(f"/api/tables/{table.id}/concede", headers=table.own(1))
    assert conceded.status_code == 200 and conceded.json()["ended"], conceded.text
    check_scored(server, table, {0: 1, 1: 2})


RATED_OWN_PAGE = "a seat of a rated game is played only by its person: sign in as them"


def _page(person: Browser | None, srv: Server, table: Rated, seat: int) -> list[dict[str, Any]]:
    """What a page open with ``seat``'s link (by ``person``'s browser; ``None``: signed in
    nowhere) is sent, up to its close or its first update, after it tries to move and to
    take the seat back."""
    browser = person or srv.browser()
    got: list[dict[str, Any]] = []
    with browser.websocket_connect(f"/ws/{table.id}") as socket:
        hello = {"type": "hello", "token": table.links[seat], "since": 0}
        socket.send_text(json.dumps(hello))
        for _ in range(20):
            try:
                message: dict[str, Any] = socket.receive_json()
            except WebSocketDisconnect as closed:
                got.append({"closed": closed.code})
                break
            got.append(message)
            if message.get("type") == "update":
                break
    return got


def test_a_rated_seats_link_plays_it_only_from_its_persons_account(server: Server) -> None:
    """The host can read every seat's link (they are derived from the host's), but a page
    open with Bob's link at a rated game, signed in as Ann or not at all, is told why and
    closed before it is sent Bob's view (his hand), and cannot move; Bob's own page plays."""
    table = rated_table(server)
    for person in (table.ann, None):
        got = _page(person, server, table, 1)
        assert got[-1] == {"closed": 4403}, got
        assert all(m.get("type") != "update" for m in got), "the page was sent Bob's view"
        assert any(m.get("reason") == RATED_OWN_PAGE for m in got)
    own = _page(table.bob, server, table, 1)
    assert own[-1]["type"] == "update" and own[-1]["seat"] == 1
    assert own[-1]["view"]["sides"][1]["hand"] is not None


def test_a_page_open_before_the_rated_game_began_stops_when_its_seat_is_anothers(
    server: Server,
) -> None:
    """A page opened with Bob's link before Bob joined (the host's, say) is closed when the
    seat becomes Bob's, and its moves are refused meanwhile."""
    ann, bob = server.browser(), server.browser()
    csrf = {0: sign_up(ann, "Ann"), 1: sign_up(bob, "Bob")}
    body = {"game": "awimbawe", "seats": [{"kind": "person"}] * 2, "seed": 7,
            "rules": {"rated": True}}  # fmt: skip
    data = ann.post("/api/tables", json=body).json()
    links = {int(k): v.split("#seat=")[1] for k, v in data["seat_links"].items()}
    with ann.websocket_connect(f"/ws/{data['id']}") as socket:
        socket.send_text(json.dumps({"type": "hello", "token": links[1], "since": 0}))
        assert socket.receive_json()["type"] == "update"  # an open table: a free seat's page
        join_and_start(data, links, (ann, bob), csrf)
        said: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):
                said.append(socket.receive_json())
        assert closed.value.code == 4403
        assert any(m.get("reason") == RATED_OWN_PAGE for m in said)
        assert all(m.get("view", {}).get("sides", [{}, {}])[1].get("hand") is None for m in said)


def test_a_page_not_signed_in_as_a_rated_seats_person_is_refused_whatever_it_asks(
    server: Server,
) -> None:
    """Between a page's open and its close (the push closes it), the hub itself refuses its
    move and its take-back: the rule does not rest on the close alone."""
    table = rated_table(server)
    bob = table.live.seats[1]
    page = Connection(1, asyncio.Queue(), token_hash=bob.token_hash)  # by link, no account

    async def refused(ask: Callable[[], Awaitable[None]]) -> RefusedError:
        with pytest.raises(RefusedError) as caught:
            await ask()
        return caught.value

    for ask in (
        lambda: server.hub.move(table.live, page, "x", None, table.live.shown),
        lambda: server.hub.take_back(table.live, page),
    ):
        refusal = server.run(refused, ask)
        assert refusal.status == 403 and str(refusal) == RATED_OWN_PAGE


def test_nobody_votes_a_rated_seat_away_the_clock_decides(
    server: Server, clock: ManualClock
) -> None:
    """A rated table that chose votes: the seat out of time gets its stand-in at once, by
    the clock all agreed to, and a vote on a seat is refused."""
    table = rated_table(server, **{**CLOCK, "takeover": "vote"})
    live = table.live
    slow = live.table.to_act()
    assert slow is not None
    vote = table.ann.post(
        f"/api/tables/{table.id}/votes/{1 - slow}", json={"yes": True}, headers=table.own(slow)
    )
    assert vote.status_code == 403 and problem(vote) == RATED_NO_VOTE
    clock.advance(61)
    server.run(server.hub.takeovers.check, live)
    assert live.seats[slow].stand_in is not None and not live.votable
    other = table.bob if slow == 0 else table.ann
    vote = other.post(
        f"/api/tables/{table.id}/votes/{slow}", json={"yes": True}, headers=table.own(1 - slow)
    )
    assert vote.status_code == 403 and problem(vote) == RATED_NO_VOTE


def test_a_finished_tables_seats_stay_as_they_ended(server: Server) -> None:
    """After the end, no seat changes hands (a rated one's settling may still be owed)."""
    table = rated_table(server)
    conceded = table.bob.post(f"/api/tables/{table.id}/concede", headers=table.own(1))
    assert conceded.status_code == 200 and conceded.json()["ended"]
    before = seat_rows(server.database, table.id)
    host = {"Authorization": f"Bearer {table.host}"}
    handed = table.ann.post(
        f"/api/tables/{table.id}/seats/1/bot", json={"level": "heuristic"}, headers=host
    )
    assert handed.status_code == 409 and problem(handed) == "the table is finished"
    given = table.ann.post(f"/api/tables/{table.id}/seats/1/person", headers=host)
    assert given.status_code == 409
    assert seat_rows(server.database, table.id) == before


def test_a_seat_the_host_hands_on_is_no_longer_its_persons_game(server: Server) -> None:
    """At an unrated table the host may hand a seat to a bot mid-game; what the bot makes of
    it is then nobody's result: the game leaves the person's history (it was kept there, as
    a loss, whatever the bot did)."""
    table = rated_table(server, rated=False)
    handed = table.ann.post(
        f"/api/tables/{table.id}/seats/1/bot", json={"level": "random"},
        headers={"Authorization": f"Bearer {table.host}"},
    )  # fmt: skip
    assert handed.status_code == 200, handed.text
    play_out(server, table, {0})
    found = table.bob.get("/api/players/Bob").json()
    assert all(g["table"] != table.id for g in found["finished"]), "the bot's game is Bob's"
    assert any(g["table"] == table.id for g in table.ann.get("/api/players/Ann").json()["finished"])


# --- 2. the rulings: who is placed where ------------------------------------------------------


def test_a_concession_is_a_loss(server: Server) -> None:
    table = rated_table(server)
    conceded = table.ann.post(f"/api/tables/{table.id}/concede", headers=table.own(0))
    assert conceded.status_code == 200 and conceded.json()["ended"]
    check_scored(server, table, {0: 2, 1: 1})


def leave_and_play_out(srv: Server, seed: int) -> Rated:
    table = rated_table(srv, seed=seed)
    left = table.ann.post(f"/api/tables/{table.id}/leave", headers=table.own(0))
    assert left.status_code == 200, left.text
    play_out(srv, table, {1})
    return table


def test_leaving_is_a_loss_even_when_the_bot_then_wins(tmp_path: Path, clock: ManualClock) -> None:
    """Ann leaves at once; a bot plays her seat out. Tried over seeds until that bot wins the
    game: Ann is still placed last and Bob first (his profile: won)."""
    for seed in SEEDS:
        with Server(f"sqlite:///{tmp_path / f'leave{seed}.sqlite'}", clock) as srv:
            table = leave_and_play_out(srv, seed)
            check_scored(srv, table, {0: 2, 1: 1})
            if 0 in table.live.table.winners():
                return
    pytest.fail("the bot of the seat left never won")


def time_out_and_play_out(srv: Server, seed: int) -> tuple[Rated, int]:
    """Ann or Bob, whoever moves first, runs out of time at once; a stand-in plays their
    seat out for them, the other plays by hand. The table and the seat stood in for."""
    table = rated_table(srv, seed=seed, **CLOCK)
    slow = table.live.table.to_act()
    assert slow is not None
    srv.clock.advance(61)
    srv.run(srv.hub.takeovers.check, table.live)
    assert table.live.seats[slow].stand_in is not None
    play_out(srv, table, {1 - slow})
    assert table.live.seats[slow].stand_in is not None  # it played for them to the end
    return table, slow


def test_a_stand_in_after_a_timeout_plays_for_its_person_win_or_lose(
    tmp_path: Path, clock: ManualClock
) -> None:
    """Over seeds until both came out: the stand-in won (its person is placed first, their
    rating goes up) and the stand-in lost (placed last, down)."""
    seen: set[bool] = set()
    for seed in SEEDS:
        with Server(f"sqlite:///{tmp_path / f'time{seed}.sqlite'}", clock) as srv:
            table, slow = time_out_and_play_out(srv, seed)
            won = slow in table.live.table.winners()
            check_scored(srv, table, {slow: 1 if won else 2, 1 - slow: 2 if won else 1})
            seen.add(won)
        if seen == {True, False}:
            return
    pytest.fail(f"the stand-in's games came out only as {seen}")


def test_a_kept_outcome_names_its_first_places_as_winners() -> None:
    """An outcome a former version kept (winners beside places that disagree) is read with
    the seats placed first as its winners, so ``won`` and ``place`` never disagree."""
    kept = Outcome.from_json(json.dumps({"ranks": [2, 1], "winners": [0]}))
    assert kept == Outcome((2, 1), (1,))
    assert Outcome.from_json(json.dumps({"ranks": [1, 1, 3], "winners": [0]})).winners == (0, 1)


# --- 3. settled exactly once, whatever dies in between ----------------------------------------


def ended_unsettled(
    database: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, dict[str, tuple[float, int]]]:
    """A rated game ended (Ann concedes) by a server that dies between the end's commit and
    the settling (its settling never runs); the table, and the ratings then."""
    with monkeypatch.context() as patched:
        patched.setattr(ending, "store_outcome", lambda *args: True)  # the process died here
        with Server(database, clock) as srv:
            table = rated_table(srv)
            conceded = table.ann.post(f"/api/tables/{table.id}/concede", headers=table.own(0))
            assert conceded.status_code == 200 and conceded.json()["ended"]
    return table.id, ratings(database)


def test_a_game_ended_by_a_server_that_died_is_settled_once_when_one_starts(
    database: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, before = ended_unsettled(database, clock, monkeypatch)
    assert before == {} and stored(database, table_id) == (None, 0)  # owed, not lost
    with Server(database, clock) as srv:
        outcome, settled = stored(database, table_id)
        assert outcome is not None and outcome.ranks == (2, 1) and settled == 1
        after = ratings(database)
        assert after["Ann"][1] == after["Bob"][1] == 1
        assert after["Ann"][0] < 25.0 < after["Bob"][0]
        live = srv.run(srv.hub.get, table_id)
        assert srv.run(ending.settle, srv.hub, live) is False  # settling again: nothing
        assert srv.run(ending.settle, srv.hub, live) is False
        assert ratings(database) == after and stored(database, table_id) == (outcome, 1)
    with Server(database, clock):  # and another start finds nothing owed
        assert ratings(database) == after


def test_a_settling_that_failed_is_made_good_by_the_next_sweep(
    database: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses the settling (full, say) while the server runs on: the game
    stays owed, and the upkeep's next sweep settles it, once."""
    with Server(database, clock) as srv:

        def refused(*args: object) -> bool:
            raise OSError("the disk is full")

        with monkeypatch.context() as patched:
            patched.setattr(ending, "store_outcome", refused)
            table = rated_table(srv)
            conceded = table.ann.post(f"/api/tables/{table.id}/concede", headers=table.own(0))
            assert conceded.status_code == 200 and conceded.json()["ended"]
            assert stored(database, table.id) == (None, 0)  # owed, not lost
        srv.run(srv.hub.upkeep.sweep)
        outcome, settled = stored(database, table.id)
        assert outcome is not None and outcome.ranks == (2, 1) and settled == 1
        after = ratings(database)
        srv.run(srv.hub.upkeep.sweep)
        assert ratings(database) == after and after["Ann"][1] == after["Bob"][1] == 1


def test_a_profile_looked_at_before_the_settling_does_not_take_its_place(
    database: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile works out the outcome of a game that has none kept; for an owed rated game it
    must not keep it, or the settling would find the game settled."""
    with monkeypatch.context() as patched:
        patched.setattr(ending, "store_outcome", lambda *args: True)
        # no settling at the start (a version before settling owed games had none)
        patched.setattr(ending, "owed_tables", lambda engine: [], raising=False)
        with Server(database, clock) as srv:
            table = rated_table(srv)
            conceded = table.ann.post(f"/api/tables/{table.id}/concede", headers=table.own(0))
            assert conceded.status_code == 200
            assert table.ann.get("/api/players/Ann").status_code == 200
    assert stored(database, table.id) == (None, 0)
    with Server(database, clock):
        outcome, settled = stored(database, table.id)
        assert outcome is not None and outcome.ranks == (2, 1) and settled == 1


@contextmanager
def server_database(tmp_path: Path, kind: str) -> Iterator[str]:
    """A database for server processes: a file, or a PostgreSQL database of the test's own."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'processes.sqlite'}"
        return
    if not POSTGRES:
        pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
    with own_database(POSTGRES, "rated") as url:
        yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_server_processes_settle_an_owed_game_once(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The game ends on a server that dies before settling it; then real server processes
    start on the database (on PostgreSQL two at once, racing to settle it): it is settled,
    once, and a later start settles nothing more."""
    with server_database(tmp_path, kind) as database:
        table_id, before = ended_unsettled(database, clock, monkeypatch)
        assert before == {}
        with running(database, workers=2 if kind == "postgres" else 1) as process:
            for _ in range(20):  # both workers up, each having looked for owed games
                assert process.http.get("/api/games").status_code == 200
                time.sleep(0.1)
            wait_for(lambda: stored(database, table_id)[1] == 1, 60)
        settled = ratings(database)
        assert {games for _, games in settled.values()} == {1} and len(settled) == 2
        assert settled["Ann"][0] < 25.0 < settled["Bob"][0]
        with running(database) as process:
            assert process.http.get("/api/games").status_code == 200
        assert ratings(database) == settled and stored(database, table_id)[1] == 1
