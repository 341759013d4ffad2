//! Auf die Eier's own native agents (mirrors `spieltisch/games/auf_die_eier/bots/`): the exact
//! expert, playing from the table the Python expert computes and hands over, the racer, which
//! plays the expert's turns for the chance to win instead of points, and the rule-of-thumb
//! heuristic. Nothing in the game is hidden, so all read the state as the view shows it.

pub mod expert;
pub mod heuristic;
pub mod racer;

pub use expert::{ExpertAgent, ExpertTable};
pub use heuristic::HeuristicAgent;
pub use racer::RacerAgent;
