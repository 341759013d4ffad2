"""Auweier: worms, Weddings and eggs for 2-4 players (rules: docs/rules/auweier.md)."""

from spieltisch.games.auweier.notation import (
    PASS,
    Arrange,
    Card,
    Colour,
    Pass,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Shuffled,
    ShuffleRest,
    Starter,
    Swap,
)
from spieltisch.games.auweier.rules import (
    Auweier,
    AuweierState,
    Egg,
    End,
    Rule,
    Stage,
    score_eggs,
)
from spieltisch.games.auweier.view import AuweierView

GAME = Auweier

__all__ = [
    "GAME",
    "PASS",
    "Arrange",
    "Auweier",
    "AuweierState",
    "AuweierView",
    "Card",
    "Colour",
    "Egg",
    "End",
    "Pass",
    "PlayCrow",
    "PlayWedding",
    "PlayWorm",
    "Rule",
    "ShuffleRest",
    "Shuffled",
    "Stage",
    "Starter",
    "Swap",
    "score_eggs",
]
