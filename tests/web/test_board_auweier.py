"""Auweier's drawn board in a real browser: a whole game played by clicking the board only.

The person's seat arranges its deck in the drawn list (cards clicked and dragged from the
tray, one dragged within the order, one taken back, one moved with the arrow keys, then
"shuffle the rest" with the Weddings spread), makes one illegal click (an opening Wedding
where it has no worms, which the server refuses with the rule), and then plays every move by
clicking a hand card and the female, stack or card it acts on, against the heuristic bot, to
the end. The moves are chosen from the legal list the page holds; they are never made with
the fallback buttons. Screenshots of the start, the middle and the end go to docs/screens/.
Those screenshots are written there only with SPIELTISCH_DOCS_SCREENS set (conftest). The log
of a game played in German, on a desktop and a phone, draws the cards its sentences name.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import PHONE, LiveServer, docs_screens, switch_language
from .test_browser import check_result, click_move, create, join, start, updates_of, version_of
from .test_browser import wait_ready as page_ready

if TYPE_CHECKING:  # test_browser skips the module cleanly where playwright is missing
    from playwright.sync_api import BrowserContext, Page, WebSocket

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1200, "height": 800}
MOVE_LIMIT = 300
"""No seat of a two-player Auweier game makes this many moves; a loop reaching it fails."""
TURN_TIMEOUT_MS = 20_000

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
}
LOG_SEED = 5
LOG_MOVES = 20
"""The most moves the seat makes before its log must have drawn cards."""
LOG_CARDS = 3
"""How many drawn cards the log must hold by then."""
CARD_TEXT = ("1", "2", "2*", "3", "4", "5*", "6", "7", "F", "K", "H")
"""Auweier's cards in notation, as the log's sentences name them."""
DRAWN_LOG = """(drawn) => [...document.querySelectorAll('#log ol.log > li')]
    .filter((li) => li.querySelector(drawn))
    .map((li) => {
        const said = (node) => {  // the text, each picture said by its name
            for (const picture of node.querySelectorAll('[role=img]')) {
                picture.replaceWith(picture.getAttribute('aria-label') ?? '');
            }
            return node.textContent;
        };
        const copy = li.cloneNode(true);
        const outcome = copy.querySelector(':scope > .ok');
        outcome?.remove();
        return {
            version: li.value, sentence: said(copy), outcome: outcome ? said(outcome) : null,
            cards: [...li.querySelectorAll(drawn)].map((card) => ({
                role: card.getAttribute('role'), name: card.getAttribute('aria-label') ?? ''})),
        };
    })"""
"""Each log entry that draws a card (``drawn``: the board's card selector): its sentence and
outcome as a screen reader says them (a picture by its name), and its drawn cards."""

READY = """() => document.querySelector('#result')
    || (document.querySelector('#aw-board')?.dataset.act === 'me'
        && document.querySelector('#moves button.move:not([disabled])'))"""


def wait_ready(page: Page) -> bool:
    """Wait until the board offers the seat a move or the result is shown; True at the end."""
    page.wait_for_function(READY, timeout=TURN_TIMEOUT_MS)
    return page.locator("#result").count() > 0


def wait_moved(page: Page, before: int, shown: str = "") -> None:
    """Wait until the page had an update past its ``before``-th (a deck step of one's own
    changes no version: the others must not count them); a refusal fails the test
    (``shown``: the refusal the page showed before the move, which stays until the next
    event)."""
    page.wait_for_function(
        """([v, shown]) => Number(document.querySelector('#turn').dataset.updates) > v
            || !['', shown].includes(document.querySelector('#notice')?.textContent ?? '')""",
        arg=[before, shown],
        timeout=TURN_TIMEOUT_MS,
    )
    notice = page.locator("#notice").text_content() or ""
    assert notice == "", f"a legal move was refused: {notice}"


def legal_texts(page: Page) -> list[str]:
    """The notation of the seat's legal moves (read from the page, never clicked there)."""
    texts: list[str] = page.locator("#moves button.move").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.text)"
    )
    return texts


def draft(page: Page) -> list[str]:
    """The cards of the deck order being put together, in order."""
    cards: list[str] = page.locator("#aw-order-list [data-draft]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.card)"
    )
    return cards


