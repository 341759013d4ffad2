"""Backups: ``spieltisch backup`` copies a running server's SQLite database, moves still in its
write-ahead log included, and a server started on the copy takes the game up where it was.

A real server plays a table of a person and a bot; the backup is taken mid-game through the
command line while the server runs; a second server opens the backup and serves the table at
the version it had, and its game plays on to the end. Every wait is bounded.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spieltisch.web.store.backup import BackupError, backup, backup_sqlite, pg_dump_command

from .servers import running

WAIT = 20.0


def _spieltisch(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from spieltisch.cli import main; main()", *args]
    env = {"SPIELTISCH_HOME": str(home), "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)


def test_a_backup_taken_mid_game_opens_where_the_game_was(tmp_path: Path) -> None:
    database = tmp_path / "spieltisch.db"
    url = f"sqlite:///{database}"
    with running(url) as srv:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
        made = srv.http.post(
            "/api/tables", json={"game": "auf-die-eier", "seats": seats, "seed": 12}
        ).json()
        token = made["seat_links"]["0"].split("#seat=")[1]
        host = made["host_link"].split("#host=")[1]
        srv.http.post(f"/api/tables/{made['id']}/join", json={"token": token, "name": "Ann"})
        srv.http.post(
            f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {host}"}
        )
        with srv.socket(made["id"], token) as ws:
            version = 0
            deadline = time.monotonic() + WAIT
            while version < 12:  # a few turns: moves the backup must hold
                assert time.monotonic() < deadline, "the game did not move on"
                message = json.loads(ws.recv(timeout=WAIT))
                if message["type"] != "update" or message["status"] != "playing":
                    continue
                version = message["version"]
                if message["legal"]:
                    move = {"type": "move", "id": message["legal"][-1]["id"], "version": version}
                    ws.send(json.dumps(move))
            assert (tmp_path / "spieltisch.db-wal").exists()  # recent moves sit in the log
            copy = tmp_path / "backup" / "spieltisch.db"
            answer = _spieltisch("backup", str(copy), home=tmp_path)
            assert answer.returncode == 0, answer.stderr
            assert "checked" in answer.stdout
            kept = srv.http.get(f"/api/tables/{made['id']}").json()["version"]
    assert kept >= 12
    assert not copy.with_name("spieltisch.db-wal").exists()  # one file, on its own
    with running(f"sqlite:///{copy}") as again:
        about = again.http.get(f"/api/tables/{made['id']}").json()
        assert about["status"] == "playing" and about["version"] >= 12
        with again.socket(made["id"], token) as ws:
            deadline = time.monotonic() + 3 * WAIT
            while True:
                assert time.monotonic() < deadline, "the restored game did not finish"
                message = json.loads(ws.recv(timeout=WAIT))
                if message["type"] != "update":
                    continue
                if message["status"] == "finished":
                    break
                if message["legal"]:
                    move = {
                        "type": "move",
                        "id": message["legal"][0]["id"],
                        "version": message["version"],
                    }
                    ws.send(json.dumps(move))


def test_a_backup_never_overwrites_and_postgres_is_pointed_to_pg_dump(tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    source.write_bytes(b"")
    with pytest.raises(BackupError, match="never overwrites"):
        backup_sqlite(source, source)
    with pytest.raises(BackupError, match="no database"):
        backup_sqlite(tmp_path / "missing.db", tmp_path / "b.db")
    said = backup("postgresql+psycopg://ann:secret@db.example:5433/tables", tmp_path / "t.dump")
    assert "pg_dump --format=custom" in said and "--port=5433" in said and "tables" in said
    assert "secret" not in said  # no password in a line that may be logged
    assert pg_dump_command("postgresql://db/x", tmp_path / "x").endswith(" x")
