//! Awimbawé's belief sampling, a complete state drawn from one player's view (the mirror of
//! `spieltisch/games/awimbawe/belief.py`), and its search hints ([`Kit`]).
//!
//! The Python face packs a view into a flat code of integers (`spieltisch/native/awimbawe.py`,
//! `belief_code`); [`read_belief`] reads it back into a [`Belief`]: the state with every hidden
//! place left open (the match, the tallies, the stage, the trick, the round's memory), each
//! seat's cards as the viewer knows them ([`Seat`]) and the unseen cards. A code that is no
//! view, or a view no state can show, is refused; everything read is bounded.
//!
//! [`sample`] draws as `sample_state` draws, with the same distribution: the hidden hands
//! uniformly among those that keep the voids (constrained dealing: with two hidden hands, first
//! how many cards of the lands both may hold go to each, in proportion to the hand pairs with
//! those counts), accepted with probability `weight / largest weight` when blind voids weigh
//! them; the unseen cards left over shuffled onto the face-down places; blind blocks on a
//! uniform choice of the hand's other cards. Pure: every draw from the generator passed in.

use rand::Rng as _;

use super::bots::evaluate;
use super::model::{
    land_cards, Config, Stage, ALL_CARDS, HAND_SIZE, HYENAS_TO_LOSE, LANDS_BOUNDS, MAX_PILE, NUM_CARDS, NUM_LANDS,
    NUM_PILES, ROUNDS_BOUNDS,
};
use super::rules::{
    Awimbawe, AwimbaweState, BlindVoid, LastTrick, Pile, RoundResult, Side, Tally, MAX_BLIND, MAX_ROUNDS, NOBODY,
};
use crate::core::{Kit, Refusal, Rng, Rules};

/// Draws of the hands before a view whose blind voids reject them all keeps the last one
/// (Python gives up there; a view read by [`read_belief`] always has hands with weight).
pub const ATTEMPTS: usize = 100_000;
/// The longest code read: a view's code is at most about 130 integers.
pub const MAX_CODE: usize = 512;
/// The stages in the order of their numbers in a code (the Python `Stage`'s order).
const STAGES: [Stage; 9] = [
    Stage::Deal,
    Stage::TieBreak,
    Stage::ChooseLeader,
    Stage::Play,
    Stage::Rhinoceros,
    Stage::Snake,
    Stage::BlindPick,
    Stage::Cheetah,
    Stage::Over,
];
/// The largest net crowns a code may give one side or one round (45 are in the deck).
const MAX_CROWNS: i64 = 64;

/// What is known of a hand whose cards are drawn: how many to draw, and what the play has
/// shown about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiddenHand {
    /// Hand cards to draw (the hand less its `shown` cards).
    pub unknown: u8,
    /// Lands the hand holds no card of besides the shown ones, as bits.
    pub void: u8,
    pub blind: [BlindVoid; MAX_BLIND],
    pub blind_len: u8,
    /// Cards known to be in the hand (shown by a blind pick), as bits.
    pub shown: u32,
}

impl HiddenHand {
    /// The weaker voids.
    pub fn blind(&self) -> &[BlindVoid] {
        &self.blind[..usize::from(self.blind_len)]
    }
}

/// A hand as the viewer knows it: its cards, or what is known of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand {
    Seen(u32),
    Hidden(HiddenHand),
}

/// One pile as the viewer sees it: its cards bottom first, `hidden` the face-down places
/// (bit `i`: place `i`), whose cards are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewPile {
    pub cards: [u8; MAX_PILE],
    pub len: u8,
    pub hidden: u8,
}

/// One player's cards as the viewer knows them: the seen ones where they lie, and the places
/// to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub piles: [ViewPile; NUM_PILES],
    pub hand: Hand,
    /// The blocked cards the viewer can name, as bits.
    pub blocked: u32,
    /// Blocked hand cards the viewer cannot name: drawn among the hand's other cards.
    pub blind_blocks: u8,
}

