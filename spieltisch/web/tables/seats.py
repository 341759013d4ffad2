"""A seat is one person's: joining, starting, handing seats on, leaving, conceding, and the
links that stop working when their seat changes hands.

Whenever a seat changes hands (the host hands it to a bot or to a new person, its person
leaves or concedes), the old token is *revoked*: the database notes whose seat it was and why,
every open page of that token (on this server; other servers find out through the database)
is told so and closed, and the table's epoch moves on, so that a move checked against the old
holder can never be committed. A revoked link opens a page that says so and offers to watch.

A person seat's token is derived from the host's token (see :mod:`spieltisch.web.common.tokens`),
so the host page can always list every seat's link; the database keeps only hashes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection as DbConnection
from sqlalchemy.engine import Engine

from spieltisch.agents import agent_names
from spieltisch.core import fair
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Game
from spieltisch.core.words import N_
from spieltisch.session import Steps, Table
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.text import TextError, display_name, same_name
from spieltisch.web.common.tokens import derive_token, matches, new_origin, token_hash
from spieltisch.web.people.accounts import live_sessions
from spieltisch.web.store import table_store
from spieltisch.web.store.db import REVOKED, SEATS, TABLES
from spieltisch.web.store.table_store import SeatRow, VersionConflictError
from spieltisch.web.tables.chat import NOTICE, notice
from spieltisch.web.tables.clock import start_banks
from spieltisch.web.tables.ending import settle
from spieltisch.web.tables.payload import error_message
from spieltisch.web.tables.pool import check_level
from spieltisch.web.tables.rated_seats import check_host_hands
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import HISTORY, Connection, LiveTable, SeatPlan
from spieltisch.web.tables.takeover import stand_in_level

REASONS = ("bot", "person", "left", "conceded")
"""Why a token stopped holding its seat: handed to a bot, given to a new person, its person
left, or conceded."""


def check_name(live: LiveTable, seat: int, name: object) -> str:
    """A display name as the table keeps it (normalised; see :mod:`spieltisch.web.common.text`),
    unique at the table; :class:`RefusedError` if it cannot be one."""
    try:
        clean = display_name(name)
    except TextError as error:
        raise RefusedError(str(error)) from None
    for row in live.seats:
        if row.seat != seat and row.joined and same_name(row.name, clean):
            raise RefusedError(
                "someone at this table is called {name} already", params={"name": row.name}
            )
    return clean


class Holder(Protocol):
    """A signed-in person taking a seat (an :class:`~spieltisch.web.people.accounts.Account`)."""

    @property
    def id(self) -> str:
        """The account's id."""
        ...

    @property
    def name(self) -> str:
        """The account's name."""
        ...


def check_rated_join(live: LiveTable, seat: int, account: Holder | None) -> None:
    """Refuse a seat at a rated table to a person not signed in, or to an account that holds
    another seat there already."""
    if not live.rules.rated:
        return
    if account is None:
        raise RefusedError(N_("this table is rated: sign in to take a seat"), 403)
    if any(s.account_id == account.id and s.seat != seat for s in live.seats if s.person):
        raise RefusedError(N_("you hold another seat at this rated table already"), 409)


def missing_rated(live: LiveTable) -> bool:
    """Whether a rated table has a person seat that no signed-in person holds."""
    return live.rules.rated and any(s.person and s.account_id is None for s in live.seats)


def missing_for_start(live: LiveTable) -> str | None:
    """The person seats nobody has joined yet, by number (``None``: none; the table may
    start)."""
    free = [s.seat + 1 for s in live.seats if s.person and not s.joined]
    return ", ".join(map(str, free)) if free else None


