"""Auweier agents: a rule-of-thumb heuristic that reads views only, and the book of deck orders.

The heuristic plays the way a careful human does (its class docstring states the rules). The
book (:data:`BOOK`) answers the 22 deck-ordering decisions with the heuristic's own plan, so a
search agent spends no search on them; the plan fixes the deck's shape, and the agent's own
generator picks a fresh order of that shape each game, so nobody can learn a bot's deck by
watching it play. Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from spieltisch.agents.base import Agent
from spieltisch.core.game import Move, PlayerId
from spieltisch.games.auweier.notation import (
    DECK,
    DECK_SIZE,
    PASS,
    WORM_VALUE,
    Arrange,
    Card,
    Colour,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Swap,
    parse_cards,
)
from spieltisch.games.auweier.rules import COLOUR_BONUS, Stage, crow_prey
from spieltisch.games.auweier.view import AuweierView

PLAN_TIERS: tuple[tuple[Card, ...], ...] = tuple(
    parse_cards(tier) for tier in ("7 6", "5* 2* 4 4 K", "3 3 F K 1", "2 2 1 1")
)
"""The heuristic's deck plan for the 16 cards other than Weddings: tier by tier, first card
first, each tier's cards in a random order. The first five of them are the starting hand.

* **Start strong**: the 7 and the 6 (tier 1) are always in the starting hand, so a clear lead
  before one female is down at once; three cards of tier 2 complete the hand: the crow-proof
  5* and 2* keep a lead safe from Crows (a Crow only eats the top card, never a starred one),
  the 4s answer the opponents' first worms, and the Crow eats them. The two tier-2 cards left
  over come in the first draws.
* **Middle, then small**: the 3s, the second Crow and the False Worm come when the table is
  full of worms to eat or to protect; the 1s and 2s at the end still top up a lead cheaply.
"""
WEDDING_PLACES: tuple[tuple[int, int], ...] = (
    (0, 5),
    (6, 8),
    (9, 11),
    (12, 14),
    (15, 17),
    (18, 21),
)
"""Where the plan puts the six Weddings: the k-th lies at one of the places ``a`` to ``b``
(0 is the first card of the deck; 0 to 5 is the starting hand), each place equally likely.

* **Weddings spread out**: one in the starting hand, then one in each stretch of three or four
  draws, so a Wedding is in hand whenever a lead is ready or an opponent opens a wedding phase
  (to join it), but the hand is never clogged with them.
