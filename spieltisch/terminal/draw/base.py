"""How a game is drawn in the terminal: the renderer protocol and a plain fallback.

A game's ``terminal`` module defines ``RENDERER``, an object with the methods of
:class:`Renderer`; it reads views only. Games without one are shown by :class:`PlainRenderer`,
which prints the view as JSON.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text

from spieltisch.core.codec import to_jsonable
from spieltisch.core.game import Game, Move

SEAT_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan")


@dataclass(frozen=True, slots=True)
class Table:
    """What the loop hands a renderer besides the view: names and the recent events."""

    names: tuple[str, ...]
    events: tuple[str, ...]

    def player(self, seat: int) -> Text:
        """The seat's name in its colour."""
        return Text(self.names[seat], style=f"bold {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}")


class Renderer:
    """The plain renderer; game renderers subclass it and override what they draw better."""

    def table(self, view: object, table: Table) -> RenderableType:
        """The whole table as ``view``'s owner sees it."""
        data = json.dumps(to_jsonable(view), ensure_ascii=False, indent=1)
        events = "\n".join(table.events[-5:])
        return Text(f"{data}\n{events}")

    def move_label(self, view: object, move: Move) -> str:
        """A move as listed in the menu."""
        del view
        return str(move)

    def describe(self, view: object, move_text: str, table: Table, actor: str) -> str:
        """One line telling what just happened (``view`` is from before the move)."""
        del view, table
        return f"{actor}: {move_text}"

    def aftermath(self, before: object, after: object, table: Table) -> str | None:
        """A line on what a move brought about (a score, a trick won), or ``None``."""
        del before, after, table
        return None

    def many_moves_hint(self, view: object, legal: Sequence[Move]) -> str:
        """What to say instead of listing very many moves."""
        del view
        return f"{len(legal)} moves: type 'moves' to list them all with their numbers."

    def help(self) -> str:
        """The game's notation, in a few lines."""
        return "Type a move's number or its text as listed."


PlainRenderer = Renderer


def renderer_for(game: Game) -> Renderer:
    """The renderer of ``game``'s ``terminal`` module, or the plain one."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.terminal")
    except ModuleNotFoundError:
        return PlainRenderer()
    renderer: Renderer = module.RENDERER
    return renderer
