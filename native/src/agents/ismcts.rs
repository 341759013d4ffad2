//! Single-observer ISMCTS over any game with a [`Kit`]: the native twin of
//! `spieltisch/agents/ismcts.py`, step for step.
//!
//! Each iteration draws a complete world from the deciding seat's belief ([`Kit::sample`]),
//! then walks one tree shared by all those worlds: chance is sampled, never branched on; a
//! forced move (one legal action) is played without a node; at a real choice, narrowed to the
//! game's [`Kit::candidates`] where it names some, the children are rated by UCB1 with
//! availability counts, and the first untried action met (drawn
//! uniformly among the untried ones) is added and ends the descent, as does the tree's depth
//! cap. A playout then goes on by the game's policy (or at random) until the end or until
//! [`Kit::evaluate`] values the position, and every node on the path is credited with the
//! return of the player who moved into it (at the end of the game: the share of the win, or,
//! for a game with a [`Kit::margin`], that share blended with the score lead). The search stops at its budget (iterations, or
//! seconds on the clock), or earlier once the most visited root choice can no longer be
//! overtaken.
//!
//! With `threads` above one, that many independent trees (root parallelism) share the
//! budget, each seeded from the one seed, and their root statistics are summed; the result
//! depends only on the seed, the thread count and the iteration budget.

use std::sync::OnceLock;
use std::time::Instant;

use rand::Rng as _;
use rayon::prelude::*;

use crate::core::playout::playout_seed;
use crate::core::{rng_from_seed, Kit, Node, Refusal, Rng};

/// The exploration constant of a game that sets none (Python's `EXPLORATION`).
pub const EXPLORATION: f64 = 0.7;
/// How often (in iterations) a search asks whether its choice can still change.
pub const CHECK_EVERY: u64 = 32;
/// The share of a finished playout's value that its score lead makes, in a game with a margin
/// hint (Python's `MARGIN_WEIGHT`).
pub const MARGIN_WEIGHT: f64 = 0.5;
/// The largest iteration budget (Python's `MAX_ITERATIONS`).
pub const MAX_ITERATIONS: u64 = 100_000_000;
/// The longest time budget in seconds (Python's `MAX_SECONDS`).
pub const MAX_SECONDS: f64 = 3600.0;
/// The most trees searched side by side.
pub const MAX_THREADS: usize = 64;

/// How long a search may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// This many iterations in all (split between the trees).
    Iterations(u64),
    /// This many seconds of wall-clock time (every tree runs until then).
    Seconds(f64),
}

/// How a search runs: its budget, seed, trees and the overrides of the game's hints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    pub seed: u64,
    /// Independent trees searched in parallel (1: one tree on this thread).
    pub threads: usize,
    /// The exploration constant (`None`: the game's, else [`EXPLORATION`]).
    pub exploration: Option<f64>,
    /// The tree's depth cap (`None`: the game's, which may be none).
    pub tree_depth: Option<usize>,
}

impl Settings {
    /// One tree, no overrides.
    pub fn new(budget: Budget, seed: u64) -> Settings {
        Settings { budget, seed, threads: 1, exploration: None, tree_depth: None }
    }

    /// Refuse a budget, thread count or override out of bounds ([`Refusal::Option`]).
    pub fn check(&self) -> Result<(), Refusal> {
        match self.budget {
            Budget::Iterations(n) if !(1..=MAX_ITERATIONS).contains(&n) => {
                return Err(Refusal::Option(format!("a search takes 1 to {MAX_ITERATIONS} iterations, not {n}")))
            }
            Budget::Seconds(s) if !(s.is_finite() && s > 0.0 && s <= MAX_SECONDS) => {
                return Err(Refusal::Option(format!(
                    "a search takes more than 0 and at most {MAX_SECONDS} seconds, not {s}"
                )))
            }
            _ => {}
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(Refusal::Option(format!("a search takes 1 to {MAX_THREADS} threads, not {}", self.threads)));
        }
        if let Some(c) = self.exploration {
            if !c.is_finite() {
                return Err(Refusal::Option(format!("the exploration constant must be finite, not {c}")));
            }
        }
        if self.tree_depth == Some(0) {
            return Err(Refusal::Option("the search tree's depth must be at least 1, not 0".into()));
        }
        Ok(())
    }
}

