"""What an account's end, and the end of its sessions, mean to the rest of the server, said
as events.

People know nothing of live tables. When an account is deleted, the seats it held and the
records that named it are renamed to a former player in the deletion's own transaction
(:func:`~spieltisch.web.people.profile.forget_player`); what the tables held in memory must do
about it (show the new name) is theirs to decide. So the deletion publishes an
:class:`AccountEnded` naming the tables it touched, and whoever cares (the live tables' hub)
subscribes to :class:`AccountEvents`. Likewise, when sessions of the account end (signing out,
signing out everywhere, a new password), a :class:`SessionsEnded` tells the tables, whose pages
that hold a seat by a session that ended must stop holding it. Handlers run in the order they
subscribed; one that fails is logged and does not stop the others.

Those handlers run in the process that ended the sessions. For the other processes sharing
the database, the tables also ask to be told *within* the ending's transaction
(:meth:`AccountEvents.within`): they announce the ending through the database there, so that
it reaches every process exactly when it is committed (and never when it is rolled back), and
a deletion ends the account's seats' links in the same transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from spieltisch.web.people.accounts import (
    delete_account,
    end_session,
    end_sessions,
    replace_password,
)
from spieltisch.web.people.profile import forget_player
from spieltisch.web.store.database import Database

LOG = logging.getLogger("spieltisch.web")


@dataclass(frozen=True, slots=True)
class AccountEnded:
    """An account was deleted; ``tables`` are those whose seats now name a former player."""

    account_id: str
    tables: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SessionsEnded:
    """Sessions of an account ended (one, every one, or every one but the session that
    changed the password): a page that held a seat by a session that no longer lives stops
    holding it."""

    account_id: str


Handler = Callable[[AccountEnded], Awaitable[None]]
"""What a subscriber does when an account ends."""
SessionsHandler = Callable[[SessionsEnded], Awaitable[None]]
"""What a subscriber does when an account's sessions end."""
Within = Callable[[Connection, str, bool], None]
"""What a subscriber does within the transaction that ends sessions of an account (the
connection, the account's id, and whether the account itself ends)."""


class AccountEvents:
    """The subscribers to accounts' ends and to their sessions' ends, in one server
    process."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []
        self._session_handlers: list[SessionsHandler] = []
        self._within: list[Within] = []

    def subscribe(self, handler: Handler) -> None:
        """Call ``handler`` with every account's end from now on."""
        self._handlers.append(handler)

    def subscribe_sessions(self, handler: SessionsHandler) -> None:
        """Call ``handler`` whenever an account's sessions end, from now on."""
        self._session_handlers.append(handler)

    def within(self, hook: Within) -> None:
        """Call ``hook`` within every transaction that ends sessions of an account, from now
        on (before the sessions go; before a deleted account's seats are renamed)."""
        self._within.append(hook)

    def said(self, deleted: bool) -> Callable[[Connection, str], None]:
        """What the ending's transaction runs: every ``within`` hook, in turn (one that fails
        fails the transaction: nothing ends unless every process can hear of it)."""

        def say(db: Connection, account_id: str) -> None:
            for hook in list(self._within):
                hook(db, account_id, deleted)

        return say

    async def publish(self, event: AccountEnded | SessionsEnded) -> None:
        """Tell every subscriber of the event's kind, in turn."""
        if isinstance(event, SessionsEnded):
            for on_sessions in list(self._session_handlers):
                try:
                    await on_sessions(event)
                except Exception:  # one subscriber's trouble must not stop the others
                    LOG.exception("account %s signed out: a subscriber failed", event.account_id)
            return
        for handler in list(self._handlers):
            try:
                await handler(event)
            except Exception:  # one subscriber's trouble must not stop the others
                LOG.exception("account %s ended: a subscriber failed", event.account_id)


async def end_account(database: Database, events: AccountEvents, account_id: str) -> None:
    """Delete the account and all it holds (see
    :func:`~spieltisch.web.people.accounts.delete_account`), then tell the subscribers."""
    touched: list[str] = await database.write(
        delete_account, database.engine, account_id, forget_player, events.said(True)
    )
    await events.publish(SessionsEnded(account_id))
    await events.publish(AccountEnded(account_id, tuple(touched)))


async def end_every_session(database: Database, events: AccountEvents, account_id: str) -> None:
    """End every session of the account (signing out everywhere), then tell the subscribers."""
    await database.write(end_sessions, database.engine, account_id, events.said(False))
    await events.publish(SessionsEnded(account_id))


async def end_one_session(
    database: Database, events: AccountEvents, account_id: str, id_hash: str
) -> None:
    """End the session ``id_hash`` of the account (signing out), then tell the subscribers."""
    await database.write(end_session, database.engine, id_hash, account_id, events.said(False))
    await events.publish(SessionsEnded(account_id))


async def new_password(
    database: Database, events: AccountEvents, account_id: str, password_hash: str, kept: str
) -> None:
    """Give the account a new password hash; every session of it but ``kept`` ends, and the
    subscribers are told."""
    await database.write(
        replace_password, database.engine, account_id, password_hash, kept, events.said(False)
    )
    await events.publish(SessionsEnded(account_id))
