"""Auweier's drawn board in a real browser: a whole game played by clicking the board only.

The person's seat arranges its deck in the drawn list (cards clicked and dragged from the
tray, one dragged within the order, one taken back, one moved with the arrow keys, then
"shuffle the rest" with the Weddings spread), tries a card the board does not offer (a Wedding
that can open no phase where the seat has no worms: a click on it and on a female sends
nothing), and then plays every move by clicking a hand card and the female, stack or card it
acts on, against the heuristic bot, to the end. The moves are chosen from the legal list the
page holds; they are never made with the fallback buttons. Screenshots of the start, the
middle and the end go to docs/screens/. Those screenshots are written there only with
SPIELTISCH_DOCS_SCREENS set (conftest). The log of a game played in German, on a desktop and
a phone, draws the cards its sentences name.

In German, on a desktop and a phone, the board offers only what a legal move of the update's
list uses, at deck building, in normal turns and in both stages of a wedding phase: the rest
is out of the Tab order, marked unavailable and dimmed, and a click on it sends nothing. Deck
building fits a phone (the board within DECK_SCREENS screen heights, its choices within the
first), and a keyboard can put the cards in order there without losing its place.
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


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it may have spent it: 429)."""
    return module_server


VIEWPORT = {"width": 1200, "height": 800}
MOVE_LIMIT = 300
"""No seat of a two-player Auweier game makes this many moves; a loop reaching it fails."""
TURN_TIMEOUT_MS = 20_000
SEND_WAIT_MS = 400
"""Longer than a move waits before it leaves (table.js SEND_GAP)."""
GERMAN = {"locale": "de-DE"}
"""A German browser: the page opens in German by itself (its Accept-Language)."""

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


def settled(page: Page) -> None:
    """Wait until no card is still sliding to its place (a drag aimed at a moving card may land
    on its neighbour)."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def arrange_deck(page: Page) -> None:
    """Put H, 7, K first by clicks, drags and a key, then shuffle the rest, spread."""
    page.click('#aw-tray [data-tray="H"]')
    page.click('#aw-tray [data-tray="K"]')
    page.click('#aw-tray [data-tray="7"]')
    assert draft(page) == ["H", "K", "7"]
    settled(page)
    page.drag_and_drop('#aw-tray [data-tray="5*"]', '#aw-order-list [data-draft="0"]')
    assert draft(page) == ["5*", "H", "K", "7"]
    settled(page)
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
    # Still cards: a drag aimed at a card sliding into its place may land beside it (the
    # motion itself is tested in test_motion.py).
    page = new_context(viewport=VIEWPORT, reduced_motion="reduce").new_page()
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

    # A Wedding opens no phase where the seat has no worms: the board does not offer it, and
    # a click on it and on a female sends nothing (the server has nothing to refuse).
    assert not [text for text in legal_texts(page) if text.startswith("wedding ")]
    wedding = page.locator('.aw-hand [data-hand="H"]').first
    assert wedding.get_attribute("aria-disabled") == "true"
    before = version_of(page)
    wedding.click(force=True)
    page.click('.aw-female-head[data-female="R"]', force=True)
    page.wait_for_timeout(SEND_WAIT_MS)
    assert wedding.get_attribute("aria-pressed") == "false"
    assert (page.locator("#notice").text_content() or "") == ""
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
    assert page.evaluate("() => document.documentElement.lang") == "de"  # the table page too
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


# --- the board offers what can be played, and only that -----------------------------------------

MARK_SEED = 3
"""A two-player game against the random bot in which the seat opens a wedding phase early."""
MARK_MOVES = 30
"""The most moves the seat makes before it must have seen deck building, a normal turn and
both stages of a wedding phase."""
WORM_VALUE = {"1": 1, "2": 2, "2*": 2, "3": 3, "4": 4, "5*": 5, "6": 6, "7": 7, "F": 0}
CONTROLS = """() => [...document.querySelectorAll('#aw-board :is(.aw-card, .aw-female-head)')]
    .map((node) => {
        const lane = node.closest('.aw-lane');
        const head = node.classList.contains('aw-female-head');
        const column = node.closest('.aw-female');
        const style = getComputedStyle(node);
        return {
            hand: node.dataset.hand ?? null, tray: node.dataset.tray ?? null,
            draft: node.dataset.draft === undefined ? null : node.dataset.card,
            starter: node.dataset.starter ?? null,
            place: node.dataset.place === undefined ? null : Number(node.dataset.place),
            owner: lane?.dataset.owner ?? null, head,
            female: head ? node.dataset.female : lane?.dataset.female ?? null,
            tag: node.tagName, role: node.getAttribute('role'), tabIndex: node.tabIndex,
            disabled: node.disabled === true, ariaDisabled: node.getAttribute('aria-disabled'),
            pressed: node.getAttribute('aria-pressed') === 'true',
            dim: Number(style.opacity) < 1,
            outlined: style.outlineStyle !== 'none'
                || (head && column !== null && getComputedStyle(column).outlineStyle !== 'none'),
        };
    })"""
"""Every card and female the board draws: what it is, and how it is offered (a control in the
Tab order, or one marked unavailable or a mere picture), and whether it looks dimmed or
outlined."""


def controls(page: Page) -> list[dict[str, Any]]:
    """The board's cards and females, see CONTROLS."""
    found: list[dict[str, Any]] = page.evaluate(CONTROLS)
    return found


