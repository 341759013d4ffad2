"""The replay page, the analysis and the dice check, in Debian's chromium.

A finished Awimbawé game is replayed back and forth from both seats: at every step the page
holds no card of the other seat's hand that the seat could not see then. One seat's decisions
are analysed from the page; a fair table's dice are verified from its page at the end; and a
record file opened on the replay page replays.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from spieltisch.core.codec import to_jsonable
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.web.tables.payload import events_for

from .conftest import LiveServer
from .test_browser import (
    NewContext,
    _card_forms,
    _written,
    final_table,
    host_token,
    join,
    play_to_end,
    shot,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it may have spent it: 429)."""
    return module_server


AT_POSITION = "(v) => Number(document.querySelector('#position').textContent.split(' / ')[0]) === v"


def bots_game(server: LiveServer, game: str, seed: int) -> str:
    """A bots-only table, played to its end; its id."""
    seats = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"}]
    made: dict[str, Any] = server.call(
        "POST", "/api/tables", {"game": game, "players": 2, "seats": seats, "seed": seed}
    )
    server.call("POST", f"/api/tables/{made['id']}/start", {}, token=host_token(made))
    for _ in range(600):
        if server.call("GET", f"/api/tables/{made['id']}")["status"] == "finished":
            return str(made["id"])
        time.sleep(0.1)
    raise AssertionError("the bots did not finish")


def position(page: Any) -> int:
    return int(str(page.locator("#position").text_content()).split(" / ")[0])


def test_a_replay_from_either_seat_never_shows_the_other_hand(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    table_id = bots_game(server, "awimbawe", 4)
    table = final_table(server, table_id)
    words = kit_of(table.game).words
    page = new_context().new_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector("#position")
    checked = 0
    for seat in (0, 1):
        page.select_option("#side", str(seat))
        page.wait_for_function("(s) => document.querySelector('#side').value === s", arg=str(seat))
        page.click("#first")
        page.wait_for_function(
            "() => document.querySelector('#position').textContent.startsWith('0 /')"
        )
        steps = [1, 1, 1, 1, 1, 1, 1, 1, -1, -1, 1, 1, 1]
        for move in steps:
            before = position(page)
            page.click("#next" if move > 0 else "#back")
            page.wait_for_function(AT_POSITION, arg=before + move)
            at = before + move
            html = page.content()
            seen = json.dumps(
                [to_jsonable(table.view(seat, at=at)), events_for(table, words, seat, 0)[:at]],
                ensure_ascii=False,
            )
            other = table.view(1 - seat, at=at).sides[1 - seat].hand  # type: ignore[attr-defined]
            for card in other:
                forms = _card_forms(card)
                if any(_written(seen, form) for form in forms):
                    continue  # this seat may know the card by then
                checked += 1
                assert not any(_written(html, form) for form in forms), f"{card} at {at}"
    assert checked > 20
    shot(page, screens, "replay-awimbawe")


def test_an_analysis_runs_from_the_replay_page(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    table_id = bots_game(server, "auf-die-eier", 6)
    page = new_context().new_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.click("button.analyse[data-seat='1']")
    page.wait_for_selector("#analysis-done", timeout=120_000)
    rows = page.locator("#analysis-table tbody tr")
    assert rows.count() > 0
    costly = page.locator("#analysis-table tr.costly").count()
    kept = server.call("GET", f"/api/tables/{table_id}/analysis/1")
    assert kept["status"] == "done" and costly == sum(1 for d in kept["decisions"] if d["costly"])
    assert rows.count() == len(kept["decisions"])
    shot(page, screens, "analysis-auf-die-eier")


def test_a_fair_tables_dice_are_verified_from_its_page(
    server: LiveServer, new_context: NewContext, screens: Path
) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made: dict[str, Any] = server.call(
        "POST", "/api/tables", {"game": "auf-die-eier", "players": 2, "seats": seats}
    )
    page = new_context().new_page()
    join(page, server, made["seat_links"]["0"], "Vera")
    commitment = str(page.locator("#commitment").text_content())
    assert len(commitment) == 64  # shown before the first move
    server.call("POST", f"/api/tables/{made['id']}/start", {}, token=host_token(made))
    play_to_end(page, random.Random(2))
    page.locator("#fair summary").click()
    record = Record.loads(server.text(f"/api/tables/{made['id']}/record"))
    assert page.locator("#seed").text_content() == str(record.seed)  # every digit, as text
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.click("#verify")
    checks = page.locator("#verified li")
    checks.nth(1).wait_for()
    assert checks.all_text_contents() == [
        "✓ the revealed secret gives the commitment shown before the first move",
        "✓ the seed follows from the secret, the table and every seat's salt",
    ]
    assert asked == []  # worked out by the browser, not asked of the server that dealt the dice
    assert page.locator("#verify-command").text_content() == f"spieltisch verify {made['id']}.json"
    assert page.locator("#commitment").text_content() == commitment
    shot(page, screens, "fair-dice-verified")


def test_a_record_file_opens_on_the_replay_page(
    server: LiveServer, new_context: NewContext, tmp_path: Path
) -> None:
    table_id = bots_game(server, "auweier", 8)
    record = tmp_path / "game.json"
    record.write_text(server.text(f"/api/tables/{table_id}/record"))
    page = new_context().new_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file", str(record))
    page.click("#last")
    last = final_table(server, table_id).version
    page.wait_for_function(
        "(v) => document.querySelector('#position').textContent === `${v} / ${v}`", arg=last
    )


def test_an_analysis_writes_its_numbers_as_a_german_page_does(
    server: LiveServer, new_context: NewContext
) -> None:
    """Seen on a German page: "12.19", "1.42". The analysis writes its numbers by the page's
    language (Intl in the browser): decimal commas in German."""
    table_id = bots_game(server, "auf-die-eier", 7)
    page = new_context(locale="de-DE").new_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.click("button.analyse[data-seat='0']")
    page.wait_for_selector("#analysis-done", timeout=120_000)
    text = page.locator("#analysis-table").inner_text()
    assert re.search(r"\d,\d\d", text), text[:300]
    assert not re.search(r"\d\.\d", text), text[:300]
