"""Auf die Eier: push-your-luck egg dice for 2-6 players (rules: docs/rules/auf-die-eier.md)."""

from spieltisch.games.auf_die_eier.notation import STOP, Face, Reroll, Roll, Stop
from spieltisch.games.auf_die_eier.rules import AufDieEier, EierState, Rule, Stage, score_turn
from spieltisch.games.auf_die_eier.view import EierView

GAME = AufDieEier

__all__ = [
    "GAME",
    "STOP",
    "AufDieEier",
    "EierState",
    "EierView",
    "Face",
    "Reroll",
    "Roll",
    "Rule",
    "Stage",
    "Stop",
    "score_turn",
]
