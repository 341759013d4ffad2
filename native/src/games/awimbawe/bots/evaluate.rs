//! Where a search's playout of Awimbawé may stop, and what the match is worth there (the
//! mirror of `bots/evaluate.py`).
//!
//! Between rounds the rounds still to come start from fresh deals, so the match is valued as a
//! run of coin tosses. Pure: no I/O.

use crate::games::awimbawe::model::{Config, Stage};
use crate::games::awimbawe::rules::AwimbaweState;

/// The stages between rounds, where a playout may stop (`BETWEEN_ROUNDS`).
pub const BETWEEN_ROUNDS: [Stage; 2] = [Stage::Deal, Stage::ChooseLeader];

/// Seat 0's chance to take the match when the seats still need `needed` round wins and every
/// round left is a coin toss (the same recursion as Python's, so the same floats).
pub fn match_odds(needed: [u8; 2]) -> f64 {
    if needed[0] == 0 || needed[1] == 0 {
        return if needed[0] == 0 { 1.0 } else { 0.0 };
    }
    (match_odds([needed[0] - 1, needed[1]]) + match_odds([needed[0], needed[1] - 1])) / 2.0
}

/// The cut-off: once a round is over and the next is not dealt yet (and some round has been
/// won), each seat's chance to take the match into `out` and `true`; else `false`, play on.
/// `depth`, the playout steps so far, does not matter here.
pub fn evaluate(config: &Config, state: &AwimbaweState, depth: usize, out: &mut [f64]) -> bool {
    let _ = depth;
    if !BETWEEN_ROUNDS.contains(&state.stage) || state.wins == [0, 0] || out.len() < 2 {
        return false;
    }
    let needed = config.rounds_to_win;
    let odds = match_odds([needed.saturating_sub(state.wins[0]), needed.saturating_sub(state.wins[1])]);
    out[0] = odds;
    out[1] = 1.0 - odds;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_odds_are_coin_tosses() {
        assert_eq!(match_odds([0, 1]), 1.0);
        assert_eq!(match_odds([1, 0]), 0.0);
        assert_eq!(match_odds([1, 1]), 0.5);
        assert_eq!(match_odds([1, 2]), 0.75);
        assert_eq!(match_odds([2, 1]), 0.25);
        assert_eq!(match_odds([3, 3]), 0.5);
    }
}
