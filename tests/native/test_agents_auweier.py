"""Auweier's native heuristic plays the Python heuristic's moves.

On games of every config (:func:`~tests.native.agreement.configs`) driven by the Python
heuristic with a few random moves mixed in, the native agent picks exactly the Python move at
every decision once the decks are dealt. The deck order is the book's plan drawn from each
side's own generator (Rust's is not Python's ``random.Random``), so there the tests hold the
native agent to the plan's chances: every native deck step is one the plan can give (its exact
chances worked out by walking every answer of the plan's draws), and at a few deck positions
the native picks over thousands of seeds fit those chances (a chi-square test). Whole games
played natively between heuristics (and random seats) replay in Python to the same end, each
heuristic move after the deal the Python heuristic's. That the native agent reads only its
seat's view is the Rust test ``states_the_seat_cannot_tell_apart_get_the_same_move``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.game import Game, State
from spieltisch.games.auweier.bots.book import plan_next
from spieltisch.games.auweier.model import Stage
from spieltisch.games.auweier.notation import DECK, Arrange, Card
from spieltisch.games.auweier.view import AuweierView
from spieltisch.native import agents as native_agents
from spieltisch.native.face import Step
from tests.native.agreement import Config, configs, require_native

AUWEIER = "auweier"
DECISIONS = 150
"""Decisions after the deal compared per config."""
MIXED = 0.2
"""How often a walk plays a random move instead of the heuristic's (to reach odd states)."""
MAX_MOVES = 1500
"""Steps a native game is played at most: every game must finish well within it. Heuristics
once exchanged a False Worm back and forth for ever (at ``worm_value_2=20`` say: one laid a
2 for its False Worm, then fetched it back); the cap makes such a game fail, not hang."""
CHI_SQUARE_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}
"""The 99.9% points of chi-square by degrees of freedom."""

require_native(AUWEIER)
if not native_agents.plays_natively(AUWEIER, ["heuristic"]):
    pytest.fail("the native core has no Auweier heuristic", pytrace=False)


def _game(config: Config) -> Game:
    return spieltisch.load(AUWEIER, config.players, **config.options)


def _roster(game: Game) -> Any:
    return native_agents.roster(native_agents.native_game(game), ("heuristic",))


class _Script(random.Random):
    """A generator whose ``randrange`` answers from ``picks`` (then 0), noting each range."""

    def __init__(self, picks: Sequence[int]) -> None:
        super().__init__(0)
        self.picks = picks
        self.asked: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1
        index = len(self.asked)
        self.asked.append(start)
        return self.picks[index] if index < len(self.picks) else 0


def plan_chances(hand: Sequence[int]) -> dict[Card, Fraction]:
    """The exact chance of each next card of the Python plan for ``hand`` (every answer of
    each of its ``randrange`` draws walked, each equally likely)."""
    chances: dict[Card, Fraction] = {}
    todo: list[tuple[int, ...]] = [()]
    while todo:
        picks = todo.pop()
        script = _Script(picks)
        card = plan_next(hand, script)
        if len(script.asked) > len(picks):
            todo.extend((*picks, k) for k in range(script.asked[len(picks)]))
            continue
        chance = math.prod((Fraction(1, n) for n in script.asked), start=Fraction(1))
        chances[card] = chances.get(card, Fraction(0)) + chance
    return chances


def _view(state: State) -> AuweierView:
    """The view of the player to move."""
    view = state.view(state.current_player())
    assert isinstance(view, AuweierView)
    return view


def _check_deck_step(state: State, native_move: int, game: Game) -> None:
    """A native deck step is one the plan can give for the hand."""
    view = _view(state)
    assert view.hand is not None
    possible = {game.action_id(Arrange((card,))) for card in plan_chances(view.hand)}
    assert native_move in possible, (view.hand, native_move)


