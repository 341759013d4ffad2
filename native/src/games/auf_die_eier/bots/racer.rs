//! Auf die Eier's racer (mirrors `spieltisch/games/auf_die_eier/bots/racer.py`): every
//! decision of a turn played for the best chance of winning the game, not for the most points.
//!
//! Two steps at each decision. First, what each way the turn can end is worth: for every number
//! of points the turn may score, with its Chickens scoring or not, the sheet that turn leaves
//! ([`Eier::close_turn`]) and the mover's chance to win from there, worked out by the race
//! ([`super::super::race::win_chances`]: everyone playing the expert from then on). Second, the
//! turn worked back from its last throw with those chances in place of points ([`Turn`], the
//! expert's own recursion): stopping is worth the chance over the Rotten Eggs' re-throw, a
//! re-roll the chance over its outcomes, a decision the best of its choices. So the racer
//! pushes when only a big turn catches the leader and stops early when a few points settle it.

use std::sync::Mutex;

use super::super::model::{max_turn_points, TurnScore, CHICKEN_POINTS};
use super::super::notation::{Counts, ROTTEN};
use super::super::race::{win_chances, Race};
use super::super::rules::{score_turn, Eier, EierState};
use super::expert::{throws, Turn};
use crate::agents::play::Agent;
use crate::core::Rng;

/// The mover's chance to win after its turn ends each way: `chances[advanced * width +
/// points]`, `advanced` when its Chickens scored (and crossed the ladder's entry off).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnEnds {
    pub width: usize,
    pub chances: Vec<f64>,
}

impl TurnEnds {
    /// The chance to win when the turn scores `points`, its Chickens among them or not.
    pub fn at(&self, advanced: bool, points: u8) -> f64 {
        self.chances[usize::from(advanced) * self.width + usize::from(points)]
    }
}

/// The state a turn of `state`'s mover leaves when it scores `points`, its Chickens among them
/// (`advanced`) or not.
pub fn after_turn(rules: &Eier, state: &EierState, points: u8, advanced: bool) -> EierState {
    let mut next = *state;
    let chickens = if advanced { CHICKEN_POINTS } else { 0 };
    let result = TurnScore { player: state.player, chickens, points, ..TurnScore::default() };
    rules.close_turn(&mut next, result);
    next
}

/// What each way the mover's turn can end is worth to it (see [`TurnEnds`]); with no Chickens
/// to score (the ladder used up) the `advanced` half repeats the other.
pub fn turn_ends(race: &mut Race, rules: &Eier, state: &EierState) -> Result<TurnEnds, String> {
    let width = max_turn_points(rules.config.dice) as usize + 1;
    let mover = usize::from(state.player);
    let can_advance = rules.chicken_need(state, state.player).is_some();
    let mut chances = vec![0.0; 2 * width];
    for advanced in [false, true] {
        for points in 0..width {
            let chance = if advanced && !can_advance {
                chances[points]
            } else {
                let next = after_turn(rules, state, points as u8, advanced);
                win_chances(race, rules, &next)?[mover]
            };
            chances[usize::from(advanced) * width + points] = chance;
        }
    }
    Ok(TurnEnds { width, chances })
}

/// The chance to win of stopping with `dice` on the table, needing `need` Chickens: over the
/// re-throw of its Rotten Eggs, what the turn's score is worth.
pub fn stop_chance(dice: &Counts, need: Option<u8>, ends: &TurnEnds, rotten_throws: &[(Counts, f64)]) -> f64 {
    let mut kept = *dice;
    kept[ROTTEN] = 0;
    let mut total = 0.0;
    for (thrown, p) in rotten_throws {
        let mut scored: Counts = std::array::from_fn(|face| kept[face] + thrown[face]);
        scored[ROTTEN] = 0;
        let turn = score_turn(0, scored, thrown[ROTTEN], need, false);
        total += p * ends.at(turn.chickens > 0, turn.points);
    }
    total
}