/// How the search rated one root choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    pub action: u32,
    pub visits: u64,
    pub mean_return: f64,
}

/// The outcome of one search: the iterations run (over all trees), the time spent and every
/// root choice, most visited first (then higher mean; then in the order given).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub iterations: u64,
    pub seconds: f64,
    pub choices: Vec<Choice>,
}

impl SearchResult {
    /// The choice to play: the most visited.
    pub fn action(&self) -> u32 {
        self.choices[0].action
    }
}

/// The player of the root, which no one moved into.
const NOBODY: u32 = u32::MAX;

/// A child of a node: reached when `player` takes `action`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    player: u32,
    action: u32,
    child: u32,
}

/// A tree node: reached by `player`'s move, with its visit and reward totals. Its children
/// are kept sorted by (player, action), so one pass beside the sorted legal actions finds them.
#[derive(Clone, Debug)]
struct TreeNode {
    player: u32,
    visits: u64,
    available: u64,
    reward: f64,
    children: Vec<Edge>,
}

impl TreeNode {
    fn new(player: u32) -> TreeNode {
        TreeNode { player, visits: 0, available: 0, reward: 0.0, children: Vec::new() }
    }
}

/// One tree's search: the arena of nodes (index 0 is the root) and the scratch space every
/// iteration reuses, so an iteration allocates nothing but the node it adds.
struct Tree<'a, K: Kit> {
    kit: &'a K,
    belief: &'a K::Belief,
    rng: Rng,
    exploration: f64,
    tree_depth: Option<usize>,
    margin: Option<f64>,
    nodes: Vec<TreeNode>,
    path: Vec<u32>,
    legal: Vec<u32>,
    untried: Vec<u32>,
    scratch: Vec<u32>,
    returns: Vec<f64>,
    scores: Vec<i64>,
}

impl<'a, K: Kit> Tree<'a, K> {
    fn new(kit: &'a K, belief: &'a K::Belief, seed: u64, exploration: f64, tree_depth: Option<usize>) -> Self {
        Tree {
            kit,
            belief,
            rng: rng_from_seed(seed),
            exploration,
            tree_depth,
            margin: kit.margin(),
            nodes: vec![TreeNode::new(NOBODY)],
            path: Vec::with_capacity(64),
            legal: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            scratch: Vec::with_capacity(64),
            returns: vec![0.0; kit.players()],
            scores: Vec::with_capacity(kit.players()),
        }
    }

