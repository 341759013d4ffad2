"""What a single move may do to the pieces a player holds or draws: every game's hands, piles,
dice and nut market, checked on every transition the conformance suite walks.

Each game has one step check, ``check(before, move, after)``, on the true states. They state
in code what the rules page says in words, so a transition that deals, draws or refills more
than the rules allow fails at once, whatever option values the game was made with (issue 27:
a refill that drew a whole pile under ``exchange_cost=draws`` went unseen because nothing
looked at hand sizes). A game without a step check fails the suite: a new game writes one.
"""

from __future__ import annotations

from collections.abc import Callable

from spieltisch.core.game import Move, State
from spieltisch.games.auf_die_eier.model import Stage as EierStage
from spieltisch.games.auf_die_eier.notation import Face, Roll
from spieltisch.games.auf_die_eier.rules import EierState
from spieltisch.games.auf_die_nuesse.model import STORE_SIZES
from spieltisch.games.auf_die_nuesse.model import Stage as NuesseStage
from spieltisch.games.auf_die_nuesse.rules import Market, NuesseState
from spieltisch.games.auweier.model import SETUP_STAGES, End
from spieltisch.games.auweier.model import Stage as AuweierStage
from spieltisch.games.auweier.notation import PlayCrow, PlayWedding, PlayWorm
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.games.awimbawe.model import Stage as AwimbaweStage
from spieltisch.games.awimbawe.notation import deck_of, hand_size_of
from spieltisch.games.awimbawe.rules import AwimbaweState, Side

StepCheck = Callable[[State, Move, State], None]

SQUIRRELS = 15
"""Squirrels each Auf die Nüsse! player owns (rule 7)."""
FACE_UP_PLACES = 4
AWIMBAWE_PILES = 4
AWIMBAWE_PILE_DEPTH = 2
_PHASE = (AuweierStage.WEDDINGS, AuweierStage.WORMS)
_BETWEEN_ROUNDS = (AwimbaweStage.DEAL, AwimbaweStage.CHOOSE_LEADER, AwimbaweStage.OVER)


def check_step(before: State, move: Move, after: State) -> None:
    """The game's own step check on one transition (``before`` with ``move`` is ``after``)."""
    STEP_CHECKS[before.game.info.id](before, move, after)


# --- Auweier: hands, draw piles, and the refill after a wedding phase ----------------------


def check_auweier(before: State, move: Move, after: State) -> None:
    """No draw takes more than one card outside a refill; a refill tops a hand up to the hand
    size (six by the rulebook) and never past it; piles only shrink, from the top; setup deals
    a hand at most."""
    assert isinstance(before, AuweierState) and isinstance(after, AuweierState)
    full = before.nests.config.hand_size
    if before.stage in SETUP_STAGES:
        if after.stage not in SETUP_STAGES:  # the first six cards are taken
            for seat in after.seats:
                assert sum(seat.hand) <= full, "setup dealt more than a hand"
        return
    refill = before.stage in _PHASE and after.stage not in _PHASE
    for player, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        drawn = len(old.pile) - len(new.pile)
        assert drawn >= 0, f"seat {player}'s draw pile grew"
        assert old.pile[drawn:] == new.pile, f"seat {player} drew other than from the top"
        held = sum(old.hand) - (1 if player == before.player and _spends_a_card(move) else 0)
        if refill:
            if after.nests.end is End.LAST_EGG:
                assert drawn == 0, "the last egg ends the game: nobody refills"
                continue
            room = max(full - held, 0)
            assert drawn == min(room, len(old.pile)), (
                f"seat {player} held {held} and drew {drawn} at the refill (to {full})"
            )
            assert sum(new.hand) == held + drawn
            assert drawn == 0 or sum(new.hand) <= full, "a refill grew a hand past its size"
        else:
            assert drawn <= 1, f"seat {player} drew {drawn} cards outside a refill"
            assert drawn == 0 or (player == before.player and before.stage is AuweierStage.PLAY)
            assert sum(new.hand) <= sum(old.hand) + 1, f"seat {player}'s hand grew by more than one"


def _spends_a_card(move: Move) -> bool:
    """Whether ``move`` takes a card out of its player's hand for good (a pass does not; an
    exchange swaps one card for another)."""
    return isinstance(move, PlayWorm | PlayWedding | PlayCrow)


# --- Awimbawé: a round's cards, dealt once, played one at a time ---------------------------


