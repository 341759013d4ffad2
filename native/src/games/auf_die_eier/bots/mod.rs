//! Auf die Eier's own native agents (mirrors `spieltisch/games/auf_die_eier/bots/`): the exact
//! expert, playing from the table the Python expert computes and hands over, and the rule-of-
//! thumb heuristic. Nothing in the game is hidden, so both read the state as the view shows it.

pub mod expert;
pub mod heuristic;

pub use expert::{ExpertAgent, ExpertTable};
pub use heuristic::HeuristicAgent;