    /// One iteration: sample a world, descend and grow the tree, play out, credit the path.
    /// [`Refusal::Invalid`] when the world reaches a decision with no legal action (a belief
    /// code no play leads to can describe one), which refuses the whole search.
    fn iterate(&mut self) -> Result<(), Refusal> {
        let kit = self.kit;
        let mut state = kit.sample(self.belief, &mut self.rng);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            let player = match kit.node(&state) {
                Node::Terminal => break,
                Node::Chance => {
                    kit.random_chance(&mut state, &mut self.rng);
                    continue;
                }
                Node::Decision(player) => player as u32,
            };
            self.legal.clear();
            kit.legal_actions(&state, &mut self.legal);
            if self.legal.is_empty() {
                return Err(no_legal_action::<K>());
            }
            if self.legal.len() == 1 {
                kit.apply_action(&mut state, self.legal[0]);
                continue;
            }
            kit.candidates(&state, &mut self.legal);
            let (child, action, expanded) = self.select(node, player);
            kit.apply_action(&mut state, action);
            self.path.push(child);
            node = child;
            if expanded || self.tree_depth.is_some_and(|depth| self.path.len() > depth) {
                break;
            }
        }
        self.playout(&mut state)?;
        for &visited in &self.path {
            let visited = &mut self.nodes[visited as usize];
            visited.visits += 1;
            if visited.player != NOBODY {
                visited.reward += self.returns[visited.player as usize];
            }
        }
        Ok(())
    }

    /// The child of `node` to follow for `player` among `self.legal` (sorted): an untried
    /// action if any (drawn uniformly among them, in legal order), else the best by UCB1;
    /// every tried child of the legal set counts one more availability. Returns the child,
    /// its action and whether it was just added.
    fn select(&mut self, node: u32, player: u32) -> (u32, u32, bool) {
        debug_assert!(self.legal.windows(2).all(|pair| pair[0] < pair[1]), "legal actions in increasing order");
        // Taken out while the children's own statistics change (a move, no allocation).
        let mut children = std::mem::take(&mut self.nodes[node as usize].children);
        let from = children.partition_point(|edge| edge.player < player);
        let to = from + children[from..].partition_point(|edge| edge.player == player);
        self.untried.clear();
        let mut best: Option<(f64, usize)> = None;
        let mut at = from;
        for &action in &self.legal {
            while at < to && children[at].action < action {
                at += 1;
            }
            if at < to && children[at].action == action {
                let child = &mut self.nodes[children[at].child as usize];
                child.available += 1;
                let visits = child.visits as f64;
                let score = child.reward / visits + self.exploration * (ln_count(child.available) / visits).sqrt();
                if best.map_or(true, |(top, _)| score > top) {
                    best = Some((score, at));
                }
            } else {
                self.untried.push(action);
            }
        }
        let chosen = if self.untried.is_empty() {
            let (_, at) = best.expect("a decision has a legal action");
            (children[at].child, children[at].action, false)
        } else {
            let action = self.untried[self.rng.gen_range(0..self.untried.len())];
            let child = self.nodes.len() as u32;
            let mut fresh = TreeNode::new(player);
            fresh.available = 1;
            self.nodes.push(fresh);
            let position = from + children[from..to].partition_point(|edge| edge.action < action);
            children.insert(position, Edge { player, action, child });
            (child, action, true)
        };
        self.nodes[node as usize].children = children;
        chosen
    }

    /// Whether the most visited root choice can no longer be overtaken in `left` visits.
    fn settled(&self, left: f64) -> bool {
        let (mut first, mut second) = (0u64, 0u64);
        let root = &self.nodes[0];
        for edge in &root.children {
            let visits = self.nodes[edge.child as usize].visits;
            if visits > first {
                (first, second) = (visits, first);
            } else if visits > second {
                second = visits;
            }
        }
        root.children.len() >= 2 && (first - second) as f64 > left
    }

    /// Visits and reward totals of the root's child by each of `actions` (zero for one never
    /// tried); where players differ between worlds, the first player's child.
    fn root_stats(&self, actions: &[u32]) -> Vec<(u64, f64)> {
        let root = &self.nodes[0];
        actions
            .iter()
            .map(|&action| {
                root.children.iter().find(|edge| edge.action == action).map_or((0, 0.0), |edge| {
                    let child = &self.nodes[edge.child as usize];
                    (child.visits, child.reward)
                })
            })
            .collect()
    }

    /// Play on from `state` (to the end, or to where the game's evaluator values it) and write
    /// each player's expected return into `self.returns`; [`Refusal::Invalid`] at a decision
    /// with no legal action.
    fn playout(&mut self, state: &mut K::State) -> Result<(), Refusal> {
        let kit = self.kit;
        let mut depth = 0usize;
        loop {
            match kit.node(state) {
                Node::Terminal => break,
                _ if kit.evaluate(state, depth, &mut self.returns) => return Ok(()),
                Node::Chance => kit.random_chance(state, &mut self.rng),
                Node::Decision(_) => {
                    let action = if kit.has_playout_policy() {
                        kit.playout(state, &mut self.rng, &mut self.scratch)
                    } else {
                        kit.random_action(state, &mut self.rng, &mut self.scratch)
                    };
                    kit.apply_action(state, action.ok_or_else(no_legal_action::<K>)?);
                }
            }
            depth += 1;
        }
        kit.returns(state, &mut self.returns);
        if let Some(margin) = self.margin {
            self.scores.clear();
            kit.scores(state, &mut self.scores);
            blend_lead(&mut self.returns, &self.scores, margin);
        }
        Ok(())
    }
}

