"""Accounts, for the players who want one: a name, a password or passkeys, and sessions.

Playing by link needs no account; an account only remembers a person. A password is kept as
its argon2id hash (checked off the event loop, a few at a time, since each costs 64 MiB and a
quarter of a second) and must have :data:`MIN_PASSWORD` characters and not be one of the most
common passwords (``common_passwords.txt``, casefolded). A name is a display name
(:func:`spieltisch.web.text.display_name`), unique once casefolded.

A signed-in browser holds a session cookie (:data:`COOKIE`: 32 random bytes; the database
keeps only their SHA-256), made anew at every sign-in and sign-up with the browser's old
session ended, so that a cookie planted before a sign-in never becomes a signed-in one; a
cookie the server does not know is ignored, never adopted. Every change a cookie authorises
carries the session's CSRF token in ``X-CSRF-Token`` and comes from a page of this server
(its ``Origin``); a sign-in or sign-up must come from one too.

Sign-in attempts (with a password or a passkey) are rate-limited per client address and per
name (a token bucket each: :data:`ATTEMPTS_BURST` at once, then one every
:data:`ATTEMPT_EVERY` seconds), and so are sign-ups and passkey options per address; a
refusal never tells whether a name has an account.

The database functions are synchronous and take an engine (the routes run them on the hub's
writer thread or a reader thread); the ``async`` ones are what the routes and the lead's
code call.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import math
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import HTTPException, Request, Response
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from spieltisch.web.db import ACCOUNTS, CHALLENGES, PASSKEYS, RATINGS, SESSIONS
from spieltisch.web.gate import client_address
from spieltisch.web.limits import TokenBucket
from spieltisch.web.live import Hub
from spieltisch.web.tables import RefusedError
from spieltisch.web.text import TextError, display_name
from spieltisch.web.tokens import token_hash

COOKIE = "spieltisch_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_IDLE = 90 * 86400.0
"""A session unused this long (seconds) has ended; the cookie lives as long."""
SEEN_EVERY = 60.0
"""A session's ``seen_at`` is written at most once a minute."""
MIN_PASSWORD = 10
MAX_PASSWORD = 1024
ATTEMPTS_BURST = 5
ATTEMPT_EVERY = 12.0
SIGNUPS_BURST = 10
SIGNUP_EVERY = 6.0
"""Accounts an address may make at once, and after (each costs a hash; a family or a class
may make theirs on one connection)."""
OPTIONS_BURST = 20
OPTIONS_EVERY = 2.0
"""Passkey options (each a stored challenge) an address may ask for at once, and after."""
HASHES_AT_ONCE = 4
"""Password hashes worked out at once (each takes 64 MiB)."""
FORMER_PLAYER = "former player"
"""What a deleted account's seats are called (no account may take the name)."""
COMMON_PASSWORDS = Path(__file__).parent / "common_passwords.txt"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

NAME_KEY_LENGTH = 64
"""The longest a name's key may be (``accounts.name_key``)."""

HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's second recommended setting)."""
Forget = Callable[[Connection, str], list[str]]
"""What deleting an account does first to the rest of the database (the account's seats and
records: :func:`spieltisch.web.profile.forget_player`), in the deletion's transaction."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the rest of the server sees it."""

    id: str
    name: str
    listed: bool
    """The player shows their profile and appears on the leaderboards."""


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser's session (found by its cookie)."""

    id_hash: str
    account: Account
    csrf: str
    seen_at: float


@dataclass(frozen=True, slots=True)
class Started:
    """A session just made: the cookie to hand out and its CSRF token."""

    cookie: str
    csrf: str


@dataclass(frozen=True, slots=True)
class AccountFacts:
    """What ``GET /api/account`` tells the account's owner."""

    account: Account
    passkeys: int
    password: bool


class NameTakenError(Exception):
    """Another account has that name (casefolded)."""


# --- names and passwords -----------------------------------------------------------------


