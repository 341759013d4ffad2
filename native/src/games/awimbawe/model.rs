//! Awimbawé's vocabulary: the 28 cards as codes and bit sets, the action ids of the Python
//! action table, the stages, the rules a refused move breaks, and the options (the mirror of
//! `model.py` and the constants of `notation.py`).

use crate::core::{Options, Refusal};

/// The cards of the deck. Codes 0-23 are the land animals, land by land (grassland, desert,
/// mountain, plain), values 1 to 6 in each; codes 24-27 are the eagles 7 to 10 (the sky).
pub const NUM_CARDS: usize = 28;
/// Piles in front of each player.
pub const NUM_PILES: usize = 4;
/// Cards dealt into each hand.
pub const HAND_SIZE: usize = 6;
/// The most cards one pile can hold: all eight pile cards of a side.
pub const MAX_PILE: usize = 8;
/// Hyenas that lose the round for whoever takes them all.
pub const HYENAS_TO_LOSE: u8 = 4;
/// The first eagle's code.
pub const FIRST_EAGLE: u8 = 24;
/// Every card as a bit set (`1 << code`).
pub const ALL_CARDS: u32 = (1 << NUM_CARDS) - 1;
/// The eagles as bits.
pub const EAGLE_BITS: u32 = 0xF << FIRST_EAGLE;
/// The land index of the sky (lands are grassland, desert, mountain, plain, sky).
pub const SKY: u8 = 4;
/// The number of lands (the sky included): the width of a set of lands as bits.
pub const NUM_LANDS: usize = 5;

/// Action ids, as the Python action table numbers them: a play of each card (its code), an
/// eagle that fights, an eagle that flees, the rhinoceros's twelve moves, the snake's blocks,
/// decline, and the two choices of a leader.
pub const PLAY_FIGHT_BASE: u32 = NUM_CARDS as u32;
pub const PLAY_FLEE_BASE: u32 = PLAY_FIGHT_BASE + 4;
pub const RHINO_BASE: u32 = PLAY_FLEE_BASE + 4;
pub const BLOCK_BASE: u32 = RHINO_BASE + (NUM_PILES * (NUM_PILES - 1)) as u32;
pub const BLOCK_HAND: u32 = BLOCK_BASE + NUM_PILES as u32;
pub const DECLINE_ID: u32 = BLOCK_HAND + 1;
pub const LEAD_ME: u32 = DECLINE_ID + 1;
pub const LEAD_OPPONENT: u32 = LEAD_ME + 1;
pub const NUM_ACTIONS: usize = LEAD_OPPONENT as usize + 1;

/// Net crowns of a card by its value (the same in every land; eagles 9 and 10 carry crossed-out
/// crowns).
pub const CROWNS_BY_VALUE: [i8; 11] = [0, 3, 2, 2, 3, 1, 1, 0, 0, -1, -2];

/// The land index of a card (0-3 the lands, 4 the sky).
#[inline]
pub const fn land(code: u8) -> u8 {
    if code >= FIRST_EAGLE {
        SKY
    } else {
        code / 6
    }
}

/// The value of a card: 1-6 for the land animals, 7-10 for the eagles.
#[inline]
pub const fn value(code: u8) -> u8 {
    if code >= FIRST_EAGLE {
        code - FIRST_EAGLE + 7
    } else {
        code % 6 + 1
    }
}

/// The net crowns of a card.
#[inline]
pub const fn crowns(code: u8) -> i8 {
    CROWNS_BY_CODE[code as usize % NUM_CARDS]
}

/// The net crowns of each card, by code (worked out once, from [`CROWNS_BY_VALUE`]).
const CROWNS_BY_CODE: [i8; NUM_CARDS] = {
    let mut table = [0i8; NUM_CARDS];
    let mut code = 0;
    while code < NUM_CARDS {
        table[code] = CROWNS_BY_VALUE[value(code as u8) as usize];
        code += 1;
    }
    table
};

/// The four hyenas as bits.
pub const HYENA_BITS: u32 = 1 << 3 | 1 << 9 | 1 << 15 | 1 << 21;

