//! Auf die Eier's own native agents (mirrors `spieltisch/games/auf_die_eier/bots/`): the exact
//! expert, playing from the table the Python expert computes and hands over, the racer, which
//! plays the expert's turns for the chance to win instead of points, and the rule-of-thumb
//! heuristic; and the search's aids ([`search`]: the expert's playouts and their cut-off).
//! Nothing in the game is hidden, so all read the state as the view shows it.

pub mod expert;
pub mod heuristic;
pub mod racer;
pub mod search;

pub use expert::{ExpertAgent, ExpertTable};
pub use heuristic::HeuristicAgent;
pub use racer::RacerAgent;
/// `SEARCH.tree_depth`: the tree holds the choices at hand only.
pub const TREE_DEPTH: usize = 1;
