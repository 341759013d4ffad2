"""Conceding: a seat gives up; once every seat but one has, the game is over and that seat
wins. The record keeps each concession, so a replay ends the same way."""

from __future__ import annotations

import random

import pytest

import spieltisch
from spieltisch.core.errors import IllegalActionError, RecordError
from spieltisch.core.record import Record
from spieltisch.session import Table


def _started(game_id: str, players: int, seed: int = 5) -> Table:
    table = Table(spieltisch.load(game_id, players), seed=seed)
    while table.to_act() is None:
        table.advance_chance()
    return table


def test_in_a_two_player_game_the_other_player_wins() -> None:
    table = _started("awimbawe", 2)
    table.play(table.legal()[0])
    assert table.concede(0) is True
    assert table.over and table.conceded_out and table.winners() == frozenset({1})
    assert table.to_act() is None and not table.legal()
    with pytest.raises(IllegalActionError, match="the game is over"):
        table.play(table.state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="the game is over"):
        table.concede(1)


def test_with_more_players_the_game_goes_on_until_one_seat_is_left() -> None:
    table = _started("auf-die-eier", 3)
    assert table.concede(1) is False
    assert not table.over and table.to_act() is not None
    with pytest.raises(IllegalActionError, match="conceded already"):
        table.concede(1)
    with pytest.raises(IllegalActionError, match="no seat 3"):
        table.concede(3)
    table.play(table.legal()[0])
    assert table.concede(0) is True
    assert table.winners() == frozenset({2})


def test_a_record_keeps_the_concessions_and_replays_them() -> None:
    table = _started("auweier", 3, seed=8)
    table.concede(2)
    table.play(table.legal()[0])
    table.concede(0)
    record = Record.loads(table.record().dumps())
    assert record.conceded == ((2, table.version - 1), (0, table.version))
    again = Table.from_record(table.game, record)
    assert again.over and again.winners() == frozenset({1}) and again.conceded == table.conceded
    longer = Record(
        record.game, record.players, record.options, (*record.moves, "pass"), record.seed,
        record.seats, record.dictated, conceded=record.conceded,
    )  # fmt: skip
    with pytest.raises(RecordError, match="after the end"):
        Table.from_record(table.game, longer)


@pytest.mark.parametrize(
    "conceded", [[[0, 99]], [[5, 0]], [[0, 0], [0, 1]], [["0", 0]], "yes", [[0]]]
)
def test_malformed_concessions_are_refused(conceded: object) -> None:
    data = _started("auf-die-eier", 2).record().to_json()
    data["conceded"] = conceded  # type: ignore[assignment]
    with pytest.raises(RecordError):
        Record.from_json(data)


def test_a_conceded_seat_that_ends_on_top_passes_the_win_to_the_best_of_the_others() -> None:
    """Seat 0 concedes, a random player plays it on and it ends first by the rules (seed 0,
    found by search): the win goes to the best score among the others."""
    table = _started("auf-die-eier", 3, seed=0)
    table.concede(0)
    rng = random.Random(0)
    while not table.over:
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(rng.choice(list(table.legal())))
    assert table.state.winners() == frozenset({0})
    scores = table.state.scores()
    best = max(scores[1], scores[2])
    assert table.winners() == frozenset(p for p in (1, 2) if scores[p] == best) == {2}
