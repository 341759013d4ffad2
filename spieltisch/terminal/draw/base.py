"""How a game is drawn in the terminal: the drawer base, and the words set in rich text.

A game's drawer (``draw/<game>.py``) lays out its view with rich: layout and colour only.
What is said about moves and events comes from the game's words (plain text); :func:`markup`
sets a words text for the terminal, its backticked notation in bold. :class:`Drawer` itself
is the plain fallback for a game with no drawer of its own: the view as JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Generic, TypeVar

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from spieltisch.core.codec import to_jsonable

View = TypeVar("View")

SEAT_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan")
"""Each seat's colour; seat ``p`` plays ``SEAT_COLOURS[p]`` (Auweier's colours in its order)."""
_NOTATION = re.compile(r"`([^`]*)`")


def markup(text: str) -> str:
    """A words text as rich markup: escaped, with each ```notation``` span in bold."""
    return _NOTATION.sub(lambda m: f"[bold]{m.group(1)}[/]", escape(text))


def plain(text: str) -> str:
    """A words text without its notation marks."""
    return _NOTATION.sub(lambda m: m.group(1), text)


def seat_colour_name(seat: int) -> str:
    """The seat's colour in words."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_letter(seat: int) -> str:
    """The seat's colour as one capital letter (``R``, ``B``, ``G``, ``Y``, ``M``, ``C``), for
    screens read without colour vision."""
    return seat_colour_name(seat)[0].upper()


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the loop hands a drawer besides the view: names and the recent events."""

    names: tuple[str, ...]
    events: tuple[str, ...]

    def player(self, seat: int) -> Text:
        """The seat's name in its colour."""
        return Text(self.names[seat], style=f"bold {seat_colour_name(seat)}")


class Drawer(Generic[View]):
    """The plain drawer; a game's drawer subclasses it and draws its table better."""

    score_label = "points"
    """What the game's scores count, as the final table heads its column."""

    def table(self, view: View, table: TableInfo) -> RenderableType:
        """The whole table as ``view``'s owner sees it."""
        data = json.dumps(to_jsonable(view), ensure_ascii=False, indent=1)
        events = "\n".join(table.events[-5:])
        return Text(f"{data}\n{events}")
