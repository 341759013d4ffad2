"""Browser test of Auf die Eier's board: a whole game played by clicking the drawn dice.

A person plays a heuristic bot on a real server, in Debian's chromium, by clicking dice on the
board (each click moves the die between the rows), then the board's Throw or Stop button; the
fallback move buttons are never touched. One click on a rotten egg is refused with the engine's
rule. The moves the board sent are checked against the game's record, the drawn score sheet and
last-turn breakdown against the view, and screenshots of three moments go to ``docs/screens/``.
Those screenshots are written there only with SPIELTISCH_DOCS_SCREENS set (conftest).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocket

from spieltisch.core.codec import to_jsonable
from spieltisch.games.auf_die_eier.notation import LETTERS, Reroll, Stop, parse_dice

from .conftest import LiveServer, docs_screens, switch_language
from .test_browser import check_result, create, join, start, version_of

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1200, "height": 800}
MOVE_LIMIT = 300
"""A seat of a two-player game makes far fewer decisions than this; reaching it fails."""
TURN_TIMEOUT_MS = 20_000
STOP_CHANCE = 0.35
PICK_CHANCE = 0.5
MIDDLE_SCORE = 35
"""The middle screenshot is taken with dice picked up, at the first decision once a drawn score
reaches this and the last-turn box shows a rotten-egg re-throw (or a score half again as much)."""

BOARD_READY = """() => document.querySelector('#result')
    || document.querySelector('#ade-controls #ade-stop')"""

SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
    || a.effect?.getTiming().iterations === Infinity)"""
"""True once the board's short animations are over (a screenshot shows the dice at rest)."""

NewContext = Callable[..., BrowserContext]


def board_ready(page: Page) -> bool:
    """Wait until the board offers a decision or the result shows; True if the game is over."""
    page.wait_for_function(BOARD_READY, timeout=TURN_TIMEOUT_MS)
    return page.locator("#result").count() > 0


def faces(page: Page, row: str) -> str:
    """The dice of one of the board's rows as notation letters, in face order."""
    letters = page.locator(f"#{row} [data-face]").evaluate_all(
        "(ds) => ds.map((d) => d.dataset.face)"
    )
    return "".join(sorted(letters, key=LETTERS.index))


def screenshot(page: Page, name: str) -> None:
    """Save the visible table (the viewport) under docs/screens/."""
    docs = docs_screens()
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function(SETTLED)
    page.screenshot(path=str(docs / f"auf-die-eier-{name}.png"))


def click_rotten_egg(page: Page) -> None:
    """Click a rotten egg: refused with the engine's rule, nothing changes."""
    before, cup = version_of(page), faces(page, "ade-cup")
    page.locator("#ade-rotten button.ade-die").first.click()
    page.wait_for_function("() => (document.querySelector('#notice')?.textContent ?? '') !== ''")
    notice = page.locator("#notice").text_content() or ""
    assert notice.startswith("Refused: ")
    assert "Rotten Eggs stay set aside" in notice
    assert version_of(page) == before
    assert faces(page, "ade-cup") == cup


def decide(page: Page, rng: random.Random, picked_up: Callable[[], None] | None = None) -> str:
    """Make one decision by clicking dice and a board button; the move's notation.

    ``picked_up`` is called when dice are picked up, before the Throw button is clicked.
    """
    aside = page.locator("#ade-aside button.ade-die")
    ids = aside.evaluate_all("(ds) => ds.map((d) => d.dataset.die)")
    assert ids, "a decision always has a die to throw again"
    assert page.locator("#ade-throw").is_disabled(), "nothing is picked up yet"
    if rng.random() < STOP_CHANCE:
        page.click("#ade-stop")
        return str(Stop())
    picked = [die for die in ids if rng.random() < PICK_CHANCE] or [rng.choice(ids)]
    for count, die in enumerate(picked, start=1):
        page.click(f"#ade-aside [data-die='{die}']")
        page.wait_for_selector(f"#ade-cup [data-die='{die}'][aria-pressed=true]")
        assert page.locator("#ade-cup button.ade-die").count() == count
    thrown = faces(page, "ade-cup")
    assert sorted(thrown) == sorted(die[0] for die in picked)
    assert page.locator("#ade-throw").text_content() == f"Throw {len(picked)}"
    if picked_up is not None:
        picked_up()
    page.click("#ade-throw")
    return str(Reroll(parse_dice(thrown)))


