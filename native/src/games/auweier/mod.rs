//! Auweier: worms, Weddings and eggs for 2-4 players, each with a deck they arranged
//! themselves (the Python game: `spieltisch/games/auweier/`).
//!
//! The modules mirror the Python folder: [`notation`] (cards and the action table's ids),
//! [`model`] (the options, stages, ends and the scoring of egg cards), [`deck`] (shuffles and
//! spread shuffles as chance events), [`rules`] (the state, its transitions and the
//! [`crate::core::Rules`] impl), [`encode`] (the RL encoder's observation) and [`belief`]
//! (the belief sampler: a whole state drawn from one player's view, the [`crate::core::Kit`])
//! and [`bots`] (the native heuristic agent).

pub mod belief;
pub mod bots;
pub mod deck;
pub mod encode;
pub mod model;
pub mod notation;
pub mod rules;

#[cfg(test)]
mod belief_tests;
#[cfg(test)]
mod tests;

pub use rules::{Auweier, AuweierState, Shuffled};
