"""ISMCTS: decides from the view alone, respects its budget setting, and reports its work."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import spieltisch
from spieltisch.agents import IsmctsAgent, agent_names, game_book, make_agent
from spieltisch.agents.ismcts import Node, _settled
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, State
from spieltisch.games import REGISTRY, kit_of
from spieltisch.games.auf_die_eier import EierState
from spieltisch.games.auf_die_eier.bots.search import candidates


def searchable_games() -> list[str]:
    return [g for g in REGISTRY.implemented() if "ismcts" in agent_names(spieltisch.load(g))]


def decision_states(game: Game, seed: int, count: int) -> list[State]:
    """Decision states that search must think about, from a seeded random game."""
    rng = random.Random(seed)
    book = game_book(game)
    state = game.initial_state()
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        player = state.current_player()
        set_move = book(state.view(player), legal, rng) if book else None
        if len(legal) > 1 and set_move is None and rng.random() < 0.3:
            found.append(state)
        state = state.apply(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("game_id", searchable_games())
def test_the_same_view_gives_the_same_decision_whatever_the_true_state(game_id: str) -> None:
    game = spieltisch.load(game_id, 2)
    for state in decision_states(game, seed=3, count=3):
        player = state.current_player()
        assert player is not None
        belief = kit_of(game).belief
        assert belief is not None
        twin = belief.redeal(state, player, random.Random(7))
        assert twin.view(player) == state.view(player)
        first = IsmctsAgent(game, seed=11, iterations=60)
        second = IsmctsAgent(game, seed=11, iterations=60)
        assert first.act(state.view(player), state.legal_actions()) == second.act(
            twin.view(player), twin.legal_actions()
        )
        assert first.last is not None and 32 <= first.last.iterations <= 60


def test_a_search_reports_its_iterations_and_rates_every_choice() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    state = game.initial_state().apply_text("roll WWPCCFFHR")
    agent = IsmctsAgent(game, seed=1, iterations=200)
    result = agent.search(state.view(0), state.legal_actions())
    assert 32 <= result.iterations <= 200
    assert {c.action for c in result.choices} == set(state.legal_actions())
    assert sum(c.visits for c in result.choices) == result.iterations
    assert result.action == result.choices[0].action
    assert "simulated games" in agent.explain(state.view(0), state.legal_actions())


def test_a_forced_move_needs_no_search() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    agent = IsmctsAgent(game, seed=1, iterations=50)
    assert agent.search(None, ["only"]).iterations == 0


def test_strength_settings_are_parsed_and_checked() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    timed = make_agent("ismcts:0.25s", game, 1)
    counted = make_agent("ismcts:500", game, 1)
    assert isinstance(timed, IsmctsAgent) and timed.seconds == 0.25 and timed.iterations is None
    assert isinstance(counted, IsmctsAgent) and counted.iterations == 500
    for bad in ("ismcts:fast", "ismcts:-1s", "random:3"):
        with pytest.raises(OptionError):
            make_agent(bad, game, 1)


def test_a_timed_search_stops_by_itself() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    state = game.initial_state().apply_text("roll WWPCCFFHR")
    agent = IsmctsAgent(game, seed=1, seconds=0.05)
    result = agent.search(state.view(0), state.legal_actions())
    assert result.iterations >= 1 and result.action in state.legal_actions()


def test_a_search_stops_once_its_choice_cannot_change() -> None:
    root = Node(None)
    for visits, action in ((50, "a"), (20, "b")):
        child = root.children.setdefault(0, {})[action] = Node(0)
        child.visits = visits
    assert _settled(root, 29) and not _settled(root, 30)
    game = spieltisch.load("auf-die-eier", 2)
    # the last turn of the game, 26 points behind: stopping with these dice scores 27 and wins
    # for sure, so the search soon sees that the other choice it weighs cannot catch up
    thrown = game.initial_state().apply_text("roll WWWPCCFFH")
    assert isinstance(thrown, EierState)
    sheet = replace(thrown.sheet, scores=(106, 80), final_round=True)
    state = replace(thrown, sheet=sheet, player=1)
    stopped_early = 0
    for seed in range(6):
        result = IsmctsAgent(game, seed=seed, iterations=320).search(
            state.view(1), state.legal_actions()
        )
        if result.iterations < 320:
            stopped_early += 1
            top, second = result.choices[0].visits, result.choices[1].visits
            assert top - second > 320 - result.iterations
    assert stopped_early


def test_a_book_move_is_played_without_searching_and_said_to_be_one() -> None:
    game = spieltisch.load("auweier", 2)
    state = game.initial_state()
    while state.is_chance():
        state = state.apply(state.sample_chance(random.Random(1)))
    player = state.current_player()
    agent = IsmctsAgent(game, seed=1, iterations=500)
    result = agent.search(state.view(player), state.legal_actions())
    assert result.iterations == 0
    assert "book" in agent.explain(state.view(player), state.legal_actions())


def _tree_height(node: Node) -> int:
    children = [child for row in node.children.values() for child in row.values()]
    return 1 + max((_tree_height(child) for child in children), default=-1)


@pytest.mark.parametrize("depth", [1, 2])
def test_a_capped_tree_grows_no_deeper_than_its_cap(depth: int) -> None:
    game = spieltisch.load("awimbawe", 2)
    state = decision_states(game, seed=1, count=1)[0]
    view = state.view(state.current_player())
    capped = IsmctsAgent(game, seed=1, iterations=300, tree_depth=depth)
    uncapped = IsmctsAgent(game, seed=1, iterations=300)
    assert uncapped.tree_depth is None  # Awimbawé sets no cap
    heights = []
    for agent in (capped, uncapped):
        root = Node(None)
        for _ in range(300):
            agent._iterate(root, view)
        heights.append(_tree_height(root))
    assert heights[0] == depth < heights[1]


def test_a_tree_depth_below_one_is_refused_and_a_game_cap_can_be_overridden() -> None:
    game = spieltisch.load("auf-die-nuesse", 2)
    assert IsmctsAgent(game, 1, tree_depth=3).tree_depth == 3
    with pytest.raises(OptionError, match="at least 1"):
        IsmctsAgent(game, 1, tree_depth=0)


@pytest.mark.parametrize(
    ("game_id", "unit"), [("auweier", "win and lead"), ("awimbawe", "win chance")]
)
def test_a_search_that_values_the_lead_says_so_in_its_ratings_and_its_hint(
    game_id: str, unit: str
) -> None:
    """A game with a ``margin`` hint (Auweier) rates by win and lead blended: its hint must
    not call that a share of the wins."""
    from spieltisch.web.tables.bots import advice_text

    game = spieltisch.load(game_id, 2)
    rng = random.Random(3)
    state = game.initial_state()
    agent = make_agent("ismcts:200", game, 1)
    while True:
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        player = state.current_player()
        assert player is not None
        ratings = agent.rate(state.view(player), state.legal_actions())
        if ratings is not None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    assert ratings.unit == unit
    text = advice_text(kit_of(game).words, state.view(player), ratings)
    assert ("half for winning and half for the lead" in text) == (unit == "win and lead")


def test_a_search_with_candidates_tries_no_other_choice() -> None:
    """Auf die Eier narrows every throw to the expert's two best choices: the Python search
    (the reference) never visits another, and plays one of the two."""
    game = spieltisch.load("auf-die-eier", 2)
    agent = IsmctsAgent(game, seed=2, iterations=200, native=False)
    assert agent.candidates is candidates
    for state in decision_states(game, seed=4, count=3):
        legal = state.legal_actions()
        weighed = candidates(state, legal)
        result = agent.search(state.view(state.current_player()), legal)
        assert result.action in weighed
        visited = {choice.action for choice in result.choices if choice.visits}
        assert visited <= set(weighed) and len(weighed) < len(legal)
