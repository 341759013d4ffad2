"""Who may change who plays a seat: the host before the game, and in a rated game being
played nobody but the seat's own person.

A rated game's result moves its people's ratings, so once it is on, a seat changes hands only
by its own person's leaving or conceding (a loss for them) or by the clock they all agreed to
(a stand-in that plays for them: see :mod:`~spieltisch.web.tables.takeover`). The host hands
no seat of it to a bot or to a new link, and a seat's link alone does not speak for its
person there: the host can derive every seat's link (:mod:`spieltisch.web.common.tokens`), so
a request that gives up or takes a seat by its link must come from the seat's own account,
and a page open with a seat's link plays that seat, or is sent its hidden cards, only when it
is signed in as the seat's person (:func:`speaks_for_its_person`).
A finished or ended table's seats stay as they ended, at every table: its result is kept, and
a rated one may still be owed its settling (:mod:`~spieltisch.web.tables.ending`).
"""

from __future__ import annotations

from spieltisch.core.words import N_
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.tables.table import Connection, LiveTable

RATED_SEATS_STAY = N_("a rated game's seats stay with the people who started it")
"""Why the host may not hand a seat of a rated game being played to anyone."""
RATED_OWN_SEAT = N_(
    "a seat of a rated game is its account's: sign in as its person to leave, concede or take it"
)
"""Why a seat's link alone may not give up or take a seat of a rated game being played."""
RATED_OWN_PAGE = N_("a seat of a rated game is played only by its person: sign in as them")
"""Why a page open with a rated seat's link, not signed in as its person, may not play it."""


def check_host_hands(live: LiveTable) -> None:
    """Refuse the host handing a seat on (to a bot or a new person) unless the table waits to
    start or is being played, and, at a rated table, unless it waits to start. The caller
    holds the table's lock."""
    if live.status not in ("open", "playing"):
        raise RefusedError("the table is {status}", 409, params=live.status_params)
    if live.rules.rated and live.status == "playing":
        raise RefusedError(RATED_SEATS_STAY, 409)


def check_own_rated_seat(live: LiveTable, credential: object, account_id: str | None) -> None:
    """Refuse a request about the seat ``credential`` names (leave, concede, join) at a rated
    game being played unless ``account_id`` (the asker's signed-in account) is the seat's.
    A credential that names no seat is left to the usual refusal."""
    if not live.rules.rated or live.status != "playing":
        return
    seat = live.seat_of(credential)
    if seat is None:
        return
    holder = live.seats[seat].account_id
    if holder is not None and holder != account_id:
        raise RefusedError(RATED_OWN_SEAT, 403)


def speaks_for_its_person(live: LiveTable, connection: Connection) -> bool:
    """Whether the page ``connection`` may act for (and see as) the seat it holds: anywhere but
    at a rated table, whose seat, once its person joined, is played only from a page signed in
    as that person (the host can derive every seat's link, but not sign in as its person)."""
    if not live.rules.rated or connection.viewer is None:
        return True
    holder = live.seats[connection.viewer].account_id
    return holder is None or holder == connection.account_id


def check_speaks_for_its_person(live: LiveTable, connection: Connection) -> None:
    """Refuse (403) what a page asks by a seat of a rated table it does not speak for."""
    if not speaks_for_its_person(live, connection):
        raise RefusedError(RATED_OWN_PAGE, 403)
