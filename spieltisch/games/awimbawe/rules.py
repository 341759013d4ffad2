"""Awimbawé: the state and its transitions (see docs/rules/awimbawe.md).

A match is played in rounds until a player has won two. A round starts with the deal (a chance
step); in the first round the player with fewer crowns on their face-up pile cards leads (a
tie is settled by chance), later the loser of the last round names the leader. A trick is: the
leader plays an available card and may use its power; the follower plays by the following rules
and may use its power; the trick is settled, face-down cards it uncovered are turned up, and the
winner (or whoever the last cheetah named) leads the next trick. Powers are decisions of their
own (the rhinoceros's move, the snake's block, the cheetah's choice); the snake's blind pick of
a hand card is a chance step.

The state builds each player's view (:func:`view_of`) and says how each move looks to each
viewer (:meth:`AwimbaweState.seen_move`: a deal shows only the face-up cards and the viewer's
own hand, a blind pick only the snake's victim the card). Pure: no I/O.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import field
from fractions import Fraction
from operator import attrgetter
from typing import TypeVar, cast

from spieltisch.core.codec import SKIP_FIELD
from spieltisch.core.fast import LegalCache, builder, slot_setters, value
from spieltisch.core.game import (
    ActionTable,
    Game,
    GameInfo,
    Hidden,
    Move,
    NodeKind,
    PlayerId,
    State,
    check_enumerable,
    illegal,
    not_a_move,
    options_of,
)
from spieltisch.core.words import N_
from spieltisch.games.awimbawe.memory import EMPTY_MEMORY, Memory, bits_lands
from spieltisch.games.awimbawe.model import (
    DUTIES_BOUND,
    ROUNDS_TO_WIN,
    Config,
    LastTrick,
    RoundResult,
    Rule,
    Stage,
)
from spieltisch.games.awimbawe.notation import (
    ACTION_TABLE,
    ACTIONS,
    DECK,
    DECLINE,
    FIGHTS,
    FLEES,
    HIDDEN_PICK,
    LEAD_ME,
    LEAD_OPPONENT,
    MOVE_TYPES,
    NUM_CARDS,
    NUM_PILES,
    PLAYS,
    Action,
    Animal,
    Block,
    Card,
    Deal,
    Decline,
    Land,
    Lead,
    Pick,
    Play,
    Rhino,
    Stance,
    TieBreak,
    card_code,
    deck_of,
    hand_size_of,
    parse_move,
)
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView

_CODE = card_code
_CROWNS = attrgetter("crowns")
_BIT = attrgetter("bit")
_SKIP = {SKIP_FIELD: True}
_LAND_PLAYS = tuple(
    tuple(tuple(PLAYS[base + i] for i in range(size) if bits >> i & 1) for bits in range(1 << size))
    for base, size in ((0, 6), (6, 6), (12, 6), (18, 6), (24, 4))
)
"""For each land (the sky last) and each set of its cards as bits, the plays of those cards."""
_EAGLE_CHOICES = tuple(
    tuple(FIGHTS[i] for i in range(4) if bits >> i & 1)
    + tuple(FLEES[i] for i in range(4) if bits >> i & 1)
    for bits in range(16)
)
"""For each set of eagles as bits, fighting with each of them and fleeing with each."""
_SHIFT = tuple(min(code // 6 * 6, 24) for code in range(NUM_CARDS))
_WIDTH = tuple(15 if code >= 24 else 63 for code in range(NUM_CARDS))
_SUIT_PLAYS = tuple(_LAND_PLAYS[min(code // 6, 4)] for code in range(NUM_CARDS))
"""For each card code: where its land's bits start, their mask, and that land's plays."""


_STAGE_RULE = {
    Stage.DEAL: Rule.DEAL_NOW,
    Stage.TIE_BREAK: Rule.TIE_BREAK_NOW,
    Stage.CHOOSE_LEADER: Rule.CHOOSE_NOW,
    Stage.PLAY: Rule.PLAY_NOW,
    Stage.RHINOCEROS: Rule.RHINO_NOW,
    Stage.SNAKE: Rule.SNAKE_NOW,
    Stage.BLIND_PICK: Rule.PICK_NOW,
    Stage.CHEETAH: Rule.CHEETAH_NOW,
    Stage.OVER: Rule.GAME_OVER,
}


# Enum members are slow to look up on their class (a descriptor call each time); the hot paths
# use these module-level names instead.
_DEAL = Stage.DEAL
_TIE_BREAK = Stage.TIE_BREAK
_CHOOSE_LEADER = Stage.CHOOSE_LEADER
_PLAY = Stage.PLAY
_RHINOCEROS = Stage.RHINOCEROS
_SNAKE = Stage.SNAKE
_BLIND_PICK = Stage.BLIND_PICK
_CHEETAH = Stage.CHEETAH
_OVER = Stage.OVER
_SKY = Land.SKY
_FLEE = Stance.FLEE
_POWER = tuple(
    {
        Animal.RHINOCEROS: _RHINOCEROS,
        Animal.SNAKE: _SNAKE,
        Animal.CHEETAH: _CHEETAH,
    }.get(card.animal)
    for card in DECK
)
"""For each card code, the decision step its power opens (``None``: no decision)."""


class _SideCache:
    """The slots in which a side keeps the parts of views it decides (no dataclass fields:
    not part of the value, nor of pickles or copies; a side stays the same object from state
    to state until its player's cards change): the public look of its piles, and the side's
    view as its owner and as anyone else last saw it, with what else that view was made of."""

    __slots__ = ("_other_view", "_own_view", "_seen")
    _seen: tuple[tuple[tuple[Card | None, ...], ...], tuple[Card, ...]]
    _own_view: tuple[_SideKey, SideView]
    _other_view: tuple[_SideKey, SideView]


_SideKey = tuple[int, Memory, "Tally", int, bool]
"""What a side's view is made of besides the side: the seat, the memory and the tally (by
identity), the rounds won and the ``blind_pick_shown`` option."""


class _TallyCache:
    """The slot in which a tally keeps the cards played in the round so far, with the other
    player's tally they were worked out with (the cards taken into both scoring piles: the
    same two tally objects always hold the same cards; no dataclass field)."""

    __slots__ = ("_played",)
    _played: tuple[Tally, tuple[Card, ...]]


@value
class Side(_SideCache):
    """One player's cards on the table and in hand during a round."""

    hand: tuple[Card, ...]
    """Hand cards, in card order."""
    piles: tuple[tuple[Card, ...], ...]
    """The four piles, each from the bottom card to the top card."""
    down: frozenset[Card]
    """The pile cards lying face down (nobody has seen them)."""
    blocked: frozenset[Card]
    """Cards the opponent's snake has blocked (until this player plays another card)."""
    available_bits: int = field(init=False, repr=False, compare=False, metadata=_SKIP)
    """The available cards (hand and face-up pile tops) as bits ``1 << card.code``: a cache
    of the four fields above, kept up to date by the moves and never written out."""

    def __post_init__(self) -> None:
        """Work out the cache ``available_bits`` (the moves build sides with :func:`_side`,
        which is given it)."""
        down = self.down
        available_bits = sum(map(_BIT, self.hand))
        for pile in self.piles:
            if pile and pile[-1] not in down:
                available_bits |= pile[-1].bit
        _SIDE_AVAILABLE(self, available_bits)

    def available(self) -> list[Card]:
        """Hand cards and the face-up top card of each pile, blocked ones included."""
        down = self.down
        cards = list(self.hand)
        for pile in self.piles:
            if pile and pile[-1] not in down:
                cards.append(pile[-1])
        return cards

    def playable(self) -> list[Card]:
        """The available cards not blocked; all available cards if every one is blocked."""
        cards = self.available()
        blocked = self.blocked
        if blocked:
            free = [c for c in cards if c not in blocked]
            if free:
                return free
        return cards

    def count(self) -> int:
        """How many cards the player still has (hand and piles)."""
        piles = self.piles
        return len(self.hand) + len(piles[0]) + len(piles[1]) + len(piles[2]) + len(piles[3])

    def top(self, pile: int) -> Card | None:
        """The top card of ``pile`` (face up or down), or ``None`` for an empty pile."""
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def flipped(self) -> Side:
        """This side with every face-down card that lies on top of a pile turned up."""
        down = self.down
        tops = [p[-1] for p in self.piles if p and p[-1] in down] if down else None
        if not tops:
            return self
        bits = self.available_bits | sum(c.bit for c in tops)
        return _side(self.hand, self.piles, down.difference(tops), self.blocked, bits)


