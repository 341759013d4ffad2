"""Chance events too large to list, split into a sequence of small explicit steps.

OpenSpiel wants every chance node explicit: each outcome listed with its probability. A deal
of 28 cards or the shuffle of a 20-card pile has far too many outcomes, and a throw of nine
dice (2,002) costs more to list than to play, so an adapter deals it item by item (a throw die
by die): a :class:`Splitter` says, given the items drawn so far, which items may come
next with their exact probabilities, and which move of the game the full sequence is. The
product of the steps' probabilities is exactly the outcome's probability under the rules.
Splitters are kept per game id in :data:`SPLITTERS`; a game without one has only chance
events small enough to list.
"""

from __future__ import annotations

from spieltisch.rl.chance.auweier import ShuffleSplitter
from spieltisch.rl.chance.awimbawe import DealSplitter
from spieltisch.rl.chance.base import Splitter
from spieltisch.rl.chance.dice import EierDiceSplitter, NuesseDiceSplitter

SPLITTERS: dict[str, Splitter] = {
    "auf-die-eier": EierDiceSplitter(),
    "auf-die-nuesse": NuesseDiceSplitter(),
    "auweier": ShuffleSplitter(),
    "awimbawe": DealSplitter(),
}
"""Each game's splitter of its large chance events, by game id."""

__all__ = ["SPLITTERS", "Splitter"]