class Seating:
    """The seats of the tables of one server (see the module docstring)."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def check_host(self, live: LiveTable, token: object) -> None:
        """Refuse unless ``token`` is the table's host token."""
        if not matches(token, live.host_hash):
            raise RefusedError("only the host may do that", 403)

    def number(self, live: LiveTable, seat: object) -> int:
        """``seat`` as a seat number of the table; :class:`RefusedError` if it is none."""
        if type(seat) is not int or not 0 <= seat < live.game.players:
            raise RefusedError("no seat {seat} at this table", params={"seat": str(seat)[:20]})
        return seat

    def person_of(self, live: LiveTable, token: object) -> int:
        """The seat ``token`` holds now; :class:`RefusedError` if it holds none."""
        seat = live.seat_of(token)
        if seat is None:
            raise RefusedError("this link holds no seat at this table", 403)
        return seat

    async def _store(self, live: LiveTable, row: SeatRow, new_holder: bool) -> None:
        epoch = await self.services.write(
            table_store.update_seat, self.services.engine, live.id, row, new_holder
        )
        live.seats[row.seat] = row
        live.epoch = epoch
        live.table.seats = live.names()

    # --- joining and starting ---------------------------------------------------------------

    async def join(
        self, live: LiveTable, token: object, name: object, salt: object,
        account: Holder | None = None,
    ) -> int:  # fmt: skip
        """A person takes their seat under a display name, adding their salt to the dice; a
        signed-in person's seat is bound to their ``account`` and takes its name."""
        seat = self.person_of(live, token)
        check_rated_join(live, seat, account)
        clean = check_name(live, seat, name if account is None else account.name)
        try:
            own = fair.check_salt(salt)
        except ValueError as error:
            raise RefusedError(str(error)) from None
        async with live.lock:
            # The seats as they stand now: its link may have ended meanwhile, here or on
            # another server process.
            await caught_up(self.services, live)
            seat = self.person_of(live, token)
            clean = check_name(live, seat, name if account is None else account.name)
            current = live.seats[seat]
            # A salt counts only before the start: once the game is on, its dice are fixed.
            salt_now = own if live.status == "open" else current.salt
            # A join by link alone belongs to no account (a link passed on is someone else's).
            bound = None if account is None else account.id
            joined = replace(current, name=clean, joined=True, salt=salt_now, account_id=bound)
            await self._store(live, joined, False)
        await self.services.broadcast(live)
        return seat

    async def start(self, live: LiveTable) -> None:
        """Start the game now that every seat is taken (the caller checked who asks)."""
        async with live.lock:
            if live.status != "open":
                raise RefusedError(
                    "the table is {status}, not waiting to start", 409, params=live.status_params
                )
            missing = missing_for_start(live)
            if missing is not None:
                reason = (
                    N_("seat {seats} is still free: its person has not joined yet")
                    if "," not in missing
                    else N_("seats {seats} are still free: their people have not joined yet")
                )
                raise RefusedError(reason, 409, params={"seats": missing})
            if missing_rated(live):
                raise RefusedError(N_("this table is rated: every person must be signed in"), 409)
            if live.secret is not None:
                salts = [seat.salt or "" for seat in live.seats]
                live.seed = fair.seed_of(live.id, live.secret, salts)
                await self.services.write(
                    table_store.set_seed, self.services.engine, live.id, live.seed
                )
                live.table = Table(live.game, live.names(), live.seed, history=HISTORY)
                live.steps = Steps()
            for row in start_banks(live.seats, live.rules):
                if row != live.seats[row.seat]:
                    await self._store(live, row, False)
            await self.services.write(
                table_store.set_status, self.services.engine, live.id, "playing"
            )
            live.status = "playing"
            await self.services.commit(live, live.table.version)
        await self.services.broadcast(live)
        self.services.schedule(live)

    # --- handing seats on -------------------------------------------------------------------

    async def to_bot(self, live: LiveTable, seat: int, level: str, reason: str) -> None:
        """Hand ``seat`` to a bot of ``level`` for good (the caller holds the lock); its
        person's token is revoked with ``reason``."""
        row = live.seats[seat]
        if row.person and row.token_hash is not None:
            await self.revoke(live, row, reason)
        bot = SeatRow(seat, "bot", bot_name(seat), level, None, True)
        if reason in ("left", "conceded"):
            # The person gave it up: their game still, in their history (rated, a loss).
            bot = replace(bot, name=row.name, conceded_at=row.conceded_at,
                          account_id=row.account_id)  # fmt: skip
        # Handed on by the host (never at a rated game being played): no longer the person's
        # game, so what the bot makes of it is nobody's result.
        await self._store(live, bot, True)

    async def to_person(self, live: LiveTable, host: str, seat: int) -> str:
        """Give ``seat`` to a new person: a new token (derived from the host's), so a new join
        link; a person who held it loses it. The new token."""
        origin = new_origin(live.id)
        token = derive_token(host, origin, seat)
        async with live.lock:
            check_host_hands(live)  # never a finished table's, nor a rated game's once on
            row = live.seats[seat]
            if row.person and row.token_hash is not None:
                await self.revoke(live, row, "person")
            # Mid-game the seat keeps its name (the one the game has known it by, in the log,
            # the scores and the result) until its new person joins under their own; a
            # stand-in plays it meanwhile, shown as one.
            name = row.name if live.status == "playing" else f"Seat {seat + 1}"
            fresh = SeatRow(
                seat, "person", name, None, token_hash(token), False,
                token_origin=origin, bank=live.rules.bank if live.status == "playing" else None,
            )  # fmt: skip
            if live.status == "playing":
                fresh = replace(fresh, stand_in=stand_in_level(live))
            await self._store(live, fresh, True)
        await self.services.broadcast(live)
        self.services.schedule(live)
        return token

    async def leave(self, live: LiveTable, token: object) -> None:
        """A person leaves their seat: before the start it is free again (its link may go to
        someone else); during the game a bot takes it for good."""
        seat = self.person_of(live, token)
        async with live.lock:
            row = live.seats[seat]
            if live.status == "open":
                free = replace(
                    row, name=f"Seat {seat + 1}", joined=False, salt=None, account_id=None
                )
                await self._store(live, free, False)
            elif live.status == "playing":
                await self.to_bot(live, seat, stand_in_level(live), "left")
            else:
                raise RefusedError("the table is {status}", 409, params=live.status_params)
            await self.services.note(live, NOTICE, None, notice("left", name=row.name))
        await self.services.broadcast(live)
        self.services.schedule(live)

    async def concede(self, live: LiveTable, token: object) -> bool:
        """A person concedes: noted in the record; when one seat is left the game is over
        and it wins, otherwise a bot plays the conceded seat on. True if the game ended."""
        seat = self.person_of(live, token)
        async with live.lock:
            if live.status != "playing":
                raise RefusedError("only a game being played can be conceded", 409)
            table = live.table
            try:
                ended = table.concede(seat)
            except SpieltischError as error:
                raise RefusedError(str(error), 409) from None
            row = live.seats[seat]
            version = table.version
            if ended:
                gone = replace(row, conceded_at=version)
            else:
                level = stand_in_level(live)
                gone = SeatRow(
                    seat,
                    "bot",
                    row.name,
                    level,
                    None,
                    True,
                    conceded_at=version,
                    account_id=row.account_id,
                )  # its person's game still
            final = live.record().dumps() if ended else None
            try:
                await self.services.write(
                    table_store.concede, self.services.engine, live.id, gone, version, final
                )
            except VersionConflictError:
                await self.services.reload(live)
                raise RefusedError("a move came first; try again", 409, live.shown) from None
            if not ended:
                await self.revoke(live, row, "conceded")
            live.seats[seat] = gone
            live.table.seats = live.names()
            live.epoch += 1
            if ended:
                live.status = "finished"
                await settle(self.services, live)
            await self.services.note(live, NOTICE, None, notice("conceded", name=row.name))
        await self.services.broadcast(live)
        self.services.schedule(live)
        return ended

    # --- revoked links ----------------------------------------------------------------------

    async def revoke(self, live: LiveTable, row: SeatRow, reason: str) -> None:
        """``row``'s token no longer holds its seat: keep why, and tell and close its pages
        here (the caller holds the lock; other servers close theirs as they take the table
        up again)."""
        if row.token_hash is None:
            return
        at = self.services.clock.now()
        await self.services.write(
            keep_revoked, self.services.engine, live.id, row.token_hash, row.seat, row.name,
            reason, at,
        )  # fmt: skip
        close_revoked(live, row.token_hash, stale_message(row.seat, row.name, reason, at))

    async def stale(self, live: LiveTable, token: object) -> dict[str, Any]:
        """What a page with a token that holds no seat here is told: whose seat it was, and
        why it changed hands (if it ever held one)."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            return stale_message(None, None, None, None)
        found = await self.services.read(
            find_revoked, self.services.reader, live.id, token_hash(token)
        )
        if found is None:
            return stale_message(None, None, None, None)
        return stale_message(*found)

    def links(self, live: LiveTable, host: str) -> dict[int, str]:
        """Each person seat's token, for the host (whose token derives them)."""
        found = {}
        for row in live.seats:
            if not row.person or row.token_origin is None or row.token_hash is None:
                continue
            token = derive_token(host, row.token_origin, row.seat)
            if matches(token, row.token_hash):
                found[row.seat] = token
        return found


