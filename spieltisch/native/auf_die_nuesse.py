"""Auf die Nüsse! in the native core: its chance codes and its states as integers.

A throw's code is three items of the die-by-die splitter ``spieltisch.rl.chance.dice``: each
die's pips less one, green die first, then the two white dice. A draw's code is one item: the
card's index in notation order (walnut, hazelnut, beechnut, acorn, then the six jokers), the
order :meth:`NuesseState.chance_outcomes` lists them in. Player actions need no converting:
the native core uses the Python action ids. A view's belief code (what the native search reads
a view from) is the canonical state it shows: nothing in the game is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse import Dice, Draw, NuesseState, Stage
from spieltisch.games.auf_die_nuesse.belief import state_of
from spieltisch.games.auf_die_nuesse.notation import CARD_INDEX, CARDS, NUTS
from spieltisch.games.auf_die_nuesse.view import NuesseView

STAGES = tuple(Stage)
"""The stages in the order of their native numbers."""
SIDES = 6
CONTEXTS = ("setup", "checks", "jokers")
"""The step contexts (the rules' ``Context`` values) in the order of their native numbers."""


def chance_code(state: NuesseState, move: Move) -> tuple[int, ...]:
    """The native code of the Python chance outcome ``move`` at ``state``."""
    del state
    if isinstance(move, Dice):
        return (move.green - 1, move.white1 - 1, move.white2 - 1)
    if isinstance(move, Draw):
        return (CARD_INDEX[move.card],)
    raise InvalidActionError(f"{move!r} is no chance outcome of Auf die Nüsse!")


def _small(value: object, below: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < below


def chance_move(state: NuesseState, code: Sequence[int]) -> Move:
    """The Python chance outcome of a native code at ``state`` (InvalidActionError if none):
    three dice items 0-5, or one card index 0-9; whether it can happen here is the rules'
    question."""
    del state
    if len(code) == 3 and all(_small(item, SIDES) for item in code):
        return Dice(code[0] + 1, code[1] + 1, code[2] + 1)
    if len(code) == 1 and _small(code[0], len(CARDS)):
        return Draw(CARDS[code[0]])
    raise InvalidActionError(
        f"{tuple(code)!r} is no chance outcome of Auf die Nüsse! "
        f"(three dice 0-5, green first, or a card 0-{len(CARDS) - 1})"
    )


def canonical(state: NuesseState) -> tuple[int, ...]:
    """The Python state as the integers the native state's ``canonical()`` gives."""
    board, step, dice = state.board, state.step, state.dice
    market = board.market
    out = [STAGES.index(state.stage), state.player, state.track]
    out += (dice.green, dice.white1, dice.white2) if dice is not None else (0, 0, 0)
    if step is None:
        out += (0, 0, 0, -1, -1, -1, 0)
    else:
        out += (
            1,
            CONTEXTS.index(step.context.value),
            step.actor,
            -1 if step.space is None else int(step.space),
            -1 if step.pending is None else CARD_INDEX[step.pending],
            -1 if step.refill is None else int(step.refill),
            int(step.theft),
        )
    for row in board.areas:
        out += row
    out += board.supply
    out += (-1 if card is None else CARD_INDEX[card] for card in market.face_up)
    out += market.unseen
    out += (
        market.pile,
        market.set_aside,
        ("not yet", "triggered", "final").index(market.ending.value),
    )
    for stores in board.stores:
        for store in stores:
            kind = -1 if store.kind is None else NUTS.index(store.kind)
            out += (kind, store.nuts, store.jokers, int(store.full))
    for held in board.jokers:
        out += (held.count(joker) for joker in CARDS[len(NUTS) :])
    out.append(-1 if board.david is None else board.david)
    return tuple(out)


def belief_code(view: NuesseView) -> tuple[int, ...]:
    """The native belief code of ``view``: the canonical integers of the one state it shows
    (:func:`~spieltisch.games.auf_die_nuesse.belief.state_of`), which the native game's
    ``belief_from_code`` reads back."""
    return canonical(state_of(view))
