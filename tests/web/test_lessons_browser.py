"""Lessons in the browser: each game's lesson played to its end by clicks, at a desktop's size
and a phone's, in English and in German (no English word on a German step), then its closing
game begun (Auf die Eier's played to its end); the part of the board each step means is
highlighted; a click on the board shows the rule at hand, on a lesson and on a table. The
screenshots the README shows are saved (``docs/screens/`` when ``SPIELTISCH_DOCS_SCREENS`` is
set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spieltisch.session.lesson import Lesson, StepKind, load_lesson
from spieltisch.web.tables.lesson_work import lesson_games

from .conftest import PHONE, LiveServer, docs_screens, require_browser, switch_language

require_browser()

from playwright.sync_api import Page  # noqa: E402 - after the skip

from .test_browser import NewContext, create, no_overflow, start  # noqa: E402
from .test_phone import english_on  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

GAMES = [found["id"] for found in lesson_games()]
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE_SIZE: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
FINALE_MOVES = 2
"""Moves made in a closing game other than Auf die Eier's (each waits for a searched hint)."""


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    return module_server


def first_move_step(lesson: Lesson) -> int:
    return next(i for i, step in enumerate(lesson.steps) if step.kind is StepKind.MOVE)


def at_step(page: Page, at: int | str) -> None:
    page.wait_for_selector(f'#lesson[data-at="{at}"]')


def highlighted(page: Page, point: str) -> bool:
    """Whether the step's part of the board is marked: its own elements (True), or the whole
    board because the part is not on show now (False)."""
    own = page.locator(f'#board [data-point="{point}"].lesson-point').count()
    if own:
        return True
    assert page.locator(f'#board [data-point="{point}"]').count() == 0, point
    assert page.locator("#board.lesson-point-all").count() == 1
    return False


def play_step(page: Page, lesson: Lesson, at: int, by_board: bool) -> None:
    """Do step ``at`` as a learner who follows the lesson: a click on Next, or the asked move
    (by the board's own controls when ``by_board`` and the board can, else the step's move
    put in the box by a click on it in the step's words, and Play)."""
    step = lesson.steps[at]
    if step.kind is not StepKind.MOVE:
        page.click("#lesson-next")
        return
    if by_board and step.expect == "reroll H":  # Auf die Eier: pick up a chicken, throw
        page.locator('#ade-aside [data-face="H"]').first.click()
        page.click("#ade-throw")
        return
    offered = page.locator("#lesson-say button.move-code", has_text=step.expect or "")
    if offered.count():
        offered.first.click()
    else:
        page.fill("#lesson-move", step.expect or "")
    assert page.input_value("#lesson-move").strip() == (step.expect or "")
    page.click("#lesson-try")


STRAY_TEXT = """() => [...document.getElementById("lesson").childNodes]
    .some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim())"""
"""Whether the step's panel holds bare text beside its parts (a step that teaches no rule
once showed "null" under its buttons)."""


def walk(page: Page, lesson: Lesson, shot: Path, by_board: bool, german: bool = False) -> int:
    """The whole lesson, step by step (in German: no English word on any step's page); the
    number of steps whose part was not on show."""
    unshown = 0
    shot_at = first_move_step(lesson)
    for at, step in enumerate(lesson.steps):
        at_step(page, at)
        if german:
            english = english_on(page, *lesson.seats)
            assert not english, f"step {step.number} says {english} in German"
        if not highlighted(page, step.point):
            unshown += 1
        assert not page.evaluate(STRAY_TEXT), f"step {step.number}: stray text in the panel"
        if at == shot_at:
            page.screenshot(path=str(shot), full_page=False)
        play_step(page, lesson, at, by_board)
    at_step(page, len(lesson.steps))
    return unshown


