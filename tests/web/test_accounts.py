"""Accounts through Starlette's TestClient: signing up, in and out, the password rules, and the
attacks: guessing (rate-limited, never telling whether a name exists), session fixation,
cross-site requests (CSRF), the cookie's flags; signing out everywhere and deleting an account.

One client plays several browsers by swapping its cookie jar (:func:`as_browser`).
"""

from __future__ import annotations

import hashlib
import threading
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import uvicorn
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from httpx import Response

from spieltisch.web.common import buckets as limits
from spieltisch.web.common.settings import Settings
from spieltisch.web.people.accounts import common_passwords
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.signed import ATTEMPTS_BURST, COOKIE, SIGNUP_EVERY, SIGNUPS_BURST
from spieltisch.web.store.db import (
    ACCOUNTS,
    CHALLENGES,
    PASSKEYS,
    RATINGS,
    SEATS,
    SESSIONS,
    make_engine,
)

pytestmark = pytest.mark.timeout(120)
PASSWORD = "a table of friends 42"
SAME_ORIGIN = {"Origin": "http://testserver"}


def settings(folder: Path, **extra: Any) -> Settings:
    database = f"sqlite:///{folder / 'db.sqlite'}"
    return Settings(database=database, bot_workers=1, bot_pause=0, **extra)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path))) as test_client:
        yield test_client


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[TestClient]:
    """A server behind a trusted proxy (a client's address is its ``X-Forwarded-For``)."""
    with TestClient(create_app(settings(tmp_path, trust_proxy=True))) as test_client:
        yield test_client


def rows(client: TestClient, table: sa.Table) -> list[Any]:
    """Every row of ``table`` in the client's server's database."""
    url = client.app.state.hub.settings.database_url()  # type: ignore[attr-defined]
    engine = make_engine(url, writer=False)
    with engine.connect() as connection:
        found = list(connection.execute(sa.select(table)).mappings())
    engine.dispose()
    return found


def execute(client: TestClient, statement: Any) -> None:
    url = client.app.state.hub.settings.database_url()  # type: ignore[attr-defined]
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(statement)
    engine.dispose()


