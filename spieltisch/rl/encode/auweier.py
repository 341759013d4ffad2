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
from spieltisch.games.auweier.model import Config
from spieltisch.games.auweier.notation import DECK, DECK_SIZE, KINDS, NO_CARDS
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
OPTIONS = 9


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
                f"top card one-hot, worm total / {MAX_TOTAL:.0f} (a deck's worms; more where "
                "worm value parameters raise it), Wedding",
            )
            self.females.append(start)
        self.end = layout.add(
            "end", len(ENDS) + 1, "one-hot: not over, " + ", ".join(e.name.lower() for e in ENDS)
        )
        self.winners = layout.add("winners", SEATS, "slots that won")
        self.last = layout.add(
            "last_mating",
            SEATS * 2,
            f"the last mating: opener one-hot, females each slot won / {SEATS}",
        )
        self.options = layout.add(
            "options",
            OPTIONS,
            "lucky_eggs, closed_nests, stuck_player=passes, opening_ties, crow_digs, "
            "exchange_cost=draws, wedding_order=onward, neutral_colour, lucky_crows=both_stages",
        )
        self.layout = layout
        self._options = Memo()

    def fill(self, view: object, out: Out) -> None:
        """Write an :class:`AuweierView` into ``out``."""
        view = expect(view, AuweierView)
        viewer = view.viewer
        config = view.config
        players = config.players
        slot_of = slots_of(viewer, players)
        female_slot = _female_slots(viewer, players)
        out[self.present : self.present + players] = _PRESENT[players]
        out[self.stage + STAGES.index(view.stage)] = 1.0
        out[self.player + slot_of[view.player]] = 1.0
        out[self.start + slot_of[view.start_player]] = 1.0
        if view.hand is not None:
            counts(out, self.hand, view.hand, MOST_OF_A_KIND)
        pile_known = self.pile_known
        for index, card in enumerate(view.pile_known[:DECK_SIZE]):
            out[pile_known + index * KINDS + card] = 1.0
        if view.pile_unknown is not NO_CARDS:  # the rules' one empty count, mostly
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
            # the buffer starts at zero: only what is set, held or shown is written
            if seen.ready:
                out[at + 3] = 1.0
            if seen.score:
                out[at + 4] = seen.score / 37
            if seen.passed:
                out[at + 5] = 1.0
            for colour in seen.weddings:
                out[at + 6 + female_slot[colour]] = 1.0
            for colour in seen.false_worm_seen:
                out[at + 6 + SEATS + female_slot[colour]] = 1.0
            if seen.eggs:
                eggs = at + 6 + 2 * SEATS
                for egg in seen.eggs:
                    out[eggs + female_slot[egg.female]] += 1 / EGGS
                out[at + 6 + 3 * SEATS + 2 * KINDS] = len(seen.eggs) / 12
            if seen.shown is not NO_CARDS:  # nothing shown: the rules' one empty count
                counts(out, at + 6 + 3 * SEATS, seen.shown, MOST_OF_A_KIND)
            if seen.discarded is not NO_CARDS:
                counts(out, at + 6 + 3 * SEATS + KINDS, seen.discarded, MOST_OF_A_KIND)

    def _fill_females(
        self,
        view: AuweierView,
        slot_of: tuple[int, ...],
        female_slot: tuple[int, ...],
        out: Out,
    ) -> None:
        worth = view.config.worm_values
        scale = max(MAX_TOTAL, float(sum(n * w for n, w in zip(DECK, worth, strict=True))))
        for female in view.females:
            at = self.females[female_slot[female.colour]]
            out[at] = 1.0
            if female.neutral:
                out[at + 1] = 1.0
            if female.closed:
                out[at + 2] = 1.0
            for eggs in female.eggs_left:
                out[at + 2 + eggs] = 1.0
            at += 3 + EGGS
            for seat, stack in enumerate(female.stacks):
                cards = stack.cards
                if not cards and not stack.wedding:  # an empty stack: all zeros
                    continue
                base = at + slot_of[seat] * STACK_WIDTH
                for card in cards:  # a few cards: written faster than looked up
                    if card < WORM_KINDS:
                        out[base + card] += 1 / 3
                if cards and cards[-1] < WORM_KINDS:
                    out[base + WORM_KINDS + cards[-1]] = 1.0
                out[base + 2 * WORM_KINDS] = stack.total / scale
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
                # One award per female won: up to every female (four at four players).
                out[self.last + SEATS + slot_of[award.player]] += 1 / SEATS
        options = self._options.get(config)  # one config per game: its block is kept
        if options is None:
            options = _options_part(config)
            self._options.put(config, options)
        out[self.options : self.options + OPTIONS] = options


def _options_part(config: Config) -> array.array[float]:
    """The options block of ``config``."""
    part = segment(OPTIONS)
    part[0] = float(config.lucky_eggs)
    part[1] = float(config.closed_nests)
    part[2] = float(config.stuck_player == "passes")
    part[3] = float(config.opening_ties)
    part[4] = float(config.crow_digs)
    part[5] = float(config.exchange_cost == "draws")
    part[6] = float(config.wedding_order == "onward")
    part[7] = float(config.neutral_colour)
    part[8] = float(config.lucky_crows == "both_stages")
    return part


_PRESENT = tuple(array.array("f", [1.0] * players) for players in range(SEATS + 1))
"""The ``present`` flags of each player count."""


@functools.cache
def _female_slots(viewer: int | None, players: int) -> tuple[int, ...]:
    """The slot of each female colour: the players' females turned with the seats, a
    two-player game's neutral female in her own slot."""
    return tuple(relative(c, viewer, players) if c < players else c for c in range(SEATS))
