"""The golden playthrough files, found by listing tests/golden/ and reading each file's header.

A file's first four lines name its game, player count, options (JSON) and seed; adding a
golden file is running ``scripts/regen_golden.py --new GAME PLAYERS SEED [name=value ...]``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from spieltisch.core.game import OptionValue

GOLDEN_DIR = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class GoldenCase:
    """One golden playthrough file."""

    game: str
    players: int
    seed: int
    options: dict[str, OptionValue] = field(default_factory=dict)
    path: Path = GOLDEN_DIR / "unnamed.txt"


def read_case(path: Path) -> GoldenCase:
    """The case a golden file was made from, read from its header."""
    head = dict(line.split(": ", 1) for line in path.read_text(encoding="utf-8").splitlines()[:4])
    options = json.loads(head["options"])
    return GoldenCase(head["game"], int(head["players"]), int(head["seed"]), options, path)


def golden_cases() -> tuple[GoldenCase, ...]:
    """Every golden file's case, in file-name order."""
    return tuple(read_case(path) for path in sorted(GOLDEN_DIR.glob("*.txt")))


def golden_name(game: str, players: int, options: dict[str, OptionValue]) -> str:
    """The file name for a new golden case: game, player count, and any options set."""
    tags = "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    return f"{game}-{players}p{tags}.txt"
