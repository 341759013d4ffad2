"""What the server keeps of a live table in memory, and of each open page: plain data that the
hub and every concern beside it (seats, presence, the clock, takeovers, chat, rematches) share.

A :class:`Connection` remembers the token it said hello with (its hash), never just the seat:
every move checks that token against the seat as it stands now, so a token whose seat changed
hands stops acting at once.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

import spieltisch
from spieltisch.core import fair
from spieltisch.core.game import Game, PlayerId
from spieltisch.core.kit import GameKit
from spieltisch.core.record import Record
from spieltisch.core.words import N_
from spieltisch.games import kit_of
from spieltisch.session import Steps, Table
from spieltisch.web.common.table_rules import TableRules
from spieltisch.web.common.tokens import matches, token_hash
from spieltisch.web.store.table_store import SeatRow, TableRow
from spieltisch.web.tables.bots import BotJob

HISTORY = 16
"""States a live table keeps in memory: the last 16 and every 16th (older ones are rebuilt
from the nearest kept one when a replay or a late page asks). Fewer kept states make a full
garbage collection shorter (states and their views were most of the heap's references with
64 kept: 0.6 s a collection at 200 tables); 16 is about the fewest for games of 100-500
moves (the last ``n`` and every ``n``-th)."""


STATUS_WORDS = {
    "open": N_("open"),
    "playing": N_("being played"),
    "finished": N_("finished"),
    "expired": N_("expired"),
    "abandoned": N_("ended: walked away from"),
}
"""A table's status in the words of a refusal (``the table is being played``)."""


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """A seat of a table to be made: a person's (open until they join) or a bot's."""

    kind: str
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    """A new table: its id, the host's token and each person seat's token."""

    table_id: str
    host_token: str
    seat_tokens: dict[int, str]


@dataclass(frozen=True, slots=True)
class AccountSeat:
    """A seat as a signed-in person's page holds it without its link: the seat their account
    holds (:mod:`spieltisch.web.routes.bound`), named by its token's hash as it stands. It counts
    wherever a seat's token does, and stops counting when the seat's token changes hands, or
    (for a page open with it) when the session it was shown by ends."""

    token_hash: str
    account_id: str | None = None
    """The account that holds the seat."""
    session: str | None = None
    """The hash of the session whose cookie showed it (a page's socket), if any."""


def token_key(token: object) -> str | None:
    """The token hash a page's credential (a seat's token, or an :class:`AccountSeat`) stands
    for; ``None`` for anything else."""
    if isinstance(token, AccountSeat):
        return token.token_hash
    return token_hash(token) if isinstance(token, str) else None


