"""Seats bound to accounts, rated tables, profiles, leaderboards and the export, through
Starlette's TestClient (each :class:`Browser` with its own cookies)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from spieltisch.agents.ladder import load_ladder
from spieltisch.web.common.settings import Settings
from spieltisch.web.people.profile import MIN_GAMES
from spieltisch.web.routes.app import create_app
from spieltisch.web.store.db import RATINGS, SEATS, TABLES, make_engine
from tests.web.test_api import hello, receive

pytestmark = pytest.mark.timeout(120)
PASSWORD = "a table of friends 42"


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db.sqlite'}"


class Browser:
    """One browser at the shared test client: its own cookies, the client's one event loop
    (every TestClient entered runs its own loop, and the server's locks belong to one)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar = httpx.Cookies()

    def _call(self, method: str, url: str, **options: Any) -> httpx.Response:
        self.client.cookies = self.jar
        try:
            answer: httpx.Response = self.client.request(method, url, **options)
            return answer
        finally:
            self.jar = httpx.Cookies(self.client.cookies)

    def get(self, url: str, **options: Any) -> httpx.Response:
        return self._call("GET", url, **options)

    def post(self, url: str, **options: Any) -> httpx.Response:
        return self._call("POST", url, **options)

    def websocket_connect(self, url: str) -> Any:
        self.client.cookies = self.jar
        return self.client.websocket_connect(url)


@pytest.fixture
def browsers(database: str) -> Iterator[Callable[[], Browser]]:
    """Browsers on one server, each with its own cookies."""
    app = create_app(Settings(database=database, bot_workers=1, bot_pause=0))
    with TestClient(app) as client:
        yield lambda: Browser(client)


def make_table(browser: Browser, game: str = "auf-die-eier", **extra: Any) -> dict[str, Any]:
    """A table with one person seat (seat 0) and a heuristic bot; its links' tokens."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
    answer = browser.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    made["host"] = made["host_link"].split("#host=")[1]
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    return made


def sign_up(client: Browser, name: str) -> str:
    """Sign ``name`` up in this browser; its CSRF token."""
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def sign_in(client: Browser, name: str) -> str:
    answer = client.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def join(client: Browser, made: dict[str, Any], seat: int, csrf: str | None) -> Any:
    headers = {} if csrf is None else {"X-CSRF-Token": csrf}
    return client.post(
        f"/api/tables/{made['id']}/join",
        json={"token": made["seat"][seat], "name": "typed name"},
        headers=headers,
    )


def seat_rows(database: str, table_id: str) -> list[Any]:
    engine = make_engine(database, writer=False)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
        ).all()
    engine.dispose()
    return list(rows)


def concede(client: Browser, made: dict[str, Any], seat: int) -> None:
    answer = client.post(
        f"/api/tables/{made['id']}/concede",
        headers={"Authorization": f"Bearer {made['seat'][seat]}"},
    )
    assert answer.status_code == 200 and answer.json()["ended"], answer.text


def start(client: Browser, made: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    assert answer.status_code == 200, answer.text


def test_a_signed_in_join_binds_the_seat_to_the_account_and_its_name(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann)
    assert join(ann, made, 0, csrf).json()["name"] == "Ann"  # the account's name, not the typed
    rows = seat_rows(database, made["id"])
    assert rows[0].account_id is not None and rows[0].name == "Ann"


def test_a_join_without_the_csrf_token_is_a_join_by_link_only(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann = browsers()
    sign_up(ann, "Ann")
    made = make_table(ann)
    answer = join(ann, made, 0, None)  # a page of another site cannot send the token
    assert answer.status_code == 200 and answer.json()["name"] == "typed name"
    assert seat_rows(database, made["id"])[0].account_id is None


def test_the_seat_follows_its_person_to_another_device(
    browsers: Callable[[], Browser],
) -> None:
    phone, laptop, stranger = browsers(), browsers(), browsers()
    csrf = sign_up(phone, "Ann")
    made = make_table(phone)
    assert join(phone, made, 0, csrf).status_code == 200
    start(phone, made)
    sign_in(laptop, "Ann")
    with laptop.websocket_connect(f"/ws/{made['id']}") as ws:
        first = hello(ws, None)
        assert first["type"] == "update" and first["seat"] == 0
    with stranger.websocket_connect(f"/ws/{made['id']}") as ws:
        assert hello(ws, None)["seat"] is None  # someone else only watches
    laptop_csrf = sign_in(laptop, "Ann")
    conceded = laptop.post(
        f"/api/tables/{made['id']}/concede", headers={"X-CSRF-Token": laptop_csrf}
    )
    assert conceded.status_code == 200 and conceded.json()["ended"], conceded.text


def test_own_seat_requests_by_account_need_the_csrf_token(
    browsers: Callable[[], Browser],
) -> None:
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann)
    join(ann, made, 0, csrf)
    start(ann, made)
    refused = ann.post(f"/api/tables/{made['id']}/concede")
    assert refused.status_code == 403


def test_a_rated_table_takes_only_signed_in_people_and_ladder_bots(
    browsers: Callable[[], Browser],
) -> None:
    guest, ann = browsers(), browsers()
    seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
    rated = {"game": "awimbawe", "seats": seats, "rules": {"rated": True}}
    answer = guest.post("/api/tables", json=rated)
    assert answer.status_code == 201, answer.text
    made = answer.json()
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    refused = join(guest, made, 0, None)
    assert refused.status_code == 403 and "sign in" in refused.json()["detail"]
    csrf = sign_up(ann, "Ann")
    assert join(ann, made, 0, csrf).status_code == 200
    timed = {**rated, "seats": [seats[0], {"kind": "bot", "level": "ismcts:1s"}]}
    off_ladder = guest.post("/api/tables", json=timed)
    assert off_ladder.status_code == 422 and "ladder" in off_ladder.json()["detail"]


def test_a_rated_game_against_the_bot_of_my_level_moves_my_rating_once(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    answer = ann.post(
        "/api/rated-bot", json={"game": "awimbawe", "players": 2}, headers={"X-CSRF-Token": csrf}
    )
    assert answer.status_code == 201, answer.text
    table = answer.json()
    rungs = load_ladder().rungs("awimbawe", 2)
    assert table["level"] == min(rungs, key=lambda r: abs(r.mu - 25.0)).level
    about = ann.get(f"/api/tables/{table['id']}").json()
    assert about["status"] == "playing" and about["rules"]["rated"]
    assert about["seats"][table["seat"]]["name"] == "Ann"
    conceded = ann.post(f"/api/tables/{table['id']}/concede", headers={"X-CSRF-Token": csrf})
    assert conceded.status_code == 200 and conceded.json()["ended"]
    engine = make_engine(database, writer=False)
    with engine.connect() as connection:
        ratings = connection.execute(sa.select(RATINGS)).all()
    engine.dispose()
    assert len(ratings) == 1 and ratings[0].games == 1 and ratings[0].mu < 25.0
    profile = ann.get("/api/players/Ann").json()
    (rating,) = profile["ratings"]
    # One number on the ladder's scale (the skill measured), placed among the ladder's levels
    # by their names, and how sure it is in words; the cautious figure beside it.
    assert rating["games"] == 1 and rating["rating"] == round(ratings[0].mu, 1)
    assert rating["cautious"] == round(ratings[0].mu - 3 * ratings[0].sigma, 1)
    ladder = load_ladder()
    placed = ladder.between("awimbawe", 2, ratings[0].mu)  # by the estimate, as bots are
    assert rating["between_levels"] == list(placed)
    assert rating["between"] == [
        None if level is None else ladder.name_of("awimbawe", 2, level) for level in placed
    ]
    lower = ladder.rung("awimbawe", 2, placed[0]) if placed[0] else None
    assert lower is None or lower.mu <= rating["rating"]  # the text and the number agree
    assert rating["certainty"] == "a first guess"  # one game: sigma is still near its start
    assert profile["finished"][0]["rated"] and not profile["finished"][0]["won"]
    assert profile["record"] == [
        {"game": "awimbawe", "game_name": "Awimbawé", "players": 2, "played": 1, "won": 0}
    ]


def test_a_profile_is_its_players_to_show(browsers: Callable[[], Browser]) -> None:
    ann, bob = browsers(), browsers()
    ann_csrf = sign_up(ann, "Ann")
    sign_up(bob, "Bob")
    assert bob.get("/api/players/Ann").status_code == 404  # not listed: Ann's alone
    assert ann.get("/api/players/ann").json()["self"]
    listed = ann.post("/api/account/settings", json={"listed": True},
                      headers={"X-CSRF-Token": ann_csrf})  # fmt: skip
    assert listed.status_code == 200, listed.text
    shown = bob.get("/api/players/Ann").json()
    assert not shown["self"] and shown["unfinished"] == []


def test_a_profile_lists_tables_in_play_but_nothing_of_their_game(
    browsers: Callable[[], Browser],
) -> None:
    """Two tables whose hidden cards differ (other deals) give the same profile entries."""
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    entries = []
    for seed in (1, 2):
        made = make_table(ann, game="auweier", players=2, seed=seed)
        join(ann, made, 0, csrf)
        start(ann, made)
        profile = ann.get("/api/players/Ann").json()
        entry = next(e for e in profile["unfinished"] if e["table"] == made["id"])
        entries.append({k: v for k, v in entry.items() if k not in ("table", "link")})
        text = json.dumps(profile)
        assert "hand" not in text and "cards" not in text
    assert entries[0] == entries[1]


def test_leaderboards_show_listed_players_with_enough_games_beside_the_ladder(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann, bob = browsers(), browsers()
    ann_csrf = sign_up(ann, "Ann")
    sign_up(bob, "Bob")
    ann.post("/api/account/settings", json={"listed": True}, headers={"X-CSRF-Token": ann_csrf})
    engine = make_engine(database)
    with engine.begin() as connection:
        rows = connection.execute(sa.text("SELECT name, id FROM accounts")).all()
        ids: dict[str, str] = {row[0]: row[1] for row in rows}
        for name, mu in (("Ann", 30.0), ("Bob", 35.0)):
            connection.execute(
                sa.insert(RATINGS).values(account_id=ids[name], game="auweier", players=2,
                                          mu=mu, sigma=1.0, games=MIN_GAMES, updated_at=0.0)
            )  # fmt: skip
    engine.dispose()
    board = ann.get("/api/ratings/auweier/2").json()
    assert board["leaderboard"] == [
        {"name": "Ann", "rating": 30.0, "cautious": 27.0, "games": MIN_GAMES}
    ]
    assert [(r["level"], r["name"]) for r in board["ladder"]] == [
        (n.rung.level, n.name) for n in load_ladder().named("auweier", 2)
    ]


def test_export_and_delete_keep_the_games_with_a_former_player(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann, bob = browsers(), browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann, game="awimbawe")
    join(ann, made, 0, csrf)
    start(ann, made)
    concede(ann, made, 0)
    exported = ann.get("/api/account/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    games = exported.json()["games"]
    assert len(games) == 1 and games[0]["seats"][0] == "Ann" and games[0]["game"] == "awimbawe"
    assert bob.get("/api/account/export").status_code == 401
    deleted = ann.post("/api/account/delete", json={"confirm": "Ann"},
                       headers={"X-CSRF-Token": csrf})  # fmt: skip
    assert deleted.status_code == 204, deleted.text
    assert seat_rows(database, made["id"])[0].name == "former player"
    engine = make_engine(database, writer=False)
    with engine.connect() as connection:
        record = connection.execute(
            sa.select(TABLES.c.record).where(TABLES.c.id == made["id"])
        ).scalar_one()
    engine.dispose()
    assert json.loads(record)["seats"][0] == "former player"
    assert ann.get("/api/players/Ann").status_code == 404


def test_a_rated_game_played_to_its_end_by_the_accounts_page_settles_once(
    browsers: Callable[[], Browser], database: str
) -> None:
    """Moves sent by a page that holds its seat by the account (no link), to the end: the
    outcome is kept and the rating moves by exactly one game."""
    ann = browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann, game="awimbawe", rules={"rated": True})  # a heuristic bot: no pace
    assert join(ann, made, 0, csrf).status_code == 200
    start(ann, made)
    with ann.websocket_connect(f"/ws/{made['id']}") as ws:
        message, sent = hello(ws, None), -1
        while message.get("status") != "finished":
            if message.get("type") == "update" and message["legal"] and sent < message["version"]:
                move, sent = message["legal"][0], message["version"]
                time.sleep(0.11)  # a person's pace: the server allows ten messages a second
                ws.send_text(json.dumps({"type": "move", "id": move["id"],
                                         "version": message["version"]}))  # fmt: skip
            message = receive(ws)
    engine = make_engine(database, writer=False)
    with engine.connect() as connection:
        (rating,) = connection.execute(sa.select(RATINGS)).all()
        outcome = connection.execute(
            sa.select(TABLES.c.outcome).where(TABLES.c.id == made["id"])
        ).scalar()
        settled = connection.execute(sa.text("SELECT count(*) FROM rated")).scalar()
    engine.dispose()
    assert rating.games == 1 and settled == 1 and outcome is not None
    won = 0 in json.loads(outcome)["winners"]
    assert (rating.mu > 25.0) == won


def test_the_rematch_follows_the_account_too(browsers: Callable[[], Browser]) -> None:
    """A page holding its seat by the account asks for the rematch and takes its seat there
    without a link (the rematch keeps the seat's account)."""
    phone, laptop = browsers(), browsers()
    csrf = sign_up(phone, "Ann")
    made = make_table(phone, game="awimbawe")
    join(phone, made, 0, csrf)
    start(phone, made)
    concede(phone, made, 0)
    laptop_csrf = sign_in(laptop, "Ann")
    asked = laptop.post(f"/api/tables/{made['id']}/rematch", headers={"X-CSRF-Token": laptop_csrf})
    assert asked.status_code == 201, asked.text
    rematch = asked.json()["id"]
    taken = laptop.post(
        f"/api/tables/{rematch}/join",
        json={"token": "", "name": "ignored"},
        headers={"X-CSRF-Token": laptop_csrf},
    )
    assert taken.status_code == 200 and taken.json() == {"seat": 0, "name": "Ann"}, taken.text
    stranger = browsers()
    refused = stranger.post(f"/api/tables/{rematch}/join", json={"token": "", "name": "Eve"})
    assert refused.status_code == 403


def test_a_seat_left_before_the_start_belongs_to_no_account_any_more(
    browsers: Callable[[], Browser], database: str
) -> None:
    """Ann leaves an open table; whoever joins by the same link without an account is not
    Ann, and Ann's pages no longer hold that seat."""
    ann, xavier = browsers(), browsers()
    csrf = sign_up(ann, "Ann")
    made = make_table(ann)
    join(ann, made, 0, csrf)
    left = ann.post(f"/api/tables/{made['id']}/leave", headers={"X-CSRF-Token": csrf})
    assert left.status_code == 200, left.text
    assert join(xavier, made, 0, None).json()["name"] == "typed name"
    assert seat_rows(database, made["id"])[0].account_id is None
    with ann.websocket_connect(f"/ws/{made['id']}") as ws:
        assert hello(ws, None)["seat"] is None


def rated_pair(ann: Browser, bob: Browser) -> tuple[dict[str, Any], str, str]:
    """A started rated Awimbawé table of Ann (seat 0) and Bob (seat 1)."""
    seats = [{"kind": "person"}, {"kind": "person"}]
    answer = ann.post(
        "/api/tables", json={"game": "awimbawe", "seats": seats, "rules": {"rated": True}}
    )
    made: dict[str, Any] = answer.json()
    made["host"] = made["host_link"].split("#host=")[1]
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    ann_csrf, bob_csrf = sign_up(ann, "Ann"), sign_up(bob, "Bob")
    assert join(ann, made, 0, ann_csrf).status_code == 200
    assert join(bob, made, 1, bob_csrf).status_code == 200
    start(ann, made)
    return made, ann_csrf, bob_csrf


def test_a_rated_game_keeps_its_seats_and_its_bots_on_the_ladder(
    browsers: Callable[[], Browser],
) -> None:
    ann, bob = browsers(), browsers()
    made, _, _ = rated_pair(ann, bob)
    host = {"Authorization": f"Bearer {made['host']}"}
    new_link = ann.post(f"/api/tables/{made['id']}/seats/1/person", headers=host)
    assert new_link.status_code == 409 and "rated" in new_link.json()["detail"]
    off_ladder = ann.post(
        f"/api/tables/{made['id']}/seats/1/bot", json={"level": "ismcts:5s"}, headers=host
    )
    assert off_ladder.status_code == 422 and "ladder" in off_ladder.json()["detail"]


def test_leaving_a_rated_game_counts_as_giving_it_up(
    browsers: Callable[[], Browser], database: str
) -> None:
    ann, bob = browsers(), browsers()
    made, ann_csrf, bob_csrf = rated_pair(ann, bob)
    left = ann.post(f"/api/tables/{made['id']}/leave", headers={"X-CSRF-Token": ann_csrf})
    assert left.status_code == 200, left.text
    rows = seat_rows(database, made["id"])
    assert rows[0].kind == "bot" and rows[0].account_id is not None  # still Ann's game
    conceded = bob.post(f"/api/tables/{made['id']}/concede", headers={"X-CSRF-Token": bob_csrf})
    assert conceded.status_code == 200 and conceded.json()["ended"], conceded.text
    engine = make_engine(database, writer=False)
    with engine.connect() as connection:
        games = connection.execute(sa.select(RATINGS.c.games)).scalars().all()
    engine.dispose()
    assert sorted(games) == [1, 1]
    assert ann.get("/api/players/Ann").json()["finished"][0]["table"] == made["id"]


def test_a_leaderboard_takes_a_player_count_only(browsers: Callable[[], Browser]) -> None:
    ann = browsers()
    assert ann.get("/api/ratings/auweier/99999999999999999999").status_code == 422
    assert ann.get("/api/ratings/auweier/2").status_code == 200
