"""Every game on a phone, in German: the board comes first and fits the screen (issue 30).

Each game is played a few moves at 360 px wide (the narrowest phone we aim for) and at 390 px
in German: the board starts at the top of the page, nothing scrolls sideways, the moves as
text wait behind their summary, and the German page shows the game's words in German. The
390 px pages are saved as screenshots (``phone-de-*.png``, under ``docs/screens`` when
``SPIELTISCH_DOCS_SCREENS`` is set).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page

from .conftest import LiveServer, docs_screens, switch_language
from .test_browser import (
    NewContext,
    click_move,
    create,
    join,
    no_overflow,
    start,
    wait_ready,
)
from .test_german_walk import english_words

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
VISIBLE_WORDS = """() => { const code = [...document.querySelectorAll('code, kbd')];
    const kept = code.map((c) => c.textContent); code.forEach((c) => { c.textContent = ''; });
    const text = document.body.innerText; code.forEach((c, i) => { c.textContent = kept[i]; });
    return text; }"""
MOVES = 4
BOARD_FIRST = """() => { const b = document.getElementById('board').getBoundingClientRect();
    return b.top + window.scrollY; }"""
WIDE = """() => { const b = document.getElementById('board');
    return b.scrollWidth <= b.clientWidth + 1; }"""


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: the many tables it leaves in play end with the module."""
    return module_server


def english_on(page: Page, *names: str) -> list[str]:
    """The English words a German page shows (its visible text; names and notation, which
    the page sets as code, aside)."""
    text = str(page.evaluate(VISIBLE_WORDS))
    return english_words(text.replace("spieltisch", " "), names)


def test_the_lobby_a_replay_and_a_rules_page_say_no_english_word(
    server: LiveServer, new_context: NewContext
) -> None:
    page = new_context(viewport={"width": 390, "height": 800}, is_mobile=True).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game")
    assert switch_language(page) == "de"
    page.wait_for_function("() => document.getElementById('about').textContent.includes('·')")
    assert not english_on(page)  # the footer's build too ("reines Python")
    for game in GAMES:
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("article.rules[lang=de]:not([hidden])")
        assert not english_on(page), game
    made = create(server, "auf-die-eier", [{"kind": "bot", "level": "random"}] * 2, 3)
    start(server, made)
    for _ in range(200):
        if server.call("GET", f"/api/tables/{made['id']}")["status"] == "finished":
            break
        page.wait_for_timeout(100)
    page.goto(f"{server.url}/replay/{made['id']}")
    page.wait_for_selector("#last")
    page.click("#last")
    page.wait_for_selector("#log ol.log li")
    page.wait_for_function(
        "() => !document.querySelector('#position').textContent.startsWith('0 /')"
    )
    assert not english_on(page, "Bot 1 (random)", "Bot 2 (random)")


def seated_on_a_phone(
    server: LiveServer, new_context: NewContext, game: str, width: int, seed: int
) -> Page:
    context = new_context(
        viewport={"width": width, "height": 800},
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",  # still pictures: no card caught in flight
    )
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game")
    assert switch_language(page) == "de"  # the context remembers it
    made = create(server, game, [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed)
    join(page, server, made["seat_links"]["0"], "Greta")
    start(server, made)
    return page


def play_a_little(page: Page, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(MOVES):
        if wait_ready(page):
            return
        click_move(page, rng)
    wait_ready(page)
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [360, 390])
def test_the_board_comes_first_and_fits_a_phone_in_german(
    server: LiveServer, new_context: NewContext, game: str, width: int
) -> None:
    page = seated_on_a_phone(server, new_context, game, width, seed=width)
    assert not wait_ready(page)
    assert page.locator("#move-list").get_attribute("open") is None  # the board is the way
    assert page.evaluate(BOARD_FIRST) < 120, "something comes before the board"
    assert no_overflow(page) and page.evaluate(WIDE), "the page scrolls sideways"
    assert page.locator("#moves h2").text_content() == "Deine Züge"
    play_a_little(page, width)
    assert no_overflow(page) and page.evaluate(WIDE)
    assert not english_on(page, "Greta", "Bot 2 (random)")  # every word of the page in German
    if width == 390:
        folder: Path = docs_screens()
        page.screenshot(path=str(folder / f"phone-de-{game}.png"))
