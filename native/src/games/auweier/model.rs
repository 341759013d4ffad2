//! Auweier's vocabulary below the rules (`spieltisch/games/auweier/model.py`): the stages, the
//! ways a game ends, the config read from the options under their Python names, and the
//! scoring of egg cards.

use super::notation::{deck_of, Card, DECK_BOUNDS, DECK_SIZE, FALSE_WORM, HAND_SIZE, KINDS, SEATS, WEDDING};
use crate::core::{Options, Refusal};

/// Eggs each female gives at most.
pub const EGGS_PER_FEMALE: u8 = 3;
/// Bonus by the number of different colours among a player's egg cards.
pub const COLOUR_BONUS: [i64; 5] = [0, 0, 2, 5, 10];
/// Hand sizes a designer may choose.
pub const HAND_BOUNDS: (i64, i64) = (3, 10);
/// What a worm may be made to count.
pub const WORM_BOUNDS: (i64, i64) = (0, 20);
/// The worm totals the encoder divides by at least.
pub const MAX_TOTAL: f64 = 41.0;

/// Where in the game a state is (the Python `Stage`, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Stage {
    /// A player arranges their deck.
    Order = 0,
    /// Chance shuffles the cards a player has not placed yet.
    Shuffle = 1,
    /// Chance shuffles them with their Weddings spread evenly.
    Spread = 2,
    /// A normal turn.
    Play = 3,
    /// The wedding stage of a wedding phase.
    Weddings = 4,
    /// The worm stage of a wedding phase.
    Worms = 5,
    Over = 6,
}

impl Stage {
    /// The stages in which the decks are set up.
    pub fn is_setup(self) -> bool {
        matches!(self, Stage::Order | Stage::Shuffle | Stage::Spread)
    }
}

/// Why the game ended (the Python `End`, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum End {
    LastEgg = 0,
    NoPlay = 1,
    NobodyCanPlay = 2,
}

/// The option names the Python game declares.
pub const OPTION_NAMES: [&str; 19] = [
    "lucky_eggs",
    "closed_nests",
    "stuck_player",
    "opening_ties",
    "crow_digs",
    "exchange_cost",
    "wedding_order",
    "neutral_colour",
    "lucky_crows",
    "false_worm_limit",
    "hand_size",
    "deck_cards",
    "worm_value_1",
    "worm_value_2",
    "worm_value_3",
    "worm_value_4",
    "worm_value_5",
    "worm_value_6",
    "worm_value_7",
];

/// The player count and options (the Python `Config`), read once when the game is built.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub players: usize,
    /// One per player, and a neutral third one with two players.
    pub females: usize,
    /// Lucky Eggs: shuffled decks, and Crows may eat during wedding phases.
    pub lucky_eggs: bool,
    /// A female whose eggs are all gone takes no more cards.
    pub closed_nests: bool,
    /// `stuck_player=passes`: a player with no legal play is passed over (else the game ends).
    pub stuck_passes: bool,
    /// An opening Wedding may also go where the player ties for the highest total.
    pub opening_ties: bool,
    /// A Crow eats the topmost edible worm of a stack, whatever lies on top.
    pub crow_digs: bool,
    /// `exchange_cost=draws`: an exchange in normal play draws a card.
    pub exchange_draws: bool,
    /// `wedding_order=onward`: the worm stage goes on from the last to pass.
    pub wedding_onward: bool,
    /// With two players, the neutral female's eggs count as a colour for the bonus.
    pub neutral_colour: bool,
    /// `lucky_crows=both_stages`: in Lucky Eggs, Crows in the wedding stage too.
    pub lucky_crows_both: bool,
    pub hand_size: u8,
    /// How many cards of each kind one deck holds (`deck_cards`: the rulebook's 22, or fewer).
    pub deck: [u8; KINDS],
    /// `false_worm_limit=always`: the False Worm's once-per-female limit holds in normal play
    /// too, counted from one mating to the next opening.
    pub false_worm_always: bool,
    /// What each card adds to a worm total, by card.
    pub worm_values: [i16; KINDS],
    /// The colour whose eggs add no colour to the bonus, if any.
    pub uncounted: Option<usize>,
    /// Bit mask of every female at this table.
    pub all_females: u8,
    /// The divisor of worm totals in the observation.
    pub total_scale: f64,
    /// The broken rule of the test of the agreement test: refills stop a card short.
    pub short_refill: bool,
}

