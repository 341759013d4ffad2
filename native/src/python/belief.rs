//! Test hooks of the belief samplers and search hints ([`Kit`]), generic over the game: the
//! worlds a packed view samples, and a state's playout cut-off, for the agreement tests with
//! the Python samplers and hints.

use pyo3::prelude::*;

use super::table::Table;
use super::{guard, refused};
use crate::core::{apply_checked, apply_code, rng_from_seed, Kit, Node, Refusal};

/// The most worlds one call samples.
const MAX_WORLDS: usize = 1_000_000;

/// What [`sample_worlds`] answers: each world's canonical code.
pub type Worlds = PyResult<Vec<Vec<i64>>>;
/// What [`evaluate`] answers: each player's value, or `None` to play on.
pub type Evaluated = PyResult<Option<Vec<f64>>>;

/// `count` worlds sampled from the belief of `belief_code` with the generator seeded by `seed`,
/// each as its canonical code; `InvalidActionError` for a code that is no belief.
pub fn sample_worlds<K: Kit>(py: Python<'_>, rules: &K, belief_code: &[i64], count: usize, seed: u64) -> Worlds {
    guard(py, K::ID, || sample_guarded(py, rules, belief_code, count, seed))
}

fn sample_guarded<K: Kit>(py: Python<'_>, rules: &K, belief_code: &[i64], count: usize, seed: u64) -> Worlds {
    let belief = rules.belief_from_code(belief_code).map_err(|refusal| refused(py, refusal, "a belief code"))?;
    if count > MAX_WORLDS {
        return Err(refused(py, Refusal::Invalid(format!("at most {MAX_WORLDS} worlds a call")), ""));
    }
    py.allow_threads(|| {
        let mut rng = rng_from_seed(seed);
        let worlds = (0..count).map(|_| {
            let mut code = Vec::new();
            rules.canonical(&rules.sample(&belief, &mut rng), &mut code);
            code
        });
        Ok(worlds.collect())
    })
}

/// The playout cut-off at `table`'s state after `depth` playout steps: each player's value, or
/// `None` to play on (the state is rebuilt from its history by `rules`).
pub fn evaluate<K: Kit>(py: Python<'_>, rules: &K, table: &Table<K>, depth: usize) -> Evaluated {
    guard(py, K::ID, || evaluate_guarded(py, rules, table, depth))
}

fn evaluate_guarded<K: Kit>(py: Python<'_>, rules: &K, table: &Table<K>, depth: usize) -> Evaluated {
    let mut state = rules.initial_state();
    let mut scratch = Vec::new();
    for step in table.history(py).iter() {
        let done = match step.extract::<i64>() {
            Ok(action) => apply_checked(rules, &mut state, action, &mut scratch).map(|_| ()),
            Err(_) => apply_code(rules, &mut state, &step.extract::<Vec<i64>>()?).map(|_| ()),
        };
        done.map_err(|refusal| refused(py, refusal, "a step of the history"))?;
    }
    let mut values = vec![0.0; rules.players()];
    Ok(rules.evaluate(&state, depth, &mut values).then_some(values))
}

/// The choices the search tries ([`Kit::candidates`]) at the world sampled from `belief_code`
/// (seeded by `seed`), among its legal actions: for the agreement tests of a game's hint.
pub fn candidates<K: Kit>(py: Python<'_>, rules: &K, belief_code: &[i64], seed: u64) -> PyResult<Vec<u32>> {
    guard(py, K::ID, || {
        let belief = rules.belief_from_code(belief_code).map_err(|refusal| refused(py, refusal, "a belief code"))?;
        let state = rules.sample(&belief, &mut rng_from_seed(seed));
        if !matches!(rules.node(&state), Node::Decision(_)) {
            return Err(refused(py, Refusal::Invalid("the belief's world is no decision".into()), ""));
        }
        let mut legal = Vec::new();
        rules.legal_actions(&state, &mut legal);
        if legal.len() > 1 {
            rules.candidates(&state, &mut legal);
        }
        Ok(legal)
    })
}

/// The playout policy's action ([`Kit::playout`]) at the world sampled from `belief_code` with
/// the generator seeded by `seed`: for the agreement tests of a game's policy.
pub fn playout<K: Kit>(py: Python<'_>, rules: &K, belief_code: &[i64], seed: u64) -> PyResult<u32> {
    guard(py, K::ID, || {
        let belief = rules.belief_from_code(belief_code).map_err(|refusal| refused(py, refusal, "a belief code"))?;
        let mut rng = rng_from_seed(seed);
        let state = rules.sample(&belief, &mut rng);
        if !matches!(rules.node(&state), Node::Decision(_)) {
            return Err(refused(py, Refusal::Invalid("the belief's world is no decision".into()), ""));
        }
        rules.playout(&state, &mut rng, &mut Vec::new()).ok_or_else(|| {
            refused(py, Refusal::Invalid("the belief's world leaves the player to act no legal action".into()), "")
        })
    })
}
