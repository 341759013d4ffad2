"""The pages open at a table: a page connecting and leaving, and what each is sent.

Every page has its own :class:`~spieltisch.web.tables.table.Connection`: a bounded queue and a
writer, so a slow client never holds up a table. :meth:`Connections.push` queues for a page the
events since its last version and its own view (from :mod:`~spieltisch.web.tables.payload`,
which reads only that viewer's view), then the seats as everyone sees them; each only if the
page has not had it yet. A page far behind is brought up to date off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from spieltisch.agents.ladder import load_ladder
from spieltisch.locale import SOURCE
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.words import spoken
from spieltisch.web.tables import chat
from spieltisch.web.tables import clock as timing
from spieltisch.web.tables.clock import Clock
from spieltisch.web.tables.payload import error_message, step_events, update_message
from spieltisch.web.tables.presence import Presence
from spieltisch.web.tables.rated_seats import RATED_OWN_PAGE, speaks_for_its_person
from spieltisch.web.tables.rematch import Rematches
from spieltisch.web.tables.table import HISTORY, AccountSeat, Connection, LiveTable, token_key
from spieltisch.web.tables.takeover import Takeovers

CATCH_UP = HISTORY
"""A page more moves behind than this is brought up to date off the event loop (older states
are rebuilt from a checkpoint, which is no work for the loop)."""


class ConnectionsHub(Protocol):
    """What the pages' side needs of the hub."""

    settings: Settings
    clock: Clock
    reader: Engine
    presence: Presence
    takeovers: Takeovers
    rematches: Rematches

    async def read(self, function: Callable[..., Any], *args: Any) -> Any: ...

    def schedule(self, live: LiveTable) -> None: ...