@dataclass(eq=False)
class Connection:
    """One open page: who it is (a seat, or ``None`` for a spectator) and what it was sent."""

    viewer: PlayerId | None
    queue: asyncio.Queue[str | None]
    sent_version: int = 0
    closed: bool = False
    lagging: bool = False
    token_hash: str | None = None
    """The hash of the seat token the page said hello with (``None``: a spectator)."""
    sent_state: tuple[object, ...] = ()
    """What the last update said of the table besides its events (status, rematch)."""
    sent_seats: str = ""
    """The last seats message sent (a page is sent it again only when it changes)."""
    catching_up: bool = False
    """Its older events are being worked out off the event loop (nothing is sent till then)."""
    held: list[Any] = field(default_factory=list)
    """Those events, once worked out, to go first in its next update."""
    language: str = "en"
    """The language the page reads the game's words in."""
    account_id: str | None = None
    """The account by whose session the page holds its seat (``None``: by its link, or a
    spectator)."""
    session: str | None = None
    """That session's hash: the page stops holding the seat when the session ends."""
    close_code: int = 1000
    """The WebSocket close code its socket is closed with (4403: it may not come back as it
    was; the page says why and stops)."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message; a connection that falls too far behind is closed instead: what
        it has not been sent yet is dropped whole (so it holds no gap), and it catches up from
        its last version when it reconnects."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False))
        except asyncio.QueueFull:
            self.lagging = True
            self.close()

    def close(self) -> None:
        """Close the connection after what is queued (or at once, if it lags)."""
        if self.lagging:
            while not self.queue.empty():
                self.queue.get_nowait()
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.queue.get_nowait()
            self.queue.put_nowait(None)


@dataclass(eq=False)
class LiveTable:
    """A table in the server's memory."""

    id: str
    game: Game
    kit: GameKit[Any]
    seed: int
    status: str
    host_hash: str
    seats: list[SeatRow]
    table: Table
    secret: str | None = None
    """The secret behind the table's dice (revealed at the end), if they are verifiable."""
    commitment: str | None = None
    committed: int = 0
    """The version the database holds (the table in memory may be ahead while it commits)."""
    hints: bool = False
    """The host allows a seat to ask the strongest bot for advice."""
    rules: TableRules = field(default_factory=TableRules)
    epoch: int = 0
    """How often a seat changed hands (the database's count: a move commits only if it
    still holds, so a move checked against an old holder is never stored)."""
    rematch: str | None = None
    rematch_of: str | None = None
    turn_since: float | None = None
    """When the turn of the seat to move began (wall-clock seconds), for the clock."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    last_move_at: float = 0.0
    bot_task: asyncio.Task[None] | None = None
    away_since: dict[int, float] = field(default_factory=dict)
    """For each person seat nobody has open anywhere: since when."""
    votable: dict[int, str] = field(default_factory=dict)
    """Seats the others may vote to hand to a bot, and why (``time`` or ``away``)."""
    played_out: set[int] = field(default_factory=set)
    """Seats whose stand-in has played out a turn of theirs since it sat down: at that seat's
    next turn it may give way to its person (:attr:`TableRules.give_way`)."""
    votes: dict[int, dict[int, bool]] = field(default_factory=dict)
    """The running votes: for each seat, each voter's yes or no."""
    finished_record: str | None = None
    """A finished game's record as a file holds it, once asked for (it never changes)."""
    finished_steps: dict[tuple[int | None, str], list[Any]] = field(default_factory=dict)
    """The same in public steps, for each side and language (what a page opened on it is
    sent)."""
    steps: Steps = field(default_factory=Steps)
    """The table's moves counted in public steps (what pages are told as versions)."""
    touched: float = field(default_factory=time.monotonic)
    """When a page came or went, or a move was made, last (for forgetting idle tables)."""
    notes_seen: int = -1
    """The newest note this server showed the table's pages (others come by announcement)."""

    def proof(self) -> fair.FairDice | None:
        """What the table reveals of its dice once it is over (``None`` before, or without)."""
        if self.secret is None or self.commitment is None or not self.table.over:
            return None
        salts = tuple(seat.salt or "" for seat in self.seats)
        return fair.FairDice(self.id, self.commitment, self.secret, salts)

    def fairness(self) -> dict[str, Any] | None:
        """The fair-dice part of every update: the commitment, and at the end the proof."""
        if self.commitment is None:
            return None
        shown: dict[str, Any] = {"scheme": fair.SCHEME, "commitment": self.commitment}
        proof = self.proof()
        if proof is not None:
            # the seed as text: 62 bits are more than a browser's numbers hold exactly
            shown.update(secret=proof.secret, salts=list(proof.salts), seed=str(self.seed))
        return shown

    def record(self) -> Record:
        """The game's record, with the proof of its dice once the game is over."""
        return replace(self.table.record(), fair=self.proof())

    def seat_of(self, token: object) -> PlayerId | None:
        """The person seat whose token this is now (or which a signed-in page holds:
        :class:`AccountSeat`), or ``None``."""
        if isinstance(token, AccountSeat):
            return self.holder(token.token_hash)
        for seat in self.seats:
            if seat.person and matches(token, seat.token_hash):
                return seat.seat
        return None

    def holder(self, token_hash: str | None) -> PlayerId | None:
        """The person seat whose token has this hash now, or ``None``."""
        if token_hash is None:
            return None
        for seat in self.seats:
            if seat.person and seat.token_hash == token_hash:
                return seat.seat
        return None

    @property
    def shown(self) -> int:
        """The version pages are told: public steps (a private run counts once, and only
        once it is over)."""
        self.steps.update(self.table)
        return self.steps.public

    def behind(self, stored: tuple[str, int, int]) -> bool:
        """Whether the database holds this table further on than this copy: more moves, a
        seat that changed hands, or another status at the same point (read before the copy's
        own latest commit, it may be behind the copy: that is no change)."""
        status, version, epoch = stored
        if version != self.committed or epoch != self.epoch:
            return version > self.committed or epoch > self.epoch
        return status != self.status

    def bot_job(self, seat: PlayerId, level: str) -> BotJob:
        """A worker's job for ``seat`` at the table as it stands: a bot's move, or a hint."""
        record = self.table.record()
        options = tuple(sorted(self.game.options.items()))
        return BotJob(
            self.id, self.game.info.id, self.game.players, options, self.seed, record.moves,
            record.dictated, seat, level,
        )  # fmt: skip

    @property
    def status_params(self) -> dict[str, object]:
        """The table's status as a refusal names it (``{status}``, translated where said)."""
        return {"status": STATUS_WORDS.get(self.status, self.status)}

    def names(self) -> tuple[str, ...]:
        """The seats' names, as the record keeps them."""
        return tuple(s.name for s in self.seats)

    def people(self) -> list[int]:
        """The seats held by people (stand-ins or not), not conceded."""
        return [s.seat for s in self.seats if s.person and s.conceded_at is None]


def rebuild(row: TableRow) -> LiveTable:
    """The live table a stored row holds: its game replayed from its moves."""
    game = spieltisch.load(row.game, row.players, **row.options)
    names = tuple(s.name for s in row.seats)
    conceded = sorted(
        ((s.seat, s.conceded_at) for s in row.seats if s.conceded_at is not None),
        key=lambda pair: (pair[1], pair[0]),
    )
    record = Record(
        row.game, row.players, row.options, row.moves, row.seed, names, row.dictated,
        conceded=tuple(conceded),
    )  # fmt: skip
    live = LiveTable(
        row.id, game, kit_of(game), row.seed, row.status, row.host_hash, list(row.seats),
        Table.from_record(game, record, history=HISTORY), row.secret, row.commitment,
        len(row.moves),
        row.hints, TableRules.from_json(row.rules), row.epoch, row.rematch,
        row.rematch_of, row.turn_since,
    )  # fmt: skip
    # A stand-in found sitting (after a restart, or taken over from another server) has played
    # its turn out unless the seat is to move now: at its next turn it may give way.
    to_act = live.table.to_act() if live.status == "playing" else None
    live.played_out = {s.seat for s in live.seats if s.stand_in is not None and s.seat != to_act}
    return live
