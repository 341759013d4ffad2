"""Auf die Nüsse!: dice, squirrels and nut stores for 2-4 players (rules:
docs/rules/auf-die-nuesse.md). ``KIT`` plugs it into the rest of spieltisch."""

from spieltisch.core.kit import Belief, GameKit
from spieltisch.games.auf_die_nuesse.belief import redeal_hidden, sample_state
from spieltisch.games.auf_die_nuesse.bots import AGENTS, SEARCH, strength_order
from spieltisch.games.auf_die_nuesse.model import (
    Config,
    Ending,
    Event,
    EventKind,
    Rule,
    Stage,
    Store,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.notation import (
    KEEP,
    PASS,
    ROLL_AGAIN,
    STOP,
    Card,
    Dice,
    Draw,
    Keep,
    Lay,
    Nut,
    Pass,
    Place,
    Put,
    RollAgain,
    Setup,
    Slot,
    Space,
    Steal,
    Stop,
    Take,
)
from spieltisch.games.auf_die_nuesse.rules import AufDieNuesse, Board, Market, NuesseState, Step
from spieltisch.games.auf_die_nuesse.view import NuesseView
from spieltisch.games.auf_die_nuesse.words import WORDS

KIT: GameKit[NuesseView] = GameKit(
    game=AufDieNuesse,
    view=NuesseView,
    words=WORDS,
    belief=Belief(sample=sample_state, redeal=redeal_hidden),
    agents=AGENTS,
    strength_order=strength_order,
    search=SEARCH,
)
"""Everything of Auf die Nüsse! that the rest of spieltisch plugs into."""

__all__ = [
    "KEEP",
    "KIT",
    "PASS",
    "ROLL_AGAIN",
    "STOP",
    "AufDieNuesse",
    "Board",
    "Card",
    "Config",
    "Dice",
    "Draw",
    "Ending",
    "Event",
    "EventKind",
    "Keep",
    "Lay",
    "Market",
    "NuesseState",
    "NuesseView",
    "Nut",
    "Pass",
    "Place",
    "Put",
    "RollAgain",
    "Rule",
    "Setup",
    "Slot",
    "Space",
    "Stage",
    "Steal",
    "Step",
    "Stop",
    "Store",
    "Take",
    "fail_chance",
]
