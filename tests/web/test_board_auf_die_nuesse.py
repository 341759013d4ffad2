"""Auf die Nüsse! on its drawn board (draw/auf_die_nuesse.js), in Debian's chromium.

A whole game against a bot played by clicking the board only (spaces, dice, face-up nuts,
stores, kept jokers and the moves drawn on the table, never the fallback move buttons), one
click the rules forbid and the engine's refusal shown for it, every card and die labelled for
screen readers, and the result checked against the record the server serves. Screenshots of
the table at the start, in the middle and at the end go to ``docs/screens/``.
Those screenshots are written there only with SPIELTISCH_DOCS_SCREENS set (conftest). The log
of a game played in German, on a desktop and a phone, draws the nuts its sentences name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import spieltisch
from spieltisch.core.record import Record
from spieltisch.games.auf_die_nuesse import Rule
from spieltisch.session import Table

from .conftest import LiveServer, docs_screens, left_in_play, require_browser, switch_language

require_browser()

from playwright.sync_api import BrowserContext, Page  # noqa: E402 - after the skip

from .test_board_auweier import SIZES, check_drawn_log, drawn_log, seated_in_german  # noqa: E402
from .test_browser import click_move, create  # noqa: E402
from .test_browser import wait_ready as page_ready  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it may have spent it: 429)."""
    return module_server


GAME = "auf-die-nuesse"
SEED = 2
SEAT = 1
"""The person sits second, so that they also place a squirrel before the first turn."""
VIEWPORT = {"width": 1200, "height": 800}
CLICK_LIMIT = 2000
"""No game of two takes one seat this many clicks; a loop that reaches it fails."""
TURN_TIMEOUT_MS = 30_000
READY = """() => document.querySelector('#result')
    || document.querySelector('#board .nd-root[data-mine="1"]')"""
TARGETS = "#board .nd-root [data-legal], #board .nd-root [data-choose]"
CHOICES = "#board .nd-choice [data-legal]"

NewContext = Callable[..., BrowserContext]


def version_of(page: Page) -> int:
    """The table version the page shows."""
    return int(page.locator("#turn").get_attribute("data-version") or "0")


def wait_ready(page: Page) -> bool:
    """Wait until the board can be clicked or the result is shown; True once the game is over."""
    page.wait_for_function(READY, timeout=TURN_TIMEOUT_MS)
    return page.locator("#result").count() > 0


def wait_version(page: Page, above: int, shown: str) -> None:
    """Wait until the page shows a version past ``above``; a refusal (a notice other than the
    one ``shown`` before the click) fails the test."""
    page.wait_for_function(
        """([above, shown]) => Number(document.querySelector('#turn').dataset.version) > above
            || !['', shown].includes(document.querySelector('#notice')?.textContent ?? '')""",
        arg=[above, shown],
        timeout=TURN_TIMEOUT_MS,
    )
    assert version_of(page) > above, page.locator("#notice").text_content()


def targets(page: Page, selector: str) -> list[dict[str, Any]]:
    """The board's clickable things under ``selector``: the move each makes, or that it opens
    a choice."""
    found: list[dict[str, Any]] = page.locator(selector).evaluate_all(
        """(nodes) => nodes.map((n) =>
            ({move: n.dataset.move ?? null, choose: 'choose' in n.dataset}))"""
    )
    return found


def click_board(page: Page, rng: random.Random, made: list[str]) -> None:
    """Click one thing on the board that plays a legal move (choosing among the moves, not the
    elements, so that a move drawn twice is not favoured); a click that opens a choice (a
    joker's kind, a kept joker to lay) is followed through on the next call."""
    choices = targets(page, CHOICES)
    selector = CHOICES if choices else TARGETS
    found = choices or targets(page, TARGETS)
    assert found, "the board offers nothing to click although it is the seat's turn"
    keys = sorted({item["move"] or "" for item in found if not item["choose"]})
    keys += [f"choose:{i}" for i, item in enumerate(found) if item["choose"]]
    key = rng.choice(keys)
    if key.startswith("choose:"):
        page.locator(selector).nth(int(key.split(":")[1])).click()
        return
    index = rng.choice([i for i, item in enumerate(found) if item["move"] == key])
    before, shown = version_of(page), page.locator("#notice").text_content() or ""
    page.locator(selector).nth(index).click()
    made.append(key)
    wait_version(page, before, shown)