def name_key(name: str) -> str:
    """The form of a name that must be unique (compatibility-normalised, casefolded)."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def account_name(name: object) -> str:
    """``name`` as an account keeps it; :class:`RefusedError` (422) if it cannot be one."""
    try:
        clean = display_name(name)
    except TextError as error:
        raise RefusedError(str(error), 422) from None
    if name_key(clean) == FORMER_PLAYER:
        raise RefusedError("this name is kept for players who deleted their account", 422)
    if len(name_key(clean)) > NAME_KEY_LENGTH:
        raise RefusedError("this name is too long", 422)
    return clean


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common passwords, casefolded (the file's notes left out)."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.casefold() for line in lines if line and not line.startswith("#"))


def normal_password(password: str) -> str:
    """A password as it is hashed: compatibility-normalised, so that the same characters
    typed on another keyboard or system give the same password."""
    return unicodedata.normalize("NFKC", password)


def check_password(password: str) -> str:
    """A new password as it is hashed; :class:`RefusedError` (422) if it is too short, too
    common, or not valid text."""
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise RefusedError("a password must be valid text", 422) from None
    normal = normal_password(password)
    if len(normal) < MIN_PASSWORD:
        raise RefusedError(
            "a password needs at least {least} characters", 422, params={"least": MIN_PASSWORD}
        )
    if len(normal) > MAX_PASSWORD:
        raise RefusedError("this password is too long", 422)
    if normal.casefold() in common_passwords():
        raise RefusedError("this password is one of the most common ones: choose another", 422)
    return normal


# --- the database ------------------------------------------------------------------------


def _account(row: Any) -> Account:
    return Account(row["id"], row["name"], bool(row["listed"]))


def create_account(engine: Engine, account_id: str, name: str, password_hash: str | None) -> None:
    """Store a new account; :class:`NameTakenError` if its name is taken."""
    try:
        with engine.begin() as db:
            db.execute(
                ACCOUNTS.insert().values(
                    id=account_id, name=name, name_key=name_key(name),
                    password_hash=password_hash, listed=False, created_at=time.time(),
                )
            )  # fmt: skip
    except IntegrityError:
        raise NameTakenError(name) from None


def find_password(engine: Engine, key: str) -> tuple[Account, str | None] | None:
    """The account whose name's key is ``key``, with its password hash."""
    with engine.connect() as db:
        row = db.execute(ACCOUNTS.select().where(ACCOUNTS.c.name_key == key)).mappings().first()
    return None if row is None else (_account(row), row["password_hash"])


def set_password_hash(engine: Engine, account_id: str, password_hash: str) -> None:
    """Replace an account's password hash (rehashed with newer parameters)."""
    with engine.begin() as db:
        db.execute(
            ACCOUNTS.update().where(ACCOUNTS.c.id == account_id).values(password_hash=password_hash)
        )


def start_session(engine: Engine, account_id: str, old_hash: str | None) -> Started:
    """A new session for ``account_id``; the browser's old session (``old_hash``) ends, and
    so do the account's sessions unused for :data:`SESSION_IDLE`."""
    cookie, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(32), time.time()
    with engine.begin() as db:
        if old_hash is not None:
            db.execute(SESSIONS.delete().where(SESSIONS.c.id_hash == old_hash))
        db.execute(
            SESSIONS.delete().where(
                SESSIONS.c.account_id == account_id, SESSIONS.c.seen_at < now - SESSION_IDLE
            )
        )
        db.execute(
            SESSIONS.insert().values(
                id_hash=token_hash(cookie), account_id=account_id, csrf=csrf,
                created_at=now, seen_at=now,
            )
        )  # fmt: skip
    return Started(cookie, csrf)


def load_session(engine: Engine, id_hash: str) -> Session | None:
    """The live session whose cookie hashes to ``id_hash``, with its account."""
    query = (
        sa.select(SESSIONS.c.csrf, SESSIONS.c.seen_at, ACCOUNTS)
        .join(ACCOUNTS, ACCOUNTS.c.id == SESSIONS.c.account_id)
        .where(SESSIONS.c.id_hash == id_hash)
    )
    with engine.connect() as db:
        row = db.execute(query).mappings().first()
    if row is None or row["seen_at"] < time.time() - SESSION_IDLE:
        return None
    return Session(id_hash, _account(row), row["csrf"], row["seen_at"])