impl Seat {
    /// The face-down places.
    fn places(&self) -> u32 {
        self.piles.iter().map(|pile| pile.hidden.count_ones()).sum()
    }
}

/// What one seat (or a spectator) knows: everything a view shows that a state holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belief {
    /// The viewer (`None`: a spectator).
    pub viewer: Option<u8>,
    /// The state with its sides left empty: what [`sample`] keeps.
    pub known: AwimbaweState,
    pub seats: [Seat; 2],
    /// The cards the viewer has not seen, as bits (none between rounds).
    pub pool: u32,
}

/// Reads a code from the front, every value checked against its range.
struct Reader<'a> {
    code: &'a [i64],
    at: usize,
}

fn invalid(what: String) -> Refusal {
    Refusal::Invalid(format!("no view of Awimbawé: {what}"))
}

impl Reader<'_> {
    fn int(&mut self, what: &str, low: i64, high: i64) -> Result<i64, Refusal> {
        let value = *self.code.get(self.at).ok_or_else(|| invalid(format!("the code ends before the {what}")))?;
        if !(low..=high).contains(&value) {
            return Err(invalid(format!("the {what} is {value}, not {low} to {high}")));
        }
        self.at += 1;
        Ok(value)
    }

    fn small(&mut self, what: &str, low: i64, high: i64) -> Result<u8, Refusal> {
        Ok(self.int(what, low, high)? as u8)
    }

    fn flag(&mut self, what: &str) -> Result<bool, Refusal> {
        Ok(self.int(what, 0, 1)? == 1)
    }

    /// A seat, or [`NOBODY`] for -1.
    fn seat(&mut self, what: &str) -> Result<u8, Refusal> {
        Ok(match self.int(what, -1, 1)? {
            -1 => NOBODY,
            seat => seat as u8,
        })
    }

    fn card(&mut self, what: &str) -> Result<u8, Refusal> {
        self.small(what, 0, NUM_CARDS as i64 - 1)
    }

    fn cards(&mut self, what: &str) -> Result<u32, Refusal> {
        Ok(self.int(what, 0, i64::from(ALL_CARDS))? as u32)
    }
}

