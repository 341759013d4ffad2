"""What a German group met in its first minutes at the lobby and a table, each reproduced.

A German phone (chromium with ``de-DE`` at 390x844) opens the lobby signed out, makes a table
and leaves it: no literal ``null``, the new table before the lists, lists with column
headers, a live clock's fields only under a live clock, and the page's own dialog before
leaving or conceding (never the browser's grey ``confirm()``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import PHONE, LiveServer, require_browser

require_browser()

from playwright.sync_api import BrowserContext, Page  # noqa: E402 - after the skip

from .test_browser import create, join, start  # noqa: E402

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def german_phone(new_context: NewContext) -> Page:
    page = new_context(locale="de-DE", viewport=PHONE).new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"the browser's own dialog: {dialog.message}"))
    return page


def lobby(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.wait_for_selector("#lists section")


def test_the_lobby_signed_out_shows_no_null_and_the_new_table_first(
    server: LiveServer, new_context: NewContext
) -> None:
    create(server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=5)
    page = german_phone(new_context)
    lobby(page, server)
    text = page.locator("main").inner_text()
    assert "null" not in text and "undefined" not in text
    form = page.locator("#create").bounding_box()
    lists = page.locator("#lists").bounding_box()
    assert form is not None and lists is not None and form["y"] < lists["y"]
    headers = page.locator("#lists table.list thead th").all_inner_texts()
    assert headers[:3] == ["Spiel", "Spieler", "Am Tisch"]


def test_a_live_clocks_fields_show_only_under_a_live_clock(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    lobby(page, server)
    assert page.locator("#rules-bank").is_hidden() and page.locator("#rules-increment").is_hidden()
    page.select_option("#rules-clock", "live")
    assert (
        page.locator("#rules-bank").is_visible() and page.locator("#rules-increment").is_visible()
    )
    page.select_option("#rules-clock", "relaxed")
    assert page.locator("#rules-bank").is_hidden()


def test_leaving_asks_in_the_pages_own_dialog_and_escape_keeps_the_seat(
    server: LiveServer, new_context: NewContext
) -> None:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = create(server, "auf-die-eier", seats, seed=6)
    page = german_phone(new_context)
    join(page, server, made["seat_links"]["0"], "Anna")
    start(server, made)
    page.wait_for_selector("#turn[data-status=playing]")
    page.click("#leave")
    dialog = page.locator("dialog.ask[open]")
    assert dialog.is_visible() and "Bot" in dialog.inner_text()
    assert page.evaluate("() => document.activeElement.id") == "ask-no"  # the safe answer
    page.keyboard.press("Escape")
    assert page.locator("dialog.ask").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "leave"  # focus comes back
    assert page.locator("#leave").is_visible()  # still seated
    page.click("#leave")
    page.click("dialog.ask #ask-yes")
    page.wait_for_selector("#stale:not([hidden])")  # a bot has the seat, the link is spent
