//! The board's fixed numbers, the enums of the rules and the config read from the options:
//! the Rust mirror of `spieltisch/games/auf_die_nuesse/model.py`.

use super::notation::{AREA_4, LEFT_3, NONE, RACCOON_3, STORES};
use crate::core::{Options, Refusal};

/// Squirrels per player.
pub const SQUIRRELS: u8 = 15;
/// Nuts put aside face down at the start: the draw pile once the real one runs out.
pub const SET_ASIDE: u8 = 8;
/// How many nuts each store holds, S1 to S8.
pub const STORE_SIZES: [u8; STORES] = [2, 2, 3, 3, 4, 4, 5, 6];
/// The full values of the standard store table (ruling 5).
pub const STORE_VALUES: [i64; STORES] = [5, 5, 10, 10, 15, 15, 20, 30];
/// The `five_25` store table: the 5-nut store worth 25.
pub const FIVE_AT_25_VALUES: [i64; STORES] = [5, 5, 10, 10, 15, 15, 25, 30];
/// The most a player can score in the richest table.
pub const MAX_SCORE: i64 = 115;
/// The option names, as the Python config spells them.
pub const STORE_TABLES: [&str; 2] = ["standard", "five_25"];
pub const COLLECT_ORDERS: [&str; 2] = ["active_first", "next_first"];
pub const EMPTY_SUPPLY: [&str; 2] = ["stops", "fails"];
pub const STORE_VALUE_BOUNDS: (i64, i64) = (1, 60);
pub const NUTS_BOUNDS: (i64, i64) = (6, 20);
pub const JOKER_BOUNDS: (i64, i64) = (0, 4);
/// Each store size's value in the standard table (the store value parameters' defaults).
const STANDARD_VALUE_BY_SIZE: [i64; 7] = [0, 0, 5, 10, 15, 20, 30];

/// Squirrels of one player a space needs before it pays out.
pub const NEED: [u8; 9] = [2, 2, 2, 2, 2, 3, 3, 3, 4];
/// Where the other players' squirrels are pushed when a space pays out.
pub const ABOVE: [u8; 9] = [LEFT_3, LEFT_3, RACCOON_3, 7, 7, AREA_4, AREA_4, AREA_4, NONE];
/// The face-up places each space offers, as a bit set of slots.
pub const OFFER: [u8; 9] = [0b0001, 0b0010, 0b1111, 0b0100, 0b1000, 0b0011, 0b1111, 0b1100, 0b1111];
/// The raccoon spaces (the 7 of the 2-area and the middle of the 3-area).
pub const RACCOON: [bool; 9] = [false, false, true, false, false, false, true, false, false];
/// The 2-area spaces a squirrel may go on before the first turn (not the raccoon's).
pub const SETUP_SPACES: [u8; 4] = [0, 1, 3, 4];

/// Where in the game a state is (the Python `Stage`, in its order: the encoder's one-hot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Stage {
    /// Chance: a nut is laid face up at the start.
    FaceUp,
    /// Chance: the step's actor is dealt a nut at the start.
    Deal,
    /// The step's actor puts a squirrel on the 2-area before the first turn.
    Setup,
    /// Chance: the three dice.
    Roll,
    /// The player picks the white die that goes with the green one.
    Place,
    /// The player rolls again or stops (or lays a kept joker).
    Again,
    /// The step's actor picks a face-up nut the space offers (on a raccoon space: or passes).
    Take,
    /// The step's actor stores the nut in hand (a joker may be kept).
    Put,
    /// Chance: a nut is drawn into the empty place.
    Refill,
    /// The step's actor, on a raccoon space, steals a nut or passes.
    Steal,
    Over,
}

/// How far the end of the game has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ending {
    NotYet,
    /// The pile ran out; the set-aside nuts are the pile; the checks under way finish.
    Triggered,
    /// Every squirrel is in the 4-area; each four buy one face-up nut.
    Final,
}

/// What a nut in hand belongs to, and so what follows once it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Context {
    Setup,
    Checks,
    Jokers,
}