/// Blend each player's share of the win in `returns` with their score lead (their score less
/// the best other) as `(1 + tanh(lead / margin)) / 2`, by [`MARGIN_WEIGHT`] (Python's
/// `end_value`).
fn blend_lead(returns: &mut [f64], scores: &[i64], margin: f64) {
    for (player, value) in returns.iter_mut().enumerate() {
        let best_other = scores.iter().enumerate().filter(|&(other, _)| other != player).map(|(_, &s)| s).max();
        let lead = best_other.map_or(0, |best| scores[player] - best) as f64;
        let leading = 0.5 * (1.0 + (lead / margin).tanh());
        *value = (1.0 - MARGIN_WEIGHT) * *value + MARGIN_WEIGHT * leading;
    }
}

/// One tree's share of the budget.
#[derive(Clone, Copy, Debug)]
enum Share {
    Iterations(u64),
    Seconds(f64),
}

/// What one tree found: its iterations and the root statistics of each asked action.
struct TreeResult {
    iterations: u64,
    stats: Vec<(u64, f64)>,
}

/// What every tree of one search shares.
struct Plan<'a, K: Kit> {
    kit: &'a K,
    belief: &'a K::Belief,
    actions: &'a [u32],
    exploration: f64,
    tree_depth: Option<usize>,
    start: Instant,
}

impl<K: Kit> Plan<'_, K> {
    /// Grow one tree within `share` (a time share counts from the search's start) and read
    /// its root; the refusal of an iteration's world ends it.
    fn grow(&self, seed: u64, share: Share) -> Result<TreeResult, Refusal> {
        let mut tree = Tree::new(self.kit, self.belief, seed, self.exploration, self.tree_depth);
        let mut iterations = 0u64;
        loop {
            tree.iterate()?;
            iterations += 1;
            let left = match share {
                Share::Iterations(budget) => {
                    if iterations >= budget {
                        break;
                    }
                    (budget - iterations) as f64
                }
                Share::Seconds(seconds) => {
                    let elapsed = self.start.elapsed().as_secs_f64();
                    if elapsed + elapsed / iterations as f64 > seconds {
                        break;
                    }
                    // The iterations the budget still allows, estimated from the pace so far.
                    (seconds - elapsed) * iterations as f64 / elapsed
                }
            };
            if iterations % CHECK_EVERY == 0 && tree.settled(left) {
                break;
            }
        }
        Ok(TreeResult { iterations, stats: tree.root_stats(self.actions) })
    }
}

/// The refusal of a sampled world whose player to act has no legal action.
fn no_legal_action<K: Kit>() -> Refusal {
    Refusal::Invalid(format!("the belief gives {} a world where the player to act has no legal action", K::ID))
}

/// The seed of tree `index` of `trees` searched with `seed`: the seed itself for one tree.
pub fn tree_seed(seed: u64, index: usize, trees: usize) -> u64 {
    if trees == 1 {
        seed
    } else {
        playout_seed(seed, index as u64)
    }
}

/// Search from `belief` for the seat it belongs to and rate each of `actions` (the root's
/// legal action ids, in the order the result keeps among equals).
///
/// Refuses settings out of bounds ([`Settings::check`]) and actions that are none of the
/// game's ([`Refusal::Invalid`]).
pub fn search<K: Kit>(
    kit: &K,
    belief: &K::Belief,
    actions: &[u32],
    settings: &Settings,
) -> Result<SearchResult, Refusal> {
    settings.check()?;
    if actions.is_empty() {
        return Err(Refusal::Invalid("a search needs the legal actions it chooses from".into()));
    }
    if let Some(&bad) = actions.iter().find(|&&action| action as usize >= kit.num_distinct_actions()) {
        return Err(Refusal::Invalid(format!("{bad} is no action id of {}", K::ID)));
    }
    let start = Instant::now();
    let exploration = settings.exploration.or_else(|| kit.exploration()).unwrap_or(EXPLORATION);
    let tree_depth = settings.tree_depth.or_else(|| kit.tree_depth());
    let trees = match settings.budget {
        Budget::Iterations(budget) => settings.threads.min(usize::try_from(budget).unwrap_or(usize::MAX)),
        Budget::Seconds(_) => settings.threads,
    };
    let share = |index: usize| match settings.budget {
        Budget::Iterations(budget) => {
            let (each, extra) = (budget / trees as u64, budget % trees as u64);
            Share::Iterations(each + u64::from((index as u64) < extra))
        }
        Budget::Seconds(seconds) => Share::Seconds(seconds),
    };
    let plan = Plan { kit, belief, actions, exploration, tree_depth, start };
    let one = |index: usize| plan.grow(tree_seed(settings.seed, index, trees), share(index));
    let grown: Vec<TreeResult> = if trees == 1 {
        vec![one(0)?]
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(trees).build() {
            Ok(pool) => pool.install(|| (0..trees).into_par_iter().map(one).collect::<Result<_, _>>())?,
            Err(_) => (0..trees).map(one).collect::<Result<_, _>>()?,
        }
    };
    let mut choices: Vec<Choice> = actions
        .iter()
        .enumerate()
        .map(|(at, &action)| {
            let (visits, reward) =
                grown.iter().fold((0u64, 0.0f64), |(v, r), tree| (v + tree.stats[at].0, r + tree.stats[at].1));
            let mean_return = if visits > 0 { reward / visits as f64 } else { 0.0 };
            Choice { action, visits, mean_return }
        })
        .collect();
    choices.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean_return.total_cmp(&a.mean_return)));
    Ok(SearchResult {
        iterations: grown.iter().map(|tree| tree.iterations).sum(),
        seconds: start.elapsed().as_secs_f64(),
        choices,
    })
}

