"""Auf die Eier: push-your-luck egg dice for 2-6 players (rules: docs/rules/auf-die-eier.md).

``KIT`` is everything the rest of spieltisch plugs into: the game, its view, words, belief
sampling and agents.
"""

from spieltisch.core.kit import Belief, GameKit
from spieltisch.games.auf_die_eier.belief import redeal_hidden, sample_state
from spieltisch.games.auf_die_eier.bots import AGENTS, SEARCH, strength_order
from spieltisch.games.auf_die_eier.model import Config, Rule, Stage, TurnScore
from spieltisch.games.auf_die_eier.notation import STOP, Face, Reroll, Roll, Stop
from spieltisch.games.auf_die_eier.rules import AufDieEier, EierState, score_turn
from spieltisch.games.auf_die_eier.view import EierView
from spieltisch.games.auf_die_eier.words import WORDS

KIT = GameKit(
    adviser="expert",
    game=AufDieEier,
    view=EierView,
    words=WORDS,
    belief=Belief(sample=sample_state, redeal=redeal_hidden),
    agents=AGENTS,
    strength_order=strength_order,
    search=SEARCH,
)

__all__ = [
    "KIT",
    "STOP",
    "AufDieEier",
    "Config",
    "EierState",
    "EierView",
    "Face",
    "Reroll",
    "Roll",
    "Rule",
    "Stage",
    "Stop",
    "TurnScore",
    "score_turn",
]
