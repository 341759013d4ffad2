//! N games of one game stepped together, for training loops: the engine under the Python
//! `BatchedGames` and its Gymnasium and PettingZoo faces.
//!
//! Every row holds a decision: a step applies each row's action, lets chance act (and, with a
//! learner seat, the random opponents) until the next decision, and writes the row's
//! observation, mask and seat into arrays the caller owns ([`Out`]). A game that ends pays its
//! rewards into the same step's arrays and starts again at once. Row `i` draws everything
//! (chance, the learner's seat, the opponents' moves) from its own generator, seeded from the
//! reset's seed for that row only, so the rows can be stepped on any number of threads and
//! give the same games. Each row keeps the steps of its game (action ids and chance codes) and
//! those of its last finished game, for a replay in the Python engine.

use rand::Rng as _;

use super::{rng_from_seed, Node, Refusal, Rng, Rules};

/// What a seat is paid at the end of a game (`spieltisch.rl.match.Reward`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reward {
    /// Each seat's share of the win.
    Returns,
    /// The share mapped to [-1, 1] (`2 * share - 1`).
    WinLoss,
    /// The seat's score minus the best other seat's, divided by `span` (the score range).
    ScoreDiff { span: f64 },
}

/// Who the rows are stepped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seats {
    /// Every seat: each row shows the seat to move (the engine of `BatchedGames`).
    All,
    /// One learner per row, in this seat; the others move at random inside the step.
    Learner(usize),
    /// One learner per row, its seat drawn at the start of each game; the others at random.
    Rotate,
}

/// How the batch is played.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub reward: Reward,
    pub seats: Seats,
    /// Keep each row's steps (chance drawn as outcomes with codes: the same draws).
    pub record: bool,
}

/// The arrays a step writes, row after row (`N` rows): the caller's memory (numpy's).
pub struct Out<'a> {
    /// `N x size`: the shown seat's observation.
    pub observation: &'a mut [f32],
    /// `N x actions`: 1 for the shown seat's legal ids.
    pub action_mask: &'a mut [i8],
    /// The seat to move (the learner's, with a learner).
    pub current_player: &'a mut [i64],
    /// `N x players`: what each seat was paid at this step (only rows that ended pay).
    pub rewards: &'a mut [f32],
    /// Whether the row's game ended at this step (and started again).
    pub terminated: &'a mut [bool],
    /// Whether the row's learner chose an illegal action (which ended its game).
    pub illegal: &'a mut [bool],
    /// `N x players`: the scores of the games that ended.
    pub final_scores: &'a mut [i64],
    /// `N x size`: the learner's observation of the game that ended (with a learner only).
    pub final_observation: &'a mut [f32],
    /// `N x actions`: the learner's last mask of a game ended by an illegal action, zeros for
    /// one that ended by the rules (with a learner only).
    pub final_mask: &'a mut [i8],
}

/// The widths of the arrays of one row.
#[derive(Clone, Copy, Debug)]
struct Widths {
    size: usize,
    actions: usize,
    players: usize,
}

impl<'a> Out<'a> {
    /// The first `rows` rows and the rest.
    fn split(self, rows: usize, w: Widths) -> (Out<'a>, Out<'a>) {
        let (o1, o2) = self.observation.split_at_mut(rows * w.size);
        let (m1, m2) = self.action_mask.split_at_mut(rows * w.actions);
        let (c1, c2) = self.current_player.split_at_mut(rows);
        let (r1, r2) = self.rewards.split_at_mut(rows * w.players);
        let (t1, t2) = self.terminated.split_at_mut(rows);
        let (i1, i2) = self.illegal.split_at_mut(rows);
        let (s1, s2) = self.final_scores.split_at_mut(rows * w.players);
        let (f1, f2) = self.final_observation.split_at_mut(rows * w.size);
        let (k1, k2) = self.final_mask.split_at_mut(rows * w.actions);
        (
            Out {
                observation: o1,
                action_mask: m1,
                current_player: c1,
                rewards: r1,
                terminated: t1,
                illegal: i1,
                final_scores: s1,
                final_observation: f1,
                final_mask: k1,
            },
            Out {
                observation: o2,
                action_mask: m2,
                current_player: c2,
                rewards: r2,
                terminated: t2,
                illegal: i2,
                final_scores: s2,
                final_observation: f2,
                final_mask: k2,
            },
        )
    }