/// The belief of a view's code for the game of `config` (the layout is `belief_code`'s in
/// `spieltisch/native/awimbawe.py`); [`Refusal::Invalid`] for a code that is no view of
/// these options, or a view no state shows.
pub fn read_belief(config: &Config, code: &[i64]) -> Result<Belief, Refusal> {
    if code.len() > MAX_CODE {
        return Err(invalid(format!("{} integers, more than {MAX_CODE}", code.len())));
    }
    let mut read = Reader { code, at: 0 };
    let viewer = read.seat("viewer")?;
    let variant = (
        read.seat("tie-break seat")?,
        read.flag("rhino_to_empty_pile")?,
        read.flag("leader_choice_after_deal")?,
        read.flag("blind_pick_shown")?,
        read.small("rounds to win", ROUNDS_BOUNDS.0, ROUNDS_BOUNDS.1)?,
        read.small("lands", LANDS_BOUNDS.0, LANDS_BOUNDS.1)?,
    );
    let options = (
        config.tie_break_seat.unwrap_or(NOBODY),
        config.rhino_to_empty_pile,
        config.leader_choice_after_deal,
        config.blind_pick_shown,
        config.rounds_to_win,
        config.lands,
    );
    if variant != options {
        return Err(invalid(format!("the view is of options {variant:?}, not {options:?}")));
    }
    let mut known = Awimbawe { config: *config }.initial_state();
    known.round = read.small("round", 1, MAX_ROUNDS as i64)?;
    known.stage = STAGES[usize::from(read.small("stage", 0, STAGES.len() as i64 - 1)?)];
    let to_act = read.seat("player to act")?;
    let power_of = read.seat("power's player")?;
    let leader = read.small("leader", 0, 1)?;
    known.round_leader = read.seat("round's leader")?;
    known.next_leader = read.seat("next leader")?;
    known.played = read.cards("played cards")?;
    known.trick_len = read.small("trick's length", 0, 2)?;
    for index in 0..usize::from(known.trick_len) {
        known.trick[index] = read.card("trick's card")?;
    }
    if read.flag("last trick's presence")? {
        known.last_trick = Some(LastTrick {
            leader: read.small("last trick's leader", 0, 1)?,
            cards: [read.card("last trick's card")?, read.card("last trick's card")?],
            stance: [super::model::Stance::None, super::model::Stance::Fight, super::model::Stance::Flee]
                [usize::from(read.small("last trick's stance", 0, 2)?)],
            winner: read.small("last trick's winner", 0, 1)?,
        });
    }
    known.results_len = read.small("number of results", 0, MAX_ROUNDS as i64)?;
    for index in 0..usize::from(known.results_len) {
        read.int("result's number", index as i64 + 1, index as i64 + 1)?;
        known.results[index] = RoundResult {
            winner: read.small("result's winner", 0, 1)?,
            crowns: [
                read.int("result's crowns", -MAX_CROWNS, MAX_CROWNS)? as i8,
                read.int("result's crowns", -MAX_CROWNS, MAX_CROWNS)? as i8,
            ],
            hyenas: [read.small("result's hyenas", 0, 4)?, read.small("result's hyenas", 0, 4)?],
            fourth_hyena: read.flag("fourth hyena")?,
        };
    }
    let mut seats = [empty_seat(); 2];
    for (index, seat) in seats.iter_mut().enumerate() {
        *seat = read_seat(&mut read, &mut known, index, config)?;
    }
    if read.at != code.len() {
        return Err(invalid(format!("{} integers left over", code.len() - read.at)));
    }
    known.actor = if to_act != NOBODY {
        to_act
    } else if known.stage == Stage::BlindPick && power_of != NOBODY {
        power_of
    } else {
        leader
    };
    let pool = check(config, &known, &seats, viewer, to_act)?;
    check_round(config, &known, &seats, leader)?;
    Ok(Belief { viewer: if viewer == NOBODY { None } else { Some(viewer) }, known, seats, pool })
}

fn empty_seat() -> Seat {
    Seat { piles: [ViewPile::default(); NUM_PILES], hand: Hand::Seen(0), blocked: 0, blind_blocks: 0 }
}

/// One side of the code: the seat, and its tally, wins and memory into `known`.
fn read_seat(read: &mut Reader<'_>, known: &mut AwimbaweState, index: usize, config: &Config) -> Result<Seat, Refusal> {
    let hand = read.int("hand", -1, i64::from(ALL_CARDS))?;
    let hand_size = read.small("hand's size", 0, HAND_SIZE as i64)?;
    let mut piles = [ViewPile::default(); NUM_PILES];
    for pile in &mut piles {
        pile.len = read.small("pile's length", 0, MAX_PILE as i64)?;
        for place in 0..usize::from(pile.len) {
            match read.int("pile's card", -1, NUM_CARDS as i64 - 1)? {
                -1 => pile.hidden |= 1 << place,
                card => pile.cards[place] = card as u8,
            }
        }
    }
    let blocked = read.cards("blocked cards")?;
    let blind_blocks = read.small("unseen blocks", 0, HAND_SIZE as i64)?;
    let shown = read.cards("shown cards")?;
    let void = read.small("void", 0, (1 << NUM_LANDS) - 1)?;
    let blind_len = read.small("number of blind voids", 0, MAX_BLIND as i64)?;
    let mut blind = [BlindVoid::default(); MAX_BLIND];
    for record in blind.iter_mut().take(usize::from(blind_len)) {
        let lands = read.small("blind void's lands", 1, (1 << NUM_LANDS) - 1)?;
        let picks = read.small("blind void's picks", 1, HAND_SIZE as i64)?;
        let candidates = read.small("blind void's candidates", i64::from(picks), HAND_SIZE as i64)?;
        let resolved = read.small("blind void's resolved picks", 0, i64::from(picks) - 1)?;
        *record = BlindVoid { lands, picks, candidates, resolved };
    }
    known.tallies[index] = Tally {
        size: read.small("scoring pile", 0, NUM_CARDS as i64)?,
        crowns: read.int("crowns", -MAX_CROWNS, MAX_CROWNS)? as i8,
        hyenas: read.small("hyenas", 0, i64::from(HYENAS_TO_LOSE) - 1)?,
    };
    known.wins[index] = read.small("round wins", 0, i64::from(config.rounds_to_win))?;
    let memory = &mut known.memory;
    memory.void[index] = void;
    memory.blind[index] = blind;
    memory.blind_len[index] = blind_len;
    memory.shown[index] = shown;
    let hand = if hand < 0 {
        if shown.count_ones() > u32::from(hand_size) {
            return Err(invalid("more shown cards than hand cards".into()));
        }
        let unknown = hand_size - shown.count_ones() as u8;
        Hand::Hidden(HiddenHand { unknown, void, blind, blind_len, shown })
    } else {
        let hand = hand as u32;
        if hand.count_ones() != u32::from(hand_size) || shown & !hand != 0 {
            return Err(invalid("a seen hand of another size, or without its shown cards".into()));
        }
        Hand::Seen(hand)
    };
    Ok(Seat { piles, hand, blocked, blind_blocks })
}

