//! Awimbawé's state and its transitions (the mirror of `rules.py` and `memory.py`).
//!
//! The state is one `Copy` value of about 300 bytes: cards are codes (`u8`) and sets of cards
//! bit sets (`u32`, bit `code`), each pile a small array from its bottom card to its top card.
//! A move changes the state in place; nothing is allocated per step.

use rand::Rng as _;

use super::model::{
    answer_void, crowns, is_hyena, land, land_bit, land_cards, rule, value, Config, Stage, Stance, BLOCK_BASE,
    BLOCK_HAND, DECLINE_ID, EAGLE_BITS, FIRST_EAGLE, HAND_SIZE, LEAD_ME, LEAD_OPPONENT, MAX_PILE, NUM_ACTIONS,
    NUM_CARDS, NUM_PILES, PLAY_FIGHT_BASE, PLAY_FLEE_BASE, RHINO_BASE, ROUNDS_BOUNDS, SKY,
};
use crate::core::{Node, Options, Prob, Refusal, Rng, Rules};

/// "Nobody" in a seat field (the Python `None`).
pub const NOBODY: u8 = u8::MAX;
/// The most rounds a match can take: `2 * rounds_to_win - 1` at the largest parameter.
pub const MAX_ROUNDS: usize = 2 * ROUNDS_BOUNDS.1 as usize - 1;
/// The most weaker voids one player can hold: each needs a blind pick since that player last
/// played, and a round has four snakes.
pub const MAX_BLIND: usize = 4;

/// One pile, from its bottom card to its top card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pile {
    pub cards: [u8; MAX_PILE],
    pub len: u8,
}

impl Pile {
    /// The top card (face up or down), if any.
    #[inline]
    pub fn top(&self) -> Option<u8> {
        if self.len == 0 {
            None
        } else {
            Some(self.cards[self.len as usize - 1])
        }
    }

    /// The cards, bottom first.
    #[inline]
    pub fn cards(&self) -> &[u8] {
        &self.cards[..self.len as usize]
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// Put `card` under the pile (a pile never holds more than a side's eight pile cards).
    fn push_bottom(&mut self, card: u8) {
        let len = self.len as usize;
        if len < MAX_PILE {
            self.cards.copy_within(0..len, 1);
            self.cards[0] = card;
            self.len += 1;
        }
    }
}

/// One player's cards on the table and in hand during a round (the Python `Side`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// Hand cards as bits.
    pub hand: u32,
    /// The four piles.
    pub piles: [Pile; NUM_PILES],
    /// Pile cards lying face down, as bits.
    pub down: u32,
    /// Cards the opponent's snake blocked (until this player plays another card), as bits.
    pub blocked: u32,
    /// The available cards (hand and face-up pile tops) as bits: a cache of the fields above.
    pub available: u32,
    /// The face-down cards lying on top of a pile, to be turned up when the trick ends, as
    /// bits: a cache of the fields above.
    pub exposed: u32,
}

impl Side {
    /// A side just dealt: four piles of a face-down card under a face-up one, and a hand (with
    /// fewer lands, `piles` piles and the other places empty).
    fn dealt(order: &[u8], piles: usize, hand: usize) -> Side {
        let mut side = Side::default();
        for pile in 0..piles {
            let (down, up) = (order[pile], order[piles + pile]);
            side.piles[pile] = Pile { cards: [down, up, 0, 0, 0, 0, 0, 0], len: 2 };
            side.down |= 1 << down;
            side.available |= 1 << up;
        }
        for &card in &order[2 * piles..2 * piles + hand] {
            side.hand |= 1 << card;
        }
        side.available |= side.hand;
        side
    }

    /// The available cards that are not blocked.
    #[inline]
    pub fn free(&self) -> u32 {
        self.available & !self.blocked
    }

    /// The face-up top cards of the piles, as bits.
    pub fn face_up_tops(&self) -> u32 {
        self.available & !self.hand
    }

    /// The non-empty piles as bits (bit `i`: pile `i`).
    #[inline]
    fn pile_mask(&self) -> u32 {
        let mut mask = 0;
        for (index, pile) in self.piles.iter().enumerate() {
            if pile.len > 0 {
                mask |= 1 << index;
            }
        }
        mask
    }

    /// Take `card` from the hand or the top of its pile (`_without`); the player's blocks are
    /// lifted. True when it came from the hand.
    #[inline]
    fn remove(&mut self, card: u8) -> bool {
        let bit = 1u32 << card;
        self.available ^= bit;
        self.blocked = 0;
        if self.hand & bit != 0 {
            self.hand ^= bit;
            return true;
        }
        for pile in self.piles.iter_mut() {
            if pile.top() == Some(card) {
                pile.pop();
                if let Some(top) = pile.top() {
                    self.uncover(top);
                }
                break;
            }
        }
        false
    }

    /// `top` has come to the top of a pile: available if face up, else to be turned up.
    #[inline]
    fn uncover(&mut self, top: u8) {
        let bit = 1u32 << top;
        if self.down & bit == 0 {
            self.available |= bit;
        } else {
            self.exposed |= bit;
        }
    }

