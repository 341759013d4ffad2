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

import asyncio
import ipaddress
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)
from webauthn.registration.verify_registration_response import VerifiedRegistration

from spieltisch.core.words import N_
from spieltisch.web.accounts import (
    Account,
    NameTakenError,
    account_name,
    address_of,
    check_attempt,
    check_name_attempt,
    check_origin,
    described,
    facts_of,
    hub_at,
    limits_of,
    name_key,
    new_account_id,
    signed_in_session,
)
from spieltisch.web.db import ACCOUNTS, CHALLENGES, PASSKEYS
from spieltisch.web.seat_api import refusal
from spieltisch.web.tables import RefusedError

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


class PasskeyTakenError(Exception):
    """The credential is registered already."""


# --- the relying party ---------------------------------------------------------------------


DEFAULT_PORTS = {"http": 80, "https": 443}


def party_of(request: Request) -> Party:
    """The relying-party id and origin of the page that sent ``request``; 400 when it was
    opened by an IP address (an RP id must be a name)."""
    host, scheme = request.headers.get("host", ""), request.url.scheme
    if hub_at(request).settings.trust_proxy:
        host = request.headers.get("x-forwarded-host", host).split(",")[0].strip()
        scheme = request.headers.get("x-forwarded-proto", scheme).split(",")[0].strip().lower()
    parts = urlsplit(f"//{host}")
    try:
        name, port = parts.hostname, parts.port
    except ValueError:
        name, port = None, None
    if not name or scheme not in DEFAULT_PORTS:
        raise HTTPException(400, "passkeys need the server's name in the request")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        raise HTTPException(
            400, "passkeys need the server's name, not its address: open it by its name"
        )
    origin = f"{scheme}://{name}"
    if port not in (None, DEFAULT_PORTS[scheme]):
        origin += f":{port}"
    return Party(name, origin)


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
        )
        .where(PASSKEYS.c.id == credential_id)
    )
    with engine.connect() as db:
        row = db.execute(query).mappings().first()
    if row is None:
        return None
    account = Account(row["account_id"], row["name"], bool(row["listed"]))
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
        if new_name is not None and _name_taken(engine, new_name):
            raise NameTakenError(new_name) from None
        raise PasskeyTakenError(credential_id) from None


def _name_taken(engine: Engine, name: str) -> bool:
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


def _selection() -> AuthenticatorSelectionCriteria:
    return AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED,
        user_verification=UserVerificationRequirement.REQUIRED,
    )


async def _offer(request: Request, challenge: Challenge, options: Any) -> dict[str, Any]:
    """Keep the challenge and answer the options (JSON, with the ``challenge_id``)."""
    hub = hub_at(request)
    await hub.write(store_challenge, hub.engine, challenge)
    offered: dict[str, Any] = json.loads(options_to_json(options))
    offered["challenge_id"] = challenge.id
    return offered


def _fresh(purpose: str, account_id: str | None, name: str | None) -> Challenge:
    return Challenge(secrets.token_urlsafe(24), secrets.token_bytes(32), purpose, account_id, name)


async def register_options(request: Request, account: Account) -> dict[str, Any]:
    """Options to add a passkey to ``account`` (its passkeys excluded)."""
    hub, party = hub_at(request), party_of(request)
    known: list[str] = await hub.read(passkey_ids, hub.reader, account.id)
    challenge = _fresh(REGISTER, account.id, None)
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=account.name,
        user_id=account.id.encode(), user_display_name=account.name,
        challenge=challenge.challenge, timeout=TIMEOUT_MS, authenticator_selection=_selection(),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(k)) for k in known
        ],
    )  # fmt: skip
    return await _offer(request, challenge, options)