def as_browser(client: TestClient, cookie: str | None) -> None:
    """Make the client a browser that holds ``cookie`` (``None``: no cookie at all)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)


def cookie_of(answer: Response) -> str:
    value = answer.cookies.get(COOKIE)
    assert value, answer.headers.get("set-cookie")
    return str(value)


def sign_up(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> Response:
    answer: Response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return answer


def sign_in(client: TestClient, name: str = "Ann", password: str = PASSWORD, **kw: Any) -> Response:
    body = {"name": name, "password": password}
    answer: Response = client.post("/api/account/signin", json=body, **kw)
    return answer


def csrf_of(answer: Response) -> dict[str, str]:
    return {"X-CSRF-Token": answer.json()["csrf"]}


def me(client: TestClient) -> Any:
    answer = client.get("/api/account")
    assert answer.status_code == 200
    return answer.json()["account"]


# --- signing up and in -------------------------------------------------------------------


def test_sign_up_signs_in_and_stores_an_argon2id_hash(client: TestClient) -> None:
    assert client.get("/api/account").json() == {"account": None}
    answer = sign_up(client, "Ann  Example")
    body = answer.json()
    assert body["account"] == {
        "id": body["account"]["id"], "name": "Ann Example", "listed": False, "language": None,
        "passkeys": 0, "password": True,
    }  # fmt: skip
    assert len(body["csrf"]) >= 32
    assert answer.headers["cache-control"] == "no-store"
    assert me(client)["name"] == "Ann Example"
    (stored,) = rows(client, ACCOUNTS)
    assert stored["password_hash"].startswith("$argon2id$")
    assert PASSWORD not in stored["password_hash"]
    assert stored["name_key"] == "ann example"
    (session,) = rows(client, SESSIONS)
    cookie = cookie_of(answer)
    assert session["id_hash"] == hashlib.sha256(cookie.encode()).hexdigest()
    assert cookie not in str(rows(client, SESSIONS))


def test_sign_in_with_the_password_and_any_case_of_the_name(client: TestClient) -> None:
    sign_up(client, "Ann Example")
    as_browser(client, None)
    assert me(client) is None
    answer = sign_in(client, "ANN EXAMPLE")
    assert answer.status_code == 200, answer.text
    assert answer.json()["account"]["name"] == "Ann Example"
    assert me(client)["name"] == "Ann Example"


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    sign_up(client)
    as_browser(client, None)
    wrong = sign_in(client, "Ann", "not the password at all")
    unknown = sign_in(client, "Nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong name or password"}
    assert COOKIE not in wrong.headers.get("set-cookie", "")
    assert me(client) is None


def test_short_and_common_passwords_are_refused(client: TestClient) -> None:
    short = client.post("/api/account/signup", json={"name": "Ann", "password": "nine char"})
    assert short.status_code == 422
    assert short.json()["detail"] == "a password needs at least 10 characters"
    for common in ("qwertyuiop", "Password123", "QWERTYUIOP"):
        assert common.casefold() in common_passwords()
        answer = client.post("/api/account/signup", json={"name": "Ann", "password": common})
        assert answer.status_code == 422, common
        assert "most common" in answer.json()["detail"]
    assert rows(client, ACCOUNTS) == []
    sign_up(client, "Ann", "qwertyuiop but longer")  # a common one inside a longer one is fine


def test_the_common_list_is_shipped_with_its_licence() -> None:
    passwords = common_passwords()
    assert len(passwords) > 10_000
    assert {"123456", "password", "qwertyuiop"} <= passwords
    from spieltisch.web.people.accounts import COMMON_PASSWORDS

    head = COMMON_PASSWORDS.read_text(encoding="utf-8")[:3000]
    assert "MIT License" in head and "zxcvbn" in head


def test_names_are_display_names_unique_when_casefolded(client: TestClient) -> None:
    sign_up(client, "Straße")
    as_browser(client, None)
    taken = client.post("/api/account/signup", json={"name": "STRASSE", "password": PASSWORD})
    assert taken.status_code == 409
    assert taken.json()["detail"] == "this name is taken: choose another"
    for bad in ("Bot 2", "   ", "former player", "x" * 41):
        answer = client.post("/api/account/signup", json={"name": bad, "password": PASSWORD})
        assert answer.status_code == 422, bad
    assert client.post("/api/account/signup", json={"name": "Ann"}).status_code == 422
    extra = {"name": "Ann", "password": PASSWORD, "admin": True}
    assert client.post("/api/account/signup", json=extra).status_code == 422
    assert len(rows(client, ACCOUNTS)) == 1


def test_an_old_hash_is_renewed_at_sign_in(client: TestClient) -> None:
    sign_up(client)
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    execute(client, ACCOUNTS.update().values(password_hash=weak))
    as_browser(client, None)
    assert sign_in(client).status_code == 200
    (stored,) = rows(client, ACCOUNTS)
    assert stored["password_hash"] != weak
    assert stored["password_hash"].startswith("$argon2id$v=19$m=65536,t=3,p=4$")


# --- guessing ----------------------------------------------------------------------------


@pytest.fixture
def still(monkeypatch: pytest.MonkeyPatch) -> None:
    """The allowances' clock stands still (no attempt comes back while a test runs, however
    slowly the machine hashes)."""
    monkeypatch.setattr(limits, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))


@pytest.mark.usefixtures("still")
def test_guessing_from_one_address_is_rate_limited(client: TestClient) -> None:
    sign_up(client)
    as_browser(client, None)
    names = [f"Someone {n}" for n in range(ATTEMPTS_BURST)]
    for name in names:  # a burst, each attempt a different name
        assert sign_in(client, name, "guess guess guess").status_code == 401
    limited = sign_in(client, "Ann", PASSWORD)  # even the right password waits now
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "12"  # one attempt every 12 seconds
    assert limited.json()["detail"] == "too many attempts: wait a little and try again"
    assert COOKIE not in limited.headers.get("set-cookie", "")
    assert me(client) is None


@pytest.mark.usefixtures("still")
def test_guessing_one_name_from_many_addresses_is_rate_limited(proxied: TestClient) -> None:
    sign_up(proxied, "Ann")
    as_browser(proxied, None)

    def attempt(name: str, address: str) -> Response:
        return sign_in(proxied, name, "guess guess guess", headers={"X-Forwarded-For": address})

    for n in range(ATTEMPTS_BURST):
        assert attempt("Ann", f"10.0.0.{n}").status_code == 401
        assert attempt("Nobody", f"10.0.1.{n}").status_code == 401
    known, unknown = attempt("ann", "10.0.2.1"), attempt("nobody", "10.0.2.2")
    assert known.status_code == unknown.status_code == 429  # whether or not the name exists
    assert known.json() == unknown.json()
    assert known.headers["retry-after"] == unknown.headers["retry-after"] == "12"
    other = sign_in(proxied, "Ann", PASSWORD, headers={"X-Forwarded-For": "10.0.3.1"})
    assert other.status_code == 429  # the name's allowance ran out, whoever asks


@pytest.mark.usefixtures("still")
def test_sign_ups_from_one_address_are_rate_limited(client: TestClient) -> None:
    for n in range(SIGNUPS_BURST):  # each refused for its password, and counted
        body = {"name": f"Player {n}", "password": "short"}
        assert client.post("/api/account/signup", json=body).status_code == 422
    answer = client.post("/api/account/signup", json={"name": "One more", "password": PASSWORD})
    assert answer.status_code == 429
    assert answer.headers["retry-after"] == str(int(SIGNUP_EVERY))
    assert rows(client, ACCOUNTS) == []


# --- sessions ----------------------------------------------------------------------------


def test_a_planted_cookie_is_never_adopted(client: TestClient) -> None:
    sign_up(client)
    planted = "attacker-chosen-value-0123456789abcdefghijkl"
    as_browser(client, planted)
    assert me(client) is None  # unknown: ignored
    answer = sign_in(client)
    assert answer.status_code == 200
    fresh = cookie_of(answer)
    assert fresh != planted
    as_browser(client, planted)
    assert me(client) is None  # the attacker's cookie signed nobody in
    hashes = {row["id_hash"] for row in rows(client, SESSIONS)}
    assert hashlib.sha256(planted.encode()).hexdigest() not in hashes
    as_browser(client, fresh)
    assert me(client)["name"] == "Ann"


def test_every_sign_in_makes_a_new_session_and_ends_the_browsers_old_one(
    client: TestClient,
) -> None:
    first = cookie_of(sign_up(client))
    second = sign_in(client)
    assert second.status_code == 200
    renewed = cookie_of(second)
    assert renewed != first
    as_browser(client, first)
    assert me(client) is None  # the old session ended with the sign-in
    as_browser(client, renewed)
    assert me(client)["name"] == "Ann"
    assert len(rows(client, SESSIONS)) == 1
    as_browser(client, None)
    elsewhere = cookie_of(sign_in(client))  # another browser: both stay signed in
    for cookie in (renewed, elsewhere):
        as_browser(client, cookie)
        assert me(client)["name"] == "Ann"


def test_sign_out_ends_this_session_only(client: TestClient) -> None:
    one = sign_up(client)
    as_browser(client, None)
    two = sign_in(client)
    out = client.post("/api/account/signout", headers=csrf_of(two))
    assert out.status_code == 204
    assert 'spieltisch_session=""' in out.headers["set-cookie"]
    assert me(client) is None
    as_browser(client, cookie_of(two))
    assert me(client) is None
    as_browser(client, cookie_of(one))
    assert me(client)["name"] == "Ann"


def two_of_ann_and_bea(client: TestClient) -> tuple[Response, Response, str | None]:
    """Ann signed up on her laptop and signed in on her phone, Bea on a browser of her own; the
    client is Ann's phone now. Ann's two answers and Bea's cookie."""
    laptop = sign_up(client)
    as_browser(client, None)
    phone = sign_in(client)
    as_browser(client, None)
    sign_up(client, "Bea")
    bea = client.cookies.get(COOKIE)
    as_browser(client, cookie_of(phone))
    return laptop, phone, bea


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    laptop, phone, bea = two_of_ann_and_bea(client)
    assert client.post("/api/account/signout-everywhere").status_code == 403
    out = client.post("/api/account/signout-everywhere", headers=csrf_of(phone))
    assert out.status_code == 204
    for cookie in (cookie_of(laptop), cookie_of(phone)):
        as_browser(client, cookie)
        assert me(client) is None
    as_browser(client, bea)
    assert me(client)["name"] == "Bea"  # another account's sessions stay
    (left,) = rows(client, SESSIONS)
    assert left["account_id"] != laptop.json()["account"]["id"]


