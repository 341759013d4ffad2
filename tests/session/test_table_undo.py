"""Taking moves back at a table: only the mover's own last moves, back to the last chance step
or the last move of another player, and the chance stream stays exactly where it was."""

from __future__ import annotations

import spieltisch
from spieltisch.session import Table


def auweier_table(seed: int = 7) -> Table:
    return Table(spieltisch.load("auweier", 2), ("Ann", "Ben"), seed)


def test_own_moves_at_the_end_can_be_taken_back_one_by_one() -> None:
    table = auweier_table()
    assert table.undoable(0) == 0 and table.undo(0) == 0  # nothing played yet
    first = table.state
    table.play_text("deck 7", by=0)
    after_one = table.state
    table.play_text("deck H", by=0)
    assert table.undoable(0) == 2 and table.undoable(1) == 0
    assert table.undo(1) == 0 and table.version == 2  # not Ben's moves
    assert table.undo(0) == 1
    assert table.version == 1 and table.state == after_one and str(table.moves[0]) == "deck 7"
    assert table.undo(0, 5) == 1 and table.version == 0 and table.state == first


def test_undo_stops_at_a_move_of_another_player() -> None:
    table = auweier_table()
    table.play_text("deck shuffle", by=0)
    if table.state.is_chance():
        table.advance_chance()
    table.play_text("deck 7", by=1)
    assert table.undoable(0) == 0  # Ann's move lies before a chance step and Ben's move
    assert table.undoable(1) == 1


def test_undo_stops_at_a_chance_step_and_keeps_the_chance_stream_exact() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    table, twin = Table(game, (), 5), Table(game, (), 5)
    for board in (table, twin):
        board.advance_chance()
    assert table.undoable(0) == 0  # the throw before the first decision is chance's
    table.play(table.legal()[-1])
    assert table.undoable(0) == 1
    table.undo(0)
    assert table.state == twin.state and table.record() == twin.record()
    # Both tables draw the same throws from here: the generator stood where it stood.
    move = table.legal()[1]
    for board in (table, twin):
        board.play(move)
        board.advance_chance()
    assert table.moves == twin.moves


def test_a_dictated_throw_before_the_cut_stays_dictated() -> None:
    table = Table(spieltisch.load("auf-die-eier", 2), (), 3)
    table.advance_chance(table.state.parse("roll RRCPPFFFH"))
    table.play_text("reroll FFF", by=0)
    assert table.record().dictated == (0,)
    assert table.undo(0) == 1
    assert table.record().dictated == (0,) and table.version == 1
