"""The door every request and socket passes first: each address's allowances (new tables,
records and dice checks, replay steps, lesson steps, pages opened) are taken here, before any
routing, reading or accepting, so that a flood from one address is refused at the cost of a
few comparisons. A refused request gets a 429 that says which allowance ran out; a refused socket
is closed before it is accepted (the page's reconnect waits and tries again).

Which allowance a request draws on depends on its method and path alone; everything else
passes untouched. The allowances themselves are :class:`~spieltisch.web.routes.limits.ServerLimits`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from starlette.requests import HTTPConnection

from spieltisch.web.common.buckets import Buckets
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.guard import ASGIApp, Receive, Scope, Send, answer
from spieltisch.web.routes.limits import ServerLimits


class Allowance(Enum):
    """What a request draws on, and what a refusal says."""

    TABLES = "too many new tables from here: wait a minute"
    HEAVY = "too many records and dice checks from here: slow down"
    REPLAYS = "too many replay steps from here: slow down"
    LESSONS = "too many lesson steps from here: slow down"
    OPENS = "too many pages opened from here: wait a moment"


@dataclass(frozen=True)
class Door:
    """One kind of request counted at the gate: its scope type, method and path pattern."""

    kind: str
    method: str | None
    path: re.Pattern[str]
    allowance: Allowance


_ID = r"[^/]{1,64}"
DOORS = (
    Door("http", "POST", re.compile(r"/api/tables"), Allowance.TABLES),
    Door("http", "POST", re.compile(r"/api/rated-bot"), Allowance.TABLES),
    Door("http", "POST", re.compile(r"/api/(verify|replay)"), Allowance.HEAVY),
    Door("http", "GET", re.compile(rf"/api/tables/{_ID}/record"), Allowance.HEAVY),
    Door("http", "GET", re.compile(rf"/api/tables/{_ID}/replay"), Allowance.REPLAYS),
    Door("http", None, re.compile(rf"/api/lessons/{_ID}(/try|/finale)?"), Allowance.LESSONS),
    Door("websocket", None, re.compile(rf"/ws/{_ID}"), Allowance.OPENS),
)


def allowance_of(scope: Scope) -> Allowance | None:
    """The allowance a request or socket draws on (``None``: it passes uncounted)."""
    kind, method, path = scope["type"], scope.get("method"), scope.get("path", "")
    for door in DOORS:
        if door.kind == kind and door.method in (None, method) and door.path.fullmatch(path):
            return door.allowance
    return None


def client_address(connection: HTTPConnection, settings: Settings) -> str:
    """The address a request or socket comes from (behind a trusted proxy: the first one it
    names)."""
    if settings.trust_proxy:
        forwarded = connection.headers.get("x-forwarded-for")
        if forwarded:
            return forwarded.split(",")[0].strip()[:64]
    return connection.client.host if connection.client else "unknown"


def buckets_of(limits: ServerLimits, allowance: Allowance) -> Buckets:
    """The per-address buckets that keep ``allowance``."""
    return {
        Allowance.TABLES: limits.tables,
        Allowance.HEAVY: limits.heavy,
        Allowance.REPLAYS: limits.replays,
        Allowance.LESSONS: limits.lessons,
        Allowance.OPENS: limits.opens,
    }[allowance]


class Gate:
    """The ASGI middleware (see the module docstring). The limits are the running app's
    (``app.state.limits``), found on the application once it has started."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        allowance = allowance_of(scope) if scope["type"] in ("http", "websocket") else None
        limits = getattr(getattr(scope.get("app"), "state", None), "limits", None)
        if allowance is None or not isinstance(limits, ServerLimits):
            await self.app(scope, receive, send)
            return
        address = client_address(HTTPConnection(scope), limits.settings)
        if buckets_of(limits, allowance).take(address):
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            unread = scope.get("method") not in ("GET", "HEAD")  # a body may be on its way
            await answer(send, 429, allowance.value, inside=True, close=unread)
        else:
            await send({"type": "websocket.close", "code": 4429, "reason": allowance.value})
