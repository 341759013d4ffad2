"""Browser tests: Debian's chromium, driven by Playwright, plays on a real server.

Whole games of each game against bots from the lobby; two people at one table in two browsers;
a spectator; a reload in the middle of a game; the keyboard alone; a phone-sized screen with the
German texts; the client reconnecting when the server goes away; and, for Awimbawé, a page that
never holds a card of the other seat's hand. Every wait is bounded (Playwright's timeouts and
loops with a move limit); results are checked against the game's record, never hard-coded.
Screenshots go to ``test-artifacts/screens/``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import spieltisch
from spieltisch.core.codec import to_jsonable
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.session import Steps, Table
from spieltisch.web.tables.payload import events_for, step_events

from .conftest import PHONE, LiveServer, left_in_play, require_browser, switch_language

require_browser()

from playwright.sync_api import BrowserContext, Locator, Page, WebSocket  # noqa: E402 - after the skip

pytestmark = pytest.mark.browser

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
MOVE_LIMIT = 400
"""No two-player game here takes a seat this many moves; a loop that reaches it fails."""
TURN_TIMEOUT_MS = 20_000

NewContext = Callable[..., BrowserContext]

READY = """() => document.querySelector('#result')
    || document.querySelector('#moves button.move:not([disabled])')"""


def shot(page: Page, screens: Path, name: str) -> None:
    """Save a full-page screenshot under the artifacts folder."""
    page.screenshot(path=str(screens / f"{name}.png"), full_page=True)


def version_of(page: Page) -> int:
    """The table version the page shows."""
    return int(page.locator("#turn").get_attribute("data-version") or "0")


def updates_of(page: Page) -> int:
    """How many updates the page has had (a version counts public steps, so a deck step of
    one's own is an update without a new version)."""
    return int(page.locator("#turn").get_attribute("data-updates") or "0")


def public_version(table: Table) -> int:
    """The version a page shows at the end of ``table``: its public steps."""
    steps = Steps()
    steps.update(table)
    return steps.public


def page_events(table: Table, viewer: int | None) -> list[Any]:
    """The events a page of ``viewer`` holds at the end of ``table`` (one per public step)."""
    steps = Steps()
    steps.update(table)
    return step_events(table, kit_of(table.game).words, viewer, steps, 0)


def wait_version(page: Page, above: int) -> None:
    """Wait until the page had an update past its ``above``-th; a refusal fails the test."""
    page.wait_for_function(
        """(above) => Number(document.querySelector('#turn').dataset.updates) > above
            || (document.querySelector('#notice')?.textContent ?? '') !== ''""",
        arg=above,
        timeout=TURN_TIMEOUT_MS,
    )
    notice = page.locator("#notice").text_content() or ""
    assert notice == "", f"a legal move was refused: {notice}"


def wait_ready(page: Page) -> bool:
    """Wait until the page can move or shows the result; True if the game is over."""
    page.wait_for_function(READY, timeout=TURN_TIMEOUT_MS)
    return page.locator("#result").count() > 0


def show_moves(page: Page) -> None:
    """Open the list of moves as text (it stays open from then on)."""
    closed = page.locator("#move-list:not([open]) > summary")
    if closed.count():
        closed.click()


def click_move(page: Page, rng: random.Random) -> None:
    """Click one of the page's move buttons (chosen by ``rng``) and wait for the move."""
    show_moves(page)
    buttons = page.locator("#moves button.move")
    count = buttons.count()
    assert count > 0
    before = updates_of(page)
    buttons.nth(rng.randrange(count)).click()
    wait_version(page, before)


def play_to_end(page: Page, rng: random.Random, limit: int = MOVE_LIMIT) -> int:
    """Play the page's seat until the game ends; the number of moves it made."""
    for made in range(limit):
        if wait_ready(page):
            return made
        click_move(page, rng)
    raise AssertionError(f"the game did not end within {limit} moves")


def create(server: LiveServer, game: str, seats: list[dict[str, str]], seed: int) -> dict[str, Any]:
    """A new table through the API (the lobby test makes its tables through the page)."""
    made: dict[str, Any] = server.call(
        "POST", "/api/tables", {"game": game, "players": len(seats), "seats": seats, "seed": seed}
    )
    return left_in_play(server, made)


def host_token(made: dict[str, Any]) -> str:
    """The host token of a created table's host link."""
    return str(made["host_link"]).split("#host=", 1)[1]


def join(page: Page, server: LiveServer, link: str, name: str) -> None:
    """Open a seat link and take the seat under ``name``."""
    page.goto(server.url + link)
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")


def start(server: LiveServer, made: dict[str, Any]) -> None:
    """The host starts the table."""
    server.call("POST", f"/api/tables/{made['id']}/start", {}, token=host_token(made))


def final_table(server: LiveServer, table_id: str) -> Table:
    """The finished game, rebuilt from the record the server serves."""
    about = server.call("GET", f"/api/tables/{table_id}")
    record = Record.loads(server.text(f"/api/tables/{table_id}/record"))
    game = spieltisch.load(about["game"], about["players"], **about["options"])
    return Table.from_record(game, record)


def check_result(page: Page, server: LiveServer, table_id: str) -> Table:
    """The result box names the winners and scores of the record's final state."""
    table = final_table(server, table_id)
    assert table.over
    names = table.seats
    winners = ", ".join(names[w] for w in sorted(table.state.winners())) or "–"
    scores = " · ".join(
        f"{name} {score}" for name, score in zip(names, table.state.scores(), strict=True)
    )
    assert page.locator("#winners").text_content() == winners
    assert page.locator("#scores").text_content() == scores
    assert version_of(page) == public_version(table)
    return table


def log_items(page: Page) -> list[str]:
    """The texts of the page's event log."""
    return page.locator("ol.log li").all_text_contents()


def no_overflow(page: Page) -> bool:
    """True if the page fits its screen's width (nothing to scroll sideways)."""
    return bool(
        page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


# --- 1. a whole game of each game, made in the lobby, against a bot -------------------------


def create_against_a_random_bot(page: Page) -> tuple[Locator, str]:
    """Seat 2 made a random bot and the lobby's form sent: the new table's sit link and id."""
    page.select_option("[name=seat-1]", "bot")
    page.select_option("[name=level-1]", "random")
    page.click("#create button[type=submit]")
    sit = page.locator("#sit-link")
    sit.wait_for()
    return sit, (sit.get_attribute("href") or "").split("/")[2].split("#")[0]


@pytest.mark.parametrize("game", GAMES)
def test_whole_game_from_the_lobby(
    game: str, server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.select_option("#game", game)
    page.select_option("#players", "2")
    page.select_option("[name=seat-0]", "person")
    sit, table_id = create_against_a_random_bot(page)
    sit.click()
    page.fill("#name", "Alice")
    page.press("#name", "Enter")
    page.wait_for_selector("#join", state="hidden")
    page.click("#start")
    page.wait_for_function("() => document.querySelector('#turn').dataset.status !== 'open'")
    rng = random.Random(f"{game}-lobby")
    wait_ready(page)
    shot(page, screens, f"{game}-playing")
    made = play_to_end(page, rng)
    assert made > 0
    table = check_result(page, server, table_id)
    assert table.seats[0] == "Alice"
    said = [e for e in page_events(table, 0) if isinstance(e, dict)]
    assert len(log_items(page)) == len([e for e in said if e["sentence"] or e["outcome"]])
    assert page.locator("#moves button.move").count() == 0
    shot(page, screens, f"{game}-result")


def test_a_rule_parameter_set_in_the_lobby_reaches_the_table(
    server: LiveServer, new_context: NewContext
) -> None:
    """The game's numbers fold away under "Rule parameters"; the browser keeps a value within
    its bounds, and a value set there is the new table's."""
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "auf-die-eier")
    box = page.locator("#parameters")
    assert not box.evaluate("(d) => d.open") and not page.locator("#option-goal").is_visible()
    page.click("#parameters summary")
    assert page.locator("#option-goal").get_attribute("max") == "300"
    page.fill("#option-goal", "5")
    assert not page.locator("#option-goal").evaluate("(i) => i.checkValidity()")
    page.fill("#option-goal", "40")
    _, table_id = create_against_a_random_bot(page)
    about = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert about["options"]["goal"] == 40 and about["options"]["dice"] == 9


# --- 2. two people in two browsers ------------------------------------------------------------


def test_two_browsers_play_each_other(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "person"}], seed=21)
    pages = [new_context().new_page(), new_context().new_page()]
    join(pages[0], server, made["seat_links"]["0"], "Ada")
    join(pages[1], server, made["seat_links"]["1"], "Bo")
    start(server, made)
    rng = random.Random(21)
    version, shots = 0, False
    for _ in range(MOVE_LIMIT):
        for page in pages:
            page.wait_for_function(
                "(v) => Number(document.querySelector('#turn').dataset.version) >= v"
                " && document.querySelector('#turn').dataset.status !== 'open'",
                arg=version,
            )
        ready = [page.locator("#moves button.move:not([disabled])").count() > 0 for page in pages]
        over = [page.locator("#result").count() > 0 for page in pages]
        if all(over):
            break
        assert ready.count(True) == 1, "exactly one of two people may move"
        mover = pages[ready.index(True)]
        click_move(mover, rng)
        version = version_of(mover)
        if not shots and version >= 6:
            shots = True
            shot(pages[0], screens, "two-browsers-ada")
            shot(pages[1], screens, "two-browsers-bo")
    else:
        raise AssertionError("the game did not end")
    table = check_result(pages[0], server, made["id"])
    check_result(pages[1], server, made["id"])
    assert len(log_items(pages[0])) == len(log_items(pages[1])) == table.version
    shot(pages[1], screens, "two-browsers-result")