def touch_session(engine: Engine, id_hash: str) -> None:
    """Note that a session was used now."""
    with engine.begin() as db:
        db.execute(
            SESSIONS.update().where(SESSIONS.c.id_hash == id_hash).values(seen_at=time.time())
        )


def end_session(engine: Engine, id_hash: str) -> None:
    """End one session."""
    with engine.begin() as db:
        db.execute(SESSIONS.delete().where(SESSIONS.c.id_hash == id_hash))


def end_sessions(engine: Engine, account_id: str) -> None:
    """End every session of an account."""
    with engine.begin() as db:
        db.execute(SESSIONS.delete().where(SESSIONS.c.account_id == account_id))


def account_facts(engine: Engine, account: Account) -> AccountFacts:
    """How many passkeys the account has, and whether it has a password."""
    with engine.connect() as db:
        keys = db.execute(
            sa.select(sa.func.count()).where(PASSKEYS.c.account_id == account.id)
        ).scalar_one()
        hashed = db.execute(
            sa.select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.id == account.id)
        ).scalar_one_or_none()
    return AccountFacts(account, int(keys), hashed is not None)


def set_listed(engine: Engine, account_id: str, listed: bool) -> None:
    """Show or hide the account's profile and leaderboard places."""
    with engine.begin() as db:
        db.execute(ACCOUNTS.update().where(ACCOUNTS.c.id == account_id).values(listed=listed))


def delete_account(engine: Engine, account_id: str, forget: Forget) -> list[str]:
    """Delete an account and all it holds, in one transaction: first ``forget`` (its seats
    and stored records then name a former player), then its ratings, passkeys, challenges and
    sessions go, and the account itself. The tables whose seats ``forget`` changed."""
    with engine.begin() as db:
        touched = forget(db, account_id)
        _delete_rows(db, account_id)
    return touched


def _delete_rows(db: Connection, account_id: str) -> None:
    for table in (RATINGS, PASSKEYS, SESSIONS):
        db.execute(table.delete().where(table.c.account_id == account_id))
    db.execute(CHALLENGES.delete().where(CHALLENGES.c.account_id == account_id))
    db.execute(ACCOUNTS.delete().where(ACCOUNTS.c.id == account_id))


# --- hashing -----------------------------------------------------------------------------