def offered(item: dict[str, Any]) -> bool:
    """Whether the board offers ``item`` as a choice: an enabled control in the Tab order."""
    control = item["tag"] == "BUTTON" or item["role"] == "button"
    enabled = not item["disabled"] and item["ariaDisabled"] != "true"
    return control and enabled and item["tabIndex"] >= 0


def card_of(move: str) -> str | None:
    """The hand card a move plays (None for a pass or a deck step)."""
    kind, *words = move.split()
    if kind in {"worm", "swap"}:
        return words[-1] if kind == "swap" else words[0]
    return {"wedding": "H", "crow": "K"}.get(kind)


def used(item: dict[str, Any], legal: list[str], selected: str | None, me: str) -> bool:
    """Whether some legal move uses ``item`` (``selected``: the hand card chosen, if any)."""
    if item["hand"] is not None:
        return any(card_of(move) == item["hand"] for move in legal)
    if item["tray"] is not None or item["draft"] is not None:
        return f"deck {item['tray'] or item['draft']}" in legal
    if item["starter"] is not None:
        starters = [move.split()[2:] for move in legal if move.startswith("deck starter ")]
        return any(item["starter"] in cards for cards in starters)
    female = item["female"]
    if selected is None or female is None:
        return False
    crow = selected == "K" and any(
        move.startswith("crow ") and move.endswith(f"@{female}") for move in legal
    )
    if item["head"]:
        wedding = selected == "H" and f"wedding {female}" in legal
        return crow or wedding or f"worm {selected} {female}" in legal
    if item["place"] is None:
        return False
    owner, place = item["owner"], item["place"]
    swap = owner == me and f"swap {female}#{place} {selected}" in legal
    return swap or (selected == "K" and f"crow {owner}@{female}" in legal)


def check_offers(page: Page, legal: list[str], me: str) -> None:
    """Every card or female the board offers is used by a legal move; every other one is out
    of the Tab order and marked unavailable for a screen reader (or is a mere picture); a hand
    card that can be played is outlined and one that cannot is dimmed, and so, once a card is
    chosen, are the females it can and cannot go before."""
    items = controls(page)
    selected = next((item["hand"] for item in items if item["hand"] and item["pressed"]), None)
    for item in items:
        if offered(item):
            assert used(item, legal, selected, me), f"offered, but no legal move uses {item}"
            continue
        assert item["disabled"] or item["tabIndex"] < 0, f"in the Tab order: {item}"
        marked = item["disabled"] or item["ariaDisabled"] == "true" or item["role"] == "img"
        assert marked, f"not marked unavailable: {item}"
    for item in items:
        if item["hand"] is None and not (item["head"] and selected is not None):
            continue
        if used(item, legal, selected, me):
            assert offered(item) and item["outlined"], f"playable, but not marked so: {item}"
        else:
            assert item["dim"] and not item["outlined"], f"not playable, but not dimmed: {item}"


