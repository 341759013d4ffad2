"""No viewer can count a hidden deck, on any channel: twins through the live server.

Issue 48: how a seat builds its Auweier deck (one shuffle, or twenty-two cards by hand) is that
seat's secret. Two tables are made alike (the same seed, seats, names and house rules) and
differ only in how one seat builds its deck. Each runs on a server of its own (uvicorn on a
real port) whose clock the test moves, so both see the same times: the hidden phase takes the
same time in both, spread over however many steps it has. Every other viewer (each other seat
and a spectator) keeps a socket open from the first move to the first normal move after the
decks, and every byte it receives (every message type, in order, with its timestamps) must be
the same in both twins; so must every public route's answer, asked after every hidden step,
and the same as before the step. This runs without a clock, with a live clock and with a
relaxed one, for two and for four players.

Only Auweier's decks are private runs (``test_private_runs_happen_only_where_a_deck_is_built``
in ``test_leak.py`` walks every game and player count). The other game that hides anything is
Awimbawé (hands and face-down cards; Auf die Eier and Auf die Nüsse hide nothing): two deals
the first seat cannot tell apart go through live servers the same way, with the moves both
allow while the engine says nothing public differs. A pace paid once for a bot's deck, and
pages on another process (PostgreSQL), complete the channels.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

import spieltisch
from spieltisch.session import Table
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.tables import bot_turns
from spieltisch.web.tables.clock import ManualClock
from tests.web.conftest import ThreadServer
from tests.web.servers import Server, own_database, running

pytestmark = pytest.mark.timeout(300)

HIDDEN_TIME = 64.0
"""Seconds the builder's deck takes in every twin, however many steps it has."""
ONE_BY_ONE = "1 1 1 2 2 2* 3 3 4 4 5* 6 7 F K K H H H H H H"
SCRIPTS = {
    "shuffled at once": ["deck shuffle"],
    "five Weddings, then shuffled": ["deck H"] * 5 + ["deck shuffle"],
    "all by hand, one card at a time": [f"deck {card}" for card in ONE_BY_ONE.split(" ")],
}
ROOMY = {"rate_burst": 1_000, "heavy_burst": 1_000, "replay_burst": 1_000}
"""The twins' servers' allowances: deck steps come fast, and every public route is asked
after each (the allowances are the asker's, not the table's: they would only get in the
way)."""
CLOCKS: dict[str, dict[str, Any]] = {
    "no clock": {},
    "live clock": {"clock": "live", "bank": 300, "increment": 10},
    "relaxed clock": {"clock": "relaxed", "per_move": 3600},
}


class Viewer:
    """A socket at the table that keeps every text it receives."""

    def __init__(self, server: ThreadServer | Server, table_id: str, token: str | None) -> None:
        base = server.url if isinstance(server, ThreadServer) else server.base
        url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        self._open = ExitStack()
        self.socket: ClientConnection = self._open.enter_context(connect(url, open_timeout=10))
        self.socket.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        self.received: list[str] = []
        self.version = 0

    def _next(self) -> dict[str, Any]:
        text = str(self.socket.recv(timeout=10))
        self.received.append(text)
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "update":
            self.version = int(message["version"])
        return message

    def until(self, *kinds: str, limit: int = 200) -> dict[str, Any]:
        """Read (keeping everything) up to the next message of one of the types ``kinds``."""
        for _ in range(limit):
            message = self._next()
            if message.get("type") in kinds:
                return message
        raise AssertionError(f"no {kinds} message in {limit}")

    def settle(self) -> None:
        """Read everything the server queued for this socket so far (a ping's pong comes
        after it)."""
        self.socket.send(json.dumps({"type": "ping"}))
        self.until("pong")

    def move(self, text: str) -> None:
        """Play ``text`` at the version last seen, and read up to the table's answer."""
        self.settle()
        self.socket.send(json.dumps({"type": "move", "text": text, "version": self.version}))
        answer = self.until("update", "rejected", "error")
        assert answer["type"] == "update", answer

    def close(self) -> None:
        self._open.close()


