"""Rating math: OpenSkill's Plackett-Luce model with its default settings, for people and bots.

A person has one :class:`Rating` per game and number of players. A rated game's finishing ranks
(0 best, equal ranks tie; :func:`spieltisch.agents.ladder.finishing_ranks`) move everyone's
rating by :func:`rate_people`, each player a team of their own. In a game with bots,
:func:`rate_against_fixed` lets the bots' fixed ladder ratings take part in the update and
moves only the people: a bot's rating is a measurement (``spieltisch lab ladder``), not
something a person's game can change. What a page shows is :func:`conservative`, ``mu - 3
sigma``. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from spieltisch.core.errors import SpieltischError

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
"""OpenSkill's defaults, spelled out: the bot ladder's scale is built on them."""
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
"""The one model every rating goes through (its other settings are OpenSkill's defaults)."""


class RatingError(SpieltischError):
    """A rating update asked for with ranks that do not fit its players."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one game and number of players."""

    mu: float
    sigma: float
    games: int = 0
    """Rated games behind it."""


def default_rating() -> Rating:
    """A newcomer's rating: OpenSkill's starting ``mu`` and ``sigma``, no games."""
    return Rating(MU, SIGMA, 0)


def conservative(rating: Rating) -> float:
    """The rating a page shows: ``mu - 3 sigma``, what the player is very likely above."""
    return rating.mu - 3.0 * rating.sigma


def _updated(ratings: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    """Every entry's new rating (its games counted once more)."""
    if len(ratings) != len(ranks):
        raise RatingError(f"{len(ranks)} ranks for {len(ratings)} players")
    if len(ratings) < 2:
        raise RatingError("a rated game needs two players at least")
    teams = [[PlackettLuceRating(r.mu, r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(rated, ratings, strict=True)
    ]


def rate_people(ratings: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    """The players' ratings after a game they finished with ``ranks`` (lower is better, equal
    ranks tie), each player a team of their own, in the order given."""
    return _updated(ratings, ranks)


def rate_against_fixed(
    people: Mapping[int, Rating],
    fixed: Mapping[int, Rating],
    ranks: Mapping[int, float] | Sequence[float],
) -> dict[int, Rating]:
    """The people's ratings after a game with bots, by seat. ``people`` and ``fixed`` (the
    bots) map seats to ratings, ``ranks`` gives each seat's rank (by seat: a mapping or a
    sequence). The bots' ratings take part in the update but stay as they are: only the
    people move."""
    seats = sorted([*people, *fixed])
    if people.keys() & fixed.keys() or len(ranks) != len(seats):
        raise RatingError(f"seats {seats} must each be a person or a bot, once, with a rank")
    try:
        ordered = [ranks[seat] for seat in seats]
    except (KeyError, IndexError):
        raise RatingError(f"the ranks {ranks!r} do not cover the seats {seats}") from None
    everyone = [people[s] if s in people else fixed[s] for s in seats]
    moved = dict(zip(seats, _updated(everyone, ordered), strict=True))
    return {seat: moved[seat] for seat in sorted(people)}


__all__ = [
    "BETA",
    "MODEL",
    "MU",
    "SIGMA",
    "Rating",
    "RatingError",
    "conservative",
    "default_rating",
    "rate_against_fixed",
    "rate_people",
]