(_SIDE_AVAILABLE,) = slot_setters(Side, "available_bits")
_side = builder(Side, ("hand", "piles", "down", "blocked", "available_bits"))
"""A side from its four fields and the cache ``available_bits``, built fast."""
_NONE: frozenset[Card] = frozenset()
EMPTY_SIDE = Side((), ((), (), (), ()), _NONE, _NONE)


@value
class Tally(_TallyCache):
    """A player's scoring pile in the current round."""

    size: int
    """How many cards the pile holds."""
    crowns: int
    """Net crowns of the taken cards."""
    hyenas: int
    """Hyenas taken (they lie face up beside the pile)."""

    def adding(self, cards: tuple[Card, ...]) -> Tally:
        """This pile with ``cards`` added."""
        crowns, hyenas = self.crowns, self.hyenas
        for card in cards:
            crowns += card.crowns
            hyenas += card.value == 4
        return Tally(self.size + len(cards), crowns, hyenas)


EMPTY_TALLY = Tally(0, 0, 0)


@value
class Match:
    """What changes only between rounds: round wins and the finished rounds."""

    config: Config
    round: int
    """The round being played, or about to be dealt (from 1)."""
    wins: tuple[int, ...]
    """Rounds won by each player; a player's heir card is golden after the first win."""
    results: tuple[RoundResult, ...]
    round_leader: PlayerId | None
    """Who leads (or led) the first trick of this round, once known."""


