//! Awimbawé: a trick-taking duel with animal powers, the native mirror of
//! `spieltisch/games/awimbawe/`.
//!
//! Two players each get four piles (a face-down card under a face-up one) and a hand of six;
//! they play tricks in which the answer must follow the led land, or else play an eagle (which
//! flees or fights), or else discard. The rhinoceros, the snake and the cheetah open decisions
//! of their own; the deal, a tie of crowns in the first round and the snake's blind pick of a
//! hand card are chance steps. Taking all four hyenas loses a round; otherwise more crowns win
//! it; the first to `rounds_to_win` round wins takes the match.
//!
//! The modules mirror the Python ones: [`model`] (cards, ids, stages, the options),
//! [`rules`] (the state and its transitions), [`encode`] (the RL encoder's observation),
//! [`belief`] (the belief sampler, with [`memory`]'s weights of blind voids) and [`bots`] (the
//! search hints).

pub mod belief;
pub mod bots;
pub mod encode;
pub mod memory;
pub mod model;
pub mod rules;
#[cfg(test)]
mod tests;

pub use rules::{Awimbawe, AwimbaweState, Outcome};