    /// Whether every array has room for `rows` rows of these widths.
    fn fits(&self, rows: usize, w: Widths) -> bool {
        self.observation.len() == rows * w.size
            && self.action_mask.len() == rows * w.actions
            && self.current_player.len() == rows
            && self.rewards.len() == rows * w.players
            && self.terminated.len() == rows
            && self.illegal.len() == rows
            && self.final_scores.len() == rows * w.players
            && self.final_observation.len() == rows * w.size
            && self.final_mask.len() == rows * w.actions
    }
}

/// One row: its game in progress, its generator and its records.
pub struct Row<R: Rules> {
    state: R::State,
    rng: Rng,
    /// The seat shown: the learner's, or the seat to move.
    seat: usize,
    /// The shown seat's legal ids (the ones set in the mask row).
    legal: Vec<u32>,
    scratch: Vec<u32>,
    code: Vec<i64>,
    /// This game's steps: action ids as themselves, a chance code as `-(length + 1)` and the
    /// code (as the single-state tables keep them).
    history: Vec<i64>,
    /// The steps of the row's last finished game.
    last: Vec<i64>,
}

/// The generator seed of a row reset with `seed`: the seed through SplitMix64, so that row
/// `i` of a batch reset with `s` plays as row 0 of a batch reset with `s + i`.
pub fn row_seed(seed: u64) -> u64 {
    super::playout::playout_seed(seed, 0)
}

/// The number of decisions the random opponents may take in one step before the row gives up
/// (as the Python environment does; no game comes near it).
const MAX_OPPONENT_MOVES: usize = 100_000;

/// N games of one game (see the module docstring).
pub struct Batch<R: Rules> {
    rules: R,
    setup: Setup,
    rows: Vec<Row<R>>,
    widths: Widths,
    pool: Option<rayon::ThreadPool>,
    /// Rows per task when threads share the rows.
    grain: usize,
    /// Whether the rows were started (a step or an observation needs a reset first).
    ready: bool,
}