@value
class AwimbaweState(LegalCache):
    """A position of Awimbawé. Build it with :meth:`Awimbawe.initial_state`."""

    match: Match
    sides: tuple[Side, ...]
    tallies: tuple[Tally, ...]
    stage: Stage
    actor: PlayerId
    """Who acts at a decision; at the blind pick, the snake's player; between rounds, the
    loser of the last round."""
    trick: tuple[Card, ...]
    """The cards played to the current trick: the leader's, then the follower's. (A trick is
    settled as soon as its second card is played, unless that card's power is in use; an eagle
    has no power, so how a following eagle was used never needs to be kept here.)"""
    next_leader: PlayerId | None
    """Whom a cheetah of this trick named to lead the next one."""
    last_trick: LastTrick | None
    memory: Memory = EMPTY_MEMORY
    """What the play of this round has shown of the hands (voids; see ``memory``)."""

    @property
    def leader(self) -> PlayerId:
        """Who leads the current trick (follows from who acts and how far the trick is)."""
        stage, actor = self.stage, self.actor
        if stage is _PLAY:
            return 1 - actor if self.trick else actor
        if stage is _RHINOCEROS or stage is _SNAKE or stage is _CHEETAH or stage is _BLIND_PICK:
            return actor if len(self.trick) == 1 else 1 - actor
        return actor if self.match.round_leader is None else self.match.round_leader

    # --- the protocol -------------------------------------------------------------------

    @property
    def game(self) -> Awimbawe:
        return Awimbawe.of(self.match.config)

    @property
    def config(self) -> Config:
        """The options."""
        return self.match.config

    @property
    def node(self) -> NodeKind:
        stage = self.stage
        if stage is _OVER:
            return NodeKind.TERMINAL
        if stage is _DEAL or stage is _TIE_BREAK or stage is _BLIND_PICK:
            return NodeKind.CHANCE
        return NodeKind.DECISION

    def is_terminal(self) -> bool:
        return self.stage is _OVER

    def is_chance(self) -> bool:
        stage = self.stage
        return stage is _DEAL or stage is _TIE_BREAK or stage is _BLIND_PICK

    def current_player(self) -> PlayerId | None:
        stage = self.stage
        if stage is _OVER or stage is _DEAL:
            return None
        if stage is _TIE_BREAK or stage is _BLIND_PICK:
            return None
        return self.actor

    def work_out_legal(self) -> tuple[Action, ...]:
        return self._plays() if self.stage is _PLAY else self._legal_actions()

    def _legal_actions(self) -> tuple[Action, ...]:
        stage = self.stage
        if stage is _PLAY:
            return self._plays()
        if stage is _CHEETAH or stage is _CHOOSE_LEADER:
            return (LEAD_ME, LEAD_OPPONENT)
        if stage is _RHINOCEROS:
            return (*rhino_moves(self.sides[1 - self.actor], self.config), DECLINE)
        if stage is _SNAKE:
            return (*snake_blocks(self.sides[1 - self.actor]), DECLINE)
        return ()

    def _plays(self) -> tuple[Action, ...]:
        """The legal plays, in card order (eagles that flee or fight: fights first)."""
        side = self.sides[self.actor]
        bits = every = side.available_bits
        blocked = side.blocked
        if blocked:
            free = bits & ~sum(c.bit for c in blocked)
            if free:
                bits = free
        trick = self.trick
        if trick:
            led = trick[0].code
            suit = bits >> _SHIFT[led] & _WIDTH[led]
            if suit:
                return _SUIT_PLAYS[led][suit]
            bound = blocked and self.match.config.blocked_duties == DUTIES_BOUND
            if bound:  # a duty only blocked cards can meet lifts their block
                suit = every >> _SHIFT[led] & _WIDTH[led]
                if suit:
                    return _SUIT_PLAYS[led][suit]
            if led < 24 and bits >> 24:
                return _EAGLE_CHOICES[bits >> 24]
            if bound and led < 24 and every >> 24:
                return _EAGLE_CHOICES[every >> 24]
        return (
            _LAND_PLAYS[0][bits & 63]
            + _LAND_PLAYS[1][bits >> 6 & 63]
            + _LAND_PLAYS[2][bits >> 12 & 63]
            + _LAND_PLAYS[3][bits >> 18 & 63]
            + _LAND_PLAYS[4][bits >> 24]
        )

    def chance_outcomes(self) -> Sequence[tuple[Move, Fraction]]:
        stage = self.stage
        if stage is _DEAL:
            lands = self.match.config.lands
            size = len(deck_of(lands))
            deals = math.factorial(size) // math.factorial(hand_size_of(lands)) ** 2
            check_enumerable(deals, 0, "the deal")  # never listed: sampled, or split by rl
        if stage is _TIE_BREAK:
            return [(TieBreak(0), Fraction(1, 2)), (TieBreak(1), Fraction(1, 2))]
        if stage is _BLIND_PICK:
            cards = self.pick_candidates()
            return [(Pick(c), Fraction(1, len(cards))) for c in cards]
        return []

    def sample_chance(self, rng: random.Random) -> Move:
        stage = self.stage
        if stage is _DEAL:
            return Deal.from_order(random_order(rng, self.match.config.lands))
        if stage is _TIE_BREAK:
            return TieBreak(rng.randrange(2))
        if stage is _BLIND_PICK:
            cards = self.pick_candidates()
            return Pick(cards[rng.randrange(len(cards))])
        raise illegal("chance", _STAGE_RULE[stage].value)

    def pick_candidates(self) -> list[Card]:
        """The hand cards the snake's blind pick can fall on, in card order."""
        victim = self.sides[1 - self.actor]
        return [c for c in victim.hand if c not in victim.blocked]

    def parse(self, text: str) -> Move:
        word, _, rest = text.strip().lower().partition(" ")
        player = self.current_player()
        if word == "lead" and rest.strip() in {"0", "1"} and player is not None:
            return LEAD_ME if int(rest) == player else LEAD_OPPONENT
        if word in {"me", "self", "myself"} and not rest:
            return LEAD_ME
        if word in {"opponent", "other", "you"} and not rest:
            return LEAD_OPPONENT
        return parse_move(text)

    def seen_move(self, move: Move, viewer: PlayerId | None) -> Move | Hidden:
        """A deal as ``viewer`` sees it (face-down cards and the other hand blanked); a blind
        pick hidden from all but the snake's victim, unless ``blind_pick_shown``."""
        if isinstance(move, Deal):
            what = _DEALT if self.config.lands == NUM_PILES else _DEALT_FEWER
            return Hidden(what, move.text_for(viewer), move.shown_to(viewer))
        if isinstance(move, Pick) and not self.config.blind_pick_shown:
            return move if viewer == 1 - self.actor else Hidden(_PICKED, HIDDEN_PICK)
        return move

    def scores(self) -> tuple[int, ...]:
        return self.match.wins

    def winners(self) -> frozenset[PlayerId]:
        if self.stage is not _OVER:
            return frozenset()
        wins = self.match.wins
        return frozenset(p for p in range(2) if wins[p] >= self.match.config.rounds_to_win)

    def view(self, player: PlayerId | None) -> AwimbaweView:
        return view_of(self, player)

    # --- applying moves -----------------------------------------------------------------

    def apply(self, move: Move) -> AwimbaweState:
        stage = self.stage
        if stage is _PLAY:
            if isinstance(move, Play):
                return self._apply_play(move)
        elif stage is _RHINOCEROS:
            if isinstance(move, Rhino):
                return self._apply_rhino(move)
            if isinstance(move, Decline):
                return self._after_card(self.sides, self.next_leader, self.memory)
        elif stage is _SNAKE:
            if isinstance(move, Block):
                return self._apply_snake(move)
            if isinstance(move, Decline):
                return self._after_card(self.sides, self.next_leader, self.memory)
        elif stage is _CHEETAH:
            if isinstance(move, Lead):
                named = self.actor if move.me else 1 - self.actor
                return self._after_card(self.sides, named, self.memory)
        elif stage is _DEAL:
            if isinstance(move, Deal):
                return self._apply_deal(move)
        elif stage is _TIE_BREAK:
            if isinstance(move, TieBreak):
                return self._apply_tie_break(move)
        elif stage is _BLIND_PICK:
            if isinstance(move, Pick):
                return self._apply_pick(move)
        elif stage is _CHOOSE_LEADER and isinstance(move, Lead):
            return self._apply_choice(move)
        if not isinstance(move, MOVE_TYPES):
            raise not_a_move(move, "Awimbawé")
        raise illegal(move, _STAGE_RULE[stage].value)

    def _apply_play(self, move: Play) -> AwimbaweState:
        try:  # the legal actions are nearly always known by now: listed before choosing
            legal = self._legal or self.legal_actions()
        except AttributeError:  # a state rebuilt by pickle or copy
            legal = self.legal_actions()
        if move not in legal:
            raise illegal(move, *self._play_fault(move))
        player = self.actor
        card = move.card
        sides = self.sides
        before = sides[player]
        side, memory = _without(before, card, self.memory, player)
        new_sides = (side, sides[1]) if player == 0 else (sides[0], side)
        led = self.trick
        if led and led[0].land is not card.land:  # the answer shows lands the hand lacks
            config = self.match.config
            # With blocked_duties=bound a blocked card excuses no duty: a plain void.
            blocked = before.blocked if config.blocked_duties != DUTIES_BOUND else _NONE
            memory = memory.after_answer(
                player, before.hand, blocked, before.available_bits, led[0], card,
                config.blind_pick_shown,
            )  # fmt: skip
        trick = (*led, card)
        stage = _power_stage(card, new_sides[1 - player], self.match.config)
        if stage is _PLAY and led:
            return self._settle(new_sides, trick, move.stance, self.next_leader, memory)
        return AwimbaweState(
            self.match,
            new_sides,
            self.tallies,
            stage,
            player if stage is not _PLAY else 1 - player,
            trick,
            self.next_leader,
            self.last_trick,
            memory,
        )

    def _play_fault(self, move: Play) -> tuple[str, str]:
        """Which rule a play outside the legal actions breaks, and a detail."""
        side = self.sides[self.actor]
        card = move.card
        available = side.available()
        if card not in available:
            return Rule.AVAILABLE.value, f"{card} is not one of yours to play"
        playable = side.playable()
        trick = self.trick
        if trick and side.blocked and self.match.config.blocked_duties == DUTIES_BOUND:
            playable = available  # for the duties, blocked cards count (blocked_duties=bound)
        elif card not in playable:
            return Rule.BLOCKED.value, f"{card} is blocked"
        if trick:
            led = trick[0].land
            if card.land is not led and any(c.land is led for c in playable):
                return Rule.FOLLOW.value, f"{led.value} is led"
            if (
                led is not _SKY
                and not card.is_eagle
                and not any(c.land is led for c in playable)
                and any(c.is_eagle for c in playable)
            ):
                return Rule.EAGLE_DUTY.value, ""
            if card.is_eagle and led is not _SKY and move.stance is None:
                return Rule.EAGLE_CHOICE.value, f"'play {card} fight' or 'play {card} flee'"
        if card in side.blocked:  # no duty needed it (blocked_duties=bound)
            return Rule.BLOCKED.value, f"{card} is blocked"
        return Rule.EAGLE_FIGHTS.value, f"'play {card}'"

    def _apply_rhino(self, move: Rhino) -> AwimbaweState:
        victim = 1 - self.actor
        side = self.sides[victim]
        piles = side.piles
        source, dest = move.source, move.dest
        config = self.match.config
        anywhere = config.rhino_to_empty_pile
        if not (isinstance(source, int) and 0 <= source < NUM_PILES and piles[source]):
            raise illegal(move, Rule.RHINO_SOURCE.value)
        if not (isinstance(dest, int) and 0 <= dest < config.lands and dest != source) or not (
            anywhere or piles[dest]
        ):
            rule = Rule.RHINO_DEST_ANY if anywhere else Rule.RHINO_DEST
            raise illegal(move, rule.value)
        pile, target = piles[source], piles[dest]
        card, rest = pile[-1], pile[:-1]
        down, bits = side.down, side.available_bits
        if card not in down:  # a face-up top card leaves the top: no longer available
            bits ^= card.bit
            if not target:  # ... unless it becomes the top of an empty pile place
                bits |= card.bit
        if rest and rest[-1] not in down:
            bits |= rest[-1].bit
        new_piles = list(piles)
        new_piles[source] = rest
        new_piles[dest] = (card, *target)
        moved = _side(side.hand, tuple(new_piles), down, side.blocked, bits)
        sides = (moved, self.sides[1]) if victim == 0 else (self.sides[0], moved)
        return self._after_card(sides, self.next_leader, self.memory)

    def _apply_snake(self, move: Block) -> AwimbaweState:
        victim = 1 - self.actor
        side = self.sides[victim]
        if move not in snake_blocks(side):
            pile = move.pile
            top = side.top(pile) if pile is not None and 0 <= pile < NUM_PILES else None
            if top is not None and top in side.blocked:
                raise illegal(move, Rule.SNAKE_BLOCKED.value)
            raise illegal(move, Rule.SNAKE_TARGET.value)
        if move.pile is None:
            return AwimbaweState(
                self.match,
                self.sides,
                self.tallies,
                _BLIND_PICK,
                self.actor,
                self.trick,
                self.next_leader,
                self.last_trick,
                self.memory,
            )
        card = side.piles[move.pile][-1]
        return self._block(victim, card, self.memory)

    def _apply_pick(self, move: Pick) -> AwimbaweState:
        if move.card not in self.pick_candidates():
            raise illegal(move, Rule.PICK_HAND.value)
        victim = 1 - self.actor
        memory = self.memory
        if self.match.config.blind_pick_shown:  # both players saw the card
            memory = memory.after_pick(victim, move.card)
        return self._block(victim, move.card, memory)

    def _block(self, victim: PlayerId, card: Card, memory: Memory) -> AwimbaweState:
        side = self.sides[victim]
        blocked = _side(
            side.hand, side.piles, side.down, side.blocked | {card}, side.available_bits
        )
        sides = (blocked, self.sides[1]) if victim == 0 else (self.sides[0], blocked)
        return self._after_card(sides, self.next_leader, memory)

    def _after_card(
        self, sides: tuple[Side, ...], next_leader: PlayerId | None, memory: Memory
    ) -> AwimbaweState:
        """Go on after a card's power: the follower plays, or the trick is settled."""
        trick = self.trick
        if len(trick) == 1:  # the leader used the power: the follower plays
            return AwimbaweState(
                self.match,
                sides,
                self.tallies,
                _PLAY,
                1 - self.actor,
                trick,
                next_leader,
                self.last_trick,
                memory,
            )
        return self._settle(sides, trick, None, next_leader, memory)

    def _settle(
        self,
        sides: tuple[Side, ...],
        trick: tuple[Card, ...],
        stance: Stance | None,
        next_leader: PlayerId | None,
        memory: Memory,
    ) -> AwimbaweState:
        """Settle a full trick: who wins, scoring piles, turning up, the next trick or round."""
        leader = 1 - self.actor  # the follower has just played (or used a power)
        lead, follow = trick
        winner = leader if leader_wins(lead, follow, stance) else 1 - leader
        first, second = _scored(self.tallies, leader, winner, trick, stance)
        sides = (_turned_up(sides[0]), _turned_up(sides[1]))
        last = LastTrick(leader, trick, stance, winner)
        config = self.match.config
        lose = config.hyenas_to_lose
        if lose in (first.hyenas, second.hyenas) or (
            first.size + second.size == len(deck_of(config.lands))
        ):
            return self._end_round((first, second), last)
        lead_next = winner if next_leader is None else next_leader
        return AwimbaweState(
            self.match, sides, (first, second), _PLAY, lead_next, (), None, last, memory
        )

    def _end_round(self, tallies: tuple[Tally, ...], last: LastTrick) -> AwimbaweState:
        match = self.match
        crowns = (tallies[0].crowns, tallies[1].crowns)
        hyenas = (tallies[0].hyenas, tallies[1].hyenas)
        lose = match.config.hyenas_to_lose
        fourth = lose in hyenas
        # the taker of the fourth (last) hyena loses; otherwise more crowns win (45 in all, an
        # odd number with fewer lands too: no tie)
        loser = hyenas.index(lose) if fourth else int(crowns[1] < crowns[0])
        winner = 1 - loser
        result = RoundResult(match.round, winner, crowns, hyenas, fourth)
        wins = tuple(w + (p == winner) for p, w in enumerate(match.wins))
        over = wins[winner] >= match.config.rounds_to_win
        number = match.round if over else match.round + 1
        new_match = Match(match.config, number, wins, (*match.results, result), None)
        sides = (EMPTY_SIDE, EMPTY_SIDE)
        tallies = (EMPTY_TALLY, EMPTY_TALLY)
        if over:
            stage = _OVER
        elif match.config.leader_choice_after_deal:
            stage = _DEAL
        else:
            stage = _CHOOSE_LEADER
        return AwimbaweState(new_match, sides, tallies, stage, loser, (), None, last, EMPTY_MEMORY)

    def _apply_deal(self, deal: Deal) -> AwimbaweState:
        if not deal.is_complete(self.match.config.lands):
            raise illegal(deal, Rule.DEAL_COMPLETE.value)
        down, up, hands = deal.down, deal.up, deal.hands
        sides = (_dealt(down[0], up[0], hands[0]), _dealt(down[1], up[1], hands[1]))
        match = self.match
        config = match.config
        tallies = (EMPTY_TALLY, EMPTY_TALLY)
        stage, leader = _PLAY, match.round_leader
        if match.round == 1:
            crowns = [sum(map(_CROWNS, up[0])), sum(map(_CROWNS, up[1]))]
            if crowns[0] != crowns[1]:
                leader = 0 if crowns[0] < crowns[1] else 1
            elif config.tie_break_seat is not None:
                leader = config.tie_break_seat
            else:
                stage, leader = _TIE_BREAK, None
        elif config.leader_choice_after_deal:
            stage, leader = _CHOOSE_LEADER, None
        if leader is None:
            chooser = 1 - match.results[-1].winner if match.results else 0
            new_match = Match(config, match.round, match.wins, match.results, None)
            return AwimbaweState(
                new_match, sides, tallies, stage, chooser, (), None, None, EMPTY_MEMORY
            )
        return self._start_round(match, sides, leader)

    def _start_round(
        self, match: Match, sides: tuple[Side, ...], leader: PlayerId
    ) -> AwimbaweState:
        new_match = Match(match.config, match.round, match.wins, match.results, leader)
        tallies = (EMPTY_TALLY, EMPTY_TALLY)
        return AwimbaweState(new_match, sides, tallies, _PLAY, leader, (), None, None, EMPTY_MEMORY)

    def _apply_tie_break(self, move: TieBreak) -> AwimbaweState:
        if move.player not in (0, 1) or isinstance(move.player, bool):
            raise illegal(move, Rule.TIE_BREAK_SEAT.value)
        return self._start_round(self.match, self.sides, move.player)

    def _apply_choice(self, move: Lead) -> AwimbaweState:
        chosen = self.actor if move.me else 1 - self.actor
        match = self.match
        if match.config.leader_choice_after_deal:
            return self._start_round(match, self.sides, chosen)
        new_match = Match(match.config, match.round, match.wins, match.results, chosen)
        return AwimbaweState(
            new_match,
            self.sides,
            self.tallies,
            _DEAL,
            chosen,
            (),
            None,
            self.last_trick,
            EMPTY_MEMORY,
        )