    /// Turn up every face-down card lying on top of a pile (at the end of a trick).
    #[inline]
    fn turn_up(&mut self) {
        self.down &= !self.exposed;
        self.available |= self.exposed;
        self.exposed = 0;
    }
}

/// A player's scoring pile in the current round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub size: u8,
    pub crowns: i8,
    pub hyenas: u8,
}

impl Tally {
    #[inline]
    fn add(&mut self, card: u8) {
        self.size += 1;
        self.crowns += crowns(card);
        self.hyenas += u8::from(is_hyena(card));
    }
}

/// A void made while hand cards were blocked by blind picks (the Python `BlindVoid`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlindVoid {
    /// The lands as bits (grassland 1 ... sky 16).
    pub lands: u8,
    pub picks: u8,
    pub candidates: u8,
    pub resolved: u8,
}

/// What the play of a round showed of each player's hand (the Python `Memory`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Lands of which the hand holds no card besides shown ones, as bits.
    pub void: [u8; 2],
    pub blind: [[BlindVoid; MAX_BLIND]; 2],
    pub blind_len: [u8; 2],
    /// Hand cards a shown blind pick revealed, not played since, as bits.
    pub shown: [u32; 2],
}

impl Memory {
    /// The weaker voids of `player`.
    pub fn blind_of(&self, player: usize) -> &[BlindVoid] {
        &self.blind[player][..self.blind_len[player] as usize]
    }

    #[inline]
    fn watches(&self, player: usize) -> bool {
        self.blind_len[player] > 0 || self.shown[player] != 0
    }

    /// After `player` played `card` from their hand: a weaker void whose land it is has one
    /// more pick explained (all of them: a plain void), and a shown card is no longer held.
    fn after_hand_play(&mut self, player: usize, card: u8) {
        if !self.watches(player) {
            return;
        }
        let bit = land_bit(card);
        let mut kept = 0;
        for index in 0..self.blind_len[player] as usize {
            let mut record = self.blind[player][index];
            if record.lands & bit != 0 {
                record.resolved += 1;
                if record.resolved == record.picks {
                    self.void[player] |= record.lands;
                    continue;
                }
            }
            self.blind[player][kept] = record;
            kept += 1;
        }
        self.blind_len[player] = kept as u8;
        self.shown[player] &= !(1 << card);
    }

    /// After `player` answered `led` with `card` of another land, holding `hand` with
    /// `blocked` cards blocked and `available` cards available.
    #[allow(clippy::too_many_arguments)]
    fn after_answer(&mut self, player: usize, hand: u32, blocked: u32, available: u32, led: u8, card: u8, shown: bool) {
        let lands = answer_void(led, card);
        if lands & !self.void[player] == 0 {
            return;
        }
        if blocked != 0 && !shown {
            let picks = (blocked & hand).count_ones();
            let all_blocked = available & !blocked == 0;
            if picks > 0 && !all_blocked {
                let candidates = hand.count_ones() - (hand >> card & 1);
                let len = self.blind_len[player] as usize;
                if len < MAX_BLIND {
                    self.blind[player][len] =
                        BlindVoid { lands, picks: picks as u8, candidates: candidates as u8, resolved: 0 };
                    self.blind_len[player] += 1;
                }
                return;
            }
        }
        let void = self.void[player] | lands;
        self.void[player] = void;
        let mut kept = 0;
        for index in 0..self.blind_len[player] as usize {
            let record = self.blind[player][index];
            if record.lands & !void != 0 {
                self.blind[player][kept] = record;
                kept += 1;
            }
        }
        self.blind_len[player] = kept as u8;
    }
}

/// The most recent trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastTrick {
    pub leader: u8,
    /// The leader's card, then the follower's.
    pub cards: [u8; 2],
    pub stance: Stance,
    pub winner: u8,
}

/// How a round ended (its number is its place in the list plus one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundResult {
    pub winner: u8,
    pub crowns: [i8; 2],
    pub hyenas: [u8; 2],
    pub fourth_hyena: bool,
}

/// A position of Awimbawé (the Python `AwimbaweState` with its `Match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AwimbaweState {
    /// The round being played, or about to be dealt (from 1).
    pub round: u8,
    pub wins: [u8; 2],
    pub results: [RoundResult; MAX_ROUNDS],
    pub results_len: u8,
    /// Who leads the first trick of this round, once known ([`NOBODY`] before).
    pub round_leader: u8,
    pub sides: [Side; 2],
    pub tallies: [Tally; 2],
    pub stage: Stage,
    /// Who acts at a decision; at the blind pick the snake's player; between rounds the loser.
    pub actor: u8,
    /// The cards of the current trick, the leader's first.
    pub trick: [u8; 2],
    pub trick_len: u8,
    /// Whom a cheetah of this trick named to lead the next one ([`NOBODY`]: nobody yet).
    pub next_leader: u8,
    pub last_trick: Option<LastTrick>,
    pub memory: Memory,
    /// The cards taken into the scoring piles this round, as bits (a cache).
    pub played: u32,
}

impl AwimbaweState {
    /// The results so far.
    pub fn results(&self) -> &[RoundResult] {
        &self.results[..self.results_len as usize]
    }