impl<R: Rules> Batch<R> {
    /// `count` rows of `rules`, stepped on `threads` threads (1: the caller's only).
    pub fn new(rules: R, count: usize, setup: Setup, threads: usize) -> Result<Self, Refusal> {
        if let Seats::Learner(seat) = setup.seats {
            if seat >= rules.players() {
                return Err(Refusal::Option(format!("{} has no seat {seat}", R::ID)));
            }
        }
        let widths =
            Widths { size: rules.observation_size(), actions: rules.num_distinct_actions(), players: rules.players() };
        let row = || Row {
            state: rules.initial_state(),
            rng: rng_from_seed(0),
            seat: 0,
            legal: Vec::with_capacity(64),
            scratch: Vec::with_capacity(64),
            code: Vec::new(),
            history: Vec::new(),
            last: Vec::new(),
        };
        let pool = if threads > 1 {
            let built = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            Some(built.map_err(|e| Refusal::Option(format!("no thread pool of {threads} threads: {e}")))?)
        } else {
            None
        };
        let grain = count.div_ceil(threads.max(1) * 4).max(1);
        let rows = (0..count).map(|_| row()).collect();
        Ok(Batch { rules, setup, rows, widths, pool, grain, ready: false })
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The steps of row `row`'s game so far, or of its last finished game (`last`).
    pub fn history(&self, row: usize, last: bool) -> &[i64] {
        let row = &self.rows[row];
        if last {
            &row.last
        } else {
            &row.history
        }
    }

    /// The state of row `row`'s game.
    pub fn state(&self, row: usize) -> &R::State {
        &self.rows[row].state
    }

    /// Every seat's observation of every row, into `out` (`players x N x size`, zeroed here).
    pub fn observe_all(&self, out: &mut [f32]) -> Result<(), Refusal> {
        if !self.ready {
            return Err(not_ready());
        }
        let size = self.widths.size;
        out.fill(0.0);
        for (index, chunk) in out.chunks_mut(size).enumerate() {
            let (seat, row) = (index / self.rows.len(), index % self.rows.len());
            self.rules.observe(&self.rows[row].state, Some(seat), chunk);
        }
        Ok(())
    }

    /// A uniformly random legal id for each row's shown seat, into `out`, drawn from `rng`
    /// (not from the rows' generators: the games do not depend on whether it is called); -1
    /// before the first reset.
    pub fn random_actions(&self, rng: &mut Rng, out: &mut [i64]) {
        for (slot, row) in out.iter_mut().zip(&self.rows) {
            *slot = match row.legal.len() {
                0 => -1, // not reset yet
                count => i64::from(row.legal[rng.gen_range(0..count)]),
            };
        }
    }

    /// Start every row: row `i` from `seeds[i]` (through [`row_seed`]); `out` is written as
    /// after a step that ended no game.
    pub fn reset(&mut self, seeds: &[u64], out: Out<'_>) -> Result<(), Refusal> {
        if seeds.len() != self.rows.len() || !out.fits(self.rows.len(), self.widths) {
            return Err(Refusal::Option("the seeds or the arrays do not fit the batch".into()));
        }
        for (row, &seed) in self.rows.iter_mut().zip(seeds) {
            row.rng = rng_from_seed(row_seed(seed));
            row.last.clear();
        }
        self.run(None, out);
        self.ready = true;
        Ok(())
    }

    /// Play `actions[i]` in row `i` (see the module docstring). Without a learner every action
    /// is checked first: a refusal names the first bad row, and no row has moved. With a
    /// learner an illegal action ends that row's game (`illegal` set, nothing paid).
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), (usize, Refusal)> {
        if actions.len() != self.rows.len() || !out.fits(self.rows.len(), self.widths) {
            let text = "the actions or the arrays do not fit the batch".to_string();
            return Err((0, Refusal::Option(text)));
        }
        if !self.ready {
            return Err((0, not_ready()));
        }
        if self.setup.seats == Seats::All {
            for (index, (row, &action)) in self.rows.iter().zip(actions).enumerate() {
                self.check(row, action).map_err(|refusal| (index, refusal))?;
            }
        }
        self.run(Some(actions), out);
        Ok(())
    }

    /// Start a new game in every row flagged in `rows`, cutting its game short (a step limit:
    /// the game is truncated, not ended by the rules). The cut game's last observation and mask
    /// become the row's final ones, its scores so far its final scores, its steps the row's
    /// last game's; nothing is paid and `terminated` stays false. The other rows' arrays are
    /// left as they are.
    pub fn restart(&mut self, rows: &[bool], mut out: Out<'_>) -> Result<(), Refusal> {
        if rows.len() != self.rows.len() || !out.fits(self.rows.len(), self.widths) {
            return Err(Refusal::Option("the rows or the arrays do not fit the batch".into()));
        }
        if !self.ready {
            return Err(not_ready());
        }
        let (rules, setup, widths) = (&self.rules, self.setup, self.widths);
        for (index, row) in self.rows.iter_mut().enumerate().filter(|&(index, _)| rows[index]) {
            let mut one = RowOut::of(&mut out, index, widths);
            one.rewards.fill(0.0);
            *one.terminated = false;
            *one.illegal = false;
            let mut scores = Vec::new();
            rules.scores(&row.state, &mut scores);
            for (slot, score) in one.final_scores.iter_mut().zip(scores) {
                *slot = score;
            }
            one.final_observation.copy_from_slice(one.observation);
            one.final_mask.copy_from_slice(one.action_mask);
            std::mem::swap(&mut row.last, &mut row.history);
            one.action_mask.fill(0);
            row.legal.clear();
            start_row(rules, setup, row, &mut one);
        }
        Ok(())
    }

    /// Whether `action` is legal in `row` (its shown seat's listed ids).
    fn check(&self, row: &Row<R>, action: i64) -> Result<(), Refusal> {
        let listed = u32::try_from(action).ok().filter(|&id| (id as usize) < self.widths.actions);
        let Some(id) = listed else {
            let last = self.widths.actions - 1;
            return Err(Refusal::Invalid(format!("{action} is no action id of {} (0 to {last})", R::ID)));
        };
        if row.legal.binary_search(&id).is_err() {
            return Err(self.rules.refusal(&row.state, id));
        }
        Ok(())
    }

