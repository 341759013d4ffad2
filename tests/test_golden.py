"""Golden playthroughs: each file must equal a fresh playthrough of its seed, line by line."""

from __future__ import annotations

import pytest

import spieltisch
from spieltisch.core.record import Record, replay
from spieltisch.games import REGISTRY
from spieltisch.lab.playthrough import playthrough
from tests.golden_cases import GoldenCase, golden_cases


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c.path.name)
def test_golden_playthrough_is_unchanged(case: GoldenCase) -> None:
    game = spieltisch.load(case.game, case.players, **case.options)
    expected = case.path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(game, case.seed).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), 1):
        assert got == want, f"{case.path.name} line {number} differs"
    assert len(actual) == len(expected)


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c.path.name)
def test_golden_moves_replay_as_a_record(case: GoldenCase) -> None:
    lines = case.path.read_text(encoding="utf-8").splitlines()
    moves = tuple(line.split("move: ", 1)[1] for line in lines if line.startswith("  move: "))
    game = spieltisch.load(case.game, case.players, **case.options)
    final = replay(game, Record(case.game, case.players, dict(case.options), moves))
    assert final.is_terminal()
    assert f"  scores: {list(final.scores())}" in lines


def test_every_implemented_game_has_a_golden_file() -> None:
    missing = set(REGISTRY.implemented()) - {case.game for case in golden_cases()}
    assert not missing, f"add one with scripts/regen_golden.py --new for {sorted(missing)}"
