//! Awimbawé's search hints and native agents (the mirror of `bots/`): the playout cut-off
//! between rounds ([`evaluate`], `SEARCH`'s) and the rule-of-thumb [`heuristic`] agent, which
//! reads only what its seat's view shows. The book of set moves reads views and stays in
//! Python; there is no playout policy (playouts are random).

pub mod evaluate;
pub mod heuristic;

pub use heuristic::HeuristicAgent;
