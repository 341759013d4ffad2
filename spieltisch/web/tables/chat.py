"""A table's notes: what its people say (chat) and what happened to its seats (notices).

Chat is text only: a line is stripped of control and formatting characters, bounded in
length, rate-limited per connection, kept with the table, and always shown as text (the page
never reads it as HTML). Only seated people write; who may read is the table's choice
(:class:`~spieltisch.web.common.table_rules.ChatMode`): its players, everyone watching too, or
nobody.

Notices ("Bob's time ran out: a bot plays for them", "Bob is back") are for everyone at the
table, spectators included; they carry a key and names, never a sentence, so that each page
says them in its own language. Nothing in a note comes from the game's state, so a note
cannot carry hidden information.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.table_rules import ChatMode
from spieltisch.web.store.db import NOTES
from spieltisch.web.tables.table import Connection, LiveTable

MAX_CHAT = 300
"""The longest chat line, in characters."""
KEPT_NOTES = 100
"""Notes a page is sent when it opens (the newest)."""
CHAT = "chat"
NOTICE = "notice"


@dataclass(frozen=True, slots=True)
class Note:
    """One chat line or notice."""

    idx: int
    kind: str
    seat: int | None
    version: int
    text: str
    at: float

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """As a page receives it: a chat line with its writer's name, or a notice's key and
        arguments."""
        item: dict[str, Any] = {"idx": self.idx, "kind": self.kind, "version": self.version}
        item["at"] = round(self.at, 3)
        if self.kind == CHAT:
            item["seat"] = self.seat
            item["name"] = names[self.seat] if self.seat is not None else ""
            item["text"] = self.text
        else:
            item["notice"] = json.loads(self.text)
        return item


class ChatError(ValueError):
    """A chat line that cannot be sent, and why."""


def clean_line(text: object) -> str:
    """A chat line as it is kept: one line of printable text; :class:`ChatError` if there is
    nothing left or too much."""
    if not isinstance(text, str):
        raise ChatError("a chat line is text")
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", text)
        if ch.isspace() or unicodedata.category(ch) not in {"Cc", "Cf", "Cs", "Co", "Cn"}
    )
    line = " ".join(kept.split())
    if not line:
        raise ChatError("the chat line is empty")
    if len(line) > MAX_CHAT:
        raise ChatError(f"a chat line has at most {MAX_CHAT} characters")
    return line


def may_read(mode: ChatMode, viewer: int | None) -> bool:
    """Whether ``viewer`` (``None``: a spectator) may read the chat of a table with ``mode``."""
    if mode is ChatMode.OFF:
        return False
    return viewer is not None or mode is ChatMode.EVERYONE


def visible(notes: Sequence[Note], mode: ChatMode, viewer: int | None) -> list[Note]:
    """The notes ``viewer`` may see: every notice, and the chat if they may read it."""
    reads = may_read(mode, viewer)
    return [n for n in notes if n.kind == NOTICE or reads]


def notice(key: str, **names: object) -> str:
    """A notice's text as kept: its key and what it names."""
    return json.dumps({"key": key, **names}, sort_keys=True, ensure_ascii=False)


# --- kept with the table --------------------------------------------------------------------


def add_note(
    engine: Engine, table_id: str, kind: str, seat: int | None, version: int, text: str
) -> Note:
    """Append a note to the table's notes (the next index; retried if another server took
    it first)."""
    for _ in range(5):
        try:
            with engine.begin() as db:
                last = db.execute(
                    sa.select(sa.func.max(NOTES.c.idx)).where(NOTES.c.table_id == table_id)
                ).scalar()
                idx = 0 if last is None else int(last) + 1
                at = time.time()
                db.execute(
                    NOTES.insert().values(
                        table_id=table_id, idx=idx, kind=kind, seat=seat,
                        version=version, text=text, at=at,
                    )
                )  # fmt: skip
            return Note(idx, kind, seat, version, text, at)
        except IntegrityError:
            continue
    raise ChatError("the note could not be saved; try again")


def load_notes(engine: Engine, table_id: str, after: int = -1) -> list[Note]:
    """The table's newest notes (at most :data:`KEPT_NOTES`) after index ``after``, oldest
    first."""
    with engine.connect() as db:
        rows = db.execute(
            sa.select(NOTES)
            .where(NOTES.c.table_id == table_id, NOTES.c.idx > after)
            .order_by(NOTES.c.idx.desc())
            .limit(KEPT_NOTES)
        ).mappings()
        notes = [
            Note(r["idx"], r["kind"], r["seat"], r["version"], r["text"], r["at"]) for r in rows
        ]
    return notes[::-1]


def notes_message(notes: Sequence[Note], names: Sequence[str]) -> dict[str, Any]:
    """The message that brings a page the notes it may see."""
    return {"type": "notes", "notes": [n.to_json(names) for n in notes]}


# --- at a live table ------------------------------------------------------------------------


class NoteHub(Protocol):
    """What keeping a note needs of the hub."""

    engine: Engine

    async def write(self, function: Callable[..., Any], *args: Any) -> Any: ...


async def keep_note(hub: NoteHub, live: LiveTable, kind: str, seat: int | None, text: str) -> None:
    """Keep a note with the table and show it to every page here that may see it (other
    server processes hear of it through the database and show it to theirs)."""
    kept = await hub.write(add_note, hub.engine, live.id, kind, seat, live.shown, text)
    live.notes_seen = max(live.notes_seen, kept.idx)
    message = notes_message([kept], live.names())
    for connection in list(live.connections):
        if visible([kept], live.rules.chat, connection.viewer):
            connection.send(message)


async def say(hub: NoteHub, live: LiveTable, connection: Connection, text: object) -> None:
    """A seated person's chat line; :class:`RefusedError` if it cannot be said."""
    seat = live.holder(connection.token_hash)
    if seat is None:
        raise RefusedError("only the people at the table chat", 403)
    if not may_read(live.rules.chat, seat):
        raise RefusedError("this table has no chat", 403)
    try:
        line = clean_line(text)
    except ChatError as error:
        raise RefusedError(str(error)) from None
    await keep_note(hub, live, CHAT, seat, line)
