"""Rewrite the golden playthrough files in tests/golden/ (after an intended rule change).

Usage: python scripts/regen_golden.py [GAME_ID ...]. Review the diff before committing it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import spieltisch
from spieltisch.lab.playthrough import playthrough
from tests.golden_cases import GOLDEN_CASES, golden_path


def main(wanted: list[str]) -> None:
    """Regenerate the golden files of the wanted games (all when none is named)."""
    for case in GOLDEN_CASES:
        if wanted and case.game not in wanted:
            continue
        game = spieltisch.load(case.game, case.players, **case.options)
        path = golden_path(case)
        path.write_text(playthrough(game, case.seed), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