def stale_message(
    seat: int | None, name: str | None, reason: str | None, at: float | None
) -> dict[str, Any]:
    """The message for a page whose link holds no seat (``seat`` ``None``: it never did)."""
    return {"type": "stale", "seat": seat, "name": name, "reason": reason, "at": at}


SIGNED_OUT = N_(
    "You were signed out, so this page no longer holds your seat: sign in again to play on, "
    "or reload the page to watch."
)
"""What a page that held its seat by a session that ended is told before it is closed."""
SIGNED_OUT_CLOSE = 4403
"""Its socket's close code: the page says why and does not reconnect on its own."""


def close_signed_out(live: LiveTable, alive: Collection[str]) -> int:
    """Tell every page of this server at ``live`` that holds its seat by a session not among
    ``alive`` (the hashes of the sessions that live) that it no longer does (in its own
    language), and close it; how many were closed. A page open with the seat's link keeps
    it: the link is no session."""
    closed = 0
    for connection in list(live.connections):
        if connection.session is None or connection.session in alive:
            continue
        said = error_message(SIGNED_OUT, connection.language)
        connection.send({**said, "version": live.shown})
        connection.close_code = SIGNED_OUT_CLOSE
        connection.close()
        live.connections.discard(connection)
        closed += 1
    return closed


