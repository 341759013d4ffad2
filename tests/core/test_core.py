"""The core: loading games, options, the registry, the codec and chance helpers."""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest

import spieltisch
from spieltisch.core.chance import (
    compositions,
    draw_outcomes,
    roll_outcomes,
    sample_draw,
    sample_roll,
)
from spieltisch.core.codec import from_jsonable, to_jsonable
from spieltisch.core.errors import GameNotImplementedError, OptionError, UnknownGameError
from spieltisch.core.registry import Registry


def test_the_four_game_ids_are_reserved() -> None:
    assert spieltisch.game_ids() == ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")


def test_load_uses_the_default_player_count_and_options() -> None:
    game = spieltisch.load("auf-die-eier")
    assert game.players == 2
    assert game.options == {"shared_chicken_ladder": False, "goal": 100, "dice": 9}
    assert spieltisch.load("auf-die-eier", 6, shared_chicken_ladder=True).players == 6
    assert repr(spieltisch.load("auf-die-eier", 3)) == "load('auf-die-eier', players=3)"


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "2 to 6 players"),
        (7, {}, "2 to 6 players"),
        (2, {"colour": True}, "no option 'colour'"),
        (2, {"shared_chicken_ladder": 1}, "takes a bool"),
    ],
)
def test_bad_player_counts_and_options_are_refused(
    players: int, options: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        spieltisch.load("auf-die-eier", players, **options)  # type: ignore[arg-type]


def test_unknown_and_unimplemented_games_raise_clear_errors() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        spieltisch.load("chess")
    registry = Registry()
    registry.reserve("later-game", "Later")
    with pytest.raises(GameNotImplementedError, match=r"Later .* not implemented yet"):
        registry.game_class("later-game")
    assert registry.implemented() == ()


def test_option_text_is_parsed_by_type() -> None:
    spec = spieltisch.load("auf-die-eier").info.option("shared_chicken_ladder")
    assert spec.parse("yes") is True and spec.parse("false") is False
    with pytest.raises(OptionError, match="true or false"):
        spec.parse("maybe")


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    kind: Colour
    share: Fraction


@dataclass(frozen=True)
class Outer:
    items: tuple[Inner, ...]
    pair: tuple[int, str]
    maybe: int | None
    seen: frozenset[int]


def test_codec_round_trips_nested_frozen_values() -> None:
    value = Outer((Inner(Colour.RED, Fraction(1, 3)),), (1, "a"), None, frozenset({3, 1}))
    data = to_jsonable(value)
    assert data == {
        "items": [{"kind": "red", "share": "1/3"}],
        "pair": [1, "a"],
        "maybe": None,
        "seen": [1, 3],
    }
    assert from_jsonable(Outer, data) == value


def test_codec_refuses_data_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="missing field"):
        from_jsonable(Inner, {"kind": "red"})
    with pytest.raises(ValueError, match="expected an integer"):
        from_jsonable(tuple[int, ...], [True])


def test_compositions_and_roll_outcomes_are_exact() -> None:
    assert len(compositions(9, 6)) == 2002
    outcomes = roll_outcomes(2, 6)
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[(1, 1, 0, 0, 0, 0)] == Fraction(2, 36)


def test_sampled_rolls_follow_the_exact_distribution() -> None:
    rng = random.Random(5)
    counts = Counter(sample_roll(rng, 2, 6) for _ in range(36_000))
    exact = dict(roll_outcomes(2, 6))
    chi_square = sum((counts[c] - 36_000 * p) ** 2 / (36_000 * p) for c, p in exact.items())
    assert chi_square < 45.3  # the 99.9% point of chi-square with 20 degrees of freedom


def test_blind_draws_follow_the_remaining_counts() -> None:
    assert draw_outcomes((2, 0, 1)) == ((0, Fraction(2, 3)), (2, Fraction(1, 3)))
    rng = random.Random(1)
    drawn = Counter(sample_draw(rng, (2, 0, 1)) for _ in range(3000))
    assert set(drawn) == {0, 2} and 1800 < drawn[0] < 2200