/// Whether the card is a hyena.
#[inline]
pub const fn is_hyena(code: u8) -> bool {
    HYENA_BITS >> (code as u32 % 32) & 1 != 0
}

/// The cards of land `land` (the sky: the eagles) as bits.
#[inline]
pub const fn land_cards(land: u8) -> u32 {
    if land >= SKY {
        EAGLE_BITS
    } else {
        0x3F << (6 * land as u32)
    }
}

/// The land of a card as one bit of a set of lands.
#[inline]
pub const fn land_bit(code: u8) -> u8 {
    1 << land(code)
}

/// The lands an answer shows its player to lack, as bits (grassland 1 ... sky 16): none when it
/// follows; otherwise the led land, and the sky too when the answer is no eagle.
#[inline]
pub const fn answer_void(led: u8, card: u8) -> u8 {
    if land(led) == land(card) {
        0
    } else if card >= FIRST_EAGLE {
        land_bit(led)
    } else {
        land_bit(led) | (1 << SKY)
    }
}

/// What happens next (the order of the Python `Stage`, which the observation one-hots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Deal = 0,
    TieBreak = 1,
    ChooseLeader = 2,
    Play = 3,
    Rhinoceros = 4,
    Snake = 5,
    BlindPick = 6,
    Cheetah = 7,
    Over = 8,
}

/// How an eagle played on a land it cannot follow was used (`None` in the Python game is
/// [`Stance::None`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stance {
    None = 0,
    Fight = 1,
    Flee = 2,
}

/// The rules an illegal move can break, in the Python game's words (`model.Rule`).
pub mod rule {
    pub const GAME_OVER: &str = "the game is over";
    pub const PLAY_NOW: &str = "a card must be played now";
    pub const RHINO_NOW: &str = "the rhinoceros's power is used ('move N under M') or declined now";
    pub const SNAKE_NOW: &str = "the snake's power is used ('block N', 'block hand') or declined now";
    pub const CHEETAH_NOW: &str = "the player of the cheetah names who leads the next trick now";
    pub const CHOOSE_NOW: &str = "the loser of the round names who leads the next round now";
    pub const DEAL_COMPLETE: &str =
        "a deal hands out all 28 cards: 4 face-down, 4 face-up and 6 in hand to each player \
         (with fewer lands, every card in play: one face-down and one face-up card per land)";
    pub const TIE_BREAK_SEAT: &str = "the tie-break names seat 0 or seat 1";
    pub const PICK_HAND: &str = "the blind pick falls on one of the opponent's unblocked hand cards";
    pub const AVAILABLE: &str = "only an available card can be played: a hand card or the face-up top card of a pile";
    pub const BLOCKED: &str = "a card blocked by the snake cannot be played until its owner has played another card";
    pub const FOLLOW: &str = "the led land must be followed if possible";
    pub const EAGLE_DUTY: &str = "a player who cannot follow the led land must play an eagle if they have one";
    pub const EAGLE_CHOICE: &str = "an eagle played on a land it cannot follow must flee or fight";
    pub const EAGLE_FIGHTS: &str =
        "an eagle that leads, or answers an eagle lead, always fights: play it without 'fight' or 'flee'";
    pub const RHINO_SOURCE: &str = "the rhinoceros moves the top card of one of the opponent's non-empty piles";
    pub const RHINO_DEST: &str = "the card goes under another of the opponent's non-empty piles";
    pub const RHINO_DEST_ANY: &str = "the card goes under (or onto) another of the opponent's pile places";
    pub const SNAKE_TARGET: &str = "the snake blocks an available card of the opponent: the face-up top card of a pile, or a hand card picked blind";
    pub const SNAKE_BLOCKED: &str = "that card is blocked already";
}

