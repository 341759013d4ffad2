//! Auf die Eier's heuristic (mirrors `spieltisch/games/auf_die_eier/bots/heuristic.py`): keep
//! the Chickens the ladder asks for, every Fried Eggs pair, a Breakfast in the making; stop
//! when nothing is worth throwing, when three Rotten Eggs lie aside, or when at most two dice
//! would be thrown and the kept dice are worth 10 points.

use super::super::notation::{reroll_id, rerollable, Counts, CHICKEN, CRACKED, FACES, PAN, POT, ROTTEN, WHOLE};
use super::super::rules::{for_each_throw, multinomial_ways, score_turn, Eier, EierState, POWERS_OF_SIX};
use crate::agents::play::Agent;
use crate::core::Rng;

/// The heuristic: deterministic, so it draws nothing from its generator.
pub struct HeuristicAgent;

impl Agent<Eier> for HeuristicAgent {
    fn act(&self, rules: &Eier, state: &EierState, seat: usize, _rng: &mut Rng, _scratch: &mut Vec<u32>) -> u32 {
        choose(&state.dice, rules.chicken_need(state, seat as u8))
    }
}

/// The heuristic's action id with `dice` on the table, needing `need` Chickens.
pub fn choose(dice: &Counts, need: Option<u8>) -> u32 {
    let kept = keep(dice, need);
    let mut thrown = [0u8; FACES];
    for face in 0..FACES {
        thrown[face] = dice[face] - kept[face];
    }
    let count: u8 = thrown.iter().sum();
    if count == 0 || dice[ROTTEN] >= 3 || (count <= 2 && stop_value(&kept, need) >= 10.0) {
        return 0;
    }
    reroll_id(rerollable(&thrown)) as u32
}

/// The dice the heuristic sets aside (Rotten Eggs always stay).
pub fn keep(dice: &Counts, need: Option<u8>) -> Counts {
    let hens = need.map_or(0, |need| dice[CHICKEN].min(need));
    let pairs = dice[CRACKED].min(dice[PAN]);
    let whole = if dice[POT] > 0 || dice[WHOLE] >= 2 { dice[WHOLE] } else { 0 };
    let pot = u8::from(dice[POT] > 0 && dice[WHOLE] > 0);
    [whole, pairs, dice[ROTTEN], pot, pairs, hens]
}

/// Expected points of stopping with `dice` (the Rotten Eggs re-thrown once): the Python
/// expert's `stop_value`, summed in the same order with the same floats, so equal to the bit.
pub fn stop_value(dice: &Counts, need: Option<u8>) -> f64 {
    let rotten = dice[ROTTEN];
    let mut kept = *dice;
    kept[ROTTEN] = 0;
    if rotten == 0 {
        return f64::from(score_turn(0, kept, 0, need, false).points);
    }
    let total = POWERS_OF_SIX[usize::from(rotten)] as f64;
    let mut value = 0.0;
    // Every throw of the rotten dice, in the order Python lists them (so the sum is Python's).
    for_each_throw(rotten, |outcome| {
        let probability = multinomial_ways(&outcome) as f64 / total;
        let mut scored = kept;
        for face in [WHOLE, CRACKED, POT, PAN, CHICKEN] {
            scored[face] += outcome[face];
        }
        value += probability * f64::from(score_turn(0, scored, outcome[ROTTEN], need, false).points);
    });
    value
}
