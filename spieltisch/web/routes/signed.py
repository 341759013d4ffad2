"""Who a request is: the session cookie, its CSRF token and the page's Origin, and the account
routes' work that needs the request (signing up and in, answering ``GET /api/account``).

The accounts themselves (names, password hashes, sessions as the database keeps them) are the
people's (:mod:`~spieltisch.web.people.accounts`); this is their HTTP side. A signed-in browser
holds a session cookie (:data:`COOKIE`: 32 random bytes; the database keeps only their
SHA-256), made anew at every sign-in and sign-up with the browser's old session ended, so that
a cookie planted before a sign-in never becomes a signed-in one; a cookie the server does not
know is ignored, never adopted. Every change a cookie authorises carries the session's CSRF
token in ``X-CSRF-Token`` and comes from a page of this server (its ``Origin``); a sign-in or
sign-up must come from one too.

Sign-in attempts (with a password or a passkey) are rate-limited per client address and per
name (a token bucket each: :data:`ATTEMPTS_BURST` at once, then one every
:data:`ATTEMPT_EVERY` seconds), and so are sign-ups and passkey options per address. A
sign-in's refusal never tells whether a name has an account; a sign-up's must (names are
unique: "this name is taken"), which is why sign-ups are counted per address. Password
attempts and sign-ups are counted in the database
(:func:`~spieltisch.web.routes.limits.take_shared`), so every server process counts them
together.

Guessing one name from many addresses would lock its owner out too, so a browser that signed
in as a name with its password holds a *device cookie* for it (:func:`device_cookie`: a random
device id and its HMAC under a key every process shares, made for that name only): its
attempts at that name draw on a bucket of their own for that name and device, never on the
name's or the address's, so nobody else's guessing locks it out, and a guesser without the
cookie cannot make one.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, Response
from starlette.requests import HTTPConnection

from spieltisch.web.common.buckets import TokenBucket
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.tokens import token_hash
from spieltisch.web.people.accounts import (
    HASHER,
    NAME_KEY_LENGTH,
    SEEN_EVERY,
    SESSION_IDLE,
    Account,
    AccountFacts,
    Hashing,
    NameTakenError,
    Session,
    Started,
    account_facts,
    account_name,
    check_password,
    create_account,
    find_password,
    load_session,
    name_key,
    new_account_id,
    normal_password,
    password_hash_of,
    set_password_hash,
    start_session,
    touch_session,
)
from spieltisch.web.people.events import AccountEvents, new_password
from spieltisch.web.routes.gate import client_address
from spieltisch.web.routes.limits import take_shared
from spieltisch.web.store.allowances import Bucket, shared_key
from spieltisch.web.store.database import Database

COOKIE = "spieltisch_session"


CSRF_HEADER = "X-CSRF-Token"


ATTEMPTS_BURST = 5


ATTEMPT_EVERY = 12.0


SIGNUPS_BURST = 10


SIGNUP_EVERY = 6.0
"""Accounts an address may make at once, and after (each costs a hash; a family or a class
may make theirs on one connection)."""


OPTIONS_BURST = 20


OPTIONS_EVERY = 2.0
"""Passkey options (each a stored challenge) an address may ask for at once, and after."""


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


DEVICE_COOKIE = "spieltisch_device_"
"""The device cookies' names begin so; each ends in a digest of the name it is for."""


DEVICE_PATH = "/api/account"
"""Where a device cookie is sent (the account routes only)."""


DEVICE_AGE = 400 * 24 * 3600
"""Seconds a device cookie lasts (browsers keep none longer)."""


DEVICE_KEY = "device-cookies"
"""The name of the shared secret that signs device cookies."""


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
        self.options_from = Attempts(OPTIONS_EVERY, OPTIONS_BURST)
        self.hashing = Hashing()
        self.device_key: bytes | None = None
        """The key device cookies are signed with (read from the database when first used)."""

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


def database_at(connection: HTTPConnection) -> Database:
    """The server's database (for a request or a socket)."""
    database: Database = connection.app.state.database
    return database


