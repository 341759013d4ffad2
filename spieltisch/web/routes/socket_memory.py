"""A closed WebSocket's compression state is let go at once, not at the next full collection.

Each socket compresses what it sends and inflates what it reads (permessage-deflate, as
browsers ask): zlib's state of about 45 KiB a socket, outside Python's own heap. uvicorn
hands each socket to a ``websockets`` protocol object that refers to itself (through the
generator that parses its frames), so once the socket is closed that object, and the zlib
state with it, waits for a collection of the old generation: every five minutes here
(:mod:`~spieltisch.web.routes.heap`). Tables whose games end every few seconds closed 900
sockets between two collections, 40 MiB held for nothing, and the process's memory rose by as
much before each one.

:class:`ReleaseSockets` drops the socket's extensions when the app is done with it, so zlib's
state is freed there and then (its owner is no cycle). Only frames that carry no data
(closing, pings) may still pass on that socket; they are never compressed. The rest of the
protocol object (a few KiB) still waits for the collection. A server other than uvicorn's
sans-I/O ``websockets`` implementation is left alone.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.protocol import Protocol


def release_compression(receive: Receive) -> int:
    """Drop the permessage-deflate state of the socket whose ASGI ``receive`` this is (a
    method of uvicorn's protocol, which holds a ``websockets`` :class:`Protocol` as ``conn``);
    how many extensions it dropped (0 for any other server)."""
    connection = getattr(getattr(receive, "__self__", None), "conn", None)
    if not isinstance(connection, Protocol):
        return 0
    dropped = len(connection.extensions)
    connection.extensions.clear()  # the list itself: a parser waiting for a frame holds it too
    return dropped


class ReleaseSockets:
    """The ASGI middleware (see the module docstring): outermost, so that ``receive`` is the
    server's own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            release_compression(receive)
