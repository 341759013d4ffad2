//! Auf die Eier's expert (mirrors `spieltisch/games/auf_die_eier/bots/expert.py`): every
//! decision of a turn played for the most points on average, computed exactly.
//!
//! The agent looks its choice up in a table of the expert's choice for every Chicken need,
//! throws made and dice on the table. [`solve`] computes that table here, working back from the
//! last throw as the Python expert does (its `stop_value`, `keep_value`, `decision_value` and
//! `best_choice`), with the same floats summed in the same order, so every value equals the
//! Python one to the bit (`tests/native/test_agents.py` compares them for every dice count).
//! A table may also be handed over from Python ([`ExpertTable::new`]).

use std::collections::HashMap;

use super::super::model::{LADDER, MAX_ROLLS};
use super::super::notation::{rerollable, tables, Counts, REROLLABLE, ROTTEN};
use super::super::rules::{for_each_throw, multinomial_ways, Eier, EierState, POWERS_OF_SIX};
use super::heuristic::stop_value;
use crate::agents::play::Agent;
use crate::core::Rng;

/// The key of a decision: the Chicken need (0: the ladder is used up), the throws made, the
/// dice on the table.
pub type Key = (u8, u8, Counts);

/// The Python expert's choice (an action id) at every decision of a turn.
#[derive(Clone, Debug, Default)]
pub struct ExpertTable {
    choices: HashMap<Key, u32>,
}

impl ExpertTable {
    /// The table of `(need, rolls, dice, action)` entries (need 0 for a used-up ladder).
    pub fn new(entries: impl IntoIterator<Item = (Key, u32)>) -> ExpertTable {
        ExpertTable { choices: entries.into_iter().collect() }
    }

    /// The number of decisions the table holds.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether the table holds no decision.
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// The expert's action id at `key`, if the table holds it.
    pub fn choice(&self, key: &Key) -> Option<u32> {
        self.choices.get(key).copied()
    }
}

/// The expert, reading its choices from a table handed over by the Python expert.
pub struct ExpertAgent {
    pub table: ExpertTable,
}

impl Agent<Eier> for ExpertAgent {
    fn act(&self, rules: &Eier, state: &EierState, seat: usize, _rng: &mut Rng, _scratch: &mut Vec<u32>) -> u32 {
        let need = rules.chicken_need(state, seat as u8).unwrap_or(0);
        let key = (need, state.rolls, state.dice);
        match self.table.choice(&key) {
            Some(action) => action,
            None => panic!("the expert's table holds no choice for need {need}, throws {}, dice {:?}", key.1, key.2),
        }
    }
}

/// Values closer than this are equal (the first choice in legal order wins), as in Python.
pub const TIE: f64 = 1e-9;

/// One decision of the computed table: the key, the expert's action id and its expected
/// points for the rest of the turn.
pub type Entry = (Key, u32, f64);

/// Every set of `dice` dice (face counts) in lexicographic order, as Python's
/// `compositions` and `all_dice` list them.
pub fn all_dice(dice: u8) -> Vec<Counts> {
    let mut out = Vec::new();
    for_each_throw(dice, |counts| out.push(counts));
    out
}

/// Every outcome of throwing `dice` dice with its probability, in Python's order and floats
/// (`ways / 6^dice`).
pub(crate) fn throws(dice: u8) -> Vec<(Counts, f64)> {
    let total = POWERS_OF_SIX[usize::from(dice)] as f64;
    all_dice(dice).into_iter().map(|outcome| (outcome, multinomial_ways(&outcome) as f64 / total)).collect()
}

fn plus(a: &Counts, b: &Counts) -> Counts {
    std::array::from_fn(|face| a[face] + b[face])
}

/// The values of one turn for one Chicken need, worked out back from the last throw (the
/// racer's too, whose stops are worth a chance to win instead of points).
pub(crate) struct Turn {
    total: u8,
    /// `throws[n]`: the outcomes of throwing `n` dice.
    throws: Vec<Vec<(Counts, f64)>>,
    /// The value of stopping with every set of dice (Python's `stop_value`).
    stops: HashMap<Counts, f64>,
    /// `decisions[r]`: the value of every set of dice on the table after `r` throws (Python's
    /// `decision_value`).
    decisions: Vec<HashMap<Counts, f64>>,
    /// `keeps[r]`: the value of keeping every set smaller than the dice in play and throwing
    /// the rest as throw `r + 1` (Python's `keep_value`).
    keeps: Vec<HashMap<Counts, f64>>,
}

impl Turn {
    pub(crate) fn new(need: Option<u8>, total: u8) -> Turn {
        Turn::with_stops(total, |dice| stop_value(dice, need))
    }

