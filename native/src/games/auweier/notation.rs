//! Auweier's cards and colours, and the ids of the Python action table
//! (`spieltisch/games/auweier/notation.py`, `ACTIONS`): the same ids for every player count
//! and option.

/// Card kinds, in notation order (`1 2 2* 3 4 5* 6 7 F K H`).
pub type Card = u8;

pub const ONE: Card = 0;
pub const TWO: Card = 1;
pub const TWO_STAR: Card = 2;
pub const THREE: Card = 3;
pub const FOUR: Card = 4;
pub const FIVE_STAR: Card = 5;
pub const SIX: Card = 6;
pub const SEVEN: Card = 7;
pub const FALSE_WORM: Card = 8;
pub const CROW: Card = 9;
pub const WEDDING: Card = 10;

/// The number of card kinds.
pub const KINDS: usize = 11;
/// Cards played before a female as worms: the eight worm kinds and the False Worm.
pub const WORM_CARDS: usize = 9;
/// How many cards of each kind one deck holds: 22 in all.
pub const DECK: [u8; KINDS] = [3, 2, 1, 2, 2, 1, 1, 1, 1, 2, 6];
/// The cards of one deck.
pub const DECK_SIZE: usize = 22;
/// The `deck_cards` parameter's cards (Python `KEEP_ORDER`): a deck of n cards holds the
/// first n of these, `H 3 K F 1 H 4 2* 2 H 6 1 K H 5* 3 7 H 2 4 1 H`.
pub const KEEP_ORDER: [Card; DECK_SIZE] = [
    WEDDING, THREE, CROW, FALSE_WORM, ONE, WEDDING, FOUR, TWO_STAR, TWO, WEDDING, SIX, ONE, CROW, WEDDING, FIVE_STAR,
    THREE, SEVEN, WEDDING, TWO, FOUR, ONE, WEDDING,
];
/// Deck sizes a designer may choose: a Wedding, a 3 and a Crow at least; the rulebook's 22.
pub const DECK_BOUNDS: (i64, i64) = (3, DECK_SIZE as i64);
/// Cards in a full hand by the rulebook.
pub const HAND_SIZE: i64 = 6;
/// Most cards one player can have before one female: 13 real worms and the False Worm.
pub const MAX_STACK: usize = 14;
/// Seats and females at most.
pub const SEATS: usize = 4;
/// Which cards a Crow eats: real worms without a star.
pub const CROW_FOOD: [bool; KINDS] = [true, true, false, true, true, false, true, true, false, false, false];

/// The rulebook's first-game hand: one of each pair, in this order after Crow, Wedding and
/// False Worm.
pub const STARTER_LOW: [Card; 2] = [ONE, SEVEN];
pub const STARTER_PROOF: [Card; 2] = [TWO_STAR, FIVE_STAR];
pub const STARTER_MIDDLE: [Card; 2] = [THREE, FOUR];

// --- action ids: the Python table's order -------------------------------------------------

/// `deck <card>`: ids 0 to 10, by card.
pub const ARRANGE: u32 = 0;
/// `deck shuffle`.
pub const SHUFFLE_REST: u32 = 11;
/// `deck spread`.
pub const SPREAD_REST: u32 = 12;
/// `deck starter <low> <proof> <middle>`: 8 ids from here, low slowest.
pub const STARTER: u32 = 13;
/// `worm <card> <female>`: card slowest.
pub const WORM: u32 = 21;
/// `swap <female>#<place> <card>`: female slowest, then place (1 to 14), then card.
pub const SWAP: u32 = WORM + (WORM_CARDS * SEATS) as u32;
/// `crow <owner>@<female>`: owner slowest.
pub const CROW_MOVE: u32 = SWAP + (SEATS * MAX_STACK * WORM_CARDS) as u32;
/// `wedding <female>`.
pub const WEDDING_MOVE: u32 = CROW_MOVE + (SEATS * SEATS) as u32;
/// `pass`.
pub const PASS: u32 = WEDDING_MOVE + SEATS as u32;
/// The table's length.
pub const NUM_ACTIONS: usize = PASS as usize + 1;

/// The id of `worm <card> <female>`.
#[inline]
pub fn worm_id(card: usize, female: usize) -> u32 {
    WORM + (card * SEATS + female) as u32
}

/// The id of `swap <female>#<place + 1> <card>` (`place` counted from 0 at the bottom).
#[inline]
pub fn swap_id(female: usize, place: usize, card: usize) -> u32 {
    SWAP + ((female * MAX_STACK + place) * WORM_CARDS + card) as u32
}

/// The id of `crow <owner>@<female>`.
#[inline]
pub fn crow_id(owner: usize, female: usize) -> u32 {
    CROW_MOVE + (owner * SEATS + female) as u32
}

/// The id of `wedding <female>`.
#[inline]
pub fn wedding_id(female: usize) -> u32 {
    WEDDING_MOVE + female as u32
}

/// How many cards of each kind a deck of `cards` cards holds (the first `cards` of
/// [`KEEP_ORDER`]; [`DECK`] for 22). `cards` is within [`DECK_BOUNDS`] (more are cut at 22).
pub fn deck_of(cards: usize) -> [u8; KINDS] {
    let mut counts = [0u8; KINDS];
    for &card in &KEEP_ORDER[..cards.min(DECK_SIZE)] {
        counts[usize::from(card)] += 1;
    }
    counts
}

/// The six cards of a first-game hand of starter id offset `index` (0 to 7), in deck order:
/// Crow, Wedding, False Worm, then the three chosen worms.
pub fn starter_hand(index: usize) -> [Card; 6] {
    [
        CROW,
        WEDDING,
        FALSE_WORM,
        STARTER_LOW[(index >> 2) & 1],
        STARTER_PROOF[(index >> 1) & 1],
        STARTER_MIDDLE[index & 1],
    ]
}
