"""Auf die Eier's racer: the native racer agrees with the Python reference, and plays for the
chance to win rather than for points.

The reference (:mod:`spieltisch.games.auf_die_eier.bots.racer`) is handed the lab's numpy race;
the native racer works everything out in Rust. On decisions of random walks of small configs
(five dice, so the Python expert's table behind the numpy race builds in a second), the worth
of every turn end agrees with the numpy race's to 1e-9, the choice values worked back from the
same turn ends are equal to the bit, and the native roster's racer plays the reference racer's
move. Then what the racer is for: behind in the last round it throws for the points that catch
the leader where the expert banks what it has, and ahead it banks a sure win where the expert
throws on for more.
"""

from __future__ import annotations

import pytest

import spieltisch
from spieltisch.agents import agent_names, make_agent
from spieltisch.games import kit_of
from spieltisch.games.auf_die_eier.bots import expert
from spieltisch.games.auf_die_eier.bots.racer import (
    RacerAgent,
    after_turn,
    best,
    choice_values,
    turn_ends,
)
from spieltisch.games.auf_die_eier.model import Stage
from spieltisch.games.auf_die_eier.notation import STOP
from spieltisch.games.auf_die_eier.rules import EierState
from spieltisch.lab import eier_race
from spieltisch.native import agents as native_agents
from spieltisch.native import auf_die_eier as native_eier
from spieltisch.native.face import Step
from spieltisch.web.tables.bots import advice_text
from tests.native.agreement import require_native
from tests.native.test_agents import decisions

require_native()
if not native_eier.has_racer():  # an older build of the native core
    pytest.skip("the native core is built without the racer", allow_module_level=True)

CONFIGS = [
    (2, {"dice": 5}),
    (3, {"dice": 5, "shared_chicken_ladder": True}),
    (2, {"dice": 5, "goal": 20}),
]
"""Small configs: the numpy race's expert table builds quickly with five dice."""
DECISIONS = 25
"""Decisions compared per config."""


def _walk(
    players: int, options: dict[str, int | bool], seed: int
) -> list[tuple[EierState, list[Step]]]:
    """Decisions of random walks, each with the native steps that lead to it."""
    game = spieltisch.load("auf-die-eier", players, **options)
    found = decisions(game, seed, DECISIONS)
    return [(state, steps) for state, steps in found if isinstance(state, EierState)]


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=str)
def test_the_native_racer_is_the_reference_racer(
    players: int, options: dict[str, int | bool]
) -> None:
    game = spieltisch.load("auf-die-eier", players, **options)
    roster = native_agents.roster(native_agents.native_game(game), ("racer",))
    reference = RacerAgent(game, eier_race.win_chances)
    for state, steps in _walk(players, options, seed=players):
        native_ends = native_eier.turn_ends(state)
        python_ends = turn_ends(state, eier_race.win_chances)
        for advanced in (0, 1):
            assert native_ends.chances[advanced] == pytest.approx(
                python_ends.chances[advanced], abs=1e-9
            )
        need = state.chicken_need(state.player)
        assert native_eier.racer_choices(state) == choice_values(
            state.rolls, state.dice, need, native_ends
        )
        view = state.view(state.player)
        expected = game.action_id(reference.act(view, state.legal_actions()))
        assert roster.act("racer", steps, 0) == expected, steps


def _decision(
    scores: tuple[int, int], player: int, dice: tuple[int, ...], final: bool
) -> EierState:
    """A decision after the second throw of a two-player game with these scores."""
    state = spieltisch.load("auf-die-eier", 2).initial_state()
    assert isinstance(state, EierState)
    sheet = state.sheet.__class__(
        state.config, scores, state.sheet.crossed, final, (), frozenset(), None
    )
    return EierState(sheet, player, Stage.DECIDE, 2, dice, 0)


def test_behind_in_the_last_round_the_racer_throws_where_the_expert_banks() -> None:
    # 20 points on the table (four Whole Eggs and a Pot, a Chicken) only tie the leader
    state = _decision((110, 90), 1, (4, 0, 0, 4, 0, 1), final=True)
    assert after_turn(state, 20, False).tie_players == (0, 1)
    assert expert.best_choice(2, state.dice, state.chicken_need(1))[0] is STOP
    values = native_eier.racer_choices(state)
    action, chance = best(values)
    assert action is not STOP and chance > dict(values)[STOP] + 0.02
    assert make_agent("racer", state.game, 0).act(state.view(1), state.legal_actions()) == action


def test_ahead_the_racer_banks_a_sure_win_where_the_expert_throws_on() -> None:
    # the last seat of the round, 93 against 97: 15 points on the table end the game won
    state = _decision((97, 93), 1, (4, 2, 0, 3, 0, 0), final=False)
    assert after_turn(state, 15, False).is_terminal()
    assert expert.best_choice(2, state.dice, state.chicken_need(1))[0] is not STOP
    action, chance = best(native_eier.racer_choices(state))
    assert action is STOP and chance == 1.0


def test_the_racer_heads_the_levels_only_with_the_native_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = spieltisch.load("auf-die-eier", 2)
    assert agent_names(game)[0] == "racer"
    monkeypatch.setattr(native_eier, "has_racer", lambda: False)
    assert "racer" not in agent_names(game) and agent_names(game)[0] == "expert"


def test_the_racers_hint_speaks_of_the_chance_to_win() -> None:
    state = _decision((110, 90), 1, (4, 0, 0, 4, 0, 1), final=True)
    view = state.view(1)
    ratings = make_agent("racer", state.game, 0).rate(view, state.legal_actions())
    assert ratings is not None and ratings.unit == "chance to win"
    text = advice_text(kit_of(state.game).words, view, ratings)
    assert "chance to win the game" in text and "points this turn" not in text
