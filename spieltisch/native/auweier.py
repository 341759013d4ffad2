"""Auweier in the native core: its chance codes, its states and its views as integers.

Auweier's only chance events are shuffles of the cards a player has not placed in their deck
yet. A shuffle's code is its card kinds in draw order (the notation order of
:class:`~spieltisch.games.auweier.Card`, 0 for a worm 1 to 10 for a Wedding): the items of the
card-by-card splitter ``spieltisch.rl.chance.auweier``. Player actions need no converting: the
native core uses the Python action ids. A player's view packs into the code the native belief
sampler reads (:func:`belief_code`).
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import Move
from spieltisch.games.auweier import Arrange, AuweierState, Card, End, Shuffled, Stage
from spieltisch.games.auweier.model import EGGS_PER_FEMALE, Mating
from spieltisch.games.auweier.notation import DECK_SIZE, KINDS
from spieltisch.games.auweier.view import AuweierView

STAGES = tuple(Stage)
"""The stages in the order of their native numbers."""
ENDS = tuple(End)
"""The ends in the order of their native numbers (0 stands for a game not over)."""
CARDS = tuple(Card)


def expand(state: AuweierState, move: Move) -> tuple[Move, ...]:
    """The listed actions ``move`` stands for: a deck line placing several cards at once (a
    typing aid, with no action id) is its one-card steps in order; any other move itself."""
    del state
    if isinstance(move, Arrange) and len(move.cards) > 1:
        return tuple(Arrange((card,)) for card in move.cards)
    return (move,)


def chance_code(state: AuweierState, move: Move) -> tuple[int, ...]:
    """The native code of the Python chance outcome ``move`` at ``state``."""
    del state
    if isinstance(move, Shuffled):
        return tuple(int(card) for card in move.cards)
    raise InvalidActionError(f"{move!r} is no chance outcome of Auweier")


def _is_kind(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < KINDS


def chance_move(state: AuweierState, code: Sequence[int]) -> Move:
    """The Python chance outcome of a native code at ``state`` (InvalidActionError if none):
    up to a deck's 22 card kinds in draw order (whether they are the cards still to place,
    spread as the shuffle asks, is the rules' question)."""
    del state
    if len(code) > DECK_SIZE:
        raise InvalidActionError(
            f"a shuffle puts at most {DECK_SIZE} cards in order, not {len(code)}"
        )
    if not all(_is_kind(kind) for kind in code):
        raise InvalidActionError(f"{tuple(code)!r} is no shuffle: card kinds are 0 to {KINDS - 1}")
    return Shuffled(tuple(CARDS[kind] for kind in code))


def canonical(state: AuweierState) -> tuple[int, ...]:
    """The Python state as the integers the native state's ``canonical()`` gives: the stage
    and player; each seat's hand, pile (its length, then its cards), known cards, cards shown,
    stacks (each its length, then its cards) and the females its False Worm has lain before
    since the last mating (``roamed``, a bit mask); the worm totals by female; the wedding
    phase (0, or 1 and its opener, Weddings, passes and False Worm sightings); the eggs laid
    and won; the last mating (0, or 1 and its opener, awards and cleared stacks); the end."""
    out: list[int] = [STAGES.index(state.stage), state.player]
    for seat in state.seats:
        out += seat.hand
        out.append(len(seat.pile))
        out += seat.pile
        out.append(seat.known)
        out += seat.shown
        for stack in seat.stacks:
            out.append(len(stack))
            out += stack
        out.append(seat.roamed)
    for column in state.totals:
        out += column
    phase = state.phase
    if phase is None:
        out.append(0)
    else:
        out += [1, phase.opener, *phase.weddings, phase.passed, *phase.false_worm_seen]
    nests = state.nests
    out += nests.laid
    for eggs in nests.won:
        out.append(len(eggs))
        for egg in eggs:
            out += [egg.female, egg.eggs]
    out += _last_and_end(nests.last, nests.end)
    return tuple(int(value) for value in out)


def _last_and_end(last: Mating | None, end: End | None) -> list[int]:
    """The closing part of both codes: the last mating (0, or 1, its opener, its awards and its
    cleared stacks) and the end (0 while the game goes on, else 1 + its native number)."""
    out = [0]
    if last is not None:
        out = [1, last.opener, len(last.awards)]
        for award in last.awards:
            out += [award.player, award.female, award.eggs]
        out.append(len(last.cleared))
        for female, player in last.cleared:
            out += [female, player]
    out.append(0 if end is None else 1 + ENDS.index(end))
    return out


def _mask(colours: Sequence[int]) -> int:
    return sum(1 << colour for colour in colours)


def belief_code(view: AuweierView) -> tuple[int, ...]:
    """``view`` as the code the native belief sampler reads (``native/src/games/auweier/
    belief.rs``): what the Python sampler (``belief.state_of``) reads of it, in this order.

    - the player count; the viewer (-1 for a spectator); the stage (its native number); the
      player to act; the start player;
    - each female: the eggs she has given; then each player's stack before her: its worm
      total, its height and its cards, bottom first;
    - each player: ready (0 or 1); the hand size (-1 if unknown); the cards shown and the
      cards discarded (a count per card kind each); the Weddings and the False Worm's
      sightings of the wedding phase under way as bit masks of females, with passed (0 or 1)
      between them; the egg cards won: their number, then each card's female and eggs;
    - the viewer's own cards (none for a spectator): the hand (a count per kind); the known
      pile's length and its cards in order; the shuffled pile's counts per kind;
    - the last mating: 0, or 1, its opener, its awards (their number, then each one's player,
      female and eggs) and its cleared stacks (their number, then each one's female and
      player);
    - the end: 0 while the game goes on, else 1 + its native number.
    """
    out: list[int] = [view.config.players, -1 if view.viewer is None else view.viewer]
    out += [STAGES.index(view.stage), view.player, view.start_player]
    for female in view.females:
        out.append(EGGS_PER_FEMALE - len(female.eggs_left))
        for stack in female.stacks:
            out += [stack.total, len(stack.cards), *stack.cards]
    for info in view.players:
        out += [int(info.ready), -1 if info.hand_size is None else info.hand_size]
        out += [*info.shown, *info.discarded]
        out += [_mask(info.weddings), int(info.passed), _mask(info.false_worm_seen)]
        out.append(len(info.eggs))
        for egg in info.eggs:
            out += [egg.female, egg.eggs]
    if view.viewer is not None:
        out += view.my_hand
        out += [len(view.pile_known), *view.pile_known, *view.pile_unknown]
    out += _last_and_end(view.last, view.end)
    return tuple(int(value) for value in out)