    /// The cards of the current trick.
    pub fn trick(&self) -> &[u8] {
        &self.trick[..self.trick_len as usize]
    }

    /// Who leads the current trick (the Python `leader` property).
    pub fn leader(&self) -> u8 {
        let actor = self.actor;
        match self.stage {
            Stage::Play => {
                if self.trick_len > 0 {
                    1 - actor
                } else {
                    actor
                }
            }
            Stage::Rhinoceros | Stage::Snake | Stage::Cheetah | Stage::BlindPick => {
                if self.trick_len == 1 {
                    actor
                } else {
                    1 - actor
                }
            }
            _ => {
                if self.round_leader == NOBODY {
                    actor
                } else {
                    self.round_leader
                }
            }
        }
    }

    /// The player to decide now, if any.
    pub fn current_player(&self) -> Option<u8> {
        match self.stage {
            Stage::Deal | Stage::TieBreak | Stage::BlindPick | Stage::Over => None,
            _ => Some(self.actor),
        }
    }

    /// The hand cards the snake's blind pick can fall on, as bits.
    pub fn pick_candidates(&self) -> u32 {
        let victim = &self.sides[1 - self.actor as usize];
        victim.hand & !victim.blocked
    }
}

/// A chance outcome: the whole deal (the 28 cards in `Deal.from_order` order), who leads the
/// first round on a tie of crowns, or the card a blind pick falls on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Deal([u8; NUM_CARDS]),
    TieBreak(u8),
    Pick(u8),
}

/// Awimbawé for two players with its options.
#[derive(Clone, Debug)]
pub struct Awimbawe {
    pub config: Config,
}

/// Append the ids of the cards in `bits` (their codes), in increasing order.
#[inline]
fn push_cards(mut bits: u32, out: &mut Vec<u32>) {
    while bits != 0 {
        out.push(bits.trailing_zeros());
        bits &= bits - 1;
    }
}

/// Append fighting with each eagle of `eagles` (bits 0-3), then fleeing with each.
#[inline]
fn push_eagle_choices(eagles: u32, out: &mut Vec<u32>) {
    for base in [PLAY_FIGHT_BASE, PLAY_FLEE_BASE] {
        for index in 0..4 {
            if eagles >> index & 1 != 0 {
                out.push(base + index);
            }
        }
    }
}

/// The card and the stance of a play's id (ids below [`RHINO_BASE`]).
#[inline]
fn play_of(id: u32) -> (u8, Stance) {
    if id < PLAY_FIGHT_BASE {
        (id as u8, Stance::None)
    } else if id < PLAY_FLEE_BASE {
        ((id - PLAY_FIGHT_BASE) as u8 + FIRST_EAGLE, Stance::Fight)
    } else {
        ((id - PLAY_FLEE_BASE) as u8 + FIRST_EAGLE, Stance::Flee)
    }
}

/// The rhinoceros's move of an id: (source pile, destination pile).
#[inline]
pub fn rhino_of(id: u32) -> (usize, usize) {
    let index = (id - RHINO_BASE) as usize;
    let (source, rest) = (index / (NUM_PILES - 1), index % (NUM_PILES - 1));
    (source, if rest < source { rest } else { rest + 1 })
}

/// The id of the rhinoceros's move from `source` to `dest`.
#[inline]
fn rhino_id(source: usize, dest: usize) -> u32 {
    RHINO_BASE + (source * (NUM_PILES - 1) + dest - usize::from(dest > source)) as u32
}

/// Whether the led card takes the trick against `follow` (an eagle's `stance` given).
#[inline]
fn leader_wins(lead: u8, follow: u8, stance: Stance, broken_mouse: bool) -> bool {
    if land(lead) == land(follow) {
        let (lv, fv) = (value(lead), value(follow));
        if !broken_mouse {
            if lv == 1 && fv == 6 {
                return true; // the mouse beats the elephant of its land
            }
            if lv == 6 && fv == 1 {
                return false;
            }
        }
        return lv > fv;
    }
    if follow >= FIRST_EAGLE {
        return stance == Stance::Flee;
    }
    true // a discard loses
}

impl Awimbawe {
    /// The rhinoceros's moves on `side`'s piles, in id order.
    fn rhino_moves(&self, side: &Side, out: &mut Vec<u32>) {
        let mask = side.pile_mask();
        let anywhere = self.config.rhino_to_empty_pile;
        for source in 0..NUM_PILES {
            if mask >> source & 1 == 0 {
                continue;
            }
            for dest in 0..self.config.piles() {
                if dest != source && (anywhere || mask >> dest & 1 != 0) {
                    out.push(rhino_id(source, dest));
                }
            }
        }
    }

    /// Whether the rhinoceros can move any card of `side`.
    #[inline]
    fn rhino_can_move(&self, side: &Side) -> bool {
        let piles = side.pile_mask().count_ones();
        piles >= 2 || (piles == 1 && self.config.rhino_to_empty_pile && self.config.piles() >= 2)
    }

