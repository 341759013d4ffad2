"""``core.fast.value`` classes behave as the frozen dataclasses they replace, and stay read-only.

Equality, hashes (the same numbers), ``repr``, the dataclass helpers, the codec, copies and
pickles must match a frozen twin; caches kept outside the fields (a kept hash, legal
actions) must stay out of copies and pickles; mypy must refuse an assignment to a field.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest

import spieltisch
from spieltisch.core.codec import from_jsonable, to_jsonable
from spieltisch.core.fast import HashOnce, LegalCache, builder, hash_once, value
from spieltisch.games import REGISTRY


@value
class Point:
    x: int
    items: tuple[str, ...]
    note: str = dataclasses.field(default="", compare=False)
    scale: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class FrozenPoint:
    x: int
    items: tuple[str, ...]
    note: str = dataclasses.field(default="", compare=False)
    scale: int = 1


@hash_once
@value
class KeptPoint(HashOnce):
    x: int
    items: tuple[str, ...]


@value
class Derived:
    base: int
    double: int = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.base)


@value
class Counted:
    base: int
    calls: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "calls", (*self.calls, self.base))


@value(eq=False)
class Token:
    name: str


@value
class Cached(LegalCache):  # a State: abstract to mypy, built here only for its cache
    moves: tuple[int, ...]

    def work_out_legal(self) -> tuple[int, ...]:
        return self.moves


@value
class Empty:
    pass


def test_a_value_equals_and_hashes_like_its_frozen_twin() -> None:
    ours, theirs = Point(3, ("a", "b"), "x"), FrozenPoint(3, ("a", "b"), "x")
    assert hash(ours) == hash(theirs) == hash((3, ("a", "b"), 1))
    assert ours == Point(3, ("a", "b"), "another note")
    assert ours != Point(3, ("a", "b"), scale=2)
    assert ours != theirs  # type: ignore[comparison-overlap]  # two classes, as for dataclasses
    assert repr(ours) == repr(theirs).replace("FrozenPoint", "Point")
    assert Point(1, ()) == Point(x=1, items=(), note="", scale=1)
    assert hash(Empty()) == hash(()) and Empty() == Empty()


def test_the_dataclass_helpers_and_the_codec_work_on_values() -> None:
    point = Point(3, ("a",), "x", 2)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "items", "note", "scale"]
    assert dataclasses.replace(point, x=4) == Point(4, ("a",), "x", 2)
    assert dataclasses.asdict(point) == dataclasses.asdict(FrozenPoint(3, ("a",), "x", 2))
    assert to_jsonable(point) == to_jsonable(FrozenPoint(3, ("a",), "x", 2))
    assert from_jsonable(Point, to_jsonable(point)) == point
    assert not hasattr(point, "__dict__")  # slotted


def test_pickles_and_copies_carry_the_fields_as_a_frozen_dataclass_does() -> None:
    ours, theirs = Point(5, ("z",), "n"), FrozenPoint(5, ("z",), "n")
    assert ours.__getstate__() == theirs.__getstate__()
    for twin in (pickle.loads(pickle.dumps(ours)), copy.copy(ours), copy.deepcopy(ours)):
        assert twin == ours and twin.note == "n"
    derived = Derived(4)
    assert derived.double == 8
    assert pickle.loads(pickle.dumps(derived)).double == 8


def test_kept_hashes_and_legal_caches_stay_out_of_copies_and_pickles() -> None:
    kept = KeptPoint(7, ("q",))
    assert hash(kept) == hash((7, ("q",)))
    assert pickle.dumps(kept) == pickle.dumps(KeptPoint(7, ("q",)))  # the hash is not in it
    cached = Cached((1, 2))  # type: ignore[abstract]
    assert cached._legal is None  # a new value has not worked its moves out
    assert cached.legal_actions() == (1, 2)
    for twin in (pickle.loads(pickle.dumps(cached)), copy.copy(cached), copy.deepcopy(cached)):
        assert twin == cached
        with pytest.raises(AttributeError):
            twin._legal  # noqa: B018 - the cache did not travel
        assert twin.legal_actions() == (1, 2)
    twins: tuple[KeptPoint, ...] = (pickle.loads(pickle.dumps(kept)), copy.copy(kept))
    for twin_kept in twins:
        with pytest.raises(AttributeError):
            twin_kept._hash  # noqa: B018
        assert hash(twin_kept) == hash(kept)


def test_post_init_runs_once_and_eq_false_keeps_identity() -> None:
    assert Counted(3).calls == (3,)
    assert dataclasses.replace(Counted(3), base=4).calls == (3, 4)
    first, second = Token("a"), Token("a")
    assert first != second
    assert first in {first}
    assert hash(first) == object.__hash__(first)


def test_builder_is_the_class_itself_for_a_plain_value() -> None:
    assert builder(Point) is Point
    assert builder(Cached) is Cached  # type: ignore[type-abstract]
    assert builder(Counted) is not Counted  # it would run ``__post_init__``
    fast = builder(Derived, ("base", "double"))
    built = fast(2, 5)
    assert (built.base, built.double) == (2, 5)  # the caller's derived value, no __post_init__
    assert builder(Counted)(3, ()).calls == ()
    assert builder(Cached, ("moves",))((4,))._legal is None  # type: ignore[type-abstract]


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_every_game_builds_its_states_and_views_as_values(game_id: str) -> None:
    game = spieltisch.load(game_id)
    state = game.initial_state()
    kinds: tuple[type[Any], ...] = (type(state), type(state.view(0)))
    for kind in kinds:
        assert kind.__dict__.get("__value_plain_init__") or not dataclasses.fields(kind)[0].init
        assert not kind.__dataclass_params__.frozen


SNIPPET = """
from spieltisch.core.fast import value


@value
class P:
    x: int


p = P(1)
p.x = 2
"""


def test_mypy_refuses_an_assignment_to_a_value_field() -> None:
    api = pytest.importorskip("mypy.api")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "snippet.py"
        source.write_text(textwrap.dedent(SNIPPET))
        out, _, status = api.run(["--strict", "--cache-dir", folder, str(source)])
    assert status == 1
    assert 'Property "x" defined in "P" is read-only' in out
    assert out.count("error:") == 1