def moves_sent(frames: list[str]) -> list[str]:
    """The moves among the frames a page sent on its socket."""
    return [frame for frame in frames if json.loads(frame).get("type") == "move"]


def listen_for_moves(page: Page) -> list[str]:
    """The frames the page will send on its socket, as it sends them."""
    frames: list[str] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)
    return frames


def click_unoffered(page: Page, frames: list[str]) -> None:
    """Click each card and female the board does not offer (as a hurried finger would, each
    hand card followed by every female): nothing is chosen, no move is sent, nothing is
    refused."""
    sent, pressed = len(moves_sent(frames)), controls(page)
    chosen = [item["hand"] for item in pressed if item["hand"] and item["pressed"]]
    hand = sorted({item["hand"] for item in pressed if item["hand"] and not offered(item)})
    heads = page.locator("#aw-board .aw-female-head")
    for card in [*hand, None]:
        if card is not None:
            page.locator(f'.aw-hand [data-hand="{card}"]').first.click(force=True)
        for item in controls(page):
            if item["head"] and not offered(item):
                heads.and_(page.locator(f'[data-female="{item["female"]}"]')).click(force=True)
        now = [item["hand"] for item in controls(page) if item["hand"] and item["pressed"]]
        assert now == chosen, f"a click on {card} chose {now}"
    page.wait_for_timeout(SEND_WAIT_MS)
    assert moves_sent(frames)[sent:] == [], "a card no legal move uses sent a move"
    assert (page.locator("#notice").text_content() or "") == "", "a click was refused"


