"""Auf die Eier in the native core: its chance codes and its states as integers.

A throw's code is the Python :class:`Roll`'s own dice: the count of each face in the order
whole egg, cracked egg, rotten egg, pot, frying pan, chicken (``W C R P F H``, the faces of
the die-by-die splitter ``spieltisch.rl.chance.dice``), six integers summing to the dice
thrown. Player actions need no converting: the native core uses the Python action ids.
Nothing is hidden, so a view's belief code is the canonical integers of the one state it shows.
The lab's race (:func:`win_chances`, each player's chance to win) is worked out natively from
those integers too, and so is the racer's every choice (:func:`racer_choices`, played by
:class:`NativeRacerAgent`, the catalogue's ``racer``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spieltisch.core.errors import InvalidActionError, NativeError
from spieltisch.core.game import Game, Move
from spieltisch.games.auf_die_eier import EierState, EierView, Roll, Stage
from spieltisch.games.auf_die_eier.belief import state_of
from spieltisch.games.auf_die_eier.bots.expert import eier_view
from spieltisch.games.auf_die_eier.bots.racer import RacerAgent, TurnEnds, best
from spieltisch.games.auf_die_eier.notation import FACES
from spieltisch.native import build

STAGES = tuple(Stage)
"""The stages in the order of their native numbers."""


def chance_code(state: EierState, move: Move) -> tuple[int, ...]:
    """The native code of the Python chance outcome ``move`` at ``state``."""
    del state
    if not isinstance(move, Roll):
        raise InvalidActionError(f"{move!r} is no throw of Auf die Eier")
    return tuple(move.dice)


def chance_move(state: EierState, code: Sequence[int]) -> Move:
    """The Python chance outcome of a native code at ``state`` (InvalidActionError if none):
    any six counts of zero or more; whether they fit the throw is the rules' question."""
    del state
    if len(code) != FACES or any(
        isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in code
    ):
        raise InvalidActionError(
            f"{tuple(code)!r} is no throw of Auf die Eier (a count of each of the {FACES} faces)"
        )
    return Roll(tuple(code))


def _seats(seats: Iterable[int]) -> int:
    """A set of seats as a bit set (bit ``s`` for seat ``s``)."""
    return sum(1 << seat for seat in set(seats))


def canonical(state: EierState) -> tuple[int, ...]:
    """The Python state as the integers the native state's ``canonical()`` gives."""
    sheet, config = state.sheet, state.config
    out = [
        config.players,
        int(config.shared_chicken_ladder),
        config.goal,
        config.dice,
        STAGES.index(state.stage),
        state.player,
        state.rolls,
        *state.dice,
        state.to_throw,
        *sheet.scores,
        *sheet.crossed,
        int(sheet.final_round),
        _seats(sheet.tie_players),
        _seats(sheet.winners),
    ]
    last = sheet.last
    if last is None:
        out.append(0)
    else:
        out += [
            1,
            last.player,
            *last.dice,
            last.spoilers,
            last.fried,
            last.breakfast,
            last.spoiled_fried,
            int(last.spoiled_breakfast),
            last.chickens,
            last.points,
        ]
    return tuple(out)


def belief_code(view: EierView) -> tuple[int, ...]:
    """The native belief of ``view``: the canonical integers of the one state it shows
    (:class:`NativeError` for anything but an Auf die Eier view)."""
    if not isinstance(view, EierView):
        raise NativeError(f"not an Auf die Eier view: {type(view).__name__}")
    return canonical(state_of(view))


def has_race() -> bool:
    """Whether the native core is there and works out Auf die Eier's race (an older build
    does not)."""
    return build.available() and hasattr(build.extension(), "eier_win_chances")


def win_chances(state: EierState) -> tuple[float, ...]:
    """Each player's chance to win from ``state`` (a decision, a turn's start or the end),
    worked out natively as ``spieltisch.lab.eier_race.win_chances`` works it out (ask
    :func:`has_race` first)."""
    chances = build.extension().eier_win_chances(canonical(state))
    return tuple(float(c) for c in chances)


def has_racer() -> bool:
    """Whether the native core is there and plays the racer (an older build does not)."""
    return build.available() and hasattr(build.extension(), "eier_racer_choices")


def racer_choices(state: EierState) -> list[tuple[Move, float]]:
    """The racer's every legal choice at the decision ``state`` with the mover's chance to win
    by it, ``stop`` first and the re-rolls in legal order, worked out natively as
    :func:`spieltisch.games.auf_die_eier.bots.racer.choice_values` works them out with the
    native race (ask :func:`has_racer` first)."""
    game = state.game
    values = build.extension().eier_racer_choices(canonical(state))
    return [(game.action_from_id(action), float(value)) for action, value in values]


def turn_ends(state: EierState) -> TurnEnds:
    """What each way the turn of ``state``'s mover can end is worth to it, worked out natively
    as :func:`spieltisch.games.auf_die_eier.bots.racer.turn_ends` works it out with the native
    race (ask :func:`has_racer` first)."""
    plain, scored = build.extension().eier_turn_ends(canonical(state))
    return TurnEnds((tuple(plain), tuple(scored)))


class NativeRacerAgent(RacerAgent):
    """The catalogue's ``racer``: the reference racer on the native race, its choices worked
    out natively (the same values, a few milliseconds a decision instead of seconds)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        super().__init__(game, win_chances, seed)

    def values(self, view: EierView) -> list[tuple[Move, float]]:
        values = racer_choices(state_of(eier_view(view)))
        return sorted(values, key=lambda item: -item[1])

    def act(self, view: EierView, legal: Sequence[Move]) -> Move:
        del legal  # the racer's choices are exactly the legal actions
        return best(racer_choices(state_of(eier_view(view))))[0]
