"""The rating math: OpenSkill's documented numbers, the Weng-Lin update by hand, and the
properties the server relies on (a win raises mu, a bot never moves, ties, the shown value)."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuceRating

from spieltisch.web.people.ratings import (
    BETA,
    MODEL,
    Rating,
    RatingError,
    conservative,
    default_rating,
    rate_against_fixed,
    rate_people,
)

TAU = 25.0 / 300.0
"""OpenSkill's default dynamics: every sigma grows by it (in quadrature) before a game."""


def test_the_model_gives_the_documented_two_against_two_example() -> None:
    # openskill 6.2.0's README, "Limited Example" (also in the package's METADATA): two
    # default players beat two default players.
    r = MODEL.rating
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)


def test_a_newcomer_has_the_documented_defaults() -> None:
    # The README again: model.rating() is PlackettLuceRating(mu=25.0, sigma=8.333333333333334).
    assert default_rating() == Rating(25.0, 8.333333333333334, 0)
    assert conservative(default_rating()) == pytest.approx(0.0, abs=1e-12)


def _weng_lin_one_on_one(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """Weng and Lin's Plackett-Luce update (JMLR 12, 2011, Algorithm 4, as OpenSkill's docs
    give it) for one player beating another, worked by hand."""
    var = [winner.sigma**2 + TAU**2, loser.sigma**2 + TAU**2]
    mus = [winner.mu, loser.mu]
    c = math.sqrt(sum(v + BETA**2 for v in var))
    e = [math.exp(m / c) for m in mus]
    p_first = [e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1])]
    # The winner is in stage 1 only; the loser in stage 1 (lost) and stage 2 (alone: p = 1).
    omega = [var[0] / c * (1 - p_first[0]), var[1] / c * (0 - p_first[1])]
    delta = [math.sqrt(v) / c * v / c**2 * p_first[i] * (1 - p_first[i]) for i, v in enumerate(var)]
    new = [
        Rating(mus[i] + omega[i], math.sqrt(var[i] * max(1 - delta[i], 1e-4)), 1) for i in range(2)
    ]
    return new[0], new[1]


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        (Rating(25.0, 25.0 / 3.0), Rating(25.0, 25.0 / 3.0)),
        (Rating(20.0, 6.0), Rating(31.0, 2.5)),
        (Rating(40.0, 1.5), Rating(10.0, 7.0)),
    ],
)
def test_one_on_one_matches_the_update_worked_by_hand(winner: Rating, loser: Rating) -> None:
    expected = _weng_lin_one_on_one(winner, loser)
    got = rate_people([winner, loser], [0, 1])
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.mu == pytest.approx(theirs.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(theirs.sigma, abs=1e-9)
        assert mine.games == 1


def test_rate_people_is_the_model_with_each_player_a_team() -> None:
    ratings = [Rating(22.0, 5.0, 3), Rating(27.0, 4.0, 9), Rating(25.0, 8.0, 0)]
    ranks = [1.0, 0.0, 2.0]
    teams = [[PlackettLuceRating(r.mu, r.sigma)] for r in ratings]
    direct = MODEL.rate(teams, ranks=ranks)
    got = rate_people(ratings, ranks)
    assert [(g.mu, g.sigma) for g in got] == [(t[0].mu, t[0].sigma) for t in direct]
    assert [g.games for g in got] == [4, 10, 1]


def test_a_win_raises_mu_and_a_loss_lowers_it() -> None:
    start = default_rating()
    first, second, third = rate_people([start, start, start], [0, 1, 2])
    assert first.mu > start.mu > third.mu
    assert first.mu > second.mu > third.mu
    assert all(r.sigma < start.sigma for r in (first, second, third))


def test_ties_move_tied_players_alike() -> None:
    start = default_rating()
    tied = rate_people([start, start], [0, 0])
    assert tied[0].mu == pytest.approx(tied[1].mu)
    assert tied[0].mu == pytest.approx(start.mu, abs=1e-9)
    first, *rest = rate_people([start, start, start], [0, 1, 1])
    assert rest[0] == rest[1]
    assert first.mu > start.mu > rest[0].mu


def test_a_bot_never_moves_and_only_people_are_returned() -> None:
    person = default_rating()
    bot = Rating(30.0, 1.2, 500)
    after = rate_against_fixed({0: person}, {1: bot}, [0, 1])
    assert set(after) == {0}
    assert after[0].mu > person.mu and after[0].games == 1
    # The bot's rating took part: beating a strong bot counts for more than a weak one.
    weak = rate_against_fixed({0: person}, {1: Rating(10.0, 1.2, 500)}, [0, 1])
    assert after[0].mu > weak[0].mu
    assert bot == Rating(30.0, 1.2, 500)


def test_against_bots_the_people_move_as_in_the_full_update() -> None:
    people = {0: Rating(26.0, 6.0, 2), 2: Rating(24.0, 7.0, 1)}
    bots = {1: Rating(28.0, 1.0, 300), 3: Rating(18.0, 1.5, 300)}
    ranks = {0: 2.0, 1: 1.0, 2: 3.0, 3: 4.0}
    after = rate_against_fixed(people, bots, ranks)
    full = rate_people([people[0], bots[1], people[2], bots[3]], [2.0, 1.0, 3.0, 4.0])
    assert after == {0: full[0], 2: full[2]}
    assert rate_against_fixed(people, bots, [2.0, 1.0, 3.0, 4.0]) == after


def test_conservative_is_mu_less_three_sigma() -> None:
    assert conservative(Rating(30.0, 2.5, 7)) == pytest.approx(22.5)


@pytest.mark.parametrize(
    ("people", "fixed", "ranks"),
    [
        ({0: Rating(25, 8)}, {0: Rating(25, 1)}, [0, 1]),
        ({0: Rating(25, 8)}, {1: Rating(25, 1)}, [0, 1, 2]),
        ({0: Rating(25, 8)}, {2: Rating(25, 1)}, [0, 1]),
        ({0: Rating(25, 8)}, {}, [0]),
    ],
)
def test_ranks_that_do_not_fit_the_seats_are_refused(
    people: dict[int, Rating], fixed: dict[int, Rating], ranks: list[float]
) -> None:
    with pytest.raises(RatingError):
        rate_against_fixed(people, fixed, ranks)


def test_rate_people_refuses_mismatched_ranks() -> None:
    with pytest.raises(RatingError):
        rate_people([default_rating(), default_rating()], [0])