_DEALT = "dealt the cards: four face down and four face up before each player, six in each hand"
_DEALT_FEWER = (
    "dealt the cards: a face-down and a face-up card per land before each player, the rest in "
    "each hand"
)
_PICKED = "picked one of the opponent's hand cards blind, for the snake to block"


_A = TypeVar("_A", bound=Action)


def _interned(action: _A) -> _A:
    """The action table's own object equal to ``action`` (legal actions are made of these,
    so that masks and id look-ups find them by identity)."""
    return cast(_A, ACTIONS[ACTION_TABLE.id_of(action)])


_RHINOS = tuple(
    tuple(_interned(Rhino(s, d)) if d != s else Rhino(s, d) for d in range(NUM_PILES))
    for s in range(NUM_PILES)
)
"""``_RHINOS[source][target]``: the action table's own moves (a pile onto itself is none)."""
_BLOCKS = tuple(_interned(Block(p)) for p in range(NUM_PILES))
BLOCK_HAND = _interned(Block(None))


def _rhino_table(anywhere: bool) -> tuple[tuple[Rhino, ...], ...]:
    """The rhinoceros's moves for each set of non-empty piles (bit ``i``: pile ``i``)."""
    return tuple(
        tuple(
            _RHINOS[s][d]
            for s in range(NUM_PILES)
            if mask >> s & 1
            for d in range(NUM_PILES)
            if d != s and (anywhere or mask >> d & 1)
        )
        for mask in range(1 << NUM_PILES)
    )


