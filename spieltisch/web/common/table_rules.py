"""A table's house rules, chosen when it is made: its clock, what happens to a seat whose
person ran out of time or went away, and who may read the chat.

Three clocks, as friends and correspondence players expect them:

- ``none``: no time limit (friends in one room); a person away on their turn for longer than
  ``grace`` seconds is still taken over, so a table never waits forever on someone who left;
- ``relaxed``: ``per_move`` seconds for each move (say a day, for correspondence play);
  being away is normal there and never counts;
- ``live``: each person has a bank of ``bank`` seconds that runs on their turn, and gains
  ``increment`` seconds after each of their moves; away past ``grace`` counts too.

When a seat runs out of time or stays away too long, ``takeover`` says what happens: ``bot``
seats a stand-in bot at once (announced; the person takes the seat back by coming back), or
``vote`` lets the other people at the table vote to do so (any of them may start the vote).
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass
from typing import Any


class ClockMode(enum.StrEnum):
    """How a table keeps time."""

    NONE = "none"
    RELAXED = "relaxed"
    LIVE = "live"


class Takeover(enum.StrEnum):
    """What happens to a seat out of time or away too long."""

    BOT = "bot"
    VOTE = "vote"


class ChatMode(enum.StrEnum):
    """Who may read a table's chat (only seated people write)."""

    OFF = "off"
    PLAYERS = "players"
    EVERYONE = "everyone"


LIMITS: dict[str, tuple[float, float]] = {
    "bank": (30.0, 7 * 86400.0),
    "increment": (0.0, 3600.0),
    "per_move": (60.0, 14 * 86400.0),
    "grace": (0.0, 7 * 86400.0),
}
"""The least and most seconds each setting takes (a grace of 0: an away seat is never taken
over)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """The house rules of one table (the defaults suit friends playing live)."""

    clock: ClockMode = ClockMode.NONE
    bank: float = 300.0
    """Live clock: seconds in each person's bank at the start."""
    increment: float = 10.0
    """Live clock: seconds added to a person's bank after each of their moves."""
    per_move: float = 86400.0
    """Relaxed clock: seconds for each move."""
    grace: float = 120.0
    """Seconds a person may be away on their turn before the takeover (not with ``relaxed``)."""
    takeover: Takeover = Takeover.BOT
    chat: ChatMode = ChatMode.PLAYERS
    memory_aids: bool = False
    """The board keeps counts a player at the table would have to remember (Awimbawé's crowns
    in each scoring pile and the cards played this round; Auf die Nüsse!'s nuts not seen yet).
    Off by default: Awimbawé's rulebook lets a player look at the last trick only."""
    rated: bool = False
    """The game counts for its people's ratings: every person seat must be signed in (see
    :mod:`spieltisch.web.people.rated`)."""
    give_way: bool = True
    """A bot standing in for a person gives the seat back by itself when that person's turn
    comes and they are at the table (their page is open): a clock that ran out does not let a
    bot play out the game of someone sitting right there. Off: only the person's own
    "take my seat back" (or a move, or a new page) ends a stand-in."""

    def __post_init__(self) -> None:
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g} seconds")

    @property
    def counts_away(self) -> bool:
        """Whether being away on one's turn leads to a takeover."""
        return self.clock is not ClockMode.RELAXED and self.grace > 0

    def to_json(self) -> str:
        """As the database keeps it."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> TableRules:
        """Read the rules kept with a table (a table made before they existed: the defaults)."""
        data: Any = json.loads(text) if text else {}
        return cls.of(data if isinstance(data, dict) else {})

    @classmethod
    def of(cls, data: dict[str, Any]) -> TableRules:
        """The rules ``data`` names (missing ones default); ``ValueError`` for a bad value."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(
            clock=ClockMode(known.get("clock", ClockMode.NONE)),
            bank=float(known.get("bank", 300.0)),
            increment=float(known.get("increment", 10.0)),
            per_move=float(known.get("per_move", 86400.0)),
            grace=float(known.get("grace", 120.0)),
            takeover=Takeover(known.get("takeover", Takeover.BOT)),
            chat=ChatMode(known.get("chat", ChatMode.PLAYERS)),
            memory_aids=known.get("memory_aids", False) is True,
            rated=known.get("rated", False) is True,
            give_way=known.get("give_way", True) is not False,
        )

    def public(self) -> dict[str, Any]:
        """As pages show them."""
        return asdict(self)
