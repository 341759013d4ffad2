//! Auf die Eier's expert (mirrors `spieltisch/games/auf_die_eier/bots/expert.py`): every
//! decision of a turn played for the most points on average, computed exactly.
//!
//! The values are the Python expert's, computed there once per dice count and handed over as a
//! table of its choice for every Chicken need, throws made and dice on the table (see
//! `spieltisch/native/agents.py`); here the agent only looks its choice up, so the two agree by
//! construction wherever the table was filled.

use std::collections::HashMap;

use super::super::notation::Counts;
use super::super::rules::{Eier, EierState};
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