_RHINO_MOVES = (_rhino_table(anywhere=False), _rhino_table(anywhere=True))


def rhino_moves(side: Side, config: Config) -> tuple[Rhino, ...]:
    """Every move a rhinoceros can make on the piles of ``side``, in action-id order (with
    fewer lands, only the places of the piles dealt take a card)."""
    p0, p1, p2, p3 = side.piles
    mask = bool(p0) | bool(p1) << 1 | bool(p2) << 2 | bool(p3) << 3
    moves = _RHINO_MOVES[config.rhino_to_empty_pile][mask]
    if config.lands < NUM_PILES and config.rhino_to_empty_pile:
        return tuple(m for m in moves if m.dest < config.lands)
    return moves


_SNAKE_BLOCKS = tuple(
    tuple(_BLOCKS[p] for p in range(NUM_PILES) if mask >> p & 1)
    + ((BLOCK_HAND,) if mask >> NUM_PILES & 1 else ())
    for mask in range(1 << (NUM_PILES + 1))
)
"""The snake's blocks for each set of targets (bit ``i``: pile ``i``; bit 4: the hand)."""


def _free_bits(side: Side) -> int:
    """The available cards of ``side`` that are not blocked, as bits."""
    bits = side.available_bits
    blocked = side.blocked
    if blocked:
        bits &= ~sum(c.bit for c in blocked)
    return bits