async def signup_options(request: Request, name: str) -> dict[str, Any]:
    """Options to make an account named ``name`` with a passkey; 422 if the name will not
    do, 409 if it is taken."""
    check_origin(request)
    limits = limits_of(request)
    limits.check(limits.options_from.wait(address_of(request)))
    clean = account_name(name)
    hub = hub_at(request)
    if await hub.read(_name_taken, hub.reader, clean):
        raise RefusedError("this name is taken: choose another", 409)
    party, challenge = party_of(request), _fresh(SIGNUP, new_account_id(), clean)
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=clean,
        user_id=str(challenge.account_id).encode(), user_display_name=clean,
        challenge=challenge.challenge, timeout=TIMEOUT_MS, authenticator_selection=_selection(),
    )  # fmt: skip
    return await _offer(request, challenge, options)


async def signin_options(request: Request, name: str | None) -> dict[str, Any]:
    """Options to sign in with a passkey (any of this site's: the name, if given, is only
    checked once the passkey answers, so that the options never tell whether it exists)."""
    check_origin(request)
    limits = limits_of(request)
    limits.check(limits.options_from.wait(address_of(request)))
    asked = None if name is None else " ".join(name.split())[:64]
    party, challenge = party_of(request), _fresh(SIGNIN, None, asked)
    options = generate_authentication_options(
        rp_id=party.rp_id, challenge=challenge.challenge, timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.REQUIRED,
    )  # fmt: skip
    return await _offer(request, challenge, options)


async def _verified_registration(
    request: Request, challenge: Challenge | None, credential: dict[str, Any]
) -> tuple[str, bytes, int]:
    """The credential id, public key and signature count of a new passkey; 400 if it does
    not answer the challenge."""
    if challenge is None:
        raise HTTPException(400, "the passkey request expired: try again")
    party = party_of(request)
    try:
        verified = await asyncio.to_thread(_verify_attestation, credential, challenge, party)
    except WRONG_CEREMONY:
        raise HTTPException(400, NOT_ACCEPTED) from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if len(credential_id) > MAX_CREDENTIAL_ID:
        raise HTTPException(400, NOT_ACCEPTED)
    return credential_id, verified.credential_public_key, verified.sign_count


async def register(
    request: Request, account: Account, challenge_id: str | None, credential: dict[str, Any]
) -> None:
    """Add the passkey ``credential`` to ``account``; 400 if it does not verify, 409 if it
    is registered already."""
    hub = hub_at(request)
    challenge = await hub.write(take_challenge, hub.engine, REGISTER, challenge_id, account.id)
    credential_id, key, count = await _verified_registration(request, challenge, credential)
    try:
        await hub.write(add_passkey, hub.engine, account.id, credential_id, key, count)
    except PasskeyTakenError:
        raise HTTPException(409, "this passkey is registered already") from None


async def sign_up(request: Request, challenge_id: str, credential: dict[str, Any]) -> Account:
    """Make the account the challenge was offered for, with the passkey ``credential``."""
    check_origin(request)
    limits = limits_of(request)
    limits.check(limits.signup_from.wait(address_of(request)))
    hub = hub_at(request)
    challenge: Challenge | None = await hub.write(take_challenge, hub.engine, SIGNUP, challenge_id)
    credential_id, key, count = await _verified_registration(request, challenge, credential)
    assert challenge is not None and challenge.account_id is not None and challenge.name
    try:
        await hub.write(
            add_passkey, hub.engine, challenge.account_id, credential_id, key, count,
            challenge.name,
        )  # fmt: skip
    except NameTakenError:
        raise RefusedError("this name is taken: choose another", 409) from None
    except PasskeyTakenError:
        raise HTTPException(409, "this passkey is registered already") from None
    return Account(challenge.account_id, challenge.name, False)


