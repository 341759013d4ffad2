"""Shared cases of the RL tests: every game at every player count it takes."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
CASES = (
    ("auf-die-eier", 2),
    ("auf-die-eier", 3),
    ("auf-die-eier", 4),
    ("auf-die-eier", 5),
    ("auf-die-eier", 6),
    ("auf-die-nuesse", 2),
    ("auf-die-nuesse", 3),
    ("auf-die-nuesse", 4),
    ("auweier", 2),
    ("auweier", 3),
    ("auweier", 4),
    ("awimbawe", 2),
)
"""Every game with every player count it allows (checked against the games in a test)."""
