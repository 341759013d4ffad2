"""The native search: legal, reproducible, within its bounds, and as strong as the Python one.

Every test runs on each of the four games whose native belief sampler reads the codes its
converter packs; a game whose converter packs none yet, or whose native sampler still refuses
every code (a placeholder), is skipped by name. The agreement with the Python search is on
positions with a clear best move, found by a long native search: both searches, at a short
budget and with their own seeds, pick it (and on Auf die Eier, on positions built by hand whose
best move is known).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spieltisch
from spieltisch import native
from spieltisch.agents import IsmctsAgent
from spieltisch.agents.ismcts import MAX_ITERATIONS, MAX_SECONDS
from spieltisch.core.errors import InvalidActionError, NativeError, OptionError
from spieltisch.core.game import Game, Move, State
from spieltisch.games import REGISTRY
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.rules import AwimbaweState
from spieltisch.native import NativeGame
from spieltisch.native.awimbawe import STAGES as AWIMBAWE_STAGES
from tests.agents.test_ismcts import decision_states
from tests.native.agreement import require_native

require_native()

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
AWIMBAWE_STAGE_AT = 8
"""Where an Awimbawé belief code holds the stage (after the viewer, six options, the round)."""


def asked(state: State) -> tuple[object, Sequence[Move]]:
    """The deciding seat's view and the legal moves."""
    player = state.current_player()
    assert player is not None
    return state.view(player), state.legal_actions()


@functools.cache
def why_not_searched(game_id: str) -> str | None:
    """Why the native core cannot search ``game_id`` yet (``None``: it can)."""
    if game_id not in native.games():
        return "not in this native core"
    game = spieltisch.load(game_id, 2)
    twin = NativeGame(game)
    view, legal = asked(decision_states(game, seed=1, count=1)[0])
    if not hasattr(twin.native, "search"):
        return "the native core built here predates the search"
    if twin.belief_code(view) is None:
        return "its converter packs no belief code yet"
    try:
        twin.search(view, legal, seed=1, iterations=1)
    except InvalidActionError as refused:
        return f"its native belief refuses the code ({refused})"
    return None


@pytest.fixture(params=GAMES)
def game_id(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    reason = why_not_searched(name)
    if reason is not None:
        pytest.skip(f"native search of {name}: {reason}")
    return name


def twin_of(game_id: str, players: int = 2) -> tuple[Game, NativeGame]:
    game = spieltisch.load(game_id, players)
    return game, NativeGame(game)


@pytest.mark.parametrize("players", [2, 4])
def test_a_native_search_picks_a_legal_move_and_rates_every_choice(
    game_id: str, players: int
) -> None:
    if players > REGISTRY.game_class(game_id).info.max_players:
        pytest.skip(f"{game_id} takes fewer than {players} players")
    game = spieltisch.load(game_id, players)
    for state in decision_states(game, seed=2, count=3):
        view, legal = asked(state)
        agent = IsmctsAgent(game, seed=5, iterations=100, native=True)
        result = agent.search(view, legal)
        assert result.action in legal and result.action == result.choices[0].action
        assert {c.action for c in result.choices} == set(legal)
        assert len(result.choices) == len(legal)
        assert 32 <= result.iterations <= 100
        assert sum(c.visits for c in result.choices) == result.iterations
        assert all(0.0 <= c.mean_return <= 1.0 for c in result.choices)
        ranks = [(c.visits, c.mean_return) for c in result.choices]
        assert ranks == sorted(ranks, reverse=True)
        assert agent.rate(view, legal) is not None
        assert "simulated games" in agent.explain(view, legal)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_same_seed_and_threads_give_the_same_search(game_id: str, threads: int) -> None:
    game, twin = twin_of(game_id)
    view, legal = asked(decision_states(game, seed=3, count=1)[0])
    runs = [twin.search(view, legal, seed=9, iterations=300, threads=threads) for _ in range(2)]
    assert (runs[0].iterations, runs[0].choices) == (runs[1].iterations, runs[1].choices)
    assert sum(c.visits for c in runs[0].choices) == runs[0].iterations <= 300
    others = [twin.search(view, legal, seed=s, iterations=300, threads=threads) for s in (10, 11)]
    assert any(o.choices != runs[0].choices for o in others)
    # A seeded agent draws its native seeds from its own generator: the same agent seed, the
    # same decisions move after move.
    first, second = (IsmctsAgent(game, 4, iterations=100, threads=threads) for _ in range(2))
    for _ in range(3):
        one, two = first.search(view, legal), second.search(view, legal)
        assert (one.iterations, one.choices) == (two.iterations, two.choices)


def test_threads_grow_trees_that_share_the_budget(game_id: str) -> None:
    game, twin = twin_of(game_id)
    view, legal = asked(decision_states(game, seed=4, count=1)[0])
    for threads in (2, 4):
        found = twin.search(view, legal, seed=1, iterations=400, threads=threads)
        assert 32 <= found.iterations <= 400
        assert sum(c.visits for c in found.choices) == found.iterations
    assert twin.search(view, legal, seed=1, iterations=3, threads=8).iterations == 3
    timed = twin.search(view, legal, seed=1, seconds=0.05, threads=2)
    assert timed.iterations >= 2


def test_a_timed_search_stops_by_itself(game_id: str) -> None:
    game = spieltisch.load(game_id, 2)
    view, legal = asked(decision_states(game, seed=5, count=1)[0])
    agent = IsmctsAgent(game, seed=1, seconds=0.05, native=True)
    result = agent.search(view, legal)
    assert result.iterations >= 1 and result.action in legal
    assert result.seconds < 5.0  # stopped by itself, not run on without end


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"iterations": 10, "seconds": 1.0},
        {"iterations": 0},
        {"iterations": -1},
        {"iterations": MAX_ITERATIONS + 1},
        {"seconds": 0.0},
        {"seconds": -1.0},
        {"seconds": float("nan")},
        {"seconds": float("inf")},
        {"seconds": MAX_SECONDS + 1},
        {"iterations": 10, "threads": 0},
        {"iterations": 10, "threads": 65},
        {"iterations": 10, "threads": -1},
        {"iterations": 10, "tree_depth": 0},
        {"iterations": 10, "tree_depth": -2},
        {"iterations": 10, "exploration": float("nan")},
    ],
)
def test_a_budget_or_setting_out_of_bounds_is_refused(game_id: str, bad: dict[str, float]) -> None:
    game, twin = twin_of(game_id)
    view, legal = asked(decision_states(game, seed=6, count=1)[0])
    code = twin.belief_code(view)
    ids = [game.action_id(move) for move in legal]
    with pytest.raises(OptionError) as refused:
        twin.native.search(code, ids, seed=1, **bad)
    assert len(str(refused.value)) < 300


