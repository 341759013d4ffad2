"""Dice anyone can verify: committed before the first move, revealed at the end, checked.

A table made without a seed commits to a secret; each person's salt goes into the seed at the
start; every update shows the commitment, and the last one the secret; `spieltisch verify`,
the session's verify and the server's /api/verify accept the record, and refuse it when a roll,
the secret, a salt or the seed has been tampered with.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import spieltisch
from spieltisch.cli import app as cli
from spieltisch.core import fair
from spieltisch.core.errors import RecordError
from spieltisch.core.record import Record
from spieltisch.session import verify
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app

pytestmark = pytest.mark.timeout(180)


def play_fair_game(tmp_path: Path) -> tuple[list[dict[str, Any]], str]:
    """A fair two-player Auf die Eier table, one person (always stopping) against a bot: every
    update the person's page got, and the record served at the end."""
    settings = Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1, bot_pause=0)
    with TestClient(create_app(settings)) as client:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
        made = client.post("/api/tables", json={"game": "auf-die-eier", "seats": seats}).json()
        table = made["id"]
        token = made["seat_links"]["0"].split("#seat=")[1]
        host = {"Authorization": f"Bearer {made['host_link'].split('#host=')[1]}"}
        updates = []
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token, "since": 0}))
            updates.append(ws.receive_json())
            salt = "0123456789abcdef" * 2
            joined = client.post(
                f"/api/tables/{table}/join", json={"token": token, "name": "Ann", "salt": salt}
            )
            assert joined.status_code == 200
            assert client.post(f"/api/tables/{table}/start", headers=host).status_code == 200
            while updates[-1].get("status") != "finished":
                message = ws.receive_json()
                if message["type"] != "update":
                    continue
                updates.append(message)
                if message["legal"]:
                    ws.send_text(
                        json.dumps({"type": "move", "text": "stop", "version": message["version"]})
                    )
        record = client.get(f"/api/tables/{table}/record").text
        checked = client.post(
            "/api/verify", content=record, headers={"Content-Type": "application/json"}
        )
        assert checked.status_code == 200 and checked.json()["ok"] is True
        forged = tamper_roll(Record.loads(record)).dumps()
        refused = client.post(
            "/api/verify", content=forged, headers={"Content-Type": "application/json"}
        )
        assert refused.status_code == 422 and "do not check out" in refused.json()["detail"]
    return updates, record


def tamper_roll(record: Record) -> Record:
    """The record with its first roll replaced by another throw of the same dice."""
    first = record.moves[0]
    other = "roll WWWWWWWWW" if first != "roll WWWWWWWWW" else "roll HHHHHHHHH"
    return Record(record.game, record.players, record.options, (other, *record.moves[1:]),
                  record.seed, record.seats, record.dictated, record.fair)  # fmt: skip


def test_the_commitment_comes_before_the_first_move_and_the_secret_at_the_end(
    tmp_path: Path,
) -> None:
    updates, text = play_fair_game(tmp_path)
    promised = updates[0]["fair"]["commitment"]
    assert updates[0]["version"] == 0 and "secret" not in updates[0]["fair"]
    assert all(u["fair"]["commitment"] == promised for u in updates)
    assert all("secret" not in u["fair"] for u in updates if u["status"] != "finished")
    last = updates[-1]["fair"]
    record = Record.loads(text)
    assert record.fair is not None and record.fair.commitment == promised
    assert fair.commitment(record.fair.table, last["secret"]) == promised
    assert record.fair.salts[0] == "0123456789abcdef" * 2 and last["seed"] == str(record.seed)
    checked = verify(spieltisch.load_record(record), record)
    assert checked.finished and checked.chance_steps > 10


def test_verify_accepts_the_record_and_refuses_every_kind_of_tampering(tmp_path: Path) -> None:
    _, text = play_fair_game(tmp_path)
    record = Record.loads(text)
    game = spieltisch.load_record(record)
    assert record.fair is not None
    with pytest.raises(RecordError, match="move 0: chance drew"):
        verify(game, tamper_roll(record))
    other_secret = fair.FairDice(
        record.fair.table, record.fair.commitment, "00" * 32, record.fair.salts
    )
    with pytest.raises(RecordError, match="does not match the commitment"):
        verify(
            game,
            Record(
                record.game,
                record.players,
                record.options,
                record.moves,
                record.seed,
                record.seats,
                (),
                other_secret,
            ),
        )
    other_salt = fair.FairDice(
        record.fair.table, record.fair.commitment, record.fair.secret, ("ff", "")
    )
    with pytest.raises(RecordError, match="seed is not the one"):
        verify(
            game,
            Record(
                record.game,
                record.players,
                record.options,
                record.moves,
                record.seed,
                record.seats,
                (),
                other_salt,
            ),
        )
    with pytest.raises(RecordError, match="no fair-dice proof"):
        verify(game, Record(record.game, record.players, record.options, record.moves, record.seed))


def test_the_verify_command_says_what_it_checked_and_fails_on_a_tampered_roll(
    tmp_path: Path,
) -> None:
    _, text = play_fair_game(tmp_path)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(text)
    bad.write_text(tamper_roll(Record.loads(text)).dumps())
    runner = CliRunner()
    ok = runner.invoke(cli, ["verify", str(good)])
    assert ok.exit_code == 0, ok.output
    assert "matches the commitment" in ok.output and "are the ones that seed draws" in ok.output
    refused = runner.invoke(cli, ["verify", str(bad)])
    assert (
        refused.exit_code == 2
        and "do not check out" in refused.output
        and "move 0" in refused.output
    )


def test_a_salt_changes_the_seed_and_bad_salts_are_refused() -> None:
    secret = "ab" * 32
    assert fair.seed_of("t1", secret, ["01", ""]) != fair.seed_of("t1", secret, ["02", ""])
    assert fair.seed_of("t1", secret, ["01"]) != fair.seed_of("t2", secret, ["01"])
    assert 0 <= fair.seed_of("t1", secret, []) < 2**62
    for bad in ("XYZ", "a" * 65, 12):
        with pytest.raises(ValueError, match="hexadecimal"):
            fair.check_salt(bad)
    assert fair.check_salt(None) == ""