# --- cross-site requests -----------------------------------------------------------------


def test_changes_need_the_sessions_csrf_token_and_this_origin(client: TestClient) -> None:
    answer = sign_up(client)
    token = csrf_of(answer)
    path, body = "/api/account/settings", {"listed": True}
    assert client.post(path, json=body).status_code == 403
    assert client.post(path, json=body, headers={"X-CSRF-Token": "wrong"}).status_code == 403
    assert client.post(path, json=body, headers={"X-CSRF-Token": ""}).status_code == 403
    foreign = {**token, "Origin": "https://evil.example"}
    assert client.post(path, json=body, headers=foreign).status_code == 403
    via_referer = {**token, "Referer": "https://evil.example/page"}
    assert client.post(path, json=body, headers=via_referer).status_code == 403
    cross = {**token, "Sec-Fetch-Site": "cross-site"}
    assert client.post(path, json=body, headers=cross).status_code == 403
    assert client.post(path, json=body, headers={**token, "Origin": "null"}).status_code == 403
    assert me(client)["listed"] is False  # nothing changed
    ok = client.post(path, json=body, headers={**token, **SAME_ORIGIN})
    assert ok.status_code == 200
    assert ok.json()["account"]["listed"] is True
    assert me(client)["listed"] is True


def test_another_sessions_token_does_not_do(client: TestClient) -> None:
    first = sign_up(client)
    as_browser(client, None)
    sign_up(client, "Bea")
    answer = client.post("/api/account/settings", json={"listed": True}, headers=csrf_of(first))
    assert answer.status_code == 403