async def sign_in(request: Request, challenge_id: str, credential: dict[str, Any]) -> Account:
    """The account whose passkey answered the challenge; 401 if none did, 429 when the
    address (or the name asked for) tried too often."""
    check_origin(request)
    check_attempt(request, None)
    hub = hub_at(request)
    challenge: Challenge | None = await hub.write(take_challenge, hub.engine, SIGNIN, challenge_id)
    if challenge is not None and challenge.name is not None:
        check_name_attempt(request, challenge.name)
    raw = credential.get("rawId") or credential.get("id")
    found: Passkey | None = None
    if challenge is not None and isinstance(raw, str) and 0 < len(raw) <= MAX_CREDENTIAL_ID:
        found = await hub.read(find_passkey, hub.reader, raw)
    if challenge is None or found is None or not _named(challenge, found):
        raise HTTPException(401, NOT_ACCEPTED)
    party = party_of(request)
    try:
        verified = await asyncio.to_thread(_verify_assertion, credential, challenge, found, party)
    except WRONG_CEREMONY:
        raise HTTPException(401, NOT_ACCEPTED) from None
    handle = credential.get("response", {}).get("userHandle")
    if handle and base64url_to_bytes(str(handle)) != found.account.id.encode():
        raise HTTPException(401, NOT_ACCEPTED)
    counted = await hub.write(count_signature, hub.engine, found.id, found.sign_count, verified)
    if not counted:
        raise HTTPException(401, NOT_ACCEPTED)
    return found.account


def _named(challenge: Challenge, found: Passkey) -> bool:
    """Whether the passkey's account is the one the sign-in named (if it named one)."""
    return challenge.name is None or name_key(challenge.name) == name_key(found.account.name)


def _verify_attestation(
    credential: dict[str, Any], challenge: Challenge, party: Party
) -> VerifiedRegistration:
    return verify_registration_response(
        credential=credential, expected_challenge=challenge.challenge,
        expected_rp_id=party.rp_id, expected_origin=party.origin, require_user_verification=True,
    )  # fmt: skip


def _verify_assertion(
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

Credential = Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=16)]
ChallengeId = Annotated[StrictStr, Field(max_length=64)]


class RegisterIn(BaseModel):
    """A new passkey for the signed-in account."""

    model_config = ConfigDict(extra="forbid")
    credential: Credential
    challenge_id: ChallengeId | None = None


class AnswerIn(BaseModel):
    """A passkey's answer to a sign-in's or sign-up's challenge."""

    model_config = ConfigDict(extra="forbid")
    challenge_id: ChallengeId
    credential: Credential


class NameIn(BaseModel):
    """A name (to sign up with, or to sign in as)."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[StrictStr, Field(max_length=100)] | None = None


Answer = Callable[[Request, Response, Account, int], Any]


def passkey_routes(app: FastAPI, answer: Answer) -> None:
    """Register the passkey routes; ``answer`` signs an account in and says so."""

    @app.post("/api/account/passkeys/register/options")
    async def options_to_register(request: Request) -> dict[str, Any]:
        session = await signed_in_session(request)
        return await register_options(request, session.account)

    @app.post("/api/account/passkeys/register", status_code=201)
    async def register_passkey(request: Request, body: RegisterIn) -> dict[str, Any]:
        session = await signed_in_session(request)
        await register(request, session.account, body.challenge_id, body.credential)
        return described(await facts_of(request, session.account), session.csrf)

    @app.post("/api/account/passkeys/signup/options")
    async def options_to_sign_up(request: Request, body: NameIn) -> dict[str, Any]:
        try:
            return await signup_options(request, body.name or "")
        except RefusedError as refused:
            raise refusal(refused) from None

    @app.post("/api/account/passkeys/signup", status_code=201)
    async def signup_with_passkey(
        request: Request, response: Response, body: AnswerIn
    ) -> dict[str, Any]:
        try:
            account = await sign_up(request, body.challenge_id, body.credential)
        except RefusedError as refused:
            raise refusal(refused) from None
        answered: dict[str, Any] = await answer(request, response, account, 201)
        return answered

    @app.post("/api/account/passkeys/signin/options")
    async def options_to_sign_in(request: Request, body: NameIn) -> dict[str, Any]:
        return await signin_options(request, body.name)

    @app.post("/api/account/passkeys/signin")
    async def signin_with_passkey(
        request: Request, response: Response, body: AnswerIn
    ) -> dict[str, Any]:
        account = await sign_in(request, body.challenge_id, body.credential)
        answered: dict[str, Any] = await answer(request, response, account, 200)
        return answered
