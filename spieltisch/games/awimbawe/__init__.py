"""Awimbawé: a trick-taking duel with animal powers (rules: docs/rules/awimbawe.md).

``KIT`` is everything the rest of spieltisch plugs into: the game, its view, words, belief
sampling, agents, search hints and its rounds' results.
"""

from spieltisch.core.kit import Belief, GameKit
from spieltisch.games.awimbawe.belief import redeal_hidden, sample_state
from spieltisch.games.awimbawe.bots import AGENTS, SEARCH
from spieltisch.games.awimbawe.model import Config, Rule, Stage
from spieltisch.games.awimbawe.notation import (
    DECK,
    Animal,
    Block,
    Card,
    Deal,
    Decline,
    Land,
    Lead,
    Pick,
    Play,
    Rhino,
    Stance,
    TieBreak,
    deck_of,
    hand_size_of,
)
from spieltisch.games.awimbawe.rules import Awimbawe, AwimbaweState, Side, round_results
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView
from spieltisch.games.awimbawe.words import WORDS

KIT: GameKit[AwimbaweView] = GameKit(
    game=Awimbawe,
    view=AwimbaweView,
    words=WORDS,
    belief=Belief(sample=sample_state, redeal=redeal_hidden),
    agents=AGENTS,
    search=SEARCH,
    rounds=round_results,
)

__all__ = [
    "DECK",
    "KIT",
    "Animal",
    "Awimbawe",
    "AwimbaweState",
    "AwimbaweView",
    "Block",
    "Card",
    "Config",
    "Deal",
    "Decline",
    "Heir",
    "Land",
    "Lead",
    "Pick",
    "Play",
    "Rhino",
    "Rule",
    "Side",
    "SideView",
    "Stage",
    "Stance",
    "TieBreak",
    "deck_of",
    "hand_size_of",
]