def test_input_that_is_no_belief_or_no_move_is_refused(game_id: str) -> None:
    game, twin = twin_of(game_id)
    view, legal = asked(decision_states(game, seed=6, count=1)[0])
    code = twin.belief_code(view)
    assert code is not None
    ids = [game.action_id(move) for move in legal]
    search = twin.native.search
    for belief in ("abc", [True] * len(code), [1.5], list(range(5000)), [], (*code, 0)):
        with pytest.raises(InvalidActionError):
            search(belief, ids, seed=1, iterations=5)
    for moves in ([], [-1], [twin.num_distinct_actions], [True], "ab", [2**40]):
        with pytest.raises(InvalidActionError):
            search(code, moves, seed=1, iterations=5)
    for seed in (-1, 2**64, 1.5, True):
        with pytest.raises(ValueError, match="seed"):
            twin.search(view, legal, seed=seed, iterations=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        search(None, ids, seed=1, iterations=5)
    assert search(code, ids, seed=1, iterations=5)[0] == 5  # still usable


@pytest.mark.parametrize("game_name", GAMES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_changed_belief_code_is_refused_or_searched_without_crashing(
    game_name: str, data: st.DataObject
) -> None:
    if why_not_searched(game_name) is not None:
        pytest.skip(f"native search of {game_name}: {why_not_searched(game_name)}")
    game, twin = twin_of(game_name)
    states = decision_states(game, seed=data.draw(st.integers(0, 50)), count=3)
    if not states:
        return
    view, legal = asked(data.draw(st.sampled_from(states)))
    code = list(twin.belief_code(view) or ())
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(code) - 1))
        code[at] = data.draw(st.one_of(st.integers(-3, 3), st.integers(-(2**63), 2**63 - 1)))
    else:
        code = code[: data.draw(st.integers(0, len(code)))]
    ids = [game.action_id(move) for move in legal]
    try:
        found = twin.native.search(code, ids, seed=1, iterations=20)
    except InvalidActionError:
        return
    iterations, _, choices = found
    assert 1 <= iterations <= 20 and sorted(a for a, _, _ in choices) == sorted(ids)


def test_an_awimbawe_trick_said_to_be_led_by_its_follower_is_refused() -> None:
    """The changed code hypothesis found: in the middle of a trick, the play's stage changed
    to the rhinoceros' (or another power's) makes the seat to act the trick's leader, a card
    ahead of the other, whose hand runs out while the round goes on. The native belief
    refuses it (it once searched it and crashed on the first world with no legal move)."""
    if why_not_searched("awimbawe") is not None:
        pytest.skip(f"native search of awimbawe: {why_not_searched('awimbawe')}")
    game, twin = twin_of("awimbawe")
    state = next(
        s
        for seed in range(20)
        for s in decision_states(game, seed=seed, count=3)
        if isinstance(s, AwimbaweState) and s.stage is Stage.PLAY and len(s.trick) == 1
    )
    view, legal = asked(state)
    code = list(twin.belief_code(view) or ())
    ids = [game.action_id(move) for move in legal]
    assert twin.native.search(code, ids, seed=1, iterations=20)[0] >= 1
    assert code[AWIMBAWE_STAGE_AT] == AWIMBAWE_STAGES.index(Stage.PLAY)
    for power in (Stage.RHINOCEROS, Stage.SNAKE, Stage.CHEETAH):
        code[AWIMBAWE_STAGE_AT] = AWIMBAWE_STAGES.index(power)
        with pytest.raises(InvalidActionError):
            twin.native.search(code, ids, seed=1, iterations=20)