def can_block(side: Side) -> bool:
    """True when a snake may be used on ``side``: two or more unblocked available cards."""
    return _free_bits(side).bit_count() >= 2


def snake_blocks(side: Side) -> tuple[Block, ...]:
    """Every block a snake can make on ``side``, in action-id order."""
    free = _free_bits(side)
    mask = 0
    for pile, cards in enumerate(side.piles):
        if cards and cards[-1].bit & free:  # a face-up top card, not blocked
            mask |= 1 << pile
    if free.bit_count() > mask.bit_count():  # the rest are hand cards
        mask |= 1 << NUM_PILES
    return _SNAKE_BLOCKS[mask]


def _dealt(down: tuple[Card, ...], up: tuple[Card, ...], hand: tuple[Card, ...]) -> Side:
    """A player's cards just dealt: four piles of a face-down card under a face-up one (with
    fewer lands, one pile per land and the other places empty)."""
    if len(down) < NUM_PILES:
        empty: tuple[tuple[Card, ...], ...] = ((),) * (NUM_PILES - len(down))
        piles = (*((d, u) for d, u in zip(down, up, strict=True)), *empty)
        bits = sum(map(_BIT, hand)) + sum(map(_BIT, up))
        return _side(tuple(sorted(hand, key=_CODE)), piles, frozenset(down), _NONE, bits)
    piles = ((down[0], up[0]), (down[1], up[1]), (down[2], up[2]), (down[3], up[3]))
    bits = sum(map(_BIT, hand)) + up[0].bit + up[1].bit + up[2].bit + up[3].bit
    return _side(tuple(sorted(hand, key=_CODE)), piles, frozenset(down), _NONE, bits)


