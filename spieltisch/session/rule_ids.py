"""Rule ids on the rules pages: which paragraph, list item, table row or heading is which rule.

A rules page names a rule by a trailing marker at the end of the block that states it::

    2. Any rotten egg that shows is put aside straight away ... {#eier.rotten-aside}
    | `P` | pot | one pot makes the Breakfast {#eier.face-pot} |

The marker ends the block's last line (in a table row, its last cell); the block is a heading,
a table row, a list item (its own lines, not the items nested in it) or a paragraph. An id is
the game's short name and the rule's, joined by dots: lower case letters, digits and hyphens.
Every language of a page carries the same ids, so a lesson, a board and a rules page can point
at a rule in any language.

:func:`rule_ids` reads the ids and their rules' text; :func:`strip_rule_ids` also returns the
page without its markers (for a renderer that shows the page as before);
:func:`split_marker` takes the marker off one piece of text (for a renderer that sets the id
on the element it builds); :func:`rule_blocks` gives each rule as Markdown that stands on its
own (a table row with its table's header), for a rule shown beside a board. Pure: text in,
data out.
"""

from __future__ import annotations

import re

from spieltisch.core.errors import SpieltischError

ID_PATTERN = r"[a-z][a-z0-9-]*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+"
"""A rule id: ``eier.throw``, ``eier.rotten-aside``."""
_MARKER = re.compile(r"[ \t]*\{#(?P<id>" + ID_PATTERN + r")\}[ \t]*(?P<pipe>\|)?[ \t]*$")
_ANY_MARKER = re.compile(r"\{#[^}\n]*\}")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_CELL_EDGE = re.compile(r"(?<!\\)\|")
r"""A table row's cell border: a pipe that is not escaped (``\|`` is a pipe in a cell)."""
_LEADING_MARKUP = re.compile(r"^[*_]+")
"""Emphasis before a block's first word (``**play a worm**``; notation in backticks starts
no sentence)."""


