"""The passkey routes under ``/api/account/passkeys``: each ceremony's options and its answer,
and the account's passkeys listed and removed.

The ceremonies' parts that need no request (challenges and passkeys as the database keeps
them, the verifications) are the people's (:mod:`~spieltisch.web.people.passkeys`); this is
their HTTP side: the relying party (the configured id, or the name the page was opened by,
checked against the page's origin), the options offered, the answers checked and the account
signed in. A passkey is removed only while the account keeps a way to sign in: an account
without a password keeps at least one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    PublicKeyCredentialDescriptor,
    UserVerificationRequirement,
)

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.people.accounts import (
    Account,
    NameTakenError,
    account_name,
    new_account_id,
)
from spieltisch.web.people.passkeys import (
    MAX_CREDENTIAL_ID,
    NOT_ACCEPTED,
    REGISTER,
    RP_NAME,
    SIGNIN,
    SIGNUP,
    TIMEOUT_MS,
    WRONG_CEREMONY,
    Challenge,
    LastWayInError,
    Party,
    Passkey,
    PasskeyNotFoundError,
    PasskeyShown,
    PasskeyTakenError,
    account_passkeys,
    add_passkey,
    count_signature,
    find_passkey,
    fresh_challenge,
    name_taken,
    named_as_asked,
    passkey_ids,
    remove_passkey,
    selection,
    store_challenge,
    take_challenge,
    verify_assertion,
    verify_attestation,
)
from spieltisch.web.routes.seat_api import refusal
from spieltisch.web.routes.signed import (
    address_of,
    check_origin,
    count_attempt,
    count_signup,
    database_at,
    described,
    facts_of,
    limits_of,
    settings_at,
    signed_in_session,
)

DEFAULT_PORTS = {"http": 80, "https": 443}
NO_STORE = {"Cache-Control": "no-store"}


def party_of(request: Request) -> Party:
    """The relying-party id and origin of the page that sent ``request``: the configured id
    (:attr:`~spieltisch.web.common.settings.Settings.rp_id`), for a page whose origin lies
    on that name or below it, as WebAuthn requires; else the name the page was opened by.
    400 when it was opened by an IP address (an RP id must be a name) or by a name the
    configured id does not cover. (The origin's scheme is the browser's to judge: it makes
    passkeys only on a secure page, and the origin it signs must be this one.)"""
    configured = settings_at(request).rp_id
    scheme, name, port = _page_origin(request, configured)
    if not name or scheme not in DEFAULT_PORTS:
        raise HTTPException(400, "passkeys need the server's name in the request")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        if not configured:
            raise HTTPException(
                400, "passkeys need the server's name, not its address: open it by its name"
            )
    if configured and name != configured and not name.endswith(f".{configured}"):
        raise refusal(
            RefusedError(
                "passkeys here belong to {name}: open this server by that name", 400,
                params={"name": configured},
            )
        )  # fmt: skip
    origin = f"{scheme}://{name}"
    if port not in (None, DEFAULT_PORTS[scheme]):
        origin += f":{port}"
    return Party(configured or name, origin)


def _page_origin(request: Request, configured: str) -> tuple[str, str | None, int | None]:
    """The scheme, host name and port of the page that sent ``request``: with a configured
    relying-party id, as its ``Origin`` says (what the browser signs), else (or without one)
    as the request's ``Host`` (behind a trusted proxy: ``X-Forwarded-Host`` and
    ``X-Forwarded-Proto``) says."""
    host, scheme = request.headers.get("host", ""), request.url.scheme
    if settings_at(request).trust_proxy:
        host = request.headers.get("x-forwarded-host", host).split(",")[0].strip()
        scheme = request.headers.get("x-forwarded-proto", scheme).split(",")[0].strip().lower()
    said = request.headers.get("origin", "")
    if configured and said and said != "null":
        parts = urlsplit(said[:300])
        host, scheme = parts.netloc, parts.scheme.lower()
    parts = urlsplit(f"//{host}")
    try:
        return scheme, parts.hostname, parts.port
    except ValueError:
        return scheme, None, None


async def _offer(request: Request, challenge: Challenge, options: Any) -> dict[str, Any]:
    """Keep the challenge and answer the options (JSON, with the ``challenge_id``)."""
    database = database_at(request)
    await database.write(store_challenge, database.engine, challenge)
    offered: dict[str, Any] = json.loads(options_to_json(options))
    offered["challenge_id"] = challenge.id
    return offered


async def register_options(request: Request, account: Account) -> dict[str, Any]:
    """Options to add a passkey to ``account`` (its passkeys excluded)."""
    database, party = database_at(request), party_of(request)
    known: list[str] = await database.read(passkey_ids, database.reader, account.id)
    challenge = fresh_challenge(REGISTER, account.id, None)
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=account.name,
        user_id=account.id.encode(), user_display_name=account.name,
        challenge=challenge.challenge, timeout=TIMEOUT_MS, authenticator_selection=selection(),
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
    database = database_at(request)
    if await database.read(name_taken, database.reader, clean):
        raise RefusedError("this name is taken: choose another", 409)
    party, challenge = party_of(request), fresh_challenge(SIGNUP, new_account_id(), clean)
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=clean,
        user_id=str(challenge.account_id).encode(), user_display_name=clean,
        challenge=challenge.challenge, timeout=TIMEOUT_MS, authenticator_selection=selection(),
    )  # fmt: skip
    return await _offer(request, challenge, options)


async def signin_options(request: Request, name: str | None) -> dict[str, Any]:
    """Options to sign in with a passkey (any of this site's: the name, if given, is only
    checked once the passkey answers, so that the options never tell whether it exists)."""
    check_origin(request)
    limits = limits_of(request)
    limits.check(limits.options_from.wait(address_of(request)))
    asked = None if name is None else " ".join(name.split())[:64]
    party, challenge = party_of(request), fresh_challenge(SIGNIN, None, asked)
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
        verified = await asyncio.to_thread(verify_attestation, credential, challenge, party)
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
    database = database_at(request)
    challenge = await database.write(
        take_challenge, database.engine, REGISTER, challenge_id, account.id
    )
    credential_id, key, count = await _verified_registration(request, challenge, credential)
    try:
        await database.write(add_passkey, database.engine, account.id, credential_id, key, count)
    except PasskeyTakenError:
        raise HTTPException(409, "this passkey is registered already") from None


async def sign_up(request: Request, challenge_id: str, credential: dict[str, Any]) -> Account:
    """Make the account the challenge was offered for, with the passkey ``credential``."""
    check_origin(request)
    await count_signup(request)
    database = database_at(request)
    challenge: Challenge | None = await database.write(
        take_challenge, database.engine, SIGNUP, challenge_id
    )
    credential_id, key, count = await _verified_registration(request, challenge, credential)
    assert challenge is not None and challenge.account_id is not None and challenge.name
    try:
        await database.write(
            add_passkey, database.engine, challenge.account_id, credential_id, key, count,
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
    # Counted from the address, as every process counts it, never against the name: nobody
    # guesses a passkey, so a name's allowance would only let others lock its person out.
    await count_attempt(request, None)
    database = database_at(request)
    challenge: Challenge | None = await database.write(
        take_challenge, database.engine, SIGNIN, challenge_id
    )
    raw = credential.get("rawId") or credential.get("id")
    found: Passkey | None = None
    if challenge is not None and isinstance(raw, str) and 0 < len(raw) <= MAX_CREDENTIAL_ID:
        found = await database.read(find_passkey, database.reader, raw)
    if challenge is None or found is None or not named_as_asked(challenge, found):
        raise HTTPException(401, NOT_ACCEPTED)
    party = party_of(request)
    try:
        verified = await asyncio.to_thread(verify_assertion, credential, challenge, found, party)
    except WRONG_CEREMONY:
        raise HTTPException(401, NOT_ACCEPTED) from None
    handle = credential.get("response", {}).get("userHandle")
    if handle and base64url_to_bytes(str(handle)) != found.account.id.encode():
        raise HTTPException(401, NOT_ACCEPTED)
    counted = await database.write(
        count_signature, database.engine, found.id, found.sign_count, verified
    )
    if not counted:
        raise HTTPException(401, NOT_ACCEPTED)
    return found.account


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


class RemoveIn(BaseModel):
    """One of the account's passkeys, by its credential id."""

    model_config = ConfigDict(extra="forbid")
    id: Annotated[StrictStr, Field(min_length=1, max_length=MAX_CREDENTIAL_ID)]


async def remove(request: Request, account: Account, credential_id: str) -> None:
    """Remove one of ``account``'s passkeys; 404 if it has none of that id, 409 if it is the
    account's only way to sign in."""
    database = database_at(request)
    try:
        await database.write(remove_passkey, database.engine, account.id, credential_id)
    except PasskeyNotFoundError:
        raise HTTPException(404, "no such passkey") from None
    except LastWayInError:
        raise HTTPException(
            409, "this passkey is your only way to sign in: add another one first"
        ) from None


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

    @app.get("/api/account/passkeys")
    async def passkeys(request: Request, response: Response) -> dict[str, Any]:
        session = await signed_in_session(request)
        database = database_at(request)
        held: list[PasskeyShown] = await database.read(
            account_passkeys, database.reader, session.account.id
        )
        response.headers.update(NO_STORE)
        return {"passkeys": [{"id": key.id, "created_at": key.created_at} for key in held]}

    @app.post("/api/account/passkeys/remove")
    async def remove_one(request: Request, response: Response, body: RemoveIn) -> dict[str, Any]:
        session = await signed_in_session(request)
        await remove(request, session.account, body.id)
        response.headers.update(NO_STORE)
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
