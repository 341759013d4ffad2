"""Browser test of Auf die Eier's board: a whole game played by clicking the drawn dice.

A person plays a heuristic bot on a real server, in Debian's chromium, by clicking dice on the
board (each click moves the die between the rows), then the board's Throw or Stop button; the
fallback move buttons are never touched. One click on a rotten egg picks nothing up and sends
nothing (it is no control), and shows the egg's rule at hand. The moves the board sent are
checked against the game's record, the drawn score sheet and last-turn breakdown against the
view, and screenshots of three moments go to ``docs/screens/``. Those screenshots are written
there only with SPIELTISCH_DOCS_SCREENS set (conftest). A turn played by keyboard alone, in
German on a desktop and a phone, keeps the focus on the dice and never offers a rotten egg.
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

from .conftest import PHONE, LiveServer, docs_screens, switch_language
from .test_browser import check_result, create, join, start, version_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it may have spent it: 429)."""
    return module_server


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

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
}
KEYBOARD_SEED = 1
"""Seat 0's first throw at this seed shows two rotten eggs (and leaves other dice to pick)."""
TAB_LIMIT = 80
"""More Tabs than the whole table page has stops; a loop that reaches it fails."""
FOCUSED = """() => {
    const a = document.activeElement;
    if (!a || a === document.body) return {tag: a ? a.tagName : null, id: '', die: null,
        rotten: false, face: null};
    return {tag: a.tagName, id: a.id, die: a.dataset?.die ?? null,
        rotten: a.closest('#ade-rotten') !== null, face: a.dataset?.face ?? null};
}"""
"""What has the keyboard focus: its tag, id, die and whether it is a rotten egg."""
PICKED = "#ade-cup button.ade-die[aria-pressed=true]"


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
    """Click a rotten egg: it is no control, so nothing is picked up and no move is sent (none
    refused); its rule shows at hand instead."""
    before, cup = version_of(page), faces(page, "ade-cup")
    page.locator("#ade-rotten [data-face='R']").first.click()
    page.wait_for_selector('#rule-at-hand:not([hidden]) [data-rule-shown="eier.face-rotten"]')
    assert "set aside at once" in (page.locator("#rule-at-hand").text_content() or "")
    page.wait_for_timeout(400)  # longer than a move waits before it leaves (table.js SEND_GAP)
    assert (page.locator("#notice").text_content() or "") == ""
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
    rotten_clicked = middle = moment_seen = False
    for made_moves in range(MOVE_LIMIT):
        if board_ready(page):
            break
        assert page.locator("#ade-throws").get_attribute("data-rolls") in {"1", "2"}
        if made_moves == 0:
            screenshot(page, "start")
        if not rotten_clicked and page.locator("#ade-rotten [data-face='R']").count():
            click_rotten_egg(page)
            rotten_clicked = True
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
    assert rotten_clicked, "the game never showed a rotten egg to click"
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


# --- a turn by keyboard alone ------------------------------------------------------------------


def focused(page: Page) -> dict[str, Any]:
    """What has the keyboard focus (see :data:`FOCUSED`)."""
    found: dict[str, Any] = page.evaluate(FOCUSED)
    return found


def on_the_dice(found: dict[str, Any]) -> bool:
    """True if ``found`` (a :func:`focused`) is a die to pick, or the Throw or Stop button."""
    pickable = found["tag"] == "BUTTON" and found["die"] is not None and not found["rotten"]
    return pickable or found["id"] in {"ade-throw", "ade-stop"}


