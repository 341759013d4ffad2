"""Bad move text in every game's notation: huge numbers, non-ASCII digits and very long text
are refused with the typed error, cheaply, and no error quotes more than a short start."""

from __future__ import annotations

import pytest

import spieltisch
from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import MAX_MOVE_TEXT, check_length
from spieltisch.games.auf_die_eier import notation as eier
from spieltisch.games.auf_die_nuesse import notation as nuesse
from spieltisch.games.auweier import notation as auweier
from spieltisch.games.awimbawe import notation as awimbawe

HUGE = "9" * 5000
"""More digits than Python turns into a number from text."""

BAD_MOVES = {
    "auf-die-eier": [
        f"reroll {HUGE}F",
        f"keep {HUGE}F",
        "reroll F" + "1" * 20_000,
        "reroll ²F",
        "x" * 1_000_000,
    ],
    "auf-die-nuesse": [
        f"place {HUGE}",
        f"steal P{HUGE} S1",
        f"steal P1 S{HUGE}",
        f"put {HUGE}",
        f"setup {HUGE}",
        f"take {HUGE}",
        "place ²",
        "setup ²",
        "take ²",
        "steal " + "1" * 3000 + "x",
    ],
    "auweier": [f"swap R#{HUGE} F", f"swap R {HUGE}", "deck " + "1" * 5000, "crow B@R" * 1000],
    "awimbawe": [f"eagle {HUGE}", f"tiebreak {HUGE}", "deal " + "D5 " * 2000, "pick " + HUGE],
}


@pytest.mark.parametrize(
    ("game_id", "text"),
    [(game_id, text) for game_id, texts in BAD_MOVES.items() for text in texts],
    ids=lambda value: value[:24] if isinstance(value, str) else value,
)
def test_bad_text_is_a_typed_error_that_quotes_little(game_id: str, text: str) -> None:
    state = spieltisch.load(game_id).initial_state()
    with pytest.raises(InvalidActionError) as error:
        state.parse(text)
    assert len(str(error.value)) < 500


@pytest.mark.parametrize("game_id", spieltisch.game_ids())
def test_every_game_bounds_a_moves_text_above_its_longest_move(game_id: str) -> None:
    game = spieltisch.load(game_id)
    longest = max(len(str(game.action_from_id(i))) for i in range(game.num_distinct_actions))
    assert longest < MAX_MOVE_TEXT <= 1000
    check_length("x" * MAX_MOVE_TEXT)
    state = game.initial_state()
    with pytest.raises(InvalidActionError, match="at most"):
        state.parse("x" * (MAX_MOVE_TEXT + 1))


def test_the_dice_reader_stops_at_the_first_bad_token() -> None:
    calls = 0
    pattern = eier._TOKEN

    class Counting:
        def match(self, text: str, position: int) -> object:
            nonlocal calls
            calls += 1
            return pattern.match(text, position)

    eier_token, eier._TOKEN = eier._TOKEN, Counting()  # type: ignore[assignment]
    try:
        with pytest.raises(InvalidActionError):
            eier.parse_dice("F" + "1" * 250)
        assert eier.parse_dice("2r1c") == (0, 1, 2, 0, 0, 0)
    finally:
        eier._TOKEN = eier_token
    assert calls <= 6


def test_small_numbers_still_read() -> None:
    assert nuesse.parse_store("S3", "put W S3") == 2
    assert str(nuesse.parse_move("steal P2 S5")) == "steal P2 S5"
    assert str(auweier.parse_move("swap R#2 F")) == "swap R#2 F"
    assert awimbawe.parse_card("eagle 9") == awimbawe.parse_card("S9")