/// The player count and options (the Python `Config`), with what the rules read from them.
#[derive(Clone, Debug)]
pub struct Config {
    pub players: usize,
    pub late_jokers: bool,
    /// `collect_order = next_first`: the next player clockwise collects first.
    pub next_first: bool,
    pub double_collect_upper: bool,
    pub optional_setup: bool,
    pub raccoon_optional: bool,
    /// `empty_supply = fails`: placing the last squirrel fails the turn.
    pub supply_fails: bool,
    pub nuts_per_kind: u8,
    pub jokers_per_pair: u8,
    /// The full value of each store (`Config.store_values`).
    pub store_values: [i64; STORES],
    /// The most a player can score (`max_points`).
    pub max_points: i64,
    /// The broken rule of the test of the agreement test: David protects nobody.
    pub steal_from_david: bool,
}

/// The option names the Python game declares.
pub const OPTION_NAMES: [&str; 14] = [
    "late_jokers",
    "collect_order",
    "double_collect_upper",
    "optional_setup",
    "store_table",
    "raccoon_optional",
    "empty_supply",
    "store_value_2",
    "store_value_3",
    "store_value_4",
    "store_value_5",
    "store_value_6",
    "nuts_per_kind",
    "jokers_per_pair",
];

/// The name of the deliberately broken rule (`mutation=` of the agreement test).
pub const MUTATION_STEAL_FROM_DAVID: &str = "auf-die-nuesse:steal_from_david";

impl Config {
    /// The config of `players` players with `options`; a refusal for anything the game does
    /// not take.
    pub fn new(players: usize, options: &Options) -> Result<Config, Refusal> {
        if !(2..=4).contains(&players) {
            return Err(Refusal::Option(format!("Auf die Nüsse! is for 2 to 4 players, not {players}")));
        }
        options.check_known("auf-die-nuesse", &OPTION_NAMES)?;
        let (low, high) = STORE_VALUE_BOUNDS;
        let chosen = [
            options.int("store_value_2", 5, low, high)?,
            options.int("store_value_3", 10, low, high)?,
            options.int("store_value_4", 15, low, high)?,
            options.int("store_value_5", 20, low, high)?,
            options.int("store_value_6", 30, low, high)?,
        ];
        let table = match options.choice("store_table", STORE_TABLES[0], &STORE_TABLES)? {
            0 => STORE_VALUES,
            _ => FIVE_AT_25_VALUES,
        };
        let mut store_values = [0; STORES];
        let mut max_points = 0;
        for (index, value) in store_values.iter_mut().enumerate() {
            let size = usize::from(STORE_SIZES[index]);
            let picked = chosen[size - 2];
            // A store value parameter left at its standard value does not override the table.
            *value = if picked != STANDARD_VALUE_BY_SIZE[size] { picked } else { table[index] };
            max_points += (*value).max(size as i64 - 1);
        }
        Ok(Config {
            players,
            late_jokers: options.bool("late_jokers", true)?,
            next_first: options.choice("collect_order", COLLECT_ORDERS[0], &COLLECT_ORDERS)? == 1,
            double_collect_upper: options.bool("double_collect_upper", true)?,
            optional_setup: options.bool("optional_setup", false)?,
            raccoon_optional: options.bool("raccoon_optional", true)?,
            supply_fails: options.choice("empty_supply", EMPTY_SUPPLY[0], &EMPTY_SUPPLY)? == 1,
            nuts_per_kind: options.int("nuts_per_kind", 12, NUTS_BOUNDS.0, NUTS_BOUNDS.1)? as u8,
            jokers_per_pair: options.int("jokers_per_pair", 2, JOKER_BOUNDS.0, JOKER_BOUNDS.1)? as u8,
            store_values,
            max_points,
            steal_from_david: options.mutated(MUTATION_STEAL_FROM_DAVID),
        })
    }

    /// The nut cards in play, per card: one plain nut of each kind fewer per player missing
    /// from four, and the jokers of every pair (`config_deck`).
    pub fn deck(&self) -> [u8; 10] {
        let plain = self.nuts_per_kind - (4 - self.players as u8);
        let mut cards = [self.jokers_per_pair; 10];
        cards[..4].fill(plain);
        cards
    }
}