impl Config {
    /// The config of `players` with `options`; a refusal for anything the Python game refuses.
    pub fn new(players: usize, options: &Options) -> Result<Config, Refusal> {
        if !(2..=SEATS).contains(&players) {
            return Err(Refusal::Option(format!("Auweier takes 2 to 4 players, not {players}")));
        }
        options.check_known("auweier", &OPTION_NAMES)?;
        let lucky_eggs = options.bool("lucky_eggs", false)?;
        let closed_nests = options.bool("closed_nests", false)?;
        let stuck_passes = options.choice("stuck_player", "passes", &["ends_game", "passes"])? == 1;
        let opening_ties = options.bool("opening_ties", false)?;
        let crow_digs = options.bool("crow_digs", false)?;
        let exchange_draws = options.choice("exchange_cost", "turn", &["turn", "draws"])? == 1;
        let wedding_onward = options.choice("wedding_order", "opener", &["opener", "onward"])? == 1;
        let neutral_colour = options.bool("neutral_colour", true)?;
        let lucky_crows_both = options.choice("lucky_crows", "worm_stage", &["worm_stage", "both_stages"])? == 1;
        let hand_size = options.int("hand_size", HAND_SIZE, HAND_BOUNDS.0, HAND_BOUNDS.1)? as u8;
        let deck = deck_of(options.int("deck_cards", DECK_SIZE as i64, DECK_BOUNDS.0, DECK_BOUNDS.1)? as usize);
        let false_worm_always = options.choice("false_worm_limit", "wedding_phase", &["wedding_phase", "always"])? == 1;
        let mut by_number = [0i16; 7];
        for (number, value) in by_number.iter_mut().enumerate() {
            let name = format!("worm_value_{}", number + 1);
            *value = options.int(&name, number as i64 + 1, WORM_BOUNDS.0, WORM_BOUNDS.1)? as i16;
        }
        // the printed numbers of the eight worm kinds: 1 2 2* 3 4 5* 6 7
        let printed = [1, 2, 2, 3, 4, 5, 6, 7];
        let mut worm_values = [0i16; KINDS];
        for (card, number) in printed.iter().enumerate() {
            worm_values[card] = by_number[number - 1];
        }
        worm_values[FALSE_WORM as usize] = 0;
        let females = players.max(3);
        let uncounted = if players < females && !neutral_colour { Some(players) } else { None };
        let deck_worth: i64 =
            deck_of(DECK_SIZE).iter().zip(worm_values.iter()).map(|(&n, &w)| i64::from(n) * i64::from(w)).sum();
        Ok(Config {
            players,
            females,
            lucky_eggs,
            closed_nests,
            stuck_passes,
            opening_ties,
            crow_digs,
            exchange_draws,
            wedding_onward,
            neutral_colour,
            lucky_crows_both,
            hand_size,
            deck,
            false_worm_always,
            worm_values,
            uncounted,
            all_females: ((1u32 << females) - 1) as u8,
            total_scale: MAX_TOTAL.max(deck_worth as f64),
            short_refill: options.mutated("auweier:short_refill"),
        })
    }
}

impl Config {
    /// The cards every hand starts with in Lucky Eggs: a Wedding and the False Worm (only the
    /// Wedding from a deck without the False Worm).
    pub fn lucky_start(&self) -> &'static [Card] {
        if self.deck[usize::from(FALSE_WORM)] > 0 {
            &[WEDDING, FALSE_WORM]
        } else {
            &[WEDDING]
        }
    }
}

/// Points for the egg cards `eggs` (each `(female, eggs)`) of `player`: their eggs, +1 per
/// card of the player's own colour, and one bonus by the number of colours (a female whose
/// colour is `uncounted` adds none).
pub fn score_eggs(player: usize, eggs: &[(u8, u8)], uncounted: Option<usize>) -> i64 {
    if eggs.is_empty() {
        return 0;
    }
    let mut base = 0i64;
    let mut colours = 0u8;
    for &(female, count) in eggs {
        base += i64::from(count);
        if usize::from(female) == player {
            base += 1;
        }
        if Some(usize::from(female)) != uncounted {
            colours |= 1 << female;
        }
    }
    base + COLOUR_BONUS[colours.count_ones() as usize]
}
