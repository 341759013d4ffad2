//! Auweier's native agents (the mirror of `bots/`): the rule-of-thumb [`heuristic`], which
//! reads only what its seat's view shows ([`reading`]) and arranges its deck by the [`book`]'s
//! plan. The book as a search hint reads views and stays in Python.

pub mod book;
pub mod heuristic;
pub mod reading;

#[cfg(test)]
mod tests;

pub use heuristic::HeuristicAgent;

/// The points of a clear lead for a search's finished playouts (Python's `SEARCH.margin`).
pub const MARGIN: f64 = 4.0;
