"""A game's words: what a surface says about its moves and events, in plain text.

Every surface (terminal, web, RL ``ansi`` rendering) draws a game its own way, but says the
same things: the label of a legal move, the sentence for an event, a line on what a move
brought about, the help text. A game keeps these here, as plain text without markup; spans
of notation a player may type are set in backticks (```stop```), which each surface shows
in its own way. :class:`Words` is the plain fallback a game's words build on. Words read
views only, never a true state.

Words speak the viewer's language. A game writes its words in English, each through
``self._`` (or ``self.ngettext`` for a count, ``N_`` for a text kept in a constant and
translated where it is used); a surface asks for them in another language with
:meth:`Words.speaking` and a :class:`Speech` (a loaded gettext catalog is one). The English
text is the msgid: ``scripts/catalogs.py`` extracts every one into the catalogs. A
placeholder is named (``"{player} stops."``), never built into the msgid with an f-string,
so that a translation may move it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Generic, Protocol, Self, TypeVar

from spieltisch.core.game import Hidden, Move

View = TypeVar("View")


class Speech(Protocol):
    """A language to speak in: gettext's two calls (a loaded catalog is one)."""

    def gettext(self, message: str, /) -> str:
        """``message`` in this language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The form for ``n`` of a text with a count, in this language."""
        ...


class English:
    """The source language: every msgid as it is written."""

    def gettext(self, message: str, /) -> str:
        """``message`` itself."""
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """English's two forms: one, and every other count."""
        return singular if n == 1 else plural


ENGLISH = English()


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``message`` for extraction where it is written; translate it where it is used."""
    return message


class Words(Generic[View]):
    """The plain words every game starts from; a game's words override what they say better.

    ``names`` are the seats' display names in seat order.
    """

    speech: Speech = ENGLISH
    """The language these words speak (see :meth:`speaking`)."""

    def speaking(self, speech: Speech) -> Self:
        """These words in the language of ``speech``."""
        other = copy.copy(self)
        other.speech = speech
        return other

    def _(self, message: str) -> str:
        """``message`` (English, as written) in the language these words speak."""
        return self.speech.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted text for ``n``, in the language these words speak (fill in
        ``{n}`` or other placeholders after)."""
        return self.speech.ngettext(singular, plural, n)

    def names_list(self, names: Sequence[str]) -> str:
        """Names joined as a sentence lists them: ``A``, ``A and B``, ``A, B and C``."""
        if len(names) <= 1:
            return "".join(names)
        return self._("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])

    def move_label(self, view: View, move: Move) -> str:
        """A legal move as listed for the player whose view this is."""
        del view
        return str(move)

    def event(self, view: View, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        """One sentence on a move as this viewer saw it (``view`` is from before the move;
        ``actor`` is the mover's name, or ``chance``)."""
        del view, names
        return self._("{actor}: {move}").format(actor=actor, move=move)

    def aftermath(self, before: View, after: View, names: Sequence[str]) -> str | None:
        """A sentence on what a move brought about (a score, a trick won), or ``None``."""
        del before, after, names
        return None

    def ending(self, view: View, names: Sequence[str]) -> str | None:
        """Why the game ended and who won, in a sentence, from a view of the finished game
        (``None`` if the game's words do not say)."""
        del view, names
        return None

    def many_moves(self, view: View, legal: Sequence[Move]) -> str:
        """What to say instead of listing very many moves."""
        del view
        return self.ngettext(
            "{n} move: type `moves` to list it with its number.",
            "{n} moves: type `moves` to list them all with their numbers.",
            len(legal),
        ).format(n=len(legal))

    def help(self) -> str:
        """The game's notation, in a few lines."""
        return self._("Type a move's number or its text as listed.")