    /// The snake's targets on `side`: bit `i` for the free top of pile `i`, bit 4 for the hand.
    fn snake_blocks(side: &Side) -> u32 {
        let free = side.free();
        let mut mask = 0u32;
        for (index, pile) in side.piles.iter().enumerate() {
            if let Some(top) = pile.top() {
                if free >> top & 1 != 0 {
                    mask |= 1 << index;
                }
            }
        }
        if free.count_ones() > mask.count_ones() {
            mask |= 1 << NUM_PILES;
        }
        mask
    }

    /// The legal plays of the player to act (`_plays`).
    fn plays(&self, state: &AwimbaweState, out: &mut Vec<u32>) {
        let side = &state.sides[state.actor as usize];
        let every = side.available;
        let mut bits = every;
        if side.blocked != 0 {
            let free = bits & !side.blocked;
            if free != 0 {
                bits = free;
            }
        }
        if state.trick_len > 0 {
            let led = state.trick[0];
            let lands = land_cards(land(led));
            let suit = bits & lands;
            if suit != 0 {
                return push_cards(suit, out);
            }
            let bound = side.blocked != 0 && self.config.duties_bound;
            if bound && every & lands != 0 {
                // a duty only blocked cards can meet lifts their block
                return push_cards(every & lands, out);
            }
            if led < FIRST_EAGLE && bits & EAGLE_BITS != 0 {
                return push_eagle_choices(bits >> FIRST_EAGLE, out);
            }
            if bound && led < FIRST_EAGLE && every & EAGLE_BITS != 0 {
                return push_eagle_choices(every >> FIRST_EAGLE, out);
            }
        }
        push_cards(bits, out)
    }

    /// The step a played card's power opens against `opponent`, or `Play` when none.
    #[inline]
    fn power_stage(&self, card: u8, opponent: &Side) -> Stage {
        if card >= FIRST_EAGLE {
            return Stage::Play;
        }
        match value(card) {
            2 if self.rhino_can_move(opponent) => Stage::Rhinoceros,
            3 => Stage::Cheetah,
            5 if opponent.free().count_ones() >= 2 => Stage::Snake,
            _ => Stage::Play,
        }
    }

    fn apply_play(&self, state: &mut AwimbaweState, action: u32) {
        let (card, stance) = play_of(action);
        let player = state.actor as usize;
        let before = &state.sides[player];
        let (hand, blocked, available) = (before.hand, before.blocked, before.available);
        if state.sides[player].remove(card) {
            state.memory.after_hand_play(player, card);
        }
        if state.trick_len == 1 && land(state.trick[0]) != land(card) {
            // the answer shows lands the hand lacks (with bound duties a block excuses none)
            let blocked = if self.config.duties_bound { 0 } else { blocked };
            state.memory.after_answer(
                player,
                hand,
                blocked,
                available,
                state.trick[0],
                card,
                self.config.blind_pick_shown,
            );
        }
        state.trick[state.trick_len as usize & 1] = card;
        state.trick_len += 1;
        let stage = self.power_stage(card, &state.sides[1 - player]);
        if stage == Stage::Play && state.trick_len == 2 {
            return self.settle(state, stance);
        }
        state.stage = stage;
        state.actor = if stage == Stage::Play { 1 - player as u8 } else { player as u8 };
    }

    fn apply_rhino(&self, state: &mut AwimbaweState, action: u32) {
        let (source, dest) = rhino_of(action);
        let side = &mut state.sides[1 - state.actor as usize];
        if let Some(card) = side.piles[source].top() {
            let bit = 1u32 << card;
            side.piles[source].pop();
            if side.down & bit == 0 {
                // a face-up top card stops being available, unless it tops an empty place
                side.available ^= bit;
                if side.piles[dest].len == 0 {
                    side.available |= bit;
                }
            } else if side.piles[dest].len > 0 {
                side.exposed &= !bit; // a face-down top goes under: no longer on top
            }
            if let Some(top) = side.piles[source].top() {
                side.uncover(top);
            }
            side.piles[dest].push_bottom(card);
        }
        self.after_card(state);
    }

    fn block(&self, state: &mut AwimbaweState, card: u8) {
        state.sides[1 - state.actor as usize].blocked |= 1 << card;
        self.after_card(state);
    }

    /// Go on after a card's power: the follower plays, or the trick is settled.
    fn after_card(&self, state: &mut AwimbaweState) {
        if state.trick_len == 1 {
            state.stage = Stage::Play;
            state.actor = 1 - state.actor;
        } else {
            self.settle(state, Stance::None);
        }
    }

    /// Settle a full trick: its winner, the scoring piles, turning up, then the next trick or
    /// the end of the round.
    fn settle(&self, state: &mut AwimbaweState, stance: Stance) {
        let leader = 1 - state.actor;
        let (lead, follow) = (state.trick[0], state.trick[1]);
        let winner = if leader_wins(lead, follow, stance, self.config.broken_mouse) { leader } else { 1 - leader };
        if stance == Stance::Flee {
            state.tallies[leader as usize].add(lead);
            state.tallies[1 - leader as usize].add(follow);
        } else {
            state.tallies[winner as usize].add(lead);
            state.tallies[winner as usize].add(follow);
        }
        state.sides[0].turn_up();
        state.sides[1].turn_up();
        state.last_trick = Some(LastTrick { leader, cards: [lead, follow], stance, winner });
        state.played |= 1 << lead | 1 << follow;
        state.trick_len = 0;
        let [first, second] = state.tallies;
        let lose = self.config.hyenas_to_lose();
        if first.hyenas == lose
            || second.hyenas == lose
            || usize::from(first.size + second.size) == self.config.deck_size()
        {
            return self.end_round(state);
        }
        state.stage = Stage::Play;
        state.actor = if state.next_leader == NOBODY { winner } else { state.next_leader };
        state.next_leader = NOBODY;
    }

