"""Auf die Eier's race in the native core against :mod:`spieltisch.lab.eier_race`.

At decisions of random, expert and heuristic games (and at turns' starts and the ends) the
native ``win_chances`` (``native/src/games/auf_die_eier/race.rs``) gives every player the same
chance to win as the Python reference, within ``1e-9``, over the configurations the agreement
walk uses (every player count, the shared chicken ladder, both bounds of the goal). The Python
reference works out a whole turn under the expert's play in seconds for nine or ten dice, so
the test plays with five dice, and six where the walk would play ten; decisions are sampled.
Where the order of the sums decides (a tie for the lead, which the lab's lead changes count, and
the last round) the native core sums as numpy does: there the chances are equal to the bit.
"""

from __future__ import annotations

import random

import pytest

from spieltisch.core.agent import Agent
from spieltisch.core.game import Game, Move, OptionValue
from spieltisch.games import REGISTRY
from spieltisch.games.auf_die_eier import EierState, EierView, Stage
from spieltisch.games.auf_die_eier.bots.expert import ExpertAgent
from spieltisch.games.auf_die_eier.bots.heuristic import HeuristicAgent
from spieltisch.lab import eier_race
from spieltisch.native import auf_die_eier as native_eier
from tests.native.agreement import Config, configs, require_native

require_native("auf-die-eier")

TOLERANCE = 1e-9
SAMPLED = 12
"""Decisions compared per game, evenly spread (besides the last round's and the end)."""
DICE = {9: 5, 10: 6}
"""The walk's numbers of dice and the smaller ones played here instead (see above)."""


def _options(config: Config) -> dict[str, OptionValue]:
    options = dict(config.options)
    dice = options.get("dice", 9)
    assert isinstance(dice, int)
    options["dice"] = DICE.get(dice, dice)
    return options


CONFIGS = [
    pytest.param(config.players, _options(config), id=str(Config(config.players, _options(config))))
    for config in configs("auf-die-eier")
]


def _game(players: int, options: dict[str, OptionValue]) -> Game:
    return REGISTRY.game_class("auf-die-eier")(players, **options)


def _start(game: Game) -> EierState:
    state = game.initial_state()
    assert isinstance(state, EierState)
    return state


def _games(players: int, options: dict[str, OptionValue], seed: int) -> list[list[EierState]]:
    """Three games: random moves, the expert against the heuristic, and a mix of all three."""
    rng = random.Random(seed)
    game = _game(players, options)
    expert, heuristic = ExpertAgent(game), HeuristicAgent(game)
    seatings: list[list[Agent[EierView] | None]] = [
        [None] * players,
        [expert if seat % 2 == 0 else heuristic for seat in range(players)],
        [rng.choice([None, expert, heuristic]) for _ in range(players)],
    ]
    played = []
    for seating in seatings:
        state = _start(game)
        states = [state]
        while not state.is_terminal():
            move: Move
            if state.is_chance():
                move = state.sample_chance(rng)
            else:
                agent, legal = seating[state.player], state.legal_actions()
                move = (
                    rng.choice(legal)
                    if agent is None
                    else agent.act(state.view(state.player), legal)
                )
            state = state.apply(move)
            states.append(state)
        played.append(states)
    return played


def _compared(states: list[EierState]) -> list[EierState]:
    """The states whose chances are compared: :data:`SAMPLED` decisions and turns' starts
    spread over the game, every decision of the last round or a tie, and the end."""
    decisions = [s for s in states if s.stage is Stage.DECIDE]
    starts = [s for s in states if s.stage is Stage.ROLL and not s.rolls]
    spread = [*decisions[:: max(1, len(decisions) // SAMPLED)], *starts[:: len(starts) // 3 + 1]]
    last = [s for s in decisions if s.sheet.final_round or s.sheet.tie_players]
    return [*spread, *last, states[-1]]


def _near_tie(chances: tuple[float, ...]) -> bool:
    return sum(1 for c in chances if max(chances) - c <= 1e-10) > 1


@pytest.mark.skipif(not native_eier.has_race(), reason="the native core has no race")
@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_the_native_race_gives_the_python_chances(
    players: int, options: dict[str, OptionValue]
) -> None:
    compared = 0
    for states in _games(players, options, seed=players * 7 + len(str(options))):
        for state in _compared(states):
            expected = eier_race.win_chances(state)
            got = native_eier.win_chances(state)
            assert len(got) == players
            assert max(abs(e - g) for e, g in zip(expected, got, strict=True)) <= TOLERANCE, (
                f"{state.sheet} {state.stage} {state.rolls} {state.dice}: "
                f"Python {expected}, native {got}"
            )
            if state.sheet.final_round or state.sheet.tie_players or _near_tie(expected):
                # summed in Python's order: a tie for the lead is a tie in both (lead changes)
                assert got == expected
            compared += 1
    assert compared > 10


@pytest.mark.skipif(not native_eier.has_race(), reason="the native core has no race")
def test_the_native_race_refuses_a_chance_node_in_a_turn_as_python_does() -> None:
    rng = random.Random(3)
    state = _start(_game(2, {"dice": 5}))
    while not (state.is_chance() and state.rolls):
        state = state.apply(
            state.sample_chance(rng) if state.is_chance() else state.legal_actions()[-1]
        )
    with pytest.raises(ValueError, match="decision"):
        eier_race.win_chances(state)
    with pytest.raises(ValueError, match="decision"):
        native_eier.win_chances(state)