/// Availability counts below this have their logarithm looked up, not worked out.
const LN_TABLE: usize = 1 << 14;

/// `ln(count)` as `f64::ln` gives it (from a table for the small counts UCB1 meets most).
fn ln_count(count: u64) -> f64 {
    static TABLE: OnceLock<Box<[f64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..LN_TABLE).map(|n| (n as f64).ln()).collect());
    usize::try_from(count).ok().and_then(|n| table.get(n)).copied().unwrap_or_else(|| (count as f64).ln())
}

#[cfg(test)]
mod tests {
    //! The search on a small game whose best moves are known: player 0 picks a number `a`
    //! (0 to 3), player 1 must pass (a forced move), then picks `b` (0 or 1), then a die
    //! decides: player 0 wins when it shows below `a + 2 - b`. So 3 is best for player 0 and
    //! 1 for player 1, and player 0 then wins 4 times in 6. A die of [`STUCK`] before the
    //! throw leaves player 1 no move: a position no play reaches, as a crafted belief can give.

    use proptest::prelude::*;

    use super::*;
    use crate::core::{Options, Prob, Rng, Rules};

    struct Pick {
        depth_hint: Option<usize>,
        /// Player 0's pick narrowed to these candidates (all four when empty).
        narrow: &'static [u32],
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct PickState {
        stage: u8,
        a: u8,
        b: u8,
        die: u8,
    }

    impl Rules for Pick {
        type State = PickState;
        type Outcome = u8;
        const ID: &'static str = "pick";

        fn new(_players: usize, _options: &Options) -> Result<Self, Refusal> {
            Ok(Pick { depth_hint: None, narrow: &[] })
        }
        fn players(&self) -> usize {
            2
        }
        fn num_distinct_actions(&self) -> usize {
            4
        }
        fn observation_size(&self) -> usize {
            0
        }
        fn initial_state(&self) -> PickState {
            PickState { stage: 0, a: 0, b: 0, die: 0 }
        }
        fn node(&self, state: &PickState) -> Node {
            match state.stage {
                0 => Node::Decision(0),
                1 | 2 => Node::Decision(1),
                3 => Node::Chance,
                _ => Node::Terminal,
            }
        }
        fn legal_actions(&self, state: &PickState, out: &mut Vec<u32>) {
            match state.stage {
                0 => out.extend(0..4),
                1 => out.push(0),
                2 if state.die != STUCK => out.extend(0..2),
                _ => {}
            }
        }
        fn apply_action(&self, state: &mut PickState, action: u32) {
            match state.stage {
                0 => state.a = action as u8,
                2 => state.b = action as u8,
                _ => {}
            }
            state.stage += 1;
        }
        fn chance_outcomes(&self, _state: &PickState, out: &mut Vec<(u8, Prob)>) -> Result<(), Refusal> {
            out.extend((0..6).map(|face| (face, Prob::new(1, 6))));
            Ok(())
        }
        fn sample_chance(&self, _state: &PickState, rng: &mut Rng) -> u8 {
            rng.gen_range(0..6)
        }
        fn apply_outcome(&self, state: &mut PickState, outcome: &u8) {
            state.die = *outcome;
            state.stage = 4;
        }
        fn check_outcome(&self, _state: &PickState, _outcome: &u8) -> Result<(), Refusal> {
            Ok(())
        }
        fn outcome_code(&self, outcome: &u8, out: &mut Vec<i64>) {
            out.push(i64::from(*outcome));
        }
        fn outcome_from_code(&self, _state: &PickState, code: &[i64]) -> Result<u8, Refusal> {
            Ok(code[0] as u8)
        }
        fn scores(&self, _state: &PickState, _out: &mut Vec<i64>) {}
        fn winners(&self, state: &PickState) -> u32 {
            match state.stage {
                4 if state.die + state.b < state.a + 2 => 1,
                4 => 2,
                _ => 0,
            }
        }
        fn observe(&self, _state: &PickState, _seat: Option<usize>, _out: &mut [f32]) {}
        fn canonical(&self, state: &PickState, out: &mut Vec<i64>) {
            out.extend([state.stage, state.a, state.b, state.die].map(i64::from));
        }
    }