_ORDERS = math.factorial(NUM_CARDS)


def random_order(rng: random.Random, lands: int = NUM_PILES) -> list[Card]:
    """The 28 cards (the cards of ``lands`` lands: :func:`deck_of`) in an order drawn
    uniformly with ``rng``.

    One draw below 28! read in the factorial number system picks the permutation: every order
    is equally likely, and it costs a third less than shuffling card by card.
    """
    pool = list(deck_of(lands))
    number = rng.randrange(_ORDERS if len(pool) == NUM_CARDS else math.factorial(len(pool)))
    order = []
    for left in range(len(pool), 0, -1):
        number, index = divmod(number, left)
        order.append(pool.pop(index))
    return order


def leader_wins(lead: Card, follow: Card, stance: Stance | None = None) -> bool:
    """Whether the card led takes the trick against ``follow`` (an eagle's ``stance`` given)."""
    if follow.land is lead.land:
        lv, fv = lead.value, follow.value
        if lv == 1 and fv == 6:  # the mouse beats the elephant of its land
            return True
        if lv == 6 and fv == 1:
            return False
        return lv > fv
    if follow.land is _SKY:
        return stance is _FLEE
    return True  # a discard loses


def _scored(
    tallies: tuple[Tally, ...],
    leader: PlayerId,
    winner: PlayerId,
    trick: tuple[Card, ...],
    stance: Stance | None,
) -> tuple[Tally, Tally]:
    """The scoring piles once the trick is taken: both cards to the winner, or, when an eagle
    flees, the led card to the leader and the eagle to its player."""
    first, second = tallies
    lead, follow = trick
    if stance is _FLEE:
        if leader == 0:
            return first.adding((lead,)), second.adding((follow,))
        return first.adding((follow,)), second.adding((lead,))
    crowns = lead.crowns + follow.crowns
    hyenas = (lead.value == 4) + (follow.value == 4)
    if winner == 0:
        return Tally(first.size + 2, first.crowns + crowns, first.hyenas + hyenas), second
    return first, Tally(second.size + 2, second.crowns + crowns, second.hyenas + hyenas)


def _turned_up(side: Side) -> Side:
    """``side`` with the face-down cards the last trick uncovered turned face up."""
    down = side.down
    if not down:
        return side
    p0, p1, p2, p3 = side.piles
    if (
        (p0 and p0[-1] in down)
        or (p1 and p1[-1] in down)
        or (p2 and p2[-1] in down)
        or (p3 and p3[-1] in down)
    ):
        return side.flipped()
    return side


def _without(side: Side, card: Card, memory: Memory, player: PlayerId) -> tuple[Side, Memory]:
    """``side`` once ``card`` has left its hand or the top of its pile; its blocks are lifted.

    A pile card that comes to the top face up becomes available; a hand card is remembered
    when the memory watches hand plays.
    """
    hand = side.hand
    bits = side.available_bits ^ card.bit
    if card in hand:
        i = hand.index(card)
        if memory.watch:
            memory = memory.after_hand_play(player, card)
        return _side(hand[:i] + hand[i + 1 :], side.piles, side.down, _NONE, bits), memory
    piles, down = side.piles, side.down
    for i, pile in enumerate(piles):
        if pile and pile[-1] is card:
            rest = pile[:-1]
            if rest and rest[-1] not in down:
                bits |= rest[-1].bit
            piles = (*piles[:i], rest, *piles[i + 1 :])
            break
    return _side(hand, piles, down, _NONE, bits), memory


def _power_stage(card: Card, opponent: Side, config: Config) -> Stage:
    """The step a played card's power opens, or ``_PLAY`` when it has none to use.

    The rhinoceros and the snake are offered only when they can act on ``opponent``; the
    cheetah's choice is made every time one is played.
    """
    power = _POWER[card.code]
    if power is None:
        return _PLAY
    if power is _RHINOCEROS:
        return power if rhino_moves(opponent, config) else _PLAY
    if power is _SNAKE:
        return power if can_block(opponent) else _PLAY
    return power


class Awimbawe(Game):
    """Awimbawé: a trick-taking duel with animal powers, first to two round wins."""

    info = GameInfo(
        id="awimbawe",
        name="Awimbawé",
        min_players=2,
        max_players=2,
        default_players=2,
        summary=N_(
            "Two-player tricks with animal powers: take crowns, avoid the four hyenas, "
            "win two rounds."
        ),
        options=options_of(Config),
        has_chance=True,
        hidden_information=True,
        min_score=0,
        max_score=ROUNDS_TO_WIN,
    )
    state_type = AwimbaweState
    config_type = Config

    def initial_state(self) -> AwimbaweState:
        return _initial_state(self.config)

    def action_table(self) -> ActionTable[Action]:
        return ACTION_TABLE

    @property
    def score_bounds(self) -> tuple[int, int]:
        return (0, self.config.rounds_to_win)


@functools.cache
def _initial_state(config: Config) -> AwimbaweState:
    """The state before the first deal of a match with ``config`` (one per config: states
    are immutable)."""
    return AwimbaweState(
        Match(config, 1, (0, 0), (), None),
        (EMPTY_SIDE, EMPTY_SIDE),
        (EMPTY_TALLY, EMPTY_TALLY),
        _DEAL,
        0,
        (),
        None,
        None,
    )