"""


def plan_next(hand: Sequence[int], rng: random.Random) -> Card:
    """The next card of the planned order for a deck whose cards not placed yet are ``hand``.

    Stateless: what was placed already is ``DECK`` less ``hand``. A Wedding comes at a place of
    its stretch of :data:`WEDDING_PLACES` with equal chance (one that missed its stretch, in a
    deck begun off the plan, comes at once); otherwise the card is drawn uniformly from the
    cards left of the current tier of :data:`PLAN_TIERS`, the first one whose cards are not all
    placed (the cards placed are counted against the tiers in order). Every random choice comes
    from ``rng``, so a seeded generator gives the same deck again."""
    placed = [have - left for have, left in zip(DECK, hand, strict=True)]
    place = DECK_SIZE - sum(hand)
    others_left = sum(hand) - hand[Card.WEDDING]
    if hand[Card.WEDDING] and (not others_left or _wedding_now(place, placed[Card.WEDDING], rng)):
        return Card.WEDDING
    for tier in PLAN_TIERS:
        left = []
        for card in tier:
            if placed[card]:
                placed[card] -= 1
            else:
                left.append(card)
        if left:
            return left[rng.randrange(len(left))]
    return next(Card(k) for k, n in enumerate(hand) if n)  # the tiers cover the deck: unreached


def _wedding_now(place: int, weddings_placed: int, rng: random.Random) -> bool:
    """Whether the next Wedding goes at ``place``: at each place of its stretch with the chance
    that makes all of them equally likely, and at its last place (or after it) for sure."""
    first, last = WEDDING_PLACES[weddings_placed]
    if place < first:
        return False
    return place >= last or rng.randrange(last - place + 1) == 0


def plan_deck(rng: random.Random) -> tuple[Card, ...]:
    """A whole deck order of the plan, first card first (what the book builds step by step)."""
    hand = list(DECK)
    order = []
    for _ in range(DECK_SIZE):
        card = plan_next(hand, rng)
        hand[card] -= 1
        order.append(card)
    return tuple(order)


def book(view: object, legal: Sequence[Move], rng: random.Random) -> Move | None:
    """The set moves of Auweier: each deck-ordering step is the next card of the heuristic's
    planned order (:func:`plan_next`, drawn with the agent's own generator ``rng``, so that no
    two games need start alike); every other decision is left to thought.

    The whole order could be typed as one ``deck ...`` line, but that line is not among the
    listed legal actions an agent chooses from, so the book answers each listed step instead
    (22 quick answers; a deck begun differently is finished as the plan would)."""
    if not isinstance(view, AuweierView) or view.stage is not Stage.ORDER or view.hand is None:
        return None
    step = Arrange((plan_next(view.hand, rng),))
    return step if step in legal else None


BOOK = book


# --- what a player can read off the table ---------------------------------------------------


@dataclass(frozen=True, slots=True)
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
    power, crows, weddings = [], [], []
    for p, info in enumerate(view.players):
        if p == me:
            hand = view.my_hand
            power.append(float(sum(n * WORM_VALUE[k] for k, n in enumerate(hand))))
            weddings.append(1.0 if hand[Card.WEDDING] else 0.0)
            continue
        unseen = _unseen(view, p)
        size = sum(unseen)
        in_hand = info.hand_size if info.hand_size is not None else 0  # no hands before the deal
        free = in_hand - sum(info.shown)
        known = sum(n * WORM_VALUE[k] for k, n in enumerate(info.shown))
        power.append(known + _hand_power(unseen, free))
        crows.append(_holds(unseen[Card.CROW], size, free) if not info.shown[Card.CROW] else 1.0)
        held = info.shown[Card.WEDDING] > 0
        weddings.append(1.0 if held else _holds(unseen[Card.WEDDING], size, free))
    risk = 1.0 - math.prod(1.0 - c for c in crows) if crows else 0.0
    digs = view.config.crow_digs
    return Reading(
        me, players, open_females, totals, value, tuple(power), risk, tuple(weddings), digs
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
    on_table = [0] * len(DECK)
    for female in view.females:
        for card in female.stacks[player].cards:
            on_table[card] += 1
    info = view.players[player]
    return [
        d - t - x - s for d, t, x, s in zip(DECK, on_table, info.discarded, info.shown, strict=True)
    ]


def _hand_power(unseen: Sequence[int], hand: int) -> float:
    """What ``hand`` cards from the ``unseen`` ones are likely to add as worms: halfway between
    a random hand and one that kept the best worms (players hold strong worms back)."""
    size = sum(unseen)
    if not size or hand <= 0:
        return 0.0
    values = sorted((WORM_VALUE[k] for k, n in enumerate(unseen) for _ in range(n)), reverse=True)
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


# --- the agent ------------------------------------------------------------------------------


class HeuristicAgent(Agent):
    """Plays Auweier like a careful human, reading only its own view.

    * **Deck order** (:func:`plan_next`): a new order every game, drawn with its own generator
      but always of the same shape: 7, 6, a Wedding and three of 5*, 2*, 4, 4 and Crow in the
      starting hand, so a lead of 13, often crow-proof, is down in two turns and can be opened
      at once; the other Weddings one in each stretch of three or four draws, so one is at
      hand whenever a lead is ready or somebody else opens; the rest of the strong worms
      early, the 3s, the second Crow and the False Worm in the middle, small worms last.
    * **Worms** go where they take the lead or make a lead safer, at females that still have
      eggs, weighed by what the next egg is worth to it (eggs on the card, +1 for its own
      colour, the colour bonus it adds); never where it cannot catch up. It plays the smallest
      worm that does the job, and puts a starred worm or the False Worm on top of a leading
      stack whose top an opponent's Crow could eat.
    * **Opening**: it opens a wedding phase before a female where it leads by at least 3 and
      by more than the strongest opponent could add from the hand (counting its own worms in
      hand, and assuming opponents hold some of their best unseen worms back), and where the
      egg is worth more to it than what the opponents could win elsewhere in that phase.
    * **Wedding stage**: it lays a Wedding where it leads (or can take the lead with the worms in
      its hand) and the female has an egg; where it would lose, never (its worms there would be
      discarded for nothing). With nothing to win it still joins with a Wedding at a female
      where it has no worms, if that lets it stop an opponent's egg in the worm stage.
    * **Worm stage**: every card played here is one card less to draw later, when eggs are
      worth more, so it spends with care. First it takes the lead at its own Wedding females
      with the smallest worm that does it (or adds one while the lead is small against what
      the opponents still in the stage could add); then, with a single worm, it ties or beats
      an opponent about to win a valuable egg; then it plays a worm only where it clearly
      builds a lead that stays on the table, or the False Worm to keep its turn while a narrow
      lead needs an answer; otherwise it passes.
    * **Crows** eat an opponent's top worm when that changes who is likely to win a female's
      egg (its own chance, or the owner's), big worms first; a Crow is scarce, so a 1 or a 2
      is seldom worth one.
    * **False Worm**: played on top to protect a lead, exchanged to fetch back a big worm from a
      female it cannot win, or exchanged for a real worm where that takes the lead.
    """

    name = "heuristic"

    open_margin = 3
    """The smallest lead it opens a wedding phase with."""
    worth_a_card = 0.5
    """What a worm played in a wedding phase (one card less to draw later) must gain."""

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        return self.decide(view, legal)[0]

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        move, why = self.decide(view, legal)
        return f"heuristic: {move} — {why}"

    def decide(self, view: object, legal: Sequence[Move]) -> tuple[Move, str]:
        """The move and, in a few words, why."""
        if not isinstance(view, AuweierView):
            raise TypeError(f"an Auweier agent needs an AuweierView, not {type(view).__name__}")
        if len(legal) == 1:
            return legal[0], "the only move"
        if view.stage is Stage.ORDER:
            move = book(view, legal, self.rng)
            if move is not None:
                return move, "the next card of its planned deck order"
            return legal[0], "the planned order does not fit"
        reading = read(view)
        if view.stage is Stage.WEDDINGS:
            return self._wedding_stage(view, reading, legal)
        if view.stage is Stage.WORMS:
            return self._worm_stage(view, reading, legal)
        return self._normal_turn(view, reading, legal)

    # --- normal turns -----------------------------------------------------------------------

    def _normal_turn(
        self, view: AuweierView, reading: Reading, legal: Sequence[Move]
    ) -> tuple[Move, str]:
        openings = [m for m in legal if isinstance(m, PlayWedding)]
        best_open = self._best_opening(reading, openings)
        if best_open is not None:
            return best_open
        scored = []
        for move in legal:
            if isinstance(move, PlayWorm):
                scored.append(self._rate_worm(view, reading, move))
            elif isinstance(move, PlayCrow):
                scored.append(self._rate_crow(view, reading, move))
            elif isinstance(move, Swap):
                scored.append(self._rate_swap(view, reading, move))
        if not scored:
            return legal[0], "nothing better to do"
        _, why, move = max(scored, key=lambda item: item[0])
        return move, why

    def _best_opening(
        self, reading: Reading, openings: list[PlayWedding]
    ) -> tuple[Move, str] | None:
        me = reading.me
        reserve = reading.power[me]
        best: tuple[float, Move, str] | None = None
        for move in openings:
            f = move.female
            worth = reading.value[f][me]
            if not worth:
                continue
            lead = reading.lead(f)
            threat = max(
                (
                    reading.power[p] * reading.wedding_odds[p]
                    for p in range(reading.players)
                    if p != me
                ),
                default=0.0,
            )
            if lead < self.open_margin or lead + 0.5 * reserve < threat + 1:
                continue
            given_away = self._opponent_chances(reading, f)
            if worth < given_away:
                continue
            score = worth * win_chance(lead + 0.5 * reserve - threat) - given_away
            if best is None or score > best[0]:
                text = f"opens with a lead of {lead} before {Colour(f).label} (egg worth {worth:g})"
                best = (score, move, text)
        return (best[1], best[2]) if best else None

    @staticmethod
    def _opponent_chances(reading: Reading, opened: int) -> float:
        """What opponents could expect to win at the other females if a phase opened now."""
        total = 0.0
        for f in reading.females:
            if f == opened:
                continue
            for p in range(reading.players):
                if p == reading.me:
                    continue
                lead = reading.lead(f, p)
                if lead > 0:
                    total += reading.value[f][p] * win_chance(lead) * reading.wedding_odds[p]
        return total

    def _female_worth(self, reading: Reading, f: int, mine: float, others: int) -> float:
        """How much a total of ``mine`` against ``others`` before ``f`` is worth to the viewer."""
        return reading.value[f][reading.me] * win_chance(mine - others)

    def _rate_worm(
        self, view: AuweierView, reading: Reading, move: PlayWorm
    ) -> tuple[float, str, Move]:
        me, f, card = reading.me, move.female, move.card
        value = WORM_VALUE[card]
        mine = reading.totals[f][me]
        others = reading.best_other(f)[0]
        stack = view.females[f].stacks[me].cards
        before = mine - self._exposed(reading, stack)
        after = mine + value - self._exposed(reading, (*stack, card))
        gain = self._female_worth(reading, f, after, others) - self._female_worth(
            reading, f, before, others
        )
        gain -= 0.04 * value  # spend small worms where they do the same job
        if card is Card.FALSE_WORM:
            gain -= 0.3  # keep it for protection and exchanges unless it protects now
        if not reading.value[f][me]:
            gain -= 1.0
        if mine + value <= others:
            why = f"builds up before {Colour(f).label} ({mine + value} against {others})"
        elif mine <= others:
            why = f"takes the lead before {Colour(f).label} ({mine + value} against {others})"
        else:
            why = f"makes the lead before {Colour(f).label} safer ({mine + value} against {others})"
        return gain, why, move

    def _exposed(self, reading: Reading, stack: Sequence[Card]) -> float:
        """Worm points a Crow may take off the top of ``stack`` (expected)."""
        prey = crow_prey(stack, reading.crow_digs)
        if prey is None:
            return 0.0
        return reading.crow_risk * 0.5 * WORM_VALUE[stack[prey]]

    def _rate_crow(
        self, view: AuweierView, reading: Reading, move: PlayCrow
    ) -> tuple[float, str, Move]:
        me, f, owner = reading.me, move.female, move.owner
        stack = view.females[f].stacks[owner].cards
        prey = crow_prey(stack, reading.crow_digs)
        eaten = WORM_VALUE[stack[prey]] if prey is not None else 0
        column = list(reading.totals[f])
        mine = column[me]
        others_before = reading.best_other(f)[0]
        column[owner] -= eaten
        others_after = max((t for p, t in enumerate(column) if p != me), default=0)
        gain = self._female_worth(reading, f, mine, others_after) - self._female_worth(
            reading, f, mine, others_before
        )
        # Denying the owner matters too: what their egg was worth to them, and how it shrinks.
        owner_lead = reading.lead(f, owner)
        deny = reading.value[f][owner] * (win_chance(owner_lead) - win_chance(owner_lead - eaten))
        gain += deny / max(1, reading.players - 1)
        gain -= 0.6  # a Crow is scarce
        if eaten < 3:
            gain -= 0.5
        why = f"eats {Colour(owner).label}'s {eaten} before {Colour(f).label}"
        return gain, why, move

    def _rate_swap(
        self, view: AuweierView, reading: Reading, move: Swap
    ) -> tuple[float, str, Move]:
        me, f = reading.me, move.female
        stack = view.females[f].stacks[me].cards
        out = stack[move.place - 1]
        change = WORM_VALUE[move.card] - WORM_VALUE[out]
        mine = reading.totals[f][me]
        others = reading.best_other(f)[0]
        changed = list(stack)
        changed[move.place - 1] = move.card
        before = mine - self._exposed(reading, stack)
        after = mine + change - self._exposed(reading, changed)
        gain = self._female_worth(reading, f, after, others) - self._female_worth(
            reading, f, before, others
        )
        if move.card is Card.FALSE_WORM:
            # A worm comes back to the hand: worth it if it is big and this female is lost.
            gain += 0.08 * WORM_VALUE[out] if mine + reading.power[me] <= others else -0.2
            why = f"fetches its {WORM_VALUE[out]} back from {Colour(f).label}"
        else:
            gain -= 0.35  # no card is drawn after an exchange
            why = f"exchanges its False Worm before {Colour(f).label} for a {move.card.text}"
        return gain, why, move

    # --- the wedding stage ------------------------------------------------------------------

    def _wedding_stage(
        self, view: AuweierView, reading: Reading, legal: Sequence[Move]
    ) -> tuple[Move, str]:
        me = reading.me
        reserve = reading.power[me]
        mine_now = view.players[me].weddings
        best: tuple[float, Move, str] | None = None
        for move in legal:
            if not isinstance(move, PlayWedding):
                continue
            f = move.female
            worth = reading.value[f][me]
            if not worth:
                continue
            stake = reading.totals[f][me]
            lead = reading.lead(f)
            rival = self._rival_power(view, reading)
            chance = win_chance(lead + 0.6 * reserve - 0.6 * rival)
            score = worth * chance - 0.15 * stake * (1 - chance) - 0.3
            if lead <= 0 and stake > 0 and lead + reserve <= 0:
                continue  # it would lose its worms there for nothing
            if score > 0.4 and (best is None or score > best[0]):
                best = (score, move, f"a Wedding before {Colour(f).label}, lead {lead}")
        if best is not None:
            return best[1], best[2]
        if not mine_now:
            access = self._access_wedding(view, reading, legal)
            if access is not None:
                return access
        return PASS, "no Wedding worth laying"

    @staticmethod
    def _rival_power(view: AuweierView, reading: Reading) -> float:
        """The strongest worm power among opponents who can still play worms in this phase."""
        best = 0.0
        for p, info in enumerate(view.players):
            if p == reading.me or (
                info.passed and (view.stage is Stage.WORMS or not info.weddings)
            ):
                continue
            best = max(best, reading.power[p])
        return best

    def _access_wedding(
        self, view: AuweierView, reading: Reading, legal: Sequence[Move]
    ) -> tuple[Move, str] | None:
        """A cheap Wedding that lets it play worms to stop an opponent's egg."""
        me = reading.me
        threat = 0.0
        for f in reading.females:
            for p in range(reading.players):
                if p != me and Colour(f) in view.players[p].weddings and reading.lead(f, p) > 0:
                    gap = reading.totals[f][p] - reading.totals[f][me]
                    if gap <= reading.power[me]:
                        threat = max(threat, reading.value[f][p])
        if threat < 2:
            return None
        cheap = [
            m for m in legal if isinstance(m, PlayWedding) and not reading.totals[m.female][me]
        ]
        if not cheap:
            return None
        move = max(cheap, key=lambda m: reading.value[m.female][me])
        return move, "joins the phase to stop an opponent's egg"

    # --- the worm stage ---------------------------------------------------------------------

    def _worm_stage(
        self, view: AuweierView, reading: Reading, legal: Sequence[Move]
    ) -> tuple[Move, str]:
        worms = [m for m in legal if isinstance(m, PlayWorm)]
        mine = {int(c) for c in view.players[reading.me].weddings}
        for step in (self._take_lead, self._stop_eggs, self._keep_turn):
            choice = step(view, reading, worms, mine)
            if choice is not None:
                return choice
        for move in legal:
            if (
                isinstance(move, Swap)
                and move.card is not Card.FALSE_WORM
                and move.female in mine
                and reading.lead(move.female) <= 0
            ):
                return move, "exchanges its False Worm for a real worm at its Wedding"
        return PASS, "nothing more to gain in this phase"

    def _take_lead(
        self, view: AuweierView, reading: Reading, worms: list[PlayWorm], mine: set[int]
    ) -> tuple[Move, str] | None:
        """Take or secure the lead at its own Wedding females, the most valuable first: the
        smallest worm that takes the lead, or one more worm while the lead is small against
        what the opponents still in the phase could add; never throw worms after a lost one."""
        me = reading.me
        rival = self._rival_power(view, reading)
        for f in sorted(mine, key=lambda c: -reading.value[c][me]):
            lead = reading.lead(f)
            if not reading.value[f][me] or lead > rival / 2:
                continue
            if lead <= 0:
                if 1 - lead > reading.power[me] or lead + reading.power[me] < 0.7 * rival:
                    continue
                move = self._smallest(worms, f, 1 - lead) or self._largest(worms, f)
                why = "takes the lead"
            else:
                move = self._smallest(worms, f, 1)
                why = "makes its lead safer"
            if move is not None:
                return move, f"{why} at its Wedding before {Colour(f).label}"
        return None

    def _stop_eggs(
        self, view: AuweierView, reading: Reading, worms: list[PlayWorm], mine: set[int]
    ) -> tuple[Move, str] | None:
        """Tie or beat an opponent who is about to win an egg, the most valuable first, when one
        worm does it and the egg is worth the card (every card played in a wedding phase is one
        card less to draw later, when the eggs are worth more)."""
        me = reading.me
        least = 2.0 if reading.players == 2 else 3.0
        threats = []
        for f in reading.females:
            for p in range(reading.players):
                if p == me or Colour(f) not in view.players[p].weddings or f in mine:
                    continue
                if reading.lead(f, p) > 0:
                    gap = reading.totals[f][p] - reading.totals[f][me]
                    threats.append((reading.value[f][p], gap, f))
        for worth, gap, f in sorted(threats, reverse=True):
            move = self._smallest(worms, f, gap)
            if move is not None and worth >= least:
                return move, f"stops an egg before {Colour(f).label}"
        return None

    def _keep_turn(
        self, view: AuweierView, reading: Reading, worms: list[PlayWorm], mine: set[int]
    ) -> tuple[Move, str] | None:
        """A worm that clearly helps where it stays on the table (no Wedding of its own there),
        or the False Worm just to keep its turn while a narrow lead at its Wedding needs an
        answer to whatever an opponent still in the phase adds. Otherwise it saves its cards."""
        rival = self._rival_power(view, reading)
        narrow = any(0 < reading.lead(f) <= rival for f in mine)
        best: tuple[float, Move] | None = None
        for move in worms:
            if move.female in mine:
                continue
            gain = self._rate_worm(view, reading, move)[0]
            if move.card is Card.FALSE_WORM and narrow:
                gain += 1.0
            if best is None or gain > best[0]:
                best = (gain, move)
        if best is not None and best[0] > self.worth_a_card:
            return best[1], "plays a worm that stays on the table"
        return None

    @staticmethod
    def _smallest(worms: list[PlayWorm], f: int, need: int) -> PlayWorm | None:
        fits = [m for m in worms if m.female == f and WORM_VALUE[m.card] >= need]
        return min(fits, key=lambda m: WORM_VALUE[m.card], default=None)

    @staticmethod
    def _largest(worms: list[PlayWorm], f: int) -> PlayWorm | None:
        here = [m for m in worms if m.female == f and WORM_VALUE[m.card] > 0]
        return max(here, key=lambda m: WORM_VALUE[m.card], default=None)


AGENTS = {"heuristic": HeuristicAgent}