    impl Kit for Pick {
        type Belief = PickState;
        fn belief_from_code(&self, _code: &[i64]) -> Result<PickState, Refusal> {
            Ok(self.initial_state())
        }
        fn sample(&self, belief: &PickState, _rng: &mut Rng) -> PickState {
            *belief
        }
        fn tree_depth(&self) -> Option<usize> {
            self.depth_hint
        }
        fn candidates(&self, state: &PickState, legal: &mut Vec<u32>) {
            if state.stage == 0 && !self.narrow.is_empty() {
                legal.retain(|action| self.narrow.contains(action));
            }
        }
    }

    const ROOT: [u32; 4] = [0, 1, 2, 3];
    /// The die of a belief whose player 1 has no move at its second decision.
    const STUCK: u8 = 9;

    fn run(budget: Budget, seed: u64, threads: usize) -> SearchResult {
        let game = Pick { depth_hint: None, narrow: &[] };
        let settings = Settings { threads, ..Settings::new(budget, seed) };
        search(&game, &game.initial_state(), &ROOT, &settings).expect("settings within bounds")
    }

    /// The height of the tree below node `at` (0 for a leaf).
    fn height(tree: &Tree<'_, Pick>, at: u32) -> usize {
        let children = &tree.nodes[at as usize].children;
        children.iter().map(|edge| 1 + height(tree, edge.child)).max().unwrap_or(0)
    }

    #[test]
    fn the_search_finds_the_best_move_and_rates_it_near_its_true_value() {
        let result = run(Budget::Iterations(4000), 7, 1);
        assert_eq!(result.action(), 3);
        assert!((result.choices[0].mean_return - 4.0 / 6.0).abs() < 0.05, "{result:?}");
        let mut actions: Vec<u32> = result.choices.iter().map(|c| c.action).collect();
        actions.sort_unstable();
        assert_eq!(actions, ROOT);
    }

    #[test]
    fn a_search_tries_only_the_games_candidates() {
        let game = Pick { depth_hint: None, narrow: &[0, 1] };
        let settings = Settings::new(Budget::Iterations(2000), 5);
        let result = search(&game, &game.initial_state(), &ROOT, &settings).expect("settings within bounds");
        assert_eq!(result.action(), 1, "the better of the two candidates: {result:?}");
        for choice in &result.choices {
            assert_eq!(choice.visits == 0, choice.action >= 2, "{result:?}");
        }
    }

    #[test]
    fn every_iteration_visits_one_root_choice_and_the_ranking_is_by_visits_then_mean() {
        for threads in [1, 3] {
            let result = run(Budget::Iterations(500), 3, threads);
            assert_eq!(result.choices.iter().map(|c| c.visits).sum::<u64>(), result.iterations);
            assert!(result.iterations <= 500);
            for pair in result.choices.windows(2) {
                let order = (pair[1].visits, pair[1].mean_return) <= (pair[0].visits, pair[0].mean_return);
                assert!(order, "{result:?}");
            }
        }
    }

