"""What an account's end means to the rest of the server, said as events.

People know nothing of live tables. When an account is deleted, the seats it held and the
records that named it are renamed to a former player in the deletion's own transaction
(:func:`~spieltisch.web.people.profile.forget_player`); what the tables held in memory must do
about it (show the new name) is theirs to decide. So the deletion publishes an
:class:`AccountEnded` naming the tables it touched, and whoever cares (the live tables' hub)
subscribes to :class:`AccountEvents`. Handlers run in the order they subscribed; one that
fails is logged and does not stop the others.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from spieltisch.web.people.accounts import delete_account
from spieltisch.web.people.profile import forget_player
from spieltisch.web.store.database import Database

LOG = logging.getLogger("spieltisch.web")


@dataclass(frozen=True, slots=True)
class AccountEnded:
    """An account was deleted; ``tables`` are those whose seats now name a former player."""

    account_id: str
    tables: tuple[str, ...]


Handler = Callable[[AccountEnded], Awaitable[None]]
"""What a subscriber does when an account ends."""


class AccountEvents:
    """The subscribers to accounts' ends, in one server process."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        """Call ``handler`` with every account's end from now on."""
        self._handlers.append(handler)

    async def publish(self, event: AccountEnded) -> None:
        """Tell every subscriber, in turn."""
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
