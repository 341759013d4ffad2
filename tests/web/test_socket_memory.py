"""A closed socket's compression state leaves memory at once (issue 48, item 11): the
``websockets`` protocol behind each of uvicorn's sockets is a reference cycle, so without
:class:`ReleaseSockets` every closed socket kept its zlib state (about 45 KiB) until the next
full collection, five minutes later."""

from __future__ import annotations

import gc
import socket
import subprocess
import sys
import textwrap
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import httpx
import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.socket_memory import ReleaseSockets, release_compression

pytestmark = pytest.mark.timeout(120)

SOCKETS = 20


class Uvicorn:
    """What stands for uvicorn's protocol: ``receive`` is a method of it, and ``conn`` the
    ``websockets`` protocol."""

    def __init__(self) -> None:
        self.deflate = PerMessageDeflate(False, False, 12, 12, {"memLevel": 5})
        self.conn = ServerProtocol()
        self.conn.extensions = [self.deflate]

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.disconnect"}


@contextmanager
def collector_off() -> Iterator[None]:
    """Only reference counts free anything meanwhile (as between two full collections)."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def closed_sockets(release: bool) -> list[weakref.ref[PerMessageDeflate]]:
    """``SOCKETS`` sockets opened and dropped (released first, or not); their compressors."""
    compressors = []
    for _ in range(SOCKETS):
        protocol = Uvicorn()
        compressors.append(weakref.ref(protocol.deflate))
        if release:
            assert release_compression(protocol.receive) == 1
        del protocol.deflate, protocol
    return compressors


def test_a_closed_socket_keeps_no_compressor_however_many_closed() -> None:
    with collector_off():
        kept = closed_sockets(release=False)
        released = closed_sockets(release=True)
        # the protocol is a cycle: unreleased, every compressor stays till a full collection
        assert sum(ref() is not None for ref in kept) == SOCKETS
        assert sum(ref() is not None for ref in released) == 0
    gc.collect()
    assert sum(ref() is not None for ref in kept) == 0


def test_another_server_is_left_alone() -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "websocket.disconnect"}

    assert release_compression(receive) == 0


def test_the_app_releases_its_sockets_outermost() -> None:
    app = create_app(Settings(database="sqlite:///:memory:"))
    outermost: object = app.user_middleware[0].cls
    assert outermost is ReleaseSockets


SERVER = textwrap.dedent(
    """
    import gc, sys
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from websockets.extensions.permessage_deflate import PerMessageDeflate
    from spieltisch.web.routes.socket_memory import ReleaseSockets

    gc.disable()  # as between two of the server's full collections

    async def echo(websocket):
        await websocket.accept()
        await websocket.send_text(await websocket.receive_text())
        await websocket.receive()  # till the page closes it

    async def count(request):
        alive = sum(isinstance(o, PerMessageDeflate) for o in gc.get_objects())
        return PlainTextResponse(str(alive))

    app = Starlette(routes=[Route("/count", count), WebSocketRoute("/ws", echo)])
    served = ReleaseSockets(app) if sys.argv[2] == "release" else app
    uvicorn.run(served, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
    """
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _count(http: httpx.Client, until: int) -> int:
    """The server's live compressors, once they are ``until`` (or after a while, whatever
    they are)."""
    deadline = time.monotonic() + 20
    alive = -1
    while time.monotonic() < deadline:
        with suppress(httpx.TransportError):
            alive = int(http.get("/count").text)
            if alive == until:
                break
        time.sleep(0.05)
    return alive


@pytest.mark.parametrize("release", [True, False])
def test_uvicorn_frees_a_closed_sockets_compressor_at_once(release: bool) -> None:
    """A real uvicorn with its collector off: closed sockets keep no compressor when released,
    and every one of them otherwise (so the release is what frees them)."""
    port = _free_port()
    mode = "release" if release else "plain"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), mode])
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False) as http:
            assert _count(http, 0) == 0
            for _ in range(SOCKETS):
                with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
                    ws.send("a move " * 40)
                    assert ws.recv(timeout=10) == "a move " * 40
            assert _count(http, 0 if release else SOCKETS) == (0 if release else SOCKETS)
    finally:
        server.terminate()
        server.wait(10)
