"""Auweier: worms, Weddings and eggs for 2-4 players (rules: docs/rules/auweier.md).

:data:`KIT` is everything the rest of spieltisch plugs into: the game, its view, its words,
its belief sampling, its agents and what it tells a search.
"""

from spieltisch.core.kit import Belief, GameKit
from spieltisch.games.auweier.belief import redeal_hidden, sample_state
from spieltisch.games.auweier.bots import AGENTS, SEARCH
from spieltisch.games.auweier.model import Egg, End, Rule, Stage, score_eggs
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
from spieltisch.games.auweier.rules import Auweier, AuweierState
from spieltisch.games.auweier.view import AuweierView
from spieltisch.games.auweier.words import WORDS

KIT: GameKit[AuweierView] = GameKit(
    game=Auweier,
    view=AuweierView,
    words=WORDS,
    belief=Belief(sample=sample_state, redeal=redeal_hidden),
    agents=AGENTS,
    search=SEARCH,
)

__all__ = [
    "KIT",
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
