//! Native agents, the mirror of `spieltisch/agents/`: the search ([`ismcts`]) and games played
//! end to end between native agents ([`play`]). Unlike the rules core, an agent may read the
//! clock (a search's time budget).

pub mod ismcts;
pub mod play;
