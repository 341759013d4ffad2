"""The speed helpers give the very values and draws of the plain code they stand in for."""

from __future__ import annotations

import bisect
import copy
import dataclasses
import enum
import itertools
import pickle
import random
import sys

import pytest

import spieltisch
from spieltisch.core.chance import Distribution, randbelow, sample_draw
from spieltisch.core.codec import SKIP_FIELD, to_jsonable
from spieltisch.core.fast import HashOnce, KeyEnum, builder, hash_once
from spieltisch.games import REGISTRY
from spieltisch.games.auf_die_eier.notation import FACES, Reroll, reroll_ids
from spieltisch.games.auf_die_eier.rules import is_legal_reroll, rerolls_of


@hash_once
@dataclasses.dataclass(frozen=True, slots=True)
class Kept(HashOnce):
    number: int
    items: tuple[str, ...]
    note: str = dataclasses.field(default="", compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Plain:
    number: int
    items: tuple[str, ...]
    note: str = dataclasses.field(default="", compare=False)


def test_hash_once_gives_the_dataclass_hash_and_equality() -> None:
    value = Kept(3, ("a", "b"), "x")
    assert hash(value) == hash(Plain(3, ("a", "b"), "y"))
    assert hash(value) == hash(value)  # the kept hash, asked again
    assert value == Kept(3, ("a", "b"), "other note")
    assert value != Kept(4, ("a", "b"))
    assert hash(builder(Kept)(3, ("a", "b"), "")) == hash(value)


def test_hash_once_keeps_the_hash_out_of_pickles_and_copies() -> None:
    value = Kept(7, ("z",))
    hash(value)
    assert pickle.dumps(value) == pickle.dumps(Kept(7, ("z",)))
    for twin in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert twin == value
        assert hash(twin) == hash(value)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 216, 1 << 40, 10**12 + 39])
def test_randbelow_draws_what_randrange_draws(n: int) -> None:
    ours, theirs = random.Random(n), random.Random(n)
    assert [randbelow(ours, n) for _ in range(300)] == [theirs.randrange(n) for _ in range(300)]
    assert ours.random() == theirs.random()  # the generators are left in the same place


def test_randbelow_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        randbelow(random.Random(1), 0)
    with pytest.raises(ValueError):
        sample_draw(random.Random(1), [0, 0])


class Drawing(random.Random):
    """A generator drawing its own way: the helpers must ask it, not its bits."""

    def randrange(self, *args: object, **kwargs: object) -> int:
        return 0


def test_a_subclassed_generator_draws_its_own_way() -> None:
    assert randbelow(Drawing(5), 1000) == 0
    assert Distribution(["a", "b"], [1, 1000]).sample(Drawing(5)) == "a"


def test_distribution_samples_as_randrange_and_bisection_do() -> None:
    weights = [3, 1, 4, 1, 5, 9, 2, 6]
    event = Distribution(list("abcdefgh"), weights)
    cumulative = list(itertools.accumulate(weights))
    ours, theirs = random.Random(11), random.Random(11)
    expected = [
        "abcdefgh"[bisect.bisect_right(cumulative, theirs.randrange(sum(weights)))]
        for _ in range(500)
    ]
    assert [event.sample(ours) for _ in range(500)] == expected


class Shade(enum.IntEnum):
    DARK = 1


class Mood(enum.Enum):
    GLAD = "glad"


@dataclasses.dataclass(frozen=True)
class Inner:
    mood: Mood
    shade: Shade
    secret: int = dataclasses.field(default=0, metadata={SKIP_FIELD: True})


@dataclasses.dataclass(frozen=True)
class Outer:
    inner: Inner
    tags: frozenset[str]
    pairs: tuple[tuple[int, bool], ...]
    table: dict[int, str]


def test_to_jsonable_writes_each_kind_the_same_way_every_time() -> None:
    value = Outer(Inner(Mood.GLAD, Shade.DARK, 42), frozenset({"b", "a"}), ((1, True),), {2: "x"})
    expected = {
        "inner": {"mood": "glad", "shade": 1},
        "tags": ["a", "b"],
        "pairs": [[1, True]],
        "table": {"2": "x"},
    }
    assert to_jsonable(value) == expected
    assert to_jsonable(value) == expected  # the second time through the kept writers


def test_to_jsonable_refuses_what_it_cannot_write() -> None:
    with pytest.raises(TypeError):
        to_jsonable(object())
    with pytest.raises(TypeError):
        to_jsonable(Inner)  # a dataclass class, not a value


def _old_rerolls(dice: tuple[int, ...]) -> list[Reroll]:
    """Every re-roll of some of the non-rotten ``dice``, worked out the plain way."""
    choices = [range(n + 1) for n in dice]
    choices[2] = range(1)  # Rotten Eggs stay
    return [Reroll(c) for c in itertools.product(*choices) if any(c)]


@pytest.mark.parametrize("dice", [(1, 0, 0, 0, 0, 0), (2, 1, 3, 0, 1, 2), (0, 3, 0, 2, 2, 2)])
def test_reroll_lists_and_the_legality_check_agree_with_the_plain_way(
    dice: tuple[int, ...],
) -> None:
    ids = reroll_ids()
    listed = rerolls_of((dice[0], dice[1], 0, dice[3], dice[4], dice[5]))
    old = sorted(_old_rerolls(dice), key=ids.__getitem__)
    assert list(listed[1:]) == old
    own: dict[object, Reroll] = {r: r for r in ids}
    assert all(r is own[r] for r in listed[1:])  # the action table's own re-rolls, shared
    legal = set(old)
    for candidate in ids:
        assert is_legal_reroll(candidate, dice) == (candidate in legal)
    assert not is_legal_reroll(Reroll((0,) * FACES), dice)
    assert not is_legal_reroll(Reroll((0, 0, 1, 0, 0, 0)), (0, 0, 1, 0, 0, 0))


def _game_enums() -> list[type[enum.Enum]]:
    """Every enum the four games and the core declare (IntEnums hash as ints already)."""
    for game_id in REGISTRY.implemented():
        spieltisch.load(game_id, 2)
    found: list[type[enum.Enum]] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("spieltisch.games.", "spieltisch.core.")):
            continue
        for item in vars(module).values():
            if isinstance(item, type) and issubclass(item, enum.Enum) and list(item):
                found += [item] if item.__module__ == name else []
    return found


def test_the_games_enums_hash_in_c_by_identity() -> None:
    """A dictionary keyed by a game's enum (stages, nuts, lands, cards) looks its members up
    without running Python code: each is a KeyEnum or an IntEnum, never enum.Enum's hash of
    the name."""
    enums = _game_enums()
    assert len(enums) >= 20
    slow = [e.__qualname__ for e in enums if e.__hash__ is enum.Enum.__hash__]
    assert slow == ["NodeKind"]  # core's node kinds are compared, never looked up
    for kind in enums:
        for member in kind if kind.__qualname__ != "NodeKind" else ():
            assert hash(member) == (
                int.__hash__(member) if isinstance(member, int) else object.__hash__(member)
            )
            assert {member: 1}[member] == 1 and member == copy.copy(member)
    assert issubclass(KeyEnum, enum.Enum) and not list(KeyEnum)