    #[test]
    fn the_same_seed_and_threads_give_the_same_search_and_another_seed_another() {
        for threads in [1, 2, 4] {
            let first = run(Budget::Iterations(300), 11, threads);
            let again = run(Budget::Iterations(300), 11, threads);
            assert_eq!((first.iterations, &first.choices), (again.iterations, &again.choices));
        }
        let other = run(Budget::Iterations(300), 12, 1);
        assert_ne!(run(Budget::Iterations(300), 11, 1).choices, other.choices);
    }

    #[test]
    fn threads_split_the_budget_and_sum_their_trees() {
        let game = Pick { depth_hint: None, narrow: &[] };
        let settings = Settings { threads: 3, ..Settings::new(Budget::Iterations(100), 5) };
        let joint = search(&game, &game.initial_state(), &ROOT, &settings).expect("within bounds");
        let mut visits = [0u64; 4];
        let mut iterations = 0;
        for (index, budget) in [34u64, 33, 33].into_iter().enumerate() {
            let one = Settings::new(Budget::Iterations(budget), tree_seed(5, index, 3));
            let alone = search(&game, &game.initial_state(), &ROOT, &one).expect("within bounds");
            iterations += alone.iterations;
            for choice in alone.choices {
                visits[choice.action as usize] += choice.visits;
            }
        }
        assert_eq!(joint.iterations, iterations);
        for choice in joint.choices {
            assert_eq!(choice.visits, visits[choice.action as usize]);
        }
        // More threads than iterations: one tree per iteration.
        assert_eq!(run(Budget::Iterations(2), 5, 8).iterations, 2);
    }

    #[test]
    fn a_search_stops_once_its_choice_cannot_change() {
        // 3 wins twice as often as 0: with a big budget, the check every 32 iterations ends
        // the search early, and only when the leader's margin exceeds the iterations left.
        let mut stopped = 0;
        for seed in 0..8 {
            let result = run(Budget::Iterations(3000), seed, 1);
            if result.iterations < 3000 {
                stopped += 1;
                assert_eq!(result.iterations % CHECK_EVERY, 0);
                let margin = result.choices[0].visits - result.choices[1].visits;
                assert!(margin > 3000 - result.iterations);
            }
        }
        assert!(stopped > 0);
    }

    #[test]
    fn a_timed_search_keeps_to_its_time() {
        let result = run(Budget::Seconds(0.05), 1, 1);
        assert!(result.iterations >= 1);
        assert!(result.seconds < 1.0, "{result:?}");
        let result = run(Budget::Seconds(0.05), 1, 2);
        assert!(result.iterations >= 2);
    }

    #[test]
    fn forced_moves_and_chance_get_no_node_and_the_depth_cap_holds() {
        // Two real decisions per game: player 0's and player 1's second; the pass and the die
        // add no node.
        for (hint, cap, expected) in [(None, None, 2), (Some(1), None, 1), (Some(1), Some(2), 2), (None, Some(1), 1)] {
            let game = Pick { depth_hint: hint, narrow: &[] };
            let belief = game.initial_state();
            let exploration = EXPLORATION;
            let mut tree = Tree::new(&game, &belief, 3, exploration, cap.or(hint));
            for _ in 0..200 {
                tree.iterate().unwrap();
            }
            assert_eq!(height(&tree, 0), expected, "hint {hint:?} cap {cap:?}");
            // Every node but the root was reached by a real decision: 4 + 4 * 2 at most.
            assert!(tree.nodes.len() <= 1 + 4 + 8);
            let players: Vec<u32> = tree.nodes.iter().map(|node| node.player).collect();
            assert_eq!(players[0], NOBODY);
        }
    }

    #[test]
    fn availability_counts_every_tried_sibling_and_credits_the_mover() {
        let game = Pick { depth_hint: Some(1), narrow: &[] };
        let belief = game.initial_state();
        let mut tree = Tree::new(&game, &belief, 9, EXPLORATION, Some(1));
        for _ in 0..4 {
            tree.iterate().unwrap();
        }
        // Four iterations tried each root choice once; the k-th added was available to
        // 4 - k + 1 selections (its own, then one per later iteration).
        let mut available: Vec<u64> = tree.nodes[1..].iter().map(|node| node.available).collect();
        available.sort_unstable();
        assert_eq!(available, [1, 2, 3, 4]);
        tree.iterate().unwrap();
        let root = &tree.nodes[0];
        assert_eq!(root.visits, 5);
        for edge in &root.children {
            let child = &tree.nodes[edge.child as usize];
            assert_eq!(child.player, 0);
            assert!(child.reward <= child.visits as f64);
        }
        assert_eq!(tree.nodes[1..].iter().map(|node| node.available).sum::<u64>(), 1 + 2 + 3 + 4 + 4);
    }