    /// Every row's step (`actions`) or start (`None`), on the pool if there is one.
    fn run(&mut self, actions: Option<&[i64]>, out: Out<'_>) {
        let (rules, setup, widths, grain) = (&self.rules, self.setup, self.widths, self.grain);
        let rows = &mut self.rows[..];
        match &self.pool {
            Some(pool) => pool.install(|| split_run(rules, setup, widths, grain, rows, actions, out)),
            None => run_rows(rules, setup, widths, rows, actions, out),
        }
    }
}

/// The refusal of a step or an observation before the first reset.
fn not_ready() -> Refusal {
    Refusal::Option("the batch has not been reset: no game has started".into())
}

/// The rows halved until `grain` are left, the halves run side by side.
fn split_run<R: Rules>(
    rules: &R,
    setup: Setup,
    widths: Widths,
    grain: usize,
    rows: &mut [Row<R>],
    actions: Option<&[i64]>,
    out: Out<'_>,
) {
    if rows.len() <= grain {
        return run_rows(rules, setup, widths, rows, actions, out);
    }
    let mid = rows.len() / 2;
    let (first, second) = rows.split_at_mut(mid);
    let (out1, out2) = out.split(mid, widths);
    let (act1, act2) = match actions {
        Some(actions) => {
            let (a, b) = actions.split_at(mid);
            (Some(a), Some(b))
        }
        None => (None, None),
    };
    rayon::join(
        || split_run(rules, setup, widths, grain, first, act1, out1),
        || split_run(rules, setup, widths, grain, second, act2, out2),
    );
}

/// The rows one after the other.
fn run_rows<R: Rules>(
    rules: &R,
    setup: Setup,
    w: Widths,
    rows: &mut [Row<R>],
    actions: Option<&[i64]>,
    mut out: Out<'_>,
) {
    for (index, row) in rows.iter_mut().enumerate() {
        let mut one = RowOut::of(&mut out, index, w);
        match actions {
            Some(actions) => step_row(rules, setup, row, actions[index], &mut one),
            None => {
                one.rewards.fill(0.0);
                *one.terminated = false;
                *one.illegal = false;
                one.action_mask.fill(0);
                row.legal.clear();
                start_row(rules, setup, row, &mut one);
            }
        }
    }
}

/// One row's slices of [`Out`].
struct RowOut<'a> {
    observation: &'a mut [f32],
    action_mask: &'a mut [i8],
    current_player: &'a mut i64,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    illegal: &'a mut bool,
    final_scores: &'a mut [i64],
    final_observation: &'a mut [f32],
    final_mask: &'a mut [i8],
}

impl<'a> RowOut<'a> {
    /// Row `index`'s slices of `out`.
    fn of(out: &'a mut Out<'_>, index: usize, w: Widths) -> RowOut<'a> {
        RowOut {
            observation: &mut out.observation[index * w.size..(index + 1) * w.size],
            action_mask: &mut out.action_mask[index * w.actions..(index + 1) * w.actions],
            current_player: &mut out.current_player[index],
            rewards: &mut out.rewards[index * w.players..(index + 1) * w.players],
            terminated: &mut out.terminated[index],
            illegal: &mut out.illegal[index],
            final_scores: &mut out.final_scores[index * w.players..(index + 1) * w.players],
            final_observation: &mut out.final_observation[index * w.size..(index + 1) * w.size],
            final_mask: &mut out.final_mask[index * w.actions..(index + 1) * w.actions],
        }
    }
}

/// Play `action` in `row`, then on to its next decision (a new game if this one ends).
fn step_row<R: Rules>(rules: &R, setup: Setup, row: &mut Row<R>, action: i64, out: &mut RowOut<'_>) {
    out.rewards.fill(0.0);
    *out.terminated = false;
    *out.illegal = false;
    let legal = u32::try_from(action).ok().filter(|id| row.legal.binary_search(id).is_ok());
    let learner = setup.seats != Seats::All;
    let Some(id) = legal else {
        // Only a learner gets here (without one, every action was checked): its game ends.
        *out.illegal = true;
        *out.terminated = true;
        finish(rules, setup, row, out, true);
        return start_row(rules, setup, row, out);
    };
    rules.apply_action(&mut row.state, id);
    if setup.record {
        row.history.push(i64::from(id));
    }
    settle(rules, setup, row);
    if learner {
        play_others(rules, setup, row);
    }
    if rules.node(&row.state) == Node::Terminal {
        pay(rules, setup.reward, &row.state, out.rewards);
        *out.terminated = true;
        finish(rules, setup, row, out, false);
        return start_row(rules, setup, row, out);
    }
    show(rules, row, out);
}