    fn end_round(&self, state: &mut AwimbaweState) {
        let [first, second] = state.tallies;
        let crowns = [first.crowns, second.crowns];
        let hyenas = [first.hyenas, second.hyenas];
        // the taker of the fourth (last) hyena loses; otherwise more crowns win (45 in all, odd
        // with fewer lands too: no tie)
        let lose = self.config.hyenas_to_lose();
        let fourth = hyenas.contains(&lose);
        let loser = if fourth { u8::from(hyenas[0] != lose) } else { u8::from(crowns[1] < crowns[0]) };
        let winner = 1 - loser;
        let index = (state.results_len as usize).min(state.results.len() - 1);
        state.results[index] = RoundResult { winner, crowns, hyenas, fourth_hyena: fourth };
        state.results_len = index as u8 + 1;
        state.wins[winner as usize] += 1;
        let over = state.wins[winner as usize] >= self.config.rounds_to_win;
        if !over {
            state.round += 1;
        }
        state.round_leader = NOBODY;
        state.sides = [Side::default(); 2];
        state.tallies = [Tally::default(); 2];
        state.stage = if over {
            Stage::Over
        } else if self.config.leader_choice_after_deal {
            Stage::Deal
        } else {
            Stage::ChooseLeader
        };
        state.actor = loser;
        state.trick_len = 0;
        state.next_leader = NOBODY;
        state.memory = Memory::default();
        state.played = 0;
    }

    /// A round begins: `leader` leads its first trick.
    fn start_round(&self, state: &mut AwimbaweState, leader: u8) {
        state.round_leader = leader;
        state.tallies = [Tally::default(); 2];
        state.stage = Stage::Play;
        state.actor = leader;
        state.trick_len = 0;
        state.next_leader = NOBODY;
        state.last_trick = None;
        state.memory = Memory::default();
        state.played = 0;
    }

    /// Deal `order` (the cards in `Deal.from_order` order) and find the round's leader.
    fn apply_deal(&self, state: &mut AwimbaweState, order: &[u8; NUM_CARDS]) {
        let (piles, hand) = (self.config.piles(), self.config.hand_size());
        let half = self.config.deck_size() / 2;
        state.sides = [Side::dealt(&order[..half], piles, hand), Side::dealt(&order[half..], piles, hand)];
        state.tallies = [Tally::default(); 2];
        let mut stage = Stage::Play;
        let mut leader = state.round_leader;
        if state.round == 1 {
            let face_up = |start: usize| -> i32 {
                order[start + piles..start + 2 * piles].iter().map(|&c| i32::from(crowns(c))).sum()
            };
            let (mine, theirs) = (face_up(0), face_up(half));
            if mine != theirs {
                leader = u8::from(mine >= theirs);
            } else if let Some(seat) = self.config.tie_break_seat {
                leader = seat;
            } else {
                stage = Stage::TieBreak;
                leader = NOBODY;
            }
        } else if self.config.leader_choice_after_deal {
            stage = Stage::ChooseLeader;
            leader = NOBODY;
        }
        if leader == NOBODY {
            state.actor = match state.results().last() {
                Some(result) => 1 - result.winner,
                None => 0,
            };
            state.round_leader = NOBODY;
            state.stage = stage;
            state.trick_len = 0;
            state.next_leader = NOBODY;
            state.last_trick = None;
            state.memory = Memory::default();
            state.played = 0;
            return;
        }
        self.start_round(state, leader);
    }

    fn apply_choice(&self, state: &mut AwimbaweState, action: u32) {
        let chosen = if action == LEAD_ME { state.actor } else { 1 - state.actor };
        if self.config.leader_choice_after_deal {
            return self.start_round(state, chosen);
        }
        state.round_leader = chosen;
        state.stage = Stage::Deal;
        state.actor = chosen;
        state.trick_len = 0;
        state.next_leader = NOBODY;
        state.memory = Memory::default();
    }

    /// The blind pick falls on `card`: shown to both when the option says so, then blocked.
    fn apply_pick(&self, state: &mut AwimbaweState, card: u8) {
        if self.config.blind_pick_shown {
            state.memory.shown[1 - state.actor as usize] |= 1 << card;
        }
        self.block(state, card);
    }