def shot(page: Page, name: str) -> None:
    """The table as the viewport shows it, for the docs, once its short animations are done."""
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')",
        timeout=TURN_TIMEOUT_MS,
    )
    docs = docs_screens()
    page.screenshot(path=str(docs / f"{GAME}-{name}.png"))


def final_table(server: LiveServer, table_id: str) -> Table:
    """The finished game, rebuilt from the record the server serves."""
    about = server.call("GET", f"/api/tables/{table_id}")
    record = Record.loads(server.text(f"/api/tables/{table_id}/record"))
    game = spieltisch.load(about["game"], about["players"], **about["options"])
    return Table.from_record(game, record)


def illegal_click(page: Page) -> None:
    """Click a start-track space the roll does not allow: the refusal names the rule."""
    free = page.locator("#board .nd-track[data-move]:not([data-legal]):not(:has(.nd-sq))").first
    number = free.get_attribute("data-track")
    before = version_of(page)
    free.click()
    page.wait_for_function("() => document.querySelector('#notice').textContent !== ''")
    notice = page.locator("#notice").text_content() or ""
    assert notice.startswith("Refused: "), notice
    assert f"place {number}" in notice
    assert Rule.GREEN_PLUS_WHITE.value in notice
    assert version_of(page) == before
    assert page.locator("#board .nd-root").get_attribute("data-stage") == "place"


def labelled(page: Page) -> None:
    """Every card and die on the board carries a text label, and every seat its letter."""
    unlabelled = page.locator("#board .nd-root").evaluate(
        """(root) => [...root.querySelectorAll('.nd-card:not([aria-hidden]), .nd-die, .nd-store')]
            .filter((n) => !(n.getAttribute('aria-label') ?? '').trim()).length"""
    )
    assert unlabelled == 0
    assert page.locator("#board .nd-die").count() == 3
    assert page.locator("#board .nd-store").count() == 16
    letters = page.locator("#board .nd-player-head .nd-sq").all_text_contents()
    assert len(letters) == 2 and len(set(letters)) == 2


def test_whole_game_by_clicking_the_board(server: LiveServer, new_context: NewContext) -> None:
    made_table = server.call(
        "POST",
        "/api/tables",
        {
            "game": GAME,
            "players": 2,
            "seats": [{"kind": "bot", "level": "heuristic"}, {"kind": "person"}],
            "seed": SEED,
        },
    )
    table_id = made_table["id"]
    page = new_context(viewport=VIEWPORT).new_page()
    page.goto(server.url + made_table["seat_links"][str(SEAT)])
    page.fill("#name", "Nora")
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    host = str(made_table["host_link"]).split("#host=", 1)[1]
    server.call("POST", f"/api/tables/{table_id}/start", {}, token=host)

    rng = random.Random(SEED)
    made: list[str] = []
    refused = middle = False
    assert not wait_ready(page), "the game ended before the first move"
    first_pile = int(page.locator("#board .nd-root").get_attribute("data-pile") or "0")
    shot(page, "start")
    labelled(page)
    for _ in range(CLICK_LIMIT):
        if wait_ready(page):
            break
        root = page.locator("#board .nd-root")
        if not refused and root.get_attribute("data-stage") == "place":
            illegal_click(page)
            refused = True
        pile = int(root.get_attribute("data-pile") or "0")
        if not middle and pile <= first_pile // 2:
            shot(page, "middle")
            labelled(page)
            middle = True
        click_board(page, rng, made)
    else:
        raise AssertionError(f"the game did not end within {CLICK_LIMIT} clicks")

    assert refused and middle
    kinds = {move.split()[0] for move in made}
    assert {"setup", "place", "roll", "stop"} <= kinds, kinds
    assert page.locator("#moves button.move").count() == 0

    table = final_table(server, table_id)
    assert table.over
    winners = ", ".join(table.seats[w] for w in sorted(table.state.winners())) or "–"
    scores = " · ".join(
        f"{name} {score}" for name, score in zip(table.seats, table.state.scores(), strict=True)
    )
    assert page.locator("#winners").text_content() == winners
    assert page.locator("#scores").text_content() == scores
    drawn = page.locator("#board .nd-score").evaluate_all(
        "(nodes) => nodes.map((n) => Number(n.dataset.score))"
    )
    assert drawn == list(table.state.scores())
    assert page.locator("#board .nd-root").get_attribute("data-stage") == "over"
    shot(page, "end")

    english = page.locator("#board .nd-piles").text_content() or ""
    switch_language(page)
    german = page.locator("#board .nd-piles").text_content() or ""
    assert german != english
    assert page.evaluate("() => document.documentElement.lang") == "de"
    switch_language(page)


