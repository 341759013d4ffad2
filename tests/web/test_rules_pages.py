"""The rules pages in English and German: every game has both, alike in structure and in the
notation players type; the server puts both into the one page, and the browser shows the
page's language's article (switching with the page, without a request)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

import spieltisch
from spieltisch.games import REGISTRY
from spieltisch.session.rule_ids import rule_ids
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes import pages
from spieltisch.web.routes.app import create_app

from .conftest import LiveServer, require_browser, switch_language

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

    NewContext = Callable[..., BrowserContext]

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *$")
FENCE = re.compile(r"^(```|~~~)")
NOTATION = re.compile(r"`([^`\n]+)`")


def headings(page: str) -> list[tuple[int, str]]:
    """The page's ATX headings as (level, text), outside fenced code."""
    found, fenced = [], False
    for line in page.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append((len(match.group(1)), match.group(2)))
    return found


def levels(page: str) -> Counter[int]:
    return Counter(level for level, _ in headings(page))


def notation(page: str) -> set[str]:
    return set(NOTATION.findall(page))


def test_the_games_are_the_implemented_ones() -> None:
    assert set(GAMES) == set(REGISTRY.implemented())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_german_page_shaped_like_the_english_one(game: str) -> None:
    english = spieltisch.rules_page(game, "en")
    german_file = spieltisch.RULES_DIR / f"{game}.de.md"
    assert german_file.is_file(), f"{game}: no German rules page"
    german = spieltisch.rules_page(game, "de")
    assert german == german_file.read_text(encoding="utf-8")
    assert levels(german) == levels(english), f"{game}: the headings differ in number per level"
    assert notation(german) == notation(english), (
        f"{game}: only in English {sorted(notation(english) - notation(german))}, "
        f"only in German {sorted(notation(german) - notation(english))}"
    )
    assert (2, "Rulings") in headings(english)
    assert (2, "Regelauslegungen") in headings(german)
    assert headings(german)[0][1] == headings(english)[0][1]  # the game's name is its name


@pytest.mark.parametrize("game", GAMES)
def test_german_differs_and_english_is_the_default(game: str) -> None:
    assert spieltisch.rules_page(game) == spieltisch.rules_page(game, "en")
    assert spieltisch.rules_page(game, "de") != spieltisch.rules_page(game)


def test_an_unknown_language_is_an_error_naming_the_languages() -> None:
    with pytest.raises(ValueError, match=r"en, de.*'fr'"):
        spieltisch.rules_page("auweier", "fr")


def test_a_missing_german_page_falls_back_to_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "auweier.md").write_text("# Auweier\n\nEnglish.\n", encoding="utf-8")
    monkeypatch.setattr(spieltisch, "RULES_DIR", tmp_path)
    assert spieltisch.rules_page("auweier", "de") == "# Auweier\n\nEnglish.\n"
    assert spieltisch.rules_page("chess", "de") == ""


def test_the_rules_page_holds_both_articles(tmp_path: Path) -> None:
    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}"))
    with TestClient(app) as client:
        for game in GAMES:
            answer = client.get(f"/rules/{game}")
            assert answer.status_code == 200
            html = answer.text
            assert html.count('<article class="rules" lang="en">') == 1
            assert html.count('<article class="rules" lang="de" hidden>') == 1
            english, german = html.split('<article class="rules" lang="de" hidden>')
            assert "<h2>Rulings</h2>" in english and "<h2>Rulings</h2>" not in german
            assert "<h2>Regelauslegungen</h2>" in german
            assert "<script>" not in html  # scripts only from files (the CSP allows no other)
            assert "script-src 'self'" in answer.headers["content-security-policy"]


STARTER = ("K", "H", "F", "7", "5*", "4")
"""The cards ``deck starter 7 5* 4`` puts first: a Crow, a Wedding, the False Worm, the worms."""


def starter_deal(hand_size: int) -> tuple[list[str], list[str]]:
    """Seat 1's hand (sorted) and its first three draws after both decks took
    ``deck starter 7 5* 4`` at two players with ``hand_size``, as the cards' notation."""
    from spieltisch.games.auweier.notation import Card, cards_text
    from spieltisch.session import Table

    table = Table(spieltisch.load("auweier", 2, hand_size=hand_size), seed=5)
    for _ in range(2):
        table.play_text("deck starter 7 5* 4")
        while table.state.is_chance():
            table.advance_chance()
    seat = table.state.seats[0]  # type: ignore[attr-defined]
    hand = tuple(Card(card) for card, held in enumerate(seat.hand) for _ in range(held))
    return sorted(cards_text(hand).split()), cards_text(seat.pile[:3]).split()


@pytest.mark.parametrize("language", ["en", "de"])
def test_auweiers_first_game_deck_is_said_for_every_hand_size(language: str) -> None:
    """The page says what ``deck starter`` deals when ``hand_size`` is not six (at 3: the Crow,
    the Wedding and the False Worm, the chosen worms drawn next; at 10: the six and four more),
    and the engine deals just that."""
    rule = rule_ids(spieltisch.rules_page("auweier", language))["auweier.deck-starter"]
    assert "`hand_size`" in rule, f"{language}: the first-game deck names no hand size"
    assert re.search(r"\b3\b", rule) and re.search(r"\b10\b", rule), rule
    assert starter_deal(6)[0] == sorted(STARTER)
    assert starter_deal(3) == (sorted(STARTER[:3]), list(STARTER[3:]))
    large, _ = starter_deal(10)
    assert len(large) == 10 and set(STARTER) <= set(large)


def test_rule_ids_mark_their_elements_and_never_show(game: str = "auf-die-eier") -> None:
    """Each rule's ``{#id}`` marker becomes its element's ``data-rule`` in both articles, and
    no marker is left in the text a reader sees."""
    page = pages.rules(game)
    ids = list(rule_ids(spieltisch.rules_page(game)))
    assert ids and "{#" not in page
    for article in re.findall(r"<article.*?</article>", page, re.S):
        assert re.findall(r'data-rule="([^"]+)"', article) == ids


@pytest.mark.browser
def test_the_browser_shows_the_article_of_the_page_language(
    server: LiveServer, new_context: NewContext
) -> None:
    require_browser()  # skips (or fails, where the browser is required) without a browser
    page = new_context().new_page()
    page.goto(f"{server.url}/rules/auweier")
    english = page.locator('article.rules[lang="en"]')
    german = page.locator('article.rules[lang="de"]')
    english.get_by_role("heading", name="Rulings").wait_for()
    assert english.is_visible() and german.is_hidden()
    assert page.evaluate("() => document.documentElement.lang") == "en"

    assert switch_language(page) == "de"
    assert german.is_visible() and english.is_hidden()
    assert german.get_by_role("heading", name="Regelauslegungen").is_visible()
    assert page.evaluate("() => document.documentElement.lang") == "de"

    page.reload()  # the language is kept: the German article is shown on load
    german.get_by_role("heading", name="Regelauslegungen").wait_for()
    assert german.is_visible() and english.is_hidden()

    assert switch_language(page) == "en"
    assert english.is_visible() and german.is_hidden()