/// The cards of `seat` the viewer sees, as bits.
fn seen_cards(seat: &Seat) -> u32 {
    let mut seen = match seat.hand {
        Hand::Seen(hand) => hand,
        Hand::Hidden(hidden) => hidden.shown,
    };
    for pile in &seat.piles {
        for place in 0..usize::from(pile.len) {
            if pile.hidden >> place & 1 == 0 {
                seen |= 1 << pile.cards[place];
            }
        }
    }
    seen
}

/// How many places of `seat` show a card to the viewer (a card seen twice counts twice).
fn seen_slots(seat: &Seat) -> u32 {
    let hand = match seat.hand {
        Hand::Seen(hand) => hand.count_ones(),
        Hand::Hidden(hidden) => hidden.shown.count_ones(),
    };
    hand + seat.piles.iter().map(|pile| u32::from(pile.len) - pile.hidden.count_ones()).sum::<u32>()
}

/// How many cards `seat` holds, hand and piles.
fn card_count(seat: &Seat) -> u32 {
    let hand = match seat.hand {
        Hand::Seen(hand) => hand.count_ones(),
        Hand::Hidden(hidden) => u32::from(hidden.unknown) + hidden.shown.count_ones(),
    };
    hand + seat.piles.iter().map(|pile| u32::from(pile.len)).sum::<u32>()
}

/// Whether `seat` has a card it may play now: a hand card or a face-up top.
fn can_play(seat: &Seat) -> bool {
    card_count(seat) > seat.piles.iter().map(|pile| u32::from(pile.len)).sum::<u32>()
        || seat.piles.iter().any(|pile| pile.len > 0 && pile.hidden >> (pile.len - 1) & 1 == 0)
}

