"""The server's routes and messages, good and bad, through Starlette's TestClient.

The client is entered as a context manager, so that every WebSocket shares the app's event
loop; every test has a timeout, since a WebSocket read waits for as long as it must.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import spieltisch
import spieltisch.agents
from spieltisch.core.record import Record, replay
from spieltisch.games.auf_die_eier.model import Rule as RotRule
from spieltisch.locale import translation
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.table import Connection

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, bot_pause=0)
    )
    with TestClient(app) as test_client:
        yield test_client


def make_table(
    client: TestClient, game: str = "auf-die-eier", bots: int = 1, **extra: Any
) -> dict[str, Any]:
    """A table with one person seat (seat 0) and ``bots`` heuristic bots; its links' tokens."""
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "heuristic"}] * bots
    answer = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    made["host"] = made["host_link"].split("#host=")[1]
    made["seat"] = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    return made


def started(client: TestClient, game: str = "auf-die-eier", **extra: Any) -> dict[str, Any]:
    made = make_table(client, game, **extra)
    joined = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "Ann"}
    )
    assert joined.status_code == 200, joined.text
    start = client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    assert start.status_code == 200, start.text
    return made


SIDE_MESSAGES = {"seats", "notes", "rematch"}
"""Messages about the table's seats and notes, sent beside the updates."""


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message that is not about the seats or the notes."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") not in SIDE_MESSAGES:
            return message


def hello(
    ws: WebSocketTestSession, token: str | None, since: int = 0, language: str | None = None
) -> dict[str, Any]:
    said: dict[str, Any] = {"type": "hello", "token": token, "since": since}
    if language is not None:
        said["language"] = language
    ws.send_text(json.dumps(said))
    return receive(ws)


def until_my_turn(ws: WebSocketTestSession, first: dict[str, Any]) -> dict[str, Any]:
    """Read updates until it is seat 0's turn or the game is over."""
    message = first
    while not (
        message.get("type") == "update" and (message["legal"] or message["status"] != "playing")
    ):
        message = receive(ws)
    return message


def test_pages_carry_a_content_security_policy_and_no_secret(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/replay/abc", "/rules/auweier", "/static/table.js", "/api/games"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert answer.headers["referrer-policy"] == "no-referrer"
    assert "Rulings" in client.get("/rules/auweier").text
    assert client.get("/rules/chess").status_code == 404


def test_games_list_every_option_with_its_meaning_and_the_levels_strongest_first(
    client: TestClient,
) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) == set(spieltisch.game_ids())
    eier = games["auf-die-eier"]
    assert eier["options"][0]["name"] == "shared_chicken_ladder" and eier["options"][0]["help"]
    strongest = spieltisch.agents.strongest_agent(spieltisch.load("auf-die-eier"))
    assert eier["levels"][0] == strongest and "random" in eier["levels"]
    assert games["awimbawe"]["min_players"] == games["awimbawe"]["max_players"] == 2


