"""Passkeys with a real authenticator: Chromium's virtual one (WebAuthn over the DevTools
protocol, through Playwright's CDP session) against a real server.

Pages call the account API from script (``navigator.credentials.create`` and ``get`` with the
server's options), as the account page does: a signed-in person adds a passkey; a fresh
browser holding that passkey signs in with it and nothing else; a copy of the passkey whose
signature counter lags behind (a cloned key) is refused; a person makes an account with a
passkey only. The server is opened as ``localhost``: an IP address cannot be a relying party,
which the server says plainly.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from spieltisch.web.store.db import PASSKEYS, make_engine

from .conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, require_browser

require_browser()

from playwright.sync_api import Browser as PlaywrightBrowser  # noqa: E402 - after the skip
from playwright.sync_api import BrowserContext, CDPSession, Page  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NewContext = Callable[..., BrowserContext]
PASSWORD = "a table of friends 42"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}

POST = """async ([path, body, csrf]) => {
    const headers = {"Content-Type": "application/json"};
    if (csrf) headers["X-CSRF-Token"] = csrf;
    const answer = await fetch(path, {method: "POST", headers, body: JSON.stringify(body)});
    const text = await answer.text();
    return {status: answer.status, body: text ? JSON.parse(text) : null};
}"""
CREATE = """async (options) => {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
    return (await navigator.credentials.create({publicKey})).toJSON();
}"""
GET = """async (options) => {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
    return (await navigator.credentials.get({publicKey})).toJSON();
}"""


class Browser:
    """One browser context on the server, with a virtual authenticator in its page."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.page: Page = context.new_page()
        self.page.goto(f"{base}/")
        self.cdp: CDPSession = context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        added = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        self.authenticator: str = added["authenticatorId"]

    def post(self, path: str, body: object, csrf: str | None = None) -> dict[str, Any]:
        answer: dict[str, Any] = self.page.evaluate(POST, [path, body, csrf])
        return answer

    def me(self) -> Any:
        return self.page.evaluate("async () => (await (await fetch('/api/account')).json())")

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        made: dict[str, Any] = self.page.evaluate(CREATE, options)
        return made

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = self.page.evaluate(GET, options)
        return found

    def credentials(self) -> list[dict[str, Any]]:
        held = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(held["credentials"])

    def hold(self, credential: dict[str, Any]) -> None:
        """Put a copy of ``credential`` into this browser's authenticator."""
        self.cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": self.authenticator, "credential": credential},
        )

    def sign_in_with_passkey(self, name: str | None = None) -> dict[str, Any]:
        options = self.post("/api/account/passkeys/signin/options", {"name": name})
        assert options["status"] == 200, options
        assertion = self.get(options["body"])
        body = {"challenge_id": options["body"]["challenge_id"], "credential": assertion}
        return self.post("/api/account/passkeys/signin", body)


def sign_count(server: LiveServer) -> int:
    engine = make_engine(server.database, writer=False)
    with engine.connect() as connection:
        counts = connection.execute(sa.select(PASSKEYS.c.sign_count)).scalars().all()
    engine.dispose()
    return int(max(counts))


def test_add_a_passkey_then_sign_in_with_it_in_a_fresh_browser(
    module_server: LiveServer, new_context: NewContext
) -> None:
    base = f"http://localhost:{module_server.port}"
    ann = Browser(new_context(), base)
    signed_up = ann.post("/api/account/signup", {"name": "Ann Passkey", "password": PASSWORD})
    assert signed_up["status"] == 201, signed_up
    csrf = signed_up["body"]["csrf"]
    refused = ann.post("/api/account/passkeys/register/options", {})
    assert refused["status"] == 403  # a change without the CSRF token
    options = ann.post("/api/account/passkeys/register/options", {}, csrf)
    assert options["status"] == 200, options
    assert options["body"]["rp"]["id"] == "localhost"
    assert options["body"]["authenticatorSelection"]["residentKey"] == "required"
    credential = ann.create(options["body"])
    added = ann.post("/api/account/passkeys/register", {"credential": credential}, csrf)
    assert added["status"] == 201, added
    assert added["body"]["account"]["passkeys"] == 1
    again = ann.post("/api/account/passkeys/register", {"credential": credential}, csrf)
    assert again["status"] == 400  # its challenge was used
    (held,) = ann.credentials()
    assert held["rpId"] == "localhost" and held["isResidentCredential"]

    bea_device = Browser(new_context(), base)  # Ann's other browser: no cookie, no password
    assert bea_device.me() == {"account": None}
    bea_device.hold(held)
    signed_in = bea_device.sign_in_with_passkey()
    assert signed_in["status"] == 200, signed_in
    assert signed_in["body"]["account"]["name"] == "Ann Passkey"
    assert bea_device.me()["account"]["name"] == "Ann Passkey"
    assert "spieltisch_session" not in bea_device.page.evaluate("document.cookie")
    cookies = {c["name"]: c for c in bea_device.page.context.cookies()}
    assert cookies["spieltisch_session"]["httpOnly"]
    assert cookies["spieltisch_session"]["sameSite"] == "Lax"
    counted = sign_count(module_server)
    assert counted > held["signCount"]
    named = bea_device.sign_in_with_passkey("ann passkey")  # naming the account: fine
    assert named["status"] == 200, named
    assert sign_count(module_server) > counted

    wrong_name = bea_device.sign_in_with_passkey("Someone Else")
    assert wrong_name["status"] == 401

    clone = Browser(new_context(), base)  # a copy of the key as it was at registration
    clone.hold(held)
    cloned = clone.sign_in_with_passkey()
    assert cloned["status"] == 401, cloned
    assert cloned["body"] == {"detail": "this passkey was not accepted"}
    assert clone.me() == {"account": None}


