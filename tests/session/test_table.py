"""The table session: one game being played, its version, chance, events and record."""

from __future__ import annotations

import random

import pytest

import spieltisch
from spieltisch.agents import RandomAgent
from spieltisch.core.errors import IllegalActionError, InvalidActionError, RecordError
from spieltisch.core.game import Hidden
from spieltisch.core.record import Record
from spieltisch.session import Event, StaleVersionError, Table, play_out
from spieltisch.session.table import MAX_MOVE_TEXT


def eier_table(seed: int | None = 1) -> Table:
    return Table(spieltisch.load("auf-die-eier", 2), ("Ann", "Ben"), seed)


def test_a_move_is_applied_once_and_counts_as_a_version() -> None:
    table = eier_table()
    assert table.version == 0 and table.to_act() is None  # chance throws first
    throw = table.advance_chance(table.state.parse("roll RRCPPFFFH"))
    assert throw == Event(1, None, table.moves[0]) and table.to_act() == 0
    before = table.state
    event = table.play_text("stop", expected_version=1, by=0)
    assert event.version == table.version == 2 and event.actor == 0
    assert table.state == before.apply(before.parse("stop"))
    assert table.state_at(1) is before


def test_a_stale_or_foreign_or_illegal_move_changes_nothing() -> None:
    table = eier_table()
    table.advance_chance(table.state.parse("roll RRCPPFFFH"))
    state, version = table.state, table.version
    with pytest.raises(StaleVersionError) as stale:
        table.play_text("stop", expected_version=0)
    assert (stale.value.expected, stale.value.current) == (0, 1)
    with pytest.raises(IllegalActionError, match="it is Ann's turn"):
        table.play_text("stop", by=1)
    with pytest.raises(IllegalActionError, match="Rotten Eggs stay set aside"):
        table.play_text("reroll R")
    with pytest.raises(InvalidActionError):
        table.play_text("castle kingside")
    with pytest.raises(IllegalActionError, match="at most"):
        table.play_text("reroll " + "F" * (MAX_MOVE_TEXT + 1))
    assert table.state is state and table.version == version


def test_players_cannot_dictate_chance_and_chance_cannot_move_for_players() -> None:
    table = eier_table()
    roll = table.state.sample_chance(random.Random(0))
    with pytest.raises(IllegalActionError, match="chance acts now"):
        table.play(roll)
    table.advance_chance()
    with pytest.raises(IllegalActionError, match="a player acts now"):
        table.advance_chance()
    with pytest.raises(IllegalActionError, match="no dice of its own"):
        unseeded = eier_table(seed=None)
        unseeded.advance_chance()


def test_chance_comes_from_the_tables_own_seeded_generator() -> None:
    first, second = eier_table(seed=7), eier_table(seed=7)
    assert first.advance_chance() == second.advance_chance()
    assert eier_table(seed=7).state.sample_chance(random.Random(7)) == first.moves[0]


def test_a_table_rebuilt_from_its_record_goes_on_exactly() -> None:
    game = spieltisch.load("auweier", 3)
    table, chooser = Table(game, seed=5), RandomAgent(game, 9)
    while table.version < 60:  # part of a game: deals, deck orders and turns
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(chooser.act(None, table.legal()))
    again = Table.from_record(game, Record.loads(table.record().dumps()))
    assert again.state == table.state and again.version == table.version
    later = RandomAgent(game, 3)
    play_out(table, [later] * 3)
    play_out(again, [RandomAgent(game, 3)] * 3)
    assert again.record() == table.record()  # the resumed chance stream is the same


def test_dictated_chance_is_recorded_so_the_seeded_stream_resumes_where_it_was() -> None:
    table = eier_table(seed=3)
    table.advance_chance(table.state.parse("roll RRCPPFFFH"))  # dictated: no draw
    table.play_text("reroll C")
    table.advance_chance()  # drawn from the seed: the stream's first draw
    assert table.moves[2] == table.state_at(2).sample_chance(random.Random(3))
    record = table.record()
    assert record.dictated == (0,)
    again = Table.from_record(table.game, Record.loads(record.dumps()))
    assert again.state == table.state
    play_out(table, [RandomAgent(table.game, 1)] * 2)
    play_out(again, [RandomAgent(table.game, 1)] * 2)
    assert again.record() == table.record()


def test_a_record_whose_drawn_chance_the_seed_cannot_give_is_refused() -> None:
    table = eier_table(seed=3)
    table.advance_chance()
    drawn = table.record()
    other = "roll RRRRRRRRR" if drawn.moves[0] != "roll RRRRRRRRR" else "roll WWWWWWWWW"
    forged = Record(drawn.game, drawn.players, drawn.options, (other,), drawn.seed, drawn.seats)
    with pytest.raises(RecordError, match="move 0: chance drew"):
        Table.from_record(table.game, forged)


def test_events_show_each_viewer_only_what_they_may_see() -> None:
    game = spieltisch.load("auweier", 2)
    table, chooser = Table(game, seed=2), RandomAgent(game, 4)
    while not any(isinstance(e.move, Hidden) for e in table.events(1)):
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(chooser.act(None, table.legal()))
    mover = [e for e in table.events(0) if e.actor == 0]
    other = [e for e in table.events(1) if e.actor == 0]
    assert mover and all(not isinstance(e.move, Hidden) for e in mover)
    assert other and all(isinstance(e.move, Hidden) for e in other)
    assert [e.version for e in table.events(1, since=2)] == list(range(3, table.version + 1))
    for event in table.events(None):
        if event.actor is None:  # shuffles lie face down for everyone
            assert isinstance(event.move, Hidden)


@pytest.mark.parametrize("history", [1, 3, 16])
def test_a_table_keeping_little_history_gives_the_same_states_and_events(history: int) -> None:
    game = spieltisch.load("auweier", 3)
    full, short = Table(game, seed=11), Table(game, seed=11, history=history)
    chooser = RandomAgent(game, 12)
    while not full.over:
        if full.to_act() is None:
            full.advance_chance()
            short.advance_chance()
        else:
            move = chooser.act(None, full.legal())
            full.play(move)
            short.play(move)
    kept = sum(state is not None for state in short._before)
    assert kept <= history + 1 + full.version // history + 1  # the window and the checkpoints
    assert kept < full.version or history == 1
    for version in range(0, full.version, 7):
        assert short.state_at(version) == full.state_at(version)
    for viewer in (None, 0, 2):
        assert short.events(viewer) == full.events(viewer)