class Hashing:
    """Password hashes worked out in worker threads, :data:`HASHES_AT_ONCE` at a time."""

    def __init__(self) -> None:
        self._at_once = asyncio.Semaphore(HASHES_AT_ONCE)

    async def hash(self, password: str) -> str:
        """The argon2id hash of a (checked) password."""
        async with self._at_once:
            return await asyncio.to_thread(HASHER.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed in ``stored`` (as long to answer when there
        is no hash)."""
        async with self._at_once:
            return await asyncio.to_thread(_verify, stored, normal_password(password))


@functools.cache
def _unused_hash() -> str:
    """Checked against when a name has no password, so that the answer takes as long."""
    return HASHER.hash(secrets.token_urlsafe(16))


def _verify(stored: str | None, password: str) -> bool:
    try:
        return HASHER.verify(stored or _unused_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


# --- attempts ----------------------------------------------------------------------------


class Attempts:
    """A token bucket per key (an address, a name), the least recently used forgotten
    beyond ``keys``; :meth:`wait` says how long until the next attempt may pass."""

    def __init__(self, every: float = ATTEMPT_EVERY, burst: int = ATTEMPTS_BURST) -> None:
        self.rate, self.burst, self.keys = 1.0 / every, burst, 10_000
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def wait(self, key: str) -> float:
        """0 if one more attempt for ``key`` may pass now (and count it); else the seconds
        until one may."""
        bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        self._buckets[key] = bucket
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        if bucket.take():
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


class AccountLimits:
    """The allowances of one app's account routes (kept on ``app.state.accounts``)."""

    def __init__(self) -> None:
        self.signin_from = Attempts()
        self.signin_as = Attempts()
        self.signup_from = Attempts(SIGNUP_EVERY, SIGNUPS_BURST)
        self.options_from = Attempts(OPTIONS_EVERY, OPTIONS_BURST)
        self.hashing = Hashing()

    def check(self, *waits: float) -> None:
        """Refuse with 429 and ``Retry-After`` if any allowance ran out."""
        longest = max(waits, default=0.0)
        if longest > 0:
            raise HTTPException(
                429, "too many attempts: wait a little and try again",
                headers={"Retry-After": str(max(1, math.ceil(longest)))},
            )  # fmt: skip


def limits_of(connection: HTTPConnection) -> AccountLimits:
    """The running app's account allowances."""
    limits: AccountLimits = connection.app.state.accounts
    return limits


def hub_at(connection: HTTPConnection) -> Hub:
    """The server's hub (for a request or a socket)."""
    hub: Hub = connection.app.state.hub
    return hub


def address_of(connection: HTTPConnection) -> str:
    """The client's address (see :func:`spieltisch.web.gate.client_address`)."""
    return client_address(connection, hub_at(connection).settings)


# --- the request's session -----------------------------------------------------------------


async def current_session(connection: HTTPConnection) -> Session | None:
    """The session of the request's or socket's cookie (``None``: none, an unknown cookie or
    an ended session); its ``seen_at`` is written at most once a minute."""
    found: Session | None = getattr(connection.state, "account_session", None)
    if found is not None:
        return found
    cookie = connection.cookies.get(COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    hub = hub_at(connection)
    found = await hub.read(load_session, hub.reader, token_hash(cookie))
    if found is None:
        return None
    if found.seen_at < time.time() - SEEN_EVERY:
        await hub.write(touch_session, hub.engine, found.id_hash)
    connection.state.account_session = found
    return found


async def current_account(request: Request) -> Account | None:
    """The signed-in account of a request (``None``: nobody is signed in)."""
    session = await current_session(request)
    return None if session is None else session.account


async def account_of_connection(connection: HTTPConnection) -> Account | None:
    """The signed-in account of a WebSocket (or any connection) by its cookie."""
    session = await current_session(connection)
    return None if session is None else session.account


def check_origin(connection: HTTPConnection) -> None:
    """Refuse (403) a request that a page of another site sent: its ``Origin`` (or, without
    one, its ``Referer``) must name this server, and the browser must not call it
    cross-site. A client that names no origin is no page of another site."""
    headers = connection.headers
    if headers.get("sec-fetch-site") == "cross-site":
        raise HTTPException(403, "this request must come from a page of this server")
    said = headers.get("origin") or headers.get("referer")
    if said is None:
        return
    hosts = {headers.get("host")}
    if hub_at(connection).settings.trust_proxy:
        hosts.add(headers.get("x-forwarded-host"))
    if urlsplit(said).netloc not in hosts - {None, ""}:
        raise HTTPException(403, "this request must come from a page of this server")


def check_csrf(request: Request, session: Session) -> None:
    """Refuse (403) a change that does not carry the session's CSRF token or comes from
    another site."""
    check_origin(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), session.csrf.encode()):
        raise HTTPException(403, "the page's security token is missing or old: reload the page")


async def signed_in_session(request: Request) -> Session:
    """The request's session; 401 if nobody is signed in, 403 if a change lacks its CSRF
    token or comes from another site."""
    session = await current_session(request)
    if session is None:
        raise HTTPException(401, "sign in first")
    if request.method not in SAFE_METHODS:
        check_csrf(request, session)
    return session


async def signed_in(request: Request) -> Account:
    """A FastAPI dependency: the signed-in account (see :func:`signed_in_session`)."""
    return (await signed_in_session(request)).account


async def acting_account(request: Request) -> Account | None:
    """The account a change is made by: ``None`` if nobody is signed in; 403 if someone is
    but the change lacks the CSRF token or comes from another site."""
    session = await current_session(request)
    if session is not None and request.method not in SAFE_METHODS:
        check_csrf(request, session)
    return None if session is None else session.account


# --- cookies -----------------------------------------------------------------------------


def secure(connection: HTTPConnection) -> bool:
    """Whether the request came over https (behind a trusted proxy: as the proxy says)."""
    if hub_at(connection).settings.trust_proxy:
        forwarded = connection.headers.get("x-forwarded-proto")
        if forwarded:
            return forwarded.split(",")[0].strip().lower() == "https"
    return connection.url.scheme in ("https", "wss")


def set_cookie(request: Request, response: Response, cookie: str) -> None:
    """Hand the browser its session cookie (HttpOnly, SameSite=Lax, Secure over https)."""
    response.set_cookie(
        COOKIE, cookie, max_age=int(SESSION_IDLE), path="/", secure=secure(request),
        httponly=True, samesite="lax",
    )  # fmt: skip


def clear_cookie(request: Request, response: Response) -> None:
    """Tell the browser to forget its session cookie."""
    response.delete_cookie(COOKIE, path="/", secure=secure(request), httponly=True, samesite="lax")


async def begin_session(request: Request, response: Response, account: Account) -> Started:
    """Sign ``account`` in on this browser: a new session and cookie; the browser's old
    session (if its cookie was a live one) ends."""
    hub = hub_at(request)
    old = await current_session(request)
    started: Started = await hub.write(
        start_session, hub.engine, account.id, None if old is None else old.id_hash
    )
    set_cookie(request, response, started.cookie)
    request.state.account_session = None
    return started


# --- what the routes do ------------------------------------------------------------------


def new_account_id() -> str:
    """A fresh account id (random, URL-safe)."""
    return secrets.token_urlsafe(18)


async def sign_up(request: Request, name: str, password: str) -> Account:
    """Make an account with a password (rate-limited per address); 409 if the name is
    taken, 422 if the name or password will not do."""
    check_origin(request)
    limits = limits_of(request)
    limits.check(limits.signup_from.wait(address_of(request)))
    clean, normal = account_name(name), check_password(password)
    hashed = await limits.hashing.hash(normal)
    return await add_account(request, clean, hashed)


async def add_account(
    request: Request, name: str, password_hash: str | None, account_id: str | None = None
) -> Account:
    """Store a new account; 409 if its name is taken."""
    hub, made = hub_at(request), account_id or new_account_id()
    try:
        await hub.write(create_account, hub.engine, made, name, password_hash)
    except NameTakenError:
        raise RefusedError("this name is taken: choose another", 409) from None
    return Account(made, name, False)


def check_attempt(request: Request, name: str | None) -> None:
    """Count a sign-in attempt from the request's address (and for ``name``); 429 if either
    allowance ran out."""
    limits = limits_of(request)
    waits = [limits.signin_from.wait(address_of(request))]
    if name is not None:
        waits.append(limits.signin_as.wait(name_key(name)[:NAME_KEY_LENGTH]))
    limits.check(*waits)


def check_name_attempt(request: Request, name: str) -> None:
    """Count a sign-in attempt as ``name``; 429 if its allowance ran out."""
    limits = limits_of(request)
    limits.check(limits.signin_as.wait(name_key(name)[:NAME_KEY_LENGTH]))


async def sign_in(request: Request, name: str, password: str) -> Account:
    """The account whose name and password these are; 401 (the same words whichever was
    wrong), 429 when the address or name tried too often."""
    check_origin(request)
    check_attempt(request, name)
    hub, limits = hub_at(request), limits_of(request)
    found: tuple[Account, str | None] | None = await hub.read(
        find_password, hub.reader, name_key(name)
    )
    stored = None if found is None else found[1]
    if not await limits.hashing.verify(stored, password) or found is None or stored is None:
        raise HTTPException(401, "wrong name or password")
    account = found[0]
    if HASHER.check_needs_rehash(stored):
        rehashed = await limits.hashing.hash(normal_password(password))
        await hub.write(set_password_hash, hub.engine, account.id, rehashed)
    return account


async def facts_of(request: Request, account: Account) -> AccountFacts:
    """What the account's owner is told about it."""
    hub = hub_at(request)
    facts: AccountFacts = await hub.read(account_facts, hub.reader, account)
    return facts


def described(facts: AccountFacts | None, csrf: str | None) -> dict[str, Any]:
    """The body of ``GET /api/account``."""
    if facts is None or csrf is None:
        return {"account": None}
    account = facts.account
    return {
        "account": {
            "id": account.id,
            "name": account.name,
            "listed": account.listed,
            "passkeys": facts.passkeys,
            "password": facts.password,
        },
        "csrf": csrf,
    }