def finale(page: Page, game: str, to_the_end: bool) -> None:
    page.click("#finale-start")
    at_step(page, "finale")
    made = 0
    while page.locator("#finale-result").count() == 0:
        if not to_the_end and made >= FINALE_MOVES:
            return
        assert made < 200, "the closing game does not end"
        page.wait_for_selector("#finale-hint")
        page.click("#finale-moves summary")
        page.locator("#finale-moves button.move").first.click()
        made += 1
        page.wait_for_selector(f'#lesson[data-moves="{made}"], #finale-result')
    assert page.locator("#finale-again").count() == 1


WAYS = [("desktop", "en"), ("phone", "de"), ("desktop", "de"), ("phone", "en")]
"""Each lesson is walked at each size in each language; the first two are the README's."""
SHOWN = {("desktop", "en"): "lesson-{game}-en.png", ("phone", "de"): "lesson-{game}-de-phone.png"}


@pytest.mark.parametrize(("size", "language"), WAYS)
@pytest.mark.parametrize("game", GAMES)
def test_a_lesson_by_clicks(
    game: str, size: str, language: str, own_server: LiveServer, new_context: NewContext,
    screens: Path,
) -> None:  # fmt: skip
    server = own_server  # a walk asks quicker than a learner: its own allowance of lesson steps
    lesson = load_lesson(game)
    page = new_context(**(DESKTOP if size == "desktop" else PHONE_SIZE)).new_page()
    if size == "desktop":  # from the lobby's list of lessons
        page.goto(f"{server.url}/")
        if language == "de":
            assert switch_language(page) == "de"
        page.click(f"#learn-{game}")
    else:  # from the game's rules page
        page.goto(f"{server.url}/rules/{game}")
        if language == "de":
            assert switch_language(page) == "de"
        page.click(".learn-link a")
    at_step(page, 0)
    german = language == "de"
    heading = page.locator("h1").inner_text()
    assert heading.startswith("Spielen lernen" if german else "Learn to play")
    assert (
        page.locator("#lesson-step")
        .inner_text()
        .startswith("Schritt 1 von" if german else "Step 1 of")
    )
    named = SHOWN.get((size, language))
    shot = (
        docs_screens() / named.format(game=game)
        if named
        else screens / f"lesson-{game}-{language}-{size}.png"
    )
    unshown = walk(page, lesson, shot, by_board=size == "desktop", german=german)
    assert unshown * 4 <= len(lesson.steps), f"{unshown} steps point at a part not on show"
    assert no_overflow(page)
    assert page.locator("#lesson h2").inner_text() == (
        "Dein erstes Spiel" if german else "Your first game"
    )
    finale(page, game, to_the_end=game == "auf-die-eier" and (size, language) == WAYS[0])
    assert no_overflow(page)


def test_a_wrong_move_is_explained_and_a_click_shows_the_rule(
    server: LiveServer, new_context: NewContext
) -> None:
    lesson = load_lesson("auf-die-eier")
    at = next(i for i, s in enumerate(lesson.steps) if s.expect == "reroll H")
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/learn/auf-die-eier#step={at}")
    at_step(page, at)
    page.fill("#lesson-move", "stop")
    page.click("#lesson-try")
    page.wait_for_selector('#lesson-answer[data-verdict="other"]')
    assert "two chickens" in page.inner_text("#lesson-answer")
    page.fill("#lesson-move", "reroll R")
    page.press("#lesson-move", "Enter")  # by keyboard: the answer comes, the keyboard stays
    page.wait_for_selector('#lesson-answer[data-verdict="refused"]')
    assert page.evaluate("() => document.activeElement.id") == "lesson-move"
    at_step(page, at)  # nothing moved on
    page.locator('#ade-rotten [data-face="R"]').first.click()
    page.wait_for_selector('#rule-at-hand:not([hidden]) [data-rule-shown="eier.face-rotten"]')
    assert "set aside at once" in page.inner_text("#rule-at-hand")
    assert switch_language(page) == "de"  # the rule at hand is said again, the answer dropped
    page.wait_for_function(
        "() => document.querySelector('#rule-at-hand').innerText.includes('sofort beiseite')"
    )
    page.wait_for_selector("#lesson-answer[data-verdict]", state="detached")
    page.wait_for_selector('#lesson-step:has-text("Schritt")')  # the step said again in German
    assert page.locator("#lesson-answer[data-verdict]").count() == 0
    page.click("#lesson-back")
    at_step(page, at - 1)


