"""Ratings: OpenSkill's Plackett-Luce model (multiplayer, with uncertainty), as the server
applies it to a finished rated game.

Each person has a :class:`Rating` per game and player count (mu, sigma and the games behind
it); the one shown is the conservative ``mu - 3 sigma``. A game's seats are each their own
team, ranked by the game's outcome (1 best; equal ranks are ties). Bots carry the fixed
ratings of the ladder (:mod:`spieltisch.agents.ladder`): they take part in the update, so
beating a strong bot counts for more, but only the people's ratings move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3, beta 25/6)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma``, with the rated games behind it."""

    mu: float
    sigma: float
    games: int = 0


def default_rating() -> Rating:
    """A new player's rating."""
    return Rating(MODEL.mu, MODEL.sigma, 0)


def conservative(rating: Rating) -> float:
    """The rating shown: ``mu - 3 sigma`` (the skill is very likely at least this)."""
    return rating.mu - 3 * rating.sigma


def rate_against_fixed(
    people: Mapping[int, Rating], fixed: Mapping[int, Rating], ranks: Mapping[int, float]
) -> dict[int, Rating]:
    """The people's new ratings after one game (seats to ratings; ``fixed`` seats are bots,
    whose ratings take part but do not move); ``ranks``: each seat's place, 1 best."""
    seats = sorted({*people, *fixed})
    teams = [[MODEL.rating(mu=_of(seat, people, fixed).mu, sigma=_of(seat, people, fixed).sigma)]
             for seat in seats]  # fmt: skip
    rated = MODEL.rate(teams, ranks=[float(ranks[seat]) for seat in seats])
    return {
        seat: Rating(team[0].mu, team[0].sigma, people[seat].games + 1)
        for seat, team in zip(seats, rated, strict=True)
        if seat in people
    }


def _of(seat: int, people: Mapping[int, Rating], fixed: Mapping[int, Rating]) -> Rating:
    return people[seat] if seat in people else fixed[seat]