/// Who leads round 1 when the face-up crowns tie (the option `tie_break`).
pub const TIE_BREAKS: [&str; 3] = ["chance", "seat0", "seat1"];
/// The values of `blocked_duties`: `excused` (a blocked card frees its owner of a duty) or
/// `bound` (the duty holds and lifts the block).
pub const BLOCKED_DUTIES: [&str; 2] = ["excused", "bound"];
/// Round wins that take the match by the rulebook, and the parameter's bounds.
pub const ROUNDS_TO_WIN: i64 = 2;
pub const ROUNDS_BOUNDS: (i64, i64) = (1, 5);
/// Lands in play by the rulebook, and the bounds of the parameter `lands`.
pub const LANDS: i64 = 4;
pub const LANDS_BOUNDS: (i64, i64) = (1, 4);
/// Every option of the Python game.
pub const OPTION_NAMES: [&str; 7] = [
    "tie_break",
    "rhino_to_empty_pile",
    "leader_choice_after_deal",
    "blind_pick_shown",
    "blocked_duties",
    "rounds_to_win",
    "lands",
];

/// The options a match is played with (the Python `Config`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Who leads round 1 on a tie of face-up crowns: `None` for chance, else that seat.
    pub tie_break_seat: Option<u8>,
    /// The index of `tie_break` in [`TIE_BREAKS`] (the observation one-hots it).
    pub tie_break: u8,
    /// The rhinoceros may also move a card onto an empty pile place.
    pub rhino_to_empty_pile: bool,
    /// A round's loser names the next leader after the deal instead of before it.
    pub leader_choice_after_deal: bool,
    /// The hand card a blind pick blocks is shown to both players.
    pub blind_pick_shown: bool,
    /// `blocked_duties = bound`: a block never excuses the duties to follow or to play an eagle.
    pub duties_bound: bool,
    /// Round wins that take the match.
    pub rounds_to_win: u8,
    /// Lands in play (the Python `deck_of`): the deck, the piles, the hands and the hyenas
    /// that lose scale with it.
    pub lands: u8,
    /// The test of the agreement test: the mouse no longer beats the elephant of its land
    /// (mutation `awimbawe:mouse`).
    pub broken_mouse: bool,
}

/// The mutation that breaks a rule on purpose (the test of the agreement test).
pub const MUTATION_MOUSE: &str = "awimbawe:mouse";

impl Config {
    /// The cards in play as bits: the six animals of each of the first `lands` lands and the
    /// highest eagles, one per land rounded down to a pair (`deck_of`).
    #[inline]
    pub const fn deck(&self) -> u32 {
        let eagles = (self.lands / 2 * 2) as u32;
        let animals = (1u32 << (6 * self.lands as u32)) - 1;
        animals | (((1u32 << eagles) - 1) << (NUM_CARDS as u32 - eagles))
    }

    /// How many cards are in play.
    #[inline]
    pub const fn deck_size(&self) -> usize {
        self.deck().count_ones() as usize
    }

    /// Piles before each player: one per land.
    #[inline]
    pub const fn piles(&self) -> usize {
        self.lands as usize
    }

    /// Cards in each hand (`hand_size_of`).
    #[inline]
    pub const fn hand_size(&self) -> usize {
        (self.lands + self.lands / 2) as usize
    }

    /// Hyenas that lose the round for whoever takes them all: every hyena in play.
    #[inline]
    pub const fn hyenas_to_lose(&self) -> u8 {
        self.lands
    }

    /// The config of `options` (each read under its Python name and bounds).
    pub fn from_options(options: &Options) -> Result<Config, Refusal> {
        options.check_known("awimbawe", &OPTION_NAMES)?;
        let tie_break = options.choice("tie_break", "chance", &TIE_BREAKS)?;
        let duties = options.choice("blocked_duties", "excused", &BLOCKED_DUTIES)?;
        let rounds = options.int("rounds_to_win", ROUNDS_TO_WIN, ROUNDS_BOUNDS.0, ROUNDS_BOUNDS.1)?;
        Ok(Config {
            tie_break_seat: if tie_break == 0 { None } else { Some(tie_break as u8 - 1) },
            tie_break: tie_break as u8,
            rhino_to_empty_pile: options.bool("rhino_to_empty_pile", false)?,
            leader_choice_after_deal: options.bool("leader_choice_after_deal", false)?,
            blind_pick_shown: options.bool("blind_pick_shown", false)?,
            duties_bound: duties == 1,
            rounds_to_win: rounds as u8,
            lands: options.int("lands", LANDS, LANDS_BOUNDS.0, LANDS_BOUNDS.1)? as u8,
            broken_mouse: options.mutated(MUTATION_MOUSE),
        })
    }
}
