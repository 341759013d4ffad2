"""The table's keyed-chance mode: each chance event drawn by its place, not from one stream."""

from __future__ import annotations

import random

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.session import Table, play_out


def test_keyed_tables_with_one_seed_draw_the_same_first_outcome_in_every_variant() -> None:
    plain = spieltisch.load("auf-die-nuesse", 3)
    other = spieltisch.load("auf-die-nuesse", 3, store_table="five_25")
    first = Table(plain, seed=11, keyed_chance=True)
    second = Table(other, seed=11, keyed_chance=True)
    first.advance_chance()
    second.advance_chance()
    assert first.moves == second.moves


def test_a_keyed_draw_does_not_depend_on_what_chance_drew_before() -> None:
    # Dictate another first roll: with keyed chance the next draw at the same place is the
    # one an undisturbed table makes there; a running stream would be one draw behind.
    game = spieltisch.load("auf-die-eier", 2)
    free = Table(game, seed=5, keyed_chance=True)
    free.advance_chance()
    legal = free.legal()
    free.play(legal[0])
    dictated = Table(game, seed=5, keyed_chance=True)
    dictated.advance_chance(free.moves[0])
    dictated.play(legal[0])
    assert free.state.is_chance() and dictated.state.is_chance()
    free.advance_chance()
    dictated.advance_chance()
    assert free.moves == dictated.moves


def test_a_keyed_game_rebuilds_from_its_record_and_undoes_exactly() -> None:
    game = spieltisch.load("auf-die-eier", 3)
    table = Table(game, seed=9, keyed_chance=True)
    agents = [make_agent("heuristic", game, seat) for seat in range(3)]
    play_out(table, agents, max_moves=40)
    again = Table.from_record(game, table.record(), keyed_chance=True)
    assert again.moves == table.moves and again.state == table.state
    # Undo the last own moves of the seat to move, replay them: chance follows as before.
    player = table.to_act()
    if player is not None and table.undoable(player):
        kept = list(table.moves)
        steps = table.undo(player, table.undoable(player))
        for move in kept[len(kept) - steps :]:
            table.play(move)
        assert table.moves == kept


def test_the_default_table_still_draws_from_one_running_stream() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    table = Table(game, seed=4)
    keyed = Table(game, seed=4, keyed_chance=True)
    assert not table.keyed_chance and keyed.keyed_chance
    table.advance_chance()
    expected = game.initial_state().sample_chance(random.Random(4))
    assert table.moves == [expected]
