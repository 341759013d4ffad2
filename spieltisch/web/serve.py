"""``spieltisch serve``: start the server under uvicorn and say where to open it."""

from __future__ import annotations

import threading
import webbrowser

import uvicorn

from spieltisch.web.app import create_app
from spieltisch.web.heap import manage_heap
from spieltisch.web.settings import Settings

MAX_SOCKET_MESSAGE = 65_536
"""Bytes uvicorn accepts in one WebSocket frame; the app's own limit is far below."""


def address(host: str, port: int) -> str:
    """The address to open in a browser."""
    shown = "127.0.0.1" if host in {"0.0.0.0", ""} else host
    return f"http://{shown}:{port}/"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str = "",
    open_browser: bool = False,
    bot_workers: int = 2,
    bot_pause: float = 0.8,
    trust_proxy: bool = False,
    stall_ms: float = 0.0,
) -> None:
    """Run the server until it is stopped (Ctrl-C)."""
    settings = Settings(
        database=database,
        bot_workers=bot_workers,
        bot_pause=bot_pause,
        trust_proxy=trust_proxy,
        stall_ms=stall_ms,
    )
    app = create_app(settings)
    url = address(host, port)
    print(f"spieltisch is serving at {url} (database: {settings.database_url()})", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    collections = manage_heap()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            ws_max_size=MAX_SOCKET_MESSAGE,
            log_level="warning",
            access_log=False,
            proxy_headers=trust_proxy,
        )
    finally:
        collections.set()
