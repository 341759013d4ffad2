"""The friends' table in real browsers (issue 28): two and three people at one table, each in a
browser context of their own, on a real server.

A replaced seat's page is told and can no longer move or read the seat; presence shows who
left; a live clock hands a seat to a bot and the person takes it back; leaving and conceding;
a rematch that takes everyone along; the host's links; the live lobby; chat as text; and the
permission for notifications asked only on a click. Clock tests run the server in this process
with a manual clock; every wait is bounded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import LiveServer, ThreadServer, docs_screens, require_browser

require_browser()

from playwright.sync_api import BrowserContext, Page  # noqa: E402 - after the skip

from .test_browser import create, join, version_of, wait_ready  # noqa: E402

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it had spent it, so a quick run met a 429)."""
    return module_server


TWO = [{"kind": "person"}, {"kind": "person"}]
THREE = [{"kind": "person"}] * 3


def host_page(context: BrowserContext, server: LiveServer, made: dict[str, Any], seat: int) -> Page:
    """The host's page, sitting at ``seat`` (its seat link with the host's token)."""
    page = context.new_page()
    host = made["host_link"].split("#host=")[1]
    join(page, server, f"{made['seat_links'][str(seat)]}&host={host}", "Ann")
    return page


def seat_text(page: Page, seat: int) -> str:
    return page.locator(f"#people li[data-seat='{seat}']").text_content() or ""


def answer_yes(page: Page, button: str) -> None:
    """Click ``button`` and say yes in the page's own dialog that asks first."""
    page.click(button)
    page.click("dialog.ask #ask-yes")


# --- 1. a replaced seat is out -----------------------------------------------------------