def test_a_table_is_made_joined_started_and_listed(client: TestClient) -> None:
    made = make_table(client)
    assert len(made["host"]) >= 43 and len(made["seat"][0]) >= 43  # 256 random bits
    assert "#seat=" in made["seat_links"]["0"] and "?" not in made["seat_links"]["0"]
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby["open"]] == [made["id"]] and lobby["open"][0]["seats_free"] == 1
    start = client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    assert start.status_code == 409 and "seat 1 is still free" in start.json()["detail"]
    german = client.post(
        f"/api/tables/{made['id']}/start",
        headers={"Authorization": f"Bearer {made['host']}", "Accept-Language": "de-DE,de;q=0.9"},
    )
    assert german.status_code == 409  # the same refusal, in the page's language
    assert german.json()["detail"] == translation("de").gettext(
        "seat {seats} is still free: its person has not joined yet"
    ).format(seats="1")
    assert "Platz" in german.json()["detail"]
    lost = client.get("/api/tables/nope", headers={"Accept-Language": "de"})
    assert lost.status_code == 404 and lost.json()["detail"] == translation("de").gettext(
        "no such table"
    )
    joined = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "  Ann  "}
    )
    assert joined.json() == {"seat": 0, "name": "Ann"}
    start = client.post(
        f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['host']}"}
    )
    assert start.status_code == 200 and start.json()["status"] == "playing"
    assert [t["id"] for t in client.get("/api/tables").json()["playing"]] == [made["id"]]
    about = client.get(f"/api/tables/{made['id']}").json()
    assert about["seats"][0]["name"] == "Ann" and "token" not in json.dumps(about)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess", "seats": [{"kind": "person"}]}, 422),
        ({"game": "auf-die-eier", "seats": [{"kind": "person"}]}, 400),
        ({"game": "auf-die-eier", "seats": [{"kind": "dragon"}, {"kind": "person"}]}, 422),
        ({"game": "auf-die-eier", "seats": [{"kind": "bot", "level": "chess-engine"}] * 2}, 400),
        (
            {"game": "auf-die-eier", "seats": [{"kind": "person"}] * 2, "options": {"nope": True}},
            422,
        ),
        (
            {
                "game": "auf-die-eier",
                "seats": [{"kind": "person"}] * 2,
                "options": {"shared_chicken_ladder": "yes"},
            },
            422,
        ),
        (
            {"game": "auf-die-eier", "seats": [{"kind": "person"}] * 2, "options": {"goal": 5}},
            422,
        ),
        ({"game": "auf-die-eier", "players": 9, "seats": [{"kind": "person"}] * 2}, 422),
        ({"game": "auf-die-eier", "seats": [{"kind": "person"}] * 2, "extra": 1}, 422),
    ],
)
def test_bad_tables_are_refused_with_a_reason(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]
    assert client.get("/api/tables").json()["open"] == []


def test_oversized_requests_and_unknown_tables_and_wrong_tokens_are_refused(
    client: TestClient,
) -> None:
    big = client.post(
        "/api/tables",
        content=b"{" + b" " * 20_000 + b"}",
        headers={"Content-Type": "application/json"},
    )
    assert big.status_code == 413
    assert client.get("/api/tables/nope").status_code == 404
    made = make_table(client)
    wrong = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["host"], "name": "Eve"}
    )
    assert wrong.status_code == 403
    for token in ("", made["seat"][0], "x" * 100):
        start = client.post(
            f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert start.status_code == 403
    named = client.post(
        f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "x" * 41}
    )
    assert named.status_code == 400 and "at most" in named.json()["detail"]


def test_a_seat_plays_over_its_socket_and_a_stale_or_illegal_move_is_rejected(
    client: TestClient,
) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = until_my_turn(ws, hello(ws, made["seat"][0]))
        assert first["seat"] == 0 and first["to_act"] == 0 and first["events"]
        assert {"id", "text", "label"} <= set(first["legal"][0])
        version = first["version"]
        ws.send_text(json.dumps({"type": "move", "text": "reroll R", "version": version}))
        refused = receive(ws)
        assert refused == {"type": "rejected", "reason": refused["reason"], "version": version}
        assert "Rotten Eggs stay set aside" in refused["reason"]
        ws.send_text(json.dumps({"type": "move", "text": "stop", "version": version - 1}))
        stale = receive(ws)
        assert (
            stale["type"] == "rejected"
            and stale["version"] == version
            and "version" in stale["reason"]
        )
        ws.send_text(json.dumps({"type": "move", "id": 0, "version": version}))
        after = receive(ws)
        assert after["type"] == "update" and after["version"] > version
        assert after["events"][0]["sentence"] == "Ann stops."