def _walk(game: Game, seed: int, count: int) -> tuple[int, int]:
    """Games driven by the Python heuristic (with random moves mixed in), the native move
    compared at every decision: exactly after the deal, the plan's support before. How many
    decisions were compared each way."""
    rng = random.Random(seed)
    native = native_agents.native_game(game)
    roster = _roster(game)
    python = make_agent("heuristic", game, seed)
    state, steps = game.initial_state(), list[Step]()
    exact = planned = 0
    while exact < count:
        if state.is_terminal():
            state, steps = game.initial_state(), list[Step]()
            continue
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            view, legal = _view(state), state.legal_actions()
            move = python.act(view, legal)
            mine = roster.act("heuristic", steps, exact + planned)
            if view.stage is Stage.ORDER:
                _check_deck_step(state, mine, game)
                planned += 1
            else:
                assert mine == game.action_id(move), (view.stage, move, steps)
                exact += 1
            if rng.random() < MIXED:
                move = rng.choice(legal)
        steps.append(native.step_of(state, move))
        state = state.apply(move)
    return exact, planned


@pytest.mark.parametrize("config", configs(AUWEIER), ids=str)
def test_the_native_heuristic_plays_the_python_move(config: Config) -> None:
    exact, planned = _walk(_game(config), seed=len(str(config)), count=DECISIONS)
    assert exact == DECISIONS and (planned > 0 or config.options.get("lucky_eggs"))


def test_the_plan_chances_are_the_books() -> None:
    """The walk of the plan's draws gives the chances the book describes."""
    third = Fraction(1, 6)
    assert plan_chances(DECK) == {
        Card.WEDDING: third,
        Card.SEVEN: (1 - third) / 2,
        Card.SIX: (1 - third) / 2,
    }


@pytest.mark.parametrize(
    "placed",
    [(), ("7", "6"), ("7", "6", "5*", "H", "4"), ("H", "6", "7", "4", "4", "K", "2*", "5*", "K")],
    ids=lambda placed: " ".join(placed) or "fresh",
)
def test_the_native_deck_steps_follow_the_plans_chances(placed: tuple[str, ...]) -> None:
    """After the deck steps ``placed``, the native next card over many seeds fits the Python
    plan's exact chances (chi-square at 99.9%)."""
    game = spieltisch.load(AUWEIER)
    native = native_agents.native_game(game)
    roster = _roster(game)
    state, steps = game.initial_state(), list[Step]()
    for text in placed:
        move = state.parse(f"deck {text}")
        steps.append(native.step_of(state, move))
        state = state.apply(move)
    view = _view(state)
    assert view.stage is Stage.ORDER and view.hand is not None
    chances = plan_chances(view.hand)
    ids = {game.action_id(Arrange((card,))): chance for card, chance in chances.items()}
    draws = 3000
    picks = Counter(roster.act("heuristic", steps, seed) for seed in range(draws))
    assert set(picks) <= set(ids)
    if len(ids) == 1:
        return
    statistic = sum((picks[a] - draws * p) ** 2 / (draws * p) for a, p in ids.items())
    assert statistic < CHI_SQUARE_999[len(ids) - 1], (picks, chances)


@pytest.mark.parametrize("config", configs(AUWEIER), ids=str)
def test_native_heuristic_games_replay_with_the_python_heuristics_moves(config: Config) -> None:
    """Heuristic against random and against itself, played natively: each game replays in
    Python to the same end (or the same unfinished state); every heuristic move after the deal
    is the Python heuristic's, every deck step one of its plan's."""
    game = _game(config)
    python = make_agent("heuristic", game, 0)
    rng = random.Random(len(str(config)))
    seatings = [("heuristic",) * game.players, ("random",) + ("heuristic",) * (game.players - 1)]
    matches = [
        native_agents.Match(
            rng.getrandbits(64),
            seatings[i % 2],
            tuple(rng.getrandbits(64) for _ in range(game.players)),
            keyed=bool(i % 2),
        )
        for i in range(2)
    ]
    checked = 0
    played = native_agents.play_games(game, matches, max_moves=MAX_MOVES, records=True)
    for match, one in zip(matches, played, strict=True):
        assert one.finished
        moves, states = native_agents.replay(game, one)
        for state, move in zip(states[:-1], moves, strict=True):
            player = state.current_player()
            if player is None or match.seats[player] != "heuristic":
                continue
            if _view(state).stage is Stage.ORDER:
                _check_deck_step(state, game.action_id(move), game)
                continue
            chosen = python.act(state.view(player), state.legal_actions())
            assert game.action_id(chosen) == game.action_id(move), (config, match)
            checked += 1
    assert checked > 0