def next_move(legal: list[str]) -> str:
    """The seat's plan: open a wedding phase as soon as it can, else feed the red female its
    biggest worm; in a wedding phase, pass at once."""
    for move in legal:
        if move.startswith("wedding ") or move == "pass":
            return move
    worms = [move for move in legal if move.startswith("worm ") and move.endswith(" R")]
    return max(worms, key=lambda move: WORM_VALUE[move.split()[1]]) if worms else sorted(legal)[0]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_offers_only_what_can_be_played(
    size: str, server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    """In German, at each of the seat's decisions (deck building, normal turns, a wedding
    phase's two stages), every card or female the board offers as a choice is used by a legal
    move of the update's list, the others are out of the Tab order, marked unavailable and
    dimmed, and clicking them sends nothing, so the server never has to refuse."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = create(server, "auweier", seats, MARK_SEED)
    page = new_context(**GERMAN, **SIZES[size]).new_page()
    frames = listen_for_moves(page)
    join(page, server, made["seat_links"]["0"], "Ada")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    start(server, made)
    seen: list[str] = []
    for _ in range(MARK_MOVES):
        assert not wait_ready(page), "the game ended before a wedding phase"
        stage = page.locator("#aw-board").get_attribute("data-stage") or ""
        legal = legal_texts(page)
        seen.append(stage)
        check_offers(page, legal, "R")
        click_unoffered(page, frames)
        before, shown = updates_of(page), page.locator("#notice").text_content() or ""
        if stage == "order":
            page.click("#aw-starter-go")  # as shown: Crow, Wedding, False Worm, 1, 2*, 3
            wait_moved(page, before, shown)
            continue
        move = next_move(legal)
        card = card_of(move)
        if card is not None:  # the card chosen: the females and stacks it may go to
            select(page, card)
            check_offers(page, legal, "R")
            if stage == "play" and "play" not in seen[:-1]:
                shot = docs_screens() / f"auweier-playable-de-{size}.png"
                page.locator("#board").screenshot(path=str(shot))
            click_unoffered(page, frames)
        click_board(page, move, "R")
        wait_moved(page, before, shown)
        if stage == "worms":
            break
    assert {"order", "play", "weddings", "worms"} <= set(seen), seen


# --- deck building on a phone ---------------------------------------------------------------------

DECK_SCREENS = 1.25
"""The most screen heights a phone's deck building may take, the board's whole panel measured
(before it took 1,701 px with three players, two screens; the rest of the page, the moves, the
chat and the log, follows the board)."""
CHOICES_SCREENS = 1.0
"""Where the deck building's choices must end on a phone, in screen heights from the top of
the page: the tray's cards, the buttons that place or shuffle them, and the first-game hand."""
DRAFTED = ("H", "K", "7", "1", "2", "3", "4", "6", "1", "1", "2*", "5*", "F", "H")
"""The cards put in order by clicks before the page is measured again (the order grows)."""
MEASURE = """() => {
    const bottom = (selector) => Math.max(0, ...[...document.querySelectorAll(selector)]
        .map((node) => node.getBoundingClientRect().bottom + window.scrollY));
    return {
        board: document.querySelector('#board').getBoundingClientRect().height,
        choices: bottom('#aw-tray, .aw-order-actions, #aw-starter'),
        overflow: document.documentElement.scrollWidth > window.innerWidth,
    };
}"""
"""The board panel's height, where the deck building's choices end, and whether the page is
wider than the phone."""


def arranging(server: LiveServer, new_context: Callable[..., BrowserContext], players: int) -> Page:
    """A German phone's page of seat 0 of a new table of ``players``, in its deck building."""
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    made = create(server, "auweier", seats, MARK_SEED)
    page = new_context(**GERMAN, **SIZES["phone"]).new_page()
    join(page, server, made["seat_links"]["0"], "Ada")
    start(server, made)
    page.wait_for_selector("#aw-order #aw-tray")
    return page


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_building_fits_a_phone(
    players: int, server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    """On a phone, in German, deck building takes at most DECK_SCREENS screen heights, before
    and while the order grows, and its choices end within the first CHOICES_SCREENS."""
    page = arranging(server, new_context, players)
    screen = PHONE["height"]
    for drafted in (0, len(DRAFTED)):
        for card in DRAFTED if drafted else ():
            page.click(f'#aw-tray [data-tray="{card}"]')
        assert len(draft(page)) == drafted
        measured = page.evaluate(MEASURE)
        assert not measured["overflow"], "the page is wider than the phone"
        assert measured["board"] <= DECK_SCREENS * screen, (drafted, measured)
        assert measured["choices"] <= CHOICES_SCREENS * screen, (drafted, measured)


def focused(page: Page) -> dict[str, Any]:
    """What has the keyboard's focus: its tray card, order place and id."""
    found: dict[str, Any] = page.evaluate(
        """() => ({tray: document.activeElement?.dataset.tray ?? null,
            draft: document.activeElement?.dataset.draft ?? null,
            id: document.activeElement?.id ?? ''})"""
    )
    return found


def test_deck_building_by_keyboard_keeps_the_focus(
    server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    """A keyboard user puts cards in order on a phone: Tab reaches the tray, Enter places a
    card and the focus stays on the tray (the next Enter places another), the arrow keys move
    a placed card, and Tab goes on to the buttons that place the order."""
    page = arranging(server, new_context, 2)
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page)["tray"] is not None:
            break
    else:
        raise AssertionError("Tab never reached the tray")
    first = focused(page)["tray"]
    page.keyboard.press("Enter")
    assert draft(page) == [first]
    assert focused(page)["tray"] is not None, f"the focus left the tray: {focused(page)}"
    second = focused(page)["tray"]
    page.keyboard.press("Enter")
    assert draft(page) == [first, second]
    page.focus('#aw-order-list [data-draft="0"]')
    page.keyboard.press("ArrowRight")
    assert draft(page) == [second, first]
    assert focused(page)["draft"] == "1"
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused(page)["id"] == "aw-place":
            break
    else:
        raise AssertionError("Tab never reached the button that places the order")