def test_changes_need_a_session(client: TestClient) -> None:
    for path in ("/api/account/signout", "/api/account/signout-everywhere"):
        assert client.post(path).status_code == 401
    assert client.post("/api/account/settings", json={"listed": True}).status_code == 401
    assert client.post("/api/account/delete", json={"confirm": "Ann"}).status_code == 401


def test_sign_in_and_up_from_another_site_are_refused(client: TestClient) -> None:
    foreign = {"Origin": "https://evil.example"}
    body = {"name": "Ann", "password": PASSWORD}
    assert client.post("/api/account/signup", json=body, headers=foreign).status_code == 403
    assert rows(client, ACCOUNTS) == []
    assert client.post("/api/account/signup", json=body, headers=SAME_ORIGIN).status_code == 201
    as_browser(client, None)
    assert sign_in(client, headers=foreign).status_code == 403
    assert me(client) is None
    assert sign_in(client, headers=SAME_ORIGIN).status_code == 200


# --- the cookie --------------------------------------------------------------------------


def flags(answer: Response) -> set[str]:
    header = answer.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=")
    return {part.strip().lower() for part in header.split(";")[1:]}


def test_the_cookie_is_httponly_and_samesite_lax(client: TestClient) -> None:
    seen = flags(sign_up(client))
    assert {"httponly", "samesite=lax", "path=/"} <= seen
    assert "secure" not in seen  # served over plain http


def test_the_cookie_is_secure_over_https(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path))
    with TestClient(app, base_url="https://testserver") as client:
        answer = sign_up(client)
        assert {"httponly", "samesite=lax", "secure", "path=/"} <= flags(answer)
        assert me(client)["name"] == "Ann"


def test_the_proxy_says_https_only_when_trusted(tmp_path: Path) -> None:
    https = {"X-Forwarded-Proto": "https"}
    body = {"name": "Ann", "password": PASSWORD}
    with TestClient(create_app(settings(tmp_path))) as client:
        untrusted = client.post("/api/account/signup", json=body, headers=https)
        assert "secure" not in flags(untrusted)
    with TestClient(create_app(settings(tmp_path, trust_proxy=True))) as client:
        answer = sign_in(client, headers=https)
        assert answer.status_code == 200
        assert "secure" in flags(answer)