def test_a_page_in_german_is_told_the_game_and_its_refusals_in_german(
    client: TestClient,
) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = until_my_turn(ws, hello(ws, made["seat"][0], language="de"))
        throws = [e["sentence"] for e in first["events"] if e["actor"] is None]
        assert throws and all(s.startswith("Ann") and "throws" not in s for s in throws)
        labels = {m["text"]: m["label"] for m in first["legal"]}
        assert labels["stop"] != "stop and score"
        ws.send_text(json.dumps({"type": "move", "text": "reroll R", "version": first["version"]}))
        refused = receive(ws)["reason"]
        rule = translation("de").gettext(RotRule.ROTTEN_STAY.value)
        assert rule != RotRule.ROTTEN_STAY.value and rule in refused, refused
        ws.send_text(json.dumps({"type": "move", "text": "stop", "version": first["version"]}))
        after = receive(ws)
        assert after["events"][0]["sentence"] == (
            translation("de").gettext("{player} stops.").format(player="Ann")
        )
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "language": "fr"}))
        assert "the language must be one of en, de" in receive(ws)["reason"]


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("not json", "unknown message"),
        (json.dumps({"type": "castle"}), "unknown message"),
        (json.dumps({"type": "move", "version": 0}), "a move is its text or its id"),
        (json.dumps({"type": "move", "text": "stop"}), "the version it was chosen at"),
        (json.dumps({"type": "move", "id": 10**9, "version": 0}), "action id"),
        (json.dumps({"type": "move", "id": True, "version": 0}), "action id"),
        (json.dumps({"type": "move", "text": "stop", "version": "1"}), "chosen at"),
        (json.dumps({"type": "move", "text": "x" * 5000, "version": 0}), "too long"),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    client: TestClient, message: str, reason: str
) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = until_my_turn(ws, hello(ws, made["seat"][0]))
        ws.send_text(message)
        answer = receive(ws)
        assert answer["type"] in {"error", "rejected"} and reason in answer["reason"]
        assert answer["version"] == first["version"]
    assert client.get(f"/api/tables/{made['id']}").json()["version"] == first["version"]


def test_a_spectator_sees_the_game_but_cannot_move_and_a_bad_hello_is_closed(
    client: TestClient,
) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        watch = hello(ws, None)
        assert watch["seat"] is None and watch["legal"] == []
        ws.send_text(json.dumps({"type": "move", "text": "stop"}))
        assert "spectators cannot move" in receive(ws)["reason"]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        never = hello(ws, made["host"])  # a token that never held a seat here
        assert never["type"] == "stale" and never["seat"] is None
    with client.websocket_connect("/ws/nope") as ws:
        assert receive(ws)["reason"] == "no such table"
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text("hello?")
        assert "JSON hello" in receive(ws)["reason"]


def test_the_socket_refuses_in_the_pages_language(client: TestClient) -> None:
    """Before its hello names the page's language the socket answers in the browser's
    (Accept-Language); after it, in the one named."""
    made = started(client)
    german = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
    with client.websocket_connect("/ws/nope", headers=german) as ws:
        assert receive(ws)["reason"] == "diesen Tisch gibt es nicht"
    with client.websocket_connect(f"/ws/{made['id']}", headers=german) as ws:
        ws.send_text("hello?")
        assert receive(ws)["reason"] == "die erste Nachricht muss ein JSON-Hallo sein"
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": 7, "language": "de"}))
        assert receive(ws)["reason"] == "ein Token ist ein kurzer Text"
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        hello(ws, None, language="de")
        ws.send_text(json.dumps({"type": "dance"}))
        assert receive(ws)["reason"] == "unbekannte Nachricht"
    with client.websocket_connect(f"/ws/{made['id']}", headers=german) as ws:
        hello(ws, None, language="en")  # the page's own choice wins over the browser's
        ws.send_text(json.dumps({"type": "dance"}))
        assert receive(ws)["reason"] == "unknown message"


def test_a_flood_is_slowed_down(client: TestClient) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        hello(ws, None)
        for _ in range(40):
            ws.send_text(json.dumps({"type": "ping"}))
        answers = [receive(ws) for _ in range(40)]
        assert sum(a["type"] == "pong" for a in answers) <= 25
        assert any("slow down" in a.get("reason", "") for a in answers)