/// Keep what the caller sees of a game that ends: its scores and, with a learner, its last
/// observation and mask; its steps become the row's last game's.
fn finish<R: Rules>(rules: &R, setup: Setup, row: &mut Row<R>, out: &mut RowOut<'_>, illegal: bool) {
    let mut scores = Vec::new();
    rules.scores(&row.state, &mut scores);
    for (slot, score) in out.final_scores.iter_mut().zip(scores) {
        *slot = score;
    }
    if setup.seats != Seats::All {
        out.final_observation.fill(0.0);
        rules.observe(&row.state, Some(row.seat), out.final_observation);
        if illegal {
            out.final_mask.copy_from_slice(out.action_mask);
        } else {
            out.final_mask.fill(0);
        }
    }
    std::mem::swap(&mut row.last, &mut row.history);
}

/// Each seat's reward for the finished `state`, into `out`.
fn pay<R: Rules>(rules: &R, reward: Reward, state: &R::State, out: &mut [f32]) {
    let players = out.len();
    match reward {
        Reward::Returns | Reward::WinLoss => {
            let mut shares = [0.0f64; 32];
            rules.returns(state, &mut shares[..players]);
            for (slot, share) in out.iter_mut().zip(&shares[..players]) {
                *slot = if reward == Reward::Returns { *share as f32 } else { (2.0 * share - 1.0) as f32 };
            }
        }
        Reward::ScoreDiff { span } => {
            let mut scores = Vec::with_capacity(players);
            rules.scores(state, &mut scores);
            for (seat, slot) in out.iter_mut().enumerate() {
                let best = scores.iter().enumerate().filter(|&(q, _)| q != seat).map(|(_, s)| *s).max().unwrap_or(0);
                *slot = ((scores[seat] - best) as f64 / span) as f32;
            }
        }
    }
}

/// Start a new game in `row` and show its first decision.
fn start_row<R: Rules>(rules: &R, setup: Setup, row: &mut Row<R>, out: &mut RowOut<'_>) {
    loop {
        row.state = rules.initial_state();
        row.history.clear();
        row.seat = match setup.seats {
            Seats::All => 0,
            Seats::Learner(seat) => seat,
            Seats::Rotate => row.rng.gen_range(0..rules.players()),
        };
        settle(rules, setup, row);
        if setup.seats != Seats::All {
            play_others(rules, setup, row);
        }
        // A game the opponents finish before the learner's first decision is not shown.
        if rules.node(&row.state) != Node::Terminal {
            break;
        }
    }
    show(rules, row, out);
}

/// Let chance act until a player decides or the game is over.
fn settle<R: Rules>(rules: &R, setup: Setup, row: &mut Row<R>) {
    while rules.node(&row.state) == Node::Chance {
        if setup.record {
            let outcome = rules.sample_chance(&row.state, &mut row.rng);
            row.code.clear();
            rules.outcome_code(&outcome, &mut row.code);
            row.history.push(-(row.code.len() as i64) - 1);
            row.history.extend_from_slice(&row.code);
            rules.apply_outcome(&mut row.state, &outcome);
        } else {
            rules.random_chance(&mut row.state, &mut row.rng);
        }
    }
}

/// The opponents' random moves (and chance) until the learner decides or the game is over.
fn play_others<R: Rules>(rules: &R, setup: Setup, row: &mut Row<R>) {
    for _ in 0..MAX_OPPONENT_MOVES {
        match rules.node(&row.state) {
            Node::Decision(seat) if seat != row.seat => {
                let action = rules
                    .random_action(&row.state, &mut row.rng, &mut row.scratch)
                    .expect("the rules leave the player to act a legal action");
                rules.apply_action(&mut row.state, action);
                if setup.record {
                    row.history.push(i64::from(action));
                }
                settle(rules, setup, row);
            }
            _ => return,
        }
    }
    panic!("the random opponents made {MAX_OPPONENT_MOVES} moves in one step");
}