def test_a_replaced_seat_is_told_and_can_no_longer_play_or_read_the_seat(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auweier", THREE, seed=31)
    ann = host_page(new_context(), server, made, 0)
    ben, cid = new_context().new_page(), new_context().new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    join(cid, server, made["seat_links"]["2"], "Cid")
    ann.click("#start")
    cid.wait_for_selector("#turn[data-status=playing]")
    ann.click("#host summary")  # the host's panel folds away once the game is on
    ann.click("#tobot-2")
    cid.wait_for_selector("#stale:not([hidden])")
    said = cid.locator("#stale").text_content() or ""
    assert "Cid" in said and "seat 3" in said and "bot" in said
    assert cid.locator("#moves button.move, #notation").count() == 0
    ann.click("#toperson-2")
    ann.wait_for_selector("#host .link-row[data-seat='2'] input.seat-link")
    new_link = ann.locator("#host .link-row[data-seat='2'] input.seat-link").input_value()
    assert new_link.split("#seat=")[1] not in made["seat_links"]["2"]
    dee = new_context().new_page()
    join(dee, server, new_link.removeprefix(server.url), "Dee")
    dee.wait_for_selector("#people li[data-seat='2']")
    frames = cid.evaluate("() => document.body.innerText")
    assert "Dee" not in frames  # the old page never heard of the new person's seat
    cid.click("#watch")  # watch instead: a spectator's page
    cid.wait_for_function("() => document.querySelector('#turn').textContent.includes('watching')")
    assert cid.locator("#moves button.move").count() == 0


def test_an_old_link_opened_later_says_whose_seat_it_was_and_offers_to_watch(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", TWO, seed=32)
    host = made["host_link"].split("#host=")[1]
    server.call("POST", f"/api/tables/{made['id']}/seats/1/bot", {"level": "random"}, token=host)
    page = new_context().new_page()
    page.goto(server.url + made["seat_links"]["1"])
    page.wait_for_selector("#stale:not([hidden])")
    assert "changed" not in (page.locator("#banner").text_content() or "")
    assert "Seat 2" in (page.locator("#stale").text_content() or "")
    page.click("#watch")
    page.wait_for_selector("#turn[data-status=open]")


# --- 2. presence and the clock -------------------------------------------------------------


def test_presence_shows_a_person_who_left_as_away(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", TWO, seed=33)
    ann = host_page(new_context(), server, made, 0)
    ben_context = new_context()
    ben = ben_context.new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    ann.wait_for_function(
        "() => document.querySelector(\"#people li[data-seat='1'] .presence.here\")"
    )
    ben_context.close()
    ann.wait_for_function(
        "() => document.querySelector(\"#people li[data-seat='1'] .presence.away\")"
    )
    assert "away for" in seat_text(ann, 1)


def test_a_live_clock_hands_a_seat_to_a_bot_and_the_person_takes_it_back(
    clocked: ThreadServer, new_context: NewContext
) -> None:
    rules = {"clock": "live", "bank": 60, "increment": 5, "grace": 0}
    made: dict[str, Any] = clocked.call(
        "POST", "/api/tables",
        {"game": "awimbawe", "players": 2, "seats": TWO, "seed": 34, "rules": rules},
    )  # fmt: skip
    ann = host_page(new_context(), clocked, made, 0)
    ben_context = new_context()
    ben = ben_context.new_page()
    join(ben, clocked, made["seat_links"]["1"], "Ben")
    ann.click("#start")
    for page in (ann, ben):
        page.wait_for_selector("#turn[data-status=playing]")
    ann.wait_for_selector("#people .clock")
    slow, other = (ann, ben) if ann.locator("#moves button.move").count() else (ben, ann)
    slow_seat = 0 if slow is ann else 1
    version = version_of(other)
    clocked.clock.advance(61)  # the seat to move is out of time
    standing = "(s) => document.querySelector(`#people li[data-seat='${s}']`).textContent"
    other.wait_for_function(f"{standing}.includes('a bot plays')", arg=slow_seat)
    other.wait_for_function(
        "(v) => Number(document.querySelector('#turn').dataset.version) > v", arg=version
    )  # the stand-in moved
    assert "time ran out" in (other.locator("ol.log").text_content() or "")
    other.screenshot(path=str(docs_screens() / "friends-clock-takeover.png"), full_page=True)
    slow.reload(wait_until="domcontentloaded")  # the person comes back: the seat is theirs again
    other.wait_for_function(f"(s) => !({standing})(s).includes('a bot plays')", arg=slow_seat)
    assert "is back" in (other.locator("ol.log").text_content() or "")


# --- 3. leave and concede ------------------------------------------------------------------


def test_leaving_during_the_game_hands_the_seat_to_a_bot(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auf-die-eier", THREE, seed=35)
    ann = host_page(new_context(), server, made, 0)
    ben, cid = new_context().new_page(), new_context().new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    join(cid, server, made["seat_links"]["2"], "Cid")
    ann.click("#start")
    cid.wait_for_selector("#turn[data-status=playing]")
    answer_yes(cid, "#leave")
    ann.wait_for_function(
        "() => document.querySelector(\"#people li[data-seat='2'] .presence.bot\")"
    )
    assert "Cid" in seat_text(ann, 2) and "left the table" in (
        ann.locator("ol.log").text_content() or ""
    )
    cid.wait_for_selector("#stale:not([hidden])")


def test_conceding_a_two_player_game_ends_it_for_the_other(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", TWO, seed=36)
    ann = host_page(new_context(), server, made, 0)
    ben = new_context().new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    ann.click("#start")
    ben.wait_for_selector("#turn[data-status=playing]")
    answer_yes(ben, "#concede")
    for page in (ann, ben):
        page.wait_for_selector("#result")
        assert page.locator("#winners").text_content() == "Ann"


# --- 4. the rematch --------------------------------------------------------------------------


def test_everyone_lands_at_the_rematch_in_their_own_seat(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", TWO, seed=37)
    ann = host_page(new_context(), server, made, 0)
    ben = new_context().new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    ann.click("#start")
    ben.wait_for_selector("#concede")
    answer_yes(ben, "#concede")
    ben.wait_for_selector("#result #rematch")
    ben.click("#result #rematch")
    for page in (ann, ben):
        page.wait_for_selector("#offer:not([hidden]) #rematch-join")
    old = made["id"]
    for page in (ann, ben):
        page.click("#rematch-join")
        page.wait_for_url(lambda url: old not in url)
    for page, seat in ((ann, 0), (ben, 1)):
        page.wait_for_selector("#turn[data-status=playing]")  # both back: it started by itself
        assert page.locator("#join").is_hidden()
        assert f"seat {seat + 1}" in (page.locator("#turn").text_content() or "")
    assert ann.locator("#host").is_visible()  # the host is still the host
    ann.screenshot(path=str(docs_screens() / "friends-rematch.png"), full_page=True)
    about = server.call("GET", f"/api/tables/{old}")
    assert about["rematch"] and about["rematch"] in ann.url


# --- 5. the host page, the lobby, chat, notifications ----------------------------------------


def test_the_host_lists_every_link_with_copy_and_qr_and_says_what_start_waits_for(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auweier", THREE, seed=38)
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    ann = host_page(context, server, made, 0)
    rows = ann.locator("#host .link-row input.seat-link")
    assert rows.count() == 3
    assert [rows.nth(i).input_value() for i in range(3)] == [
        server.url + made["seat_links"][str(i)] for i in range(3)
    ]
    assert "seats 2, 3" in (ann.locator("#start-why").text_content() or "")
    assert ann.locator("#start").is_disabled()
    ann.click("#host .link-row[data-seat='1'] button.copy")
    copied = ann.evaluate("() => navigator.clipboard.readText()")
    assert copied == server.url + made["seat_links"]["1"]
    ann.click("#host .link-row[data-seat='1'] button.qr-toggle")
    assert ann.locator("#host svg.qr").count() == 1
    ann.reload()  # the links are there again after a reload
    ann.wait_for_selector("#host .link-row input.seat-link")
    assert ann.locator("#host .link-row input.seat-link").count() == 3


def test_the_lobby_shows_a_new_table_without_a_reload(
    server: LiveServer, new_context: NewContext
) -> None:
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lists[data-live=yes]")
    made = create(server, "auweier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 39)
    row = page.locator(f"#lists a[href='/t/{made['id']}']")
    row.wait_for()
    assert "1 free seat" in (page.locator("#lists").text_content() or "")
    assert "1 free seats" not in (page.locator("#lists").text_content() or "")


def test_chat_reaches_the_other_player_as_text(server: LiveServer, new_context: NewContext) -> None:
    made = create(server, "awimbawe", TWO, seed=40)
    ann = host_page(new_context(), server, made, 0)
    ben = new_context().new_page()
    join(ben, server, made["seat_links"]["1"], "Ben")
    ann.fill("#chat-text", "<b>good luck</b>")
    ann.press("#chat-text", "Enter")
    ben.wait_for_selector("#chat-lines li")
    assert ben.locator("#chat-lines li").text_content() == "Ann: <b>good luck</b>"
    assert ben.locator("#chat-lines b").count() == 0


def test_notifications_are_asked_for_on_a_click_only_and_the_turn_badges_the_icon(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 41)
    counting = """(() => { window.__asked = 0;
        const ask = Notification.requestPermission.bind(Notification);
        Notification.requestPermission = () => { window.__asked += 1; return ask(); }; })()"""
    undecided = new_context()
    undecided.add_init_script(counting)
    page = host_page(undecided, server, made, 0)
    assert page.evaluate("() => window.__asked") == 0  # nothing asked on load
    page.click("#notify-browser")
    page.wait_for_function("() => window.__asked === 1")  # asked on the click
    page.wait_for_function(  # the box says what the browser answered
        """() => document.querySelector('#notify-browser').checked
            === (Notification.permission === 'granted')"""
    )
    allowed = new_context(permissions=["notifications"])
    allowed.add_init_script(counting)
    other = allowed.new_page()
    other.goto(server.url + made["seat_links"]["0"])
    other.wait_for_selector("#notify-browser")
    other.click("#notify-browser")
    assert other.is_checked("#notify-browser")  # already allowed: nothing to ask
    assert other.evaluate("() => window.__asked") == 0
    page.click("#start")
    wait_ready(page)
    if page.locator("#moves button.move").count():
        page.wait_for_selector("link[rel=icon][data-badge=yes]", state="attached")
    else:
        page.wait_for_selector("link[rel=icon][data-badge=no]", state="attached")