def test_an_account_with_a_passkey_only(own_server: LiveServer, new_context: NewContext) -> None:
    base = f"http://localhost:{own_server.port}"  # a server of its own: sign-ins are counted
    cid = Browser(new_context(), base)
    options = cid.post("/api/account/passkeys/signup/options", {"name": "Cid Keyonly"})
    assert options["status"] == 200, options
    assert options["body"]["user"]["name"] == "Cid Keyonly"
    credential = cid.create(options["body"])
    body = {"challenge_id": options["body"]["challenge_id"], "credential": credential}
    made = cid.post("/api/account/passkeys/signup", body)
    assert made["status"] == 201, made
    account = made["body"]["account"]
    assert account["name"] == "Cid Keyonly"
    assert (account["password"], account["passkeys"]) == (False, 1)
    taken = cid.post("/api/account/passkeys/signup/options", {"name": "CID KEYONLY"})
    assert taken["status"] == 409
    out = cid.post("/api/account/signout", {}, made["body"]["csrf"])
    assert out["status"] == 204
    assert cid.me() == {"account": None}
    no_password = cid.post("/api/account/signin", {"name": "Cid Keyonly", "password": PASSWORD})
    assert no_password["status"] == 401
    back = cid.sign_in_with_passkey()
    assert back["status"] == 200, back
    assert back["body"]["account"]["id"] == account["id"]


def test_an_ip_address_cannot_be_a_relying_party(
    module_server: LiveServer, new_context: NewContext
) -> None:
    by_address = Browser(new_context(), module_server.url)  # http://127.0.0.1:PORT
    options = by_address.post("/api/account/passkeys/signin/options", {})
    assert options["status"] == 400
    assert "not its address" in options["body"]["detail"]


def test_the_server_prints_the_address_passkeys_work_at(module_server: LiveServer) -> None:
    """Started as a person starts it (``python -m spieltisch.web``, the default host), the
    server names itself ``localhost``, where passkeys work, and never by its address."""
    log = module_server.log()
    assert f"serving at http://localhost:{module_server.port}/ " in log, log
    assert "http://127.0.0.1" not in log


NAMED = "spiel.test"
"""The site's own name in the test below: chromium resolves it, and every name below it, to
the loopback address and counts its pages as secure (as a real site's https pages are)."""


def test_a_configured_relying_party_id_names_the_passkeys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: PlaywrightBrowser
) -> None:
    """With ``SPIELTISCH_RP_ID=spiel.test`` a page at ``app.spiel.test`` makes passkeys that
    belong to ``spiel.test`` (not to the name the page was opened by), and one of them signs
    in on ``spiel.test`` itself; a page at another name is refused the passkey options."""
    monkeypatch.setenv("SPIELTISCH_RP_ID", NAMED)
    live = LiveServer(tmp_path)
    live.start()
    origins = [f"http://{host}:{live.port}" for host in (NAMED, f"app.{NAMED}", "other.test")]
    named = browser.browser_type.launch(
        executable_path=browser_executable(),
        args=[
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {NAMED} 127.0.0.1, MAP *.{NAMED} 127.0.0.1, "
            "MAP other.test 127.0.0.1",
            f"--unsafely-treat-insecure-origin-as-secure={','.join(origins)}",
        ],
    )
    try:
        ann = Browser(named.new_context(), origins[1])
        signed_up = ann.post("/api/account/signup", {"name": "Ann Named", "password": PASSWORD})
        assert signed_up["status"] == 201, signed_up
        csrf = signed_up["body"]["csrf"]
        options = ann.post("/api/account/passkeys/register/options", {}, csrf)
        assert options["status"] == 200, options
        assert options["body"]["rp"]["id"] == NAMED
        added = ann.post(
            "/api/account/passkeys/register", {"credential": ann.create(options["body"])}, csrf
        )
        assert added["status"] == 201, added
        (held,) = ann.credentials()
        assert held["rpId"] == NAMED
        home = Browser(named.new_context(), origins[0])
        home.hold(held)
        signed_in = home.sign_in_with_passkey()
        assert signed_in["status"] == 200, signed_in
        assert signed_in["body"]["account"]["name"] == "Ann Named"
        other = Browser(named.new_context(), origins[2])
        refused = other.post("/api/account/passkeys/signin/options", {})
        assert refused["status"] == 400 and NAMED in refused["body"]["detail"]
    finally:
        named.close()
        live.stop()


def browser_executable() -> str:
    """Debian's chromium, as the session's browser runs it."""
    return str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium"))