/// Every legal choice at `state` (a decision) with the mover's chance to win by it, `stop`
/// first and the re-rolls in id order.
pub fn choices(race: &mut Race, rules: &Eier, state: &EierState) -> Result<Vec<(u32, f64)>, String> {
    let ends = turn_ends(race, rules, state)?;
    Ok(turn(rules, state, &ends).choices(state.rolls, &state.dice).collect())
}

/// The turn of `state`'s mover worked back with each end worth `ends`.
fn turn(rules: &Eier, state: &EierState, ends: &TurnEnds) -> Turn {
    let need = rules.chicken_need(state, state.player);
    let rotten: Vec<Vec<(Counts, f64)>> = (0..=rules.config.dice).map(throws).collect();
    Turn::with_stops(rules.config.dice, |dice| stop_chance(dice, need, ends, &rotten[usize::from(dice[ROTTEN])]))
}

/// The racer: one race of its game's goal and dice, worked out as it is asked for and shared
/// by every seat and game it plays (behind a lock: the race fills its tables on demand).
pub struct RacerAgent {
    race: Mutex<Race>,
}

impl RacerAgent {
    /// The racer of games to `goal` with `dice` dice.
    pub fn new(goal: u16, dice: u8) -> RacerAgent {
        RacerAgent { race: Mutex::new(Race::new(goal, dice)) }
    }

    /// What each way the turn of `state` can end is worth to its mover (see [`turn_ends`]).
    pub fn turn_ends(&self, rules: &Eier, state: &EierState) -> Result<TurnEnds, String> {
        let mut race = self.race.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        turn_ends(&mut race, rules, state)
    }
}

impl Agent<Eier> for RacerAgent {
    fn act(&self, rules: &Eier, state: &EierState, _seat: usize, _rng: &mut Rng, _scratch: &mut Vec<u32>) -> u32 {
        let ends = self.turn_ends(rules, state).expect("the racer is asked at a decision");
        turn(rules, state, &ends).best(state.rolls, &state.dice).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Options, Rules};
    use crate::games::auf_die_eier::model::Stage;

    fn decision(rules: &Eier, scores: [u16; 2], dice: Counts) -> EierState {
        let mut state = rules.initial_state();
        state.scores[..2].copy_from_slice(&scores);
        state.stage = Stage::Decide;
        state.rolls = 1;
        state.dice = dice;
        state.to_throw = 0;
        state
    }

    #[test]
    fn a_turn_end_that_wins_at_once_is_worth_everything() {
        let rules = Eier::new(2, &Options::default()).unwrap();
        let mut race = Race::new(rules.config.goal, rules.config.dice);
        // the second player in the last round, 10 points behind a finished leader
        let mut state = decision(&rules, [104, 94], [2, 2, 0, 2, 2, 1]);
        state.player = 1;
        state.final_round = true;
        let ends = turn_ends(&mut race, &rules, &state).unwrap();
        assert_eq!(ends.at(false, 9), 0.0);
        assert_eq!(ends.at(false, 11), 1.0);
        // a tie leads to one more turn each: somewhere between
        let tie = ends.at(false, 10);
        assert!(0.0 < tie && tie < 1.0, "{tie}");
    }

    #[test]
    fn behind_in_the_last_round_the_racer_throws_again_where_the_expert_stops() {
        let rules = Eier::new(2, &Options::default()).unwrap();
        let mut race = Race::new(rules.config.goal, rules.config.dice);
        // a Breakfast of 9 and two Fried Eggs: 19 points, one short of a tie
        let mut state = decision(&rules, [110, 90], [2, 2, 0, 1, 2, 2]);
        state.player = 1;
        state.final_round = true;
        let racer = choices(&mut race, &rules, &state).unwrap();
        let (stop, chance) = racer[0];
        assert_eq!(stop, 0);
        assert_eq!(chance, 0.0, "19 points do not catch 20");
        assert!(racer.iter().any(|&(_, value)| value > 0.0));
    }
}
