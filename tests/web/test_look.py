"""The look: every kind of page, photographed and compared with its committed reference.

Each page is shown at a phone's size (390x844) and a desktop's (1280x800), in the light and
the dark theme (the system setting the page follows), in English and German: the lobby, the
account page, the ratings, a rules page, a lesson, a table of each game in the middle of a
game, the replay of a finished game and a player's profile. The first screen of each is
compared with ``tests/web/look/<page>-<size>-<theme>-<language>.png`` (see ``look.py`` for
the tolerance), so a change that breaks the look fails here; a change to the look made on
purpose updates the references with ``python scripts/look.py`` (which sets
``SPIELTISCH_UPDATE_LOOK``). Motion is off for the photographs (reduced motion and
Playwright's own switch) and the text caret hidden; dates, which change from run to run, are
covered.

The games are dealt from fixed seeds and the person's moves drawn from fixed seeds, and the
bots seeded from the table's seed, so each table reaches the same point in every run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from PIL import Image

from .conftest import (
    PHONE,
    REPO,
    SCREENS,
    LiveServer,
    docs_screens,
    require_browser,
    switch_language,
)

require_browser()

from playwright.sync_api import Page  # noqa: E402 - after the skip

from . import look  # noqa: E402
from .test_axe import (  # noqa: E402
    MID_GAME,
    account_game,
    lobby_ready,
    mid_game,
    ratings_ready,
    rules_ready,
    seated_table,
    signed_out,
)
from .test_browser import GAMES, NewContext, wait_ready  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

REFERENCES: Final = Path(__file__).resolve().parent / "look"
UPDATE: Final = bool(os.environ.get("SPIELTISCH_UPDATE_LOOK"))
SIZES: Final[dict[str, dict[str, Any]]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
THEMES: Final = ("light", "dark")
LANGUAGES: Final = ("en", "de")
VOLATILE: Final = "time, [data-volatile]"
"""What changes from run to run (a date, a clock): covered in the photographs."""
PLAYER: Final = "Robin Beispiel"
LESSON: Final = "awimbawe"
SEEDS: Final = {"auf-die-eier": 71, "auf-die-nuesse": 72, "auweier": 73, "awimbawe": 74}
"""The seed of each game's table in the middle (each reaches its point within a minute)."""
REPLAYED_SEED: Final = 51


@dataclass(frozen=True)
class Tables:
    """The module's tables: each game's in the middle (seat links), one finished (its id)."""

    mid_game: dict[str, str]
    replayed: str


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    return module_server


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> Tables:
    """Made once, concurrently; the account's finished game (for its profile) too."""
    with ThreadPoolExecutor(max_workers=len(GAMES) + 2) as pool:
        middle = {
            game: pool.submit(seated_table, server, game, SEEDS[game], None, MID_GAME[game])
            for game in GAMES
        }
        finished = pool.submit(seated_table, server, "auf-die-eier", REPLAYED_SEED, None)
        played = pool.submit(account_game, server, PLAYER)
        made = Tables(
            mid_game={game: future.result() for game, future in middle.items()},
            replayed=finished.result().removeprefix("/t/").split("#", 1)[0],
        )
        played.result()
    return made


def lesson_ready(page: Page) -> None:
    page.wait_for_selector("#lesson[data-at]")
    page.wait_for_selector("#board > *")


def replay_ready(page: Page) -> None:
    page.wait_for_selector("#position")


def profile_ready(page: Page) -> None:
    page.wait_for_selector("#profile[data-ready] #finished-list")


def table_ready(game: str) -> Callable[[Page], None]:
    """A table at its point in the middle, its moves offered."""

    def ready(page: Page) -> None:
        assert not wait_ready(page), f"the {game} table photographed in the middle is over"
        mid_game(game)(page)

    return ready


Visit = tuple[str, str, Callable[[Page], None]]
"""A page's name (in the reference's file name), its path, and what it must show first."""


def visits(tables: Tables) -> list[Visit]:
    """The pages photographed, in order."""
    return [
        ("account", "/account", signed_out),
        ("ratings", "/ratings", ratings_ready),
        ("rules", "/rules/auweier", rules_ready),
        ("lesson", f"/learn/{LESSON}", lesson_ready),
        *[(f"table-{game}", tables.mid_game[game], table_ready(game)) for game in GAMES],
        ("replay", f"/replay/{tables.replayed}", replay_ready),
        ("profile", f"/players/{PLAYER}", profile_ready),
    ]


