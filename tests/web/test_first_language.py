"""A page opens in its reader's language from the first paint: the account's choice, else the
choice this browser keeps in a cookie, else its ``Accept-Language``, else English.

The first tests read the pages as the server sends them (before any script runs), so they
prove the first paint; the browser tests then walk a German group's first minutes: a German
browser's lobby and join link, a switch that every later page and link remembers, and an
account whose language follows its person to another device.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.session import Table
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.words import number
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.language import COOKIE, accepted
from spieltisch.web.tables.bots import advise, hint_level

from .conftest import PHONE, LiveServer, docs_screens, require_browser, switch_language

PASSWORD = "correct horse battery staple"
GERMAN_BROWSER = "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"
PAGES = ("/", "/rules/awimbawe", "/learn/awimbawe", "/account", "/ratings", "/players/Somebody")


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1))
    with TestClient(app) as made:
        yield made


def html_language(page: str) -> str:
    found = re.search(r'<html lang="(\w+)">', page)
    assert found is not None, page[:200]
    return found.group(1)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (GERMAN_BROWSER, "de"),
        ("de", "de"),
        ("en-GB,de;q=0.5", "en"),
        ("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7", "de"),
        ("de;q=0.2, en;q=0.9", "en"),
        ("de;q=0, fr", None),
        ("*", None),
        ("", None),
        ("de;q=x", None),
    ],
)
def test_accept_language_is_read_by_its_weights(header: str, expected: str | None) -> None:
    assert accepted(header) == expected


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_german_in_its_first_paint_for_a_german_browser(
    client: TestClient, path: str
) -> None:
    answer = client.get(path, headers={"Accept-Language": GERMAN_BROWSER})
    assert answer.status_code == 200
    assert html_language(answer.text) == "de"
    assert answer.headers["content-language"] == "de"
    assert "Accept-Language" in answer.headers["vary"]
    assert ">Anmelden<" in answer.text and 'data-t="Sign in"' in answer.text
    assert ">English</button>" in answer.text  # the switch offers the other language


def test_a_table_link_opens_german_with_its_words_already_there(client: TestClient) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats}).json()
    page = client.get(f"/t/{made['id']}", headers={"Accept-Language": GERMAN_BROWSER}).text
    assert html_language(page) == "de"
    assert 'data-t="The board">Das Spielbrett<' in page
    assert "<title>Tisch · spieltisch</title>" in page
    english = client.get(f"/t/{made['id']}", headers={"Accept-Language": "en-US"}).text
    assert html_language(english) == "en" and ">The board<" in english


def test_the_kept_choice_beats_the_browsers_language(client: TestClient) -> None:
    client.cookies.set(COOKIE, "en")
    page = client.get("/", headers={"Accept-Language": GERMAN_BROWSER}).text
    assert html_language(page) == "en" and ">Tables<" in page
    client.cookies.set(COOKIE, "de")
    assert html_language(client.get("/", headers={"Accept-Language": "en"}).text) == "de"
    client.cookies.set(COOKIE, "xx")  # not a language spieltisch speaks: the browser's
    assert html_language(client.get("/", headers={"Accept-Language": "en"}).text) == "en"


def test_the_rules_page_shows_the_article_of_its_language(client: TestClient) -> None:
    page = client.get("/rules/auweier", headers={"Accept-Language": "de"}).text
    assert '<article class="rules" lang="de">' in page
    assert '<article class="rules" lang="en" hidden>' in page


def test_the_accounts_language_beats_the_kept_choice(client: TestClient) -> None:
    made = client.post("/api/account/signup", json={"name": "Anna", "password": PASSWORD})
    csrf = made.json()["csrf"]
    assert made.json()["account"]["language"] is None
    client.cookies.set(COOKIE, "en")
    assert html_language(client.get("/", headers={"Accept-Language": "en"}).text) == "en"
    chosen = client.post(
        "/api/account/settings", json={"language": "de"}, headers={"X-CSRF-Token": csrf}
    )
    assert chosen.status_code == 200 and chosen.json()["account"]["language"] == "de"
    assert chosen.json()["account"]["listed"] is False  # left as it was
    assert html_language(client.get("/", headers={"Accept-Language": "en"}).text) == "de"
    refused = client.post(
        "/api/account/settings", json={"language": "fr"}, headers={"X-CSRF-Token": csrf}
    )
    assert refused.status_code == 422


# --- in the browser -------------------------------------------------------------------------


@pytest.fixture
def german(new_context: Callable[..., Any]) -> Callable[..., Any]:
    """A German phone: chromium's locale is what it sends as ``Accept-Language`` and what
    ``navigator.language`` says; nothing else is set."""
    require_browser()
    return lambda **more: new_context(locale="de-DE", viewport=PHONE, **more)


def test_a_german_browser_meets_german_pages_and_links(
    server: LiveServer, german: Callable[..., Any]
) -> None:
    page = german().new_page()
    page.goto(server.url + "/")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    page.wait_for_selector("#create select, #create button")
    assert page.locator("h1").first.inner_text() == "Tische"
    page.screenshot(path=str(docs_screens() / "first-lobby-de-phone.png"), full_page=True)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = server.call("POST", "/api/tables", {"game": "auweier", "players": 2, "seats": seats})
    friend = german().new_page()
    friend.goto(server.url + made["seat_links"]["0"])
    assert friend.evaluate("() => document.documentElement.lang") == "de"
    assert friend.locator("#board-title").inner_text() == "Das Spielbrett"
    friend.wait_for_selector("#join:not([hidden])")
    friend.screenshot(path=str(docs_screens() / "first-join-link-de-phone.png"), full_page=True)


def test_a_switch_is_remembered_by_every_later_page_and_link(
    server: LiveServer, german: Callable[..., Any]
) -> None:
    context = german()
    page = context.new_page()
    page.goto(server.url + "/")
    assert switch_language(page) == "en"
    page.goto(server.url + "/rules/awimbawe")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    other = context.new_page()  # another tab of the same browser
    other.goto(server.url + "/ratings")
    assert other.evaluate("() => document.documentElement.lang") == "en"
    assert switch_language(other) == "de"
    page.reload()
    assert page.evaluate("() => document.documentElement.lang") == "de"


LATE_COOKIE = """(() => {
    const cookie = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
    Object.defineProperty(Document.prototype, "cookie", {
        configurable: true,
        get() { return cookie.get.call(this); },
        set(value) { setTimeout(() => cookie.set.call(this, value), 500); },
    });
})()"""
"""A page's ``document.cookie`` written into the browser's jar half a second late: chromium
writes it from another process, after the script has gone on (mostly at once; under load, not
always before the next page is asked for)."""


def test_a_switch_is_kept_before_the_next_page_is_asked_for(
    server: LiveServer, new_context: Callable[..., Any]
) -> None:
    """The tests' switch_language returns only once the browser keeps the choice where the
    next request reads it, so the page opened next is painted in the chosen language; without
    that wait a German table once opened in English, its log with it."""
    require_browser()
    context = new_context(locale="en-US")
    context.add_init_script(LATE_COOKIE)
    page = context.new_page()
    page.goto(server.url + "/")
    assert switch_language(page) == "de"
    answer = page.goto(server.url + "/rules/awimbawe")
    assert answer is not None and answer.headers["content-language"] == "de"
    assert page.evaluate("() => document.documentElement.lang") == "de"


def test_an_accounts_language_follows_its_person_to_another_device(
    server: LiveServer, new_context: Callable[..., Any]
) -> None:
    require_browser()
    name = f"Jonas {id(server) % 10_000}"
    desktop = new_context(locale="en-US").new_page()
    desktop.goto(server.url + "/account")
    desktop.fill("#signup-name", name)
    desktop.fill("#signup-password", PASSWORD)
    desktop.click("#signup")
    desktop.wait_for_selector("#account-link:not([data-t])")
    assert switch_language(desktop) == "de"  # signed in: the account keeps the choice
    desktop.wait_for_function(
        "() => fetch('/api/account').then((r) => r.json()).then((d) => d.account.language === 'de')"
    )
    phone = new_context(locale="en-US", viewport=PHONE).new_page()
    phone.goto(server.url + "/account")
    assert phone.evaluate("() => document.documentElement.lang") == "en"
    phone.fill("#signin-name", name)
    phone.fill("#signin-password", PASSWORD)
    phone.click("#signin")
    phone.wait_for_function("() => document.documentElement.lang === 'de'")
    phone.goto(server.url + "/")
    assert phone.evaluate("() => document.documentElement.lang") == "de"


# --- numbers as the page's language writes them ----------------------------------------------


def test_a_hint_writes_its_numbers_as_the_pages_language_does() -> None:
    """Seen on a German page: "it scores 14.2 points". A hint's numbers are written by Babel
    for the hint's language."""
    game = spieltisch.load("auf-die-eier", 2)
    table = Table(game, seed=3)
    while table.to_act() is None:
        table.advance_chance()
    seat = table.to_act()
    assert seat is not None
    adviser = make_agent(hint_level(game), game, 5)
    german, english = (advise(table, seat, adviser, lang) for lang in ("de", "en"))
    assert re.search(r"\d,\d", german) and not re.search(r"\d\.\d", german), german
    assert re.search(r"\d\.\d", english), english


def test_numbers_follow_the_language() -> None:
    assert number(14.2, "de") == "14,2" and number(14.2, "en") == "14.2"
    assert number(1234.56, "de", 2) == "1.234,56" and number(45, "de", 0) == "45"


def test_the_sockets_refusals_before_and_in_the_hello_are_in_the_pages_language(
    client: TestClient,
) -> None:
    """Seen: the socket's hello errors came in English to German pages."""
    client.cookies.set(COOKIE, "de")
    with client.websocket_connect("/ws/no-such-table") as ws:
        assert ws.receive_json()["reason"] == "diesen Tisch gibt es nicht"
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = client.post("/api/tables", json={"game": "awimbawe", "seats": seats}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": 0, "language": "fr"})
        assert ws.receive_json()["reason"] == "die Sprache muss eine von en, de sein"
    client.cookies.clear()  # a browser with no choice kept: its Accept-Language speaks
    with client.websocket_connect(
        f"/ws/{made['id']}", headers={"Accept-Language": GERMAN_BROWSER}
    ) as ws:
        ws.send_json({"type": "hello", "token": None, "since": "x"})
        assert ws.receive_json()["reason"] == "since muss eine Version sein (eine ganze Zahl)"