async def caught_up(services: Services, live: LiveTable) -> bool:
    """Take ``live`` up again if another server process changed it (a seat handed on, a
    deleted account's links ended) before a seat is written from it (the caller holds the
    lock); whether it was behind."""
    stored = await services.read(table_store.version_of, services.reader, live.id)
    if stored is None or not live.behind(stored):
        return False
    await services.reload(live)
    return True


class Reads(Protocol):
    """Whatever reads the database off the event loop (the hub)."""

    reader: Engine

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database read in a worker thread."""
        ...


async def close_ended_sessions(services: Reads, live: LiveTable) -> int:
    """Close the pages at ``live`` that hold their seat by a session that has ended (read
    from the database: a sign-out here or on any other server process); how many."""
    held = {c.session for c in live.connections if c.session is not None}
    if not held:
        return 0
    alive: set[str] = await services.read(live_sessions, services.reader, held)
    return close_signed_out(live, alive)


async def check_session(services: Reads, connection: Connection) -> None:
    """Refuse (403) what a page asks by a seat it holds by a session that has ended (signed
    out on another server process, whose word has not come yet): the move path asks this, so
    that such a page can never move, even before it is closed."""
    if connection.session is None:
        return
    alive: set[str] = await services.read(live_sessions, services.reader, {connection.session})
    if connection.session not in alive:
        raise RefusedError(SIGNED_OUT, 403)


def end_links(db: DbConnection, account_id: str, at: float) -> list[str]:
    """Within a deleted account's transaction (before its seats are renamed): the links of
    the seats it holds at tables still open or being played stop working, as when a seat
    changes hands (kept as revoked, the tables' epochs move on); a seat before the start is
    free again, for the host to hand on. The tables changed."""
    rows = db.execute(
        sa.select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.name, SEATS.c.token_hash, TABLES.c.status)
        .join(TABLES, TABLES.c.id == SEATS.c.table_id)
        .where(
            SEATS.c.account_id == account_id,
            SEATS.c.kind == "person",
            SEATS.c.token_hash.is_not(None),
            TABLES.c.status.in_(("open", "playing")),
        )
    ).all()
    for table_id, seat, name, old_hash, status in rows:
        db.execute(
            REVOKED.delete().where(REVOKED.c.table_id == table_id, REVOKED.c.token_hash == old_hash)
        )
        db.execute(
            REVOKED.insert().values(
                table_id=table_id, token_hash=old_hash, seat=seat, name=name, reason="left", at=at
            )
        )
        freed: dict[str, object] = {"token_hash": None, "token_origin": None}
        if status == "open":  # free again, no longer the account's (nor renamed for it)
            freed.update(name=f"Seat {seat + 1}", joined=False, salt=None, account_id=None)
        db.execute(
            SEATS.update().where(SEATS.c.table_id == table_id, SEATS.c.seat == seat).values(**freed)
        )
    changed = sorted({row[0] for row in rows})
    if changed:
        db.execute(TABLES.update().where(TABLES.c.id.in_(changed)).values(epoch=TABLES.c.epoch + 1))
    return changed


def close_revoked(live: LiveTable, old_hash: str, message: dict[str, Any]) -> None:
    """Tell every page of this server open with the token ``old_hash`` that its seat changed
    hands, and close it."""
    for connection in list(live.connections):
        if connection.token_hash == old_hash:
            connection.send({**message, "version": live.shown})
            connection.close()
            live.connections.discard(connection)


# --- kept in the database -------------------------------------------------------------------


def keep_revoked(
    engine: Engine, table_id: str, old_hash: str, seat: int, name: str, reason: str, at: float
) -> None:
    """Note that the token ``old_hash`` held ``seat`` as ``name`` until ``at``."""
    with engine.begin() as db:
        db.execute(
            REVOKED.delete().where(REVOKED.c.table_id == table_id, REVOKED.c.token_hash == old_hash)
        )
        db.execute(
            REVOKED.insert().values(
                table_id=table_id, token_hash=old_hash, seat=seat, name=name,
                reason=reason, at=at,
            )
        )  # fmt: skip


def find_revoked(
    engine: Engine, table_id: str, old_hash: str
) -> tuple[int, str, str, float] | None:
    """Whose seat the token ``old_hash`` held at the table, why it no longer does, and since
    when; ``None`` if it never held one."""
    with engine.connect() as db:
        row = db.execute(
            sa.select(REVOKED.c.seat, REVOKED.c.name, REVOKED.c.reason, REVOKED.c.at).where(
                REVOKED.c.table_id == table_id, REVOKED.c.token_hash == old_hash
            )
        ).first()
    return None if row is None else (int(row[0]), str(row[1]), str(row[2]), float(row[3]))


def revoked_since(engine: Engine, table_id: str) -> dict[str, tuple[int, str, str, float]]:
    """Every revoked token hash of a table, with its seat, name, reason and time."""
    with engine.connect() as db:
        rows = db.execute(sa.select(REVOKED).where(REVOKED.c.table_id == table_id)).mappings()
        return {r["token_hash"]: (r["seat"], r["name"], r["reason"], r["at"]) for r in rows}


def new_seats(
    game: Game, seats: Sequence[SeatPlan], host: str, table_id: str
) -> tuple[list[SeatRow], dict[int, str]]:
    """The seats of a new table as planned, and each person seat's token (derived from the
    host's, so the host page can list every link again); bots sit at once."""
    levels = agent_names(game)
    rows, tokens = [], {}
    for number, plan in enumerate(seats):
        if plan.kind == "bot":
            level = plan.level or levels[0]
            check_level(game, level)
            rows.append(SeatRow(number, "bot", bot_name(number), level, None, True))
        elif plan.kind == "person":
            origin = new_origin(table_id)
            token = derive_token(host, origin, number)
            tokens[number] = token
            rows.append(
                SeatRow(
                    number, "person", f"Seat {number + 1}", None, token_hash(token), False,
                    token_origin=origin,
                )
            )  # fmt: skip
        else:
            raise RefusedError("a seat is for a person or a bot")
    return rows, tokens


BOT_NAMES = ("Anton", "Berta", "Clara", "Dora", "Emil", "Frieda")
"""The bots' first names, one a seat (a spelling alphabet's: read alike in English and German)."""


def bot_name(seat: int) -> str:
    """A bot's name at ``seat``: a name people read as one (``Bot Berta``), never its level's
    code; what it plays like is said beside it, in the reader's language. No person may take a
    name that starts with "Bot" (:data:`~spieltisch.web.common.text.BOT_LIKE`)."""
    return f"Bot {BOT_NAMES[seat % len(BOT_NAMES)]}"