def settings_at(connection: HTTPConnection) -> Settings:
    """The running server's settings."""
    settings: Settings = connection.app.state.settings
    return settings


def events_at(connection: HTTPConnection) -> AccountEvents:
    """Where an account's end is told to whoever subscribed (the live tables)."""
    events: AccountEvents = connection.app.state.events
    return events


def address_of(connection: HTTPConnection) -> str:
    """The client's address (see :func:`spieltisch.web.routes.gate.client_address`)."""
    return client_address(connection, settings_at(connection))


async def current_session(connection: HTTPConnection) -> Session | None:
    """The session of the request's or socket's cookie (``None``: none, an unknown cookie or
    an ended session); its ``seen_at`` is written at most once a minute."""
    found: Session | None = getattr(connection.state, "account_session", None)
    if found is not None:
        return found
    cookie = connection.cookies.get(COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    database = database_at(connection)
    found = await database.read(load_session, database.reader, token_hash(cookie))
    if found is None:
        return None
    if found.seen_at < time.time() - SEEN_EVERY:
        await database.write(touch_session, database.engine, found.id_hash)
    connection.state.account_session = found
    return found


async def current_account(request: Request) -> Account | None:
    """The signed-in account of a request (``None``: nobody is signed in)."""
    session = await current_session(request)
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
    if settings_at(connection).trust_proxy:
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


def secure(connection: HTTPConnection) -> bool:
    """Whether the request came over https (behind a trusted proxy: as the proxy says)."""
    if settings_at(connection).trust_proxy:
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
    database = database_at(request)
    old = await current_session(request)
    started: Started = await database.write(
        start_session, database.engine, account.id, None if old is None else old.id_hash
    )
    set_cookie(request, response, started.cookie)
    if getattr(request.state, "signed_in_by_password", False):
        await set_device_cookie(request, response, account.name)
    request.state.account_session = None
    return started


async def sign_up(request: Request, name: str, password: str) -> Account:
    """Make an account with a password (rate-limited per address); 409 if the name is
    taken, 422 if the name or password will not do."""
    check_origin(request)
    limits = limits_of(request)
    await count_signup(request)
    clean, normal = account_name(name), check_password(password)
    hashed = await limits.hashing.hash(normal)
    return await add_account(request, clean, hashed)


async def count_signup(request: Request) -> None:
    """Count a new account from the request's address as every server process counts it
    (with a password or a passkey); 429 if the address made too many."""
    signups = Bucket(f"signup-from:{address_of(request)}", 1.0 / SIGNUP_EVERY, SIGNUPS_BURST)
    limits_of(request).check(await take_shared(database_at(request), [signups]))


async def add_account(
    request: Request, name: str, password_hash: str | None, account_id: str | None = None
) -> Account:
    """Store a new account; 409 if its name is taken."""
    database, made = database_at(request), account_id or new_account_id()
    try:
        await database.write(create_account, database.engine, made, name, password_hash)
    except NameTakenError:
        raise RefusedError("this name is taken: choose another", 409) from None
    return Account(made, name, False)


def device_cookie_name(name: str) -> str:
    """The name of the device cookie for the account name ``name``."""
    digest = hashlib.sha256(name_key(name)[:NAME_KEY_LENGTH].encode()).hexdigest()[:16]
    return DEVICE_COOKIE + digest


async def _device_key(request: Request) -> bytes:
    limits = limits_of(request)
    if limits.device_key is None:
        database = database_at(request)
        limits.device_key = await database.write(shared_key, database.engine, DEVICE_KEY)
    return limits.device_key


def _device_mac(key: bytes, name: str, device: str) -> str:
    said = f"{name_key(name)[:NAME_KEY_LENGTH]}\0{device}".encode()
    return hmac.new(key, said, hashlib.sha256).hexdigest()[:32]


async def device_cookie(request: Request, name: str) -> str:
    """A new device cookie's value for ``name``: a random device id and its MAC."""
    device = secrets.token_hex(12)
    return f"{device}.{_device_mac(await _device_key(request), name, device)}"


async def device_of(request: Request, name: str) -> str | None:
    """The device id of the request's device cookie for ``name`` if the server made it for
    that name (``None``: no such cookie, or one it did not make)."""
    cookie = request.cookies.get(device_cookie_name(name), "")
    device, _, mac = cookie.partition(".")
    if len(device) != 24 or len(mac) != 32:
        return None
    wanted = _device_mac(await _device_key(request), name, device)
    return device if hmac.compare_digest(wanted.encode(), mac.encode()) else None


async def set_device_cookie(request: Request, response: Response, name: str) -> None:
    """Hand the browser a device cookie for ``name`` unless it holds a good one already."""
    if await device_of(request, name) is not None:
        return
    response.set_cookie(
        device_cookie_name(name), await device_cookie(request, name), max_age=DEVICE_AGE,
        path=DEVICE_PATH, secure=secure(request), httponly=True, samesite="strict",
    )  # fmt: skip


async def count_attempt(request: Request, name: str | None, address: bool = True) -> None:
    """Count a sign-in attempt as every server process counts it: from the request's address
    and as ``name``, or, from a browser holding a device cookie for ``name``, for that name
    and device alone; 429 (with ``Retry-After``) if an allowance ran out. ``address``: count
    the address too (not for a signed-in person's current password)."""
    rate, limits = 1.0 / ATTEMPT_EVERY, limits_of(request)
    device = None if name is None else await device_of(request, name)
    key = None if name is None else name_key(name)[:NAME_KEY_LENGTH]
    if device is not None:
        buckets = [Bucket(f"signin-device:{key}:{device}", rate, ATTEMPTS_BURST)]
    else:
        where = Bucket(f"signin-from:{address_of(request)}", rate, ATTEMPTS_BURST)
        buckets = [where] if address else []
        if key is not None:
            buckets.append(Bucket(f"signin-as:{key}", rate, ATTEMPTS_BURST))
    limits.check(await take_shared(database_at(request), buckets))


async def sign_in(request: Request, name: str, password: str) -> Account:
    """The account whose name and password these are; 401 (the same words whichever was
    wrong), 429 when the address or name tried too often."""
    check_origin(request)
    await count_attempt(request, name)
    database, limits = database_at(request), limits_of(request)
    found: tuple[Account, str | None] | None = await database.read(
        find_password, database.reader, name_key(name)
    )
    stored = None if found is None else found[1]
    if not await limits.hashing.verify(stored, password) or found is None or stored is None:
        raise HTTPException(401, "wrong name or password")
    account = found[0]
    request.state.signed_in_by_password = True  # the session's start hands a device cookie
    if HASHER.check_needs_rehash(stored):
        rehashed = await limits.hashing.hash(normal_password(password))
        await database.write(set_password_hash, database.engine, account.id, rehashed)
    return account


async def change_password(request: Request, session: Session, current: str, new: str) -> None:
    """Give the session's account the password ``new`` if ``current`` is its password now;
    every other session of the account ends, and the tables hear of it. 409 for an account
    without a password, :class:`RefusedError` (422) if ``new`` will not do, 403 if
    ``current`` is wrong, 429 when the account's name was tried too often (a wrong current
    password counts as a wrong sign-in with that name: the asker holds a session already, so
    the name's allowance is the one that stops guessing)."""
    database, limits, account = database_at(request), limits_of(request), session.account
    stored: str | None = await database.read(password_hash_of, database.reader, account.id)
    if stored is None:
        raise HTTPException(409, "this account has no password to change")
    normal = check_password(new)
    await count_attempt(request, account.name, address=False)
    if not await limits.hashing.verify(stored, current):
        raise HTTPException(403, "the current password is wrong")
    hashed = await limits.hashing.hash(normal)
    await new_password(database, events_at(request), account.id, hashed, session.id_hash)


async def facts_of(request: Request, account: Account) -> AccountFacts:
    """What the account's owner is told about it."""
    database = database_at(request)
    facts: AccountFacts = await database.read(account_facts, database.reader, account)
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
            "language": account.language,
            "passkeys": facts.passkeys,
            "password": facts.password,
        },
        "csrf": csrf,
    }
