"""The observation encoder of Auf die Nüsse! (page: docs/rl/auf-die-nuesse.md).

Everything in the game is public but the order of the unseen cards, so the observation is the
whole table, seen from the viewer's seat (slot 0; up to four seats). Card kinds follow the
notation order (walnut, hazelnut, beechnut, acorn, then the six jokers), spaces the board
order (2-4, 5-6, 7, 8-9, 10-12, 3-left, 3-raccoon, 3-right, 4-area), face-up places the slot
order (2-4, 5-6, 8-9, 10-12). The engine's events of the last move are not encoded: what they
did is on the table.
"""

from __future__ import annotations

from spieltisch.games.auf_die_nuesse import Ending, NuesseView, Stage
from spieltisch.games.auf_die_nuesse.model import (
    MAX_SCORE,
    SET_ASIDE,
    SQUIRRELS,
    STORE_SIZES,
    max_points,
)
from spieltisch.games.auf_die_nuesse.notation import (
    CARDS,
    JOKERS,
    MAX_PLAYERS,
    NUTS,
    STORES,
    Slot,
    Space,
)
from spieltisch.rl.encode.base import (
    Encoder,
    Layout,
    Memo,
    Out,
    counts,
    expect,
    segment,
    slots_of,
)

SEATS = MAX_PLAYERS
STAGES = tuple(Stage)
ENDINGS = tuple(Ending)
SPACES = len(Space)
SLOTS = len(Slot)
TRACK = 11
"""Start-track spaces 2 to 12."""
KINDS = len(CARDS)
STORE_WIDTH = len(NUTS) + 3
PILE_SCALE = 60.0


