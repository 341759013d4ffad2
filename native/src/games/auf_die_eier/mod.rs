//! Auf die Eier: push-your-luck egg dice for 2 to 6 players, first to the goal (100 points).
//!
//! The native mirror of `spieltisch/games/auf_die_eier/`, module by module: `model` (numbers,
//! config, stages), `notation` (faces and the action table), `rules` (the state and its
//! transitions), `encode` (the RL observation). Chance outcomes are throws, coded as the count
//! of each face in the order W C R P F H, exactly the Python `Roll`'s dice.

pub mod belief;
pub mod bots;
pub mod encode;
pub mod model;
pub mod notation;
pub mod race;
pub mod rules;
#[cfg(test)]
mod tests;

pub use rules::{Eier, EierState, MUTATION};
