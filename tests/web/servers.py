"""Real server processes for the persistence tests (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

STARTUP = 30.0
"""Seconds a server may take to answer its first request."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """One server process on the database ``url``, in its own process group (so that its
    bot workers can be found and ended after the server itself was killed)."""

    def __init__(self, url: str, workers: int = 1) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [
            sys.executable, "-m", "spieltisch.web", "--db", url,
            "--port", str(self.port), "--bot-pause", "0", "--bot-workers", "1",
            "--workers", str(workers),
        ]  # fmt: skip
        self.process = subprocess.Popen(  # our own server, fixed arguments
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.group = self.process.pid
        self.http = httpx.Client(base_url=self.base, timeout=10.0, trust_env=False)
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server ended at start: {error}")
            with suppress(httpx.TransportError):
                if self.http.get("/api/games").status_code == 200:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not answer in time")

    def kill(self) -> None:
        """SIGKILL the server process itself (not its workers), as ``kill -9 PID`` does."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """End the server and every process of its group (its bot workers included)."""
        self.http.close()
        with suppress(ProcessLookupError):
            os.killpg(self.group, signal.SIGKILL)
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        if self.process.stderr is not None:
            self.process.stderr.close()

    def group_alive(self) -> list[int]:
        """The processes of the server's group still running (its orphaned workers)."""
        alive = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == self.group and fields[0] != "Z":
                    alive.append(int(entry.name))
        return alive

    def terminate(self) -> None:
        """Stop the server the ordinary way (SIGTERM: uvicorn shuts down)."""
        self.process.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(15)

    def socket(self, table_id: str, token: str | None = None, since: int = 0) -> ClientConnection:
        """A WebSocket at the table for a seat's token (or a spectator's), hello sent."""
        ws = connect(
            f"ws://127.0.0.1:{self.port}/ws/{table_id}", proxy=None, open_timeout=10, legacy=True
        )
        ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        return ws


@contextmanager
def running(url: str, workers: int = 1) -> Iterator[Server]:
    """A server on the database ``url`` (of ``workers`` processes), ended (with its whole
    process group) on the way out."""
    process = Server(url, workers)
    try:
        yield process
    finally:
        process.stop()


DROP_TRIES = 40
"""Tries at dropping a test database that a server's background worker is still in."""


def drop_database(admin: sa.Engine, name: str) -> None:
    """Drop database ``name``, ending its connections. A background worker of PostgreSQL
    (autovacuum, run as the superuser) may be in a database the tests just filled, and the
    test role may not end it: then wait for it to leave and try again."""
    for attempt in range(DROP_TRIES):
        try:
            with admin.connect() as db:
                db.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except (sa.exc.ProgrammingError, sa.exc.OperationalError):
            if attempt == DROP_TRIES - 1:
                raise
            time.sleep(0.25)


@contextmanager
def own_database(url: str, label: str) -> Iterator[str]:
    """A fresh PostgreSQL database beside the one ``url`` names, dropped on the way out.

    A server takes up every table left playing in its database as an orphan, so tables other
    tests left behind in a shared database would cost a test's servers CPU (and its bounds)
    while they play those out. The test role may create databases (``scripts/ci_postgres.sh``).
    """
    base = sa.engine.make_url(url)
    name = f"{base.database}_{label}_{os.getpid()}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        drop_database(admin, name)
        with admin.connect() as db:
            db.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield base.set(database=name).render_as_string(hide_password=False)
        drop_database(admin, name)
    finally:
        admin.dispose()
