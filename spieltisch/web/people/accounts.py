"""Accounts, for the players who want one: a name, a password or passkeys, and sessions.

Playing by link needs no account; an account only remembers a person. A password is kept as
its argon2id hash (checked off the event loop, a few at a time, since each costs 64 MiB and a
quarter of a second) and must have :data:`MIN_PASSWORD` characters and not be one of the most
common passwords (``common_passwords.txt``, casefolded). A name is a display name
(:func:`spieltisch.web.common.text.display_name`), unique once casefolded.

A signed-in browser holds a session cookie (:data:`COOKIE`: 32 random bytes; the database
keeps only their SHA-256), made anew at every sign-in and sign-up with the browser's old
session ended, so that a cookie planted before a sign-in never becomes a signed-in one; a
cookie the server does not know is ignored, never adopted. Every change a cookie authorises
carries the session's CSRF token in ``X-CSRF-Token`` and comes from a page of this server
(its ``Origin``); a sign-in or sign-up must come from one too.

Sign-in attempts (with a password or a passkey) are rate-limited per client address and per
name (a token bucket each: :data:`ATTEMPTS_BURST` at once, then one every
:data:`ATTEMPT_EVERY` seconds), and so are sign-ups and passkey options per address. A
sign-in's refusal never tells whether a name has an account; a sign-up's must (names are
unique: "this name is taken"), which is why sign-ups are counted per address.

The database functions are synchronous and take an engine (the routes run them on the hub's
writer thread or a reader thread); the ``async`` ones are what the routes and the lead's
code call.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.text import FORMER_PLAYER as FORMER_NAME
from spieltisch.web.common.text import TextError, display_name
from spieltisch.web.common.tokens import token_hash
from spieltisch.web.store.db import ACCOUNTS, CHALLENGES, PASSKEYS, RATINGS, SESSIONS

SESSION_IDLE = 90 * 86400.0
"""A session unused this long (seconds) has ended; the cookie lives as long."""
SEEN_EVERY = 60.0
"""A session's ``seen_at`` is written at most once a minute."""
MIN_PASSWORD = 10
MAX_PASSWORD = 1024
HASHES_AT_ONCE = 4
"""Password hashes worked out at once (each takes 64 MiB)."""
FORMER_PLAYER = FORMER_NAME
"""What a deleted account's seats are called (no person may take the name)."""
COMMON_PASSWORDS = Path(__file__).parent / "common_passwords.txt"

NAME_KEY_LENGTH = 64
"""The longest a name's key may be (``accounts.name_key``)."""

HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's second recommended setting)."""
Forget = Callable[[Connection, str], list[str]]
"""What deleting an account does first to the rest of the database (the account's seats and
records: :func:`spieltisch.web.people.profile.forget_player`), in the deletion's transaction."""
Said = Callable[[Connection, str], None]
"""What ending some of an account's sessions says to the rest of the database, in the same
transaction (the live tables announce it to every server process: see
:mod:`spieltisch.web.people.events`)."""


def _silent(db: Connection, account_id: str) -> None:
    """Say nothing (a caller that has nobody to tell)."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the rest of the server sees it."""

    id: str
    name: str
    listed: bool
    """The player shows their profile and appears on the leaderboards."""
    language: str | None = None
    """The language the account's pages open in (``None``: the browser's)."""


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
    return Account(row["id"], row["name"], bool(row["listed"]), row["language"])


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


def password_hash_of(engine: Engine, account_id: str) -> str | None:
    """The account's password hash (``None``: it signs in with passkeys only, or is gone)."""
    with engine.connect() as db:
        hashed: str | None = db.execute(
            sa.select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.id == account_id)
        ).scalar_one_or_none()
    return hashed


def replace_password(
    engine: Engine, account_id: str, password_hash: str, kept: str, said: Said = _silent
) -> None:
    """A new password for the account, and every session of it but ``kept`` (the one that
    changed it) ends, in one transaction (which ``said`` is told in): whoever knew the old
    one is signed out."""
    with engine.begin() as db:
        said(db, account_id)
        db.execute(
            ACCOUNTS.update().where(ACCOUNTS.c.id == account_id).values(password_hash=password_hash)
        )
        db.execute(
            SESSIONS.delete().where(SESSIONS.c.account_id == account_id, SESSIONS.c.id_hash != kept)
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


def end_session(engine: Engine, id_hash: str, account_id: str = "", said: Said = _silent) -> None:
    """End one session (of ``account_id``, whom ``said`` is told of in the same
    transaction)."""
    with engine.begin() as db:
        said(db, account_id)
        db.execute(SESSIONS.delete().where(SESSIONS.c.id_hash == id_hash))


def end_sessions(engine: Engine, account_id: str, said: Said = _silent) -> None:
    """End every session of an account (``said`` is told in the same transaction)."""
    with engine.begin() as db:
        said(db, account_id)
        db.execute(SESSIONS.delete().where(SESSIONS.c.account_id == account_id))


def live_sessions(engine: Engine, id_hashes: Collection[str]) -> set[str]:
    """Those of the sessions ``id_hashes`` that have not ended (a page holds a seat by its
    session only while it lives)."""
    hashes = sorted(set(id_hashes))
    if not hashes:
        return set()
    with engine.connect() as db:
        rows = db.execute(
            sa.select(SESSIONS.c.id_hash).where(
                SESSIONS.c.id_hash.in_(hashes), SESSIONS.c.seen_at >= time.time() - SESSION_IDLE
            )
        ).scalars()
        return {str(found) for found in rows}


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


def set_language(engine: Engine, account_id: str, language: str) -> None:
    """The language the account's pages open in from now on (one spieltisch speaks)."""
    with engine.begin() as db:
        db.execute(ACCOUNTS.update().where(ACCOUNTS.c.id == account_id).values(language=language))


def delete_account(
    engine: Engine, account_id: str, forget: Forget, said: Said = _silent
) -> list[str]:
    """Delete an account and all it holds, in one transaction: first ``said`` is told (its
    sessions end), then ``forget`` (its seats and stored records then name a former player),
    then its ratings, passkeys, challenges and sessions go, and the account itself. The
    tables whose seats ``forget`` changed."""
    with engine.begin() as db:
        said(db, account_id)
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


# --- the request's session -----------------------------------------------------------------


# --- cookies -----------------------------------------------------------------------------


# --- what the routes do ------------------------------------------------------------------


def new_account_id() -> str:
    """A fresh account id (random, URL-safe)."""
    return secrets.token_urlsafe(18)