def photograph(page: Page) -> bytes:
    """The page's first screen, still, with its volatile parts covered."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.wait_for_timeout(250)  # a frame for anything the last update laid out
    picture: bytes = page.screenshot(
        animations="disabled", caret="hide", mask=[page.locator(VOLATILE)]
    )
    return picture


def judged(name: str, png: bytes) -> str | None:
    """Compare (or, when updating, keep) one photograph; a failure's description or None."""
    picture = look.shrunk(png)
    reference = REFERENCES / f"{name}.png"
    if UPDATE:
        look.keep(picture, reference)
        return None
    if not reference.exists():
        look.keep(picture, SCREENS / "look" / f"{name}.png")
        return f"{name}: no reference (run python scripts/look.py to make the references)"
    with Image.open(reference) as opened:
        kept = opened.convert("RGB")
    difference = look.compare(picture, kept)
    if difference.agrees:
        return None
    look.keep(picture, SCREENS / "look" / f"{name}.png")
    if difference.size == difference.reference_size:
        look.keep(look.difference_picture(picture, kept), SCREENS / "look" / f"{name}-diff.png")
    return difference.describe(name)


def opened(
    new_context: NewContext, server: LiveServer, size: str, theme: str, language: str
) -> Page:
    """A page at the lobby in a new context of ``size``, ``theme`` and ``language`` (chosen
    with the page's own button, which the context then remembers), motion reduced."""
    context = new_context(color_scheme=theme, reduced_motion="reduce", **SIZES[size])
    page = context.new_page()
    page.goto(server.url + "/")
    lobby_ready(page)
    if language != "en":
        assert switch_language(page) == language
    return page


def for_the_docs(name: str) -> bool:
    """Whether ``name``'s photograph is one the README shows (``docs/screens``): the lobby,
    each game and the profile, on a desktop in English and on a phone in German, light and
    dark."""
    page, size, _, language = name.rsplit("-", 3)
    shown = page in {"lobby", "profile"} or page.startswith("table-")
    return shown and (size, language) in {("desktop", "en"), ("phone", "de")}


def photographed(page: Page, name: str, ready: Callable[[Page], None], language: str) -> str | None:
    """Wait for what the page must show, photograph it, and judge the picture (the docs'
    ones kept whole too, see :func:`docs_screens`)."""
    ready(page)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=language)
    png = photograph(page)
    if for_the_docs(name):
        (docs_screens() / f"look-{name}.png").write_bytes(png)
    return judged(name, png)


def failed(failures: list[str]) -> None:
    """Fail with every page that no longer looks as its reference, if any."""
    if failures:
        where = SCREENS.relative_to(REPO) / "look"
        pytest.fail(
            "pages that no longer look as their references (the new pictures and their "
            f"differences are in {where}):\n" + "\n".join(failures),
            pytrace=False,
        )


COMBINATIONS: Final = [
    (size, theme, language) for size in SIZES for theme in THEMES for language in LANGUAGES
]


@pytest.mark.parametrize(("size", "theme", "language"), COMBINATIONS)
def test_the_lobby_looks_as_its_reference(
    size: str, theme: str, language: str, server: LiveServer, new_context: NewContext
) -> None:
    """Photographed before the module makes its tables, so its lists are the same each run
    (runs first: pytest keeps a module's order)."""
    page = opened(new_context, server, size, theme, language)
    scheme = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    assert scheme == (theme == "dark")
    found = photographed(page, f"lobby-{size}-{theme}-{language}", lobby_ready, language)
    failed([] if found is None else [found])


@pytest.mark.parametrize(("size", "theme", "language"), COMBINATIONS)
def test_every_page_looks_as_its_reference(
    size: str, theme: str, language: str, server: LiveServer, tables: Tables,
    new_context: NewContext,
) -> None:  # fmt: skip
    page = opened(new_context, server, size, theme, language)
    failures: list[str] = []
    for name, path, ready in visits(tables):
        page.goto(server.url + path)
        found = photographed(page, f"{name}-{size}-{theme}-{language}", ready, language)
        if found is not None:
            failures.append(found)
    failed(failures)
