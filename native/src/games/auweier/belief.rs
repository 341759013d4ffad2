//! PLACEHOLDER (replaced by the game's belief sampler): the mirror of
//! `spieltisch/games/auweier/belief.py` and the search hints of its `bots`.

use super::rules::{Auweier, AuweierState};
use crate::core::{Kit, Refusal, Rng};

impl Kit for Auweier {
    type Belief = AuweierState;

    fn belief_from_code(&self, code: &[i64]) -> Result<AuweierState, Refusal> {
        Err(Refusal::Invalid(format!("no belief sampler yet ({} integers)", code.len())))
    }

    fn sample(&self, belief: &AuweierState, rng: &mut Rng) -> AuweierState {
        let _ = rng;
        belief.clone()
    }
}