def test_a_reconnection_resumes_from_its_version_with_nothing_missed(client: TestClient) -> None:
    made = started(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = until_my_turn(ws, hello(ws, made["seat"][0]))
        ws.send_text(json.dumps({"type": "move", "text": "stop", "version": first["version"]}))
        later = receive(ws)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        again = hello(ws, made["seat"][0], since=first["version"])
        assert [e["version"] for e in again["events"]] == list(
            range(first["version"] + 1, again["version"] + 1)
        )
        assert again["version"] >= later["version"]


def test_the_host_hands_a_seat_to_a_bot_and_back_with_a_new_token(client: TestClient) -> None:
    made = started(client)
    host = {"Authorization": f"Bearer {made['host']}"}
    to_bot = client.post(
        f"/api/tables/{made['id']}/seats/0/bot", json={"level": "random"}, headers=host
    )
    assert to_bot.status_code == 200 and to_bot.json()["name"] == "Bot Anton"
    back = client.post(f"/api/tables/{made['id']}/seats/0/person", headers=host)
    new_token = back.json()["seat_link"].split("#seat=")[1]
    assert new_token != made["seat"][0]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        dead = hello(ws, made["seat"][0])  # the old token is dead, and says whose it was
        assert dead["type"] == "stale" and dead["seat"] == 0 and dead["reason"] == "bot"
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        assert hello(ws, new_token)["seat"] == 0
    bad = client.post(
        f"/api/tables/{made['id']}/seats/7/bot", json={"level": "random"}, headers=host
    )
    assert bad.status_code == 400


def bots_play_awimbawe(
    client: TestClient, levels: tuple[str, str], seed: int
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A table of two bots of ``levels``, started and watched to its end: the table as made,
    the host's token and the last message (its result)."""
    seats = [{"kind": "bot", "level": level} for level in levels]
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats, "seed": seed})
    table: dict[str, Any] = made.json()
    host = table["host_link"].split("#host=")[1]
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 403
    client.post(f"/api/tables/{table['id']}/start", headers={"Authorization": f"Bearer {host}"})
    with client.websocket_connect(f"/ws/{table['id']}") as ws:
        message = hello(ws, None)
        while message.get("status") != "finished":
            message = receive(ws)
        assert message["result"]["winners"]
    return table, host, message


def test_a_bots_only_game_plays_to_the_end_and_its_record_replays(client: TestClient) -> None:
    made, host, message = bots_play_awimbawe(client, ("heuristic", "random"), 5)
    record = Record.loads(client.get(f"/api/tables/{made['id']}/record").text)
    final = replay(spieltisch.load_record(record), record)
    assert final.is_terminal() and sorted(final.winners()) == message["result"]["winners"]
    step = client.get(f"/api/tables/{made['id']}/replay", params={"at": 3, "seat": 1}).json()
    assert step["version"] == 3 and len(step["events"]) == 3 and step["viewer"] == 1
    rematch = client.post(
        f"/api/tables/{made['id']}/rematch", headers={"Authorization": f"Bearer {host}"}
    )
    assert rematch.status_code == 201
    again = client.get(f"/api/tables/{rematch.json()['id']}").json()
    assert again["status"] == "open" and [s["level"] for s in again["seats"]] == [
        "heuristic",
        "random",
    ]


def test_the_learned_level_seats_where_a_policy_is_shipped_and_plays_to_the_end(
    client: TestClient,
) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert "learned" in games["auf-die-eier"]["levels"] and "learned" in games["awimbawe"]["levels"]
    assert "learned" not in games["auweier"]["levels"]
    by_players = games["auf-die-eier"]["levels_at"]
    assert "learned" in by_players["2"] and "learned" not in by_players["3"]
    bots_play_awimbawe(client, ("learned", "random"), 9)
    # only at the table it learned at: not for three players
    three = [{"kind": "bot", "level": "learned"}] + [{"kind": "bot", "level": "random"}] * 2
    asked = {"game": "auf-die-eier", "players": 3, "seats": three}
    refused = client.post("/api/tables", json=asked)
    assert refused.status_code == 400 and "learned" in refused.text


def test_the_levels_follow_the_tables_options(client: TestClient) -> None:
    """The lobby asks which levels a table of its settings offers: the trained policy only at
    the table it learned at (two players, the rulebook's options)."""

    def levels(**asked: object) -> list[str]:
        answer = client.post("/api/levels", json={"game": "auf-die-eier", **asked})
        assert answer.status_code == 200, answer.text
        found: list[str] = answer.json()["levels"]
        return found

    assert "learned" in levels(players=2) and "learned" in levels(players=2, options={"goal": 100})
    assert "learned" not in levels(players=2, options={"goal": 50})
    assert "learned" not in levels(players=3)
    three = spieltisch.load("auf-die-eier", 3)
    assert levels(players=3) == list(spieltisch.agents.agent_names(three))  # strongest first
    for wrong in ({"goal": 5000}, {"colour": "blue"}):
        refused = client.post("/api/levels", json={"game": "auf-die-eier", "options": wrong})
        assert refused.status_code == 422
    assert client.post("/api/levels", json={"game": "chess"}).status_code == 422


