"""The small variant for OpenSpiel's tabular machinery (:mod:`spieltisch.rl.tabular`):
Awimbawé with one land is walked into OpenSpiel's extensive-form game, OpenSpiel's Python best
response on the registered game agrees with the C++ exploitability of the written one, CFR's
exploitability falls, and the agents' exploitability is a share of the win.

The walks start part-way through a deal of the one-land game (the rest of the deal still to
come, so every seat has something hidden): a few hundred nodes, walked in a second; the full
game (some 50,000 nodes) is what ``python -m spieltisch.rl.tabular`` measures. Auweier's small
game (three-card decks) is walked from the moment Red's deck is placed, about 4,000 decisions."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as openspiel_policy  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.algorithms import best_response  # type: ignore[import-untyped]  # noqa: E402

from spieltisch.rl import tabular  # noqa: E402
from spieltisch.rl.openspiel import SpieltischGame, SpieltischState  # noqa: E402

SMALL = tabular.SMALL_GAMES["awimbawe"]


def _part_dealt(drawn: int, first: bool = True) -> tuple[SpieltischGame, SpieltischState]:
    """The one-land game after ``drawn`` cards of the deal (the first or last card listed at
    each step)."""
    game = pyspiel.load_game(SMALL)
    state = game.new_initial_state()
    for _ in range(drawn):
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[0 if first else -1][0])
    return game, state


@pytest.fixture(scope="module")
def tree() -> tabular.Tree:
    game, root = _part_dealt(2)
    return tabular.walk(game, root)


class _Registered(openspiel_policy.Policy):  # type: ignore[misc]
    """A policy of the written game as a policy of the registered one."""

    def __init__(self, tree: tabular.Tree, table: tabular.Table) -> None:
        super().__init__(tree.game, [0, 1])
        self.sets = {infoset.key: infoset for infoset in tree.infosets}
        self.table = table

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        infoset = self.sets[state.information_state_string()]
        chances = dict(self.table[infoset.efg_key])
        return {a: chances[e] for a, e in zip(infoset.actions, infoset.efg_actions, strict=True)}


def _python_exploitability(tree: tabular.Tree, table: tabular.Table, root: Any) -> float:
    """OpenSpiel's Python best response, on the registered game, from ``root``: the mean gain
    of a best response over the policy's own value (the game is constant-sum 1)."""
    policy = _Registered(tree, table)
    best = [
        float(best_response.BestResponsePolicy(tree.game, p, policy, root_state=root).value(root))
        for p in range(2)
    ]
    return (sum(best) - 1.0) / 2


def test_the_one_land_game_is_small_and_every_seat_has_choices(tree: tabular.Tree) -> None:
    assert tree.counts["chance"] > 1 and tree.counts["terminal"] > 1
    assert {infoset.player for infoset in tree.infosets} == {0, 1}
    # the information sets are shared by the deals a seat cannot tell apart
    assert len(tree.infosets) < tree.counts["decision"]
    assert all(len(i.actions) == len(i.efg_actions) > 0 for i in tree.infosets)


@pytest.mark.parametrize("spec", ["uniform", "heuristic", "ismcts:5"])
def test_the_written_game_has_the_registered_games_exploitability(
    tree: tabular.Tree, spec: str
) -> None:
    table = tabular.uniform_policy(tree) if spec == "uniform" else tabular.agent_policy(tree, spec)
    _, root = _part_dealt(2)
    written = tabular.exploitability(tree, table)
    assert 0.0 <= written <= 1.0
    assert written == pytest.approx(_python_exploitability(tree, table, root), abs=1e-9)


def test_an_agent_is_a_fixed_policy_of_its_seed(tree: tabular.Tree) -> None:
    once = tabular.agent_policy(tree, "ismcts:5", seed=3)
    assert once == tabular.agent_policy(tree, "ismcts:5", seed=3)
    assert all(sorted(p for _, p in row) == [0.0] * (len(row) - 1) + [1.0] for row in once.values())


def test_cfr_exploitability_falls_towards_zero(tree: tabular.Tree) -> None:
    found = tabular.cfr(tree, [1, 200])
    values = [value for _, value, _ in found]
    assert values[-1] < values[0]
    assert values[-1] < 0.1 * tabular.exploitability(tree, tabular.uniform_policy(tree))


def test_another_root_walks_another_tree() -> None:
    game, root = _part_dealt(3, first=False)
    other = tabular.walk(game, root)
    assert other.counts["decision"] > 0
    assert 0.0 <= tabular.exploitability(other, tabular.agent_policy(other, "heuristic")) <= 1.0


def test_the_python_cfr_reaches_the_cpp_cfrs_values(tree: tabular.Tree) -> None:
    """OpenSpiel's Python and C++ CFR run the same iterates on the written game."""
    python = [value for _, value, _ in tabular.python_cfr(tree, [1, 3])]
    cpp = [value for _, value, _ in tabular.cfr(tree, [1, 3])]
    assert python == pytest.approx(cpp, abs=1e-9)


def _auweier_after_red_deck() -> tuple[SpieltischGame, SpieltischState]:
    """Auweier's small game once Red's three-card deck is placed (Blue's still to place, the
    order of Red's hidden from Blue): some 4,000 decisions, where the whole game has 111,618."""
    game = pyspiel.load_game(tabular.SMALL_GAMES["auweier"])
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1
    return game, state


@pytest.fixture(scope="module")
def auweier_tree() -> tabular.Tree:
    return tabular.walk(*_auweier_after_red_deck())


@pytest.mark.parametrize("spec", ["uniform", "heuristic"])
def test_the_small_auweier_has_the_registered_games_exploitability(
    auweier_tree: tabular.Tree, spec: str
) -> None:
    tree = auweier_tree
    assert {infoset.player for infoset in tree.infosets} == {0, 1}
    table = tabular.uniform_policy(tree) if spec == "uniform" else tabular.agent_policy(tree, spec)
    _, root = _auweier_after_red_deck()
    written = tabular.exploitability(tree, table)
    assert 0.0 <= written <= 1.0
    assert written == pytest.approx(_python_exploitability(tree, table, root), abs=1e-9)


def test_cfr_on_the_small_auweier_beats_uniform_play(auweier_tree: tabular.Tree) -> None:
    uniform = tabular.exploitability(auweier_tree, tabular.uniform_policy(auweier_tree))
    values = [value for _, value, _ in tabular.cfr(auweier_tree, [1, 100])]
    assert uniform > 0.05
    assert values[-1] < values[0] and values[-1] < 0.1 * uniform
