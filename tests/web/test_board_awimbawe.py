"""Awimbawé's drawn board in a real browser: a whole match played by clicking the table only.

A person plays a heuristic bot on a real server by clicking cards, piles, the opponent's hand
and the board's own prompts (flee or fight, the rhinoceros's two piles, the snake's target,
the cheetah's choice, a round loser's choice), never the fallback move buttons, which are only
read to choose a legal move. One click on a card the rules forbid shows the server's refusal.
Screenshots of the start, the middle and the end go to ``docs/screens/``. Every wait is bounded.
Those screenshots are written there only with SPIELTISCH_DOCS_SCREENS set (conftest).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import spieltisch
from spieltisch.core.record import Record
from spieltisch.games.awimbawe.model import Rule
from spieltisch.games.awimbawe.view import AwimbaweView, Heir
from spieltisch.session import Table

from .conftest import LiveServer, docs_screens, left_in_play, require_browser

require_browser()

from playwright.sync_api import BrowserContext, Page  # noqa: E402 - after the skip

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1200, "height": 800}
MOVE_LIMIT = 400
"""No match of Awimbawé takes a seat this many moves; a loop that reaches it fails."""
TURN_TIMEOUT_MS = 20_000
READY = """() => document.querySelector('#result')
    || document.querySelector('#moves button.move:not([disabled])')"""
POWERS = ("move ", "block ")


def version_of(page: Page) -> int:
    """The table version the page shows."""
    return int(page.locator("#turn").get_attribute("data-version") or "0")


def wait_ready(page: Page) -> bool:
    """Wait until the seat can move or the result shows; True if the match is over."""
    page.wait_for_function(READY, timeout=TURN_TIMEOUT_MS)
    return page.locator("#result").count() > 0


def wait_version(page: Page, above: int, prior: str = "") -> None:
    """Wait until the page shows a version past ``above``; a refusal (a notice other than
    ``prior``, the one shown before the move) fails the test."""
    page.wait_for_function(
        """([above, prior]) => Number(document.querySelector('#turn').dataset.version) > above
            || !['', prior].includes(document.querySelector('#notice')?.textContent ?? '')""",
        arg=[above, prior],
        timeout=TURN_TIMEOUT_MS,
    )
    notice = page.locator("#notice").text_content() or ""
    assert version_of(page) > above, f"a legal move was refused: {notice}"


def legal_texts(page: Page) -> list[str]:
    """The notation of the seat's legal moves, read (never clicked) from the fallback list."""
    texts: list[str] = page.locator("#moves button.move").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.text)"
    )
    return texts


def choose(legal: list[str], rng: random.Random) -> str:
    """A legal move, preferring to use a power over declining it (so the prompts are used)."""
    used = [text for text in legal if text != "decline"]
    if "decline" in legal and (not used or rng.random() < 0.15):
        return "decline"
    return rng.choice(used)


def click_board(page: Page, text: str) -> None:
    """Make the move ``text`` by clicking the drawn table only."""
    words = text.split()
    if words[0] == "play":
        page.click(f".aw-me [data-card={words[1]}]")
        if len(words) == 3:  # an eagle that cannot follow: the prompt asks flee or fight
            page.click(f".aw-prompt [data-move='{text}']")
    elif words[0] == "move":
        page.click(f".aw-them .aw-pile[data-pile='{words[1]}']")
        page.wait_for_selector(f".aw-them .aw-pile.aw-selected[data-pile='{words[1]}']")
        page.click(f".aw-them .aw-pile[data-pile='{words[3]}']")
    elif text == "block hand":
        page.click(".aw-them .aw-hand")
    elif words[0] == "block":
        page.click(f".aw-them .aw-pile[data-pile='{words[1]}']")
    else:  # decline, lead me, lead opponent: the prompt's buttons
        page.click(f".aw-prompt [data-move='{text}']")


def forbidden_hand_card(page: Page, legal: list[str]) -> str | None:
    """A card of the seat's hand that no legal move plays now (the led land must be followed)."""
    if not any(text.startswith("play ") for text in legal):
        return None
    hand: list[str] = page.locator(".aw-me .aw-hand [data-card]").evaluate_all(
        "(cs) => cs.map((c) => c.dataset.card)"
    )
    for card in hand:
        if not any(text.split()[:2] == ["play", card] for text in legal):
            return card
    return None


def sideways(page: Page) -> bool:
    """True if every blocked card on the board lies turned a quarter (its animation finished)."""
    turned: bool = page.evaluate(
        """() => [...document.querySelectorAll('.aw-board .aw-blocked')].every((card) => {
            card.getAnimations().forEach((a) => a.finish());
            const m = new DOMMatrix(getComputedStyle(card).transform);
            return Math.abs(m.b - 1) < 1e-6 && Math.abs(m.a) < 1e-6;
        })"""
    )
    return turned


def final_table(server: LiveServer, table_id: str) -> Table:
    """The finished match, rebuilt from the record the server serves."""
    about = server.call("GET", f"/api/tables/{table_id}")
    record = Record.loads(server.text(f"/api/tables/{table_id}/record"))
    game = spieltisch.load(about["game"], about["players"], **about["options"])
    return Table.from_record(game, record)