/// Write the row's decision: the seat to move, its observation and mask.
fn show<R: Rules>(rules: &R, row: &mut Row<R>, out: &mut RowOut<'_>) {
    let Node::Decision(seat) = rules.node(&row.state) else {
        panic!("a row shows a decision, not {:?}", rules.node(&row.state));
    };
    row.seat = seat;
    *out.current_player = seat as i64;
    out.observation.fill(0.0);
    rules.observe(&row.state, Some(seat), out.observation);
    for &id in &row.legal {
        out.action_mask[id as usize] = 0;
    }
    row.legal.clear();
    rules.legal_actions(&row.state, &mut row.legal);
    for &id in &row.legal {
        out.action_mask[id as usize] = 1;
    }
}

#[cfg(all(test, feature = "awimbawe", feature = "auweier"))]
mod tests {
    use super::*;
    use crate::core::Options;
    use crate::games::auweier::Auweier;
    use crate::games::awimbawe::Awimbawe;

    /// Every array a step writes, as owned vectors.
    #[derive(Clone, Debug, PartialEq)]
    struct Arrays {
        observation: Vec<f32>,
        action_mask: Vec<i8>,
        current_player: Vec<i64>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        illegal: Vec<bool>,
        final_scores: Vec<i64>,
        final_observation: Vec<f32>,
        final_mask: Vec<i8>,
    }

    impl Arrays {
        fn new<R: Rules>(rules: &R, rows: usize) -> Self {
            let (size, actions, players) = (rules.observation_size(), rules.num_distinct_actions(), rules.players());
            Arrays {
                observation: vec![0.0; rows * size],
                action_mask: vec![0; rows * actions],
                current_player: vec![0; rows],
                rewards: vec![0.0; rows * players],
                terminated: vec![false; rows],
                illegal: vec![false; rows],
                final_scores: vec![0; rows * players],
                final_observation: vec![0.0; rows * size],
                final_mask: vec![0; rows * actions],
            }
        }

