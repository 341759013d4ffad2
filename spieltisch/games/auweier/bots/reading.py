"""What Auweier's heuristic reads off one player's view: totals, egg values, hand strength.

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spieltisch.core.fast import value
from spieltisch.core.game import PlayerId
from spieltisch.games.auweier.model import COLOUR_BONUS
from spieltisch.games.auweier.notation import WORM_VALUE, Card, Colour
from spieltisch.games.auweier.view import AuweierView


@value
class Reading:
    """The facts the heuristic uses, read from one player's view."""

    me: int
    players: int
    females: tuple[int, ...]
    """The females that still have eggs to give."""
    totals: tuple[tuple[int, ...], ...]
    """``totals[female][player]``."""
    value: tuple[tuple[float, ...], ...]
    """``value[female][player]``: what her next egg is worth to that player (eggs on the card,
    own colour, and the colour bonus it adds)."""
    power: tuple[float, ...]
    """Each player's expected worm value in hand (the viewer's is exact)."""
    crow_risk: float
    """Chance that an opponent holds a Crow."""
    wedding_odds: tuple[float, ...]
    """Chance that each player holds a Wedding (1 or 0 for the viewer)."""
    crow_digs: bool = False
    """Crows eat under a False Worm or a starred worm too (the ``crow_digs`` option)."""
    worth: tuple[int, ...] = WORM_VALUE
    """What each card adds to a worm total at this table (the worm value parameters)."""

    def best_other(self, female: int, player: int | None = None) -> tuple[int, PlayerId | None]:
        """The highest total before ``female`` among the players other than ``player``
        (default: the viewer), and whose it is (``None`` if no other total there is above 0)."""
        me = self.me if player is None else player
        column = self.totals[female]
        best: int = 0
        who: PlayerId | None = None
        for p, total in enumerate(column):
            if p != me and total > best:
                best, who = total, p
        return best, who

    def lead(self, female: int, player: int | None = None) -> int:
        """``player``'s total before ``female`` minus the best other total."""
        me = self.me if player is None else player
        return self.totals[female][me] - self.best_other(female, me)[0]


def read(view: AuweierView) -> Reading:
    """The :class:`Reading` of ``view`` (a player's view, not a spectator's)."""
    me = view.viewer if view.viewer is not None else view.player
    players = len(view.players)
    totals = tuple(tuple(s.total for s in female.stacks) for female in view.females)
    open_females = tuple(
        f for f, female in enumerate(view.females) if female.eggs_left and not female.closed
    )
    value = tuple(
        tuple(_egg_value(view, f, p) for p in range(players)) for f in range(len(view.females))
    )
    worth = view.config.worm_values
    power, crows, weddings = [], [], []
    for p, info in enumerate(view.players):
        if p == me:
            hand = view.my_hand
            power.append(float(sum(n * worth[k] for k, n in enumerate(hand))))
            weddings.append(1.0 if hand[Card.WEDDING] else 0.0)
            continue
        unseen = _unseen(view, p)
        size = sum(unseen)
        in_hand = info.hand_size if info.hand_size is not None else 0  # no hands before the deal
        free = in_hand - sum(info.shown)
        known = sum(n * worth[k] for k, n in enumerate(info.shown))
        power.append(known + _hand_power(unseen, free, worth))
        crows.append(_holds(unseen[Card.CROW], size, free) if not info.shown[Card.CROW] else 1.0)
        held = info.shown[Card.WEDDING] > 0
        weddings.append(1.0 if held else _holds(unseen[Card.WEDDING], size, free))
    risk = 1.0 - math.prod(1.0 - c for c in crows) if crows else 0.0
    digs = view.config.crow_digs
    return Reading(
        me, players, open_females, totals, value, tuple(power), risk, tuple(weddings), digs, worth
    )


def _egg_value(view: AuweierView, female: int, player: int) -> float:
    left = view.females[female].eggs_left
    if not left or view.females[female].closed:
        return 0.0
    own = 1 if female == player and not view.females[female].neutral else 0
    colours = {egg.female for egg in view.players[player].eggs}
    gain = COLOUR_BONUS[len(colours | {Colour(female)})] - COLOUR_BONUS[len(colours)]
    return float(left[0] + own + gain)


def _unseen(view: AuweierView, player: int) -> list[int]:
    """Cards of ``player``'s deck in their hand or pile that the viewer has not seen."""
    on_table = [0] * len(Card)
    for female in view.females:
        for card in female.stacks[player].cards:
            on_table[card] += 1
    info = view.players[player]
    return [
        d - t - x - s
        for d, t, x, s in zip(view.config.deck, on_table, info.discarded, info.shown, strict=True)
    ]


def _hand_power(unseen: Sequence[int], hand: int, worth: Sequence[int] = WORM_VALUE) -> float:
    """What ``hand`` cards from the ``unseen`` ones are likely to add as worms: halfway between
    a random hand and one that kept the best worms (players hold strong worms back)."""
    size = sum(unseen)
    if not size or hand <= 0:
        return 0.0
    values = sorted((worth[k] for k, n in enumerate(unseen) for _ in range(n)), reverse=True)
    average = hand * sum(values) / size
    worms = sum(unseen[: Card.FALSE_WORM])
    kept = sum(values[: min(hand, max(1, round(hand * worms / size)))])
    return (average + kept) / 2


def _holds(kind: int, unseen: int, hand: int) -> float:
    """Chance that ``hand`` cards drawn from ``unseen`` cards include one of ``kind``."""
    if kind <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if hand >= unseen:
        return 1.0
    return 1.0 - math.comb(unseen - kind, hand) / math.comb(unseen, hand)


def win_chance(lead: float) -> float:
    """How likely a lead of ``lead`` worm points holds until the egg is given (a guess)."""
    return 1.0 / (1.0 + math.exp(-(lead - 0.5) / 2.5))
