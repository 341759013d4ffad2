//! `nuesse_rollout`: Auf die Nüsse!'s rollout agent ([`crate::games::auf_die_nuesse::bots::rollout`])
//! for the Python agent of the same name, which hands over its view's belief code (the one state
//! the view shows) and gets the move to play with what each weighed move won.

use pyo3::prelude::*;

use super::{guard, refused, NuesseGame};
use crate::core::{Kit, Node, Refusal, Rules};
use crate::games::auf_die_nuesse::bots::rollout::{weigh, HORIZON, MAX_HORIZON, MAX_ROLLOUTS};
use crate::games::auf_die_nuesse::Nuesse;

/// The rollout agent's move at the decision of belief code `belief` in `game` (a native Auf
/// die Nüsse! game), with `rollouts` worlds drawn from `seed`, each played to the start of turn
/// `horizon`: `(action id, [(action id, mean return), ...])`, the weighed moves in legal order
/// (none where the heuristic's move stands unweighed).
#[pyfunction]
#[pyo3(signature = (game, belief, rollouts, seed, horizon = HORIZON))]
pub fn nuesse_rollout(
    py: Python<'_>,
    game: &Bound<'_, NuesseGame>,
    belief: Vec<i64>,
    rollouts: u32,
    seed: u64,
    horizon: u64,
) -> PyResult<(u32, Vec<(u32, f64)>)> {
    let rules = game.get().rules.clone();
    guard(py, Nuesse::ID, || {
        if !(1..=MAX_ROLLOUTS).contains(&rollouts) {
            let text = format!("rollout takes 1 to {MAX_ROLLOUTS} rollouts per move, not {rollouts}");
            return Err(refused(py, Refusal::Option(text), ""));
        }
        if !(1..=MAX_HORIZON).contains(&horizon) {
            let text = format!("rollout plays its futures 1 to {MAX_HORIZON} turns ahead, not {horizon}");
            return Err(refused(py, Refusal::Option(text), ""));
        }
        let state = rules.belief_from_code(&belief).map_err(|refusal| refused(py, refusal, ""))?;
        let Node::Decision(me) = rules.node(&state) else {
            return Err(refused(py, Refusal::Invalid("the rollout agent acts at a decision".into()), ""));
        };
        let mut legal = Vec::new();
        rules.legal_actions(&state, &mut legal);
        Ok(py.allow_threads(|| weigh(&rules, &state, me, &legal, rollouts, horizon, seed)))
    })
}