class Connections:
    """The open pages of one server's tables."""

    def __init__(self, hub: ConnectionsHub) -> None:
        self.hub = hub
        self._catching: set[asyncio.Task[None]] = set()

    async def connect(
        self, live: LiveTable, token: object, since: int, language: str = SOURCE
    ) -> Connection:
        """A new connection for the seat ``token`` holds (``None``: a spectator) that has
        seen the table up to version ``since`` and reads ``language``; its person is back if a
        bot stood in."""
        hub = self.hub
        viewer = None if token is None else live.seat_of(token)
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=hub.settings.queue_limit)
        hashed = None if viewer is None else token_key(token)
        by_account = token if viewer is not None and isinstance(token, AccountSeat) else None
        connection = Connection(
            viewer, queue, max(0, min(since, live.shown)), False, False, hashed,
            language=language,
            account_id=None if by_account is None else by_account.account_id,
            session=None if by_account is None else by_account.session,
        )  # fmt: skip
        async with live.lock:
            if viewer is not None:
                await hub.takeovers.returned(live, viewer)
            live.connections.add(connection)
            live.touched = time.monotonic()
            hub.presence.touched(live, viewer)
            hub.presence.update(live)
            self.push(live, connection)
            notes = await hub.read(chat.load_notes, hub.reader, live.id)
            shown = chat.visible(notes, live.rules.chat, viewer)
            connection.send(chat.notes_message(shown, live.names()))
            hub.rematches.offer(live)
        await self.broadcast(live)
        hub.schedule(live)
        return connection

    async def disconnect(self, live: LiveTable, connection: Connection) -> None:
        """Forget a connection."""
        connection.closed = True
        live.connections.discard(connection)
        live.touched = time.monotonic()
        self.hub.presence.touched(live, connection.viewer)
        if self.hub.presence.update(live):
            await self.broadcast(live)

    async def broadcast(self, live: LiveTable) -> None:
        """Send every connection of the table what it has not seen yet, and the seats."""
        async with live.lock:
            for connection in list(live.connections):
                self.push(live, connection)

    def push(self, live: LiveTable, connection: Connection) -> None:
        """Queue for ``connection`` the events since its last version and its own view, then
        the seats as they stand (people, presence, clocks, votes); each only if the page has
        not had it yet."""
        if connection.closed or connection.catching_up:
            return
        if not speaks_for_its_person(live, connection):  # a rated seat's link, not its person
            said = error_message(RATED_OWN_PAGE, connection.language)
            connection.send({**said, "version": live.shown})
            connection.close_code = 4403
            connection.close()
            live.connections.discard(connection)
            return
        shown = live.shown
        owner = live.steps.owner  # a private run's owner sees its steps; nobody else does
        running = live.table.version if owner is not None and connection.viewer == owner else None
        state = (shown, running, live.status, live.rematch, live.hints)
        if state != connection.sent_state:
            if shown - connection.sent_version > CATCH_UP:
                self._catch_up(live, connection)
                return
            message = update_message(
                live.id, live.status, live.table, spoken(live.kit.words, connection.language),
                connection.viewer,
                connection.sent_version, live.steps,
            )  # fmt: skip
            fair = live.fairness()
            if fair is not None:
                message["fair"] = fair
            message["hints"] = live.hints
            message["rematch"] = live.rematch
            if connection.held:  # the events worked out in a thread come first
                later = message["events"]
                message["events"] = [*connection.held, *(later if isinstance(later, list) else [])]
                connection.held = []
            connection.sent_version = shown
            connection.sent_state = state
            connection.send(message)
        seats = self.seats_message(live)
        text = json.dumps(seats, sort_keys=True)
        if text != connection.sent_seats:
            connection.sent_seats = text
            connection.send({**seats, "now": round(self.hub.clock.now(), 3)})

    def _catch_up(self, live: LiveTable, connection: Connection) -> None:
        """Bring a page far behind up to date: its older events are worked out in a thread
        (the moves up to now never change), then the rest as usual."""
        connection.catching_up = True
        since, until = connection.sent_version, live.shown
        viewer, language, steps = connection.viewer, connection.language, live.steps
        words, side = spoken(live.kit.words, language), (viewer, language)

        async def run() -> None:
            try:
                kept = live.finished_steps.get(side) if live.status == "finished" else None
                if kept is not None:  # a finished game never changes: worked out once a side
                    early = kept[since:until]
                else:
                    early = await asyncio.to_thread(
                        step_events, live.table, words, viewer, steps, since, until
                    )
                    if live.status == "finished" and since == 0 and until == steps.public:
                        live.finished_steps[side] = early
                async with live.lock:
                    connection.sent_version = until
                    connection.held = early
            finally:
                connection.catching_up = False
            await self.broadcast(live)

        task = asyncio.create_task(run())
        self._catching.add(task)
        task.add_done_callback(self._catching.discard)

    def seats_message(self, live: LiveTable) -> dict[str, Any]:
        """Every seat as the table shows it to everyone: who holds it, whether its person is
        here, what time it has (at the start of the running turn, which the page counts
        down), and the votes; nothing of the game's state."""
        to_act = live.table.to_act() if live.status == "playing" else None
        since = live.turn_since
        presence = self.hub.presence.seats_json(live)
        ladder, game, players = load_ladder(), live.game.info.id, live.game.players
        names = {r.level: ladder.name_of(game, players, r.level) for r in live.seats if r.level}
        seats = [
            {
                "seat": row.seat, "kind": row.kind, "name": row.name, "level": row.level,
                "level_name": names.get(row.level or ""),
                "joined": row.joined, "stand_in": row.stand_in,
                "conceded": row.conceded_at is not None, **presence[row.seat],
                "time_left": timing.remaining(row, live.rules, to_act, since, since or 0.0),
            }
            for row in live.seats
        ]  # fmt: skip
        return {
            "type": "seats", "version": live.shown, "status": live.status,
            "seats": seats, "votes": self.hub.takeovers.votes_json(live),
            "rules": live.rules.public(), "clock_running": to_act, "turn_since": since,
            "walked_away_after": self.hub.settings.abandoned_after,
        }  # fmt: skip