def clear_positions(game_id: str, want: int) -> list[State]:
    """Positions from random games whose best move a long native search finds far ahead of
    the next: its mean return leads by at least a fifth and it is visited more than twice as
    often. (Auf die Eier's random games have none: a dice game's choices are close until the
    last turn, which the hand-made positions below cover.)"""
    game, twin = twin_of(game_id)
    found: list[State] = []
    for seed in range(8):
        for state in decision_states(game, seed=seed, count=6):
            view, legal = asked(state)
            top, second = twin.search(view, legal, seed=seed, iterations=5_000).choices[:2]
            if top.mean_return - second.mean_return >= 0.2 and top.visits > 2 * second.visits:
                found.append(state)
            if len(found) == want:
                return found
    return found


def test_both_searches_pick_the_clear_best_move(game_id: str) -> None:
    game = spieltisch.load(game_id, 2)
    positions = clear_positions(game_id, want=2)
    if not positions:
        pytest.skip(f"no position with a clear best move found in {game_id}'s random games")
    for state in positions:
        view, legal = asked(state)
        best = NativeGame(game).search(view, legal, seed=99, iterations=5_000).choices[0].action
        for seed in (1, 2):
            for use_native in (True, False):
                agent = IsmctsAgent(game, seed, iterations=400, native=use_native)
                assert agent.search(view, legal).action == best, (use_native, seed, state)


def eier_position(text: str, scores: tuple[int, int]) -> State:
    """Auf die Eier's last turn of the game (two players, seat 1 to choose after ``text``),
    with these scores."""
    state = spieltisch.load("auf-die-eier", 2).initial_state().apply_text(text)
    sheet = dataclasses.replace(state.sheet, scores=scores, final_round=True)  # type: ignore[attr-defined]
    return dataclasses.replace(state, sheet=sheet, player=1)  # type: ignore[type-var]


@pytest.mark.parametrize(
    ("text", "scores", "stops"),
    [
        ("roll WWWPCCFFH", (106, 80), True),  # stopping scores 27: a sure win
        ("roll WWWWWWWWW", (100, 96), False),  # stopping scores nothing: a sure loss
    ],
)
def test_on_a_last_turn_both_searches_see_whether_to_stop(
    text: str, scores: tuple[int, int], stops: bool
) -> None:
    if why_not_searched("auf-die-eier") is not None:
        pytest.skip(f"native search of auf-die-eier: {why_not_searched('auf-die-eier')}")
    state = eier_position(text, scores)
    view, legal = asked(state)
    game = spieltisch.load("auf-die-eier", 2)
    for seed in range(3):
        for use_native in (True, False):
            result = IsmctsAgent(game, seed, iterations=400, native=use_native).search(view, legal)
            assert (str(result.action) == "stop") is stops, (use_native, seed, result.choices[:3])
            if stops:
                assert result.choices[0].mean_return == 1.0


def test_a_game_the_native_core_cannot_search_falls_back_to_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if why_not_searched("auf-die-eier") is not None:
        pytest.skip(f"native search of auf-die-eier: {why_not_searched('auf-die-eier')}")
    game = spieltisch.load("auf-die-eier", 2)
    view, legal = asked(decision_states(game, seed=7, count=1)[0])

    def refuse(*args: object, **kwargs: object) -> None:
        raise InvalidActionError("no belief of this view")

    monkeypatch.setattr(NativeGame, "search", refuse)
    fallback = IsmctsAgent(game, seed=1, iterations=50)
    assert fallback.search(view, legal).iterations >= 32
    assert fallback._native is None  # from now on the Python search, without asking again
    with pytest.raises(InvalidActionError):
        IsmctsAgent(game, seed=1, iterations=50, native=True).search(view, legal)
    with pytest.raises(OptionError):
        IsmctsAgent(game, seed=1, iterations=50, native=False, threads=2)
    with pytest.raises(OptionError):
        IsmctsAgent(game, seed=1, iterations=50, threads=0)


def test_a_forced_move_is_still_played_without_searching() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    agent = IsmctsAgent(game, seed=1, iterations=50)
    assert agent.search(None, ["only"]).iterations == 0


def test_a_converter_without_belief_code_means_no_native_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, twin = twin_of("auf-die-eier")
    view, legal = asked(decision_states(game, seed=8, count=1)[0])
    monkeypatch.delattr(twin.convert, "belief_code")
    assert twin.belief_code(view) is None
    with pytest.raises(NativeError):
        twin.search(view, legal, seed=1, iterations=5)
    assert IsmctsAgent(game, seed=1, iterations=5)._native is None
    with pytest.raises(OptionError):
        IsmctsAgent(game, seed=1, iterations=5, native=True)