def _answer(server: ThreadServer, path: str) -> str:
    """A public route's answer (its status and body) as any visitor gets it."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as answer:
            return f"{answer.status} {answer.read().decode()}"
    except urllib.error.HTTPError as refused:
        return f"{refused.code} {refused.read().decode()}"


def _public(server: ThreadServer, table_id: str) -> dict[str, str]:
    """Every public route's answer about the table (the lobby's row of it)."""
    answers = {
        path: _answer(server, path.replace("ID", table_id))
        for path in (
            "/api/tables/ID", "/api/tables/ID/record", "/api/tables/ID/replay",
            "/api/tables/ID/analysis/0", "/t/ID",
        )
    }  # fmt: skip
    lobby = json.loads(_answer(server, "/api/tables").split(" ", 1)[1])
    rows = [row for kind in lobby.values() for row in kind if row.get("id") == table_id]
    answers["/api/tables"] = json.dumps(rows, sort_keys=True)
    return answers


def _seated(
    server: ThreadServer, game: str, players: int, seed: int, rules: dict[str, Any]
) -> tuple[str, dict[int, str]]:
    """A table of ``players`` people made with ``seed`` and ``rules``, every seat joined (Ada,
    Bo, Cy, Di) and the game started: its id and its seats' tokens."""
    seats = [{"kind": "person"}] * players
    body = {"game": game, "players": players, "seats": seats, "seed": seed, "rules": rules}
    made = server.call("POST", "/api/tables", body)
    table_id, host = made["id"], made["host_link"].split("#host=")[1]
    tokens = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
    for seat, token in tokens.items():
        name = ("Ada", "Bo", "Cy", "Di")[seat]
        server.call("POST", f"/api/tables/{table_id}/join", {"token": token, "name": name})
    server.call("POST", f"/api/tables/{table_id}/start", token=host)
    return table_id, tokens


@contextmanager
def _server(folder: Path) -> Iterator[ThreadServer]:
    folder.mkdir()
    live = ThreadServer(folder, ManualClock(), **ROOMY)
    live.start()
    try:
        yield live
    finally:
        live.stop()


def _twin(folder: Path, players: int, rules: dict[str, Any], script: list[str]) -> dict[str, Any]:
    """Everything every viewer but the builder received, and every public answer, at a table
    where the builder's deck follows ``script``. The builder is the last seat to build: the
    shuffles after it would draw other cards from the table's generator, which a seeded table
    shows (an unseeded one keeps its seed secret until the game is over)."""
    builder = players - 1
    with _server(folder) as server:
        clock = server.clock
        assert isinstance(clock, ManualClock)
        table_id, tokens = _seated(server, "auweier", players, 29, rules)
        viewers: dict[int, Viewer] = {}
        for seat in [*range(players), -1]:  # -1: a spectator
            viewers[seat] = Viewer(server, table_id, tokens.get(seat))
            viewers[seat].settle()  # in at the table before the next page comes
        others = [v for seat, v in viewers.items() if seat != builder]
        asked: list[dict[str, str]] = []
        try:
            for seat in range(players):
                if seat != builder:
                    clock.advance(4.0)
                    viewers[seat].move("deck shuffle")
                    continue
                for other in others:
                    other.settle()
                before = _public(server, table_id)
                for step, text in enumerate(script):
                    last = step == len(script) - 1
                    clock.advance(HIDDEN_TIME - 2.0 * step if last else 2.0)
                    viewers[builder].move(text)
                    if not last:  # the run is under way: nothing anyone may ask has changed
                        assert _public(server, table_id) == before, f"step {step} shows"
                asked.append(_public(server, table_id))
            for other in others:
                other.settle()
            clock.advance(5.0)  # the decks are built: time runs on for the seat to move
            for other in others:
                other.settle()
            asked.append(_public(server, table_id))
            assert _to_act(viewers[-1]) != builder, "the run ended: another seat is to move"
        finally:
            for viewer in viewers.values():
                viewer.close()
        received = {
            seat: [text.replace(table_id, "TABLE") for text in v.received]
            for seat, v in viewers.items()
            if seat != builder
        }
        public = [
            {path.replace(table_id, "TABLE"): answer.replace(table_id, "TABLE")
             for path, answer in answers.items()}
            for answers in asked
        ]  # fmt: skip
        return {"received": received, "public": public}


