"""Page weight: what a first visit transfers, fonts and drawings included, stays under 500 KB.

A new browser context (an empty cache) opens the lobby, and then, in another new context, a
table of each game seated against a bot in the middle of a game. Every response the page
received is added up as it came over the wire (its headers and its body as sent, compressed
where the server compressed it); the lobby's stream of live lists is left out, as it never
ends. One line per page gives the total and the largest files (run pytest with ``-s`` to read
them); CI prints them from the file ``SPIELTISCH_WEIGHT_REPORT`` names.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Final

import pytest

from .conftest import LiveServer, require_browser

require_browser()

from playwright.sync_api import Page, Response  # noqa: E402 - after the skip

from .test_axe import MID_GAME, lobby_ready, mid_game, seated_table  # noqa: E402
from .test_browser import GAMES, NewContext  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

BUDGET: Final = 500_000
"""The most bytes a first load may transfer."""
SETTLE_MS: Final = 1_000
"""How long the page may go on loading (a board's module, its drawings) after it is ready."""
LARGEST: Final = 4
STREAM: Final = "text/event-stream"


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    return module_server


def weighed(page: Page, path: str, ready: Callable[[Page], None], base: str) -> dict[str, int]:
    """Open ``path`` in ``page`` (whose context is new), wait for ``ready`` and a moment more;
    the bytes each response brought, by URL."""
    received: list[Response] = []

    def note(response: Response) -> None:
        received.append(response)

    page.on("response", note)
    page.goto(base + path)
    ready(page)
    page.wait_for_timeout(SETTLE_MS)
    sizes: dict[str, int] = {}
    for response in received:
        if STREAM in response.headers.get("content-type", ""):
            continue  # the lobby's live lists: a stream that never ends, not the page
        measured = response.request.sizes()
        sizes[response.url.removeprefix(base)] = (
            measured["responseHeadersSize"] + measured["responseBodySize"]
        )
    return sizes


def line(name: str, sizes: dict[str, int]) -> str:
    """The page's total and its largest files, in one line."""
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:LARGEST]
    files = ", ".join(f"{url.split('?')[0]} {size / 1000:.1f}" for url, size in largest)
    return f"{name}: {sum(sizes.values()) / 1000:.1f} KB in {len(sizes)} files (largest: {files})"


def report(text: str) -> None:
    """Print ``text`` and add it to the file ``SPIELTISCH_WEIGHT_REPORT`` names, if any."""
    print(text)
    path = os.environ.get("SPIELTISCH_WEIGHT_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(text + "\n")


def test_the_lobby_weighs_under_the_budget(server: LiveServer, new_context: NewContext) -> None:
    sizes = weighed(new_context().new_page(), "/", lobby_ready, server.url)
    report(line("lobby", sizes))
    assert any(url.endswith(".woff2") for url in sizes), "the fonts were not loaded"
    assert sum(sizes.values()) < BUDGET, line("lobby", sizes)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_weighs_under_the_budget(
    game: str, server: LiveServer, new_context: NewContext
) -> None:
    link = seated_table(server, game, 90 + GAMES.index(game), None, MID_GAME[game])
    sizes = weighed(new_context().new_page(), link, mid_game(game), server.url)
    report(line(f"table {game}", sizes))
    assert any(f"/draw/{game.replace('-', '_')}.js" in url for url in sizes)
    assert sum(sizes.values()) < BUDGET, line(f"table {game}", sizes)