# --- deleting ----------------------------------------------------------------------------


def test_delete_removes_the_account_and_all_it_holds(client: TestClient) -> None:
    answer = sign_up(client)
    account_id = answer.json()["account"]["id"]
    as_browser(client, None)
    other = sign_in(client)
    as_browser(client, None)
    sign_up(client, "Bea")
    bea = client.cookies.get(COOKIE)
    made = client.post(
        "/api/tables", json={"game": "awimbawe", "seats": [{"kind": "person"}] * 2}
    ).json()
    execute(client, SEATS.update().where(SEATS.c.seat == 0).values(account_id=account_id))
    execute(
        client,
        PASSKEYS.insert().values(
            id="credential", account_id=account_id, public_key="key", sign_count=0, created_at=0
        ),
    )
    execute(
        client,
        RATINGS.insert().values(
            account_id=account_id, game="awimbawe", players=2, mu=25.0, sigma=8.3, games=1,
            updated_at=0,
        ),
    )  # fmt: skip
    as_browser(client, cookie_of(answer))
    wrong = client.post("/api/account/delete", json={"confirm": "Bea"}, headers=csrf_of(answer))
    assert wrong.status_code == 422
    assert client.post("/api/account/delete", json={"confirm": "Ann"}).status_code == 403
    assert len(rows(client, ACCOUNTS)) == 2
    gone = client.post("/api/account/delete", json={"confirm": "ann"}, headers=csrf_of(answer))
    assert gone.status_code == 204
    assert 'spieltisch_session=""' in gone.headers["set-cookie"]
    assert [row["name"] for row in rows(client, ACCOUNTS)] == ["Bea"]
    assert all(row["account_id"] != account_id for row in rows(client, SESSIONS))
    assert rows(client, PASSKEYS) == rows(client, RATINGS) == []
    seats = {row["seat"]: row for row in rows(client, SEATS) if row["table_id"] == made["id"]}
    assert seats[0]["account_id"] is None
    assert seats[0]["name"] == "Seat 1"  # before the start its seat is free again
    assert seats[0]["token_hash"] is None  # and the deleted account's link has ended
    for cookie in (cookie_of(answer), cookie_of(other)):
        as_browser(client, cookie)
        assert me(client) is None
    as_browser(client, bea)
    assert me(client)["name"] == "Bea"
    as_browser(client, None)
    assert sign_in(client).status_code == 401
    sign_up(client)  # the name is free again


# --- passkey ceremonies' edges (the ceremonies themselves: tests/web/test_passkeys.py) --------


def test_the_relying_party_is_the_host_name_and_never_an_address(tmp_path: Path) -> None:
    path = "/api/account/passkeys/signin/options"
    forwarded = {"X-Forwarded-Host": "spiel.example", "X-Forwarded-Proto": "https"}
    with TestClient(create_app(settings(tmp_path))) as client:
        assert client.post(path, json={}).json()["rpId"] == "testserver"
        assert client.post(path, json={}, headers=forwarded).json()["rpId"] == "testserver"
        for host in ("127.0.0.1:8000", "[::1]:8000", "10.1.2.3"):
            answer = client.post(path, json={}, headers={"Host": host})
            assert answer.status_code == 400, host
            assert "not its address" in answer.json()["detail"]
    with TestClient(create_app(settings(tmp_path, trust_proxy=True))) as client:
        answer = client.post(
            path, json={}, headers={**forwarded, "Origin": "https://spiel.example"}
        )
        assert answer.json()["rpId"] == "spiel.example"


