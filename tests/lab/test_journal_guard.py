"""The journal never destroys what the arena did not write: a line cut off by an interruption
is cut away and played again, anything else without a final newline is refused untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

import spieltisch
from spieltisch.core.errors import OptionError
from spieltisch.lab import arena


def duel(games: int) -> list[arena.Task]:
    game = spieltisch.load("auf-die-eier", 2)
    return arena.schedule(game, ["heuristic", "random"], games, 3)


def test_a_line_the_arena_left_half_written_is_cut_away_and_played_again(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    arena.run(duel(2), journal=journal)
    whole = journal.read_text()
    cut = whole[: whole.index("\n") + 1] + whole.splitlines()[1][:30]
    journal.write_text(cut)
    results = arena.run(duel(2), journal=journal)
    assert len(results) == 2 and journal.read_text() == whole


def test_an_empty_file_is_a_journal_of_no_game_yet(tmp_path: Path) -> None:
    """Such as one created before the run, or left by a run stopped before its first game."""
    journal = tmp_path / "run.jsonl"
    journal.touch()
    results = arena.run(duel(2), journal=journal)
    assert len(results) == 2 and len(journal.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    "text",
    ["a note with no newline", "line one\nline two", "[1, 2"],
)
def test_a_file_the_arena_did_not_write_is_refused_and_left_alone(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(text)
    with pytest.raises(OptionError, match=r"not a journal|not an arena game"):
        arena.run(duel(2), journal=path)
    assert path.read_text() == text


def test_a_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "image.bin"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(OptionError, match="not a journal"):
        arena.run(duel(2), journal=path)
    assert path.read_bytes() == b"\x89PNG\r\n\x1a\n\xff\xfe"
