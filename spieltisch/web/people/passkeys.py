"""Passkeys (WebAuthn, with the ``webauthn`` package): add one to an account, sign in with
one, or make an account that has only passkeys.

Each ceremony is two requests: the options (with a fresh challenge, kept in the database for
five minutes and used once, and its ``challenge_id``), then the browser's credential, checked
against that challenge, this server's relying-party id and its origin. The relying-party id
is the host name the page was opened by (an IP address cannot be one: passkeys need a name,
such as ``localhost``); the origin is the page's scheme, host and port (behind a trusted proxy,
as ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` say). Passkeys are discoverable (so a
sign-in needs no name) and verify their user. An authenticator's signature counter must grow
at every sign-in; the new count is stored.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from webauthn import (
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)
from webauthn.registration.verify_registration_response import VerifiedRegistration

from spieltisch.core.words import N_
from spieltisch.web.people.accounts import (
    Account,
    NameTakenError,
    name_key,
)
from spieltisch.web.store.db import ACCOUNTS, CHALLENGES, PASSKEYS

RP_NAME = "spieltisch"
CHALLENGE_LIFE = 300.0
"""Seconds a challenge may be answered in."""
TIMEOUT_MS = 120_000
"""How long the browser may wait for the person (a hint to it)."""
MAX_CREDENTIAL_ID = 255
"""The longest credential id kept (base64url characters)."""
REGISTER, SIGNIN, SIGNUP = "register", "signin", "signup"
NOT_ACCEPTED = N_("this passkey was not accepted")
WRONG_CEREMONY = (WebAuthnException, ValueError, TypeError, KeyError)
"""What a credential that does not verify (or cannot be read) raises in ``webauthn``."""


@dataclass(frozen=True, slots=True)
class Party:
    """This server as a WebAuthn relying party, for one request."""

    rp_id: str
    origin: str


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as stored."""

    id: str
    challenge: bytes
    purpose: str
    account_id: str | None
    name: str | None


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as stored."""

    id: str
    account: Account
    public_key: bytes
    sign_count: int


@dataclass(frozen=True, slots=True)
class PasskeyShown:
    """A passkey as its owner's account page lists it."""

    id: str
    created_at: float


class PasskeyTakenError(Exception):
    """The credential is registered already."""


class PasskeyNotFoundError(Exception):
    """The account has no passkey of that id."""


class LastWayInError(Exception):
    """The passkey is the account's only way to sign in (it has no password and no other
    passkey), so it stays."""


# --- the relying party ---------------------------------------------------------------------


# --- the database ------------------------------------------------------------------------


def store_challenge(engine: Engine, challenge: Challenge) -> None:
    """Keep a new challenge (and drop those too old to be answered)."""
    with engine.begin() as db:
        db.execute(
            CHALLENGES.delete().where(CHALLENGES.c.created_at < time.time() - CHALLENGE_LIFE)
        )
        db.execute(
            CHALLENGES.insert().values(
                id=challenge.id, challenge=bytes_to_base64url(challenge.challenge),
                account_id=challenge.account_id, name=challenge.name,
                purpose=challenge.purpose, created_at=time.time(),
            )
        )  # fmt: skip


def take_challenge(
    engine: Engine, purpose: str, challenge_id: str | None, account_id: str | None = None
) -> Challenge | None:
    """The challenge ``challenge_id`` for ``purpose`` (without an id: the account's newest),
    removed so that it is used once; ``None`` if there is none or it is too old."""
    query = CHALLENGES.select().where(CHALLENGES.c.purpose == purpose)
    if challenge_id is not None:
        query = query.where(CHALLENGES.c.id == challenge_id)
    if account_id is not None:
        query = query.where(CHALLENGES.c.account_id == account_id)
    with engine.begin() as db:
        row = db.execute(query.order_by(CHALLENGES.c.created_at.desc())).mappings().first()
        if row is None:
            return None
        gone = db.execute(CHALLENGES.delete().where(CHALLENGES.c.id == row["id"])).rowcount
    if gone != 1 or row["created_at"] < time.time() - CHALLENGE_LIFE:
        return None
    return Challenge(
        row["id"], base64url_to_bytes(row["challenge"]), row["purpose"], row["account_id"],
        row["name"],
    )  # fmt: skip


def passkey_ids(engine: Engine, account_id: str) -> list[str]:
    """The credential ids of an account's passkeys."""
    with engine.connect() as db:
        query = PASSKEYS.select().with_only_columns(PASSKEYS.c.id)
        return list(db.execute(query.where(PASSKEYS.c.account_id == account_id)).scalars())


def account_passkeys(engine: Engine, account_id: str) -> list[PasskeyShown]:
    """The account's passkeys, the oldest first."""
    query = (
        sa.select(PASSKEYS.c.id, PASSKEYS.c.created_at)
        .where(PASSKEYS.c.account_id == account_id)
        .order_by(PASSKEYS.c.created_at, PASSKEYS.c.id)
    )
    with engine.connect() as db:
        return [PasskeyShown(row.id, float(row.created_at)) for row in db.execute(query)]