/// The checks that make a belief one a state shows, as far as the sampler and the rules need
/// (no more than Python's sampler asks of a view, so hand-built positions pass too): the seen
/// cards each seen once, the unseen ones filling the hidden places, the hidden hands possible,
/// and a stage the rules can go on from. The unseen cards, as bits.
fn check(config: &Config, known: &AwimbaweState, seats: &[Seat; 2], viewer: u8, to_act: u8) -> Result<u32, Refusal> {
    let mut seen = known.played;
    let mut slots = known.played.count_ones() + u32::from(known.trick_len);
    for &card in known.trick() {
        seen |= 1 << card;
    }
    for (index, seat) in seats.iter().enumerate() {
        seen |= seen_cards(seat);
        slots += seen_slots(seat);
        if matches!(seat.hand, Hand::Seen(_)) != (viewer == index as u8) {
            return Err(invalid("only the viewer's own hand is seen".into()));
        }
        let piles_seen = seen_cards(seat)
            & !match seat.hand {
                Hand::Seen(hand) => hand,
                Hand::Hidden(_) => 0,
            };
        let (hand_known, free) = match seat.hand {
            Hand::Seen(hand) => (hand, (hand & !seat.blocked).count_ones()),
            Hand::Hidden(hidden) => {
                (hidden.shown, u32::from(hidden.unknown) + (hidden.shown & !seat.blocked).count_ones())
            }
        };
        if seat.blocked & !(hand_known | piles_seen) != 0 || u32::from(seat.blind_blocks) > free {
            return Err(invalid("blocks on cards the side does not hold".into()));
        }
    }
    if slots != seen.count_ones() {
        return Err(invalid("a card seen in two places".into()));
    }
    let in_play = seats.iter().any(|seat| card_count(seat) > 0);
    let pool = if in_play || known.trick_len > 0 { config.deck() & !seen } else { 0 };
    let (hidden, count) = hidden_hands(seats);
    let hidden = &hidden[..count];
    let places: u32 = seats.iter().map(Seat::places).sum();
    let unknown: u32 = hidden.iter().map(|hand| u32::from(hand.unknown)).sum();
    if pool.count_ones() != unknown + places {
        return Err(invalid("the hidden places do not hold the hidden cards".into()));
    }
    if !possible(pool, hidden) {
        return Err(invalid("no hand agrees with the voids of the view".into()));
    }
    check_stage(known, seats, to_act)?;
    Ok(pool)
}

/// The hidden hands, in seat order, and how many there are.
fn hidden_hands(seats: &[Seat; 2]) -> ([HiddenHand; 2], usize) {
    let mut hands =
        [HiddenHand { unknown: 0, void: 0, blind: [BlindVoid::default(); MAX_BLIND], blind_len: 0, shown: 0 }; 2];
    let mut count = 0;
    for seat in seats {
        if let Hand::Hidden(hidden) = seat.hand {
            hands[count] = hidden;
            count += 1;
        }
    }
    (hands, count)
}

/// A stage the rules go on from: who acts, a trick as long as the stage has it, cards to play.
fn check_stage(known: &AwimbaweState, seats: &[Seat; 2], to_act: u8) -> Result<(), Refusal> {
    let stage = known.stage;
    let decides = !matches!(stage, Stage::Deal | Stage::TieBreak | Stage::BlindPick | Stage::Over);
    let trick = known.trick_len;
    let trick_fits = match stage {
        Stage::Play => trick <= 1,
        Stage::Rhinoceros | Stage::Snake | Stage::Cheetah | Stage::BlindPick => trick >= 1,
        _ => trick == 0,
    };
    let follower = &seats[usize::from(1 - (known.leader() & 1))];
    let follower_fits = trick != 1 || can_play(follower);
    let actor = &seats[usize::from(known.actor & 1)];
    if decides != (to_act != NOBODY) || !trick_fits || !follower_fits || (stage == Stage::Play && !can_play(actor)) {
        return Err(invalid(format!("no state is at stage {stage:?} with these cards")));
    }
    Ok(())
}

