"""Auf die Eier in the native core: its chance codes and its states as integers.

A throw's code is the Python :class:`Roll`'s own dice: the count of each face in the order
whole egg, cracked egg, rotten egg, pot, frying pan, chicken (``W C R P F H``, the faces of
the die-by-die splitter ``spieltisch.rl.chance.dice``), six integers summing to the dice
thrown. Player actions need no converting: the native core uses the Python action ids.
Nothing is hidden, so a view's belief code is the canonical integers of the one state it shows.
The lab's race (:func:`win_chances`, each player's chance to win) is worked out natively from
those integers too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spieltisch.core.errors import InvalidActionError, NativeError
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier import EierState, EierView, Roll, Stage
from spieltisch.games.auf_die_eier.belief import state_of
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
