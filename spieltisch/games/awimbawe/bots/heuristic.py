"""Awimbawé's heuristic agent: a rule-of-thumb player that reads views only.

The heuristic plays the way a careful human does; its class docstring states the rules. It
reckons with the cards it has not seen the way the belief sampler deals them: the opponent's
hidden hand is any set of unseen cards of the lands they may still hold, all equally likely.
Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from spieltisch.core.agent import Agent
from spieltisch.core.fast import value
from spieltisch.core.game import Move
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.notation import (
    DECK,
    Block,
    Card,
    Lead,
    Play,
    Rhino,
    Stance,
    deck_of,
)
from spieltisch.games.awimbawe.rules import leader_wins
from spieltisch.games.awimbawe.view import AwimbaweView

HYENA_RISK = (0.0, 1.0, 4.0, 12.0)
"""How much holding 0-3 hyenas weighs against a player, in crowns: the fourth loses the round."""
FOURTH_HYENA = 40.0
"""What taking the fourth hyena costs, in crowns: the round."""
AVERAGE_ANSWER = 1.5
"""The crowns an unknown answer to a lead is reckoned to carry."""
DUMPING = 1.0
"""How likely an opponent who can throw a hyena on a trick I take is reckoned to do it."""
MAJORITY = 23
"""Crowns that win a round played out (the deck holds 45)."""
MAJORITY_BONUS = 10.0
"""What reaching the majority is worth beyond its crowns (eagles taken later may still cost
a crown or two)."""


def answer_beats(led: Card, answer: Card) -> bool:
    """True when ``answer``, of the led land, takes the trick from ``led``."""
    return answer.land is led.land and not leader_wins(led, answer)


def standing(crowns: tuple[int, int], hyenas: tuple[int, int]) -> float:
    """How well the round stands for me, in crowns: the crowns up to the majority, a bonus
    for reaching it, and the weight of the hyenas taken."""
    mine, theirs = crowns
    value = float(min(mine, MAJORITY) - min(theirs, MAJORITY))
    value += MAJORITY_BONUS * ((mine >= MAJORITY) - (theirs >= MAJORITY))
    return value + hyena_weight(*hyenas)


def hyena_weight(mine: int, theirs: int) -> float:
    """What the hyenas taken weigh for me, in crowns: the fourth loses the round, and the
    danger is real only while the other player has taken none."""
    worth = 0.0
    if mine >= 4:
        worth -= FOURTH_HYENA
    elif not theirs:
        worth -= HYENA_RISK[mine]
    if theirs >= 4:
        worth += FOURTH_HYENA
    elif not mine:
        worth += HYENA_RISK[theirs]
    return worth


@value
class Reading:
    """What the heuristic reads off one player's view."""

    me: int
    them: int
    their_cards: tuple[Card, ...]
    """The opponent's cards I know they may play: face-up pile tops not blocked and any
    hand card a shown blind pick revealed."""
    unseen: tuple[Card, ...]
    """Cards I have not seen that the opponent may hold in hand (not of a land of their
    void)."""
    hidden: int
    """How many of the opponent's hand cards I cannot name."""
    hyenas: tuple[int, int]
    """Hyenas taken: mine, theirs."""
    crowns: tuple[int, int]
    """Crowns taken this round: mine, theirs."""
    live: frozenset[Card]
    """Cards not yet played or seen in my own hand: all that may still turn up against me."""

    def holds_any(self, cards: Iterable[Card]) -> float:
        """The chance that the opponent can play one of ``cards`` (known, or in their hidden
        hand: a uniform choice of ``hidden`` cards from ``unseen``)."""
        wanted = set(cards)
        if any(c in wanted for c in self.their_cards):
            return 1.0
        count = sum(1 for c in self.unseen if c in wanted)
        pool, hand = len(self.unseen), self.hidden
        if not count or not hand:
            return 0.0
        if hand > pool - count:
            return 1.0
        return 1.0 - math.comb(pool - count, hand) / math.comb(pool, hand)

    def strength(self, card: Card) -> float:
        """What keeping ``card`` for later is worth, in crowns: an eagle is a trump; a land
        card is worth more the fewer live cards of its land can beat it; a hyena of mine is a
        burden while I have taken hyenas and the opponent none."""
        if card.is_eagle:
            return 1.2 + 0.3 * (card.value - 7)
        mine, theirs = self.hyenas
        if card.value == 4 and mine >= 2 and not theirs:  # it must be played some day
            return -HYENA_RISK[mine]
        beaters = sum(1 for c in self.live if answer_beats(card, c))
        worth = 0.9 * (1 - beaters / 5)
        if card.value == 1 and DECK[card.code + 5] in self.live:  # the mouse still has prey
            worth += 0.4
        return worth

    def win_chance(self, card: Card, *, power: bool = False, ducking: bool = False) -> float:
        """The chance that leading ``card`` takes the trick, if the opponent beats it whenever
        they can (``ducking``: whenever they must); ``power``: my snake or rhinoceros will
        take one of their visible beaters out of play."""
        beaters = [c for c in DECK if answer_beats(card, c) and c in self.live]
        visible = [c for c in beaters if c in self.their_cards]
        if power and len(visible) == 1:
            beaters.remove(visible[0])
        beat = self.holds_any(beaters)
        others = [c for c in self.live if c.land is card.land and c not in beaters]
        follow = self.holds_any(others)
        if ducking:  # they lose it whenever they hold a lower card of the land, or flee
            return 1.0 - beat * (1.0 - follow)
        if card.is_eagle:
            return 1.0 - beat
        eagle = self.holds_any(c for c in self.live if c.is_eagle)
        return (1.0 - beat) * (follow + (1.0 - follow) * (1.0 - eagle))

    def dump_chance(self, card: Card) -> float:
        """The chance that the opponent answers ``card``, led, with a hyena that ``card``
        beats: the hyena of its land, or any hyena when they cannot follow nor trump."""
        if card.is_eagle:
            hyenas = [c for c in self.live if c.value == 4]
            return 0.5 * self.holds_any(hyenas) * (1 - self.holds_any(self._eagles()))
        own = DECK[card.code // 6 * 6 + 3] if card.value != 4 else None
        chance = 0.0
        if own is not None and own in self.live and answer_beats(own, card):
            chance = DUMPING * self.holds_any([own])
        land = [c for c in self.live if c.land is card.land]
        hyenas = [c for c in self.live if c.value == 4]
        cannot = (1 - self.holds_any(land)) * (1 - self.holds_any(self._eagles()))
        return min(1.0, chance + DUMPING * cannot * self.holds_any(hyenas))

    def _eagles(self) -> list[Card]:
        return [c for c in self.live if c.is_eagle]


def read(view: AwimbaweView) -> Reading:
    """The :class:`Reading` of a player's view."""
    me = view.viewer if view.viewer is not None else (view.to_act or 0)
    them = 1 - me
    mine, theirs = view.sides[me], view.sides[them]
    seen = set(view.played) | set(view.trick) | set(mine.hand or ())
    for side in view.sides:
        seen.update(c for pile in side.piles for c in pile if c is not None)
    seen.update(theirs.shown)
    known = tuple(c for c in (*theirs.available, *theirs.shown) if c not in theirs.blocked)
    deck = deck_of(view.config.lands)  # the cards in play
    # with fewer lands fewer hyenas lose: counted as the last ones of the rulebook's four
    short = 4 - view.config.lands
    unseen = tuple(c for c in deck if c not in seen and c.land not in theirs.void)
    live = frozenset(c for c in deck if c not in seen or c in known)
    return Reading(
        me,
        them,
        known,
        unseen,
        max(0, theirs.hand_size - len(theirs.shown) - theirs.blocked_unseen),
        (mine.hyenas + short, theirs.hyenas + short),
        (mine.crowns, theirs.crowns),
        live,
    )


class HeuristicAgent(Agent[AwimbaweView]):
    """Plays Awimbawé like a careful human, counting crowns and cards.

    * **Answering a trick**: every legal answer is worth the crowns it brings in minus those
      it gives away (a fleeing eagle gives the leader only the led card), less what the card
      played would have been worth later. So it takes a trick with crowns on the table using
      its cheapest winning card, lets a worthless trick go with a card it does not need, and
      when it must lose, throws away a card with few crowns.
    * **The round, not the crowns**: crowns count only up to 23, the majority of the 45 in
      the deck; once a player has them, only the hyenas can still turn the round.
    * **Hyenas**: each hyena taken weighs more than the last, and the fourth costs the round,
      but only while the opponent has taken none (after that nobody can take all four): with
      three it never takes a trick holding a hyena, not even its own, it fears leading a card
      the opponent could answer with a hyena, it is glad to hand the opponent a first hyena,
      and to an opponent with three it gladly hands the fourth.
    * **Eagles, flee or fight**: fighting takes both cards, fleeing gives the led card away
      but keeps the lead with the opponent; it fights for crowns and flees from a fourth
      hyena. It spends the weakest eagle that does the job and keeps the 10, which wins every
      eagle duel.
    * **Leading**: it reckons, from the cards it has not seen and the lands the opponent was
      found without, the chance that the opponent can beat the lead (the visible pile tops
      for sure, the hidden hand by the odds), or must trump it with an eagle. It leads sure
      winners when they bring crowns, and otherwise cheap cards that give little away.
    * **Rhinoceros**: it buries the opponent's most dangerous face-up card (one that beats
      its lead, an eagle when the opponent shows no card of the led land, or their strongest)
      under their deepest pile.
    * **Snake**: as leader it blocks the visible card that would beat its snake, or a hand
      card blind when the hand may hide one; answering, it blocks the opponent's strongest
      face-up card, else a hand card.
    * **Cheetah**: it leads the next trick itself only when it holds a lead worth making.
    * **After losing a round** it names itself to lead the next one.
    """

    name = "heuristic"

    def act(self, view: AwimbaweView, legal: Sequence[Move]) -> Move:
        return self.ranked(view, legal)[0][0]

    def explain(self, view: AwimbaweView, legal: Sequence[Move]) -> str:
        ranked = self.ranked(view, legal)
        best, score = ranked[0]
        others = ", ".join(f"{m} {s:+.1f} crowns" for m, s in ranked[1:4])
        return f"heuristic: {best} (worth {score:+.1f} crowns; next: {others or 'none'})"

    def ranked(self, view: AwimbaweView, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        """Every legal move with what the heuristic thinks it is worth, best first.

        Raises :class:`TypeError` for another game's view (a caller outside type checks)."""
        if not isinstance(view, AwimbaweView):
            raise TypeError(f"an Awimbawé agent needs an AwimbaweView, not {type(view).__name__}")
        reading = read(view)
        scored = [(move, self.score(view, reading, move)) for move in legal]
        order = {move: index for index, move in enumerate(legal)}
        return sorted(scored, key=lambda item: (-item[1], order[item[0]]))

    def score(self, view: AwimbaweView, reading: Reading, move: Move) -> float:
        """What ``move`` is worth to the viewer, in crowns (see the class docstring)."""
        if isinstance(move, Play):
            if view.trick:
                return answer_score(reading, view.trick[0], move)
            return lead_score(reading, move.card)
        if isinstance(move, Rhino):
            return rhino_score(view, reading, move)
        if isinstance(move, Block):
            return block_score(view, reading, move)
        if isinstance(move, Lead):
            if view.stage is Stage.CHOOSE_LEADER:
                return 1.0 if move.me else 0.0
            best = best_lead(view, reading)
            return best if move.me else 0.3
        return 0.0  # declining a power


def answer_score(reading: Reading, led: Card, play: Play) -> float:
    """The worth of answering ``led`` with ``play``."""
    card = play.card
    mine, theirs = reading.hyenas
    my_crowns, their_crowns = reading.crowns
    hyenas = (led.value == 4) + (card.value == 4)
    if play.stance is Stance.FLEE:
        my_crowns += card.crowns
        their_crowns += led.crowns
        theirs += led.value == 4
    elif (card.land is led.land and answer_beats(led, card)) or play.stance is Stance.FIGHT:
        my_crowns += led.crowns + card.crowns
        mine += hyenas
    else:
        their_crowns += led.crowns + card.crowns
        theirs += hyenas
    gain = standing((my_crowns, their_crowns), (mine, theirs))
    gain -= standing(reading.crowns, reading.hyenas)
    return gain - reading.strength(card) + _power(card)


def lead_score(reading: Reading, card: Card) -> float:
    """The worth of leading ``card``: the trick's crowns by the chance of taking it."""
    power = card.value in (2, 5) and not card.is_eagle
    mine, theirs = reading.hyenas
    hyena = card.value == 4
    win = reading.win_chance(card, power=power, ducking=hyena and mine >= 2 and not theirs)
    pot = round(card.crowns + AVERAGE_ANSWER)
    my_crowns, their_crowns = crowns = reading.crowns
    before = standing(crowns, (mine, theirs))
    if_won = standing((my_crowns + pot, their_crowns), (mine + hyena, theirs)) - before
    if_lost = standing((my_crowns, their_crowns + pot), (mine, theirs + hyena)) - before
    dumped = reading.dump_chance(card)  # a hyena they may throw on a trick I take
    if dumped:
        taken = mine + hyena
        if_won += dumped * (3 + hyena_weight(taken + 1, theirs) - hyena_weight(taken, theirs))
    score = win * if_won + (1 - win) * if_lost
    return score - reading.strength(card) + _power(card)


def _power(card: Card) -> float:
    """A small bonus for a card whose power is still to come (cheetah, snake, rhinoceros)."""
    return 0.2 if not card.is_eagle and card.value in (2, 3, 5) else 0.0


def best_lead(view: AwimbaweView, reading: Reading) -> float:
    """The worth of the best lead the viewer could make next."""
    side = view.sides[reading.me]
    cards = [c for c in side.available if c not in side.blocked] or list(side.available)
    return max((lead_score(reading, c) for c in cards), default=0.0)


def _threat(view: AwimbaweView, reading: Reading, card: Card) -> float:
    """How much harm the opponent's face-up ``card`` can do in the trick under way."""
    threat = reading.strength(card)
    if view.trick and len(view.trick) == 1 and view.leader == reading.me:
        led = view.trick[0]
        if answer_beats(led, card):
            threat += 2.0
        shows_land = any(c.land is led.land for c in reading.their_cards)
        if card.is_eagle and not shows_land:
            threat += 1.5
    return threat


def rhino_score(view: AwimbaweView, reading: Reading, move: Rhino) -> float:
    """Burying the opponent's most dangerous face-up top under their deepest pile."""
    piles = view.sides[reading.them].piles
    top = piles[move.source][-1]
    if top is None:  # a face-down card uncovered in this trick: it stays hidden anyway
        return -0.1
    return _threat(view, reading, top) - 0.4 + 0.01 * len(piles[move.dest])


def block_score(view: AwimbaweView, reading: Reading, move: Block) -> float:
    """Blocking the visible card that hurts most, or a hand card that may."""
    side = view.sides[reading.them]
    if move.pile is not None:
        top = side.piles[move.pile][-1]
        return -0.1 if top is None else _threat(view, reading, top) - 0.4
    if view.trick and len(view.trick) == 1 and view.leader == reading.me:
        led = view.trick[0]
        hidden = [c for c in reading.unseen if answer_beats(led, c)]
        odds = len(hidden) / len(reading.unseen) if reading.unseen else 0.0
        return 2.0 * odds * min(1.0, reading.hidden) - 0.2
    return 0.5 if reading.hidden else -0.1


__all__ = [
    "HeuristicAgent",
    "Reading",
    "answer_beats",
    "read",
]