/// The checks that the code is one a view packs and that the rules go on from it the way play
/// leaves them: the leader the code names is the one its stage and actor give; cards are on
/// the table exactly at the stages that have them (after the deal, before the round's end), and
/// no trick is played before the round's leader is known; a top card is face down only during
/// a trick, on the leader's side or, once a power has moved them, the follower's (it turns up
/// at the trick's end); and a blind pick has a hand card to fall on. (Hand-built positions
/// whose sides hold different numbers of cards, or whose scoring piles and round wins are set
/// by hand, pass as Python's sampler lets them; a world that comes to a decision with no legal
/// action is refused by the search.)
fn check_round(config: &Config, known: &AwimbaweState, seats: &[Seat; 2], leader: u8) -> Result<(), Refusal> {
    let refuse = |what: &str| Err(invalid(format!("{what} (stage {:?})", known.stage)));
    if leader != known.leader() {
        return refuse("the leader is not the one the player to act gives");
    }
    let dealt = match known.stage {
        Stage::Deal | Stage::Over => false,
        Stage::ChooseLeader => config.leader_choice_after_deal,
        _ => true,
    };
    let on_table = seats.iter().any(|seat| card_count(seat) > 0) || known.trick_len > 0;
    if dealt != on_table {
        return refuse("cards on the table at a stage without them, or none at a stage with them");
    }
    let before_play = matches!(known.stage, Stage::TieBreak | Stage::ChooseLeader);
    if before_play && known.played != 0 {
        return refuse("tricks played before the round's leader is known");
    }
    let trick = known.trick_len;
    // a top turns face down only during a trick, as the leader's own play or the rhinoceros
    // uncovers it; the follower's piles are untouched until a power moves them
    let may_hide = |seat: usize| match trick {
        0 => false,
        1 => seat == usize::from(leader & 1) || known.stage == Stage::Play,
        _ => true,
    };
    let face_down_top =
        |seat: &Seat| seat.piles.iter().any(|pile| pile.len > 0 && pile.hidden >> (pile.len - 1) & 1 != 0);
    if (0..2).any(|seat| !may_hide(seat) && face_down_top(&seats[seat])) {
        return refuse("a face-down top card where the play turns none down");
    }
    if known.stage == Stage::BlindPick && free_hand(&seats[usize::from(1 - (known.actor & 1))]) == 0 {
        return refuse("a blind pick with no unblocked hand card to fall on");
    }
    Ok(())
}

/// How many of `seat`'s hand cards are not blocked (the blind blocks counted as blocked).
fn free_hand(seat: &Seat) -> u32 {
    let free = match seat.hand {
        Hand::Seen(hand) => (hand & !seat.blocked).count_ones(),
        Hand::Hidden(hidden) => u32::from(hidden.unknown) + (hidden.shown & !seat.blocked).count_ones(),
    };
    free.saturating_sub(u32::from(seat.blind_blocks))
}

/// Whether some hands of the hidden sizes from `pool` keep the voids and the blind voids
/// (a search over how many cards of each land each hand holds).
fn possible(pool: u32, hidden: &[HiddenHand]) -> bool {
    let mut counts = [0u32; NUM_LANDS];
    for (index, count) in counts.iter_mut().enumerate() {
        *count = (pool & land_cards(index as u8)).count_ones();
    }
    let mut held = [[0u32; NUM_LANDS]; 2];
    possible_from(0, &counts, hidden, &mut held)
}

fn possible_from(
    land_index: usize,
    counts: &[u32; NUM_LANDS],
    hidden: &[HiddenHand],
    held: &mut [[u32; NUM_LANDS]; 2],
) -> bool {
    let total = |hand: &[u32; NUM_LANDS]| hand.iter().sum::<u32>();
    if land_index == NUM_LANDS {
        return hidden.iter().enumerate().all(|(h, hand)| total(&held[h]) == u32::from(hand.unknown));
    }
    let may = |h: usize| hidden.get(h).is_some_and(|hand| hand.void >> land_index & 1 == 0);
    let room = |h: usize, held: &[[u32; NUM_LANDS]; 2]| {
        hidden.get(h).map_or(0, |hand| u32::from(hand.unknown).saturating_sub(total(&held[h])))
    };
    held[0][land_index] = 0;
    held[1][land_index] = 0;
    let top0 = if may(0) { counts[land_index].min(room(0, held)) } else { 0 };
    for first in 0..=top0 {
        held[0][land_index] = first;
        held[1][land_index] = 0;
        let top1 = if may(1) { (counts[land_index] - first).min(room(1, held)) } else { 0 };
        for second in 0..=top1 {
            held[1][land_index] = second;
            if weighs(hidden, held) && possible_from(land_index + 1, counts, hidden, held) {
                return true;
            }
        }
    }
    held[0][land_index] = 0;
    held[1][land_index] = 0;
    false
}

