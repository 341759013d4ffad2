"""Accounts in the browser: sign up, out and in (a password, a passkey), the profile, the
export, deleting the account, a rated game against the bot of one's level, and the ratings.

The server is reached at ``http://localhost:PORT``: a passkey's relying party is a domain
name, never an IP address. Passkeys are made and used by Chromium's virtual authenticator
(``WebAuthn.addVirtualAuthenticator`` over a CDP session: CTAP2, built in, a resident key,
the user verified), so the page's own WebAuthn code runs as it would with a real one. Every
page is also seen in German at a phone's size; the profile and ratings pages are saved as the
screenshots the docs show (``docs/screens/`` when ``SPIELTISCH_DOCS_SCREENS`` is set).
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PHONE, LiveServer, docs_screens, require_browser, switch_language

require_browser()

from playwright.sync_api import BrowserContext, Page  # noqa: E402 - after the skip

from .test_browser import (  # noqa: E402
    READY,
    NewContext,
    create,
    no_overflow,
    play_to_end,
    start,
    tab_to,
)
from .test_phone import english_on  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a long walk by the river"
DESKTOP = {"width": 1280, "height": 800}
NARROW = {"width": 360, "height": 800}
LEVELS = ("random", "heuristic", "ismcts", "expert")
"""Bot levels a German page may name (a level's name is not a word to translate)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """This module's own server, reached by the name ``localhost`` (passkeys need a domain)."""
    live = LiveServer(tmp_path_factory.mktemp("accounts-server"))
    live.url = f"http://localhost:{live.port}"
    live.start()
    warm_the_bot_pool(live)
    try:
        yield live
    finally:
        live.stop()


def warm_the_bot_pool(server: LiveServer) -> None:
    """Let the server start its bot worker before any browser connects: the worker process
    is forked from the server and inherits every socket open at that moment, so a browser
    connection open then is never closed when the server lets it go (no FIN reaches the
    browser), and the browser's next request on it waits forever. A game between bots,
    driven over short urllib connections, starts the worker."""
    bots = [{"kind": "bot", "level": "random"}] * 2
    made = server.call("POST", "/api/tables", {"game": "auf-die-eier", "players": 2, "seats": bots})
    start(server, made)
    deadline = time.monotonic() + 60
    while server.call("GET", f"/api/tables/{made['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' warm-up game did not end"
        time.sleep(0.1)


def unique(stem: str) -> str:
    """A name no other test of the run takes."""
    return f"{stem}{secrets.token_hex(3)}"


def signed(page: Page, state: str) -> None:
    """Wait until the account page shows the signed-in (``in``) or signed-out (``out``) view."""
    page.wait_for_selector(f"#account[data-state={state}]")


def sign_up(page: Page, server: LiveServer, name: str) -> None:
    """Open the account page and sign up as ``name`` with the password."""
    page.goto(server.url + "/account")
    signed(page, "out")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    signed(page, "in")


def header_name(page: Page) -> str:
    """What the header's account link says."""
    return str(page.locator("#account-link").text_content())


def with_authenticator(context: BrowserContext, page: Page) -> None:
    """Give ``page`` a virtual passkey authenticator (built in, user verified)."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
    }  # fmt: skip
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})


def finished_game(context: BrowserContext, server: LiveServer, name: str, seed: int) -> str:
    """A game of Auf die Eier against a random bot, joined in a signed-in tab (so its seat is
    the account's) and played to the end by clicking; the table's id. The tab is closed."""
    made = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed
    )
    page = context.new_page()
    page.goto(server.url + str(made["seat_links"]["0"]))
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    start(server, made)
    play_to_end(page, random.Random(seed))
    page.close()
    return str(made["id"])


# --- a password -------------------------------------------------------------------------------


def test_sign_up_out_and_in_with_a_password(server: LiveServer, new_context: NewContext) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    name = unique("Pia")
    page.goto(server.url + "/account")
    signed(page, "out")
    assert header_name(page) == "Sign in"
    page.fill("#signup-name", name)
    page.fill("#signup-password", "password12")  # long enough, and one of the most common
    page.click("#signup")
    page.wait_for_selector("#account-note.error")
    assert "most common" in str(page.locator("#account-note").text_content())
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    signed(page, "in")
    assert header_name(page) == name
    assert page.locator("#account-link").get_attribute("href") == f"/players/{name}"
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["spieltisch_session"]["httpOnly"]
    assert page.evaluate("() => document.cookie") == ""  # never readable by the page's script

    page.click("#signout")
    signed(page, "out")
    assert header_name(page) == "Sign in"
    page.fill("#signin-name", name)
    page.fill("#signin-password", "not the password")
    page.click("#signin")
    page.wait_for_selector("#account-note.error")
    assert page.locator("#account-note").text_content() == "wrong name or password"
    page.fill("#signin-password", PASSWORD)
    page.click("#signin")
    signed(page, "in")
    page.reload()
    signed(page, "in")  # the session outlives the page
    assert header_name(page) == name


def focused(element_id: str) -> str:
    """A script: whether the element ``element_id`` has the focus."""
    return f"() => document.activeElement?.id === '{element_id}'"


def test_the_account_page_by_keyboard_alone(server: LiveServer, new_context: NewContext) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/account")
    signed(page, "out")
    name = unique("Tim")
    tab_to(page, focused("signup-name"))
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    signed(page, "in")
    tab_to(page, focused("listed"))
    page.keyboard.press("Space")
    page.wait_for_selector("#account-note:text('Others see your profile and ratings now.')")
    assert page.evaluate(focused("listed"))  # the redraw keeps the focus where it was
    tab_to(page, focused("signout"))
    page.keyboard.press("Enter")
    signed(page, "out")
    assert page.evaluate(focused("page-title"))  # the focus lands on the page, not lost
    tab_to(page, focused("signin-name"))
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    signed(page, "in")
    assert page.locator("#listed").is_checked()


# --- passkeys ---------------------------------------------------------------------------------


def test_add_a_passkey_and_sign_in_with_it(server: LiveServer, new_context: NewContext) -> None:
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    with_authenticator(context, page)
    name = unique("Kai")
    sign_up(page, server, name)
    assert page.locator("#passkey-count").text_content() == "You have no passkey yet."
    page.click("#add-passkey")
    page.wait_for_selector("#passkey-count:text('You have 1 passkey.')")
    assert page.locator("#account-note").text_content() == "Passkey added."

    page.click("#signout")
    signed(page, "out")
    page.click("#signin-passkey")  # no name: the authenticator offers the account's key
    signed(page, "in")
    assert header_name(page) == name

    page.click("#signout-everywhere")
    signed(page, "out")
    page.fill("#signin-name", name)  # with the name, the server asks for its keys
    page.click("#signin-passkey")
    signed(page, "in")
    assert header_name(page) == name


def test_sign_up_with_a_passkey_alone(server: LiveServer, new_context: NewContext) -> None:
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    with_authenticator(context, page)
    name = unique("Ada")
    page.goto(server.url + "/account")
    signed(page, "out")
    page.fill("#signup-name", name)
    page.click("#signup-passkey")
    signed(page, "in")
    assert header_name(page) == name
    assert page.locator("#passkey-count").text_content() == "You have 1 passkey."
    account = page.evaluate("() => fetch('/api/account').then((r) => r.json())")
    assert account["account"]["password"] is False


# --- the profile, the export, deleting the account --------------------------------------------


def test_profile_export_and_delete(server: LiveServer, new_context: NewContext) -> None:
    page = new_context(viewport=DESKTOP, accept_downloads=True).new_page()
    name = unique("Ole")
    sign_up(page, server, name)
    table_id = finished_game(page.context, server, name, seed=7)
    waiting = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 8
    )
    page.goto(server.url + str(waiting["seat_links"]["0"]))  # a seat taken, a game begun
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    start(server, waiting)
    page.goto(server.url + "/account")

    page.click("#account-link")  # the header's link: the profile
    page.wait_for_selector("#profile[data-ready]")
    assert page.locator("#page-title").text_content() == name
    assert "Only you see this page" in str(page.locator("#own").text_content())
    unfinished = page.locator("#unfinished-list li")
    assert unfinished.count() == 1
    assert unfinished.locator("a").get_attribute("href") == f"/t/{waiting['id']}"
    mine = page.evaluate(f"() => fetch('/api/players/{name}').then((r) => r.json())")
    said = "your turn" if mine["unfinished"][0]["your_turn"] else "waiting for the others"
    assert said in str(unfinished.text_content())
    assert page.locator("#record-table tbody tr").count() == 1
    replay = page.locator("#finished-list a.replay")
    assert replay.count() == 1
    assert replay.get_attribute("href") == f"/replay/{table_id}?seat=0"
    replay.click()
    page.wait_for_selector("#position")
    assert page.url.endswith(f"/replay/{table_id}?seat=0")
    assert page.locator("#side").input_value() == "0"  # seen from the player's own seat
    page.goto(server.url + f"/replay/{table_id}?seat=0#analysis")
    page.wait_for_selector("#analysis-progress, #analysis-done")  # the analysis runs at once

    page.goto(server.url + "/account")
    signed(page, "in")
    with page.expect_download() as download:
        page.click("#export")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["account"] == name
    assert len(exported["games"]) == 1
    assert name in json.dumps(exported["games"][0], ensure_ascii=False)

    page.fill("#delete-confirm", "someone else")
    page.click("#delete")
    page.wait_for_selector("#account-note.error")
    signed(page, "in")  # the wrong name deletes nothing
    page.fill("#delete-confirm", name)
    page.click("#delete")
    signed(page, "out")
    assert "former player" in str(page.locator("#account-note").text_content())
    seats = server.call("GET", f"/api/tables/{table_id}")["seats"]
    assert seats[0]["name"] == "former player"
    record = server.text(f"/api/tables/{table_id}/record")  # the game's record, as served
    assert name not in record and "former player" in record
    names = server.call("GET", f"/api/tables/{table_id}/replay?at=0&seat=-1")["names"]
    assert names[0] == "former player"  # and its replay
    page.goto(f"{server.url}/players/{name}")
    page.wait_for_selector("#profile-error")


# --- a rated game against the bot of my level; the profile and the ratings pages --------------


def seed_leaderboard(server: LiveServer, game: str, players: int, names: list[str]) -> None:
    """Listed players with enough rated games for the leaderboard (written into the
    server's database: playing five rated games each would take minutes)."""
    path = server.database.removeprefix("sqlite:///")
    now = time.time()
    with sqlite3.connect(path) as db:
        for i, name in enumerate(names):
            account = secrets.token_urlsafe(12)
            db.execute(
                "INSERT INTO accounts (id, name, name_key, password_hash, listed, created_at)"
                " VALUES (?, ?, ?, NULL, 1, ?)",
                (account, name, name.casefold(), now),
            )
            db.execute(
                "INSERT INTO ratings (account_id, game, players, mu, sigma, games, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (account, game, players, 31.0 - 4 * i, 2.1 + 0.4 * i, 12 - 2 * i, now),
            )


def ladder_games(server: LiveServer) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = server.call("GET", "/api/ratings")["games"]
    return games


def test_rated_game_against_my_level_then_profile_and_ratings(
    server: LiveServer, new_context: NewContext
) -> None:
    game = "auf-die-eier"
    assert any(g["game"] == game and 2 in g["players"] for g in ladder_games(server))
    page = new_context(viewport=DESKTOP).new_page()
    name = unique("Mia")
    sign_up(page, server, name)
    page.click("#listed")
    page.wait_for_selector("#account-note:text('Others see your profile and ratings now.')")

    page.goto(server.url + "/")
    page.wait_for_selector("#rated-bot-form")
    page.select_option("#game", game)  # a rated table of one's own: a person and a bot
    page.select_option("select[name=seat-1]", "bot")
    page.select_option("select[name=level-1]", "random")
    page.check("#rated")
    page.click("#create button[type=submit]")
    host_link = str(page.locator("#host-link").get_attribute("href"))
    made = server.call("GET", "/api/tables/" + host_link.removeprefix("/t/").split("#", 1)[0])
    assert made["rules"]["rated"] is True
    page.select_option("#rated-game", game)
    page.select_option("#rated-players", "2")
    page.click("#rated-bot-play")
    page.wait_for_url("**/t/*")
    play_to_end(page, random.Random(11))

    page.goto(f"{server.url}/players/{name}")
    page.wait_for_selector("#profile[data-ready]")
    rating = page.locator("#ratings-list li")
    assert rating.count() == 1
    assert "(1 rated game)" in str(rating.text_content())
    assert page.locator("#finished-list li").count() == 1
    assert "rated" in str(page.locator("#finished-list li").text_content())
    page.screenshot(path=str(docs_screens() / "profile-en.png"), full_page=True)

    seed_leaderboard(server, game, 2, ["Jonte", "Marlene", "Ilka"])
    page.goto(f"{server.url}/ratings#{game}-2")
    page.wait_for_selector(f"#boards[data-ready={game}-2]")
    assert page.locator("#leaderboard-table tbody tr").count() == 3
    assert page.locator("#ladder-table tbody tr").count() >= 2
    page.screenshot(path=str(docs_screens() / "ratings-en.png"), full_page=True)


# --- German, on a phone -----------------------------------------------------------------------


@pytest.mark.parametrize("size", [PHONE, NARROW], ids=["390", "360"])
def test_every_people_page_in_german_on_a_phone(
    server: LiveServer, new_context: NewContext, size: dict[str, int]
) -> None:
    page = new_context(viewport=size, is_mobile=True, has_touch=True).new_page()
    page.goto(server.url + "/account")
    signed(page, "out")
    assert switch_language(page) == "de"
    assert header_name(page) == "Anmelden"
    checked: list[str] = []

    def check(where: str, *names: str) -> None:
        assert not english_on(page, *names, *LEVELS), where
        assert no_overflow(page), f"{where} scrolls sideways"
        checked.append(where)

    check("account, signed out")
    name = unique("Lene")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    signed(page, "in")
    check("account, signed in", name)
    page.click("#listed")
    page.wait_for_selector("#account-note:not(:empty)")
    check("account, listed", name)

    page.goto(server.url + "/")
    page.wait_for_selector("#rated-bot-form")
    check("lobby, signed in", name)
    page.select_option("#rated-game", "auf-die-eier")
    page.click("#rated-bot-play")
    page.wait_for_url("**/t/*")
    play_to_end(page, random.Random(size["width"]))

    page.goto(f"{server.url}/players/{name}")
    page.wait_for_selector("#profile[data-ready]")
    check("profile", name)
    assert "(1 gewertete Partie)" in str(page.locator("#ratings-list li").text_content())
    assert page.locator("#finished-list a.replay").text_content() == "Wiederholung"
    if size == PHONE:
        page.screenshot(path=str(docs_screens() / "profile-de-phone.png"), full_page=True)

    page.goto(server.url + "/ratings#auf-die-eier-2")
    page.wait_for_selector("#boards[data-ready]")
    check("ratings", *[str(n) for n in page.locator("#leaderboard-table a").all_text_contents()])
    if size == PHONE:
        page.screenshot(path=str(docs_screens() / "ratings-de-phone.png"), full_page=True)
    assert checked


# --- where passkeys cannot work; the password, the passkeys and signing out everywhere ---------


def german_phone(new_context: NewContext, **options: Any) -> BrowserContext:
    """A phone whose browser speaks German (the pages open in German)."""
    return new_context(locale="de-DE", viewport=PHONE, is_mobile=True, has_touch=True, **options)


def german_only(page: Page, where: str, *names: str) -> None:
    """The page says no English word and fits the phone's width."""
    assert page.evaluate("() => document.documentElement.lang") == "de", where
    assert not english_on(page, *names, *LEVELS), where
    assert no_overflow(page), f"{where} scrolls sideways"


def test_passkey_buttons_are_hidden_with_the_reason_where_passkeys_cannot_work(
    server: LiveServer, new_context: NewContext
) -> None:
    """Opened by its IP address (as http://127.0.0.1:PORT), the account page offers no passkey
    button and says why, with the address where passkeys work; a browser without
    PublicKeyCredential is told that instead."""
    page = german_phone(new_context).new_page()
    page.goto(f"http://127.0.0.1:{server.port}/account")
    signed(page, "out")
    assert page.locator("#signin-passkey, #signup-passkey, #add-passkey").count() == 0
    why = page.locator("#passkeys-unavailable")
    assert why.is_visible()
    assert "Passkeys brauchen den Namen des Servers" in str(why.text_content())
    elsewhere = why.locator("a")
    assert elsewhere.get_attribute("href") == f"http://localhost:{server.port}/account"
    german_only(page, "account by address, signed out")
    name = unique("Ida")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    signed(page, "in")
    assert page.locator("#add-passkey").count() == 0
    assert "Passkeys brauchen den Namen des Servers" in str(why.text_content())
    german_only(page, "account by address, signed in", name)

    bare = german_phone(new_context)  # a browser without WebAuthn, at the server's name
    bare.add_init_script("delete window.PublicKeyCredential;")
    page = bare.new_page()
    page.goto(server.url + "/account")
    signed(page, "out")
    assert page.locator("#signin-passkey, #signup-passkey").count() == 0
    said = str(page.locator("#passkeys-unavailable").text_content())
    assert "Dieser Browser kann keine Passkeys benutzen" in said
    german_only(page, "account without WebAuthn")


def test_change_the_password_and_remove_a_passkey_in_german_on_a_phone(
    server: LiveServer, new_context: NewContext
) -> None:
    context = german_phone(new_context)
    page = context.new_page()
    with_authenticator(context, page)
    name = unique("Jan")
    page.goto(server.url + "/account")
    signed(page, "out")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    signed(page, "in")
    assert page.locator("#passkeys-unavailable").count() == 0
    page.click("#add-passkey")
    page.wait_for_selector("#passkey-list li")
    assert page.locator("#passkey-list li").count() == 1
    german_only(page, "account with a passkey", name)

    page.fill("#password-current", "not the password at all")
    page.fill("#password-new", "a new walk by the lake")
    page.click("#change-password")
    page.wait_for_selector("#account-note.error")
    assert page.locator("#account-note").text_content() == "das aktuelle Passwort ist falsch"
    page.fill("#password-current", PASSWORD)
    page.fill("#password-new", "kurz")
    page.click("#change-password")  # the browser's own check: at least ten characters
    assert page.evaluate("() => document.getElementById('password-new').validity.tooShort")
    page.fill("#password-new", "a new walk by the lake")
    page.click("#change-password")
    page.wait_for_selector("#account-note:not(.error):not(:empty)")
    assert "Dein Passwort ist geändert" in str(page.locator("#account-note").text_content())
    assert page.locator("#password-current").input_value() == ""  # the form forgets them
    german_only(page, "password changed", name)

    page.locator("#passkey-list button.remove").click()
    page.wait_for_selector("dialog.ask")
    assert "Passkey" in str(page.locator("#ask-question").text_content())
    page.click("#ask-yes")
    page.wait_for_selector("#passkey-count:text('Du hast noch keinen Passkey.')")
    assert page.locator("#passkey-list li").count() == 0
    assert page.locator("#account-note").text_content() == "Passkey entfernt."


def test_the_only_passkey_of_an_account_without_a_password_cannot_be_removed(
    server: LiveServer, new_context: NewContext
) -> None:
    context = german_phone(new_context)
    page = context.new_page()
    with_authenticator(context, page)
    name = unique("Ute")
    page.goto(server.url + "/account")
    signed(page, "out")
    page.fill("#signup-name", name)
    page.click("#signup-passkey")
    signed(page, "in")
    page.wait_for_selector("#passkey-list li")
    assert page.locator("#passkey-list button.remove").count() == 0
    kept = str(page.locator("#passkey-kept").text_content())
    assert "einziger Weg, dich anzumelden" in kept
    assert page.locator("#password-form").count() == 0  # no password to change
    assert "kein Passwort" in str(page.locator("#no-password").text_content())
    german_only(page, "account with a passkey only", name)


def test_signing_out_everywhere_closes_the_open_table_page(
    server: LiveServer, new_context: NewContext
) -> None:
    """A table page that holds its seat by the account (opened without the link) says why it
    stopped once the account signs out everywhere, in German on a phone."""
    context = german_phone(new_context)
    account = context.new_page()
    name = unique("Eva")
    sign_up(account, server, name)
    made = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 5
    )
    table = context.new_page()
    table.goto(server.url + str(made["seat_links"]["0"]))
    table.fill("#name", name)
    table.press("#name", "Enter")
    table.wait_for_selector("#join", state="hidden")
    start(server, made)
    table.goto(f"{server.url}/t/{made['id']}")  # no link now: the seat is the account's
    table.wait_for_function(READY)
    assert table.locator("#moves button.move").count() > 0

    account.bring_to_front()
    account.click("#signout-everywhere")
    signed(account, "out")
    table.wait_for_selector("#banner-text:has-text('abgemeldet')")
    said = str(table.locator("#banner-text").text_content())
    assert "Du wurdest abgemeldet" in said
    german_only(table, "the table page, signed out", name)
    table.reload()  # signed out, the page watches: no move of the seat's is offered
    table.wait_for_selector("#to-act")
    assert table.locator("#banner-text").count() == 0 or not table.locator("#banner").is_visible()
    assert table.locator("#moves button.move").count() == 0
