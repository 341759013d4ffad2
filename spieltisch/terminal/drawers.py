"""Which drawer draws which game in the terminal, by game id; others get the plain one."""

from __future__ import annotations

from typing import Any

from spieltisch.terminal.draw import auf_die_eier, auf_die_nuesse, auweier, awimbawe
from spieltisch.terminal.draw.base import Drawer

DRAWERS: dict[str, Drawer[Any]] = {
    "auf-die-eier": auf_die_eier.DRAWER,
    "auf-die-nuesse": auf_die_nuesse.DRAWER,
    "auweier": auweier.DRAWER,
    "awimbawe": awimbawe.DRAWER,
}


def drawer_for(game_id: str) -> Drawer[Any]:
    """The drawer of ``game_id``, or the plain one (the view as JSON) for a game without."""
    return DRAWERS.get(game_id) or Drawer()
