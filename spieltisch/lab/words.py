"""Counts in the lab's reports read right: ``1 worker``, ``2 workers`` (the reports are English
Markdown files, not translated, so this is plain English and not the catalogs' ngettext)."""

from __future__ import annotations


def counted(count: object, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``plural`` for a
    noun that does not take an s); a count that is not a number (``?``) takes the plural."""
    one = count == 1 and not isinstance(count, bool)
    return f"{count} {noun if one else plural or noun + 's'}"
