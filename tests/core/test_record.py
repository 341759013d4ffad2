"""Game records: writing, reading, and replays that re-validate every move."""

from __future__ import annotations

import json

import pytest

import spieltisch
from spieltisch.core.errors import RecordError
from spieltisch.core.record import Record, replay, replay_states
from spieltisch.lab.play import play_game, seat_agents


def played() -> tuple[spieltisch.Game, Record]:
    game = spieltisch.load("auf-die-eier", 3)
    result = play_game(game, seat_agents(game, ["random"] * 3, 5), 5, seats=["random"] * 3)
    return game, result.record


def test_a_record_round_trips_through_json_text() -> None:
    _, record = played()
    again = Record.loads(record.dumps())
    assert again == record
    data = json.loads(record.dumps())
    assert list(data)[:5] == ["format", "game", "players", "options", "seed"]


def test_replaying_a_record_reaches_the_same_final_state() -> None:
    game, record = played()
    final = replay(game, record)
    assert final.is_terminal()
    states = list(replay_states(game, record.moves))
    assert len(states) == len(record.moves) + 1 and states[-1] == final


def test_an_illegal_move_is_reported_with_its_index() -> None:
    game, record = played()
    moves = list(record.moves)
    index = next(i for i, m in enumerate(moves) if m.startswith("reroll"))
    moves[index] = "reroll R"
    with pytest.raises(RecordError, match=f"move {index}: .*Rotten Eggs stay") as caught:
        replay(game, Record(record.game, record.players, record.options, tuple(moves)))
    assert caught.value.index == index


def test_garbage_and_moves_after_the_end_are_reported() -> None:
    game, record = played()
    bad = Record(record.game, record.players, record.options, ("roll XYZ",))
    with pytest.raises(RecordError, match="move 0: cannot read"):
        replay(game, bad)
    extra = Record(record.game, record.players, record.options, (*record.moves, "stop"))
    with pytest.raises(RecordError, match="after the end"):
        replay(game, extra)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "JSON object"),
        ('{"format": 99}', "unsupported record format"),
        ('{"format": 1, "players": 2, "moves": []}', "names no game"),
        ('{"format": 1, "game": "auf-die-eier", "players": 2, "moves": [1]}', "list of texts"),
    ],
)
def test_malformed_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.loads(text)