def new_state(**options: bool | int | str) -> AwimbaweState:
    """The initial state of a match (a convenience for tests)."""
    return Awimbawe(2, **options).initial_state()


# --- the view -------------------------------------------------------------------------


def view_of(state: AwimbaweState, viewer: PlayerId | None) -> AwimbaweView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    match = state.match
    stage = state.stage
    in_power = stage in _POWER_STAGES
    winners = state.winners()
    return AwimbaweView(
        viewer,
        match.config.variant,
        match.round,
        stage,
        state.current_player(),
        state.actor if in_power else None,
        state.leader,
        match.round_leader,
        (_side_view(state, 0, viewer), _side_view(state, 1, viewer)),
        state.trick,
        state.next_leader,
        state.last_trick,
        _played(state),
        match.results,
        min(winners) if winners else None,
    )


PILE_LOOKS_KEPT = 512
"""How many looks of piles :func:`_piles_look` keeps (the latest; each is a few hundred bytes)."""
_POWER_STAGES = frozenset({Stage.RHINOCEROS, Stage.SNAKE, Stage.BLIND_PICK, Stage.CHEETAH})


def _side_view(state: AwimbaweState, p: PlayerId, viewer: PlayerId | None) -> SideView:
    """What ``viewer`` sees of player ``p``'s side: the hand only if it is theirs, face-down
    pile cards as ``None``, and blocks on hand cards only where a blind pick was shown. The
    side keeps the view its owner and the view others last saw, used again while the memory,
    the tally and the wins it was made with are the same."""
    side, memory = state.sides[p], state.memory
    own = p == viewer
    match = state.match
    tally, wins = state.tallies[p], match.wins[p]
    shown_picks = match.config.blind_pick_shown
    try:
        key, kept = side._own_view if own else side._other_view
        if (
            key[1] is memory
            and key[2] is tally
            and key[0] == p
            and key[3] == wins
            and key[4] == shown_picks
        ):
            return kept
    except AttributeError:
        pass
    blocked, hand, shown = side.blocked, side.hand, memory.shown[p]
    piles, tops = _seen_piles(side)
    visible: tuple[Card, ...] = ()
    if blocked:
        visible = tuple(
            sorted([c for c in blocked if own or c not in hand or shown_picks], key=card_code)
        )
    view = SideView(
        piles,
        hand if own else None,
        len(hand),
        visible,
        len(blocked) - len(visible),
        tuple(sorted(shown, key=card_code)) if shown else (),
        _lands(memory.void[p]),
        memory.blind[p],
        tuple(sorted((*hand, *tops), key=card_code)) if own else tops,
        tally.size,
        tally.crowns,
        tally.hyenas,
        wins,
        Heir.GOLD if wins else Heir.SILVER,
    )
    keep = _keep_own_view if own else _keep_other_view
    keep(side, ((p, memory, tally, wins, shown_picks), view))
    return view


def _seen_piles(side: Side) -> tuple[tuple[tuple[Card | None, ...], ...], tuple[Card, ...]]:
    """``side``'s piles as everyone sees them (face-down cards as ``None``) and its face-up
    tops in card order: worked out once per side, which stays the same object from state to
    state until its player's cards change, and looked up for the piles and face-down cards
    a side shares with an earlier one (a card played from the hand leaves both as they were)."""
    try:
        return side._seen
    except AttributeError:
        pass
    seen = _piles_look(side.piles, side.down)
    _keep_seen(side, seen)
    return seen


@functools.lru_cache(maxsize=PILE_LOOKS_KEPT)
def _piles_look(
    piles: tuple[tuple[Card, ...], ...], down: frozenset[Card]
) -> tuple[tuple[tuple[Card | None, ...], ...], tuple[Card, ...]]:
    """The piles with their face-down cards as ``None``, and the face-up tops in card order."""
    if down:
        looks = tuple([tuple([None if c in down else c for c in pile]) for pile in piles])
    else:
        looks = piles
    tops = tuple(sorted([q[-1] for q in looks if q and q[-1] is not None], key=card_code))
    return looks, tops


_keep_seen, _keep_own_view, _keep_other_view = slot_setters(
    _SideCache, "_seen", "_own_view", "_other_view"
)
(_keep_played,) = slot_setters(_TallyCache, "_played")

_lands = functools.cache(bits_lands)
""":func:`~.memory.bits_lands`, kept for each of the few masks of lands."""


def _played(state: AwimbaweState) -> tuple[Card, ...]:
    """The cards of this round already taken into a scoring pile (public: every trick is seen
    face up). Empty before the first trick is taken; kept by the first player's tally."""
    first, second = state.tallies
    if not (first.size or second.size):
        return ()
    try:
        other, played = first._played
        if other is second:
            return played
    except AttributeError:
        pass
    on_table = sum(c.bit for c in state.trick)
    for side in state.sides:
        on_table |= sum(c.bit for c in side.hand) | sum(c.bit for pile in side.piles for c in pile)
    deck = DECK if state.match.config.lands == NUM_PILES else deck_of(state.match.config.lands)
    played = tuple([c for c in deck if not c.bit & on_table])
    _keep_played(first, (second, played))
    return played


def round_results(state: State) -> tuple[dict[str, object], ...]:
    """The rounds ``state``'s match has finished, in order, as plain data (the kit's
    ``rounds``): each round's number, winner, crowns and hyenas per seat, and whether it ended
    on a fourth hyena."""
    if not isinstance(state, AwimbaweState):
        return ()
    return tuple(
        {
            "number": r.number,
            "winner": r.winner,
            "crowns": list(r.crowns),
            "hyenas": list(r.hyenas),
            "fourth_hyena": r.fourth_hyena,
        }
        for r in state.match.results
    )
