"""The observation encoder of Awimbawé (page: docs/rl/awimbawe.md).

Two sides, the viewer's first. Cards are 28-wide masks in card-code order (G1-G6, D1-D6,
M1-M6, P1-P6, S7-S10). The opponent's hand is only its size, as in the view; face-down pile
cards are only counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from spieltisch.games.awimbawe import AwimbaweView, Heir, SideView, Stage
from spieltisch.games.awimbawe.notation import NUM_CARDS, Card, Land, Stance
from spieltisch.rl.encode.base import Encoder, Layout, Out, expect, one_hot, relative, slots_of

STAGES = tuple(Stage)
LANDS = tuple(Land)
PILES = 4
MAX_PILE = 8
HAND = 6
SEATS = 2
CROWN_SCALE = 48.0
"""The most net crowns one round can give a side (every land animal's crowns)."""


def _cards(out: Out, start: int, cards: tuple[Card, ...]) -> None:
    for card in cards:
        out[start + card.code] = 1.0


def _seat(out: Out, start: int, seat: int | None, viewer: int | None) -> None:
    if seat is not None:
        out[start + relative(seat, viewer, SEATS)] = 1.0


class AwimbaweEncoder(Encoder):
    """Awimbawé views as float32 vectors."""

    game_id = "awimbawe"

    def __init__(self) -> None:
        layout = Layout()
        side_blocks = (
            ("hand", NUM_CARDS, "hand cards (zero when not seen: the opponent's)"),
            ("hand_seen", 1, "1 if the hand is seen"),
            ("hand_size", 1, f"cards in hand / {HAND}"),
            ("tops", PILES * NUM_CARDS, "per pile 1-4, its face-up top card (one-hot)"),
            ("face_up", NUM_CARDS, "every face-up card lying in the piles"),
            ("face_down", PILES, "per pile, face-down cards in it / 4"),
            ("pile_size", PILES, f"per pile, cards in it / {MAX_PILE}"),
            ("blocked", NUM_CARDS, "blocked cards the viewer can name"),
            ("blocked_unseen", 1, f"blocked hand cards the viewer cannot name / {HAND}"),
            ("shown", NUM_CARDS, "hand cards a shown blind pick revealed"),
            ("void", len(LANDS), "lands the hand holds no card of (G D M P S)"),
            ("blind_void", len(LANDS), "lands of the weaker voids made under blind picks"),
            ("blind_picks", 1, f"blind picks behind those weaker voids / {HAND}"),
            ("available", NUM_CARDS, "cards the side may play now, as far as the viewer knows"),
            (
                "scoring",
                4,
                "scoring pile / 28, net crowns / 48, hyenas / 4, rounds won / rounds to win (2)",
            ),
            ("heir_gold", 1, "1 once the heir card shows gold"),
        )
        self.side: list[dict[str, int]] = [
            {
                name: layout.add(f"{who}.{name}", size, meaning)
                for name, size, meaning in side_blocks
            }
            for who in ("own", "opponent")
        ]
        self.stage = layout.add(
            "stage", len(STAGES), "one-hot: " + ", ".join(s.value for s in STAGES)
        )
        self.to_act = layout.add("to_act", SEATS, "one-hot: the side deciding now")
        self.power_of = layout.add("power_of", SEATS, "one-hot: the side whose power is in use")
        self.leader = layout.add("leader", SEATS, "one-hot: the side leading this trick")
        self.round_leader = layout.add(
            "round_leader", SEATS, "one-hot: the side that led this round's first trick"
        )
        self.next_leader = layout.add(
            "next_leader", SEATS, "one-hot: the side a cheetah named to lead the next trick"
        )
        self.trick = layout.add(
            "trick", 2 * NUM_CARDS, "the current trick: the leader's card, then the follower's"
        )
        self.last = layout.add(
            "last_trick",
            2 * NUM_CARDS + 2 * SEATS + 2,
            "the last trick: its two cards, its leader and winner (one-hot sides), "
            "then fight and flee",
        )
        self.played = layout.add("played", NUM_CARDS, "cards played in earlier tricks this round")
        self.round = layout.add("round", 1, "round number / 3")
        self.options = layout.add(
            "options",
            6,
            "the options: tie-break by chance, by slot 0, by slot 1 (one-hot); "
            "rhino_to_empty_pile; leader_choice_after_deal; blind_pick_shown",
        )
        self.winner = layout.add("winner", SEATS, "one-hot: the side that won the match")
        self.layout = layout
        self.side_at = [_SideAt(**at) for at in self.side]

    def fill(self, view: object, out: Out) -> None:
        """Write an :class:`AwimbaweView` into ``out``."""
        view = expect(view, AwimbaweView)
        viewer = view.viewer
        for slot in range(SEATS):
            side = view.sides[slot if viewer is None else (viewer + slot) % SEATS]
            self._fill_side(side, self.side_at[slot], out, view.config.rounds_to_win)
        self._fill_table(view, out)

    def _fill_side(self, side: SideView, at: _SideAt, out: Out, rounds_to_win: int) -> None:
        if side.hand is not None:
            _cards(out, at.hand, side.hand)
            out[at.hand_seen] = 1.0
        out[at.hand_size] = side.hand_size / HAND
        tops, face_up, face_down, pile_size = at.tops, at.face_up, at.face_down, at.pile_size
        for index, pile in enumerate(side.piles):
            if pile and pile[-1] is not None:
                out[tops + index * NUM_CARDS + pile[-1].code] = 1.0
            down = 0
            for card in pile:
                if card is None:
                    down += 1
                else:
                    out[face_up + card.code] = 1.0
            out[face_down + index] = down / 4
            out[pile_size + index] = len(pile) / MAX_PILE
        if side.blocked:
            _cards(out, at.blocked, side.blocked)
        out[at.blocked_unseen] = side.blocked_unseen / HAND
        if side.shown:
            _cards(out, at.shown, side.shown)
        void = at.void
        for land in side.void:
            out[void + LANDS.index(land)] = 1.0
        picks = 0
        for blind in side.blind_voids:
            for land in blind.lands:
                out[at.blind_void + LANDS.index(land)] = 1.0
            picks = max(picks, blind.picks)
        out[at.blind_picks] = picks / HAND
        _cards(out, at.available, side.available)
        scoring = at.scoring
        out[scoring] = side.scoring_pile / NUM_CARDS
        out[scoring + 1] = side.crowns / CROWN_SCALE
        out[scoring + 2] = side.hyenas / 4
        out[scoring + 3] = side.wins / rounds_to_win
        out[at.heir_gold] = float(side.heir is Heir.GOLD)

    def _fill_table(self, view: AwimbaweView, out: Out) -> None:
        viewer = view.viewer
        slot_of = slots_of(viewer, SEATS)
        out[self.stage + STAGES.index(view.stage)] = 1.0
        if view.to_act is not None:
            out[self.to_act + slot_of[view.to_act]] = 1.0
        if view.power_of is not None:
            out[self.power_of + slot_of[view.power_of]] = 1.0
        if view.leader is not None:
            out[self.leader + slot_of[view.leader]] = 1.0
        if view.round_leader is not None:
            out[self.round_leader + slot_of[view.round_leader]] = 1.0
        if view.next_leader is not None:
            out[self.next_leader + slot_of[view.next_leader]] = 1.0
        for index, card in enumerate(view.trick[:2]):
            out[self.trick + index * NUM_CARDS + card.code] = 1.0
        last = view.last_trick
        if last is not None:
            for index, card in enumerate(last.cards[:2]):
                out[self.last + index * NUM_CARDS + card.code] = 1.0
            _seat(out, self.last + 2 * NUM_CARDS, last.leader, viewer)
            _seat(out, self.last + 2 * NUM_CARDS + SEATS, last.winner, viewer)
            if last.stance is Stance.FIGHT:
                out[self.last + 2 * NUM_CARDS + 2 * SEATS] = 1.0
            elif last.stance is Stance.FLEE:
                out[self.last + 2 * NUM_CARDS + 2 * SEATS + 1] = 1.0
        _cards(out, self.played, view.played)
        out[self.round] = view.round / 3
        config = view.config
        tie = config.tie_break_seat
        one_hot(out, self.options, 0 if tie is None else 1 + relative(tie, viewer, SEATS))
        out[self.options + 3] = float(config.rhino_to_empty_pile)
        out[self.options + 4] = float(config.leader_choice_after_deal)
        out[self.options + 5] = float(config.blind_pick_shown)
        _seat(out, self.winner, view.winner, viewer)


@dataclass(frozen=True, slots=True)
class _SideAt:
    """Where each block of one side starts (read once per side, not looked up by name)."""

    hand: int
    hand_seen: int
    hand_size: int
    tops: int
    face_up: int
    face_down: int
    pile_size: int
    blocked: int
    blocked_unseen: int
    shown: int
    void: int
    blind_void: int
    blind_picks: int
    available: int
    scoring: int
    heir_gold: int