    /// Which rule a play outside the legal actions breaks (`_play_fault`).
    fn play_fault(&self, state: &AwimbaweState, action: u32) -> Refusal {
        let (card, stance) = play_of(action);
        let side = &state.sides[state.actor as usize];
        let bit = 1u32 << card;
        let fault = |rule: &'static str| Refusal::Illegal { rule, detail: String::new() };
        if side.available & bit == 0 {
            return fault(rule::AVAILABLE);
        }
        let free = side.free();
        let mut playable = if free != 0 { free } else { side.available };
        if state.trick_len > 0 && side.blocked != 0 && self.config.duties_bound {
            playable = side.available;
        } else if playable & bit == 0 {
            return fault(rule::BLOCKED);
        }
        if state.trick_len > 0 {
            let led = land(state.trick[0]);
            let has_led = playable & land_cards(led) != 0;
            if land(card) != led && has_led {
                return fault(rule::FOLLOW);
            }
            if led != SKY && card < FIRST_EAGLE && !has_led && playable & EAGLE_BITS != 0 {
                return fault(rule::EAGLE_DUTY);
            }
            if card >= FIRST_EAGLE && led != SKY && stance == Stance::None {
                return fault(rule::EAGLE_CHOICE);
            }
        }
        if side.blocked & bit != 0 {
            return fault(rule::BLOCKED);
        }
        fault(rule::EAGLE_FIGHTS)
    }
}

/// The last trick as canonical integers: 0 for none, else 1, its leader, its two cards, the
/// answer's stance and the winner (what the canonical code and a belief code both hold).
pub(super) fn last_trick_code(last_trick: Option<LastTrick>, out: &mut Vec<i64>) {
    match last_trick {
        None => out.push(0),
        Some(last) => out.extend([
            1,
            i64::from(last.leader),
            i64::from(last.cards[0]),
            i64::from(last.cards[1]),
            last.stance as i64,
            i64::from(last.winner),
        ]),
    }
}

impl Rules for Awimbawe {
    type State = AwimbaweState;
    type Outcome = Outcome;

    const ID: &'static str = "awimbawe";

    fn new(players: usize, options: &Options) -> Result<Self, Refusal> {
        if players != 2 {
            return Err(Refusal::Option(format!("Awimbawé is played by 2 players, not {players}")));
        }
        Ok(Awimbawe { config: Config::from_options(options)? })
    }

    fn players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn observation_size(&self) -> usize {
        super::encode::SIZE
    }

    fn initial_state(&self) -> AwimbaweState {
        AwimbaweState {
            round: 1,
            wins: [0, 0],
            results: [RoundResult::default(); MAX_ROUNDS],
            results_len: 0,
            round_leader: NOBODY,
            sides: [Side::default(); 2],
            tallies: [Tally::default(); 2],
            stage: Stage::Deal,
            actor: 0,
            trick: [0, 0],
            trick_len: 0,
            next_leader: NOBODY,
            last_trick: None,
            memory: Memory::default(),
            played: 0,
        }
    }

    #[inline]
    fn node(&self, state: &AwimbaweState) -> Node {
        match state.stage {
            Stage::Over => Node::Terminal,
            Stage::Deal | Stage::TieBreak | Stage::BlindPick => Node::Chance,
            _ => Node::Decision(state.actor as usize),
        }
    }

    fn legal_actions(&self, state: &AwimbaweState, out: &mut Vec<u32>) {
        match state.stage {
            Stage::Play => self.plays(state, out),
            Stage::Cheetah | Stage::ChooseLeader => out.extend_from_slice(&[LEAD_ME, LEAD_OPPONENT]),
            Stage::Rhinoceros => {
                self.rhino_moves(&state.sides[1 - state.actor as usize], out);
                out.push(DECLINE_ID);
            }
            Stage::Snake => {
                let targets = Self::snake_blocks(&state.sides[1 - state.actor as usize]);
                push_cards(targets, out); // bit i is pile i: ids from BLOCK_BASE
                let start = out.len() - targets.count_ones() as usize;
                for id in &mut out[start..] {
                    *id += BLOCK_BASE;
                }
                out.push(DECLINE_ID);
            }
            _ => {}
        }
    }

    fn apply_action(&self, state: &mut AwimbaweState, action: u32) {
        match state.stage {
            Stage::Play => self.apply_play(state, action),
            Stage::Rhinoceros => {
                if action == DECLINE_ID {
                    self.after_card(state)
                } else {
                    self.apply_rhino(state, action)
                }
            }
            Stage::Snake => {
                if action == DECLINE_ID {
                    self.after_card(state)
                } else if action == BLOCK_HAND {
                    state.stage = Stage::BlindPick;
                } else {
                    let victim = &state.sides[1 - state.actor as usize];
                    let pile = (action - BLOCK_BASE) as usize % NUM_PILES;
                    if let Some(card) = victim.piles[pile].top() {
                        self.block(state, card);
                    }
                }
            }
            Stage::Cheetah => {
                state.next_leader = if action == LEAD_ME { state.actor } else { 1 - state.actor };
                self.after_card(state);
            }
            Stage::ChooseLeader => self.apply_choice(state, action),
            _ => {}
        }
    }

