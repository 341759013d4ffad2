"""The outermost layer of every HTTP request: size limits on the bytes actually read, the
security headers on every response (errors included), and failures answered in words without
a traceback or any of the request in the log.

A request's body is bounded twice: a ``Content-Length`` above the route's limit is refused
before anything is read, and a body sent without one (chunked) is counted as it arrives and
refused the moment it passes the limit, so no client can make the server hold more than the
limit. This is plain ASGI (no ``BaseHTTPMiddleware``), so streamed responses, such as the
lobby's feed, pass through untouched.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOG = logging.getLogger("spieltisch.web")

MAX_BODY = 16_384
MAX_RECORD = 1_048_576
"""A record sent to be verified or replayed may be larger than any other request."""
RECORD_ROUTES = frozenset({"/api/verify", "/api/replay"})
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
        "object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_HEADERS = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


class TooLargeError(Exception):
    """The body passed its limit while it was read."""


def limit_of(path: str) -> int:
    """The most bytes a request to ``path`` may send."""
    return MAX_RECORD if path in RECORD_ROUTES else MAX_BODY


class Guard:
    """The ASGI middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = limit_of(scope.get("path", ""))
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await answer(send, 413, "the request is too large", close=True)
            return
        started = False
        too_large = False
        seen = 0

        async def counted() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    too_large = True
                    raise TooLargeError
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if too_large:
                return  # whatever the app makes of the cut body, the answer is 413
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except TooLargeError:
            pass
        except Exception as error:
            method, path = scope.get("method"), scope.get("path")
            LOG.error("%s %s failed: %s", method, path, type(error).__name__)
            if not started and not too_large:
                await answer(send, 500, "the server could not do that; try again")
        if too_large and not started:
            await answer(send, 413, "the request is too large", close=True)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def answer(
    send: Send, status: int, detail: str, *, inside: bool = False, close: bool = False
) -> None:
    """Answer a request with ``status`` and ``detail`` in JSON, with the security headers
    (``inside`` the guard, it adds them). ``close``: the connection ends with the answer, so
    that a body still on its way is not read and thrown away, however long it is."""
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    extra = ([(b"connection", b"close")] if close else []) + ([] if inside else _HEADERS)
    await send({"type": "http.response.start", "status": status, "headers": headers + extra})
    await send({"type": "http.response.body", "body": body})
