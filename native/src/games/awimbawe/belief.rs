//! PLACEHOLDER (replaced by the game's belief sampler): the mirror of
//! `spieltisch/games/awimbawe/belief.py` and the search hints of its `bots`.

use super::rules::{Awimbawe, AwimbaweState};
use crate::core::{Kit, Refusal, Rng};

impl Kit for Awimbawe {
    type Belief = AwimbaweState;

    fn belief_from_code(&self, code: &[i64]) -> Result<AwimbaweState, Refusal> {
        Err(Refusal::Invalid(format!("no belief sampler yet ({} integers)", code.len())))
    }

    fn sample(&self, belief: &AwimbaweState, rng: &mut Rng) -> AwimbaweState {
        let _ = rng;
        belief.clone()
    }
}
