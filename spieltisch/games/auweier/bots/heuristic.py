"""Auweier's heuristic agent: plays like a careful human, reading only its own view.

Its class docstring states its rules of thumb; the deck order comes from the book's plan.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.agent import Agent
from spieltisch.core.game import Move
from spieltisch.games.auweier.bots.book import book
from spieltisch.games.auweier.bots.reading import Reading, read, win_chance
from spieltisch.games.auweier.model import Stage, crow_prey
from spieltisch.games.auweier.notation import (
    PASS,
    Card,
    Colour,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Swap,
)
from spieltisch.games.auweier.view import AuweierView


class HeuristicAgent(Agent[AuweierView]):
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
      egg is worth more to it than what any one opponent could win elsewhere in that phase.
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
      female it cannot win, or exchanged for a real worm where that takes the lead; in normal
      play an exchange must gain something when a card could be played instead, so it never
      swaps back and forth.
    """

    name = "heuristic"

    open_margin = 3
    """The smallest lead it opens a wedding phase with."""
    worth_a_card = 0.5
    """What a worm played in a wedding phase (one card less to draw later) must gain."""

    def act(self, view: AuweierView, legal: Sequence[Move]) -> Move:
        return self.decide(view, legal)[0]

    def explain(self, view: AuweierView, legal: Sequence[Move]) -> str:
        move, why = self.decide(view, legal)
        return f"heuristic: {move} — {why}"

    def decide(self, view: AuweierView, legal: Sequence[Move]) -> tuple[Move, str]:
        """The move and, in a few words, why."""
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
        plays_a_card = _plays_a_card(legal)
        for move in legal:
            if isinstance(move, PlayWorm):
                scored.append(self._rate_worm(view, reading, move))
            elif isinstance(move, PlayCrow):
                scored.append(self._rate_crow(view, reading, move))
            elif isinstance(move, Swap):
                swap = self._rate_swap(view, reading, move)
                if swap[0] > 0 or not plays_a_card:
                    scored.append(swap)
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
        """What the opponent who gains most could expect to win at the other females if a
        phase opened now.

        The most any one opponent gains, not the sum over them: with three or four players,
        an egg for each opponent keeps the opener level with each of them, and the sum would
        forbid opening whenever every player leads before a female of their own, a standoff
        in which nobody opens and the eggs stay unlaid until the decks run out (it happens in
        nearly every game with large hands)."""
        best = 0.0
        for p in range(reading.players):
            if p == reading.me:
                continue
            total = 0.0
            for f in reading.females:
                lead = reading.lead(f, p)
                if f != opened and lead > 0:
                    total += reading.value[f][p] * win_chance(lead) * reading.wedding_odds[p]
            best = max(best, total)
        return best

    def _female_worth(self, reading: Reading, f: int, mine: float, others: int) -> float:
        """How much a total of ``mine`` against ``others`` before ``f`` is worth to the viewer."""
        return reading.value[f][reading.me] * win_chance(mine - others)

    def _rate_worm(
        self, view: AuweierView, reading: Reading, move: PlayWorm
    ) -> tuple[float, str, Move]:
        me, f, card = reading.me, move.female, move.card
        value = reading.worth[card]
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
        return reading.crow_risk * 0.5 * reading.worth[stack[prey]]

    def _rate_crow(
        self, view: AuweierView, reading: Reading, move: PlayCrow
    ) -> tuple[float, str, Move]:
        me, f, owner = reading.me, move.female, move.owner
        stack = view.females[f].stacks[owner].cards
        prey = crow_prey(stack, reading.crow_digs)
        eaten = reading.worth[stack[prey]] if prey is not None else 0
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
        change = reading.worth[move.card] - reading.worth[out]
        mine = reading.totals[f][me]
        others = reading.best_other(f)[0]
        changed = list(stack)
        changed[move.place - 1] = move.card
        before = mine - self._exposed(reading, stack)
        after = mine + change - self._exposed(reading, changed)
        gain = self._female_worth(reading, f, after, others) - self._female_worth(
            reading, f, before, others
        )
        # Lost even with the whole hand: the same test on both sides of an exchange, since
        # an exchange before ``f`` moves worm points between the stack and the hand only.
        lost = mine + reading.power[me] <= others
        if move.card is Card.FALSE_WORM:
            # A worm comes back to the hand: worth it if it is big and this female is lost.
            gain += 0.08 * reading.worth[out] if lost else -0.2
            why = f"fetches its {out.text} back from {Colour(f).label}"
        else:
            gain -= 0.35  # no card is drawn after an exchange
            if lost:  # it would fetch the worm straight back
                gain -= 0.08 * reading.worth[move.card]
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
        me, worth = reading.me, reading.worth
        rival = self._rival_power(view, reading)
        for f in sorted(mine, key=lambda c: -reading.value[c][me]):
            lead = reading.lead(f)
            if not reading.value[f][me] or lead > rival / 2:
                continue
            if lead <= 0:
                if 1 - lead > reading.power[me] or lead + reading.power[me] < 0.7 * rival:
                    continue
                move = self._smallest(worms, f, 1 - lead, worth) or self._largest(worms, f, worth)
                why = "takes the lead"
            else:
                move = self._smallest(worms, f, 1, worth)
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
            move = self._smallest(worms, f, gap, reading.worth)
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
    def _smallest(
        worms: list[PlayWorm], f: int, need: int, worth: Sequence[int]
    ) -> PlayWorm | None:
        fits = [m for m in worms if m.female == f and worth[m.card] >= need]
        return min(fits, key=lambda m: worth[m.card], default=None)

    @staticmethod
    def _largest(worms: list[PlayWorm], f: int, worth: Sequence[int]) -> PlayWorm | None:
        here = [m for m in worms if m.female == f and worth[m.card] > 0]
        return max(here, key=lambda m: worth[m.card], default=None)


def _plays_a_card(legal: Sequence[Move]) -> bool:
    """Whether some move of ``legal`` plays a card (a worm or a Crow).

    In normal play an exchange is made only for a gain when a card could be played instead:
    an exchange chosen merely because it costs less than any card would be undone by the next
    one, and a player who can only exchange while the others are passed over (stuck) would
    swap one False Worm back and forth for ever, as large worm values made happen. Playing
    cards ends a game in time, as the hands and piles run out."""
    return any(isinstance(move, (PlayWorm, PlayCrow)) for move in legal)
