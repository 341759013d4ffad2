//! The belief samplers' test hook: worlds drawn natively from a packed view, as canonical
//! codes, so that the tests can hold them against the view and against the Python sampler.

use super::{guard, refused};
use crate::core::{rng_from_seed, Kit};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// What [`sample_worlds`] gives Python: each world's canonical code.
pub type Worlds = PyResult<Vec<Vec<i64>>>;

/// The most worlds one call draws.
const MOST_WORLDS: usize = 1_000_000;

/// `count` worlds drawn by `rules`' sampler from the belief `belief_code` packs, with the
/// generator seeded by `seed`: their canonical codes (the same for the same seed).
pub fn sample_worlds<K: Kit>(py: Python<'_>, rules: &K, belief_code: &[i64], count: usize, seed: u64) -> Worlds {
    if count > MOST_WORLDS {
        return Err(PyValueError::new_err(format!("count must be from 0 to {MOST_WORLDS}, not {count}")));
    }
    guard(py, K::ID, || {
        let belief = rules.belief_from_code(belief_code).map_err(|refusal| refused(py, refusal, "a belief code"))?;
        let mut rng = rng_from_seed(seed);
        let mut worlds = Vec::with_capacity(count);
        for _ in 0..count {
            let world = rules.sample(&belief, &mut rng);
            let mut code = Vec::new();
            rules.canonical(&world, &mut code);
            worlds.push(code);
        }
        Ok(worlds)
    })
}