    fn refusal(&self, state: &AwimbaweState, action: u32) -> Refusal {
        let fault = |rule: &'static str| Refusal::Illegal { rule, detail: format!("action {action}") };
        match state.stage {
            Stage::Play if action < RHINO_BASE => self.play_fault(state, action),
            Stage::Play => fault(rule::PLAY_NOW),
            Stage::Rhinoceros if (RHINO_BASE..BLOCK_BASE).contains(&action) => {
                let (source, dest) = rhino_of(action);
                let victim = &state.sides[1 - state.actor as usize];
                if victim.piles[source].len == 0 {
                    fault(rule::RHINO_SOURCE)
                } else if self.config.rhino_to_empty_pile {
                    fault(rule::RHINO_DEST_ANY)
                } else {
                    let _ = dest;
                    fault(rule::RHINO_DEST)
                }
            }
            Stage::Rhinoceros => fault(rule::RHINO_NOW),
            Stage::Snake if (BLOCK_BASE..DECLINE_ID).contains(&action) => {
                let victim = &state.sides[1 - state.actor as usize];
                let top = if action < BLOCK_HAND { victim.piles[(action - BLOCK_BASE) as usize].top() } else { None };
                match top {
                    Some(card) if victim.blocked >> card & 1 != 0 => fault(rule::SNAKE_BLOCKED),
                    _ => fault(rule::SNAKE_TARGET),
                }
            }
            Stage::Snake => fault(rule::SNAKE_NOW),
            Stage::Cheetah => fault(rule::CHEETAH_NOW),
            Stage::ChooseLeader => fault(rule::CHOOSE_NOW),
            _ => fault(rule::GAME_OVER),
        }
    }

