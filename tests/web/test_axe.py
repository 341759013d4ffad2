"""Accessibility: axe-core (vendored in ``vendor/``, see its README) audits every kind of page.

The lobby; each game's table seated against a bot at three points of a played game (after a
few moves, in the middle, and at the end); the replay of a finished game, before and with its
analysis panel open; a rules page; the account page signed out and signed in, the ratings and a
player's profile (with a finished game); each lesson at its first move, with a rule at hand
shown, and a closing game begun. Each in English and German, at a desktop's size and a
phone's, in the light theme and the dark (the system setting the pages follow). One line per
page gives the counts by impact (run pytest with ``-s`` to read them); a violation of any
impact fails the test, listed with its rule, elements and axe's reason.

The tables are made once for the module, one per game and point: a person's seat is played at
random over the table's socket (as the page does, and much quicker than clicking), a few moves
for the tables in play, to a point in the middle that draws more of the board for the tables
mid-game (Auf die Nüsse!'s seat storing a nut, its stores partly filled and clickable; Auf die
Eier after turns were scored; Auweier in a wedding phase; Awimbawé in a later round), and to
the end for the finished ones. A table left in play waits for its person (its grace is 0: no
bot stands in, however long the audits take), and the page must show its point before it is
audited. Each size and
language gets one browser context (made with ``bypass_csp=True``, which axe's injection needs)
and one page that visits them all; German is chosen with the page's own language button, which
the context then remembers.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.sync.client import connect

from spieltisch.session.lesson import StepKind, has_lesson, load_lesson

from .conftest import PHONE, LiveServer, left_in_play, require_browser, switch_language

require_browser()

from playwright.sync_api import Page  # noqa: E402 - after the skip

from .axe import Violation, audit, blocking, describe, summary  # noqa: E402
from .test_browser import GAMES, NewContext, start, wait_ready  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DESKTOP = {"width": 1280, "height": 800}
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": DESKTOP},
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
}
PERSON_AND_BOT = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
MOVES_IN_PLAY = 3
"""Moves the person makes at a table audited in play (so that its log says something)."""
Update = dict[str, Any]
"""An update message of a table's socket (its ``view``, ``legal`` moves, ``status``...)."""


def nuts_stored(view: dict[str, Any], seat: int) -> int:
    """The nuts (and jokers) in ``seat``'s stores of an Auf die Nüsse! view."""
    return sum(int(store["nuts"]) + int(store["jokers"]) for store in view["stores"][seat])


MID_GAME: dict[str, Callable[[Update], bool]] = {
    "auf-die-eier": lambda u: u["view"]["last"] is not None and sum(u["view"]["scores"]) >= 20,
    "auf-die-nuesse": lambda u: (
        u["view"]["stage"] == "put"
        and u["view"]["receiver"] == 0
        and nuts_stored(u["view"], 0) >= 3
    ),
    "auweier": lambda u: u["view"]["stage"] in {"weddings", "worms"},
    "awimbawe": lambda u: int(u["view"]["round"]) >= 2,
}
"""The point in the middle of each game where its table is audited, read from an update that
offers the person a move."""
MID_GAME_SHOWN = {
    "auf-die-eier": "#board:has(#ade-controls):has(#ade-total)",
    "auf-die-nuesse": '#board .nd-root[data-stage="put"][data-mine="1"] button.nd-store .nd-filled',
    "auweier": '#aw-board[data-act="me"]:is([data-stage="weddings"], [data-stage="worms"])',
    "awimbawe": "#board .aw-results li",
}
"""What the page must show at that point before it is audited (for Auf die Nüsse!: the
person's stores as buttons, some holding nuts)."""
WAITING = {"grace": 0}
"""A table's rules that never let a bot stand in for its absent person."""
CREATE_TIMEOUT = 60.0
"""Seconds a table may wait to be made: the module makes one more than an address may make at
once, and the server makes room for one every ten seconds."""
ANALYSED = "auf-die-eier"
"""The game whose finished table is replayed and analysed (its analysis is exact and quick)."""
RULES = "auf-die-eier"
LESSON = "auf-die-eier"
"""The lesson whose rule at hand and closing game are audited (its hints are exact and quick)."""
SEND_GAP = 0.12
"""Seconds between one connection's moves: below the server's limit of ten a second."""
MESSAGE_LIMIT = 5_000
TURN_TIMEOUT = 20.0
ANALYSIS_TIMEOUT = 120.0
PASSWORD = "a long walk by the river"