def test_a_passkey_answer_needs_a_live_unused_challenge(client: TestClient) -> None:
    fake = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
    body = {"challenge_id": "no-such-challenge", "credential": fake}
    assert client.post("/api/account/passkeys/signin", json=body).status_code == 401
    options = client.post("/api/account/passkeys/signin/options", json={}).json()
    body = {"challenge_id": options["challenge_id"], "credential": fake}
    unknown = client.post("/api/account/passkeys/signin", json=body)
    assert unknown.status_code == 401  # no such passkey
    assert unknown.json() == {"detail": "this passkey was not accepted"}
    assert client.post("/api/account/passkeys/signin", json=body).status_code == 401
    answer = sign_up(client)
    made = client.post(
        "/api/account/passkeys/register/options", json={}, headers=csrf_of(answer)
    ).json()
    execute(client, CHALLENGES.update().values(created_at=0.0))  # five minutes are long gone
    late = client.post(
        "/api/account/passkeys/register",
        json={"challenge_id": made["challenge_id"], "credential": fake},
        headers=csrf_of(answer),
    )
    assert late.status_code == 400
    assert late.json()["detail"] == "the passkey request expired: try again"
    assert rows(client, CHALLENGES) == []  # used or too old: gone


def test_passkey_changes_need_a_session_and_its_token(client: TestClient) -> None:
    path = "/api/account/passkeys/register/options"
    assert client.post(path, json={}).status_code == 401
    sign_up(client)
    assert client.post(path, json={}).status_code == 403
    assert rows(client, CHALLENGES) == []


# --- changing the password -------------------------------------------------------------------

NEW_PASSWORD = "another long walk home"


def change(client: TestClient, csrf: dict[str, str], current: str, new: str) -> Response:
    body = {"current": current, "new": new}
    answer: Response = client.post("/api/account/password", json=body, headers=csrf)
    return answer


def test_changing_the_password_needs_the_current_one_and_ends_the_other_sessions(
    client: TestClient,
) -> None:
    laptop, phone, bea = two_of_ann_and_bea(client)
    wrong = change(client, csrf_of(phone), "not the password at all", NEW_PASSWORD)
    assert wrong.status_code == 403
    assert wrong.json() == {"detail": "the current password is wrong"}
    as_browser(client, cookie_of(laptop))
    assert me(client)["name"] == "Ann"  # a wrong one ends nothing
    as_browser(client, cookie_of(phone))
    changed = change(client, csrf_of(phone), PASSWORD, NEW_PASSWORD)
    assert changed.status_code == 200, changed.text
    assert changed.json()["account"]["name"] == "Ann"
    assert changed.json()["csrf"] == phone.json()["csrf"]  # this session goes on
    assert changed.headers["cache-control"] == "no-store"
    assert me(client)["name"] == "Ann"
    as_browser(client, cookie_of(laptop))
    assert me(client) is None  # the other session ended
    as_browser(client, bea)
    assert me(client)["name"] == "Bea"  # another account's sessions stay
    as_browser(client, None)
    assert sign_in(client).status_code == 401
    assert sign_in(client, password=NEW_PASSWORD).status_code == 200
    (stored,) = [row for row in rows(client, ACCOUNTS) if row["name"] == "Ann"]
    assert stored["password_hash"].startswith("$argon2id$")
    assert NEW_PASSWORD not in stored["password_hash"]


def test_a_new_password_is_checked_like_a_new_accounts(client: TestClient) -> None:
    answer = sign_up(client)
    short = change(client, csrf_of(answer), PASSWORD, "nine char")
    assert short.status_code == 422
    assert short.json()["detail"] == "a password needs at least 10 characters"
    common = change(client, csrf_of(answer), PASSWORD, "qwertyuiop")
    assert common.status_code == 422
    assert "most common" in common.json()["detail"]
    too_long = change(client, csrf_of(answer), PASSWORD, "x" * 2000)
    assert too_long.status_code == 422  # bounded before any hash is worked out
    as_browser(client, None)
    assert sign_in(client).status_code == 200  # nothing changed


def test_changing_the_password_is_refused_without_session_token_or_this_origin(
    client: TestClient,
) -> None:
    body = {"current": PASSWORD, "new": NEW_PASSWORD}
    assert client.post("/api/account/password", json=body).status_code == 401
    answer = sign_up(client)
    assert client.post("/api/account/password", json=body).status_code == 403
    foreign = {**csrf_of(answer), "Origin": "https://evil.example"}
    assert client.post("/api/account/password", json=body, headers=foreign).status_code == 403
    cross = {**csrf_of(answer), "Sec-Fetch-Site": "cross-site"}
    assert client.post("/api/account/password", json=body, headers=cross).status_code == 403
    extra = {**body, "admin": True}
    assert (
        client.post("/api/account/password", json=extra, headers=csrf_of(answer)).status_code == 422
    )
    as_browser(client, None)
    assert sign_in(client).status_code == 200  # still the old password