def remove_passkey(engine: Engine, account_id: str, credential_id: str) -> None:
    """Remove one of the account's passkeys; :class:`PasskeyNotFoundError` if it has none of
    that id, :class:`LastWayInError` if it is the last way in (no password, no other
    passkey). The account's row is locked first, so that two removals at once (on PostgreSQL,
    from two processes) cannot both take a last-but-one passkey."""
    with engine.begin() as db:
        hashed = db.execute(
            sa.select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.id == account_id).with_for_update()
        ).first()
        mine = PASSKEYS.c.account_id == account_id
        held = db.execute(
            sa.select(PASSKEYS.c.id).where(mine, PASSKEYS.c.id == credential_id)
        ).first()
        if hashed is None or held is None:
            raise PasskeyNotFoundError(credential_id)
        others = db.execute(
            sa.select(sa.func.count()).where(mine, PASSKEYS.c.id != credential_id)
        ).scalar_one()
        if hashed.password_hash is None and not others:
            raise LastWayInError(credential_id)
        db.execute(PASSKEYS.delete().where(mine, PASSKEYS.c.id == credential_id))


def find_passkey(engine: Engine, credential_id: str) -> Passkey | None:
    """The passkey ``credential_id``, with its account."""
    query = (
        PASSKEYS.join(ACCOUNTS, ACCOUNTS.c.id == PASSKEYS.c.account_id)
        .select()
        .with_only_columns(
            PASSKEYS.c.id,
            PASSKEYS.c.public_key,
            PASSKEYS.c.sign_count,
            ACCOUNTS.c.id.label("account_id"),
            ACCOUNTS.c.name,
            ACCOUNTS.c.listed,
            ACCOUNTS.c.language,
        )
        .where(PASSKEYS.c.id == credential_id)
    )
    with engine.connect() as db:
        row = db.execute(query).mappings().first()
    if row is None:
        return None
    account = Account(row["account_id"], row["name"], bool(row["listed"]), row["language"])
    return Passkey(row["id"], account, base64url_to_bytes(row["public_key"]), row["sign_count"])


def add_passkey(
    engine: Engine, account_id: str, credential_id: str, public_key: bytes, sign_count: int,
    new_name: str | None = None,
) -> None:  # fmt: skip
    """Keep a passkey for ``account_id`` (with ``new_name``: make the account too, in the
    same transaction); :class:`PasskeyTakenError` if it is registered already,
    :class:`NameTakenError` if the new account's name is taken."""
    now = time.time()
    try:
        with engine.begin() as db:
            if new_name is not None:
                db.execute(
                    ACCOUNTS.insert().values(
                        id=account_id, name=new_name, name_key=name_key(new_name),
                        password_hash=None, listed=False, created_at=now,
                    )
                )  # fmt: skip
            db.execute(
                PASSKEYS.insert().values(
                    id=credential_id, account_id=account_id,
                    public_key=bytes_to_base64url(public_key), sign_count=sign_count,
                    created_at=now,
                )
            )  # fmt: skip
    except IntegrityError:
        if new_name is not None and name_taken(engine, new_name):
            raise NameTakenError(new_name) from None
        raise PasskeyTakenError(credential_id) from None


def name_taken(engine: Engine, name: str) -> bool:
    """Whether an account already has ``name`` (casefolded)."""
    with engine.connect() as db:
        query = ACCOUNTS.select().with_only_columns(ACCOUNTS.c.id)
        return db.execute(query.where(ACCOUNTS.c.name_key == name_key(name))).first() is not None


def count_signature(engine: Engine, credential_id: str, seen: int, new: int) -> bool:
    """Store a passkey's new signature count if it still stands at ``seen`` (False: another
    sign-in with it came first)."""
    with engine.begin() as db:
        changed = db.execute(
            PASSKEYS.update()
            .where(PASSKEYS.c.id == credential_id, PASSKEYS.c.sign_count == seen)
            .values(sign_count=new)
        ).rowcount
    return bool(changed == 1)


# --- ceremonies --------------------------------------------------------------------------


def selection() -> AuthenticatorSelectionCriteria:
    """What every passkey must be: discoverable (a sign-in needs no name) and user-verifying."""
    return AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED,
        user_verification=UserVerificationRequirement.REQUIRED,
    )


def fresh_challenge(purpose: str, account_id: str | None, name: str | None) -> Challenge:
    """A new challenge for ``purpose`` (random id and bytes), for an account or a name."""
    return Challenge(secrets.token_urlsafe(24), secrets.token_bytes(32), purpose, account_id, name)


def named_as_asked(challenge: Challenge, found: Passkey) -> bool:
    """Whether the passkey's account is the one the sign-in named (if it named one)."""
    return challenge.name is None or name_key(challenge.name) == name_key(found.account.name)


def verify_attestation(
    credential: dict[str, Any], challenge: Challenge, party: Party
) -> VerifiedRegistration:
    """The new passkey, if the browser's attestation answers ``challenge`` for ``party``."""
    return verify_registration_response(
        credential=credential, expected_challenge=challenge.challenge,
        expected_rp_id=party.rp_id, expected_origin=party.origin, require_user_verification=True,
    )  # fmt: skip


def verify_assertion(
    credential: dict[str, Any], challenge: Challenge, found: Passkey, party: Party
) -> int:
    """The passkey's new signature count, if the assertion verifies."""
    verified = verify_authentication_response(
        credential=credential, expected_challenge=challenge.challenge,
        expected_rp_id=party.rp_id, expected_origin=party.origin,
        credential_public_key=found.public_key,
        credential_current_sign_count=found.sign_count, require_user_verification=True,
    )  # fmt: skip
    return int(verified.new_sign_count)


# --- routes ------------------------------------------------------------------------------
