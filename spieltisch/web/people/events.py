"""What an account's end, and the end of its sessions, mean to the rest of the server, said
as events.

People know nothing of live tables. When an account is deleted, the seats it held and the
records that named it are renamed to a former player in the deletion's own transaction
(:func:`~spieltisch.web.people.profile.forget_player`); what the tables held in memory must do
about it (show the new name) is theirs to decide. So the deletion publishes an
:class:`AccountEnded` naming the tables it touched, and whoever cares (the live tables' hub)
subscribes to :class:`AccountEvents`. Likewise, when the account's sessions end (signing out
everywhere, a new password), a :class:`SessionsEnded` tells the tables, whose pages that hold
a seat by one of those sessions must stop holding it. Handlers run in the order they
subscribed; one that fails is logged and does not stop the others.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from spieltisch.web.people.accounts import delete_account, end_sessions
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
    """Every session of an account ended but ``kept`` (``None``: every one, as signing out
    everywhere does; else the session that changed the password)."""

    account_id: str
    kept: str | None = None


Handler = Callable[[AccountEnded], Awaitable[None]]
"""What a subscriber does when an account ends."""
SessionsHandler = Callable[[SessionsEnded], Awaitable[None]]
"""What a subscriber does when an account's sessions end."""


class AccountEvents:
    """The subscribers to accounts' ends and to their sessions' ends, in one server
    process."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []
        self._session_handlers: list[SessionsHandler] = []

    def subscribe(self, handler: Handler) -> None:
        """Call ``handler`` with every account's end from now on."""
        self._handlers.append(handler)

    def subscribe_sessions(self, handler: SessionsHandler) -> None:
        """Call ``handler`` whenever an account's sessions end, from now on."""
        self._session_handlers.append(handler)

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
        delete_account, database.engine, account_id, forget_player
    )
    await events.publish(AccountEnded(account_id, tuple(touched)))


async def end_every_session(database: Database, events: AccountEvents, account_id: str) -> None:
    """End every session of the account (signing out everywhere), then tell the subscribers."""
    await database.write(end_sessions, database.engine, account_id)
    await events.publish(SessionsEnded(account_id))
