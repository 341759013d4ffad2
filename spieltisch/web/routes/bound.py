"""Seats that belong to accounts, and the credential a request about one's own seat shows.

A signed-in person who takes a seat (their page sends the session's CSRF token with the
join) is that seat's person: the seat keeps their account and their account's name. Their
pages on any device where they are signed in then hold that seat without its link
(:class:`~spieltisch.web.tables.table.AccountSeat`, found by :func:`own_seat`): the table's socket
and the seat's own requests (leave, concede, vote, rematch) take the session in place of the
token, a change with the session's CSRF token only. The link still works as before, and a seat
handed on (to a bot, to a new link) stops counting for the account the moment its token does.

Who makes a table (:func:`table_maker`) is told the same way: the account a page signed in
with its CSRF token, else the address; the bot pool shares its workers among them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, Request

from spieltisch.web.people.accounts import Account
from spieltisch.web.routes.signed import acting_account, address_of, check_csrf, current_session
from spieltisch.web.tables.table import AccountSeat, LiveTable

__all__ = ["Maker", "bearer", "binding_account", "own_seat", "seat_credential", "table_maker"]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header."""
    if authorization is None or not authorization.startswith("Bearer "):
        return None
    return authorization.removeprefix("Bearer ").strip()[:100]


def own_seat(live: LiveTable, account_id: str, session: str | None = None) -> AccountSeat | None:
    """The seat ``account_id`` holds at ``live`` now (a person seat with a live token), as
    shown by the session whose hash is ``session`` (a page's socket: the page stops holding
    it when that session ends)."""
    for seat in live.seats:
        if seat.person and seat.account_id == account_id and seat.token_hash is not None:
            return AccountSeat(seat.token_hash, account_id, session)
    return None


async def binding_account(request: Request) -> Account | None:
    """The account a seat taken by ``request`` is bound to: the signed-in one, if the page
    sent the session's CSRF token from this server (without it the join stays a join by
    link: another site cannot bind a seat to someone's account)."""
    session = await current_session(request)
    if session is None:
        return None
    try:
        check_csrf(request, session)
    except HTTPException:
        return None
    return session.account


async def seat_credential(request: Request, live: LiveTable, authorization: str | None) -> object:
    """What names the asker's seat in a request about their own seat: the link's token in the
    header or, without one, the seat their signed-in account holds (a change must carry the
    session's CSRF token; 403 otherwise)."""
    token = bearer(authorization)
    if token is not None:
        return token
    account = await acting_account(request)
    return None if account is None else own_seat(live, account.id)


@dataclass(frozen=True, slots=True)
class Maker:
    """Who makes a table: the owner the table is kept under (``account:<id>`` for a signed-in
    host, else ``address:<address>``), their address, and whether they are signed in."""

    owner: str
    address: str
    signed_in: bool


async def table_maker(request: Request) -> Maker:
    """Who makes a table by ``request``: the signed-in account when the page sent the
    session's CSRF token (another site cannot make tables in someone's name), else the
    address."""
    account, address = await binding_account(request), address_of(request)
    if account is not None:
        return Maker(f"account:{account.id}", address, True)
    return Maker(f"address:{address}", address, False)