def _last_update(viewer: Viewer) -> dict[str, Any]:
    for text in reversed(viewer.received):
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "update":
            return message
    raise AssertionError("no update received")


def _to_act(viewer: Viewer) -> int:
    seat = _last_update(viewer).get("to_act")
    assert isinstance(seat, int), "someone is to move after the decks"
    return seat


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("players", [2, 4])
def test_how_a_deck_was_built_changes_no_byte_any_other_viewer_receives_or_can_ask_for(
    tmp_path: Path, players: int, clock: str
) -> None:
    runs = {
        name: _twin(tmp_path / f"twin-{n}", players, CLOCKS[clock], script)
        for n, (name, script) in enumerate(SCRIPTS.items())
    }
    first_name, first = next(iter(runs.items()))
    kinds = {json.loads(text)["type"] for texts in first["received"].values() for text in texts}
    assert {"update", "seats", "notes", "pong"} <= kinds  # the channels compared carry data
    for name, run in runs.items():
        for seat, texts in first["received"].items():
            assert run["received"][seat] == texts, (
                f"seat {seat} tells '{name}' from '{first_name}' ({clock}, {players} players)"
            )
        assert run["public"] == first["public"], f"a public route tells '{name}' ({clock})"


# --- a bot's deck is paced once -----------------------------------------------------------


def test_a_bot_building_its_deck_by_hand_is_paced_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move waits out its level's pace after the last move (so its thinking never
    tells how many moves it had); a deck the heuristic builds card by card is one run, paced
    at its first step only: 22 paced steps would show their count in how long they took."""
    paced: list[str] = []

    def pace(level: str, pause: float) -> float:
        paced.append(level)
        return 0.0

    monkeypatch.setattr(bot_turns, "level_pace", pace)
    settings = Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_pause=0.001)
    with TestClient(create_app(settings, ManualClock())) as client:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
        made = client.post(
            "/api/tables", json={"game": "auweier", "players": 2, "seats": seats, "seed": 3}
        ).json()
        token = made["seat_links"]["0"].split("#seat=")[1]
        client.post(f"/api/tables/{made['id']}/join", json={"token": token, "name": "Ada"})
        host = made["host_link"].split("#host=")[1]
        client.post(f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {host}"})
        with client.websocket_connect(f"/ws/{made['id']}") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token, "since": 0}))
            version = _next_update(socket, lambda m: m.get("to_act") == 0)["version"]
            socket.send_text(
                json.dumps({"type": "move", "text": "deck shuffle", "version": version})
            )
            _next_update(socket, lambda m: m["version"] > version + 1)  # the bot's deck is built
    assert paced == ["heuristic"], f"the bot's deck was paced {len(paced)} times"


def _next_update(socket: Any, wanted: Any, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = socket.receive_json()
        if message.get("type") == "update" and wanted(message):
            return message
    raise AssertionError("the update did not come")


# --- another process's pages hear nothing either --------------------------------------------

URL = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")


@pytest.mark.skipif(not URL, reason="SPIELTISCH_TEST_POSTGRES is not set")
def test_pages_on_another_process_hear_nothing_of_a_deck_being_built() -> None:
    """The builder plays on one process, the other seat and a spectator watch on another
    (PostgreSQL): while the deck is built card by card, their sockets receive nothing and the
    other process answers the same version; the deck's end reaches them as one step."""
    with own_database(URL, "leak") as url, running(url) as one, running(url) as two:
        seats = [{"kind": "person"}, {"kind": "person"}]
        made = one.http.post(
            "/api/tables", json={"game": "auweier", "players": 2, "seats": seats, "seed": 29}
        ).json()
        table_id, host = made["id"], made["host_link"].split("#host=")[1]
        tokens = {int(k): v.split("#seat=")[1] for k, v in made["seat_links"].items()}
        for seat, token in tokens.items():
            one.http.post(f"/api/tables/{table_id}/join", json={"token": token, "name": f"P{seat}"})
        one.http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
        opponent = Viewer(two, table_id, tokens[0])
        spectator = Viewer(two, table_id, None)
        builder = Viewer(one, table_id, tokens[1])
        try:
            for viewer in (opponent, spectator, builder):
                viewer.settle()
            for viewer in (opponent, spectator):  # the builder's presence reached process two
                _until_everyone_here(viewer)
            opponent.move("deck shuffle")
            _until_version(builder, 1)
            for viewer in (opponent, spectator):
                viewer.settle()
            before = two.http.get(f"/api/tables/{table_id}").json()
            heard = [len(opponent.received), len(spectator.received)]
            steps = SCRIPTS["all by hand, one card at a time"]
            for text in steps[:-1]:
                time.sleep(0.12)  # a page may send ten messages a second
                builder.move(text)
            time.sleep(1.0)  # the announcements of every step have long reached process two
            assert two.http.get(f"/api/tables/{table_id}").json() == before
            for viewer, count in zip((opponent, spectator), heard, strict=True):
                viewer.settle()
                said = [json.loads(text)["type"] for text in viewer.received[count:]]
                assert said == ["pong"], f"a page on the other process heard {said}"
            builder.move(steps[-1])
            for viewer in (opponent, spectator):
                assert _until_version(viewer, 2)["to_act"] == 0
        finally:
            for viewer in (opponent, spectator, builder):
                viewer.close()


