"""The table page as a person reads it (issue 30): the log follows the newest entry unless its
reader scrolled back (a list shrinking under its reader is no scrolling back), can be reached
and scrolled by keyboard; the moves as text wait behind their summary, filtered by what is
typed; a new turn's keyboard focus goes to the board, never to the move that ends the turn;
the moves panel says nothing it should not (no stray "null" when hints are off)."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from .conftest import LiveServer, switch_language
from .test_browser import (
    ON_THE_BOARD,
    NewContext,
    click_move,
    create,
    join,
    show_moves,
    start,
    tab_to,
    updates_of,
    wait_ready,
    wait_version,
)

PERSON_AND_BOT = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
SCROLL = """() => { const l = document.querySelector('#log ol.log');
  return { top: l.scrollTop, bottom: l.scrollHeight - l.scrollTop - l.clientHeight,
           overflows: l.scrollHeight > l.clientHeight + 8 }; }"""


def entries_of(page: Page) -> int:
    return int(page.evaluate("() => document.querySelectorAll('#log ol.log li').length"))


def seated_against_a_bot(server: LiveServer, new_context: NewContext, seed: int, name: str) -> Page:
    """A page seated as ``name`` at a started Auf die Eier table against a random bot."""
    made = create(server, "auf-die-eier", PERSON_AND_BOT, seed)
    page = new_context().new_page()
    join(page, server, made["seat_links"]["0"], name)
    start(server, made)
    return page


def play_until_the_log_overflows(page: Page, rng: random.Random) -> None:
    for _ in range(400):
        if page.evaluate(SCROLL)["overflows"]:
            return
        assert not wait_ready(page), "the game ended before its log filled the panel"
        click_move(page, rng)
    raise AssertionError("the log never filled its panel")


def test_the_log_follows_the_newest_entry_unless_scrolled_back(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 3, "Lena")
    rng = random.Random(3)
    play_until_the_log_overflows(page, rng)
    assert page.evaluate(SCROLL)["bottom"] < 8  # at the newest entry
    log = page.locator("#log ol.log")
    assert log.get_attribute("tabindex") == "0"
    assert page.get_by_role("list", name="What happened").count() == 1  # named by its heading

    log.evaluate("(l) => { l.scrollTop = 0; }")
    entries = entries_of(page)
    wait_ready(page)
    click_move(page, rng)  # new entries arrive while the reader is at the top
    page.wait_for_function(f"() => document.querySelectorAll('#log ol.log li').length > {entries}")
    assert page.evaluate(SCROLL)["top"] == 0  # left where the reader put it

    log.evaluate("(l) => { l.scrollTop = l.scrollHeight; }")
    entries = entries_of(page)
    if not wait_ready(page):
        click_move(page, rng)
        page.wait_for_function(
            f"() => document.querySelectorAll('#log ol.log li').length > {entries}"
        )
        # following again (waited for: a loaded machine may lay the new lines out a frame late)
        page.wait_for_function(f"() => ({SCROLL})().bottom < 8", timeout=5_000)


def test_the_log_keeps_following_when_it_shrinks_under_its_reader(
    server: LiveServer, new_context: NewContext
) -> None:
    """A reader at the newest entry whose list gets shorter (the page around it laid out anew,
    as a busy machine may draw it between two updates) did not scroll back: the log still
    follows. Before, the shrunk list looked scrolled back and stayed put."""
    page = seated_against_a_bot(server, new_context, 4, "Pia")
    rng = random.Random(4)
    play_until_the_log_overflows(page, rng)
    if wait_ready(page):
        return
    for _ in range(3):
        assert page.evaluate(SCROLL)["bottom"] < 8
        entries = entries_of(page)
        page.locator("#log ol.log").evaluate(
            "(l) => { l.style.maxHeight = `${Math.max(l.clientHeight - 40, 20)}px`; }"
        )
        assert page.evaluate(SCROLL)["bottom"] >= 8  # the shrunk list, no longer at its end
        click_move(page, rng)
        page.wait_for_function(
            f"() => document.querySelectorAll('#log ol.log li').length > {entries}"
        )
        if wait_ready(page):
            break
        assert page.evaluate(SCROLL)["bottom"] < 8  # following still


def test_no_stray_null_under_the_moves_when_hints_are_off(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 5, "Jonas")
    assert not wait_ready(page)
    text = page.locator("#moves").text_content() or ""
    assert "null" not in text and "undefined" not in text
    assert page.locator("#hint").count() == 0


def test_the_moves_as_text_are_collapsed_and_filtered_by_what_is_typed(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 9, "Mia")
    assert not wait_ready(page)
    assert page.locator("#move-list").get_attribute("open") is None
    assert not page.locator("#moves button.move").first.is_visible()
    everything = page.locator("#moves button.move").count()
    assert everything > 1
    show_moves(page)
    page.fill("#notation", "stop")
    page.wait_for_function("() => document.querySelectorAll('#moves button.move').length === 1")
    assert page.locator("#moves button.move").get_attribute("data-text") == "stop"
    assert f"(1 / {everything})" in (page.locator("#move-list-summary").text_content() or "")
    page.fill("#notation", "")
    page.wait_for_function(
        f"() => document.querySelectorAll('#moves button.move').length === {everything}"
    )


def test_a_new_turn_puts_the_keyboard_on_the_board_not_on_stop(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 11, "Noah")
    assert not wait_ready(page)
    tab_to(page, "() => document.activeElement?.id === 'move-list-summary'")
    page.keyboard.press("Enter")
    tab_to(page, "() => document.activeElement?.dataset.text === 'stop'")
    before = updates_of(page)
    page.keyboard.press("Enter")  # ends the turn; the bot plays; the turn comes back
    wait_version(page, before)
    assert not wait_ready(page)
    page.wait_for_function(ON_THE_BOARD)
    focused = page.evaluate("() => document.activeElement.outerHTML")
    assert "ade-stop" not in focused and "ade-die" in focused, focused


def test_the_log_draws_the_dice_as_the_board_does(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 13, "Ida")
    assert not wait_ready(page)
    first = page.locator("#log ol.log li").first
    dice = first.locator(".ade-log-die")
    assert dice.count() > 0  # the first throw, drawn
    names = dice.evaluate_all("(ds) => ds.map((d) => d.getAttribute('aria-label'))")
    text = first.text_content() or ""
    assert all(names) and not any(symbol in text for symbol in "◯◐☠⊔⊖♣")  # none left as text


def test_switching_language_asks_for_the_log_again_in_that_language(
    server: LiveServer, new_context: NewContext
) -> None:
    page = seated_against_a_bot(server, new_context, 15, "Olga")
    assert not wait_ready(page)
    first = page.locator("#log ol.log li").first
    english = first.text_content() or ""
    assert "throws" in english
    switch_language(page)  # the server words the log again, in German
    page.wait_for_function(
        "() => !document.querySelector('#log ol.log li')?.textContent.includes('throws')"
    )
    german = page.locator("#log ol.log li").first.text_content() or ""
    assert "Olga" in german and german != english
    labels = page.locator("#moves button.move").evaluate_all("(bs) => bs.map((b) => b.textContent)")
    assert "aufhören und werten" in labels  # the move labels too
