"""The observation encoder of Auf die Eier (page: docs/rl/auf-die-eier.md).

Everything in Auf die Eier is public, so the observation is the whole table: scores, ladders,
the turn's dice and stage, seen from the viewer's seat (slot 0). Up to six seats.
"""

from __future__ import annotations

from spieltisch.games.auf_die_eier import EierView, Stage
from spieltisch.games.auf_die_eier.model import (
    LADDER,
    MAX_ROLLS,
    MAX_SCORE,
    MAX_TURN_POINTS,
    max_score,
    max_turn_points,
)
from spieltisch.games.auf_die_eier.notation import FACES, NUM_DICE
from spieltisch.rl.encode.base import (
    Encoder,
    Layout,
    Out,
    counts,
    expect,
    one_hot,
    relative,
    seat_order,
    seats_mask,
)

SEATS = 6
STAGES = tuple(Stage)


class EierEncoder(Encoder):
    """Auf die Eier views as float32 vectors."""

    game_id = "auf-die-eier"

    def __init__(self) -> None:
        layout = Layout()
        self.present = layout.add("present", SEATS, "1 for each slot that holds a player")
        self.scores = layout.add(
            "scores",
            SEATS,
            f"each slot's score / the game's highest score ({MAX_SCORE} with the rulebook's "
            "goal and dice)",
        )
        self.crossed = layout.add(
            "crossed",
            SEATS,
            f"entries crossed off each slot's chicken ladder / {len(LADDER)} "
            "(slot 0 only when the ladder is shared)",
        )
        self.need = layout.add(
            "chicken_need", SEATS, "Chickens each slot must throw to score them now / 5"
        )
        self.used_up = layout.add("ladder_used_up", SEATS, "1 if the slot's ladder is used up")
        self.player = layout.add("to_move", SEATS, "one-hot: the slot whose turn it is")
        self.stage = layout.add(
            "stage", len(STAGES), "one-hot: " + ", ".join(s.value for s in STAGES)
        )
        self.rolls = layout.add("rolls", 2, f"throws made and throws left this turn / {MAX_ROLLS}")
        self.dice = layout.add(
            "dice",
            FACES,
            f"dice on the table per face (W C R P F H) / the dice in play ({NUM_DICE}), Rotten "
            "Eggs included",
        )
        self.throw = layout.add("to_throw", 1, "dice about to be thrown / the dice in play")
        self.rotten = layout.add(
            "rotten_thrower", SEATS, "one-hot: the slot that re-throws this turn's Rotten Eggs"
        )
        self.flags = layout.add(
            "flags", 2, "final round under way; the chicken ladder is shared (option)"
        )
        self.tie = layout.add("tie_players", SEATS, "slots playing the tie-break turns")
        self.winners = layout.add("winners", SEATS, "slots that won (at the end)")
        self.last = layout.add(
            "last_turn",
            SEATS + 1,
            "one-hot slot of the last scored turn, then its points / a turn's most "
            f"({MAX_TURN_POINTS} with nine dice)",
        )
        self.layout = layout

    def fill(self, view: object, out: Out) -> None:
        """Write an :class:`EierView` into ``out``."""
        view = expect(view, EierView)
        viewer = view.viewer
        players, dice = view.config.players, view.config.dice
        highest = max_score(view.config.goal, dice)
        for slot, seat in enumerate(seat_order(viewer, players)):
            out[self.present + slot] = 1.0
            out[self.scores + slot] = view.scores[seat] / highest
            need = view.chicken_need[seat]
            if need is None:
                out[self.used_up + slot] = 1.0
            else:
                out[self.need + slot] = need / 5
        shared = view.config.shared_chicken_ladder
        if shared:
            out[self.crossed] = view.crossed[0] / len(LADDER)
        else:
            for slot, seat in enumerate(seat_order(viewer, players)):
                out[self.crossed + slot] = view.crossed[seat] / len(LADDER)
        one_hot(out, self.player, relative(view.player, viewer, players))
        one_hot(out, self.stage, STAGES.index(view.stage))
        out[self.rolls] = view.rolls / MAX_ROLLS
        out[self.rolls + 1] = view.rolls_left / MAX_ROLLS
        counts(out, self.dice, view.dice, dice)
        out[self.throw] = view.to_throw / dice
        one_hot(out, self.rotten, relative(view.rotten_thrower, viewer, players))
        out[self.flags] = float(view.final_round)
        out[self.flags + 1] = float(shared)
        seats_mask(out, self.tie, view.tie_players, viewer, players)
        seats_mask(out, self.winners, view.winners, viewer, players)
        if view.last is not None:
            one_hot(out, self.last, relative(view.last.player, viewer, players))
            out[self.last + SEATS] = view.last.points / max_turn_points(dice)
