//! Auf die Eier aids for search (mirrors `spieltisch/games/auf_die_eier/bots/search.py`): the
//! expert as the playout policy, and the cut-off at the next turn start that turns the scores
//! into chances to win by a model of the rest of the race. The constants and the formula are
//! Python's; the module docstring there says where they come from.

use std::sync::OnceLock;

use super::super::model::{Stage, MAX_ROLLS};
use super::super::notation::MAX_DICE;
use super::super::rules::{Eier, EierState};
use super::expert::Turn;

/// `MEAN_PER_DIE`: a turn's average points played as the expert, per die in play.
pub const MEAN_PER_DIE: f64 = 1.9;
/// `SPREAD_PER_DIE`: the standard deviation of a turn's points, per die in play.
pub const SPREAD_PER_DIE: f64 = 0.75;
/// `LOGISTIC`: the logistic's slope that matches a normal distribution's.
pub const LOGISTIC: f64 = 1.7;
/// `END_TURNS`: with the leader this many average turns from the goal, playouts run to the end.
pub const END_TURNS: f64 = 2.0;
/// `CANDIDATES`: the choices the search tries at a decision, the expert's best by its values.
pub const CANDIDATES: usize = 2;

/// The expert's values of every turn for games of `dice` dice and one Chicken need (0: the
/// ladder used up), worked out once per process.
fn expert_turn(dice: u8, need: u8) -> &'static Turn {
    static TURNS: [[OnceLock<Turn>; 6]; MAX_DICE + 1] = [const { [const { OnceLock::new() }; 6] }; MAX_DICE + 1];
    TURNS[usize::from(dice)][usize::from(need)].get_or_init(|| Turn::new((need > 0).then_some(need), dice))
}

/// Python's `candidates`: with more than [`CANDIDATES`] legal choices, only the expert's
/// [`CANDIDATES`] best by expected points (the earlier in legal order among equals), `legal`
/// staying sorted.
pub fn candidates(rules: &Eier, state: &EierState, legal: &mut Vec<u32>) {
    if legal.len() <= CANDIDATES || !in_turn_table(rules, state) {
        return;
    }
    let need = rules.chicken_need(state, state.player).unwrap_or(0);
    let mut values: Vec<(u32, f64)> = expert_turn(rules.config.dice, need).choices(state.rolls, &state.dice).collect();
    values.sort_by(|a, b| b.1.total_cmp(&a.1)); // stable: equals stay in legal order
    values.truncate(CANDIDATES);
    legal.retain(|action| values.iter().any(|&(kept, _)| kept == *action));
}

/// Whether the expert's turn tables hold `state`: a decision after the first or second throw
/// with every die of the game on the table (a belief code can describe others, which no play
/// reaches; the search then weighs every legal choice).
fn in_turn_table(rules: &Eier, state: &EierState) -> bool {
    let dice: u32 = state.dice.iter().map(|&n| u32::from(n)).sum();
    state.stage == Stage::Decide && (1..MAX_ROLLS).contains(&state.rolls) && dice == u32::from(rules.config.dice)
}

/// Python's `playout`: the expert's choice at a decision (none where its tables hold none).
pub fn playout(rules: &Eier, state: &EierState) -> Option<u32> {
    let need = rules.chicken_need(state, state.player).unwrap_or(0);
    in_turn_table(rules, state).then(|| expert_turn(rules.config.dice, need).best(state.rolls, &state.dice).0)
}

/// Python's `standings`: the scores at a turn start, an average turn added for every player
/// still to throw in this round; and the highest of them.
fn standings(rules: &Eier, state: &EierState) -> ([f64; 6], f64) {
    let config = rules.config;
    let turn = MEAN_PER_DIE * f64::from(config.dice);
    let mut scores = [0.0; 6];
    let mut top = f64::NEG_INFINITY;
    let players = usize::from(config.players);
    for (player, (slot, &score)) in scores.iter_mut().zip(&state.scores).take(players).enumerate() {
        let ahead = if player >= usize::from(state.player) { turn } else { 0.0 };
        *slot = f64::from(score) + ahead;
        top = top.max(*slot);
    }
    (scores, top)
}

/// Python's `at_turn_start`: the first throw of a turn in normal play, the end still far off.
pub fn at_turn_start(rules: &Eier, state: &EierState) -> bool {
    if state.stage != Stage::Roll || state.rolls != 0 || state.final_round || state.tie_players != 0 {
        return false;
    }
    let config = rules.config;
    let (_, top) = standings(rules, state);
    f64::from(config.goal) - top > END_TURNS * MEAN_PER_DIE * f64::from(config.dice)
}

/// Python's `win_chances`: the softmax of the standings, scaled by the spread of the turns left.
pub fn win_chances(rules: &Eier, state: &EierState, out: &mut [f64]) {
    let config = rules.config;
    let players = usize::from(config.players);
    let (scores, top) = standings(rules, state);
    let dice = f64::from(config.dice);
    let turns = ((f64::from(config.goal) - top) / (MEAN_PER_DIE * dice)).max(1.0);
    let scale = LOGISTIC / (SPREAD_PER_DIE * dice * (2.0 * turns).sqrt());
    let mut total = 0.0;
    for (slot, &score) in out.iter_mut().zip(&scores[..players]) {
        *slot = (scale * (score - top)).exp();
        total += *slot;
    }
    for slot in out.iter_mut().take(players) {
        *slot /= total;
    }
}

/// Python's `evaluate`: the chances to win at a turn start far from the end, else `false`.
pub fn evaluate(rules: &Eier, state: &EierState, out: &mut [f64]) -> bool {
    if !at_turn_start(rules, state) {
        return false;
    }
    win_chances(rules, state, out);
    true
}

#[cfg(test)]
mod tests {
    use super::super::expert::ExpertTable;
    use super::*;
    use crate::core::{Options, Rules};

    #[test]
    fn a_turn_start_far_from_the_end_is_valued_and_the_chances_sum_to_one() {
        let rules = Eier::new(3, &Options::default()).unwrap();
        let mut state = rules.initial_state();
        let mut out = [0.0; 6];
        assert!(evaluate(&rules, &state, &mut out));
        assert!(out[..3].iter().all(|&chance| (chance - 1.0 / 3.0).abs() < 1e-12), "{out:?}");
        state.scores[..3].copy_from_slice(&[30, 20, 10]);
        assert!(evaluate(&rules, &state, &mut out));
        assert!(out[0] > out[1] && out[1] > out[2], "{out:?}");
        assert!((out[..3].iter().sum::<f64>() - 1.0).abs() < 1e-12);
        state.scores[0] = 70; // within two average turns of the goal: played out
        assert!(!evaluate(&rules, &state, &mut out));
    }

    #[test]
    fn the_playout_is_the_experts_choice() {
        let rules = Eier::new(2, &Options::default()).unwrap();
        let mut state = rules.initial_state();
        state.stage = Stage::Decide;
        state.rolls = 1;
        state.dice = [0, 0, 0, 0, 0, 9]; // nine Chickens where one is needed: keep one
        let action = playout(&rules, &state).unwrap();
        assert_eq!(Some(action), ExpertTable::solved(9).choice(&(1, 1, state.dice)));
        assert_ne!(action, 0, "the expert throws the eight spare Chickens again");
    }
}
