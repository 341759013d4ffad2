//! Auf die Nüsse!'s rollout agent, the Rust twin of
//! `spieltisch/games/auf_die_nuesse/bots/rollout.py`: at each choice that matters it plays on
//! from every candidate move in many imagined futures (the expert finishing its own turn, the
//! heuristic in every seat after that) to the start of the turn after next (or of a later
//! turn, `rollout:N/T`), valued there by the search's fitted win chances, and plays the move
//! that won most if it beat the heuristic's own by more than the noise.
//!
//! Every candidate meets the same futures (common random numbers): rollout `k` fixes one
//! *world*, the dice of every roll (keyed by turn and roll) and one order of the cards nobody
//! has seen, and each candidate is played on in each world, so two candidates differ only
//! where their own consequences differ. A world's numbers come from SplitMix64 streams, as in
//! Python, so both languages play the same worlds to the same values.
//!
//! View discipline: nothing in this game is hidden but the order of the unseen cards, which
//! the worlds draw afresh; the agent reads the state only as the acting seat's view shows it.
//! Deterministic by its generator: the worlds' seeds are drawn from it.

use super::expert::choose as expert_choose;
use super::heuristic::choose as heuristic_choose;
use super::search::{at_turn_start, win_chances};
use crate::agents::play::Agent;
use crate::core::playout::playout_seed;
use crate::core::{Node, Rng, Rules};
use crate::games::auf_die_nuesse::model::Stage;
use crate::games::auf_die_nuesse::notation::{CARDS, ROLL_AGAIN, STOP};
use crate::games::auf_die_nuesse::rules::{Nuesse, NuesseState, Outcome};

/// The rollouts per candidate move by default (`ROLLOUTS`).
pub const ROLLOUTS: u32 = 64;
/// The most rollouts per candidate a setting may ask for.
pub const MAX_ROLLOUTS: u32 = 100_000;
/// The turn, counted from the decision (the next player's turn is the first), at whose start
/// a rollout stops by default and is valued by the fitted win chances (`HORIZON`).
pub const HORIZON: u64 = 2;
/// The latest turn a setting may stop the rollouts at (`MAX_HORIZON`).
pub const MAX_HORIZON: u64 = 8;
/// Player moves a rollout may make before it is scored as it stands (a guard; games end
/// long before).
const MAX_STEPS: u32 = 5_000;

/// A world's stream of numbers: SplitMix64, as `_Stream` in Python.
#[derive(Clone, Copy, Debug)]
pub struct Stream(u64);

