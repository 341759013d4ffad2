//! Random playouts inside Rust: many at once, on as many threads as asked, seeded so that the
//! same seed gives the same games whatever the thread count.

use rayon::prelude::*;

use super::{rng_from_seed, Node, Rules, Step};

/// What one playout gives: each player's return, the number of steps (actions and chance
/// outcomes) and, on request, the steps themselves.
#[derive(Clone, Debug, Default)]
pub struct Playout {
    pub returns: Vec<f64>,
    pub steps: u64,
    pub record: Option<Vec<Step>>,
}

/// The seed of playout `index` of a batch seeded with `seed` (SplitMix64 of the pair), so
/// each playout has a stream of its own that does not depend on how the batch is split.
pub fn playout_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Play `state` out uniformly at random (chance with its true probabilities) to the end.
pub fn play_out<R: Rules>(rules: &R, state: &mut R::State, seed: u64, record: bool) -> Playout {
    let mut rng = rng_from_seed(seed);
    let mut legal: Vec<u32> = Vec::with_capacity(64);
    let mut steps = 0u64;
    let mut kept: Option<Vec<Step>> = if record { Some(Vec::new()) } else { None };
    let mut code = Vec::new();
    loop {
        match rules.node(state) {
            Node::Terminal => break,
            Node::Chance => {
                if let Some(kept) = kept.as_mut() {
                    let outcome = rules.sample_chance(state, &mut rng);
                    code.clear();
                    rules.outcome_code(&outcome, &mut code);
                    kept.push(Step::Chance(code.clone()));
                    rules.apply_outcome(state, &outcome);
                } else {
                    rules.random_chance(state, &mut rng);
                }
            }
            Node::Decision(_) => {
                let action = rules
                    .random_action(state, &mut rng, &mut legal)
                    .expect("the rules leave the player to act a legal action");
                if let Some(kept) = kept.as_mut() {
                    kept.push(Step::Action(action));
                }
                rules.apply_action(state, action);
            }
        }
        steps += 1;
    }
    let mut returns = vec![0.0; rules.players()];
    rules.returns(state, &mut returns);
    Playout { returns, steps, record: kept }
}

/// `count` playouts from `start`, playout `i` seeded with [`playout_seed`]`(seed, i)`, on
/// `threads` threads (1: this thread only).
pub fn play_outs<R: Rules>(
    rules: &R,
    start: &R::State,
    count: usize,
    seed: u64,
    threads: usize,
    record: bool,
) -> Vec<Playout> {
    let one = |index: usize| {
        let mut state = start.clone();
        play_out(rules, &mut state, playout_seed(seed, index as u64), record)
    };
    if threads <= 1 {
        return (0..count).map(one).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| (0..count).into_par_iter().map(one).collect()),
        Err(_) => (0..count).map(one).collect(),
    }
}