        fn out(&mut self) -> Out<'_> {
            Out {
                observation: &mut self.observation,
                action_mask: &mut self.action_mask,
                current_player: &mut self.current_player,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                illegal: &mut self.illegal,
                final_scores: &mut self.final_scores,
                final_observation: &mut self.final_observation,
                final_mask: &mut self.final_mask,
            }
        }
    }

    /// The arrays after each of `steps` steps of a batch played with `setup` on `threads`,
    /// each row's action the first legal id, or (every fifth step, row 0) an illegal one.
    fn play<R: Rules>(rules: R, rows: usize, setup: Setup, threads: usize, steps: usize) -> Vec<Arrays> {
        let actions = rules.num_distinct_actions();
        let mut batch = Batch::new(rules, rows, setup, threads).unwrap();
        let mut arrays = Arrays::new(batch.rules(), rows);
        let seeds: Vec<u64> = (0..rows as u64).map(|i| 40 + i).collect();
        batch.reset(&seeds, arrays.out()).unwrap();
        let mut seen = vec![arrays.clone()];
        for step in 0..steps {
            let mut chosen: Vec<i64> = arrays
                .action_mask
                .chunks(actions)
                .map(|mask| mask.iter().position(|&bit| bit == 1).unwrap() as i64)
                .collect();
            if setup.seats != Seats::All && step % 5 == 0 {
                chosen[0] = -1;
            }
            batch.step(&chosen, arrays.out()).unwrap();
            seen.push(arrays.clone());
        }
        seen
    }

    #[test]
    fn threads_and_records_change_no_game() {
        let options = Options::new(Vec::new());
        for seats in [Seats::All, Seats::Rotate, Seats::Learner(1)] {
            let setup = Setup { reward: Reward::WinLoss, seats, record: false };
            let one = play(Awimbawe::new(2, &options).unwrap(), 9, setup, 1, 200);
            let two = play(Awimbawe::new(2, &options).unwrap(), 9, setup, 2, 200);
            let kept = play(Awimbawe::new(2, &options).unwrap(), 9, Setup { record: true, ..setup }, 3, 200);
            assert!(one == two && one == kept, "{seats:?}");
            assert!(one.iter().any(|a| a.terminated.iter().any(|&t| t)));
        }
    }

    #[test]
    fn row_i_at_a_seed_is_row_0_at_the_seed_plus_i() {
        let options = Options::new(Vec::new());
        let setup = Setup { reward: Reward::Returns, seats: Seats::All, record: false };
        let rules = Auweier::new(3, &options).unwrap();
        let size = rules.observation_size();
        let mut batch = Batch::new(rules, 4, setup, 1).unwrap();
        let mut arrays = Arrays::new(batch.rules(), 4);
        batch.reset(&[7, 8, 9, 10], arrays.out()).unwrap();
        for (row, seed) in [7u64, 8, 9, 10].into_iter().enumerate() {
            let mut single = Batch::new(Auweier::new(3, &options).unwrap(), 1, setup, 1).unwrap();
            let mut alone = Arrays::new(single.rules(), 1);
            single.reset(&[seed], alone.out()).unwrap();
            assert_eq!(alone.observation, arrays.observation[row * size..(row + 1) * size]);
        }
    }

    #[test]
    fn an_illegal_action_without_a_learner_is_refused_before_any_row_moves() {
        let options = Options::new(Vec::new());
        let setup = Setup { reward: Reward::Returns, seats: Seats::All, record: true };
        let mut batch = Batch::new(Awimbawe::new(2, &options).unwrap(), 2, setup, 1).unwrap();
        let mut arrays = Arrays::new(batch.rules(), 2);
        batch.reset(&[1, 2], arrays.out()).unwrap();
        let before = (batch.history(0, false).to_vec(), batch.history(1, false).to_vec());
        let actions = batch.rules().num_distinct_actions();
        let legal = arrays.action_mask[..actions].iter().position(|&b| b == 1).unwrap() as i64;
        let refused = batch.step(&[legal, actions as i64], arrays.out());
        assert!(matches!(refused, Err((1, Refusal::Invalid(_)))));
        assert_eq!(before, (batch.history(0, false).to_vec(), batch.history(1, false).to_vec()));
    }

    #[test]
    fn a_restarted_row_keeps_its_cut_game_and_leaves_the_others_alone() {
        let options = Options::new(Vec::new());
        let setup = Setup { reward: Reward::Returns, seats: Seats::Learner(0), record: true };
        let mut batch = Batch::new(Awimbawe::new(2, &options).unwrap(), 3, setup, 1).unwrap();
        let mut arrays = Arrays::new(batch.rules(), 3);
        assert!(batch.restart(&[true, false, false], arrays.out()).is_err(), "not reset yet");
        batch.reset(&[5, 6, 7], arrays.out()).unwrap();
        let actions = batch.rules().num_distinct_actions();
        let first: Vec<i64> =
            arrays.action_mask.chunks(actions).map(|m| m.iter().position(|&b| b == 1).unwrap() as i64).collect();
        batch.step(&first, arrays.out()).unwrap();
        let (before, cut) = (arrays.clone(), batch.history(1, false).to_vec());
        let others: Vec<Vec<i64>> = [0, 2].iter().map(|&r| batch.history(r, false).to_vec()).collect();
        assert!(batch.restart(&[false, true], arrays.out()).is_err(), "one flag per row");
        batch.restart(&[false, true, false], arrays.out()).unwrap();
        let size = batch.rules().observation_size();
        let (row, mask) = (size..2 * size, actions..2 * actions);
        assert_eq!(arrays.final_observation[row.clone()], before.observation[row.clone()]);
        assert_eq!(arrays.final_mask[mask.clone()], before.action_mask[mask]);
        assert_eq!(batch.history(1, true), &cut[..]);
        assert!(!arrays.terminated[1] && arrays.rewards.iter().all(|&r| r == 0.0));
        assert_ne!(arrays.observation[row], before.observation[size..2 * size], "a new deal");
        for (other, history) in [0, 2].into_iter().zip(others) {
            let range = other * size..(other + 1) * size;
            assert_eq!(arrays.observation[range.clone()], before.observation[range]);
            assert_eq!(batch.history(other, false), &history[..]);
        }
    }
}