    /// The turn of `total` dice in which stopping with a set of dice is worth `stop` of it
    /// (the Rotten Eggs' re-throw included): every decision worked out back from the last throw.
    pub(crate) fn with_stops(total: u8, stop: impl Fn(&Counts) -> f64) -> Turn {
        let rolls = usize::from(MAX_ROLLS);
        let mut turn = Turn {
            total,
            throws: (0..=total).map(throws).collect(),
            stops: all_dice(total).into_iter().map(|dice| (dice, stop(&dice))).collect(),
            decisions: vec![HashMap::new(); rolls + 1],
            keeps: vec![HashMap::new(); rolls],
        };
        for rolls in (1..=MAX_ROLLS).rev() {
            if rolls < MAX_ROLLS {
                turn.keeps[usize::from(rolls)] = turn.keep_values(rolls);
            }
            let values = all_dice(total).into_iter().map(|dice| (dice, turn.decision_value(rolls, &dice))).collect();
            turn.decisions[usize::from(rolls)] = values;
        }
        turn
    }

    /// The keep values before throw `rolls + 1`, each summed over the throw's outcomes in
    /// Python's order.
    fn keep_values(&self, rolls: u8) -> HashMap<Counts, f64> {
        let next = &self.decisions[usize::from(rolls) + 1];
        let mut keeps = HashMap::new();
        for size in 0..self.total {
            for kept in all_dice(size) {
                let mut value = 0.0;
                for (outcome, p) in &self.throws[usize::from(self.total - size)] {
                    value += p * next[&plus(&kept, outcome)];
                }
                keeps.insert(kept, value);
            }
        }
        keeps
    }

    fn decision_value(&self, rolls: u8, dice: &Counts) -> f64 {
        if rolls >= MAX_ROLLS || dice[ROTTEN] == self.total {
            return self.stops[dice];
        }
        self.choices(rolls, dice).map(|(_, value)| value).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Python's `choice_values`: `stop` and every re-roll in id order, with its value.
    pub(crate) fn choices<'a>(&'a self, rolls: u8, dice: &'a Counts) -> impl Iterator<Item = (u32, f64)> + 'a {
        let table = tables();
        let keeps = &self.keeps[usize::from(rolls)];
        std::iter::once((0, self.stops[dice])).chain(table.rerolls_of(rerollable(dice)).iter().map(move |&id| {
            let thrown = table.rerolls[usize::from(id)];
            let mut kept = *dice;
            for (part, &face) in REROLLABLE.iter().enumerate() {
                kept[face] -= thrown[part];
            }
            (u32::from(id), keeps[&kept])
        }))
    }

    /// Python's `best_choice`: the first choice of the highest value (ties within [`TIE`]).
    pub(crate) fn best(&self, rolls: u8, dice: &Counts) -> (u32, f64) {
        let mut best: Option<(u32, f64)> = None;
        for (action, value) in self.choices(rolls, dice) {
            if best.map_or(true, |(_, top)| value > top + TIE) {
                best = Some((action, value));
            }
        }
        best.expect("stop is always a choice")
    }
}

/// The expert's choice and its value at every decision of a turn with `dice` dice in play,
/// in the Python table's order: need (none, then 1 to 5), dice on the table
/// (lexicographic, all-rotten sets left out: the turn ends there), throws made (1, 2).
pub fn solve(dice: u8) -> Vec<Entry> {
    let mut needs: Vec<u8> = LADDER.to_vec();
    needs.sort_unstable();
    needs.dedup();
    let mut entries = Vec::new();
    for need in std::iter::once(None).chain(needs.into_iter().map(Some)) {
        let turn = Turn::new(need, dice);
        for counts in all_dice(dice) {
            if counts[ROTTEN] == dice {
                continue;
            }
            for rolls in 1..MAX_ROLLS {
                let (action, value) = turn.best(rolls, &counts);
                entries.push(((need.unwrap_or(0), rolls, counts), action, value));
            }
        }
    }
    entries
}

impl ExpertTable {
    /// The table computed here for a game of `dice` dice (see [`solve`]).
    pub fn solved(dice: u8) -> ExpertTable {
        ExpertTable::new(solve(dice).into_iter().map(|(key, action, _)| (key, action)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decision_has_a_legal_choice() {
        for dice in 5..=10u8 {
            let entries = solve(dice);
            let sets = all_dice(dice).len() - 1; // all Rotten Eggs: no decision
            assert_eq!(entries.len(), 6 * sets * 2);
            for &((_, _, counts), action, value) in &entries {
                assert_eq!(counts.iter().sum::<u8>(), dice);
                let legal = tables().rerolls_of(rerollable(&counts));
                assert!(action == 0 || legal.contains(&(action as u16)), "{counts:?} {action}");
                assert!(value >= 0.0);
            }
        }
    }

    #[test]
    fn a_value_is_the_python_experts_to_the_bit() {
        // `best_choice(1, (0, 0, 0, 0, 0, 5), None)` of the Python expert with five dice.
        let entries = solve(5);
        let (_, _, value) = entries.iter().find(|(key, _, _)| *key == (0, 1, [0, 0, 0, 0, 0, 5])).unwrap();
        assert_eq!(*value, 6.6565252141800455);
    }
}