def test_an_open_table_expires_and_cannot_start(tmp_path: Path) -> None:
    settings = Settings(
        database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, expire_after=-1.0
    )
    with TestClient(create_app(settings)) as client:
        made = make_table(client, bots=1)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert client.portal is not None
        assert client.portal.call(hub.upkeep.expire) == 1
        assert client.get(f"/api/tables/{made['id']}").json()["status"] == "expired"
        client.post(
            f"/api/tables/{made['id']}/join", json={"token": made["seat"][0], "name": "Ann"}
        )
        host = {"Authorization": f"Bearer {made['host']}"}
        start = client.post(f"/api/tables/{made['id']}/start", headers=host)
        assert start.status_code == 409 and "expired" in start.json()["detail"]


def test_hints_come_only_where_the_host_allows_them_and_only_to_the_seat_to_move(
    client: TestClient,
) -> None:
    plain = started(client)
    with client.websocket_connect(f"/ws/{plain['id']}") as ws:
        first = until_my_turn(ws, hello(ws, plain["seat"][0]))
        assert first["hints"] is False
        ws.send_text(json.dumps({"type": "hint"}))
        assert "not allowed hints" in receive(ws)["reason"]
    allowed = started(client, hints=True)
    with client.websocket_connect(f"/ws/{allowed['id']}") as ws:
        first = until_my_turn(ws, hello(ws, allowed["seat"][0]))
        assert first["hints"] is True
        ws.send_text(json.dumps({"type": "hint"}))
        advice = receive(ws)
        assert advice["type"] == "hint" and advice["version"] == first["version"]
        labels = {move["label"] for move in first["legal"]}
        assert any(advice["text"].startswith(f"{label}: ") for label in labels), advice
        assert "points this turn" in advice["text"]  # the expert's unit, in words
    with client.websocket_connect(f"/ws/{allowed['id']}") as ws:
        first = until_my_turn(ws, hello(ws, allowed["seat"][0], language="de"))
        ws.send_text(json.dumps({"type": "hint"}))
        advice = receive(ws)
        labels = {move["label"] for move in first["legal"]}  # German labels
        assert any(advice["text"].startswith(f"{label}: ") for label in labels), advice
        assert "points" not in advice["text"]
    with client.websocket_connect(f"/ws/{allowed['id']}") as ws:
        hello(ws, None)
        ws.send_text(json.dumps({"type": "hint"}))
        assert "whose turn it is" in receive(ws)["reason"]


def closed_for_lag(connection: Connection) -> bool:
    """Whether the hub closed ``connection`` because it fell behind."""
    return connection.closed and connection.lagging


def test_a_connection_that_falls_too_far_behind_is_closed_to_resync(tmp_path: Path) -> None:
    hub = Hub(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", queue_limit=3))
    try:
        slow = Connection(None, asyncio.Queue(maxsize=3))
        for number in range(3):
            slow.send({"type": "update", "version": number})
        assert slow.queue.full() and not slow.lagging
        slow.send({"type": "update", "version": 3})  # one more than its queue holds
        assert closed_for_lag(slow)
        queued = [slow.queue.get_nowait() for _ in range(slow.queue.qsize())]
        assert queued == [None]  # no half of its backlog: its writer closes it (code 4008)
        slow.send({"type": "update", "version": 4})
        assert slow.queue.qsize() == 0  # nothing more is queued for a closed connection
    finally:
        hub.pool.shutdown()
        hub.database.close()


def test_the_link_count_refusal_keeps_its_number_in_german() -> None:
    said = translation("de").ngettext(
        "this link is open in %(pages)d page already: close it first",
        "this link is open in %(pages)d pages already: close one first",
        4,
    )
    assert (
        said % {"pages": 4} == "dieser Link ist schon in 4 Seiten offen: schließe erst eine davon"
    )