    fn chance_outcomes(&self, state: &AwimbaweState, out: &mut Vec<(Outcome, Prob)>) -> Result<(), Refusal> {
        match state.stage {
            Stage::Deal => Err(Refusal::NotEnumerable(
                "the deal has 21161079457366380052070400000 outcomes; sample it instead".into(),
            )),
            Stage::TieBreak => {
                out.push((Outcome::TieBreak(0), Prob::new(1, 2)));
                out.push((Outcome::TieBreak(1), Prob::new(1, 2)));
                Ok(())
            }
            Stage::BlindPick => {
                let mut cards = state.pick_candidates();
                let count = u64::from(cards.count_ones());
                while cards != 0 {
                    out.push((Outcome::Pick(cards.trailing_zeros() as u8), Prob::new(1, count)));
                    cards &= cards - 1;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn sample_chance(&self, state: &AwimbaweState, rng: &mut Rng) -> Outcome {
        match state.stage {
            Stage::TieBreak => Outcome::TieBreak(rng.gen_range(0..2u8)),
            Stage::BlindPick => Outcome::Pick(random_card(state.pick_candidates(), rng)),
            _ => Outcome::Deal(random_order(self.config.deck(), rng)),
        }
    }

    fn random_chance(&self, state: &mut AwimbaweState, rng: &mut Rng) {
        match state.stage {
            Stage::Deal => {
                let order = random_order(self.config.deck(), rng);
                self.apply_deal(state, &order);
            }
            Stage::TieBreak => {
                let leader = rng.gen_range(0..2u8);
                self.start_round(state, leader);
            }
            Stage::BlindPick => {
                let card = random_card(state.pick_candidates(), rng);
                self.apply_pick(state, card);
            }
            _ => {}
        }
    }

    fn apply_outcome(&self, state: &mut AwimbaweState, outcome: &Outcome) {
        match *outcome {
            Outcome::Deal(ref order) => self.apply_deal(state, order),
            Outcome::TieBreak(leader) => self.start_round(state, leader),
            Outcome::Pick(card) => self.apply_pick(state, card),
        }
    }

    fn check_outcome(&self, state: &AwimbaweState, outcome: &Outcome) -> Result<(), Refusal> {
        let refuse = |rule: &'static str, what: String| Err(Refusal::Illegal { rule, detail: what });
        match (*outcome, state.stage) {
            (Outcome::Deal(order), Stage::Deal) => {
                let size = self.config.deck_size();
                let cards = order[..size]
                    .iter()
                    .fold(0u32, |bits, &card| bits | 1u32.checked_shl(u32::from(card)).unwrap_or(0));
                if cards == self.config.deck() && order[size..].iter().all(|&card| card == 0) {
                    Ok(())
                } else {
                    refuse(rule::DEAL_COMPLETE, "not every card once".into())
                }
            }
            (Outcome::TieBreak(seat), Stage::TieBreak) if seat < 2 => Ok(()),
            (Outcome::TieBreak(seat), Stage::TieBreak) => refuse(rule::TIE_BREAK_SEAT, format!("seat {seat}")),
            (Outcome::Pick(card), Stage::BlindPick) if card < 32 && state.pick_candidates() >> card & 1 != 0 => Ok(()),
            (Outcome::Pick(card), Stage::BlindPick) => refuse(rule::PICK_HAND, format!("card {card}")),
            _ => Err(Refusal::Invalid("not a chance outcome of this step".into())),
        }
    }

    fn outcome_code(&self, outcome: &Outcome, out: &mut Vec<i64>) {
        match *outcome {
            Outcome::Deal(order) => {
                let half = self.config.deck_size() / 2;
                let piles = self.config.piles();
                for seat in 0..2 {
                    let cards = &order[seat * half..(seat + 1) * half];
                    out.extend(cards[..2 * piles].iter().map(|&c| i64::from(c)));
                    let mut hand = [0u8; HAND_SIZE];
                    let hand = &mut hand[..half - 2 * piles];
                    hand.copy_from_slice(&cards[2 * piles..]);
                    hand.sort_unstable();
                    out.extend(hand.iter().map(|&c| i64::from(c)));
                }
            }
            Outcome::TieBreak(seat) => out.push(i64::from(seat)),
            Outcome::Pick(card) => out.push(i64::from(card)),
        }
    }

    fn outcome_from_code(&self, state: &AwimbaweState, code: &[i64]) -> Result<Outcome, Refusal> {
        let invalid = || Refusal::Invalid(format!("{code:?} is no chance outcome of Awimbawé here"));
        match state.stage {
            Stage::Deal => {
                if code.len() != self.config.deck_size() || code.iter().any(|&c| !(0..NUM_CARDS as i64).contains(&c)) {
                    return Err(invalid());
                }
                let mut order = [0u8; NUM_CARDS];
                for (slot, &card) in order.iter_mut().zip(code) {
                    *slot = card as u8;
                }
                Ok(Outcome::Deal(order))
            }
            Stage::TieBreak => match code {
                [seat @ 0..=1] => Ok(Outcome::TieBreak(*seat as u8)),
                _ => Err(invalid()),
            },
            Stage::BlindPick => match code {
                [card] if (0..NUM_CARDS as i64).contains(card) => Ok(Outcome::Pick(*card as u8)),
                _ => Err(invalid()),
            },
            _ => Err(invalid()),
        }
    }

    fn scores(&self, state: &AwimbaweState, out: &mut Vec<i64>) {
        out.extend(state.wins.iter().map(|&w| i64::from(w)));
    }

    fn winners(&self, state: &AwimbaweState) -> u32 {
        if state.stage != Stage::Over {
            return 0;
        }
        (0..2).filter(|&seat| state.wins[seat] >= self.config.rounds_to_win).fold(0, |bits, seat| bits | 1 << seat)
    }

    fn observe(&self, state: &AwimbaweState, seat: Option<usize>, out: &mut [f32]) {
        super::encode::observe(&self.config, state, seat, out);
    }

    fn canonical(&self, state: &AwimbaweState, out: &mut Vec<i64>) {
        let seat = |s: u8| if s == NOBODY { -1 } else { i64::from(s) };
        out.extend([i64::from(state.round), i64::from(state.wins[0]), i64::from(state.wins[1])]);
        out.push(i64::from(state.results_len));
        for (index, result) in state.results().iter().enumerate() {
            out.extend([
                index as i64 + 1,
                i64::from(result.winner),
                i64::from(result.crowns[0]),
                i64::from(result.crowns[1]),
                i64::from(result.hyenas[0]),
                i64::from(result.hyenas[1]),
                i64::from(result.fourth_hyena),
            ]);
        }
        out.extend([seat(state.round_leader), state.stage as i64, i64::from(state.actor)]);
        out.push(i64::from(state.trick_len));
        out.extend(state.trick().iter().map(|&c| i64::from(c)));
        out.push(seat(state.next_leader));
        last_trick_code(state.last_trick, out);
        for side in &state.sides {
            out.push(i64::from(side.hand));
            for pile in &side.piles {
                out.push(i64::from(pile.len));
                out.extend(pile.cards().iter().map(|&c| i64::from(c)));
            }
            out.extend([i64::from(side.down), i64::from(side.blocked)]);
        }
        for tally in &state.tallies {
            out.extend([i64::from(tally.size), i64::from(tally.crowns), i64::from(tally.hyenas)]);
        }
        let memory = &state.memory;
        out.extend([i64::from(memory.void[0]), i64::from(memory.void[1])]);
        for player in 0..2 {
            let records = memory.blind_of(player);
            out.push(records.len() as i64);
            for record in records {
                out.extend([
                    i64::from(record.lands),
                    i64::from(record.picks),
                    i64::from(record.candidates),
                    i64::from(record.resolved),
                ]);
            }
        }
        out.extend([i64::from(memory.shown[0]), i64::from(memory.shown[1])]);
    }
}

/// One of the cards of `cards` (not empty), each equally likely.
#[inline]
fn random_card(cards: u32, rng: &mut Rng) -> u8 {
    let count = cards.count_ones().max(1);
    let mut left = cards;
    for _ in 0..rng.gen_range(0..count) {
        left &= left.wrapping_sub(1);
    }
    left.trailing_zeros().min(NUM_CARDS as u32 - 1) as u8
}

/// The 28 cards (the cards of `deck`, then zeros) in an order drawn uniformly (Fisher-Yates).
#[inline]
fn random_order(deck: u32, rng: &mut Rng) -> [u8; NUM_CARDS] {
    let mut order = [0u8; NUM_CARDS];
    let mut size = 0;
    let mut left = deck;
    while left != 0 {
        order[size] = left.trailing_zeros() as u8;
        left &= left - 1;
        size += 1;
    }
    for index in (1..size).rev() {
        let other = rng.gen_range(0..=index as u32) as usize;
        order.swap(index, other);
    }
    order
}