def wait_moved(page: Page, above: int) -> None:
    """Wait until the page shows a version past ``above`` and no refusal is left standing."""
    page.wait_for_function(
        "(above) => Number(document.querySelector('#turn').dataset.version) > above",
        arg=above,
        timeout=TURN_TIMEOUT_MS,
    )
    assert (page.locator("#notice").text_content() or "") == ""


def check_sheet(page: Page, view: dict[str, Any]) -> None:
    """The drawn scores, crossed ladder entries and last-turn total are those of ``view``."""
    drawn = [int(n) for n in page.locator("[data-score]").all_text_contents()]
    assert drawn == view["scores"]
    for seat, crossed in enumerate(view["crossed"]):
        assert page.locator(f"tr[data-seat='{seat}'] .ade-crossed").count() == crossed
    if view["last"] is not None:
        assert page.locator("#ade-total").text_content() == str(view["last"]["points"])
    else:
        assert page.locator("#ade-total").count() == 0


def latest_view(frames: list[str], version: int) -> dict[str, Any]:
    """The view of the last update the page received, which must be at ``version``."""
    updates = [json.loads(f) for f in frames]
    update = [u for u in updates if u.get("type") == "update"][-1]
    assert update["version"] == version
    view: dict[str, Any] = update["view"]
    return view


def test_whole_game_by_clicking_the_board(server: LiveServer, new_context: NewContext) -> None:
    made = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}], 18
    )
    page = new_context(viewport=VIEWPORT).new_page()
    frames: list[str] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    join(page, server, made["seat_links"]["0"], "Alice")
    start(server, made)
    rng = random.Random(18)
    sent: list[str] = []
    refused = middle = moment_seen = False
    for made_moves in range(MOVE_LIMIT):
        if board_ready(page):
            break
        assert page.locator("#ade-throws").get_attribute("data-rolls") in {"1", "2"}
        if made_moves == 0:
            screenshot(page, "start")
        if not refused and page.locator("#ade-rotten button.ade-die").count():
            click_rotten_egg(page)
            refused = True
        moment = page.locator("#ade-moment").count() > 0
        moment_seen = moment_seen or moment
        best = max(int(n) for n in page.locator("[data-score]").all_text_contents())
        before = version_of(page)
        if not middle and 2 * best >= MIDDLE_SCORE * (2 if moment else 3):
            check_sheet(page, latest_view(frames, before))

            def shoot() -> None:
                nonlocal middle
                screenshot(page, "middle")
                middle = True

            sent.append(decide(page, rng, shoot))
        else:
            sent.append(decide(page, rng))
        wait_moved(page, before)
    else:
        raise AssertionError(f"the game did not end within {MOVE_LIMIT} decisions")
    assert refused, "the game never showed a rotten egg to click"
    assert middle, "the game ended before its middle screenshot"
    assert moment_seen, "no rotten-egg re-throw was ever shown"
    assert errors == [], f"the board raised: {errors}"
    table = check_result(page, server, made["id"])
    mine = [
        str(move)
        for version, move in enumerate(table.moves)
        if table.state_at(version).current_player() == 0
    ]
    assert mine == sent, "the board sent exactly the moves it was clicked to"
    assert page.locator("#moves button.move").count() == 0
    final = to_jsonable(table.view(0))
    assert isinstance(final, dict)
    check_sheet(page, final)
    assert page.locator("#ade-over").text_content() == "The game is over"
    screenshot(page, "end")
    switch_language(page)
    assert page.locator("#ade-over").text_content() == "Das Spiel ist aus"
    assert "Punkteblatt" in (page.locator("#board").text_content() or "")
    switch_language(page)
