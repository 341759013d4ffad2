"""Text that may enter the server: every string a client sends is checked here before it is
used, so that none can break an encoder, a database or a log line.

A text (:func:`check_text`; a request's string field, :data:`~spieltisch.web.routes.fields.Field`)
is refused unless it is valid Unicode (no lone surrogate) without control or formatting characters.
A display name (:func:`display_name`) is further normalised (NFKC, spaces folded) and refused if it
is empty or invisible, carries a right-to-left override or any bidirectional control, imitates a
bot, chance or a name the server gives seats itself (a free seat's ``Seat 2``, in every language
pages show it in: ``Platz 2``; a deleted account's :data:`FORMER_PLAYER`), or is too long.

:func:`control_in` is the door's check (:mod:`~spieltisch.web.routes.guard`): a request's path
and query with a control character are refused before any route sees them.
"""

from __future__ import annotations

import re
import unicodedata

from spieltisch.core.words import N_

MAX_NAME = 40
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
"""Control, formatting (bidi overrides and zero-width marks among them), surrogate,
private-use, unassigned, and line or paragraph separator characters."""
BOT_LIKE = re.compile(r"^\s*(bot|chance|zufall)\b", re.IGNORECASE)
"""Names that would read as a bot's seat (``Bot 2 (ismcts)``) or as chance in the log."""
FORMER_PLAYER = "former player"
"""What a deleted account's seats are called (no person may take the name)."""
FREE_SEAT = re.compile(r"^(seat|platz)\s*#?\s*\d+$", re.IGNORECASE)
"""Names that would read as a free seat's (the server keeps ``Seat 2``; a German page shows
``Platz 2``)."""


class TextError(ValueError):
    """A text the server does not take, and why."""


def check_text(text: str) -> str:
    """``text`` unchanged if it is valid Unicode without control or format characters."""
    for ch in text:
        category = unicodedata.category(ch)
        if category in _FORBIDDEN:
            raise TextError(f"the text holds a character that is not allowed (U+{ord(ch):04X})")
    return text


def display_name(name: object) -> str:
    """A person's name as the table keeps it; :class:`TextError` if it cannot be one."""
    if not isinstance(name, str):
        raise TextError("a display name is needed")
    folded = unicodedata.normalize("NFKC", name)
    check_text(folded.replace("\t", " "))
    clean = " ".join(folded.split())
    if not clean or not any(unicodedata.category(ch)[0] in "LNS" for ch in clean):
        raise TextError("a display name needs letters or digits")
    if len(clean) > MAX_NAME:
        raise TextError(f"a display name has at most {MAX_NAME} characters")
    if BOT_LIKE.match(clean):
        raise TextError(N_("a person's name may not look like a bot's or like chance"))
    folded_name = clean.casefold()
    if folded_name == FORMER_PLAYER:
        raise TextError(N_("this name is kept for players who deleted their account"))
    if FREE_SEAT.match(folded_name):
        raise TextError(N_("a person's name may not look like a free seat's"))
    return clean


def control_in(text: str) -> bool:
    """Whether ``text`` holds a control character (NUL among them) or a lone surrogate, which
    no database, log line or encoder should ever be handed."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def same_name(one: str, other: str) -> bool:
    """Whether two names would read as the same at a table (case and width folded)."""
    return (
        unicodedata.normalize("NFKC", one).casefold()
        == unicodedata.normalize("NFKC", other).casefold()
    )
