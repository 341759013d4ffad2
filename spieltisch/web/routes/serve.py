"""``spieltisch serve``: start the server under uvicorn and say where to open it.

One process by default. ``workers`` > 1 starts that many server processes behind one port
(uvicorn's workers share the listening socket; the kernel hands each new connection to one of
them, and uvicorn starts a worker again if one dies). They need PostgreSQL: the processes
tell each other what changed through it (:mod:`~spieltisch.web.cluster.fanout`) and one process at a
time moves each table (:mod:`~spieltisch.web.cluster.leases`). The database is migrated once, before
the workers start; each worker reads its settings from :data:`SETTINGS_VARIABLE`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import webbrowser

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.heap import manage_heap
from spieltisch.web.store.db import migrate

MAX_SOCKET_MESSAGE = 65_536
"""Bytes uvicorn accepts in one WebSocket frame; the app's own limit is far below."""
MAX_WORKERS = 64
SETTINGS_VARIABLE = "SPIELTISCH_SERVE_SETTINGS"
"""The environment variable that hands a worker process the server's settings (JSON)."""


class WorkersError(ValueError):
    """More than one server process asked for where they cannot work together."""


LOOPBACK = frozenset({"", "0.0.0.0", "::", "127.0.0.1", "::1", "localhost"})
"""Hosts whose address to open is ``localhost``: the loopback ones, the default, and every
interface (which includes the loopback one)."""


def address(host: str, port: int) -> str:
    """The address to open in a browser: by a name, so that passkeys work there (an IP
    address cannot be a WebAuthn relying party); ``localhost`` for the loopback."""
    shown = "localhost" if host.strip("[]") in LOOPBACK else host
    if ":" in shown:  # an IPv6 address other than the loopback: bracketed in a URL
        shown = f"[{shown.strip('[]')}]"
    return f"http://{shown}:{port}/"


def check_workers(workers: int, settings: Settings) -> None:
    """Refuse a number of server processes the database cannot serve."""
    if not 1 <= workers <= MAX_WORKERS:
        raise WorkersError(f"--workers takes 1 to {MAX_WORKERS}, not {workers}")
    if workers > 1 and not settings.database_url().startswith("postgresql"):
        raise WorkersError(
            f"--workers {workers} needs PostgreSQL (--db postgresql+psycopg://user:password@"
            "host/database): the processes tell each other every move through it. SQLite "
            "serves one process; leave --workers out"
        )


def worker_app() -> FastAPI:
    """The app of one worker process (uvicorn's factory), with the settings the starting
    process handed down."""
    fields = json.loads(os.environ[SETTINGS_VARIABLE])
    manage_heap()
    return create_app(Settings(**fields))


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str = "",
    open_browser: bool = False,
    bot_workers: int = 2,
    bot_pause: float = 0.8,
    trust_proxy: bool = False,
    stall_ms: float = 0.0,
    workers: int = 1,
    rp_id: str = "",
    heavy_bots_for_all: bool = False,
) -> None:
    """Run the server until it is stopped (Ctrl-C); ``rp_id``: the host name passkeys belong
    to (:attr:`Settings.rp_id`; :class:`~spieltisch.web.common.settings.SettingsError` if it
    is not one); ``heavy_bots_for_all``: hosts not signed in may seat the heaviest bots too
    (else as ``SPIELTISCH_HEAVY_BOTS`` says)."""
    settings = Settings(
        database=database,
        bot_workers=bot_workers,
        bot_pause=bot_pause,
        trust_proxy=trust_proxy,
        stall_ms=stall_ms,
        rp_id=rp_id,
        **({"heavy_bots_for_all": True} if heavy_bots_for_all else {}),
    )
    check_workers(workers, settings)
    url = address(host, port)
    processes = f", {workers} processes" if workers > 1 else ""
    shown = make_url(settings.database_url()).render_as_string(hide_password=True)
    print(f"spieltisch is serving at {url} (database: {shown}{processes})", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    common = {
        "host": host, "port": port, "ws_max_size": MAX_SOCKET_MESSAGE, "log_level": "warning",
        "access_log": False, "proxy_headers": trust_proxy,
    }  # fmt: skip
    if workers > 1:
        migrate(settings.database_url())  # once, not raced by the workers
        os.environ[SETTINGS_VARIABLE] = json.dumps(dataclasses.asdict(settings))
        worker = "spieltisch.web.routes.serve:worker_app"
        uvicorn.run(worker, factory=True, workers=workers, **common)  # type: ignore[arg-type]
        return
    collections = manage_heap()
    try:
        uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
    finally:
        collections.set()