@pytest.mark.usefixtures("still")
def test_guessing_the_current_password_is_rate_limited(client: TestClient) -> None:
    answer = sign_up(client)
    for n in range(ATTEMPTS_BURST):
        assert change(client, csrf_of(answer), f"guess number {n}", NEW_PASSWORD).status_code == 403
    limited = change(client, csrf_of(answer), PASSWORD, NEW_PASSWORD)
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "12"


def add_passkey_row(client: TestClient, account_id: str, credential: str, at: float) -> None:
    """A passkey written into the database (the ceremonies themselves: test_passkeys.py)."""
    execute(
        client,
        PASSKEYS.insert().values(
            id=credential, account_id=account_id, public_key="key", sign_count=0, created_at=at
        ),
    )


def test_an_account_with_passkeys_only_has_no_password_to_change(client: TestClient) -> None:
    answer = sign_up(client)
    execute(client, ACCOUNTS.update().values(password_hash=None))
    add_passkey_row(client, answer.json()["account"]["id"], "only-key", 1.0)
    refused = change(client, csrf_of(answer), PASSWORD, NEW_PASSWORD)
    assert refused.status_code == 409
    assert refused.json() == {"detail": "this account has no password to change"}


# --- removing a passkey ----------------------------------------------------------------------


def remove(client: TestClient, csrf: dict[str, str], credential: str) -> Response:
    answer: Response = client.post(
        "/api/account/passkeys/remove", json={"id": credential}, headers=csrf
    )
    return answer


def test_passkeys_are_listed_to_their_owner_and_removed_one_by_one(client: TestClient) -> None:
    ann = sign_up(client)
    ann_id = ann.json()["account"]["id"]
    as_browser(client, None)
    bea = sign_up(client, "Bea")
    add_passkey_row(client, bea.json()["account"]["id"], "bea-key", 3.0)
    as_browser(client, cookie_of(ann))
    add_passkey_row(client, ann_id, "ann-phone", 1.0)
    add_passkey_row(client, ann_id, "ann-laptop", 2.0)
    listed = client.get("/api/account/passkeys")
    assert listed.status_code == 200
    assert listed.headers["cache-control"] == "no-store"
    assert listed.json() == {
        "passkeys": [
            {"id": "ann-phone", "created_at": 1.0},
            {"id": "ann-laptop", "created_at": 2.0},
        ]
    }
    others = remove(client, csrf_of(ann), "bea-key")
    assert others.status_code == 404  # another account's passkey is no business of Ann's
    assert remove(client, csrf_of(ann), "no-such-key").status_code == 404
    gone = remove(client, csrf_of(ann), "ann-phone")
    assert gone.status_code == 200, gone.text
    assert gone.json()["account"]["passkeys"] == 1
    last = remove(client, csrf_of(ann), "ann-laptop")  # Ann has a password: it may go
    assert last.status_code == 200
    assert last.json()["account"] == {**last.json()["account"], "passkeys": 0, "password": True}
    assert [row["id"] for row in rows(client, PASSKEYS)] == ["bea-key"]


def test_the_last_passkey_of_an_account_without_a_password_stays(client: TestClient) -> None:
    answer = sign_up(client)
    account_id = answer.json()["account"]["id"]
    execute(client, ACCOUNTS.update().values(password_hash=None))
    add_passkey_row(client, account_id, "first", 1.0)
    add_passkey_row(client, account_id, "second", 2.0)
    assert remove(client, csrf_of(answer), "first").status_code == 200
    kept = remove(client, csrf_of(answer), "second")
    assert kept.status_code == 409
    assert kept.json() == {
        "detail": "this passkey is your only way to sign in: add another one first"
    }
    assert [row["id"] for row in rows(client, PASSKEYS)] == ["second"]