# --- 3. a spectator ---------------------------------------------------------------------------


def test_spectator_sees_moves_and_never_a_move_button(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    made = create(server, "auweier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 3)
    player = new_context().new_page()
    join(player, server, made["seat_links"]["0"], "Cleo")
    watcher = new_context().new_page()
    problems: list[str] = []
    watcher.on("pageerror", lambda error: problems.append(str(error)))
    watcher.goto(server.url + f"/t/{made['id']}")
    watcher.wait_for_selector("#turn[data-status=open]")
    start(server, made)
    rng = random.Random(3)
    seen = [0]
    for _ in range(MOVE_LIMIT):
        if wait_ready(player):
            break
        click_move(player, rng)
        version = version_of(player)
        watcher.wait_for_function(
            "(v) => Number(document.querySelector('#turn').dataset.version) >= v", arg=version
        )
        assert watcher.locator("button.move, #notation").count() == 0
        seen.append(len(log_items(watcher)))
    else:
        raise AssertionError("the game did not end")
    assert not problems, problems
    # Secret deck steps are one event said later, so the log may stay empty at first.
    assert seen == sorted(seen) and seen[-1] > max(seen[:5]), "moves arrived one after another"
    assert "You are watching." in (watcher.locator("#turn").text_content() or "")
    watcher.wait_for_selector("#result")
    table = check_result(watcher, server, made["id"])
    assert watcher.locator("button.move, #notation").count() == 0
    said = [e for e in page_events(table, None) if isinstance(e, dict)]
    assert len(log_items(watcher)) == len([e for e in said if e["sentence"] or e["outcome"]])
    shot(watcher, screens, "spectator-result")


# --- 4. a reload in the middle of a game -----------------------------------------------------


def test_reload_resumes_the_game(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    made = create(
        server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 4
    )
    page = new_context().new_page()
    join(page, server, made["seat_links"]["0"], "Dora")
    start(server, made)
    rng = random.Random(4)
    for _ in range(4):
        assert not wait_ready(page), "the game ended before the reload"
        click_move(page, rng)
    assert not wait_ready(page)
    version, log = version_of(page), log_items(page)
    legal = page.locator("#moves button.move").evaluate_all("(bs) => bs.map((b) => b.dataset.id)")
    page.reload()
    page.wait_for_function(
        "(v) => Number(document.querySelector('#turn').dataset.version) >= v", arg=version
    )
    wait_ready(page)
    assert version_of(page) == version
    assert log_items(page) == log
    again = page.locator("#moves button.move").evaluate_all("(bs) => bs.map((b) => b.dataset.id)")
    assert again == legal
    assert page.locator("#join").is_hidden()
    shot(page, screens, "reload-resumed")
    play_to_end(page, rng)
    check_result(page, server, made["id"])


# --- no hidden card of the other seat in the page (Awimbawé) ----------------------------------


def _card_forms(card: object) -> list[str]:
    """The ways a card could be written in a page: its notation and its JSON."""
    return [str(card), json.dumps(to_jsonable(card), separators=(",", ":"), ensure_ascii=False)]


def _written(text: str, form: str) -> bool:
    if form.startswith("{"):
        return form in text
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![0-9])", text) is not None


def test_awimbawe_page_never_holds_the_other_hand(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 5)
    page = new_context().new_page()
    frames: list[str] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)
    join(page, server, made["seat_links"]["0"], "Eve")
    start(server, made)
    rng = random.Random(5)
    snapshots: list[tuple[int, str]] = []
    for _ in range(MOVE_LIMIT):
        over = wait_ready(page)
        snapshot = page.evaluate(
            "() => [Number(document.querySelector('#turn').dataset.version),"
            " document.documentElement.outerHTML]"
        )
        snapshots.append((int(snapshot[0]), str(snapshot[1])))
        if over:
            break
        click_move(page, rng)
    table = final_table(server, made["id"])
    words = kit_of(table.game).words
    updates = [json.loads(f) for f in frames]
    updates = [u for u in updates if u.get("type") == "update"]
    assert updates and all(u["seat"] == 0 for u in updates)
    checked = own_seen = 0
    texts = [(v, html) for v, html in snapshots] + [(u["version"], json.dumps(u)) for u in updates]
    for version, text in texts:
        if table.state_at(version).is_terminal():
            continue  # at the end nothing is hidden any more
        # What seat 0 may know at this version: its view and its events (cards named in the
        # log of an earlier round are dealt again later; a card named there tells nothing).
        events = [
            e
            for e in events_for(table, words, 0, 0)
            if isinstance(e, dict) and isinstance(e["version"], int) and e["version"] <= version
        ]
        mine = json.dumps([to_jsonable(table.view(0, at=version)), events], ensure_ascii=False)
        theirs = table.view(1, at=version).sides[1].hand  # type: ignore[attr-defined]
        for card in theirs:
            forms = _card_forms(card)
            if any(_written(mine, form) for form in forms):
                continue  # the seat may see this card (face up, shown, named before)
            checked += 1
            assert not any(_written(text, form) for form in forms), (
                f"{card} of the other hand is in seat 0's page at version {version}"
            )
        own = table.view(0, at=version).sides[0].hand  # type: ignore[attr-defined]
        own_seen += sum(any(_written(text, form) for form in _card_forms(card)) for card in own)
    assert checked > 0, "the check looked at no hidden card"
    assert own_seen > 0, "the page shows the seat's own hand (so the check can see cards)"
    check_result(page, server, made["id"])
    shot(page, screens, "awimbawe-no-leak")


# --- the keyboard alone -----------------------------------------------------------------------


ON_THE_BOARD = """() => { const a = document.activeElement;
    return a !== null && document.getElementById('board').contains(a) && !a.dataset.endsTurn; }"""


def tab_to(page: Page, reached: str, limit: int = 60) -> None:
    """Press Tab until ``reached`` (a script) is true of the page."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(reached):
            return
    raise AssertionError(f"Tab never reached {reached}")


def test_keyboard_alone(server: LiveServer, new_context: NewContext, screens: Path) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 6)
    page = new_context().new_page()
    page.goto(server.url + made["seat_links"]["0"])
    page.wait_for_selector("#name")
    for _ in range(40):  # Tab to the name box, type, Enter
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id") == "name":
            break
    else:
        raise AssertionError("Tab never reached the name box")
    page.keyboard.type("Finn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#join", state="hidden")
    start(server, made)
    assert not wait_ready(page)

    # Tab to the moves as text, Enter opens them, Tab to a move, Enter plays it.
    tab_to(page, "() => document.activeElement?.id === 'move-list-summary'")
    page.keyboard.press("Enter")
    tab_to(page, "() => document.activeElement?.classList.contains('move')")
    before = updates_of(page)
    page.keyboard.press("Enter")
    wait_version(page, before)

    # The next turn's focus is on the board's first live target.
    assert not wait_ready(page)
    page.wait_for_function(ON_THE_BOARD)
    shot(page, screens, "keyboard-focus")

    # The notation box: a wrong move is refused with the engine's reason, a right one played.
    tab_to(page, "() => document.activeElement?.id === 'notation'")
    before = updates_of(page)
    page.keyboard.type("fly away")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#notice').textContent !== ''")
    assert (page.locator("#notice").text_content() or "").startswith("Refused: ")
    assert updates_of(page) == before
    assert page.evaluate("() => document.activeElement?.id") == "notation"
    text = page.locator("#moves button.move").first.get_attribute("data-text") or ""
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => Number(document.querySelector('#turn').dataset.updates) > v", arg=before
    )

    # To the end on the keyboard: whoever types moves keeps the notation box from turn to turn.
    for _ in range(MOVE_LIMIT):
        if wait_ready(page):
            break
        focused = page.evaluate("() => document.activeElement?.id")
        assert focused == "notation", "the keyboard focus left the notation box"
        text = page.locator("#moves button.move").first.get_attribute("data-text") or ""
        before = updates_of(page)
        page.keyboard.type(text)
        page.keyboard.press("Enter")
        wait_version(page, before)
    else:
        raise AssertionError("the game did not end")
    check_result(page, server, made["id"])


# --- a phone-sized screen, in German ----------------------------------------------------------


def test_phone_screen_in_german(server: LiveServer, new_context: NewContext, screens: Path) -> None:
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game")
    assert no_overflow(page)
    switch_language(page)
    assert page.evaluate("() => document.documentElement.lang") == "de"
    assert page.locator("h1").text_content() == "Tische"
    shot(page, screens, "phone-lobby-de")

    made = create(
        server, "auf-die-nuesse", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 7
    )
    page.goto(server.url + made["seat_links"]["0"])
    assert page.locator("label[for=name]").text_content() == "Dein Name an diesem Tisch"
    page.fill("#name", "Greta")
    page.tap("#join-form button[type=submit]")
    page.wait_for_selector("#join", state="hidden")
    start(server, made)
    rng = random.Random(7)
    assert not wait_ready(page)
    assert page.locator("#moves h2").text_content() == "Deine Züge"
    assert "Auf die Nüsse!" in (page.locator("#turn").text_content() or "")  # names stay German
    assert no_overflow(page)
    shot(page, screens, "phone-table-de")
    for _ in range(MOVE_LIMIT):
        if wait_ready(page):
            break
        if page.locator("#move-list:not([open])").count():
            page.tap("#move-list > summary")
        buttons = page.locator("#moves button.move")
        before = updates_of(page)
        buttons.nth(rng.randrange(buttons.count())).tap()
        wait_version(page, before)
    else:
        raise AssertionError("the game did not end")
    assert no_overflow(page)
    assert page.locator("#result h2").text_content() == "Das Spiel ist aus"
    check_result(page, server, made["id"])
    switch_language(page)
    assert page.locator("#result h2").text_content() == "The game is over"
    shot(page, screens, "phone-result")


# --- the server goes away and comes back ------------------------------------------------------


def test_reconnects_with_backoff_shown(
    own_server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    made = create(
        own_server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], 8
    )
    page = new_context().new_page()
    join(page, own_server, made["seat_links"]["0"], "Hugo")
    start(own_server, made)
    rng = random.Random(8)
    for _ in range(3):
        assert not wait_ready(page)
        click_move(page, rng)
    assert not wait_ready(page)
    version, log = version_of(page), log_items(page)
    own_server.stop()
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    page.wait_for_function(
        "() => /attempt [2-9]/.test(document.querySelector('#banner').textContent)"
    )
    text = banner.text_content() or ""
    assert text.startswith("Connection lost.")
    assert re.search(r"Reconnecting in \d+ s \(attempt \d+\)", text)
    assert page.locator("#moves button.move:not([disabled])").count() == 0
    shot(page, screens, "reconnecting")
    own_server.start()
    banner.wait_for(state="hidden")  # the next try (at most the cap of 10 s away) gets through
    assert not wait_ready(page)
    assert version_of(page) == version
    assert log_items(page) == log
    click_move(page, rng)
    play_to_end(page, rng)
    check_result(page, own_server, made["id"])