def select(page: Page, card: str) -> None:
    """Choose a hand card (unless it is chosen already)."""
    button = page.locator(f'.aw-hand [data-hand="{card}"]').first
    if button.get_attribute("aria-pressed") != "true":
        button.click()
    page.wait_for_selector(f'.aw-hand [data-hand="{card}"][aria-pressed="true"]')


def click_board(page: Page, text: str, me: str) -> None:
    """Make the move ``text`` with clicks on the drawn table."""
    words = text.split()
    if text == "pass":
        page.click("#aw-pass")
    elif words[0] == "worm":
        select(page, words[1])
        page.click(f'.aw-female-head[data-female="{words[2]}"]')
    elif words[0] == "wedding":
        select(page, "H")
        page.click(f'.aw-female-head[data-female="{words[1]}"]')
    elif words[0] == "crow":
        owner, female = words[1].split("@")
        select(page, "K")
        page.click(f'.aw-lane[data-owner="{owner}"][data-female="{female}"] .aw-total')
    elif words[0] == "swap":
        female, place = words[1].split("#")
        select(page, words[2])
        lane = f'.aw-lane[data-owner="{me}"][data-female="{female}"]'
        page.click(f'{lane} [data-place="{place}"]', position={"x": 5, "y": 25})
    else:
        raise AssertionError(f"no board click for {text!r}")


def arrange_deck(page: Page) -> None:
    """Put H, 7, K first by clicks, drags and a key, then shuffle the rest, spread."""
    page.click('#aw-tray [data-tray="H"]')
    page.click('#aw-tray [data-tray="K"]')
    page.click('#aw-tray [data-tray="7"]')
    assert draft(page) == ["H", "K", "7"]
    page.drag_and_drop('#aw-tray [data-tray="5*"]', '#aw-order-list [data-draft="0"]')
    assert draft(page) == ["5*", "H", "K", "7"]
    page.drag_and_drop('#aw-order-list [data-draft="3"]', '#aw-order-list [data-draft="0"]')
    assert draft(page) == ["7", "5*", "H", "K"]
    page.click('#aw-order-list [data-draft="1"]')  # the 5* goes back to the tray
    assert draft(page) == ["7", "H", "K"]
    page.focus('#aw-order-list [data-draft="0"]')
    page.keyboard.press("ArrowRight")
    assert draft(page) == ["H", "7", "K"]
    assert page.locator('#aw-tray [data-tray="H"] .aw-times').text_content() == "×5"
    before = updates_of(page)
    page.click("#aw-spread")
    wait_moved(page, before)


def test_auweier_whole_game_by_clicking_the_board(
    server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    docs = docs_screens()
    made = create(
        server, "auweier", [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}], 18
    )
    page = new_context(viewport=VIEWPORT).new_page()
    join(page, server, made["seat_links"]["0"], "Ada")
    start(server, made)
    page.wait_for_selector("#aw-order #aw-tray")
    assert page.locator('#aw-stage[data-stage="order"]').count() == 1
    assert page.locator("#aw-starter button[data-starter]").count() == 6
    page.screenshot(path=str(docs / "auweier-start.png"), full_page=True)
    switch_language(page)  # the board's own texts follow the page's language
    assert page.locator("#aw-order h3").text_content() == "Sortiere dein Deck"
    switch_language(page)
    assert page.locator("#aw-order h3").text_content() == "Arrange your deck"
    arrange_deck(page)

    # The deck as arranged: the first cards of the hand are the ones put first.
    assert not wait_ready(page)
    hand = page.locator(".aw-hand [data-hand]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.hand)"
    )
    assert len(hand) == 6 and {"H", "7", "K"} <= set(hand)
    unlabelled = page.locator(".aw-card:not([aria-label]), .aw-egg:not([aria-label])").count()
    assert unlabelled == 0

    # One illegal click: a Wedding opens no phase where the seat has no worms.
    assert "wedding R" not in legal_texts(page)
    before = version_of(page)
    select(page, "H")
    page.click('.aw-female-head[data-female="R"]')
    page.wait_for_function("() => document.querySelector('#notice').textContent !== ''")
    refusal = page.locator("#notice").text_content() or ""
    assert refusal.startswith("Refused: ")
    assert version_of(page) == before

    rng = random.Random(18)
    made_moves, middle = 0, False
    for made_moves in range(1, MOVE_LIMIT + 1):
        if wait_ready(page):
            break
        legal = legal_texts(page)
        stage = page.locator("#aw-board").get_attribute("data-stage")
        if not middle and made_moves >= 6 and stage in {"weddings", "worms"}:
            middle = True
            page.screenshot(path=str(docs / "auweier-middle.png"), full_page=True)
        playable = [t for t in legal if t != "pass"] if stage == "worms" else legal
        before, shown = updates_of(page), page.locator("#notice").text_content() or ""
        click_board(page, rng.choice(playable or legal), "R")
        wait_moved(page, before, shown)
    else:
        raise AssertionError(f"the game did not end within {MOVE_LIMIT} moves")
    assert made_moves > 5
    assert middle, "the game had no wedding phase to show"
    table = check_result(page, server, made["id"])
    assert page.locator("#aw-final li").count() == len(table.seats)
    scores = page.locator("#aw-board .aw-score").evaluate_all(
        "(ss) => ss.map((s) => Number(s.dataset.score))"
    )
    assert scores == list(table.state.scores())
    page.screenshot(path=str(docs / "auweier-end.png"), full_page=True)


