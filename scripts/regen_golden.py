"""Rewrite the golden playthrough files in tests/golden/ (after an intended rule change).

    python scripts/regen_golden.py [GAME_ID ...]          rewrite existing files (all, or a game's)
    python scripts/regen_golden.py --new GAME PLAYERS SEED [name=value ...]   add a file

Review the diff before committing it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import spieltisch
from spieltisch.core.game import OptionValue
from spieltisch.games import REGISTRY
from spieltisch.lab.playthrough import playthrough
from tests.golden_cases import GOLDEN_DIR, golden_cases, golden_name


def write(
    game_id: str, players: int, seed: int, options: dict[str, OptionValue], path: Path
) -> None:
    """Write one golden file."""
    game = spieltisch.load(game_id, players, **options)
    path.write_text(playthrough(game, seed), encoding="utf-8")
    print(f"wrote {path}")


def main(args: list[str]) -> None:
    """Rewrite the named games' golden files, or add a new one with ``--new``."""
    if args[:1] == ["--new"]:
        game_id, players, seed, *pairs = args[1:]
        info = REGISTRY.game_class(game_id).info
        options = {k: info.option(k).parse(v) for k, _, v in (p.partition("=") for p in pairs)}
        path = GOLDEN_DIR / golden_name(game_id, int(players), options)
        write(game_id, int(players), int(seed), options, path)
        return
    for case in golden_cases():
        if not args or case.game in args:
            write(case.game, case.players, case.seed, case.options, case.path)


if __name__ == "__main__":
    main(sys.argv[1:])
