"""Which golden playthroughs exist: one or more per game (game, players, options, seed)."""

from __future__ import annotations

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
    tag: str = ""


GOLDEN_CASES: tuple[GoldenCase, ...] = (
    GoldenCase("auf-die-eier", 2, 7),
    GoldenCase("auf-die-eier", 3, 11, {"shared_chicken_ladder": True}, "shared"),
)


def golden_path(case: GoldenCase) -> Path:
    """The file of a golden case."""
    suffix = f"-{case.tag}" if case.tag else ""
    return GOLDEN_DIR / f"{case.game}-{case.players}p{suffix}.txt"
