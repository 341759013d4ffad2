//! What a game tells a search about itself: the Rust mirror of `spieltisch/core/kit.py`'s
//! `Belief` and `SearchHints`.
//!
//! A search never sees the true state. The Python face packs the deciding seat's view into a
//! code of integers ([`Kit::belief_from_code`]); each iteration draws a complete world from it
//! ([`Kit::sample`], the game's belief sampler), then plays on by the game's playout policy
//! ([`Kit::playout`]) until the end or until [`Kit::evaluate`] can value the position. Every hint
//! but the sampler has the default a game without that hint has in Python. Pure: no I/O, no
//! clock, every draw from the [`Rng`] passed in.

use super::{Refusal, Rng, Rules};

/// A game's belief sampling and search hints.
pub trait Kit: Rules {
    /// What the deciding seat knows, read from the code the Python face packs from its view.
    type Belief: Clone + Send + Sync + std::fmt::Debug;

    /// The belief of a packed view; [`Refusal::Invalid`] for a code that is none.
    fn belief_from_code(&self, code: &[i64]) -> Result<Self::Belief, Refusal>;

    /// A complete world that shows the belief's view to its viewer, drawn with the same
    /// distribution as the Python game's `belief.sample`.
    fn sample(&self, belief: &Self::Belief, rng: &mut Rng) -> Self::State;

    /// Whether the game has a playout policy (Python's `SearchHints.playout` is set).
    fn has_playout_policy(&self) -> bool {
        false
    }

    /// The playout policy's action at a decision (the game's `SearchHints.playout`); random
    /// without one. `None` when the player to act has no legal action (see
    /// [`Rules::random_action`]).
    fn playout(&self, state: &Self::State, rng: &mut Rng, scratch: &mut Vec<u32>) -> Option<u32> {
        self.random_action(state, rng, scratch)
    }

    /// The playout cut-off (the game's `SearchHints.evaluate`): for a state reached after
    /// `depth` playout steps (chance steps count), each player's expected return written into
    /// `out` and `true`, or `false` to play on.
    fn evaluate(&self, state: &Self::State, depth: usize, out: &mut [f64]) -> bool {
        let _ = (state, depth, out);
        false
    }

    /// The exploration constant, where the game's values call for another than the default.
    fn exploration(&self) -> Option<f64> {
        None
    }

    /// How many decisions deep the search tree may grow (`None`: unlimited).
    fn tree_depth(&self) -> Option<usize> {
        None
    }

    /// The points of a clear lead, where a finished playout's score lead counts besides the
    /// win (the game's `SearchHints.margin`; `None`: the win alone counts).
    fn margin(&self) -> Option<f64> {
        None
    }

    /// The choices worth searching at a decision (the game's `SearchHints.candidates`): keeps
    /// some of `legal` (sorted, more than one) in place, still sorted and never fewer than
    /// two; by default all of them.
    fn candidates(&self, state: &Self::State, legal: &mut Vec<u32>) {
        let _ = (state, legal);
    }
}
