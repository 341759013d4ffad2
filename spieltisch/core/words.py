"""A game's words: what a surface says about its moves and events, in plain text.

Every surface (terminal, web, RL ``ansi`` rendering) draws a game its own way, but says the
same things: the label of a legal move, the sentence for an event, a line on what a move
brought about, the help text. A game keeps these here, as plain text without markup; spans
of notation a player may type are set in backticks (```stop```), which each surface shows
in its own way. :class:`Words` is the plain fallback a game's words build on. Words read
views only, never a true state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from spieltisch.core.game import Hidden, Move

View = TypeVar("View")


class Words(Generic[View]):
    """The plain words every game starts from; a game's words override what they say better.

    ``names`` are the seats' display names in seat order.
    """

    def move_label(self, view: View, move: Move) -> str:
        """A legal move as listed for the player whose view this is."""
        del view
        return str(move)

    def event(self, view: View, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        """One sentence on a move as this viewer saw it (``view`` is from before the move;
        ``actor`` is the mover's name, or ``chance``)."""
        del view, names
        return f"{actor}: {move}"

    def aftermath(self, before: View, after: View, names: Sequence[str]) -> str | None:
        """A sentence on what a move brought about (a score, a trick won), or ``None``."""
        del before, after, names
        return None

    def many_moves(self, view: View, legal: Sequence[Move]) -> str:
        """What to say instead of listing very many moves."""
        del view
        return f"{len(legal)} moves: type `moves` to list them all with their numbers."

    def help(self) -> str:
        """The game's notation, in a few lines."""
        return "Type a move's number or its text as listed."
