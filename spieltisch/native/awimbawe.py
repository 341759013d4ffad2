"""Awimbawé in the native core: its chance codes and its states as integers.

A deal's code is its 28 card codes in the order :meth:`Deal.from_order` hands them out (seat
0's four face-down, four face-up and six hand cards, the hand in card order, then seat 1's):
the items of the card-by-card splitter ``spieltisch.rl.chance.awimbawe``. A tie-break's code is
the seat that leads, ``(seat,)``; a blind pick's the picked card's code, ``(code,)``. Player
actions need no converting: the native core uses the Python action ids.

A view packs into a *belief code* (:func:`belief_code`), which the native belief sampler reads
(``native/src/games/awimbawe/belief.rs``): every field of the view the sampler reads, in one
flat tuple of integers. Seats and optional seats are ``-1`` for nobody; sets of cards are bits
(bit ``code``); sets of lands bits of ``LAND_BIT``:

1. the viewer; the options as the view shows them: tie-break seat, ``rhino_to_empty_pile``,
   ``leader_choice_after_deal``, ``blind_pick_shown`` (0 or 1), ``rounds_to_win``, ``lands``;
2. the round, the stage (its index in ``Stage``), who acts, whose power is in use, the
   trick's leader, the round's leader, the next leader, the played cards (bits);
3. the trick: its length, then its card codes; the last trick: 0, or 1 then its leader, its
   two cards, its stance (0 none, 1 fight, 2 flee) and its winner; the results: their count,
   then for each its number, winner, both crowns, both hyenas and 1 for a fourth hyena;
4. each side, seat 0 first: the hand (bits, or -1 when not seen), its size; each of the four
   piles as its length, then its card codes bottom first (-1 face down); the named blocked
   cards (bits), the unnamed blocks, the shown cards (bits), the void (lands), the number of
   blind voids, then for each its lands, picks, candidates and resolved picks; the scoring
   pile's size, its crowns, its hyenas, and the round wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import Move
from spieltisch.games.awimbawe import (
    DECK,
    AwimbaweState,
    Deal,
    Pick,
    Stage,
    Stance,
    TieBreak,
    deck_of,
)
from spieltisch.games.awimbawe.memory import lands_bits
from spieltisch.games.awimbawe.notation import Card
from spieltisch.games.awimbawe.view import AwimbaweView, SideView

STAGES = tuple(Stage)
"""The stages in the order of their native numbers."""
STANCES = (None, Stance.FIGHT, Stance.FLEE)
"""How a following eagle was used, in the order of its native number."""
CARDS = len(DECK)
_DEAL_SIZES = frozenset(len(deck_of(lands)) for lands in range(1, 5))
"""The lengths of a deal's code: every card in play, for each number of lands."""


def _codes(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(card.code for card in cards)


def _bits(cards: Sequence[Card] | frozenset[Card]) -> int:
    """A set of cards as bits (bit ``code`` for each card)."""
    return sum(1 << card.code for card in cards)


def chance_code(state: AwimbaweState, move: Move) -> tuple[int, ...]:
    """The native code of the Python chance outcome ``move`` at ``state``."""
    del state
    if isinstance(move, Deal):
        return tuple(
            code
            for seat in range(2)
            for cards in (move.down[seat], move.up[seat], move.hands[seat])
            for code in _codes(cards)
        )
    if isinstance(move, TieBreak):
        return (move.player,)
    if isinstance(move, Pick):
        return (move.card.code,)
    raise InvalidActionError(f"{move!r} is no chance outcome of Awimbawé")


def _is_code(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < CARDS


def chance_move(state: AwimbaweState, code: Sequence[int]) -> Move:
    """The Python chance outcome of a native code at ``state`` (InvalidActionError if none):
    at the deal 28 card codes (fewer with fewer lands; whether they use each card once is the
    rules' question), at a tie-break a seat, at a blind pick a card code (whether it may be
    picked: the rules')."""
    stage = state.stage
    if stage is Stage.DEAL and len(code) in _DEAL_SIZES and all(map(_is_code, code)):
        return Deal.from_order([DECK[c] for c in code])
    if stage is Stage.TIE_BREAK and len(code) == 1 and code[0] in (0, 1):
        return TieBreak(int(code[0]))
    if stage is Stage.BLIND_PICK and len(code) == 1 and _is_code(code[0]):
        return Pick(DECK[code[0]])
    raise InvalidActionError(f"{tuple(code)!r} is no chance outcome of Awimbawé here")


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def canonical(state: AwimbaweState) -> tuple[int, ...]:
    """The Python state as the integers the native state's ``canonical()`` gives."""
    match = state.match
    out = [match.round, *match.wins, len(match.results)]
    for result in match.results:
        out += [result.number, result.winner, *result.crowns, *result.hyenas]
        out.append(int(result.fourth_hyena))
    out += [_seat(match.round_leader), STAGES.index(state.stage), state.actor]
    out += [len(state.trick), *_codes(state.trick), _seat(state.next_leader)]
    last = state.last_trick
    if last is None:
        out.append(0)
    else:
        out += [1, last.leader, *_codes(last.cards), STANCES.index(last.stance), last.winner]
    for side in state.sides:
        out.append(_bits(side.hand))
        for pile in side.piles:
            out += [len(pile), *_codes(pile)]
        out += [_bits(side.down), _bits(side.blocked)]
    for tally in state.tallies:
        out += [tally.size, tally.crowns, tally.hyenas]
    memory = state.memory
    out += list(memory.void)
    for records in memory.blind:
        out.append(len(records))
        for record in records:
            out += [lands_bits(record.lands), record.picks, record.candidates, record.resolved]
    out += [_bits(memory.shown[0]), _bits(memory.shown[1])]
    return tuple(out)


def belief_code(view: AwimbaweView) -> tuple[int, ...]:
    """The belief code of ``view``: what the native belief sampler reads (see the module)."""
    config = view.config
    out = [_seat(view.viewer), _seat(config.tie_break_seat), int(config.rhino_to_empty_pile)]
    out += [int(config.leader_choice_after_deal), int(config.blind_pick_shown)]
    out += [config.rounds_to_win, config.lands, view.round, STAGES.index(view.stage)]
    out += [_seat(view.to_act)]
    out += [_seat(view.power_of), view.leader, _seat(view.round_leader)]
    out += [_seat(view.next_leader), _bits(view.played), len(view.trick), *_codes(view.trick)]
    last = view.last_trick
    if last is None:
        out.append(0)
    else:
        out += [1, last.leader, *_codes(last.cards), STANCES.index(last.stance), last.winner]
    out.append(len(view.results))
    for result in view.results:
        out += [result.number, result.winner, *result.crowns, *result.hyenas]
        out.append(int(result.fourth_hyena))
    for side in view.sides:
        out += _side_code(side)
    return tuple(out)


def _side_code(side: SideView) -> list[int]:
    out = [-1 if side.hand is None else _bits(side.hand), side.hand_size]
    for pile in side.piles:
        out += [len(pile), *(-1 if card is None else card.code for card in pile)]
    out += [_bits(side.blocked), side.blocked_unseen, _bits(side.shown), lands_bits(side.void)]
    out.append(len(side.blind_voids))
    for record in side.blind_voids:
        out += [lands_bits(record.lands), record.picks, record.candidates, record.resolved]
    out += [side.scoring_pile, side.crowns, side.hyenas, side.wins]
    return out