impl Stream {
    pub fn new(seed: u64) -> Stream {
        Stream(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` small: the modulo's bias is below 2^-56).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// One future: the seed of its dice and the order in which the unseen cards come. The dice
/// of each roll are keyed by the turn (counted from the decision) and the roll within it, so
/// a move that rolls once more, or stops sooner, leaves every later turn's dice as they were.
#[derive(Clone, Debug)]
pub struct World {
    dice: u64,
    cards: Vec<u8>,
}

impl World {
    /// The world of `seed` for a state whose unseen cards are `unseen` (counted per card).
    pub fn new(seed: u64, unseen: &[u8; CARDS]) -> World {
        let mut cards: Vec<u8> = Vec::with_capacity(64);
        for (card, &count) in unseen.iter().enumerate() {
            cards.extend(std::iter::repeat(card as u8).take(usize::from(count)));
        }
        let mut shuffle = Stream::new(playout_seed(seed, 1));
        for i in (1..cards.len()).rev() {
            let j = shuffle.below(i as u64 + 1) as usize;
            cards.swap(i, j);
        }
        World { dice: playout_seed(seed, 0), cards }
    }
}

/// Play `state` on in `world` (`play_out`): `me` by the expert for the rest of the turn under
/// way, everyone else and every later turn by the heuristic, to the start of turn `horizon`
/// (counted from the decision; the next player's turn is the first; [`HORIZON`] by default),
/// valued there by the fitted win chances, or to the end where that comes first or is near.
/// Each player's return (or win chance) into `out`.
pub fn play_out(
    rules: &Nuesse,
    state: &mut NuesseState,
    world: &World,
    me: usize,
    horizon: u64,
    scratch: &mut Vec<u32>,
    out: &mut [f64],
) {
    let mut next_card = 0usize;
    let mut steps = 0u32;
    let (mut turn, mut roll) = (0u64, 0u64);
    loop {
        match rules.node(state) {
            Node::Terminal => break,
            Node::Chance => {
                let outcome = if state.stage == Stage::Roll {
                    if state.track == 0 {
                        turn += 1;
                        roll = 0;
                        if turn >= horizon && at_turn_start(state) {
                            win_chances(rules, state, out);
                            return;
                        }
                    } else {
                        roll += 1;
                    }
                    let pick = Stream::new(playout_seed(playout_seed(world.dice, turn), roll)).below(216) as u8;
                    Outcome::Dice([pick / 36 + 1, pick / 6 % 6 + 1, pick % 6 + 1])
                } else {
                    let card = world.cards.get(next_card).copied().unwrap_or(0);
                    next_card += 1;
                    Outcome::Draw(card)
                };
                rules.apply_outcome(state, &outcome);
            }
            Node::Decision(seat) => {
                scratch.clear();
                rules.legal_actions(state, scratch);
                let action = if scratch.len() == 1 {
                    scratch[0]
                } else if turn == 0 && seat == me {
                    expert_choose(rules, state, seat, scratch)
                } else {
                    heuristic_choose(rules, state, seat, scratch)
                };
                rules.apply_action(state, action);
                steps += 1;
                if steps > MAX_STEPS {
                    break;
                }
            }
        }
    }
    rules.returns(state, out);
}

/// The moves the rollout agent weighs at a decision: at the dice (which white die, roll on or
/// stop) and at a face-up nut or a theft, every legal move; at a roll-or-stop choice the kept
/// jokers' lays are left to the heuristic (only its own choice among them is weighed); the
/// filing of a nut and the setup are not searched (empty: the heuristic's move stands).
pub fn candidates(stage: Stage, legal: &[u32], prior: u32) -> Vec<u32> {
    match stage {
        Stage::Place | Stage::Take | Stage::Steal => legal.to_vec(),
        Stage::Again => legal.iter().copied().filter(|&a| a == ROLL_AGAIN || a == STOP || a == prior).collect(),
        _ => Vec::new(),
    }
}

/// How many standard errors (of the paired difference over the same worlds) a move must win
/// by to be played instead of the heuristic's own (`MARGIN`).
pub const MARGIN: f64 = 1.0;

/// The rollout agent with `rollouts` worlds per decision, each played to the start of turn
/// `horizon`.
pub struct RolloutAgent {
    pub rollouts: u32,
    pub horizon: u64,
}

impl Default for RolloutAgent {
    fn default() -> Self {
        RolloutAgent { rollouts: ROLLOUTS, horizon: HORIZON }
    }
}

impl RolloutAgent {
    /// The agent of a setting (`setting`, as in `rollout:256/3`): the worlds per decision, and
    /// after a slash the turn whose start ends them; `None` where either is out of range.
    pub fn of_setting(setting: &str) -> Option<RolloutAgent> {
        let (rollouts, horizon) = match setting.split_once('/') {
            Some((rollouts, horizon)) => (count(rollouts)?, count(horizon)?),
            None => (count(setting)?, HORIZON),
        };
        let fits = (1..=u64::from(MAX_ROLLOUTS)).contains(&rollouts) && (1..=MAX_HORIZON).contains(&horizon);
        fits.then_some(RolloutAgent { rollouts: u32::try_from(rollouts).ok()?, horizon })
    }
}

/// A setting's whole number, digits only as Python's `_count` reads it (no sign, at most nine
/// digits); `None` where it is none.
fn count(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

impl Agent<Nuesse> for RolloutAgent {
    fn act(&self, rules: &Nuesse, state: &NuesseState, seat: usize, rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        rules.legal_actions(state, scratch);
        let legal = scratch.clone();
        let seed = rand::Rng::gen::<u64>(rng);
        weigh(rules, state, seat, &legal, self.rollouts, self.horizon, seed).0
    }
}

/// The rollout agent's move for `me` among `legal`, its worlds drawn from `seed` and played to
/// the start of turn `horizon`: the heuristic's move, unless another candidate won more over
/// the same `rollouts` worlds by more than [`MARGIN`] standard errors of the difference; with
/// each weighed move's mean return (in `legal` order; none where the heuristic's move stands
/// unweighed).
pub fn weigh(
    rules: &Nuesse,
    state: &NuesseState,
    me: usize,
    legal: &[u32],
    rollouts: u32,
    horizon: u64,
    seed: u64,
) -> (u32, Vec<(u32, f64)>) {
    let prior = heuristic_choose(rules, state, me, legal);
    let moves = candidates(state.stage, legal, prior);
    if moves.len() < 2 || rollouts == 0 {
        return (prior, Vec::new());
    }
    let worlds: Vec<World> =
        (0..u64::from(rollouts)).map(|k| World::new(playout_seed(seed, k), &state.market.unseen)).collect();
    let results = results(rules, state, me, &moves, &worlds, horizon);
    let base = moves.iter().position(|&a| a == prior).unwrap_or(0);
    let n = worlds.len() as f64;
    let mut best = (0.0, prior);
    for (at, row) in results.iter().enumerate() {
        if at == base {
            continue;
        }
        let diffs = row.iter().zip(&results[base]).map(|(a, b)| a - b);
        let (sum, squares) = diffs.fold((0.0, 0.0), |(s, q), d| (s + d, q + d * d));
        let mean = sum / n;
        let spread = ((squares / n - mean * mean).max(0.0) / (n - 1.0).max(1.0)).sqrt();
        if mean > MARGIN * spread && mean > best.0 {
            best = (mean, moves[at]);
        }
    }
    let means = moves.iter().zip(&results).map(|(&action, row)| (action, row.iter().sum::<f64>() / n)).collect();
    (best.1, means)
}

/// Each move's return for `me` in each of `worlds`, played to the start of turn `horizon` (a
/// row per move, in `moves`' order).
pub fn results(
    rules: &Nuesse,
    state: &NuesseState,
    me: usize,
    moves: &[u32],
    worlds: &[World],
    horizon: u64,
) -> Vec<Vec<f64>> {
    let mut scratch = Vec::with_capacity(32);
    let mut out = vec![0.0; rules.players()];
    moves
        .iter()
        .map(|&action| {
            worlds
                .iter()
                .map(|world| {
                    let mut played = *state;
                    rules.apply_action(&mut played, action);
                    play_out(rules, &mut played, world, me, horizon, &mut scratch, &mut out);
                    out[me]
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The worlds and the weighing on their own (agreement with the Python reference is
    //! `tests/native/test_rollout_nuesse.py`'s).

    use super::*;
    use crate::core::{rng_from_seed, Options};

    #[test]
    fn the_stream_is_splitmix64() {
        let mut stream = Stream::new(0);
        assert_eq!([stream.next_u64(), stream.next_u64()], [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]);
    }

    #[test]
    fn a_world_shuffles_exactly_the_unseen_cards() {
        let unseen = [3, 0, 2, 5, 1, 0, 0, 4, 0, 1];
        let world = World::new(11, &unseen);
        let mut counts = [0u8; CARDS];
        for &card in &world.cards {
            counts[usize::from(card)] += 1;
        }
        assert_eq!(counts, unseen);
        assert_ne!(World::new(12, &unseen).cards, world.cards);
    }

    #[test]
    fn a_setting_names_the_worlds_and_the_turn_that_ends_them() {
        let of = |setting: &str| RolloutAgent::of_setting(setting).map(|agent| (agent.rollouts, agent.horizon));
        assert_eq!(of("64"), Some((64, HORIZON)));
        assert_eq!(of("256/3"), Some((256, 3)));
        for bad in ["0", "many", "64/0", "64/9", "64/", "/3", "64/3/1", "-1", "+5", "64/+3", "1000000000"] {
            assert_eq!(of(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_agent_plays_legal_moves_and_the_same_ones_from_the_same_seed() {
        let rules = Nuesse::new(2, &Options::default()).unwrap();
        let agent = RolloutAgent { rollouts: 4, horizon: 3 };
        let play = |seed: u64| {
            let (mut state, mut chance, mut mine) = (rules.initial_state(), rng_from_seed(5), rng_from_seed(seed));
            let (mut legal, mut scratch, mut moves) = (Vec::new(), Vec::new(), Vec::new());
            while moves.len() < 120 && rules.node(&state) != Node::Terminal {
                match rules.node(&state) {
                    Node::Chance => rules.random_chance(&mut state, &mut chance),
                    Node::Decision(seat) => {
                        let action = agent.act(&rules, &state, seat, &mut mine, &mut scratch);
                        legal.clear();
                        rules.legal_actions(&state, &mut legal);
                        assert!(legal.contains(&action), "{action} not in {legal:?}");
                        rules.apply_action(&mut state, action);
                        moves.push(action);
                    }
                    Node::Terminal => {}
                }
            }
            moves
        };
        assert_eq!(play(1), play(1));
    }
}
