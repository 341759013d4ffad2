//! PLACEHOLDER (replaced by the game's belief sampler): the mirror of
//! `spieltisch/games/auf_die_nuesse/belief.py` and the search hints of its `bots`.

use super::rules::{Nuesse, NuesseState};
use crate::core::{Kit, Refusal, Rng};

impl Kit for Nuesse {
    type Belief = NuesseState;

    fn belief_from_code(&self, code: &[i64]) -> Result<NuesseState, Refusal> {
        Err(Refusal::Invalid(format!("no belief sampler yet ({} integers)", code.len())))
    }

    fn sample(&self, belief: &NuesseState, rng: &mut Rng) -> NuesseState {
        let _ = rng;
        belief.clone()
    }
}
