//! Auf die Nüsse!: dice, squirrels and nut stores for 2-4 players, mirroring
//! `spieltisch/games/auf_die_nuesse/`: `notation` (cards, spaces and the action ids), `model`
//! (the board's fixed numbers and the options), `rules` (the state and its transitions) and
//! `encode` (the RL encoder's observation).

pub mod belief;
pub mod bots;
pub mod encode;
pub mod model;
pub mod notation;
pub mod rules;

#[cfg(test)]
mod tests;

pub use rules::{Nuesse, NuesseState, Outcome};