class RuleIdError(SpieltischError, ValueError):
    """A rules page's marker is malformed or names an id twice (rule: one id, one block)."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"rules page line {line}: {reason}")


def split_marker(text: str) -> tuple[str, str | None]:
    """``text`` without its trailing ``{#id}`` marker, and the id (``None`` if it has none)."""
    match = _MARKER.search(text)
    if match is None or match.group("pipe"):
        return text, None
    return text[: match.start()].rstrip(), match.group("id")


def rule_ids(markdown: str) -> dict[str, str]:
    """Every rule id of a rules page, in page order, with its rule's text (the block's
    Markdown on one line, without the marker, list bullet or heading hashes; a table row's
    cells joined by `` | ``). :class:`RuleIdError` for a malformed marker or a repeated id."""
    return strip_rule_ids(markdown)[1]


def rule_blocks(markdown: str) -> dict[str, str]:
    """Every rule id of a rules page with its rule as Markdown that stands on its own: a table
    row comes with its table's header (so it renders as a table, not as a line of pipes); a
    list item that goes on a sentence begun before its list comes with that sentence's start
    and the whole list; any other rule is its block's text, as :func:`rule_ids` gives it."""
    found = strip_rule_ids(markdown)[1]
    lines = markdown.split("\n")
    blocks = dict(found)
    for number, line in enumerate(lines):
        match = _MARKER.search(line)
        if match is None or not line.lstrip().startswith("|"):
            continue
        start = number
        while start > 0 and lines[start - 1].lstrip().startswith("|"):
            start -= 1
        if number < start + 2:
            continue  # the header row itself, or a table without one: its text as it is
        header = [_ANY_MARKER.sub("", row).rstrip() for row in lines[start : start + 2]]
        row = line[: match.start()].rstrip() + (" |" if match.group("pipe") else "")
        blocks[match.group("id")] = "\n".join([*header, row])
    for number, line in enumerate(lines):
        match = _MARKER.search(line)
        if match is None or line.lstrip().startswith("|"):
            continue
        if _LEADING_MARKUP.sub("", found[match.group("id")])[:1].islower():
            blocks[match.group("id")] = _whole_sentence(lines, number)
    return blocks


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _whole_sentence(lines: list[str], end: int) -> str:
    """A list item that goes on a sentence begun before its list ("...: with a card of the led
    land; otherwise ..."), as Markdown that reads whole: the sentence's start (the paragraph or
    the list item above the list) and the whole list it goes on with, markers taken off."""
    start = end
    while start > 0 and not _ITEM.match(lines[start]):
        start -= 1
    level = _indent(lines[start])

    def in_list(line: str) -> bool:
        same = bool(_ITEM.match(line)) and _indent(line) == level
        return bool(line.strip()) and (same or _indent(line) > level)

    first = start
    while first > 0 and in_list(lines[first - 1]):
        first -= 1
    while not (_ITEM.match(lines[first]) and _indent(lines[first]) == level):
        first += 1
    last = end
    while last + 1 < len(lines) and in_list(lines[last + 1]):
        last += 1
    above = first - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    lead: list[str] = []
    while above >= 0 and lines[above].strip():
        lead.insert(0, lines[above])
        if _ITEM.match(lines[above]) and _indent(lines[above]) < level:
            break  # the item whose sentence the list goes on
        if _starts_block(lines[above]) or not _continues(lines[above - 1] if above else ""):
            break
        above -= 1
    opening = _HEADING.sub("", _ITEM.sub("", " ".join(x.strip() for x in lead), count=1))
    items = [line[level:] if _indent(line) >= level else line for line in lines[first : last + 1]]
    text = "\n".join([opening, "", *items]) if opening else "\n".join(items)
    return "\n".join(part.rstrip() for part in _ANY_MARKER.sub("", text).split("\n")).strip()


def strip_rule_ids(markdown: str) -> tuple[str, dict[str, str]]:
    """The page without its markers, and :func:`rule_ids` of it."""
    lines = markdown.split("\n")
    found: dict[str, str] = {}
    kept: list[str] = []
    fenced = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _MARKER.search(line)
        if match is None:
            if not fenced and _ANY_MARKER.search(line):
                raise RuleIdError(number + 1, "a marker must be {#game.rule} at a block's end")
            kept.append(line)
            continue
        rule = match.group("id")
        if rule in found:
            raise RuleIdError(number + 1, f"the id {rule} names two rules")
        bare = line[: match.start()].rstrip()
        if match.group("pipe"):
            bare += " |"
        found[rule] = _block_text(lines, number, bare)
        if bare.strip() or match.group("pipe"):
            kept.append(bare)
    return "\n".join(kept), found


def _block_text(lines: list[str], end: int, last: str) -> str:
    """The text of the block whose last line is ``lines[end]`` (given without its marker)."""
    if last.lstrip().startswith("|"):
        cells = [c.strip().replace("\\|", "|") for c in _CELL_EDGE.split(last.strip().strip("|"))]
        while cells and not cells[-1]:  # a last cell that held only the marker
            cells.pop()
        return " | ".join(cells)
    block = [last]
    start = end
    while not _starts_block(lines[start]) and start > 0 and _continues(lines[start - 1]):
        start -= 1
        block.insert(0, lines[start])
    text = " ".join(part.strip() for part in block if part.strip())
    text = _HEADING.sub("", _ITEM.sub("", text, count=1), count=1)
    return re.sub(r"\s+", " ", text).strip()


def _starts_block(line: str) -> bool:
    return bool(_ITEM.match(line) or _HEADING.match(line) or line.lstrip().startswith("|"))


def _continues(previous: str) -> bool:
    """Whether a line after ``previous`` may continue ``previous``'s block."""
    stripped = previous.strip()
    return bool(stripped) and not _HEADING.match(previous) and not stripped.startswith("|")