class NuesseEncoder(Encoder):
    """Auf die Nüsse! views as float32 vectors."""

    game_id = "auf-die-nuesse"

    def __init__(self) -> None:
        layout = Layout()
        self.present = layout.add("present", SEATS, "1 for each slot that holds a player")
        self.stage = layout.add(
            "stage", len(STAGES), "one-hot: " + ", ".join(s.value for s in STAGES)
        )
        self.player = layout.add("turn", SEATS, "one-hot: whose turn it is")
        self.actor = layout.add("actor", SEATS, "one-hot: who decides now (none: chance or end)")
        self.track = layout.add("track", TRACK, "start-track spaces 2-12 holding a squirrel")
        self.dice = layout.add(
            "dice", 18, "the last roll: green, first white, second white die, one-hot 1-6 each"
        )
        self.placements = layout.add(
            "placements", TRACK, "free start-track spaces 2-12 the roll allows now"
        )
        self.areas = layout.add(
            "areas", SEATS * SPACES, f"squirrels per slot per board space / {SQUIRRELS}"
        )
        self.supply = layout.add("supply", SEATS, f"squirrels in each slot's supply / {SQUIRRELS}")
        self.face_up = layout.add(
            "face_up", SLOTS * KINDS, "per face-up place, the nut lying there (one-hot kind)"
        )
        self.pile = layout.add(
            "pile", 2, f"cards in the draw pile / {PILE_SCALE:.0f}, set-aside cards / {SET_ASIDE}"
        )
        self.unseen = layout.add("unseen", KINDS, "cards nobody has seen yet, per kind / 12")
        self.ending = layout.add(
            "ending", len(ENDINGS), "one-hot: " + ", ".join(e.value for e in ENDINGS)
        )
        self.stores = layout.add(
            "stores",
            SEATS * STORES * STORE_WIDTH,
            "per slot, per store S1-S8: its kind (one-hot of 4), nuts / size, jokers / size, full",
        )
        self.jokers = layout.add(
            "jokers", SEATS * len(JOKERS), "per slot, jokers kept in hand per joker kind / 2"
        )
        self.david = layout.add("david", SEATS, "one-hot: who has David the raccoon")
        self.receiver = layout.add("receiver", SEATS, "one-hot: whom the step under way is about")
        self.space = layout.add("space", SPACES, "one-hot: the space paying out")
        self.offer = layout.add("offer", SLOTS, "face-up places the paying space offers")
        self.pending = layout.add("pending", KINDS, "one-hot: the nut in hand to be stored")
        self.refill = layout.add("refill", SLOTS, "one-hot: the empty face-up place to refill")
        self.flags = layout.add(
            "flags", 3, "raccoon space paying; the nut in hand may be kept; a theft is owed"
        )
        self.scores = layout.add(
            "scores",
            SEATS,
            f"each slot's score / {MAX_SCORE}, or the most a player can score where store "
            "value parameters raise it",
        )
        self.winners = layout.add("winners", SEATS, "slots that won")
        self.options = layout.add(
            "options",
            4,
            "late_jokers, collect_order=next_first, double_collect_upper, optional_setup",
        )
        self.layout = layout
        self._stores = Memo()
        self._areas: dict[int | None, Memo] = {}
        """The areas block by viewer (its slots turn with the viewer)."""

    def fill(self, view: object, out: Out) -> None:
        """Write a :class:`NuesseView` into ``out``."""
        view = expect(view, NuesseView)
        viewer = view.viewer
        config = view.config
        players = config.players
        slot_of = slots_of(viewer, players)

        for slot in range(players):
            out[self.present + slot] = 1.0
        out[self.stage + STAGES.index(view.stage)] = 1.0
        if view.player is not None:
            out[self.player + slot_of[view.player]] = 1.0
        if view.actor is not None:
            out[self.actor + slot_of[view.actor]] = 1.0
        track = self.track - 2
        for space in view.track:
            out[track + space] = 1.0
        dice = view.dice
        if dice is not None:
            out[self.dice + dice.green - 1] = 1.0
            out[self.dice + 5 + dice.white1] = 1.0
            out[self.dice + 11 + dice.white2] = 1.0
        placements = self.placements - 2
        for space in view.placements:
            out[placements + space] = 1.0
        self._fill_areas(view.areas, viewer, slot_of, out)
        for who, supply in enumerate(view.supply):
            out[self.supply + slot_of[who]] = supply / SQUIRRELS
        face_up = self.face_up
        for index, card in enumerate(view.face_up):
            if card is not None:
                out[face_up + index * KINDS + CARDS.index(card)] = 1.0
        out[self.pile] = view.pile / PILE_SCALE
        out[self.pile + 1] = view.set_aside / SET_ASIDE
        counts(out, self.unseen, view.unseen, 12)
        out[self.ending + ENDINGS.index(view.ending)] = 1.0
        self._fill_stores(view, slot_of, out)
        self._fill_step(view, slot_of, out)

    def _fill_areas(
        self,
        areas: tuple[tuple[int, ...], ...],
        viewer: int | None,
        slot_of: tuple[int, ...],
        out: Out,
    ) -> None:
        memo = self._areas.get(viewer)
        if memo is None:
            memo = self._areas[viewer] = Memo()
        part = memo.get(areas)
        if part is None:
            part = segment(SEATS * SPACES)
            bases = [slot * SPACES for slot in slot_of]
            for space, per_seat in enumerate(areas):
                for base, squirrels in zip(bases, per_seat, strict=False):
                    if squirrels:  # the segment starts at zero
                        part[base + space] = squirrels / SQUIRRELS
            memo.put(areas, part)
        out[self.areas : self.areas + SEATS * SPACES] = part

    def _fill_stores(self, view: NuesseView, slot_of: tuple[int, ...], out: Out) -> None:
        width = STORES * STORE_WIDTH
        memo = self._stores
        for who, stores in enumerate(view.stores):
            part = memo.get(stores)
            if part is None:
                part = segment(width)
                for index, store in enumerate(stores):
                    at = index * STORE_WIDTH
                    if store.kind is not None:
                        part[at + NUTS.index(store.kind)] = 1.0
                    size = STORE_SIZES[index]
                    part[at + 4] = store.nuts / size
                    part[at + 5] = store.jokers / size
                    part[at + 6] = float(store.full)
                memo.put(stores, part)
            base = self.stores + slot_of[who] * width
            out[base : base + width] = part
        for who, kept in enumerate(view.jokers):
            base = self.jokers + slot_of[who] * len(JOKERS)
            for card in kept:
                out[base + JOKERS.index(card)] += 0.5

    def _fill_step(self, view: NuesseView, slot_of: tuple[int, ...], out: Out) -> None:
        config = view.config
        if view.david is not None:
            out[self.david + slot_of[view.david]] = 1.0
        if view.receiver is not None:
            out[self.receiver + slot_of[view.receiver]] = 1.0
        if view.space is not None:
            out[self.space + view.space] = 1.0
        for slot in view.offer:
            out[self.offer + slot] = 1.0
        if view.pending is not None:
            out[self.pending + CARDS.index(view.pending)] = 1.0
        if view.refill is not None:
            out[self.refill + view.refill] = 1.0
        out[self.flags] = float(view.raccoon)
        out[self.flags + 1] = float(view.can_keep)
        out[self.flags + 2] = float(view.theft)
        highest = max(MAX_SCORE, max_points(config))  # the rulebook's games: as ever
        for who, score in enumerate(view.scores):
            out[self.scores + slot_of[who]] = score / highest
        for who in view.winners:
            out[self.winners + slot_of[who]] = 1.0
        out[self.options] = float(config.late_jokers)
        out[self.options + 1] = float(config.collect_order == "next_first")
        out[self.options + 2] = float(config.double_collect_upper)
        out[self.options + 3] = float(config.optional_setup)