def started_against_a_bot(
    server: LiveServer, new_context: NewContext, extra: dict[str, Any]
) -> Page:
    """A 2-player table against a random bot, made with ``extra`` in its request, joined by a
    person as seat 0 and started; that person's page, ready."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made: dict[str, Any] = server.call(
        "POST", "/api/tables",
        {"game": "auf-die-nuesse", "players": 2, "seats": seats, "seed": 4, **extra},
    )  # fmt: skip
    left_in_play(server, made)
    page = new_context(viewport=VIEWPORT).new_page()
    page.goto(server.url + made["seat_links"]["0"])
    page.fill("#name", "Ute")
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    host = str(made["host_link"]).split("#host=", 1)[1]
    server.call("POST", f"/api/tables/{made['id']}/start", {}, token=host)
    wait_ready(page)
    return page


@pytest.mark.parametrize("aids", [False, True])
def test_the_nuts_not_seen_yet_are_counted_only_as_a_house_rule(
    server: LiveServer, new_context: NewContext, aids: bool
) -> None:
    """Every drawn nut was seen by all, but counting what is left is each player's work: the
    board counts for them only where the host allowed memory aids."""
    page = started_against_a_bot(server, new_context, {"rules": {"memory_aids": aids}})
    page.wait_for_selector(".nd-piles")
    assert page.locator(".nd-unseen").count() == (1 if aids else 0)
    assert page.locator(".nd-pile").count() == 2  # the piles' sizes are there to see either way


def test_the_stores_show_the_tables_own_values(server: LiveServer, new_context: NewContext) -> None:
    """A table playing other store values (the store_table ruling, a store value parameter)
    shows them on every store, as the engine scores them."""
    options: dict[str, bool | int | str] = {
        "store_table": "five_25",
        "store_value_6": 40,
        "store_value_2": 7,
    }
    page = started_against_a_bot(server, new_context, {"options": options})
    drawn = page.locator('#board [data-store^="0:"] .nd-value').all_text_contents()
    expected = spieltisch.load("auf-die-nuesse", 2, **options).config.store_values
    assert [int(x) for x in drawn] == list(expected) == [7, 7, 10, 10, 15, 15, 25, 40]


LOG_MOVES = 6
"""The seat's moves before its log is looked at."""
LOG_CARDS = 6
"""The least drawn nuts the log holds by then: the four laid out at the start and two dealt."""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_log_draws_the_nuts_it_names(
    size: str, server: LiveServer, new_context: NewContext
) -> None:
    """A nut card a log sentence names ("eine Walnuss", "den W/H-Joker") is drawn as the
    board draws it, and named by the same words."""
    made = create(server, GAME, [{"kind": "person"}, {"kind": "bot", "level": "random"}], SEED)
    page, updates = seated_in_german(server, new_context, size, made)
    rng = random.Random(SEED)
    for _ in range(LOG_MOVES):
        if page_ready(page):
            break
        click_move(page, rng)
    check_drawn_log(page, updates, ".nd-card", LOG_CARDS)
    names = {card["name"] for entry in drawn_log(page, ".nd-card") for card in entry["cards"]}
    nuts = ("Walnuss", "Haselnuss", "Buchecker", "Eichel", "-Joker")
    assert all(any(nut in name for nut in nuts) for name in names), names
    folded = page.locator("#fold-log:not([open]) > summary")  # a phone folds the log away
    if folded.count():
        folded.click()
    page.locator("#log").screenshot(path=str(docs_screens() / f"nuesse-log-de-{size}.png"))