/// Whether the land counts so far leave every blind void some weight.
fn weighs(hidden: &[HiddenHand], held: &[[u32; NUM_LANDS]; 2]) -> bool {
    hidden.iter().enumerate().all(|(h, hand)| {
        hand.blind().iter().all(|record| {
            let lands: u32 = (0..NUM_LANDS).filter(|&l| record.lands >> l & 1 != 0).map(|l| held[h][l]).sum();
            record.weight(lands + lands_shown(record.lands, hand.shown)) > 0
        })
    })
}

/// How many of `cards` are of `lands`.
fn lands_shown(lands: u8, cards: u32) -> u32 {
    (0..NUM_LANDS as u8).filter(|&l| lands >> l & 1 != 0).map(|l| (cards & land_cards(l)).count_ones()).sum()
}

/// The cards of `bits` into `out`, in card order; how many.
fn spread(mut bits: u32, out: &mut [u8; NUM_CARDS]) -> usize {
    let mut count = 0;
    while bits != 0 && count < NUM_CARDS {
        out[count] = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        count += 1;
    }
    count
}

/// `count` of `cards` (as bits), each set equally likely, as bits; the drawn ones are
/// `cards[..count]` after a partial shuffle, so a larger draw split in two gives two uniform
/// disjoint sets.
fn choose(cards: u32, count: usize, rng: &mut Rng) -> (u32, [u8; NUM_CARDS]) {
    let mut list = [0u8; NUM_CARDS];
    let len = spread(cards, &mut list);
    let count = count.min(len);
    let mut chosen = 0u32;
    for index in 0..count {
        let other = rng.gen_range(index..len);
        list.swap(index, other);
        chosen |= 1 << list[index];
    }
    (chosen, list)
}

/// The cards of `bits` that belong to none of the lands of `void`.
fn allowed(bits: u32, void: u8) -> u32 {
    (0..NUM_LANDS as u8).filter(|&l| void >> l & 1 != 0).fold(bits, |left, l| left & !land_cards(l))
}

/// `n` choose `k`.
fn comb(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |value, i| value * u128::from(n - i) / u128::from(i + 1))
}

/// Hands of the hidden sizes from `pool`, none holding a land of its void, uniformly (`_deal`).
fn deal(pool: u32, hidden: &[HiddenHand], rng: &mut Rng) -> [u32; 2] {
    match hidden {
        [] => [0, 0],
        [hand] => [choose(allowed(pool, hand.void), usize::from(hand.unknown), rng).0, 0],
        [one, two, ..] => {
            let (void0, void1) = (one.void, two.void);
            let both = allowed(allowed(pool, void0), void1);
            let first = allowed(pool, void0) & !both;
            let second = allowed(pool, void1) & !both;
            let (b, f, s) = (both.count_ones(), first.count_ones(), second.count_ones());
            let (size0, size1) = (u32::from(one.unknown), u32::from(two.unknown));
            let count = |a0: u32, a1: u32| comb(b, a0) * comb(b - a0, a1) * comb(f, size0 - a0) * comb(s, size1 - a1);
            let splits = || (0..=size0.min(b)).flat_map(move |a0| (0..=size1.min(b - a0)).map(move |a1| (a0, a1)));
            let total: u128 = splits().map(|(a0, a1)| count(a0, a1)).sum();
            let mut draw = if total > 0 { rng.gen_range(0..total) } else { 0 };
            let (mut a0, mut a1) = (0, 0);
            for (x0, x1) in splits() {
                let weight = count(x0, x1);
                (a0, a1) = (x0, x1);
                if draw < weight {
                    break;
                }
                draw -= weight;
            }
            let (_, shared) = choose(both, (a0 + a1) as usize, rng);
            let bits = |cards: &[u8]| cards.iter().fold(0u32, |bits, &card| bits | 1 << card);
            let hand0 = bits(&shared[..a0 as usize]) | choose(first, (size0 - a0) as usize, rng).0;
            let hand1 = bits(&shared[a0 as usize..(a0 + a1) as usize]) | choose(second, (size1 - a1) as usize, rng).0;
            [hand0, hand1]
        }
    }
}

