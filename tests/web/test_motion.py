"""Motion: every animation is short, and under reduced motion there is none.

The lobby and a table of each game in the middle of a game are opened twice: once as a
browser that asks for reduced motion, once as one that does not. The page's every element is
read for its computed CSS animation and transition durations and delays, and every animation
a script starts (``Element.animate``, watched from before the page's own scripts run) is
noted with its duration and delay, while the person plays a move and the bot answers. With
reduced motion asked for, every duration and delay is zero; without, none is longer than
:data:`LONGEST` and none waits longer than :data:`LONGEST` to begin.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import pytest

from .conftest import LiveServer, require_browser

require_browser()

from playwright.sync_api import Page  # noqa: E402 - after the skip

from .test_axe import MID_GAME, lobby_ready, mid_game, seated_table  # noqa: E402
from .test_browser import GAMES, NewContext, show_moves  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LONGEST: Final = 0.4
"""Seconds: the longest an animation may take, or wait to begin."""
WATCH: Final = """
window.__motions = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const timing = typeof options === "number" ? { duration: options } : (options ?? {});
  window.__motions.push({ duration: Number(timing.duration ?? 0) / 1000,
                          delay: Number(timing.delay ?? 0) / 1000,
                          element: this.tagName });
  return animate.call(this, keyframes, options);
};
"""
"""Run before the page's scripts: note every animation a script starts."""
STYLED: Final = """() => {
  const seconds = (list) => list.split(",").map((s) => s.trim())
    .map((s) => s.endsWith("ms") ? parseFloat(s) / 1000 : parseFloat(s));
  const found = [];
  for (const element of document.querySelectorAll("*")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(element, pseudo);
      const name = element.tagName + "." + String(element.className?.baseVal ?? element.className)
        + (pseudo ?? "");
      if (style.animationName !== "none") {
        found.push({ what: "animation", name,
                     duration: Math.max(...seconds(style.animationDuration)),
                     delay: Math.max(...seconds(style.animationDelay)) });
      }
      const lasting = Math.max(...seconds(style.transitionDuration));
      if (lasting > 0 || Math.max(...seconds(style.transitionDelay)) > 0) {
        found.push({ what: "transition", name, duration: lasting,
                     delay: Math.max(...seconds(style.transitionDelay)) });
      }
    }
  }
  return found;
}"""
"""Every element's CSS animations and transitions, with their longest duration and delay."""


@pytest.fixture(scope="module")
def server(module_server: LiveServer) -> LiveServer:
    return module_server


MODES: Final = ("reduce", "no-preference")


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> dict[tuple[str, str], str]:
    """Two tables of each game in its middle, waiting for their person (one for each motion
    setting, as a move is played at each): the seat links, by setting and game."""
    with ThreadPoolExecutor(max_workers=len(GAMES)) as pool:
        made = {
            (mode, game): pool.submit(seated_table, server, game, 30 + index, None, MID_GAME[game])
            for mode in MODES
            for index, game in enumerate(GAMES)
        }
        return {key: future.result() for key, future in made.items()}


def motions(page: Page, path: str, ready: Callable[[Page], None], move: bool) -> list[Any]:
    """Open ``path``, wait for ``ready``, play the first move offered (if ``move``) and let
    the bot answer; every motion found (CSS and scripted)."""
    page.add_init_script(WATCH)
    page.goto(path)
    ready(page)
    if move:
        show_moves(page)
        page.locator("#moves button.move:not([disabled])").first.click()
        page.wait_for_timeout(1_500)  # the move, the bot's answer, their drawings
    styled: list[Any] = page.evaluate(STYLED)
    scripted: list[Any] = page.evaluate("() => window.__motions")
    return styled + [{"what": "script", **found} for found in scripted]


def watched(
    at: str, mode: str, server: LiveServer, tables: dict[tuple[str, str], str]
) -> tuple[str, Callable[[Page], None], bool]:
    """The page watched at ``at`` (the lobby, or a game's table, where a move is played): its
    address, what it must show first, and whether a move is played."""
    if at == "lobby":
        return server.url + "/", lobby_ready, False
    return server.url + tables[(mode, at)], mid_game(at), True


ALLOWED: Final = {"reduce": 0.0, "no-preference": LONGEST}
"""The longest duration or delay each motion setting allows, in seconds."""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("at", ["lobby", *GAMES])
def test_motion_is_short_and_none_under_reduced_motion(
    at: str, mode: str, server: LiveServer, tables: dict[tuple[str, str], str],
    new_context: NewContext,
) -> None:  # fmt: skip
    path, ready, move = watched(at, mode, server, tables)
    page = new_context(reduced_motion=mode).new_page()
    found = motions(page, path, ready, move)
    longer = [f for f in found if max(f["duration"], f["delay"]) > ALLOWED[mode]]
    assert not longer, f"{at} ({mode}): motion longer than {ALLOWED[mode]} s: {longer[:5]}"
