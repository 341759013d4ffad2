//! Auf die Nüsse!'s native agents and aids for the native search, mirroring
//! `spieltisch/games/auf_die_nuesse/bots/`: the [`heuristic`] and [`expert`] agents, the
//! expert's turn plan ([`plan`]), the prices both choose by ([`judge`]), and the playout
//! policy and cut-off evaluation of `bots.SEARCH` ([`search`]). The book stays in Python: the
//! Python agent plays book moves before it calls the native search.

pub mod expert;
pub mod heuristic;
pub mod judge;
pub mod plan;
pub mod rollout;
pub mod search;

pub use expert::ExpertAgent;
pub use heuristic::HeuristicAgent;
pub use rollout::RolloutAgent;

#[cfg(test)]
mod tests;

/// `SEARCH.exploration`: ISMCTS's constant for values that are win chances one choice moves by
/// a few points at most.
pub const EXPLORATION: f64 = 0.15;
/// `SEARCH.tree_depth`: the tree holds the choices at hand only.
pub const TREE_DEPTH: usize = 1;
