"""Awimbawé: a trick-taking duel with animal powers (rules: docs/rules/awimbawe.md)."""

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
)
from spieltisch.games.awimbawe.rules import Awimbawe, AwimbaweState, Rule, Side, Stage
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView

GAME = Awimbawe

__all__ = [
    "DECK",
    "GAME",
    "Animal",
    "Awimbawe",
    "AwimbaweState",
    "AwimbaweView",
    "Block",
    "Card",
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
]
