"""Text that may enter the server: every string a client sends is checked here before it is
used, so that none can break an encoder, a database or a log line.

A text (:func:`check_text`; a request's string field, :data:`~spieltisch.web.routes.fields.Field`)
is refused unless it is valid Unicode (no lone surrogate) without control or formatting characters.
A display name (:func:`display_name`) is further normalised (NFKC, spaces folded) and refused if it
is empty or invisible, carries a right-to-left override or any bidirectional control, imitates a
bot, or is too long.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 40
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
"""Control, formatting (bidi overrides and zero-width marks among them), surrogate,
private-use, unassigned, and line or paragraph separator characters."""
BOT_LIKE = re.compile(r"^\s*(bot|chance|zufall)\b", re.IGNORECASE)
"""Names that would read as a bot's seat (``Bot 2 (ismcts)``) or as chance in the log."""


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
        raise TextError("a person's name may not look like a bot's or like chance")
    return clean


def same_name(one: str, other: str) -> bool:
    """Whether two names would read as the same at a table (case and width folded)."""
    return (
        unicodedata.normalize("NFKC", one).casefold()
        == unicodedata.normalize("NFKC", other).casefold()
    )