# --- the log draws the cards it names -----------------------------------------------------------


def listen_for_updates(page: Page) -> list[dict[str, Any]]:
    """The updates the page will receive on its socket, as they come."""
    updates: list[dict[str, Any]] = []

    def heard(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "update":
            updates.append(message)

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", heard)

    page.on("websocket", listen)
    return updates


def drawn_log(page: Page, drawn: str) -> list[dict[str, Any]]:
    """The log's entries that draw a card (``drawn``: the card selector), see DRAWN_LOG."""
    entries: list[dict[str, Any]] = page.evaluate(DRAWN_LOG, drawn)
    return entries


def drawn_cards(page: Page, drawn: str) -> int:
    """How many cards the log draws."""
    return sum(len(entry["cards"]) for entry in drawn_log(page, drawn))


def check_drawn_log(page: Page, updates: list[dict[str, Any]], drawn: str, least: int) -> None:
    """The log draws at least ``least`` cards as the board does (``drawn``: its card class),
    each a picture named for a screen reader, and each entry said with the pictures' names is
    the server's sentence word for word: the names are the words the text said."""
    entries = drawn_log(page, drawn)
    cards = [card for entry in entries for card in entry["cards"]]
    assert len(cards) >= least, f"the log draws {len(cards)} cards, not {least}"
    for card in cards:
        assert card["role"] == "img" and card["name"].strip(), card
    said = {event["version"]: event for update in updates for event in update["events"]}
    for entry in entries:
        event = said[entry["version"]]
        assert entry["sentence"] == event["sentence"]
        assert entry["outcome"] == (event["outcome"] or None)


def seated_in_german(
    server: LiveServer, new_context: Callable[..., BrowserContext], size: str, made: dict[str, Any]
) -> tuple[Page, list[dict[str, Any]]]:
    """Seat 0 of ``made`` taken in German at ``size`` and the table started: the page, and the
    updates it receives."""
    page = new_context(**SIZES[size]).new_page()
    updates = listen_for_updates(page)
    page.goto(server.url + "/")
    page.wait_for_selector("#game")
    assert switch_language(page) == "de"  # the context remembers it
    join(page, server, made["seat_links"]["0"], "Ada")
    start(server, made)
    return page, updates


@pytest.mark.parametrize("size", list(SIZES))
def test_the_log_draws_the_cards_it_names(
    size: str, server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    """A worm, a False Worm or a Crow that a log sentence names in notation is drawn as the
    board draws that card, and named by the same words."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = create(server, "auweier", seats, LOG_SEED)
    page, updates = seated_in_german(server, new_context, size, made)
    assert not page_ready(page)
    before = updates_of(page)
    page.fill("#notation", "deck shuffle")
    page.press("#notation", "Enter")
    wait_moved(page, before)
    rng = random.Random(LOG_SEED)
    for _ in range(LOG_MOVES):
        if page_ready(page) or drawn_cards(page, ".aw-card") >= LOG_CARDS:
            break
        click_move(page, rng)
    check_drawn_log(page, updates, ".aw-card", LOG_CARDS)
    names = {card["name"] for entry in drawn_log(page, ".aw-card") for card in entry["cards"]}
    assert names <= set(CARD_TEXT), names