    #[test]
    fn a_world_whose_player_to_act_has_no_legal_action_is_refused_not_a_panic() {
        let game = Pick { depth_hint: None, narrow: &[] };
        let stuck = PickState { die: STUCK, ..game.initial_state() };
        // met in the playout (after the root's choice), and in the tree's descent
        for (belief, threads) in [(stuck, 1), (stuck, 3), (PickState { stage: 2, ..stuck }, 1)] {
            let settings = Settings { threads, ..Settings::new(Budget::Iterations(50), 1) };
            let found = search(&game, &belief, &ROOT, &settings);
            assert!(matches!(&found, Err(Refusal::Invalid(text)) if text.contains("no legal action")), "{found:?}");
        }
    }

    #[test]
    fn settings_out_of_bounds_and_actions_that_are_none_are_refused() {
        let game = Pick { depth_hint: None, narrow: &[] };
        let belief = game.initial_state();
        let good = Settings::new(Budget::Iterations(10), 1);
        let bad = [
            Settings::new(Budget::Iterations(0), 1),
            Settings::new(Budget::Iterations(MAX_ITERATIONS + 1), 1),
            Settings::new(Budget::Seconds(0.0), 1),
            Settings::new(Budget::Seconds(f64::NAN), 1),
            Settings::new(Budget::Seconds(MAX_SECONDS * 2.0), 1),
            Settings { threads: 0, ..good },
            Settings { threads: MAX_THREADS + 1, ..good },
            Settings { exploration: Some(f64::INFINITY), ..good },
            Settings { tree_depth: Some(0), ..good },
        ];
        for settings in bad {
            let refused = search(&game, &belief, &ROOT, &settings);
            assert!(matches!(refused, Err(Refusal::Option(_))), "{settings:?}");
        }
        assert!(matches!(search(&game, &belief, &[], &good), Err(Refusal::Invalid(_))));
        assert!(matches!(search(&game, &belief, &[0, 4], &good), Err(Refusal::Invalid(_))));
        assert!(search(&game, &belief, &[2, 0], &good).is_ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn any_budget_seed_and_threads_give_a_search_within_its_budget(
            budget in 1u64..400, seed in any::<u64>(), threads in 1usize..=6,
        ) {
            let result = run(Budget::Iterations(budget), seed, threads);
            prop_assert!(result.iterations >= 1 && result.iterations <= budget);
            prop_assert_eq!(result.choices.iter().map(|c| c.visits).sum::<u64>(), result.iterations);
            prop_assert!(result.choices.iter().all(|c| (0.0..=1.0).contains(&c.mean_return)));
            let again = run(Budget::Iterations(budget), seed, threads);
            prop_assert_eq!((result.iterations, result.choices), (again.iterations, again.choices));
        }
    }

    #[test]
    fn the_looked_up_logarithm_is_the_computed_one() {
        let edge = LN_TABLE as u64;
        for count in (0..64).chain(edge - 3..edge + 3).chain([1 << 20, u64::MAX]) {
            assert_eq!(ln_count(count).to_bits(), (count as f64).ln().to_bits(), "ln({count})");
        }
    }

    #[test]
    fn a_finished_playout_is_worth_half_the_win_and_half_the_lead() {
        let mut returns = [1.0, 0.0];
        blend_lead(&mut returns, &[10, 6], 4.0);
        let leading = 0.5 * (1.0 + 1f64.tanh());
        assert!((returns[0] - (0.5 + 0.5 * leading)).abs() < 1e-12, "{returns:?}");
        assert!((returns[1] - 0.5 * (1.0 - leading)).abs() < 1e-12, "{returns:?}");
        let mut tied = [0.5, 0.5];
        blend_lead(&mut tied, &[7, 7], 4.0);
        assert_eq!(tied, [0.5, 0.5]);
    }
}
