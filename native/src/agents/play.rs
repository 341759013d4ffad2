//! Games played end to end between native agents: the Rust mirror of a lab table playing out
//! (`spieltisch/session/table.py`'s `play_out`), so a study's games need no Python per step.
//!
//! An [`Agent`] picks an action id at a decision of its seat. It is shared by every game and
//! seat that plays it (read-only: the Auf die Eier expert's table, say); what varies per seat is
//! the random generator handed in, seeded by the seat's own seed, so a game depends only on its
//! [`Match`] whatever thread plays it. Chance draws from the match's seed: one stream for the
//! game, or, *keyed* (the lab's common random numbers), a generator of its own for every event,
//! seeded by the seed and the event's place (decisions before it, its index among the chance
//! steps since the last decision), as the Python table keys it. The generators are not
//! Python's, so a native game is another sample than the Python one of the same seed, with the
//! same distribution; its steps replay in the Python engine to the same scores.

use rayon::prelude::*;

use crate::core::playout::playout_seed;
use crate::core::{rng_from_seed, Node, Rng, Rules, Step};

/// A native agent of game `R`.
///
/// View discipline: an agent reads only what its seat's view shows. [`Agent::act`] is handed
/// the state because the native games keep no separate view value; an agent of a game with
/// hidden information must read only the acting seat's share of it (its own hand, the public
/// table), as the Python agent reads its view.
pub trait Agent<R: Rules>: Send + Sync {
    /// The action id this agent plays at a decision of `seat` in `state` (a legal one), drawing
    /// any randomness from `rng` (the seat's own generator); `scratch` is free to use.
    fn act(&self, rules: &R, state: &R::State, seat: usize, rng: &mut Rng, scratch: &mut Vec<u32>) -> u32;
}

/// Uniformly random among the legal actions (Python's `RandomAgent`), for every game.
pub struct RandomAgent;

impl<R: Rules> Agent<R> for RandomAgent {
    fn act(&self, rules: &R, state: &R::State, _seat: usize, rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        rules.random_action(state, rng, scratch).expect("the rules leave the player to act a legal action")
    }
}

/// One game to play: the chance seed, whether chance is keyed, each seat's agent (an index
/// into the roster) and each seat's own seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub seed: u64,
    pub keyed: bool,
    pub seats: Vec<usize>,
    pub agent_seeds: Vec<u64>,
}

/// How one game went: its steps (on request), each player's points, the winners (one bit per
/// seat), each player's return, the player actions made and whether the game is over.
#[derive(Clone, Debug, Default)]
pub struct Played {
    pub steps: Vec<Step>,
    pub moves: u64,
    pub scores: Vec<i64>,
    pub winners: u32,
    pub returns: Vec<f64>,
    pub actions: u64,
    pub finished: bool,
}

/// The seed of the chance event after `decisions` player decisions, `run`-th since the last.
pub fn chance_key(seed: u64, decisions: u64, run: u64) -> u64 {
    playout_seed(playout_seed(seed, decisions), run)
}

/// Play one game from the start between `roster[game.seats[s]]` in seat `s`, at most
/// `max_moves` steps (chance included); keep its steps if `record`.
pub fn play<R: Rules>(rules: &R, roster: &[&dyn Agent<R>], game: &Match, max_moves: u64, record: bool) -> Played {
    let mut state = rules.initial_state();
    let mut seats: Vec<Rng> = game.agent_seeds.iter().map(|&seed| rng_from_seed(seed)).collect();
    let mut chance = rng_from_seed(game.seed);
    let mut scratch: Vec<u32> = Vec::with_capacity(64);
    let mut code = Vec::new();
    let mut played = Played::default();
    let (mut decisions, mut run) = (0u64, 0u64);
    while played.moves < max_moves {
        match rules.node(&state) {
            Node::Terminal => break,
            Node::Chance => {
                if game.keyed {
                    chance = rng_from_seed(chance_key(game.seed, decisions, run));
                }
                let outcome = rules.sample_chance(&state, &mut chance);
                if record {
                    code.clear();
                    rules.outcome_code(&outcome, &mut code);
                    played.steps.push(Step::Chance(code.clone()));
                }
                rules.apply_outcome(&mut state, &outcome);
                run += 1;
            }
            Node::Decision(seat) => {
                let agent = roster[game.seats[seat]];
                let action = agent.act(rules, &state, seat, &mut seats[seat], &mut scratch);
                if record {
                    played.steps.push(Step::Action(action));
                }
                rules.apply_action(&mut state, action);
                decisions += 1;
                run = 0;
                played.actions += 1;
            }
        }
        played.moves += 1;
    }
    played.finished = rules.node(&state) == Node::Terminal;
    rules.scores(&state, &mut played.scores);
    played.winners = rules.winners(&state);
    played.returns = vec![0.0; rules.players()];
    rules.returns(&state, &mut played.returns);
    played
}

/// Every game of `games`, on `threads` threads (1: this thread only); each game depends only on
/// its [`Match`], so the results are the same whatever the thread count.
pub fn play_many<R: Rules>(
    rules: &R,
    roster: &[&dyn Agent<R>],
    games: &[Match],
    max_moves: u64,
    threads: usize,
    record: bool,
) -> Vec<Played> {
    let one = |game: &Match| play(rules, roster, game, max_moves, record);
    if threads <= 1 {
        return games.iter().map(one).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| games.par_iter().map(one).collect()),
        Err(_) => games.iter().map(one).collect(),
    }
}

/// Why a match cannot be played with a roster of `roster` agents in a game of `players`.
pub fn check_match(game: &Match, players: usize, roster: usize) -> Result<(), String> {
    if game.seats.len() != players || game.agent_seeds.len() != players {
        return Err(format!("a match needs {players} seats and {players} seat seeds"));
    }
    match game.seats.iter().find(|&&index| index >= roster) {
        Some(index) => Err(format!("seat agent {index} is not in the roster of {roster}")),
        None => Ok(()),
    }
}

#[cfg(all(test, feature = "auf_die_eier"))]
mod tests {
    use super::*;
    use crate::core::Options;
    use crate::games::auf_die_eier::Eier;

    fn matches(count: u64) -> Vec<Match> {
        (0..count)
            .map(|i| Match { seed: i, keyed: i % 2 == 0, seats: vec![0, 0], agent_seeds: vec![i, i + 1] })
            .collect()
    }

    #[test]
    fn the_same_games_whatever_the_thread_count() {
        let rules = Eier::new(2, &Options::default()).unwrap();
        let roster: [&dyn Agent<Eier>; 1] = [&RandomAgent];
        let games = matches(40);
        let one = play_many(&rules, &roster, &games, 100_000, 1, true);
        let three = play_many(&rules, &roster, &games, 100_000, 3, true);
        for (a, b) in one.iter().zip(&three) {
            assert_eq!(a.steps, b.steps);
            assert_eq!(a.scores, b.scores);
            assert!(a.finished);
        }
    }

    #[test]
    fn max_moves_stops_a_game() {
        let rules = Eier::new(2, &Options::default()).unwrap();
        let roster: [&dyn Agent<Eier>; 1] = [&RandomAgent];
        let played = play(&rules, &roster, &matches(1)[0], 5, true);
        assert_eq!(played.moves, 5);
        assert_eq!(played.steps.len(), 5);
        assert!(!played.finished);
    }
}