@dataclass(frozen=True)
class Tables:
    """The module's tables: seat links (path and fragment) by game, and the analysed one."""

    playing: dict[str, str]
    mid_game: dict[str, str]
    finished: dict[str, str]
    replayed: str
    """The id of the finished table whose seat 0 is analysed."""
    player: str = ""
    """The account whose profile is audited (its seat at a finished game bound to it)."""
    session: str = ""
    """That account's session cookie."""


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: the many tables it leaves in play end with the module."""
    return module_server


def play(
    server: LiveServer, table_id: str, token: str, seed: int, moves: int | None,
    until: Callable[[Update], bool] | None = None,
) -> None:  # fmt: skip
    """Play the seat of ``token`` at random over the table's socket until the game ends (or
    ``moves`` moves are made, or an update that offers a move is ``until``): each move answers
    an update that offers it, at its version."""
    rng = random.Random(seed)
    url = "ws" + server.url.removeprefix("http") + f"/ws/{table_id}"
    made, sent = 0, 0.0
    with connect(url, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello", "token": token, "since": 0, "language": "en"}))
        for _ in range(MESSAGE_LIMIT):
            message = json.loads(socket.recv(timeout=TURN_TIMEOUT))
            if message.get("type") == "error":
                raise AssertionError(f"the server refused: {message.get('reason')}")
            if message.get("type") != "update":
                continue  # presence, chat, a stale move's refusal (the catch-up follows)
            if until is not None and message["status"] == "finished":
                raise AssertionError(f"table {table_id} ended before the point it was played to")
            if message["status"] == "finished" or (moves is not None and made >= moves):
                return
            if until is not None and message["legal"] and until(message):
                return
            if message["legal"]:
                time.sleep(max(0.0, sent + SEND_GAP - time.monotonic()))
                move = rng.choice(message["legal"])["id"]
                socket.send(json.dumps({"type": "move", "id": move, "version": message["version"]}))
                sent, made = time.monotonic(), made + 1
    raise AssertionError(f"table {table_id}: no end after {MESSAGE_LIMIT} messages")


def new_table(server: LiveServer, game: str, seed: int, rules: dict[str, Any]) -> dict[str, Any]:
    """A new table of ``game``, a person (seat 0) against a random bot, with house ``rules``;
    made as soon as the server lets this address make another."""
    body = {"game": game, "players": 2, "seats": PERSON_AND_BOT, "seed": seed, "rules": rules}
    deadline = time.monotonic() + CREATE_TIMEOUT
    while True:
        try:
            return left_in_play(server, server.call("POST", "/api/tables", body))
        except urllib.error.HTTPError as error:
            if error.code != 429 or time.monotonic() > deadline:
                raise
            time.sleep(1.0)


def seated_table(
    server: LiveServer, game: str, seed: int, moves: int | None,
    until: Callable[[Update], bool] | None = None,
) -> str:  # fmt: skip
    """A started table of ``game``, a person (seat 0) against a random bot, the person's
    moves played (``moves`` of them, or to the end, or to the first update offering a move
    that is ``until``); its seat link. A table left in play waits for its person."""
    # Never a bot standing in: the module's audits outlast the grace a person has, and a bot
    # would play a table meant to be audited in play to its end.
    made = new_table(server, game, seed, WAITING)
    link = str(made["seat_links"]["0"])
    token = link.split("#seat=", 1)[1]
    body = {"token": token, "name": "Alex", "salt": secrets.token_hex(16)}
    server.call("POST", f"/api/tables/{made['id']}/join", body)
    start(server, made)
    play(server, str(made["id"]), token, seed, moves, until)
    return link


def analysed(server: LiveServer, table_id: str, seat: int) -> None:
    """Run the analysis of ``seat`` on a finished table and wait until it is kept (the page
    then shows it at once)."""
    server.call("POST", f"/api/tables/{table_id}/analysis/{seat}")
    deadline = time.monotonic() + ANALYSIS_TIMEOUT
    while time.monotonic() < deadline:
        found = server.call("GET", f"/api/tables/{table_id}/analysis/{seat}")
        if found["status"] == "done":
            return
        assert found["status"] == "running", found
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {table_id} did not end in {ANALYSIS_TIMEOUT} s")


def post(server: LiveServer, path: str, body: object, headers: dict[str, str]) -> Any:
    """A JSON POST with ``headers`` (a session's cookie and CSRF token); the answer."""
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Origin": server.url, **headers}
    request = urllib.request.Request(server.url + path, data, headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers, json.loads(answer.read() or b"null")


def account_game(server: LiveServer, name: str) -> str:
    """A listed account that played one game of Auf die Eier to its end (its seat joined
    signed in, so the game is on its profile); its session cookie."""
    headers, body = post(server, "/api/account/signup", {"name": name, "password": PASSWORD}, {})
    cookie = str(headers["Set-Cookie"]).split(";", 1)[0].split("=", 1)[1]
    signed = {"Cookie": f"spieltisch_session={cookie}", "X-CSRF-Token": str(body["csrf"])}
    post(server, "/api/account/settings", {"listed": True}, signed)
    made = new_table(server, ANALYSED, 60, {})
    token = str(made["seat_links"]["0"]).split("#seat=", 1)[1]
    join = {"token": token, "name": name, "salt": secrets.token_hex(16)}
    post(server, f"/api/tables/{made['id']}/join", join, signed)
    start(server, made)
    play(server, str(made["id"]), token, 60, None)
    return cookie


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> Tables:
    """One table of each game in play, one in the middle and one at its end, made
    (concurrently) once."""
    with ThreadPoolExecutor(max_workers=len(GAMES) * 3) as pool:
        playing = {g: pool.submit(seated_table, server, g, 40 + i, MOVES_IN_PLAY)
                   for i, g in enumerate(GAMES)}  # fmt: skip
        middle = {g: pool.submit(seated_table, server, g, 70 + i, None, MID_GAME[g])
                  for i, g in enumerate(GAMES)}  # fmt: skip
        finished = {g: pool.submit(seated_table, server, g, 50 + i, None)
                    for i, g in enumerate(GAMES)}  # fmt: skip
        player = "Alex Account"
        session = pool.submit(account_game, server, player)
        made = Tables(
            playing={g: f.result() for g, f in playing.items()},
            mid_game={g: f.result() for g, f in middle.items()},
            finished={g: f.result() for g, f in finished.items()},
            replayed=finished[ANALYSED].result().removeprefix("/t/").split("#", 1)[0],
            player=player,
            session=session.result(),
        )
    analysed(server, made.replayed, 0)
    return made


# --- what a page must show before it is audited ----------------------------------------------


def lobby_ready(page: Page) -> None:
    page.wait_for_selector("#create #game option", state="attached")
    page.wait_for_function("() => document.querySelectorAll('#lists section').length === 3")


def in_play(page: Page) -> None:
    assert not wait_ready(page), "the table audited in play is over"
    page.wait_for_selector("#turn[data-status=playing]")


def mid_game(game: str) -> Callable[[Page], None]:
    """A table at its point in the middle (see :data:`MID_GAME_SHOWN`)."""

    def ready(page: Page) -> None:
        in_play(page)
        page.wait_for_selector(MID_GAME_SHOWN[game])

    return ready


def at_the_end(page: Page) -> None:
    page.wait_for_selector("#result")


def replay_ready(page: Page) -> None:
    page.wait_for_selector("#position")
    page.wait_for_selector("#analysis button.analyse")


def analysis_open(page: Page) -> None:
    page.click("#analysis button.analyse[data-seat='0']")
    page.wait_for_selector("#analysis-done")


def rules_ready(page: Page) -> None:
    page.wait_for_selector("article.rules:not([hidden]) h1")


def signed_out(page: Page) -> None:
    page.wait_for_selector("#account[data-state=out]")


def ratings_ready(page: Page) -> None:
    page.wait_for_selector("#boards[data-ready]")


def profile_ready(page: Page) -> None:
    page.wait_for_selector("#profile[data-ready] #finished-list")


def lesson_at(at: int | str) -> Callable[[Page], None]:
    """A lesson page drawn at step index ``at`` (or its closing game, ``"finale"``)."""

    def ready(page: Page) -> None:
        page.wait_for_selector(f'#lesson[data-at="{at}"]')
        page.wait_for_selector("#board > *")

    return ready


def rule_open(page: Page) -> None:
    page.locator("#board [data-rule]").first.click()
    page.wait_for_selector("#rule-at-hand:not([hidden]) [data-rule-shown]")


def closing_game(page: Page) -> None:
    lesson_at(len(load_lesson(LESSON).steps))(page)
    page.click("#finale-start")
    lesson_at("finale")(page)


def lesson_visits() -> list[Visit]:
    """Each lesson at its first step that asks for a move; one with a rule at hand shown and
    its closing game begun."""
    found: list[Visit] = []
    for game in GAMES:
        if not has_lesson(game):
            continue
        steps = load_lesson(game).steps
        first = next(i for i, step in enumerate(steps) if step.kind is StepKind.MOVE)
        found.append((f"lesson {game}", f"/learn/{game}#step={first}", lesson_at(first)))
    last = len(load_lesson(LESSON).steps)
    return [
        *found,
        (f"lesson {LESSON}, rule at hand", None, rule_open),
        (f"lesson {LESSON}, closing game", f"/learn/{LESSON}#step={last}", closing_game),
    ]


def signing_in(server: LiveServer, session: str) -> Callable[[Page], None]:
    """The account page, signed in: the page's context gets the account's session cookie."""

    def signed_in(page: Page) -> None:
        cookie = {"name": "spieltisch_session", "value": session, "url": server.url}
        page.context.add_cookies([cookie])  # type: ignore[list-item]
        page.goto(server.url + "/account")
        page.wait_for_selector("#account[data-state=in]")

    return signed_in


Visit = tuple[str, str | None, Callable[[Page], None]]
"""A page's name, the path to open (None: stay on the page) and what it must show first."""


def visits(server: LiveServer, tables: Tables) -> list[Visit]:
    """The pages audited, in order."""
    replay = f"/replay/{tables.replayed}"
    return [
        ("lobby", "/", lobby_ready),
        *[(f"table {g} in play", tables.playing[g], in_play) for g in GAMES],
        *[(f"table {g} mid-game", tables.mid_game[g], mid_game(g)) for g in GAMES],
        *[(f"table {g} at the end", tables.finished[g], at_the_end) for g in GAMES],
        (f"replay {ANALYSED}", replay, replay_ready),
        (f"replay {ANALYSED}, analysis open", None, analysis_open),
        (f"rules {RULES}", f"/rules/{RULES}", rules_ready),
        ("account, signed out", "/account", signed_out),
        ("ratings", "/ratings", ratings_ready),
        ("account, signed in", None, signing_in(server, tables.session)),
        ("profile", f"/players/{tables.player}", profile_ready),
        *lesson_visits(),
    ]


# --- the audit --------------------------------------------------------------------------------


def report(line: str) -> None:
    """Add a page's counts to the file ``SPIELTISCH_AXE_REPORT`` names, if any (CI prints it)."""
    path = os.environ.get("SPIELTISCH_AXE_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_has_a_violation(
    size: str, language: str, theme: str, server: LiveServer, tables: Tables,
    new_context: NewContext,
) -> None:  # fmt: skip
    page = new_context(bypass_csp=True, color_scheme=theme, **SIZES[size]).new_page()
    page.goto(server.url + "/")
    lobby_ready(page)
    if language != "en":
        assert switch_language(page) == language  # remembered by the context from here on
    found: list[tuple[str, list[Violation]]] = []
    for name, path, ready in visits(server, tables):
        if path is not None:
            page.goto(server.url + path)
        ready(page)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=language)
        where = f"{name} [{language}, {size}, {theme}]"
        violations = audit(page)
        print(summary(where, violations))
        report(summary(where, violations))
        found.append((where, violations))
    failing = [describe(where, blocking(v)) for where, v in found if blocking(v)]
    if failing:
        pytest.fail(
            f"accessibility violations ({language}, {size}, {theme}):\n\n" + "\n\n".join(failing),
            pytrace=False,
        )
