"""How a game is drawn in the terminal: the drawer base, and the words set in rich text.

A game's drawer (``draw/<game>.py``) lays out its view with rich: layout and colour only.
What is said about moves and events comes from the game's words (plain text); :func:`markup`
sets a words text for the terminal, its backticked notation in bold. :class:`Drawer` itself
is the plain fallback for a game with no drawer of its own: the view as JSON.

A drawer speaks the table's language: every word it shows is a msgid of the catalogs
(English as written), said through :class:`TableInfo`'s ``speech`` (``table._("Score
sheet")``, a placeholder named and filled after translating; :func:`sentence` fills one with
styled text, such as a player's name in their colour). The seats' colour letters and the
games' notation stay as they are in every language.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from spieltisch.core.codec import to_jsonable
from spieltisch.core.words import ENGLISH, N_, English, Speech

View = TypeVar("View")

SEAT_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan")
"""Each seat's colour; seat ``p`` plays ``SEAT_COLOURS[p]`` (Auweier's colours in its order)."""
COLOUR_WORDS = (N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("magenta"), N_("cyan"))
"""Each seat's colour in words (English; said in the table's language where it is shown)."""
_NOTATION = re.compile(r"`([^`]*)`")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def markup(text: str) -> str:
    """A words text as rich markup: escaped, with each ```notation``` span in bold."""
    return _NOTATION.sub(lambda m: f"[bold]{m.group(1)}[/]", escape(text))


def plain(text: str) -> str:
    """A words text without its notation marks."""
    return _NOTATION.sub(lambda m: m.group(1), text)


def sentence(template: str, /, **parts: str | Text) -> Text:
    """``template`` (a text already translated, with named placeholders) as rich text, each
    placeholder filled with its part: a styled :class:`Text` keeps its style, a string is
    plain. ``sentence(table._("{player} to go."), player=table.player(seat))``."""
    text = Text()
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        text.append(template[position : match.start()])
        part = parts[match.group(1)]
        if isinstance(part, Text):
            text.append_text(part)
        else:
            text.append(part)
        position = match.end()
    text.append(template[position:])
    return text


def speaks_source(speech: Speech) -> bool:
    """True when ``speech`` says every msgid as it is written: English, the source language
    (:data:`~spieltisch.core.words.ENGLISH`, or gettext's catalog-less translations)."""
    return isinstance(speech, English) or type(speech) is gettext.NullTranslations


def seat_colour_name(seat: int, speech: Speech = ENGLISH) -> str:
    """The seat's colour in words, in the language of ``speech``."""
    return speech.gettext(COLOUR_WORDS[seat % len(COLOUR_WORDS)])


def seat_letter(seat: int) -> str:
    """The seat's colour as one capital letter (``R``, ``B``, ``G``, ``Y``, ``M``, ``C``), for
    screens read without colour vision; the same letter in every language."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][0].upper()


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the loop hands a drawer besides the view: names, the recent events, and the
    language the table speaks (English unless given)."""

    names: tuple[str, ...]
    events: tuple[str, ...]
    speech: Speech = ENGLISH
    """Says the drawer's words (msgids of the catalogs) in the table's language."""

    def _(self, message: str) -> str:
        """``message`` (an English msgid, as written) in the table's language."""
        return self.speech.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted text for ``n`` in the table's language (fill in ``{n}``
        after)."""
        return self.speech.ngettext(singular, plural, n)

    def player(self, seat: int) -> Text:
        """The seat's name in its colour."""
        return Text(self.names[seat], style=f"bold {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}")

    def turn_of(self, seat: int) -> str:
        """Whose turn it is, as a table's subtitle says it: ``Ann's turn``."""
        return self._("{player}'s turn").format(player=self.names[seat])

    def recent(self, events: Sequence[str]) -> Text:
        """The last few events in one dimmed line."""
        return Text(self._("Recent: {events}").format(events=" | ".join(events)), style="dim")


class Drawer(Generic[View]):
    """The plain drawer; a game's drawer subclasses it and draws its table better."""

    score_label = N_("points")
    """What the game's scores count, as the final table heads its column (English; said in the
    table's language where it is shown)."""

    def table(self, view: View, table: TableInfo) -> RenderableType:
        """The whole table as ``view``'s owner sees it."""
        data = json.dumps(to_jsonable(view), ensure_ascii=False, indent=1)
        events = "\n".join(table.events[-5:])
        return Text(f"{data}\n{events}")