def new_table(
    server: LiveServer, seed: int, aids: bool = False, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A table of a person against the heuristic bot (with memory aids if ``aids``)."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]
    made: dict[str, Any] = server.call(
        "POST",
        "/api/tables",
        {"game": "awimbawe", "players": 2, "seats": seats, "seed": seed,
         "rules": {"memory_aids": aids}, "options": options or {}},
    )  # fmt: skip
    return left_in_play(server, made)


def sit_and_start(page: Page, server: LiveServer, made: dict[str, Any], name: str) -> None:
    """Take seat 0 under ``name`` and let the host start the table."""
    page.goto(server.url + made["seat_links"]["0"])
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    host = str(made["host_link"]).split("#host=", 1)[1]
    server.call("POST", f"/api/tables/{made['id']}/start", {}, token=host)


def test_a_whole_match_by_clicking_the_board(
    server: LiveServer, new_context: Any, screens: Path
) -> None:
    context: BrowserContext = new_context(viewport=VIEWPORT)
    page = context.new_page()
    made = new_table(server, seed=18)
    sit_and_start(page, server, made, "Ada")
    docs = docs_screens()
    rng = random.Random(18)
    refusal = ""
    made_moves = 0
    kinds: set[str] = set()
    middle = False
    turned = False
    for _ in range(MOVE_LIMIT):
        over = wait_ready(page)
        if made_moves == 0:
            page.wait_for_selector(".aw-board .aw-me .aw-hand [data-card]")
            page.screenshot(path=str(docs / "awimbawe-start.png"), animations="disabled")
        if over:
            break
        legal = legal_texts(page)
        assert legal
        if not turned and page.locator(".aw-board .aw-blocked").count():
            turned = sideways(page)
        forbidden = forbidden_hand_card(page, legal) if not refusal else None
        if forbidden is not None:
            before = version_of(page)
            page.click(f".aw-me [data-card={forbidden}]")
            page.wait_for_function(
                "() => (document.querySelector('#notice')?.textContent ?? '') !== ''",
                timeout=TURN_TIMEOUT_MS,
            )
            refusal = page.locator("#notice").text_content() or ""
            assert version_of(page) == before, "a refused click changed the table"
        text = choose(legal, rng)
        kinds.add(text.split()[-1] if text.endswith(("fight", "flee")) else text.split()[0])
        if not middle and made_moves >= 24 and page.locator(".aw-trick [data-card]").count():
            middle = True
            page.screenshot(path=str(docs / "awimbawe-middle.png"), animations="disabled")
        before = version_of(page)
        prior = page.locator("#notice").text_content() or ""
        click_board(page, text)
        wait_version(page, before, prior)
        made_moves += 1
    else:
        raise AssertionError(f"the match did not end within {MOVE_LIMIT} moves")

    table = final_table(server, made["id"])
    assert table.over
    names = table.seats
    winners = ", ".join(names[w] for w in sorted(table.state.winners()))
    assert page.locator("#winners").text_content() == winners
    assert version_of(page) == table.version
    # The board shows the match as the record ends it: each round's winner, the heir cards.
    view = table.view(0)
    assert isinstance(view, AwimbaweView)
    assert page.locator(".aw-results li").count() == len(view.results)
    gold = sum(1 for side in view.sides if side.heir is Heir.GOLD)
    assert page.locator(".aw-heir-gold").count() == gold
    page.screenshot(path=str(docs / "awimbawe-end.png"), animations="disabled")
    page.screenshot(path=str(screens / "awimbawe-board-end.png"), full_page=True)

    assert made_moves > 20
    # This seed's match meets every prompt: flee or fight, rhinoceros, snake, decline, leader.
    prompts = {"play", "fight", "flee", "move", "block", "decline", "lead"}
    assert prompts <= kinds, f"the match used only {sorted(kinds)}"
    assert turned, "no blocked card was seen turned sideways"
    assert refusal.startswith("Refused"), refusal
    assert any(rule.value in refusal for rule in Rule), f"no rule named in {refusal!r}"


def test_every_drawn_card_has_a_label_and_a_click_explains_a_rule(
    server: LiveServer, new_context: Any
) -> None:
    page = new_context(viewport=VIEWPORT).new_page()
    made = new_table(server, seed=7)
    sit_and_start(page, server, made, "Bea")
    assert not wait_ready(page)
    page.wait_for_selector(".aw-board .aw-me .aw-hand [data-card]")
    cards = page.locator(".aw-board .aw-card:not([aria-hidden])")
    labels: list[str] = cards.evaluate_all("(cs) => cs.map((c) => c.getAttribute('aria-label'))")
    assert labels and all(labels), "a card without a text label"
    hand = page.locator(".aw-me .aw-hand [data-card]").evaluate_all(
        "(cs) => cs.map((c) => [c.dataset.card, c.getAttribute('aria-label')])"
    )
    for card, label in hand:
        assert label.startswith(f"{card} ")  # the name starts with what the card shows
    # A face-down card cannot be played: the board says why, and nothing is sent.
    before = version_of(page)
    backs = page.locator(".aw-me .aw-pile .aw-back")
    if backs.count():
        backs.first.click(position={"x": 20, "y": 6})  # its strip above the top card
        note = page.locator(".aw-note")
        assert "face-down" in (note.text_content() or "")
    assert version_of(page) == before


def test_a_spectator_in_german_sees_both_hands_as_backs(
    server: LiveServer, new_context: Any
) -> None:
    player = new_context(viewport=VIEWPORT).new_page()
    made = new_table(server, seed=9)
    sit_and_start(player, server, made, "Cleo")
    assert not wait_ready(player)
    context: BrowserContext = new_context(viewport=VIEWPORT)
    context.add_init_script("localStorage.setItem('spieltisch.lang', 'de')")
    watcher = context.new_page()
    watcher.goto(server.url + f"/t/{made['id']}")
    watcher.wait_for_selector(".aw-board .aw-me .aw-hand .aw-back")
    assert watcher.locator(".aw-hand [data-card]").count() == 0, "a spectator sees no hand"
    backs = watcher.locator(".aw-hand .aw-back").count()
    sizes = watcher.locator(".aw-hand").evaluate_all(
        "(hs) => hs.map((h) => Number(h.dataset.size))"
    )
    assert backs == sum(sizes) > 0
    assert (watcher.locator(".aw-round").text_content() or "").startswith("Runde")
    labels = watcher.locator(".aw-pile [data-card]").evaluate_all(
        "(cs) => cs.map((c) => c.getAttribute('aria-label'))"
    )
    german = ("Maus", "Nashorn", "Gepard", "Hyäne", "Schlange", "Elefant", "Adler")
    assert labels and all(any(word in label for word in german) for label in labels)
    assert watcher.locator(".aw-prompt button").count() == 0, "a spectator has no choices"


def test_a_smaller_match_draws_one_pile_a_land(server: LiveServer, new_context: Any) -> None:
    # lands=1: one pile a side, and a round won by taking the one hyena says "every hyena"
    page = new_context(viewport=VIEWPORT).new_page()
    made = new_table(server, seed=21, options={"lands": 1, "rounds_to_win": 1})
    sit_and_start(page, server, made, "Ede")
    page.wait_for_selector(".aw-board .aw-me .aw-pile")
    assert page.locator(".aw-me .aw-pile").count() == 1
    assert page.locator(".aw-them .aw-pile").count() == 1
    rng = random.Random(21)
    for _ in range(MOVE_LIMIT):
        if wait_ready(page):
            break
        before = version_of(page)
        click_board(page, choose(legal_texts(page), rng))
        wait_version(page, before)
    page.wait_for_selector(".aw-results li")
    assert "every hyena" in (page.locator(".aw-results li").last.text_content() or "")


def test_the_cards_you_may_play_are_marked_on_your_turn(
    server: LiveServer, new_context: Any
) -> None:
    page = new_context(viewport=VIEWPORT).new_page()
    made = new_table(server, seed=13)
    sit_and_start(page, server, made, "Dora")
    rng = random.Random(13)
    checked = 0
    for _ in range(12):
        if wait_ready(page):
            break
        legal = legal_texts(page)
        page.wait_for_selector(".aw-board .aw-me")
        marked = page.locator(".aw-me .aw-playable").evaluate_all(
            "(cs) => cs.map((c) => c.dataset.card)"
        )
        playable = {text.split()[1] for text in legal if text.startswith("play ")}
        if playable and all(text.startswith("play ") for text in legal):
            assert set(marked) == playable, (marked, legal)  # exactly the playable ones
            checked += 1
        before = version_of(page)
        click_board(page, choose(legal, rng))
        wait_version(page, before)
    assert checked > 0


@pytest.mark.parametrize("aids", [False, True])
def test_crown_totals_and_cards_played_show_only_as_a_house_rule(
    server: LiveServer, new_context: Any, aids: bool
) -> None:
    """The rulebook lets a player look at the last trick only: the counts a player would have
    to remember are memory aids, shown only where the host allowed them."""
    page = new_context(viewport=VIEWPORT).new_page()
    made = new_table(server, seed=17, aids=aids)
    assert server.call("GET", f"/api/tables/{made['id']}")["rules"]["memory_aids"] is aids
    sit_and_start(page, server, made, "Ella")
    rng = random.Random(17)
    for _ in range(6):  # a few tricks, so that something has been played and won
        if wait_ready(page):
            break
        before = version_of(page)
        click_board(page, choose(legal_texts(page), rng))
        wait_version(page, before)
    wait_ready(page)
    assert page.locator(".aw-crown-count").count() == (2 if aids else 0)
    assert (page.locator(".aw-played").count() > 0) is aids
    assert page.locator(".aw-last").count() == 1  # the last trick is always there to look at
    chips = page.locator("#log .aw-chip")  # the log draws the cards as the board's chips
    assert chips.count() > 0 and all(chip[0] in "GDMPS" for chip in chips.all_text_contents())