def _until_version(viewer: Viewer, version: int) -> dict[str, Any]:
    while True:
        message = viewer.until("update")
        if message["version"] >= version:
            return message


def _until_everyone_here(viewer: Viewer) -> None:
    """Read until the last seats message the viewer has shows every seat's person here."""
    while True:
        seats = [json.loads(t) for t in viewer.received if '"type": "seats"' in t]
        if seats and all(s["connected"] for s in seats[-1]["seats"]):
            return
        viewer.until("seats")


# --- a hidden hand: twins dealt differently ----------------------------------------------------

DEALT_CLOCKS = {"no clock": {}, "live clock": {"clock": "live", "bank": 300, "increment": 10}}


def _twin_deal(deal: str) -> str:
    """The Awimbawé deal ``deal`` with the second seat's first face-down card and first hand
    card swapped: the first seat and a spectator see neither."""
    first, second = deal.removeprefix("deal ").split(" | ")
    down, up, hand = (part.split() for part in second.split(" / "))
    down[0], hand[0] = hand[0], down[0]
    return f"deal {first} | {' '.join(down)} / {' '.join(up)} / {' '.join(hand)}"


def _common_moves(starts: tuple[list[str], list[str]], limit: int = 12) -> list[str]:
    """Moves, after the twins' chance steps ``starts``, that both twins allow and that keep
    what the first seat and a spectator see the same in both (the game's engine decides); at
    most ``limit``."""
    tables = [Table(spieltisch.load("awimbawe"), seed=5) for _ in starts]
    for table, chance in zip(tables, starts, strict=True):
        for text in chance:
            table.advance_chance(table.state.parse(text))
    chosen: list[str] = []
    while len(chosen) < limit and all(t.to_act() is not None for t in tables):
        one, two = (t.state for t in tables)
        options = sorted(
            {str(m) for m in one.legal_actions()} & {str(m) for m in two.legal_actions()}
        )
        for text in options:
            after = [state.apply(state.parse(text)) for state in (one, two)]
            if all(after[0].view(v) == after[1].view(v) for v in (0, None)):
                break
        else:
            break  # every move left tells the twins apart: the comparison ends here
        for table in tables:
            table.play_text(text)
        if any(t.to_act() is None for t in tables):
            break  # chance comes (a new round): the twins would draw differently
        chosen.append(text)
    return chosen