def check_awimbawe(before: State, move: Move, after: State) -> None:
    """All 28 cards (with fewer lands, all in play) are somewhere once dealt; a deal gives six
    in hand over four piles of two (with fewer lands, one pile per land and the other places
    empty); within a round a side loses at most the one card it plays, and a hand never
    grows."""
    assert isinstance(before, AwimbaweState) and isinstance(after, AwimbaweState)
    if after.stage in _BETWEEN_ROUNDS:
        return  # a round is over: its cards are gathered, the next deal is still to come
    lands = after.match.config.lands
    assert _awimbawe_cards(after) == len(deck_of(lands)), "a card went missing or was made up"
    if before.stage is AwimbaweStage.DEAL:
        depths = [AWIMBAWE_PILE_DEPTH] * lands + [0] * (AWIMBAWE_PILES - lands)
        for side in after.sides:
            assert len(side.hand) == hand_size_of(lands)
            assert [len(pile) for pile in side.piles] == depths
        return
    for player, (old, new) in enumerate(zip(before.sides, after.sides, strict=True)):
        assert len(new.hand) <= len(old.hand), f"seat {player}'s hand grew within a round"
        lost = _awimbawe_held(old) - _awimbawe_held(new)
        assert 0 <= lost <= 1, f"seat {player} lost {lost} cards in one move"


def _awimbawe_held(side: Side) -> int:
    return len(side.hand) + sum(len(pile) for pile in side.piles)


def _awimbawe_cards(state: AwimbaweState) -> int:
    held = sum(_awimbawe_held(side) for side in state.sides)
    return held + len(state.trick) + sum(tally.size for tally in state.tallies)


# --- Auf die Nüsse!: the draw pile, the four face-up nuts, squirrels and stores --------------


def check_auf_die_nuesse(before: State, move: Move, after: State) -> None:
    """Nuts leave the pile one at a time, by chance, into an empty face-up place; at most four
    lie face up; the unseen counts match the pile; squirrels are never made or lost; no store
    holds more than it takes."""
    assert isinstance(before, NuesseState) and isinstance(after, NuesseState)
    old, new = before.board.market, after.board.market
    assert sum(new.unseen) == new.pile + new.set_aside, "unseen nuts do not match the pile"
    assert len(new.face_up) == FACE_UP_PLACES
    drawn = (old.pile + old.set_aside) - (new.pile + new.set_aside)
    assert drawn in (0, 1), f"{drawn} nuts left the draw pile in one step"
    if drawn:
        assert before.is_chance(), "a nut left the draw pile without a chance step"
        assert before.stage in (NuesseStage.REFILL, NuesseStage.FACE_UP, NuesseStage.DEAL)
        fewer = [a - b for a, b in zip(old.unseen, new.unseen, strict=True)]
        assert max(fewer) == 1 and sum(fewer) == 1, "the unseen counts lost other than one nut"
        if before.stage is not NuesseStage.DEAL:
            step = before.step
            assert step is not None and step.refill is not None
            assert old.face_up[step.refill] is None, "a nut was drawn onto a full place"
            # the new nut lies face up, unless a second collection took it at once
            filled = _face_up(new) - _face_up(old)
            assert filled in (0, 1), f"{filled} places filled by one draw"
    for player in range(after.num_players):
        on_board = sum(space[player] for space in after.board.areas)
        # the supply still counts the squirrels on the start track
        assert after.board.supply[player] + on_board == SQUIRRELS, (
            f"player {player} has other than {SQUIRRELS} squirrels"
        )
        for store, size in zip(after.board.stores[player], STORE_SIZES, strict=True):
            assert store.nuts + store.jokers <= size, "a store holds more than it takes"


def _face_up(market: Market) -> int:
    return sum(card is not None for card in market.face_up)


# --- Auf die Eier: nine dice, thrown as many as were picked up -----------------------------


def check_auf_die_eier(before: State, move: Move, after: State) -> None:
    """There are nine dice: those on the table and those in hand make nine; a throw throws
    exactly the dice picked up; the Rotten Egg re-roll throws exactly the Rotten Eggs."""
    assert isinstance(before, EierState) and isinstance(after, EierState)
    for state in (before, after):
        dice = state.sheet.config.dice
        if state.stage is EierStage.ROTTEN:
            assert sum(state.dice) == dice and state.to_throw == state.dice[Face.ROTTEN]
        elif state.stage is not EierStage.OVER:
            assert sum(state.dice) + state.to_throw == dice, "dice went missing"
    if before.is_chance():
        assert isinstance(move, Roll)
        thrown = sum(move.dice)
        assert thrown == before.to_throw, f"{thrown} dice thrown where {before.to_throw} were up"


STEP_CHECKS: dict[str, StepCheck] = {
    "auf-die-eier": check_auf_die_eier,
    "auf-die-nuesse": check_auf_die_nuesse,
    "auweier": check_auweier,
    "awimbawe": check_awimbawe,
}
"""One step check per registered game, by game id."""
