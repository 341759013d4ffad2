"""Time at a table: whose time runs, how much is left, and when a seat is out of it.

Everything here reads the time from a :class:`Clock` handed in (the system's wall clock in a
server, a :class:`ManualClock` that a test moves on), never from the clock itself, so that
tests of the clock never sleep. Wall-clock seconds, not monotonic ones, since servers sharing
a database compare the times they store.

The turn of the seat to move starts when a move is committed (``LiveTable.turn_since``). With
a live clock the mover's bank is charged what the move took and gains the increment; with a
relaxed clock each move has its own allowance. A person seat is *due* for a takeover when its
time is up, or (where the house rules count it) when it has been away for the grace period
during its turn; a seat a bot stands in for is never due.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol

from spieltisch.web.common.table_rules import ClockMode, TableRules
from spieltisch.web.store.table_store import SeatRow

RETURN_BANK = 60.0
"""Seconds a live clock gives back, at least, to a person who returns after a takeover."""


class Clock(Protocol):
    """Where the time comes from."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    """The machine's wall clock."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()


class ManualClock:
    """A clock that moves only when told to (for tests)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        """The time it was set to."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the time on."""
        self._now += seconds


def start_banks(seats: list[SeatRow], rules: TableRules) -> list[SeatRow]:
    """The seats as a game starts: each person's bank full under a live clock."""
    if rules.clock is not ClockMode.LIVE:
        return seats
    return [replace(s, bank=rules.bank) if s.person else s for s in seats]


def charge(seat: SeatRow, rules: TableRules, since: float | None, now: float) -> SeatRow:
    """``seat`` after a move of its own, made after thinking since ``since``: its bank
    charged the time taken, then given the increment (a live clock only)."""
    if rules.clock is not ClockMode.LIVE or not seat.person or since is None:
        return seat
    left = max(0.0, (seat.bank if seat.bank is not None else rules.bank) - (now - since))
    return replace(seat, bank=left + rules.increment)


def remaining(
    seat: SeatRow, rules: TableRules, to_act: int | None, since: float | None, now: float
) -> float | None:
    """Seconds ``seat`` has left: its bank (running down on its turn) under a live clock, the
    rest of the move's allowance on its turn under a relaxed one; ``None`` without a limit."""
    if not seat.person or rules.clock is ClockMode.NONE:
        return None
    running = seat.seat == to_act and since is not None and seat.stand_in is None
    used = now - since if running and since is not None else 0.0
    if rules.clock is ClockMode.LIVE:
        return max(0.0, (seat.bank if seat.bank is not None else rules.bank) - used)
    return max(0.0, rules.per_move - used) if running else None


def due(
    seat: SeatRow,
    rules: TableRules,
    to_act: int | None,
    since: float | None,
    away_since: float | None,
    now: float,
) -> str | None:
    """Why the seat to move is due for a takeover (``time`` or ``away``), or ``None``."""
    if seat.seat != to_act or not seat.person or seat.stand_in is not None:
        return None
    left = remaining(seat, rules, to_act, since, now)
    if left is not None and left <= 0:
        return "time"
    if rules.counts_away and away_since is not None:
        waited = now - max(away_since, since if since is not None else away_since)
        if waited >= rules.grace:
            return "away"
    return None


def back(seat: SeatRow, rules: TableRules) -> SeatRow:
    """``seat`` as its person returns: no stand-in, and a live bank of at least a minute (or
    the whole bank, if that is less), so that coming back is not losing again at once."""
    bank = seat.bank
    if rules.clock is ClockMode.LIVE:
        bank = max(bank or 0.0, min(rules.bank, RETURN_BANK))
    return replace(seat, stand_in=None, bank=bank)