def test_a_step_on_a_german_phone_says_what_to_click_and_answers_a_wrong_click(
    server: LiveServer, new_context: NewContext
) -> None:
    """Seen by a German group: "Tippe `place 3`" where the board takes a click, and a click
    on the wrong space answered "Zug 'place 2' nicht erlaubt". On a phone in German, a step
    that asks for a move says to do it on the board, in words, with the notation aside, and
    marks the control that makes it; a wrong click is answered with what the step asks for;
    the marked control makes the move."""
    lesson = load_lesson("auf-die-nuesse")
    at = next(i for i, s in enumerate(lesson.steps) if s.expect == "place 3")
    page = new_context(**PHONE_SIZE).new_page()
    page.goto(f"{server.url}/learn/auf-die-nuesse#step={at}")
    at_step(page, at)
    assert switch_language(page) == "de"
    page.wait_for_selector('#lesson-step:has-text("Schritt")')
    at_step(page, at)
    assert "Tippe" not in page.inner_text("#lesson-say")
    how = page.locator("#lesson-how")
    assert how.is_visible()
    assert "Spielbrett" in how.inner_text() and "auf Feld 3 setzen" in how.inner_text()
    assert how.locator("code").inner_text() == "place 3"  # the notation, as an aside
    assert not english_on(page, *lesson.seats)
    targets = page.locator('#board [data-move="place 3"]')  # the space, and the white die
    assert targets.count() >= 1
    marked = targets.evaluate_all(
        "(nodes) => nodes.map((n) => n.classList.contains('lesson-target'))"
    )
    assert all(marked), marked
    page.click('#board [data-track="2"]')  # a space the roll does not offer
    page.wait_for_selector('#lesson-answer[data-verdict="refused"]')
    answer = page.inner_text("#lesson-answer")
    assert "Zug 'place 2' nicht erlaubt" not in answer
    assert "Dieser Schritt will einen anderen Zug: auf Feld 3 setzen" in answer
    assert not english_on(page, *lesson.seats)
    at_step(page, at)  # nothing moved on
    page.click('#board [data-track="3"]')
    at_step(page, at + 1)
    assert no_overflow(page)


TABLE_GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_a_click_on_a_tables_board_shows_the_rule_at_hand(
    game: str, server: LiveServer, new_context: NewContext
) -> None:
    """Each game's table (bots that played to the end, seen by a spectator, so no click is a
    move): a click on a part of the board shows the rule that part names, from the rules
    page."""
    made = create(server, game, [{"kind": "bot", "level": "random"}] * 2, 3)
    start(server, made)
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/t/{made['id']}")
    page.wait_for_selector("#board [data-rule]")
    marked = page.locator("#board [data-rule]")
    rules = set(marked.evaluate_all("(nodes) => nodes.map((n) => n.dataset.rule)"))
    assert len(rules) >= 5 and all(rule.startswith(PREFIX[game]) for rule in rules), rules
    page.wait_for_selector("#result")  # the bots have finished: the board stays as it is
    target = page.locator("#board [data-rule]:visible").last
    rule = target.get_attribute("data-rule")
    target.click()
    page.wait_for_selector(f'#rule-at-hand:not([hidden]) [data-rule-shown="{rule}"]')
    assert page.inner_text("#rule-at-hand .rule-text").strip()


PREFIX = {"auf-die-eier": "eier.", "auf-die-nuesse": "nuesse.", "auweier": "auweier.",
          "awimbawe": "awimbawe."}  # fmt: skip