def _made(folder: Path, rules: dict[str, Any]) -> tuple[str, dict[int, str], list[str]]:
    """An Awimbawé table made, joined and started on a server that then stops: its id, its
    seats' tokens and the chance steps of its start."""
    folder.mkdir()
    server = ThreadServer(folder, ManualClock())
    server.start()
    try:
        table_id, tokens = _seated(server, "awimbawe", 2, 5, rules)
    finally:
        server.stop()
    engine = sa.create_engine(server.database)
    with engine.connect() as db:
        chance = list(db.execute(
            sa.text("SELECT text FROM moves WHERE table_id = :id ORDER BY idx"), {"id": table_id}
        ).scalars())  # fmt: skip
    engine.dispose()
    return table_id, tokens, chance


def _dealt_twin(folder: Path, deal: str, moves: list[str]) -> dict[str, Any]:
    """What the first seat and a spectator receive, and every public answer, at the table
    :func:`_made` left in ``folder`` once its deal is ``deal`` (written into its record as a
    dictated chance step while the server was down, as a test may dictate the deal) and then
    ``moves`` are played."""
    server = ThreadServer(folder, ManualClock(), **ROOMY)
    engine = sa.create_engine(server.database)
    with engine.begin() as db:
        table_id, tokens = folder.name, json.loads((folder / "tokens.json").read_text())
        db.execute(sa.text("UPDATE moves SET dictated = :yes WHERE table_id = :id"),
                   {"yes": True, "id": table_id})  # fmt: skip
        db.execute(sa.text("UPDATE moves SET text = :text WHERE table_id = :id AND idx = 0"),
                   {"text": deal, "id": table_id})  # fmt: skip
    engine.dispose()
    clock = server.clock
    server.start()
    viewers: dict[int, Viewer] = {}
    try:
        for seat in (0, 1, -1):
            viewers[seat] = Viewer(server, table_id, tokens.get(str(seat)))
            viewers[seat].settle()
        asked = [_public(server, table_id)]
        for text in moves:
            clock.advance(3.0)
            mover = _to_act(viewers[-1])
            viewers[mover].move(text)
            for seat in (0, -1):
                viewers[seat].settle()
            asked.append(_public(server, table_id))
    finally:
        for viewer in viewers.values():
            viewer.close()
        server.stop()
    return {
        "received": {
            seat: [text.replace(table_id, "TABLE") for text in viewers[seat].received]
            for seat in (0, -1)
        },
        "public": [
            {
                path.replace(table_id, "TABLE"): answer.replace(table_id, "TABLE")
                for path, answer in answers.items()
            }
            for answers in asked
        ],
    }


@pytest.mark.parametrize("clock", DEALT_CLOCKS)
def test_a_hand_dealt_otherwise_changes_no_byte_the_other_seat_or_a_spectator_receives(
    tmp_path: Path, clock: str
) -> None:
    """Awimbawé's hidden hands through the live server: two deals the first seat cannot tell
    apart (the second seat's hand and face-down card swapped), the same moves after them while
    the engine says nothing public differs: every byte the first seat and a spectator receive,
    and every public answer, is the same."""
    runs = []
    starts: list[list[str]] = []
    folders = []
    for n in range(2):
        table_id, tokens, chance = _made(tmp_path / f"made-{n}", DEALT_CLOCKS[clock])
        folder = tmp_path / table_id
        (tmp_path / f"made-{n}").rename(folder)
        (folder / "tokens.json").write_text(json.dumps(tokens))
        folders.append(folder)
        starts.append(chance if n == 0 else [_twin_deal(chance[0]), *chance[1:]])
    assert starts[0] != starts[1]
    moves = _common_moves((starts[0], starts[1]))
    assert len(moves) >= 4, "the twins share too few moves to compare"
    for folder, start in zip(folders, starts, strict=True):
        runs.append(_dealt_twin(folder, start[0], moves))
    for seat in (0, -1):
        assert runs[0]["received"][seat] == runs[1]["received"][seat], f"seat {seat} ({clock})"
    assert runs[0]["public"] == runs[1]["public"]
