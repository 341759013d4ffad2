"""Guessing a name's password from many addresses no longer locks its owner out (audit item 5).

Before: five wrong guesses from any addresses spent the name's allowance, and the owner's
right password got 429 for as long as someone kept guessing. Now a browser that signed in as
a name holds a device cookie for it, made by the server under a key every process shares: its
attempts at that name draw on a bucket of that name and device alone. What still holds: the
name's own allowance stops everyone else (a guesser, and the owner on a new device, who waits
until the guessing stops; a passkey is counted per address only), a forged or another name's
cookie exempts nothing, and the device's own bucket stops guessing from a stolen cookie.

Served through Starlette's TestClient behind a pretend proxy (addresses from
``X-Forwarded-For``); the allowances' clock stands still, so no attempt comes back meanwhile.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from spieltisch.web.common import buckets
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.signed import ATTEMPTS_BURST, COOKIE, device_cookie_name

pytestmark = pytest.mark.timeout(180)
PASSWORD = "a table of friends 42"
SAME_ORIGIN = {"Origin": "http://testserver"}
OWNER = "192.0.2.10"


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(buckets, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    settings = Settings(database=database, bot_workers=1, bot_pause=0, trust_proxy=True)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def sign_in(
    client: TestClient, name: str, password: str, address: str, device: str | None = None,
    cookie_name: str | None = None,
) -> Response:  # fmt: skip
    """A sign-in from a browser with no cookies but, if given, a device cookie."""
    client.cookies.clear()
    if device is not None:
        client.cookies.set(cookie_name or device_cookie_name(name), device)
    headers = {**SAME_ORIGIN, "X-Forwarded-For": address}
    answer: Response = client.post(
        "/api/account/signin", json={"name": name, "password": password}, headers=headers
    )
    return answer


def device_of(answer: Response, name: str) -> str:
    wanted = device_cookie_name(name)
    for header in answer.headers.get_list("set-cookie"):
        if header.startswith(f"{wanted}="):
            flags = {part.strip().lower() for part in header.split(";")[1:]}
            assert {"httponly", "samesite=strict", "path=/api/account"} <= flags
            return header.split(";", 1)[0].split("=", 1)[1]
    raise AssertionError(f"no device cookie for {name}: {answer.headers.get_list('set-cookie')}")


def sign_up(client: TestClient, name: str) -> None:
    client.cookies.clear()
    made = client.post(
        "/api/account/signup", json={"name": name, "password": PASSWORD},
        headers={**SAME_ORIGIN, "X-Forwarded-For": f"198.51.100.{len(name)}"},
    )  # fmt: skip
    assert made.status_code == 201, made.text


def guess(client: TestClient, rounds: int) -> list[int]:
    """An attacker's wrong guesses at Ann, each from an address of its own."""
    return [
        sign_in(client, "Ann", "guess guess guess", f"10.0.{n // 250}.{n % 250}").status_code
        for n in range(rounds)
    ]


def test_guessing_from_many_addresses_leaves_the_owners_device_in(client: TestClient) -> None:
    sign_up(client, "Ann")
    first = sign_in(client, "Ann", PASSWORD, OWNER)
    assert first.status_code == 200, first.text
    device = device_of(first, "Ann")
    answers = guess(client, ATTEMPTS_BURST + 10)
    spent = ATTEMPTS_BURST - 1  # the owner's sign-in counted as the name's too
    assert answers == [401] * spent + [429] * (len(answers) - spent)  # slowed as before
    back = sign_in(client, "Ann", PASSWORD, OWNER, device)
    assert back.status_code == 200, back.text  # before: 429 while anyone guessed
    assert COOKIE in back.cookies
    # from another address too (a phone on the road), the device is what counts
    assert sign_in(client, "Ann", PASSWORD, "203.0.113.9", device).status_code == 200
    # the name's allowance still stops everyone without the device: the guesser, and the
    # owner on a new device, until the guessing stops and the allowance comes back
    assert sign_in(client, "Ann", PASSWORD, "203.0.113.10").status_code == 429
    assert set(guess(client, 3)) == {429}


def test_a_forged_or_borrowed_device_cookie_exempts_nothing(client: TestClient) -> None:
    sign_up(client, "Ann")
    sign_up(client, "Bob")
    ann = device_of(sign_in(client, "Ann", PASSWORD, OWNER), "Ann")
    bob = device_of(sign_in(client, "Bob", PASSWORD, "192.0.2.77"), "Bob")
    assert guess(client, ATTEMPTS_BURST)[-1] == 429  # the name's allowance is spent
    device, _, mac = ann.partition(".")
    forged = f"{'0' * len(device)}.{mac}"
    assert sign_in(client, "Ann", PASSWORD, OWNER, forged).status_code == 429
    # Bob's own device cookie, sent under Ann's cookie name or its own: not Ann's
    for cookie_name in (device_cookie_name("Ann"), device_cookie_name("Bob")):
        assert sign_in(client, "Ann", PASSWORD, OWNER, bob, cookie_name).status_code == 429
    assert sign_in(client, "Ann", PASSWORD, OWNER, ann).status_code == 200


def test_a_device_guessing_its_own_name_is_slowed_too(client: TestClient) -> None:
    """A stolen device cookie is no key: its bucket for the name allows the same burst."""
    sign_up(client, "Ann")
    device = device_of(sign_in(client, "Ann", PASSWORD, OWNER), "Ann")
    wrong = [
        sign_in(client, "Ann", "guess guess guess", f"10.1.0.{n}", device).status_code
        for n in range(ATTEMPTS_BURST + 2)
    ]
    assert wrong == [401] * ATTEMPTS_BURST + [429] * 2
    assert sign_in(client, "Ann", PASSWORD, OWNER, device).status_code == 429
