"""The outermost layer of every HTTP request: size limits on the bytes actually read, the
security headers on every response (errors included), and failures answered in words without
a traceback or any of the request in the log.

A request's body is bounded twice: a ``Content-Length`` above the route's limit is refused
before anything is read, and a body sent without one (chunked) is counted as it arrives and
refused the moment it passes the limit, so no client can make the server hold more than the
limit. This is plain ASGI (no ``BaseHTTPMiddleware``), so streamed responses, such as the
lobby's feed, pass through untouched.

Before anything else, a request's or socket's path and query are refused (400; a socket is
closed before it is accepted) if, percent-decoded, they hold a control character (NUL among
them), a lone surrogate or bytes that are not UTF-8: no route, database or log line ever sees
one (PostgreSQL refuses NUL in text, and its error would otherwise be a 500). Body text fields
are checked as pydantic reads them (:mod:`~spieltisch.web.routes.fields`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

from spieltisch.web.common.text import control_in

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


UNREADABLE = "the address holds a character that is not allowed"
"""The door's refusal of a path or query with a control character (or not UTF-8)."""
UNREADABLE_CLOSE = 4400


def unreadable(scope: Scope) -> bool:
    """Whether the request's path or query, percent-decoded, is not clean text (see the
    module docstring)."""
    path = scope.get("path", "")
    query = bytes(scope.get("query_string", b""))
    try:
        said = unquote_to_bytes(query.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return control_in(path) or control_in(said)


UNREADABLE_BODY = "the request holds a character that is not allowed"
"""The door's refusal of a body with a control character in its text."""
BODY_CONTROL = re.compile(
    rb"(?<!\\)(?:\\\\)*\\(?:[bfnrt]|u00[0189][0-9a-fA-F]|u007[fF])"
    rb"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]"
)
"""A control character in a JSON body: spelt as an escape inside a string (an odd number of
backslashes before it), or sent raw (JSON's whitespace between tokens aside)."""


class TooLargeError(Exception):
    """The body passed its limit (or held a control character) while it was read."""


def limit_of(path: str) -> int:
    """The most bytes a request to ``path`` may send."""
    return MAX_RECORD if path in RECORD_ROUTES else MAX_BODY


class Guard:
    """The ASGI middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and unreadable(scope):
            if scope["type"] == "http":
                await answer(send, 400, UNREADABLE, close=True)
            else:
                await send({"type": "websocket.close", "code": UNREADABLE_CLOSE})
            return
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
        refused = (413, "the request is too large")
        checked = limit != MAX_RECORD  # a record to verify or replay is never stored
        tail = b""

        async def counted() -> Message:
            nonlocal seen, too_large, refused, tail
            message = await receive()
            if message["type"] == "http.request":
                body = bytes(message.get("body", b""))
                seen += len(body)
                if seen > limit:
                    too_large = True
                    raise TooLargeError
                if checked and BODY_CONTROL.search(tail + body):
                    too_large, refused = True, (400, UNREADABLE_BODY)
                    raise TooLargeError
                tail = (tail + body)[-16:]
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
            await answer(send, *refused, close=True)


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
