//! PLACEHOLDER (replaced by the game's belief sampler): the mirror of
//! `spieltisch/games/auf_die_eier/belief.py` and the search hints of its `bots`.

use super::rules::{Eier, EierState};
use crate::core::{Kit, Refusal, Rng};

impl Kit for Eier {
    type Belief = EierState;

    fn belief_from_code(&self, code: &[i64]) -> Result<EierState, Refusal> {
        Err(Refusal::Invalid(format!("no belief sampler yet ({} integers)", code.len())))
    }

    fn sample(&self, belief: &EierState, rng: &mut Rng) -> EierState {
        let _ = rng;
        belief.clone()
    }
}