/// The hidden hand cards, drawn uniformly among hands that keep the voids, then accepted with
/// probability proportional to their blind-void weight (`_draw_hands`).
fn draw_hands(pool: u32, hidden: &[HiddenHand], rng: &mut Rng) -> [u32; 2] {
    let weighed = hidden.iter().any(|hand| hand.blind_len > 0);
    let top: u128 = hidden.iter().flat_map(|hand| hand.blind().iter()).map(|record| record.weight(0)).product();
    let mut hands = deal(pool, hidden, rng);
    if !weighed || top == 0 {
        return hands;
    }
    for _ in 0..ATTEMPTS {
        let mut weight = 1u128;
        for (drawn, hand) in hands.iter().zip(hidden) {
            for record in hand.blind() {
                weight *= record.weight(lands_shown(record.lands, drawn | hand.shown));
            }
        }
        if weight > 0 && rng.gen_range(0..top) < weight {
            break;
        }
        hands = deal(pool, hidden, rng);
    }
    hands
}

/// A side with its caches worked out: available the hand and the face-up tops, exposed the
/// face-down tops.
fn side_of(hand: u32, piles: [Pile; NUM_PILES], down: u32, blocked: u32) -> Side {
    let mut side = Side { hand, piles, down, blocked, available: hand, exposed: 0 };
    for pile in &piles {
        if let Some(top) = pile.top() {
            if down >> top & 1 == 0 {
                side.available |= 1 << top;
            } else {
                side.exposed |= 1 << top;
            }
        }
    }
    side
}

/// A state that shows the belief's view to its viewer, the unseen cards drawn exactly as
/// Python's `sample_state` draws them (see the module's docs).
pub fn sample(belief: &Belief, rng: &mut Rng) -> AwimbaweState {
    let mut state = belief.known;
    let (hidden, count) = hidden_hands(&belief.seats);
    let drawn = draw_hands(belief.pool, &hidden[..count], rng);
    let taken = drawn[0] | drawn[1];
    let mut rest = [0u8; NUM_CARDS];
    let left = spread(belief.pool & !taken, &mut rest);
    for index in (1..left).rev() {
        rest.swap(index, rng.gen_range(0..=index));
    }
    let mut places = rest[..left].iter();
    let mut next_hidden = drawn.iter();
    for (seat, side) in belief.seats.iter().zip(state.sides.iter_mut()) {
        let hand = match seat.hand {
            Hand::Seen(hand) => hand,
            Hand::Hidden(hidden) => hidden.shown | next_hidden.next().copied().unwrap_or(0),
        };
        let mut piles = [Pile::default(); NUM_PILES];
        let mut down = 0u32;
        for (pile, seen) in piles.iter_mut().zip(&seat.piles) {
            pile.len = seen.len;
            for place in 0..usize::from(seen.len) {
                pile.cards[place] = if seen.hidden >> place & 1 != 0 {
                    let card = places.next().copied().unwrap_or(0);
                    down |= 1 << card;
                    card
                } else {
                    seen.cards[place]
                };
            }
        }
        let mut blocked = seat.blocked;
        if seat.blind_blocks > 0 {
            blocked |= choose(hand & !seat.blocked, usize::from(seat.blind_blocks), rng).0;
        }
        *side = side_of(hand, piles, down, blocked);
    }
    state
}

impl Kit for Awimbawe {
    type Belief = Belief;

    fn belief_from_code(&self, code: &[i64]) -> Result<Belief, Refusal> {
        read_belief(&self.config, code)
    }

    fn sample(&self, belief: &Belief, rng: &mut Rng) -> AwimbaweState {
        sample(belief, rng)
    }

    fn evaluate(&self, state: &AwimbaweState, depth: usize, out: &mut [f64]) -> bool {
        evaluate::evaluate(&self.config, state, depth, out)
    }
}

#[cfg(test)]
#[path = "belief_tests.rs"]
mod tests;
