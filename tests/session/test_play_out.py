"""Playing a table out in one loop is the same as playing it move by move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import spieltisch
from spieltisch.agents import RandomAgent, make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.errors import IllegalActionError, SpieltischError
from spieltisch.core.game import Game, Move
from spieltisch.session import Table, play_out


def step_by_step(table: Table, agents: Sequence[Agent[Any]], max_moves: int) -> int:
    """The loop as a surface writes it with the table's one-move methods."""
    actions = 0
    while not table.over and table.version < max_moves:
        player = table.to_act()
        if player is None:
            table.advance_chance()
        else:
            table.play(agents[player].act(table.view(player), table.legal()))
            actions += 1
    return actions


@pytest.mark.parametrize("game_id", ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"])
@pytest.mark.parametrize("keyed", [False, True])
def test_play_out_makes_the_moves_events_and_record_of_the_move_by_move_loop(
    game_id: str, keyed: bool
) -> None:
    game = spieltisch.load(game_id, 2)
    fast, slow = (Table(game, seed=11, keyed_chance=keyed) for _ in range(2))
    fast_actions = play_out(fast, [make_agent("heuristic", game, p) for p in range(2)])
    slow_actions = step_by_step(slow, [make_agent("heuristic", game, p) for p in range(2)], 10**6)
    assert fast.over and fast_actions == slow_actions > 0
    assert fast.record() == slow.record() and fast.state == slow.state
    assert fast.events(0) == slow.events(0) and fast.events(None, 3) == slow.events(None, 3)
    # The counts that key chance stand where the move-by-move loop left them.
    assert (fast._decisions, fast._chance_run) == (slow._decisions, slow._chance_run)


def test_play_out_stops_at_max_moves_and_goes_on_from_there() -> None:
    game = spieltisch.load("auweier", 3)
    table, whole = Table(game, seed=2), Table(game, seed=2)
    first = play_out(table, [RandomAgent(game, 4)] * 3, max_moves=25)
    assert table.version == 25 and not table.over
    rest = play_out(table, [RandomAgent(game, 5)] * 3)
    split = step_by_step(whole, [RandomAgent(game, 4)] * 3, 25)
    split += step_by_step(whole, [RandomAgent(game, 5)] * 3, 10**6)
    assert first + rest == split and table.record() == whole.record()


class Stubborn(Agent[Any]):
    """Plays a fixed move, legal or not, after ``good`` legal ones."""

    name = "stubborn"
    reads_views = False

    def __init__(self, game: Game, bad: Move, good: int) -> None:
        super().__init__(game)
        self.bad, self.left = bad, good

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        del view
        self.left -= 1
        return legal[0] if self.left >= 0 else self.bad


def test_an_illegal_move_leaves_the_table_at_the_last_move_applied() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    table = Table(game, seed=3)
    roll = Table(game, seed=3)
    roll.advance_chance()
    agent = Stubborn(game, roll.moves[0], good=2)  # a roll offered as a player's move
    with pytest.raises(SpieltischError):
        play_out(table, [agent, agent])
    assert len(table.moves) == table.version and table.state == table.state_at(table.version)
    again = Table.from_record(game, table.record())
    assert again.state == table.state
    assert table.to_act() is not None  # stopped at the decision the bad move was offered for


def test_a_table_without_a_seed_refuses_to_draw_in_play_out() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    with pytest.raises(IllegalActionError, match="no dice of its own"):
        play_out(Table(game), [RandomAgent(game, 1)] * 2)
