"""The observation encoder of Auweier (page: docs/rl/auweier.md).

Up to four seats, the viewer's first; the females are ordered the same way (the female of
the viewer's colour first, a two-player game's neutral third female in slot 2). Card kinds
follow the notation order (1 2 2* 3 4 5* 6 7 F K H). A stack is summarised by its cards per
kind, its top card, its worm total and its Wedding; the viewer's own draw pile is given in
order as far as the viewer knows it, then as counts.
"""

from __future__ import annotations

import array
import functools

from spieltisch.games.auweier import AuweierView, End, Stage
from spieltisch.games.auweier.notation import DECK, DECK_SIZE, KINDS
from spieltisch.rl.encode.base import (
    Encoder,
    Layout,
    Memo,
    Out,
    counts,
    expect,
    one_hot,
    relative,
    segment,
    slots_of,
)

SEATS = 4
STAGES = tuple(Stage)
ENDS = tuple(End)
WORM_KINDS = 9
MAX_TOTAL = 41.0
EGGS = 3
MOST_OF_A_KIND = max(DECK)
STACK_WIDTH = 2 * WORM_KINDS + 2


class AuweierEncoder(Encoder):
    """Auweier views as float32 vectors."""

    game_id = "auweier"

    def __init__(self) -> None:
        layout = Layout()
        self.present = layout.add("present", SEATS, "1 for each slot that holds a player")
        self.stage = layout.add(
            "stage", len(STAGES), "one-hot: " + ", ".join(s.value for s in STAGES)
        )
        self.player = layout.add("to_move", SEATS, "one-hot: whose go it is (slot)")
        self.start = layout.add("start_player", SEATS, "one-hot: who holds the start player card")
        self.hand = layout.add(
            "hand",
            KINDS,
            f"the viewer's hand per kind / {MOST_OF_A_KIND} (while arranging: "
            "cards not placed yet)",
        )
        self.pile_known = layout.add(
            "pile_known",
            DECK_SIZE * KINDS,
            f"the viewer's next {DECK_SIZE} cards to draw, one-hot kind each, as far as known",
        )
        self.pile_unknown = layout.add(
            "pile_unknown",
            KINDS,
            f"the shuffled rest of the viewer's pile per kind / {MOST_OF_A_KIND}",
        )
        self.players: list[int] = []
        self.player_size = 0
        for slot in range(SEATS):
            start = layout.add(
                f"player{slot}",
                9 + 2 * KINDS + 3 * SEATS,
                f"slot {slot}: hand size / {DECK_SIZE}, pile size / {DECK_SIZE}, hand size "
                "known, ready, score / 37, passed, Weddings and False-Worm sightings per "
                f"female slot ({SEATS} each), eggs held per female slot / 3, cards shown in "
                f"hand per kind, cards discarded per kind (/ {MOST_OF_A_KIND}), egg count / 12",
            )
            self.players.append(start)
        self.females: list[int] = []
        for slot in range(SEATS):
            start = layout.add(
                f"female{slot}",
                3 + EGGS + SEATS * (2 * WORM_KINDS + 2),
                f"female slot {slot}: present, neutral, closed, her egg cards left (3 flags: "
                "1, 2, 3), then per player slot the stack before her: cards per kind / 3, "
                f"top card one-hot, worm total / {MAX_TOTAL:.0f}, Wedding",
            )
            self.females.append(start)
        self.end = layout.add(
            "end", len(ENDS) + 1, "one-hot: not over, " + ", ".join(e.name.lower() for e in ENDS)
        )
        self.winners = layout.add("winners", SEATS, "slots that won")
        self.last = layout.add(
            "last_mating", SEATS * 2, "the last mating: opener one-hot, eggs each slot got / 3"
        )
        self.options = layout.add(
            "options",
            9,
            "lucky_eggs, closed_nests, stuck_player=passes, opening_ties, crow_digs, "
            "exchange_cost=draws, wedding_order=onward, neutral_colour, lucky_crows=both_stages",
        )
        self.layout = layout
        self._stacks = Memo()

    def fill(self, view: object, out: Out) -> None:
        """Write an :class:`AuweierView` into ``out``."""
        view = expect(view, AuweierView)
        viewer = view.viewer
        config = view.config
        players = config.players
        slot_of = slots_of(viewer, players)
        female_slot = _female_slots(viewer, players)
        for slot in range(players):
            out[self.present + slot] = 1.0
        out[self.stage + STAGES.index(view.stage)] = 1.0
        out[self.player + slot_of[view.player]] = 1.0
        out[self.start + slot_of[view.start_player]] = 1.0
        if view.hand is not None:
            counts(out, self.hand, view.hand, MOST_OF_A_KIND)
        pile_known = self.pile_known
        for index, card in enumerate(view.pile_known[:DECK_SIZE]):
            out[pile_known + index * KINDS + card] = 1.0
        counts(out, self.pile_unknown, view.pile_unknown, MOST_OF_A_KIND)
        self._fill_players(view, slot_of, female_slot, out)
        self._fill_females(view, slot_of, female_slot, out)
        self._fill_rest(view, slot_of, out)

    def _fill_players(
        self,
        view: AuweierView,
        slot_of: tuple[int, ...],
        female_slot: tuple[int, ...],
        out: Out,
    ) -> None:
        for seat, seen in enumerate(view.players):
            at = self.players[slot_of[seat]]
            if seen.hand_size is not None:
                out[at] = seen.hand_size / DECK_SIZE
                out[at + 2] = 1.0
            if seen.pile_size is not None:
                out[at + 1] = seen.pile_size / DECK_SIZE
            out[at + 3] = float(seen.ready)
            out[at + 4] = seen.score / 37
            out[at + 5] = float(seen.passed)
            for colour in seen.weddings:
                out[at + 6 + female_slot[colour]] = 1.0
            for colour in seen.false_worm_seen:
                out[at + 6 + SEATS + female_slot[colour]] = 1.0
            eggs = at + 6 + 2 * SEATS
            for egg in seen.eggs:
                out[eggs + female_slot[egg.female]] += 1 / EGGS
            counts(out, at + 6 + 3 * SEATS, seen.shown, MOST_OF_A_KIND)
            counts(out, at + 6 + 3 * SEATS + KINDS, seen.discarded, MOST_OF_A_KIND)
            out[at + 6 + 3 * SEATS + 2 * KINDS] = len(seen.eggs) / 12

    def _fill_females(
        self,
        view: AuweierView,
        slot_of: tuple[int, ...],
        female_slot: tuple[int, ...],
        out: Out,
    ) -> None:
        memo = self._stacks
        for female in view.females:
            at = self.females[female_slot[female.colour]]
            out[at] = 1.0
            out[at + 1] = float(female.neutral)
            out[at + 2] = float(female.closed)
            for eggs in female.eggs_left:
                out[at + 2 + eggs] = 1.0
            for seat, stack in enumerate(female.stacks):
                base = at + 3 + EGGS + slot_of[seat] * STACK_WIDTH
                cards = stack.cards
                if cards:
                    part = memo.get(cards)
                    if part is None:
                        part = _stack_cards(cards)
                        memo.put(cards, part)
                    out[base : base + 2 * WORM_KINDS] = part
                out[base + 2 * WORM_KINDS] = stack.total / MAX_TOTAL
                out[base + 2 * WORM_KINDS + 1] = float(stack.wedding)

    def _fill_rest(self, view: AuweierView, slot_of: tuple[int, ...], out: Out) -> None:
        config = view.config
        one_hot(out, self.end, 0 if view.end is None else 1 + ENDS.index(view.end))
        for seat in view.winners:
            out[self.winners + slot_of[seat]] = 1.0
        last = view.last
        if last is not None:
            out[self.last + slot_of[last.opener]] = 1.0
            for award in last.awards:
                out[self.last + SEATS + slot_of[award.player]] += 1 / EGGS
        out[self.options] = float(config.lucky_eggs)
        out[self.options + 1] = float(config.closed_nests)
        out[self.options + 2] = float(config.stuck_player == "passes")
        out[self.options + 3] = float(config.opening_ties)
        out[self.options + 4] = float(config.crow_digs)
        out[self.options + 5] = float(config.exchange_cost == "draws")
        out[self.options + 6] = float(config.wedding_order == "onward")
        out[self.options + 7] = float(config.neutral_colour)
        out[self.options + 8] = float(config.lucky_crows == "both_stages")


def _stack_cards(cards: tuple[int, ...]) -> array.array[float]:
    """A stack's worm cards per kind / 3, then its top worm card one-hot."""
    part = segment(2 * WORM_KINDS)
    for card in cards:
        if card < WORM_KINDS:
            part[card] += 1 / 3
    if cards[-1] < WORM_KINDS:
        part[WORM_KINDS + cards[-1]] = 1.0
    return part


@functools.cache
def _female_slots(viewer: int | None, players: int) -> tuple[int, ...]:
    """The slot of each female colour: the players' females turned with the seats, a
    two-player game's neutral female in her own slot."""
    return tuple(relative(c, viewer, players) if c < players else c for c in range(SEATS))
