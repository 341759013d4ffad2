//! Auf die Eier: the vocabulary below the rules (mirrors `spieltisch/games/auf_die_eier/model.py`).
//!
//! The config read from the options, the stages of a turn, the rules an illegal move can
//! break, the record of how a finished turn scored, and the game's numbers (goal, throws, the
//! chicken ladder, points).

use crate::core::{Options, Refusal};

/// The points that end the game by default (the `goal` parameter).
pub const GOAL: i64 = 100;
/// The bounds of the `goal` parameter.
pub const GOAL_BOUNDS: (i64, i64) = (20, 300);
/// The bounds of the `dice` parameter: at least the five Chickens the ladder can ask for.
pub const DICE_BOUNDS: (i64, i64) = (5, 10);
/// Throws in one turn at most.
pub const MAX_ROLLS: u8 = 3;
/// The chicken ladder: how many Chickens score next, from the top entry down.
pub const LADDER: [u8; 9] = [1, 2, 3, 4, 5, 4, 3, 2, 1];
/// Points of one Fried Eggs pair.
pub const FRIED_POINTS: u8 = 5;
/// Points per die of the Breakfast (its Pot included).
pub const BREAKFAST_POINTS_PER_DIE: u8 = 3;
/// Points per Chicken when the count matches the ladder.
pub const CHICKEN_POINTS: u8 = 5;
/// The fewest and most players.
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
/// The options the Python game declares, by their Python names.
pub const OPTION_NAMES: [&str; 3] = ["shared_chicken_ladder", "goal", "dice"];

/// The most points one turn can score with `dice` dice: five Chickens and every other die in
/// the Breakfast.
pub fn max_turn_points(dice: u8) -> u32 {
    5 * u32::from(CHICKEN_POINTS) + u32::from(BREAKFAST_POINTS_PER_DIE) * (u32::from(dice) - 5)
}

/// The highest final score: just below the goal, then a last turn and a tie turn.
pub fn max_score(goal: u16, dice: u8) -> u32 {
    u32::from(goal) - 1 + 2 * max_turn_points(dice)
}

/// The player count and options the game was made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub players: u8,
    /// One chicken ladder for the whole table instead of one per player.
    pub shared_chicken_ladder: bool,
    /// The score that starts the last round.
    pub goal: u16,
    /// Egg dice in play.
    pub dice: u8,
}

impl Config {
    /// The config of `players` with `options`, refusing what the Python game refuses.
    pub fn read(players: usize, options: &Options) -> Result<Config, Refusal> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(Refusal::Option(format!(
                "auf-die-eier takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )));
        }
        options.check_known("auf-die-eier", &OPTION_NAMES)?;
        let shared_chicken_ladder = options.bool("shared_chicken_ladder", false)?;
        let goal = options.int("goal", GOAL, GOAL_BOUNDS.0, GOAL_BOUNDS.1)?;
        let dice = options.int("dice", 9, DICE_BOUNDS.0, DICE_BOUNDS.1)?;
        Ok(Config { players: players as u8, shared_chicken_ladder, goal: goal as u16, dice: dice as u8 })
    }
}

/// The rules an illegal move can break, in the Python game's words.
pub mod rule {
    pub const GAME_OVER: &str = "the game is over";
    pub const ROLL_SIZE: &str = "a roll shows exactly the dice that were thrown";
    pub const REROLL_OWN: &str = "only dice lying on the table can be re-rolled";
}

/// Where in a turn the game is (in the Python enum's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Chance throws the dice the player picked up (all of them at the start of a turn).
    Roll = 0,
    /// The player re-rolls some dice or stops.
    Decide = 1,
    /// Chance re-rolls the turn's Rotten Eggs.
    Rotten = 2,
    Over = 3,
}

/// How one finished turn scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnScore {
    pub player: u8,
    /// The dice scored: every non-rotten die, the re-rolled Rotten Eggs included.
    pub dice: [u8; 6],
    /// Rotten Eggs that came up again in the re-roll.
    pub spoilers: u8,
    /// Fried Eggs pairs made (spoiled ones included).
    pub fried: u8,
    /// Points of the Breakfast before spoiling (0 if there is none).
    pub breakfast: u8,
    pub spoiled_fried: u8,
    pub spoiled_breakfast: bool,
    /// Points for Chickens (0 unless the count matched the ladder).
    pub chickens: u8,
    pub points: u8,
}