def tab_until(page: Page, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Press Tab until the focused element is ``wanted``; a rotten egg on the way fails."""
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Tab")
        found = focused(page)
        assert not found["rotten"], "Tab stopped on a rotten egg, which can never be picked"
        if wanted(found):
            return found
    raise AssertionError("Tab never reached what it was pressed for")


def is_pickable_die(found: dict[str, Any]) -> bool:
    """True for a die that may be picked up (a button, not a rotten egg)."""
    return found["tag"] == "BUTTON" and found["die"] is not None and not found["rotten"]


def moves_sent(frames: list[str]) -> list[str]:
    """The moves among a page's frames sent on its socket."""
    return [f for f in frames if json.loads(f).get("type") == "move"]


def rotten_egg_is_no_control(page: Page, frames: list[str]) -> None:
    """The rotten eggs are not offered as controls: none is a button or in the Tab order, and
    a click, Enter or Space on one picks nothing and sends nothing (the click shows its rule)."""
    rotten = page.locator("#ade-rotten [data-face='R']")
    assert rotten.count() > 0, "the seed's first throw shows rotten eggs"
    kinds = rotten.evaluate_all(
        """(eggs) => eggs.map((e) => ({tag: e.tagName, role: e.getAttribute('role'),
            tabIndex: e.tabIndex, disabled: e.getAttribute('aria-disabled'),
            label: e.getAttribute('aria-label') ?? ''}))"""
    )
    for kind in kinds:
        assert kind["tag"] != "BUTTON" and kind["role"] != "button", kind
        assert kind["tabIndex"] < 0, kind
        assert kind["role"] == "img" or kind["disabled"] == "true", kind
        assert "muss liegen bleiben" in kind["label"], kind  # "forced aside", said in German
    picked, before, sent = page.locator(PICKED).count(), version_of(page), len(moves_sent(frames))
    rotten.first.click()
    page.wait_for_selector('#rule-at-hand:not([hidden]) [data-rule-shown="eier.face-rotten"]')
    page.evaluate("() => document.activeElement?.blur()")
    rotten.first.press("Enter")
    rotten.first.press(" ")
    page.wait_for_timeout(400)  # longer than a move waits before it leaves (table.js SEND_GAP)
    assert moves_sent(frames)[sent:] == [], "a rotten egg sent a move"
    assert (page.locator("#notice").text_content() or "") == ""
    assert page.locator(PICKED).count() == picked
    assert version_of(page) == before


def wait_decision(page: Page, rolls: int) -> None:
    """Wait until the seat decides after throw ``rolls`` of its turn."""
    page.wait_for_function(
        """(rolls) => document.querySelector('#ade-throws')?.dataset.rolls === String(rolls)
            && document.querySelector('#ade-controls #ade-stop') !== null""",
        arg=rolls,
        timeout=TURN_TIMEOUT_MS,
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_turn_by_keyboard_keeps_the_focus_on_the_dice(
    size: str, server: LiveServer, new_context: NewContext
) -> None:
    """A keyboard user's turn in German: Tab reaches the dice without ever stopping on a
    rotten egg, a rotten egg cannot be picked, and after a pick, a throw and a new turn the
    focus is on a die or on Throw or Stop, never lost to the page's body."""
    made = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}],
        KEYBOARD_SEED,
    )  # fmt: skip
    page = new_context(**SIZES[size]).new_page()
    frames: list[str] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)
    page.goto(server.url + "/")
    page.wait_for_selector("#game")
    assert switch_language(page) == "de"  # the context remembers it
    page.goto(server.url + made["seat_links"]["0"])
    page.wait_for_selector("#name")
    tab_until(page, lambda found: found["id"] == "name")
    page.keyboard.type("Kai")
    page.keyboard.press("Enter")
    page.wait_for_selector("#join", state="hidden")
    start(server, made)
    assert not board_ready(page)
    wait_decision(page, 1)
    rotten_egg_is_no_control(page, frames)

    # Tab to a die, Space picks it up: the focus stays on that die.
    die = tab_until(page, is_pickable_die)["die"]
    page.keyboard.press(" ")
    page.wait_for_selector(f"#ade-cup [data-die='{die}'][aria-pressed=true]")
    assert focused(page)["die"] == die, "the focus left the die just picked"

    # Tab to Throw, Enter throws: the focus is on the dice or the buttons again, not lost.
    tab_until(page, lambda found: found["id"] == "ade-throw")
    page.keyboard.press("Enter")
    wait_decision(page, 2)
    after_throw = focused(page)
    assert on_the_dice(after_throw), f"after a throw the focus is on {after_throw}"

    # Tab to Stop, Enter: the next turn's focus is on a die to pick.
    tab_until(page, lambda found: found["id"] == "ade-stop")
    before = int(page.locator("#turn").get_attribute("data-version") or 0)
    page.keyboard.press("Enter")
    # The bot's whole turn may come and go between two looks, so wait for the version to move
    # on past the stop rather than for the controls to vanish.
    page.wait_for_function(
        "(v) => Number(document.querySelector('#turn').dataset.version) > v + 1",
        arg=before, timeout=TURN_TIMEOUT_MS,
    )  # fmt: skip
    assert page.locator("#result").count() == 0, "the game ended after one turn"
    wait_decision(page, 1)
    next_turn = focused(page)
    assert is_pickable_die(next_turn), f"a new turn's focus is on {next_turn}"
    assert (page.locator("#notice").text_content() or "") == ""
