"""What a German group met in its first minutes at the lobby and a table, each reproduced.

A German phone (chromium with ``de-DE`` at 390x844) opens the lobby signed out, makes a table
and leaves it: no literal ``null``, the new table before the lists, lists with column
headers, a live clock's fields only under a live clock, and the page's own dialog before
leaving or conceding (never the browser's grey ``confirm()``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import (
    PHONE,
    LiveServer,
    ThreadServer,
    docs_screens,
    require_browser,
    switch_language,
)

require_browser()

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402 - after the skip

from spieltisch.agents.ladder import load_ladder  # noqa: E402
from spieltisch.locale import translation  # noqa: E402

from .test_browser import create, join, start  # noqa: E402

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    """This module's own server: its tables draw on an allowance of their own (on the run's
    shared server the modules before it may have spent it)."""
    return module_server


def german_phone(new_context: NewContext) -> Page:
    page = new_context(locale="de-DE", viewport=PHONE).new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"the browser's own dialog: {dialog.message}"))
    return page


def lobby(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.wait_for_selector("#lists section")


def test_the_lobby_signed_out_shows_no_null_and_the_new_table_first(
    server: LiveServer, new_context: NewContext
) -> None:
    create(server, "awimbawe", [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=5)
    page = german_phone(new_context)
    lobby(page, server)
    text = page.locator("main").inner_text()
    assert "null" not in text and "undefined" not in text
    form = page.locator("#create").bounding_box()
    lists = page.locator("#lists").bounding_box()
    assert form is not None and lists is not None and form["y"] < lists["y"]
    headers = page.locator("#lists table.list thead th").all_inner_texts()
    assert headers[:3] == ["Spiel", "Spieler", "Am Tisch"]


def test_a_live_clocks_fields_show_only_under_a_live_clock(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    lobby(page, server)
    assert page.locator("#rules-bank").is_hidden() and page.locator("#rules-increment").is_hidden()
    page.select_option("#rules-clock", "live")
    assert (
        page.locator("#rules-bank").is_visible() and page.locator("#rules-increment").is_visible()
    )
    page.select_option("#rules-clock", "relaxed")
    assert page.locator("#rules-bank").is_hidden()


def test_the_new_table_form_names_every_games_option_values_in_german(
    server: LiveServer, new_context: NewContext
) -> None:
    """Each option's values read as words in German (``per Zufall``), never as the codes a
    record keeps (``chance``, ``excused``, ``bound``) nor as the English labels; the code is
    still what the form sends."""
    german = translation("de")
    page = german_phone(new_context)
    lobby(page, server)
    shown = 0
    for game in server.call("GET", "/api/games"):
        page.select_option("#game", game["id"])
        for option in (o for o in game["options"] if o["choices"]):
            values = page.locator(f"#option-{option['name']} > option")
            codes = values.evaluate_all("(options) => options.map((o) => o.value)")
            assert codes == [str(c) for c in option["choices"]], option["name"]
            for code, text in zip(codes, values.all_inner_texts(), strict=True):
                where = f"{game['id']} {option['name']}={code}"
                assert text != code, f"{where} shows its code"
                label = option["labels"][code]
                assert text != label and text == german.gettext(label), f"{where}: {text}"
                shown += 1
    assert shown >= 21  # Awimbawé's 5 values, Auweier's 10, Auf die Nüsse!'s 6


def test_leaving_asks_in_the_pages_own_dialog_and_escape_keeps_the_seat(
    server: LiveServer, new_context: NewContext
) -> None:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    made = create(server, "auf-die-eier", seats, seed=6)
    page = german_phone(new_context)
    join(page, server, made["seat_links"]["0"], "Anna")
    start(server, made)
    page.wait_for_selector("#turn[data-status=playing]")
    page.click("#leave")
    dialog = page.locator("dialog.ask[open]")
    assert dialog.is_visible() and "Bot" in dialog.inner_text()
    assert page.evaluate("() => document.activeElement.id") == "ask-no"  # the safe answer
    page.keyboard.press("Escape")
    assert page.locator("dialog.ask").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "leave"  # focus comes back
    assert page.locator("#leave").is_visible()  # still seated
    page.click("#leave")
    page.click("dialog.ask #ask-yes")
    page.wait_for_selector("#stale:not([hidden])")  # a bot has the seat, the link is spent


# --- bots people can choose ------------------------------------------------------------------


def test_every_games_bots_are_offered_by_names_ordered_by_their_measured_rating(
    server: LiveServer,
) -> None:
    """Names in words, weakest first by the ladder's rating at each player count, each name
    once; the codes stay offered (for experts) beside them."""
    for game in server.call("GET", "/api/games"):
        for players, named in game["ladder"].items():
            if not named:
                continue
            ladder = load_ladder().rungs(game["id"], int(players))
            assert [n["level"] for n in named] == [r.level for r in ladder]
            ratings = [n["rating"] for n in named]
            assert ratings == sorted(ratings), (game["id"], players)
            names = [n["name"] for n in named]
            assert len(set(names)) == len(names) and names[0] == "Beginner"
            assert names[-1] == "Master"
            assert {n["level"] for n in named} <= set(level_codes(game))


def level_codes(game: dict[str, Any]) -> list[str]:
    levels: list[str] = game["levels"]
    strengths: dict[str, list[str]] = game["strengths"]
    return [
        code
        for name in levels
        for code in [name, *(f"{name}:{s}" for s in strengths.get(name, []))]
    ]


def test_the_seat_picker_and_the_table_name_bots_in_german_words(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    lobby(page, server)
    page.select_option("#game", "awimbawe")
    page.select_option("[name=seat-1]", "bot")
    options = page.locator("[name=level-1] > option").all_inner_texts()
    assert options[0] == "Anfänger · 5,4"  # the ladder's weakest Awimbawé bot: 5.4
    assert [o.split(" · ")[0] for o in options][-1] == "Meister"
    # the strongest is for signed-in hosts: shown, not to pick, and says why
    strongest = page.locator("[name=level-1] > option").last
    assert strongest.is_disabled() and options[-1].endswith("für diese Stufe anmelden")
    assert page.locator("[name=level-1] optgroup").get_attribute("label") == (
        "Weitere Stufen, nach ihrem Code"
    )
    page.locator("#create").screenshot(path=str(docs_screens() / "first-bot-picker-de-phone.png"))
    chosen = page.locator("[name=level-1] option:checked").inner_text()
    assert chosen.startswith("Fortgeschritten")  # the middle one, unless the host picks
    page.click("#create button[type=submit]")
    page.wait_for_selector("#host-link")
    page.goto(server.url + (page.locator("#host-link").get_attribute("href") or ""))
    page.wait_for_selector("#people li[data-seat='1']")
    seat = page.locator("#people li[data-seat='1']").inner_text()
    assert "Bot Berta" in seat and "Fortgeschritten" in seat
    assert "heuristic" not in seat and "(" not in seat.split("Bot Berta")[1][:3]


def test_the_picker_offers_a_trained_policy_only_where_it_learned(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    lobby(page, server)
    page.select_option("#game", "auf-die-eier")
    codes = "[name=level-1] optgroup > option"
    page.select_option("#players", "2")
    page.select_option("[name=seat-1]", "bot")
    assert "learned" in page.locator(codes).all_inner_texts()
    # another goal is another table than the one it learned at: the picker follows the options
    page.click("#parameters summary")
    page.fill("#option-goal", "50")
    page.dispatch_event("#option-goal", "change")
    learned = page.locator("[name=level-1] option[value=learned]")
    expect(learned).to_have_count(0)
    page.select_option("[name=level-1]", "expert")
    page.fill("#option-goal", "100")
    page.dispatch_event("#option-goal", "change")
    expect(learned).to_have_count(1)
    assert page.locator("[name=level-1]").input_value() == "expert"  # the host's choice stays
    page.select_option("#players", "3")
    page.select_option("[name=seat-1]", "bot")
    offered = page.locator(codes).all_inner_texts()
    assert "ismcts" in offered and "learned" not in offered


def test_a_signed_in_host_may_pick_the_strongest_bot(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    page.goto(server.url + "/")
    signed = page.request.post(
        server.url + "/api/account/signup",
        data={"name": "Greta", "password": "ein Abend mit Freunden 7"},
        headers={"Origin": server.url},
    )
    assert signed.status == 201, signed.text()
    lobby(page, server)
    page.select_option("#game", "awimbawe")
    page.select_option("[name=seat-1]", "bot")
    strongest = page.locator("[name=level-1] > option").last
    assert not strongest.is_disabled() and strongest.inner_text().split(" · ")[0] == "Meister"
    assert "anmelden" not in strongest.inner_text()


def test_an_empty_leaderboard_says_how_to_get_on_it(
    server: LiveServer, new_context: NewContext
) -> None:
    page = german_phone(new_context)
    page.goto(server.url + "/ratings")
    empty = page.locator("#leaderboard-empty")
    empty.wait_for()
    assert "Zeig dein Profil" in empty.inner_text() and "5 gewertete Spiele" in empty.inner_text()
    ladder = page.locator("#ladder-table tbody tr").first.inner_text()
    assert "Meister" in ladder  # the strongest first, by its name (its code beside it)


def test_free_seats_are_named_in_the_pages_language(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auweier", [{"kind": "person"}, {"kind": "person"}], seed=8)
    page = german_phone(new_context)
    join(
        page,
        server,
        f"{made['seat_links']['0']}&host={made['host_link'].split('#host=')[1]}",
        "Anna",
    )
    free = page.locator("#people li[data-seat='1']")
    free.wait_for()
    assert "Platz 2" in free.inner_text() and "Seat" not in free.inner_text()
    host_row = page.locator("#host .link-row[data-seat='1']")
    host_row.wait_for(state="attached")  # in the host panel, folded or not
    assert "Platz 2" in (host_row.text_content() or "")
    assert "Seat" not in (page.locator("#turn").text_content() or "")


# --- the clock and seats ---------------------------------------------------------------------


def test_a_stand_in_is_one_click_from_the_seats_person_and_their_clock_tops_the_board(
    clocked: ThreadServer, new_context: NewContext
) -> None:
    rules = {"clock": "live", "bank": 60, "increment": 5, "grace": 0, "give_way": False}
    seats = [{"kind": "person"}, {"kind": "person"}]
    made: dict[str, Any] = clocked.call(
        "POST", "/api/tables",
        {"game": "awimbawe", "players": 2, "seats": seats, "seed": 34, "rules": rules},
    )  # fmt: skip
    anna, ben = german_phone(new_context), german_phone(new_context)
    join(anna, clocked, made["seat_links"]["0"], "Anna")
    join(ben, clocked, made["seat_links"]["1"], "Ben")
    start(clocked, made)
    for page in (anna, ben):
        page.wait_for_selector("#turn[data-status=playing]")
    clock = anna.locator("#my-clock")
    clock.wait_for()
    box, board = clock.bounding_box(), anna.locator("#board").bounding_box()
    assert box is not None and board is not None and box["y"] < board["y"]  # above the board
    assert re.fullmatch(r"Deine Zeit: \d:\d\d", clock.inner_text())
    slow, other, seat = (
        (anna, ben, 0) if anna.locator("#moves button.move").count() else (ben, anna, 1)
    )
    clocked.clock.advance(61)  # the seat to move is out of time: a bot stands in
    slow.wait_for_selector("#take-back")
    assert slow.locator("#take-back").inner_text() == "Platz zurücknehmen"
    slow.screenshot(path=str(docs_screens() / "first-take-back-de-phone.png"), full_page=True)
    slow.click("#take-back")
    slow.wait_for_selector("#take-back", state="detached")
    standing = "(s) => document.querySelector(`#people li[data-seat='${s}']`).textContent"
    other.wait_for_function(f"(s) => !({standing})(s).includes('Bot spielt')", arg=seat)


def test_the_host_picks_the_bots_level_and_sees_a_new_link_at_once(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auweier", [{"kind": "person"}, {"kind": "person"}], seed=9)
    page = german_phone(new_context)
    host = made["host_link"].split("#host=")[1]
    join(page, server, f"{made['seat_links']['0']}&host={host}", "Anna")
    page.locator("#host details").evaluate("(box) => { box.open = true; }")
    picker = page.locator("#tobot-level-1")
    names = [o.split(" · ")[0] for o in picker.locator("option").all_inner_texts()]
    assert names[0] == "Anfänger" and names[-1] == "Meister"
    assert picker.locator("option").last.is_disabled()  # the host is not signed in
    picker.select_option(index=0)
    page.click("#tobot-1")
    page.wait_for_selector("#toperson-1")
    seat = page.locator("#people li[data-seat='1']")
    seat.wait_for()
    assert "Anfänger" in seat.inner_text()  # the level the host chose, not the strongest
    page.click("#toperson-1")
    page.wait_for_function("() => document.activeElement?.classList.contains('seat-link')")
    assert page.locator("#host details[open]").count() == 1


def test_the_board_names_a_free_seat_in_the_pages_language(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "person"}], seed=12)
    page = german_phone(new_context)
    page.goto(server.url + made["seat_links"]["0"])
    page.wait_for_function("() => document.querySelector('#board')?.innerText.includes('Platz 2')")
    board = page.locator("#board").inner_text()
    assert "Platz 2" in board and "Seat" not in board


def test_a_spent_links_notice_follows_a_language_switch_over_no_empty_panels(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "awimbawe", [{"kind": "person"}, {"kind": "person"}], seed=10)
    host = made["host_link"].split("#host=")[1]
    server.call("POST", f"/api/tables/{made['id']}/seats/1/bot", {"level": "random"}, token=host)
    page = german_phone(new_context)
    page.goto(server.url + made["seat_links"]["1"])
    notice = page.locator("#stale:not([hidden])")
    notice.wait_for()
    german = notice.inner_text()
    assert "Bot" in german and "Watch instead" not in german
    assert page.locator(".table-layout").is_hidden()
    assert switch_language(page) == "en"
    page.wait_for_function("() => document.querySelector('#stale').innerText.includes('Watch')")
    assert notice.inner_text() != german