def test_removing_a_passkey_is_refused_without_session_token_or_this_origin(
    client: TestClient,
) -> None:
    body = {"id": "ann-key"}
    assert client.get("/api/account/passkeys").status_code == 401
    assert client.post("/api/account/passkeys/remove", json=body).status_code == 401
    answer = sign_up(client)
    add_passkey_row(client, answer.json()["account"]["id"], "ann-key", 1.0)
    assert client.post("/api/account/passkeys/remove", json=body).status_code == 403
    foreign = {**csrf_of(answer), "Origin": "https://evil.example"}
    assert remove(client, foreign, "ann-key").status_code == 403
    long_id = remove(client, csrf_of(answer), "x" * 300)
    assert long_id.status_code == 422  # bounded
    assert len(rows(client, PASSKEYS)) == 1


# --- the relying party: a name of one's own, and the address printed ---------------------------


def test_a_configured_relying_party_id_is_used_and_the_origin_checked_against_it(
    tmp_path: Path,
) -> None:
    path = "/api/account/passkeys/signin/options"
    app = create_app(settings(tmp_path, rp_id="spiel.example"))
    with TestClient(app, base_url="https://spiel.example") as client:
        same = client.post(path, json={}, headers={"Origin": "https://spiel.example"})
        assert same.status_code == 200, same.text
        assert same.json()["rpId"] == "spiel.example"
        sub = client.post(
            path,
            json={},
            headers={"Host": "play.spiel.example", "Origin": "https://play.spiel.example"},
        )
        assert sub.status_code == 200 and sub.json()["rpId"] == "spiel.example"
        for host in ("other.example", "notspiel.example", "127.0.0.1:8000"):
            elsewhere = client.post(
                path, json={}, headers={"Host": host, "Origin": f"https://{host}"}
            )
            assert elsewhere.status_code == 400, host
            assert "spiel.example" in elsewhere.json()["detail"]
    local = create_app(settings(tmp_path, rp_id="localhost"))
    with TestClient(local, base_url="http://app.localhost:8000") as client:
        answer = client.post(path, json={}, headers={"Origin": "http://app.localhost:8000"})
        assert answer.status_code == 200 and answer.json()["rpId"] == "localhost"


@pytest.mark.parametrize(
    "name", ["127.0.0.1", "::1", "spiel example", "-spiel.example", "x" * 254, "Spiel.Example."]
)
def test_a_relying_party_id_must_be_a_host_name(tmp_path: Path, name: str) -> None:
    from spieltisch.web.common.settings import SettingsError

    if name == "Spiel.Example.":
        assert Settings(rp_id=name).rp_id == "spiel.example"  # written as names are compared
        return
    with pytest.raises(SettingsError, match="rp-id"):
        Settings(rp_id=name)


@pytest.mark.parametrize(
    ("host", "shown"),
    [
        ("127.0.0.1", "http://localhost:8123/"),
        ("::1", "http://localhost:8123/"),
        ("", "http://localhost:8123/"),
        ("0.0.0.0", "http://localhost:8123/"),
        ("spiel.example", "http://spiel.example:8123/"),
    ],
)
def test_serve_prints_the_name_passkeys_work_at(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    host: str, shown: str,
) -> None:  # fmt: skip
    from spieltisch.web.routes import serve as serving

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append(options))
    monkeypatch.setattr(serving, "manage_heap", threading.Event)  # the test's heap stays as is
    serving.serve(host, 8123, f"sqlite:///{tmp_path / 'db.sqlite'}")
    assert f"serving at {shown} " in capsys.readouterr().out
    assert ran and ran[0]["host"] == host and ran[0]["port"] == 8123


def test_a_player_chooses_at_sign_up_to_show_their_profile(client: TestClient) -> None:
    """Profiles are private by default, so the leaderboards stayed empty: the sign-up offers
    the choice."""
    listed = client.post(
        "/api/account/signup", json={"name": "Ann", "password": PASSWORD, "listed": True}
    )
    assert listed.status_code == 201 and listed.json()["account"]["listed"] is True
    assert me(client)["listed"] is True
    client.cookies.clear()
    private = sign_up(client, "Bea")
    assert private.json()["account"]["listed"] is False
    refused = client.post(
        "/api/account/signup", json={"name": "Cid", "password": PASSWORD, "listed": "yes"}
    )
    assert refused.status_code == 422
