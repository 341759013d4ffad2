"""The heaviest bot levels are for signed-in hosts, on a live server (audit item 4), and each
table is kept with who made it: the address for a host who is not signed in, the account for
one who is (the bot pool shares its workers among them, in every process and after a
restart). A server setting lets everyone seat the heaviest levels.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from spieltisch.web.common.settings import HEAVY_BOTS_VARIABLE
from spieltisch.web.store.db import TABLE_OWNERS, make_engine

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(180)
PASSWORD = "a table of friends 42"


def table(level: str) -> dict[str, Any]:
    return {"game": "awimbawe", "seats": [{"kind": "person"}, {"kind": "bot", "level": level}]}


def owners(server: LiveServer) -> dict[str, str]:
    engine = make_engine(server.database, writer=False)
    with engine.connect() as db:
        found = {r.table_id: r.owner for r in db.execute(sa.select(TABLE_OWNERS))}
    engine.dispose()
    return found


@pytest.fixture
def client(own_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=own_server.url, timeout=30.0, trust_env=False) as made:
        yield made


@pytest.mark.parametrize("level", ["ismcts:5s", "ismcts:2s", "ismcts:2000"])
def test_an_anonymous_host_is_refused_the_heaviest_levels(
    own_server: LiveServer, client: httpx.Client, level: str
) -> None:
    refused = client.post("/api/tables", json=table(level))
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"] == (
        f"the bot level {level} is for signed-in hosts: sign in, or choose a lighter one"
    )
    german = client.post("/api/tables", json=table(level), headers={"Accept-Language": "de"})
    assert german.status_code == 403 and "angemeldet" in german.json()["detail"]
    made = client.post("/api/tables", json=table("ismcts:1s"))  # a lighter one is fine
    assert made.status_code == 201, made.text
    assert owners(own_server) == {made.json()["id"]: "address:127.0.0.1"}


def test_a_signed_in_host_may_seat_them_and_owns_the_table(
    own_server: LiveServer, client: httpx.Client
) -> None:
    origin = {"Origin": own_server.url}
    signed = client.post(
        "/api/account/signup", json={"name": "Ann", "password": PASSWORD}, headers=origin
    )
    assert signed.status_code == 201, signed.text
    csrf, account = signed.json()["csrf"], signed.json()["account"]["id"]
    made = client.post(
        "/api/tables", json=table("ismcts:5s"), headers={**origin, "X-CSRF-Token": csrf}
    )
    assert made.status_code == 201, made.text
    assert owners(own_server) == {made.json()["id"]: f"account:{account}"}
    # without the session's CSRF token (another site's page, say) the request is anonymous
    refused = client.post("/api/tables", json=table("ismcts:5s"))
    assert refused.status_code == 403


def test_a_server_may_let_everyone_seat_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HEAVY_BOTS_VARIABLE, "everyone")
    server = LiveServer(tmp_path)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30.0, trust_env=False) as client:
            made = client.post("/api/tables", json=table("ismcts:5s"))
            assert made.status_code == 201, made.text
    finally:
        server.stop()


def test_the_server_command_may_let_everyone_seat_them(tmp_path: Path) -> None:
    """``spieltisch serve --heavy-bots-for-all`` (here ``python -m spieltisch.web``, which
    takes the same flag): the heaviest levels for everyone, and no page marks them."""
    server = LiveServer(tmp_path, ["--heavy-bots-for-all"])
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30.0, trust_env=False) as client:
            made = client.post("/api/tables", json=table("ismcts:5s"))
            assert made.status_code == 201, made.text
            assert all("heavy" not in game for game in client.get("/api/games").json())
    finally:
        server.stop()


def test_the_games_name_the_heaviest_levels_for_the_pages(
    own_server: LiveServer, client: httpx.Client
) -> None:
    games = {game["id"]: game for game in client.get("/api/games").json()}
    assert set(games["awimbawe"]["heavy"]) == {"ismcts:2s", "ismcts:5s", "ismcts:2000"}


def test_an_anonymous_host_hands_no_seat_to_the_heaviest_levels_later(
    own_server: LiveServer, client: httpx.Client
) -> None:
    """Not at the start, and not by handing a seat to a bot afterwards."""
    made = client.post("/api/tables", json=table("ismcts:1s")).json()
    host = {"Authorization": f"Bearer {made['host_link'].split('#host=')[1]}"}
    path = f"/api/tables/{made['id']}/seats/1/bot"
    refused = client.post(path, json={"level": "ismcts:5s"}, headers=host)
    assert refused.status_code == 403, refused.text
    assert client.post(path, json={"level": "ismcts:1s"}, headers=host).status_code == 200


def test_a_rated_game_against_the_ladder_is_its_players_and_counts_as_a_table(
    own_server: LiveServer, client: httpx.Client
) -> None:
    """The ladder's game is kept as its player's (the pool shares by owner) and takes one of
    the tables the address may make."""
    origin = {"Origin": own_server.url}
    signed = client.post(
        "/api/account/signup", json={"name": "Bea", "password": PASSWORD}, headers=origin
    ).json()
    headers = {**origin, "X-CSRF-Token": signed["csrf"]}
    made = client.post("/api/rated-bot", json={"game": "awimbawe", "players": 2}, headers=headers)
    assert made.status_code == 201, made.text
    assert owners(own_server)[made.json()["id"]] == f"account:{signed['account']['id']}"
    answers = [
        client.post("/api/rated-bot", json={"game": "awimbawe", "players": 2}, headers=headers)
        for _ in range(15)
    ]
    assert 429 in {a.status_code for a in answers}, "the ladder made tables past the allowance"
