//! Auf die Eier's race, worked out (mirrors `spieltisch/lab/eier_race.py`): each player's
//! chance to win from a decision, under the expert's exact play.
//!
//! The same three steps as the Python module, with the same names: how a turn ends from any
//! decision ([`Turns::turn_outcomes`], [`Turns::fresh_turn`]: whole distributions of points and
//! of whether the Chickens scored, by the expert's choices of [`ExpertTable::solved`]); one
//! player's race to the goal ([`Race::future`], tables per distance and ladder rung); and the
//! round-by-round sum with ties shared ([`win_chances`]). The turn outcomes and race tables
//! are Python's to the bit (the same floats added in the same order); the sum takes only the
//! scores that can end the game (about 1e-15 from Python's), except where the order of the sums
//! decides what the lab counts (a near tie for the lead, the last round): there it sums as
//! numpy does, to the bit ([`exact`]; `tests/native/test_race.py`). Pure: tables are built as
//! they are asked for and kept in the [`Race`] value; caching races across calls is the
//! caller's business.

use std::collections::HashMap;

use super::bots::expert::ExpertTable;
use super::model::{max_turn_points, Stage, LADDER, MAX_PLAYERS, MAX_ROLLS};
use super::notation::{tables, Counts, REROLLABLE, ROTTEN};
use super::rules::{chicken_need, for_each_throw, multinomial_ways, score_turn, Eier, EierState, POWERS_OF_SIX};

/// A chance below this (of a player still racing after some turns) is dropped as nothing.
pub const NEGLIGIBLE: f64 = 1e-12;
/// Ladder positions: entries crossed off, from none to all.
pub const RUNGS: usize = LADDER.len() + 1;
/// Chicken needs by index: 0 for a used-up ladder, else the need itself (1 to 5).
const NEEDS: usize = 6;

/// How a turn ends: the chance of every number of points, row 0 when the Chickens did not
/// score, row 1 when they did (Python's array of shape `(2, points + 1)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Points `0..width` (the most one turn can score, plus one).
    pub width: usize,
    chances: Vec<f64>,
}

impl Outcome {
    fn zeros(width: usize) -> Outcome {
        Outcome { width, chances: vec![0.0; 2 * width] }
    }

    /// The chance of ending with `points`, the Chickens having scored (`advanced`) or not.
    pub fn at(&self, advanced: usize, points: usize) -> f64 {
        self.chances[advanced * self.width + points]
    }

    /// The chance of every number of points, whether the Chickens scored or not.
    pub fn total(&self) -> Vec<f64> {
        (0..self.width).map(|points| self.chances[points] + self.chances[self.width + points]).collect()
    }

    /// `self += p * other`, element by element, as numpy adds.
    fn add_scaled(&mut self, p: f64, other: &Outcome) {
        for (mine, theirs) in self.chances.iter_mut().zip(&other.chances) {
            *mine += p * theirs;
        }
    }
}

/// Every outcome of throwing `dice` dice with its probability, in Python's order and floats.
fn throws(dice: u8) -> Vec<(Counts, f64)> {
    let total = POWERS_OF_SIX[usize::from(dice)] as f64;
    let mut out = Vec::new();
    for_each_throw(dice, |outcome| out.push((outcome, multinomial_ways(&outcome) as f64 / total)));
    out
}

fn plus(a: &Counts, b: &Counts) -> Counts {
    std::array::from_fn(|face| a[face] + b[face])
}

/// The turn outcomes of one number of dice and one Chicken need, worked out as asked for.
pub struct Turns {
    total: u8,
    need: Option<u8>,
    width: usize,
    /// `throws[n]`: the outcomes of throwing `n` dice.
    throws: Vec<Vec<(Counts, f64)>>,
    stops: HashMap<Counts, Outcome>,
    decisions: HashMap<(u8, Counts), Outcome>,
    fresh: Option<Outcome>,
}

impl Turns {
    /// Nothing worked out yet for turns of `total` dice needing `need` Chickens.
    pub fn new(total: u8, need: Option<u8>) -> Turns {
        Turns {
            total,
            need,
            width: max_turn_points(total) as usize + 1,
            throws: (0..=total).map(throws).collect(),
            stops: HashMap::new(),
            decisions: HashMap::new(),
            fresh: None,
        }
    }

    /// Python's `_stop`: the outcome of stopping with `dice`, the Rotten Eggs re-thrown once.
    fn stop(&mut self, dice: &Counts) -> &Outcome {
        if !self.stops.contains_key(dice) {
            let mut outcome = Outcome::zeros(self.width);
            let mut kept = *dice;
            kept[ROTTEN] = 0;
            for (thrown, p) in &self.throws[usize::from(dice[ROTTEN])] {
                let mut scored = plus(&kept, thrown);
                scored[ROTTEN] = 0;
                let turn = score_turn(0, scored, thrown[ROTTEN], self.need, false);
                outcome.chances[usize::from(turn.chickens > 0) * self.width + usize::from(turn.points)] += p;
            }
            self.stops.insert(*dice, outcome);
        }
        &self.stops[dice]
    }

    /// How the turn ends from a decision with `dice` on the table after `rolls` throws, the
    /// expert (`expert`, the table of this number of dice) making every choice.
    pub fn turn_outcomes(&mut self, expert: &ExpertTable, rolls: u8, dice: &Counts) -> &Outcome {
        if rolls >= MAX_ROLLS || dice[ROTTEN] == self.total {
            return self.stop(dice);
        }
        let key = (rolls, *dice);
        if !self.decisions.contains_key(&key) {
            let outcome = self.decide(expert, rolls, dice);
            self.decisions.insert(key, outcome);
        }
        &self.decisions[&key]
    }

    fn decide(&mut self, expert: &ExpertTable, rolls: u8, dice: &Counts) -> Outcome {
        let key = (self.need.unwrap_or(0), rolls, *dice);
        let action = expert.choice(&key).unwrap_or_else(|| panic!("the expert has no choice at {key:?}"));
        if action == 0 {
            return self.stop(dice).clone();
        }
        let table = tables();
        let picked = table.rerolls[action as usize];
        let mut kept = *dice;
        for (part, &face) in REROLLABLE.iter().enumerate() {
            kept[face] -= picked[part];
        }
        let size = usize::from(table.sizes[action as usize]);
        let mut outcome = Outcome::zeros(self.width);
        for i in 0..self.throws[size].len() {
            let (thrown, p) = self.throws[size][i];
            outcome.add_scaled(p, self.turn_outcomes(expert, rolls + 1, &plus(&kept, &thrown)));
        }
        outcome
    }

    /// How a whole turn ends, before its first throw.
    pub fn fresh_turn(&mut self, expert: &ExpertTable) -> &Outcome {
        if self.fresh.is_none() {
            let mut outcome = Outcome::zeros(self.width);
            let total = usize::from(self.total);
            for i in 0..self.throws[total].len() {
                let (thrown, p) = self.throws[total][i];
                outcome.add_scaled(p, self.turn_outcomes(expert, 1, &thrown));
            }
            self.fresh = Some(outcome);
        }
        self.fresh.as_ref().expect("just worked out")
    }
}

/// One player's future from a distance to the goal and a rung (see [`Race::future`]): row
/// `k - 1` holds the chance of being below the goal after `k - 1` turns and at each final
/// score after `k`, the score `s` at column `s - goal + distance`.
#[derive(Clone, Debug)]
pub struct Future {
    pub rows: usize,
    pub width: usize,
    /// The distance to the goal it starts from: columns from here on reach the goal.
    distance: usize,
    chances: Vec<f64>,
    /// Per row, the chance of staying below the goal (the sum of its first `distance` columns).
    alive: Vec<f64>,
}

impl Future {
    /// Row `k`'s chances by column.
    pub fn row(&self, k: usize) -> &[f64] {
        &self.chances[k * self.width..(k + 1) * self.width]
    }

    /// Row `k`'s chances of the scores reaching the goal (from the goal up).
    fn reached(&self, k: usize) -> &[f64] {
        &self.row(k)[self.distance..]
    }
}

/// One player's race to `goal` with `dice` dice, tabulated as it is asked for.
pub struct Race {
    pub goal: usize,
    pub dice: u8,
    /// The most points one turn can score.
    pub most: usize,
    expert: ExpertTable,
    /// Turn outcomes by need index (0: the ladder used up).
    outcomes: Vec<Turns>,
    /// A whole turn's outcome by ladder rung.
    pub turns: Vec<Outcome>,
    /// `futures[distance - 1][rung]`, built for every distance up to the farthest asked for.
    futures: Vec<Vec<Future>>,
}

fn need_index(need: Option<u8>) -> usize {
    usize::from(need.unwrap_or(0))
}

impl Race {
    /// The race of `goal` and `dice` dice, the expert's choices solved here.
    pub fn new(goal: u16, dice: u8) -> Race {
        let expert = ExpertTable::solved(dice);
        let mut outcomes: Vec<Turns> =
            (0..NEEDS).map(|index| Turns::new(dice, (index > 0).then_some(index as u8))).collect();
        let turns =
            (0..RUNGS).map(|rung| outcomes[need_index(chicken_need(rung as u8))].fresh_turn(&expert).clone()).collect();
        Race {
            goal: usize::from(goal),
            dice,
            most: max_turn_points(dice) as usize,
            expert,
            outcomes,
            turns,
            futures: Vec::new(),
        }
    }

    /// How the turn ends from a decision (see [`Turns::turn_outcomes`]).
    pub fn turn_outcomes(&mut self, rolls: u8, dice: &Counts, need: Option<u8>) -> &Outcome {
        self.outcomes[need_index(need)].turn_outcomes(&self.expert, rolls, dice)
    }

    /// How a whole turn ends needing `need` Chickens.
    pub fn fresh_turn(&mut self, need: Option<u8>) -> &Outcome {
        self.outcomes[need_index(need)].fresh_turn(&self.expert)
    }

    /// From `distance` points below the goal (at least one) with `rung` ladder entries crossed
    /// off, before a turn: see [`Future`]. Rows end once being below the goal has a negligible
    /// chance.
    pub fn future(&mut self, distance: usize, rung: usize) -> &Future {
        self.prepare(distance);
        self.built(distance, rung)
    }

    /// Build the futures of every distance up to `distance` and every rung.
    pub fn prepare(&mut self, distance: usize) {
        while self.futures.len() < distance {
            let below = self.futures.len() + 1;
            let built = (0..RUNGS).map(|rung| self.build(below, rung)).collect();
            self.futures.push(built);
        }
    }

    /// A future already built by [`Race::prepare`].
    fn built(&self, distance: usize, rung: usize) -> &Future {
        &self.futures[distance - 1][rung]
    }

    fn build(&self, distance: usize, rung: usize) -> Future {
        let turn = &self.turns[rung];
        let width = distance + self.most;
        let mut parts: Vec<(f64, usize, &Future)> = Vec::new();
        for advanced in 0..2 {
            for points in 0..distance.min(self.most + 1) {
                let p = turn.at(advanced, points);
                if p > 0.0 && (points, advanced) != (0, 0) {
                    parts.push((p, points, self.built(distance - points, rung + advanced)));
                }
            }
        }
        let stay = turn.at(0, 0);
        let rows = (1 + parts.iter().map(|(_, _, f)| f.rows).max().unwrap_or(0)).max(lingering(stay));
        let mut table = vec![0.0; rows * width];
        table[..=self.most].copy_from_slice(&turn.total());
        for &(p, points, below) in &parts {
            for k in 0..below.rows {
                let start = (1 + k) * width + points;
                for (cell, chance) in table[start..start + below.width].iter_mut().zip(below.row(k)) {
                    *cell += p * chance;
                }
            }
        }
        for row in 1..rows {
            let (before, after) = table.split_at_mut(row * width);
            for (cell, previous) in after[..width].iter_mut().zip(&before[(row - 1) * width..]) {
                *cell += stay * previous;
            }
        }
        let mut alive: Vec<f64> = table.chunks(width).map(|row| pairwise(&row[..distance])).collect();
        let keep = alive.iter().position(|&mass| mass < NEGLIGIBLE).map_or(rows, |row| row + 1);
        table.truncate(keep * width);
        alive.truncate(keep);
        Future { rows: keep, width, distance, chances: table, alive }
    }
}

/// Turns in a row without a point, each of chance `stay`, before it is negligible.
fn lingering(stay: f64) -> usize {
    if stay <= 0.0 {
        1
    } else {
        1 + (NEGLIGIBLE.ln() / stay.ln()).ceil() as usize
    }
}

/// Per player, per round the game may end with: the chance of being below the goal before
/// that round and staying below it (`alive`), and of each score from the goal up after it
/// (`reached`, `span` columns a round). Python's finals cut at the goal: the scores below it
/// count only as mass below every score that reaches it (see [`shares`]).
#[derive(Clone, Debug)]
struct Finals {
    players: usize,
    rounds: usize,
    span: usize,
    alive: Vec<f64>,
    reached: Vec<f64>,
}

impl Finals {
    fn zeros(players: usize, rounds: usize, span: usize) -> Finals {
        Finals {
            players,
            rounds,
            span,
            alive: vec![0.0; players * rounds],
            reached: vec![0.0; players * rounds * span],
        }
    }

    fn reached(&self, p: usize, round: usize) -> &[f64] {
        let start = (p * self.rounds + round) * self.span;
        &self.reached[start..start + self.span]
    }

    fn reached_mut(&mut self, p: usize, round: usize) -> &mut [f64] {
        let start = (p * self.rounds + round) * self.span;
        &mut self.reached[start..start + self.span]
    }

    /// One player's rows (as far as `self` has rounds) copied into `self` as player `into`.
    fn put(&mut self, into: usize, rows: &Finals) {
        for round in 0..rows.rounds.min(self.rounds) {
            self.alive[into * self.rounds + round] = rows.alive[round];
            self.reached_mut(into, round).copy_from_slice(rows.reached(0, round));
        }
    }
}

/// Each player's chance to win from `state` (a decision, or a turn's start) of a game of
/// `rules`, whose goal and dice `race` is of; the chances sum to one. Refused at a chance
/// node in the middle of a turn.
pub fn win_chances(race: &mut Race, rules: &Eier, state: &EierState) -> Result<Vec<f64>, String> {
    let players = usize::from(rules.config.players);
    assert_eq!((race.goal, race.dice), (usize::from(rules.config.goal), rules.config.dice), "another game's race");
    if state.stage == Stage::Over {
        let winners = state.winners.count_ones() as f64;
        return Ok((0..players).map(|p| if state.winners & (1 << p) != 0 { 1.0 / winners } else { 0.0 }).collect());
    }
    if state.stage != Stage::Decide && state.rolls != 0 {
        return Err("the race is worked out at a decision or before a turn's first throw".into());
    }
    if !(state.final_round || state.tie_players != 0) {
        let chances = normalized(shares(&finals(race, rules, state)));
        if !near_tie(&chances) {
            return Ok(chances);
        }
    }
    Ok(exact::win_chances(race, rules, state))
}

/// `chances` clipped at zero and divided by their sum.
fn normalized(mut chances: Vec<f64>) -> Vec<f64> {
    for chance in &mut chances {
        *chance = chance.max(0.0);
    }
    let sum: f64 = chances.iter().sum();
    chances.into_iter().map(|c| c / sum).collect()
}

/// Whether two players' chances come so close to a tie for the lead that the order of the
/// sums decides it (the sums here and Python's differ by far less).
fn near_tie(chances: &[f64]) -> bool {
    let top = chances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    chances.iter().filter(|&&c| top - c <= TIE).count() > 1
}

/// Chances to win this close to the leader's are summed as Python sums them (see [`exact`]).
const TIE: f64 = 1e-10;

/// numpy's pairwise sum of a contiguous array (its `np.sum`), to the bit.
fn pairwise(values: &[f64]) -> f64 {
    const BLOCK: usize = 128;
    let n = values.len();
    if n < 8 {
        let mut sum = 0.0;
        for value in values {
            sum += value;
        }
        sum
    } else if n <= BLOCK {
        let mut r = [0.0; 8];
        r.copy_from_slice(&values[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, partial) in r.iter_mut().enumerate() {
                *partial += values[i + j];
            }
            i += 8;
        }
        let mut sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for value in &values[i..] {
            sum += value;
        }
        sum
    } else {
        let half = n / 2 - (n / 2) % 8;
        pairwise(&values[..half]) + pairwise(&values[half..])
    }
}

/// Python's `_finals`, cut at the goal (see [`Finals`]). Python takes away the rounds in
/// which nobody reaches the goal by working the shares out again with the scores above it
/// zeroed; the scores below the goal add the same to both, so only those from the goal up are
/// summed here. Not in the last round (nor a tie's turns): [`exact`] works those out.
fn finals(race: &mut Race, rules: &Eier, state: &EierState) -> Finals {
    let players = usize::from(rules.config.players);
    let mover = usize::from(state.player);
    let span = race.most; // below the goal before a turn, at most `most - 1` above it after
    let need = rules.chicken_need(state, state.player);
    let outcome = match state.stage {
        Stage::Decide => race.turn_outcomes(state.rolls, &state.dice, need).clone(),
        _ => race.fresh_turn(need).clone(),
    };
    let rung = |p: usize| usize::from(state.crossed[rules.ladder(p as u8)]);
    let lowest = state.scores[..players].iter().copied().min().unwrap_or(0);
    race.prepare(race.goal - usize::from(lowest));
    let race = &*race;
    let rows: Vec<Finals> = (0..players)
        .map(|p| {
            let score = usize::from(state.scores[p]);
            if p == mover {
                mover_rows(race, score, rung(p), &outcome, span)
            } else {
                player_rows(race, score, rung(p), p > mover, span)
            }
        })
        .collect();
    // once a player's rows end (below the goal no more), later rounds add exactly nothing
    let rounds = rows.iter().map(|r| r.rounds).min().unwrap_or(1);
    let mut finals = Finals::zeros(players, rounds, span);
    for (p, r) in rows.iter().enumerate() {
        finals.put(p, r);
    }
    finals
}

/// Python's `_player_rows`: row `j`, the player's score after round `j` (counted from this
/// one), below the goal before it; `now` when the player still plays in this round.
fn player_rows(race: &Race, score: usize, rung: usize, now: bool, span: usize) -> Finals {
    let future = race.built(race.goal - score, rung);
    let first = usize::from(!now);
    let mut rows = Finals::zeros(1, future.rows + first, span);
    if !now {
        rows.alive[0] = 1.0;
    }
    for k in 0..future.rows {
        rows.alive[first + k] = future.alive[k];
        let reached = future.reached(k);
        rows.reached_mut(0, first + k)[..reached.len()].copy_from_slice(reached);
    }
    rows
}

/// The turn's outcomes that leave the mover short of the goal, each with its chance, its points
/// and the mover's future from there (`distance` to the goal, at `rung` or the next one if
/// its Chickens scored), in Python's order.
fn mover_parts<'a>(race: &'a Race, distance: usize, rung: usize, outcome: &Outcome) -> Vec<(f64, usize, &'a Future)> {
    let mut parts = Vec::new();
    for advanced in 0..2 {
        for points in 0..distance.min(outcome.width) {
            let p = outcome.at(advanced, points);
            if p > 0.0 {
                parts.push((p, points, race.built(distance - points, rung + advanced)));
            }
        }
    }
    parts
}

/// Python's `_mover_rows`: as [`player_rows`] for the player in the middle of a turn ending as
/// `outcome`.
fn mover_rows(race: &Race, score: usize, rung: usize, outcome: &Outcome, span: usize) -> Finals {
    let distance = race.goal - score;
    let parts = mover_parts(race, distance, rung, outcome);
    let mut rows = Finals::zeros(1, 1 + parts.iter().map(|(_, _, f)| f.rows).max().unwrap_or(0), span);
    let total = outcome.total();
    let cut = distance.min(total.len());
    rows.alive[0] = total[..cut].iter().sum();
    rows.reached_mut(0, 0)[..total.len() - cut].copy_from_slice(&total[cut..]);
    for &(p, _, future) in &parts {
        for k in 0..future.rows {
            rows.alive[1 + k] += p * future.alive[k];
            for (cell, chance) in rows.reached_mut(0, 1 + k).iter_mut().zip(future.reached(k)) {
                *cell += p * chance;
            }
        }
    }
    rows
}

/// `1 / (i + 1)`: the integral of `t^i` over [0, 1].
const INVERSES: [f64; MAX_PLAYERS] = [1.0, 1.0 / 2.0, 1.0 / 3.0, 1.0 / 4.0, 1.0 / 5.0, 1.0 / 6.0];

/// Python's `_top_shares` over the scores `finals` holds: per player, the sum over rounds and
/// scores `x` of `f_p(x)` times the integral over `t` in [0, 1] of the product, over the
/// others, of `below_q(x) + f_q(x) t` (`below_q`: the chance of a lower score that round).
fn shares(finals: &Finals) -> Vec<f64> {
    let players = finals.players;
    let mut shares = [0.0; MAX_PLAYERS];
    let mut below = [0.0; MAX_PLAYERS];
    for round in 0..finals.rounds {
        for (q, mass) in below[..players].iter_mut().enumerate() {
            *mass = finals.alive[q * finals.rounds + round];
        }
        if players == 2 {
            // the integral of `below_q + f_q t` is `below_q + f_q / 2`
            let [mut low0, mut low1] = [below[0], below[1]];
            for (&f0, &f1) in finals.reached(0, round).iter().zip(finals.reached(1, round)) {
                shares[0] += f0 * (low1 + f1 / 2.0);
                shares[1] += f1 * (low0 + f0 / 2.0);
                low0 += f0;
                low1 += f1;
            }
            continue;
        }
        let mut here = [0.0; MAX_PLAYERS];
        for x in 0..finals.span {
            for (q, f) in here[..players].iter_mut().enumerate() {
                *f = finals.reached[(q * finals.rounds + round) * finals.span + x];
            }
            for p in 0..players {
                if here[p] <= 0.0 {
                    continue;
                }
                // the product's coefficients by power of t, one factor at a time
                let mut poly = [0.0; MAX_PLAYERS];
                poly[0] = 1.0;
                let mut degree = 0;
                for q in (0..players).filter(|&q| q != p) {
                    for i in (0..=degree).rev() {
                        poly[i + 1] += poly[i] * here[q];
                        poly[i] *= below[q];
                    }
                    degree += 1;
                }
                let integral: f64 = poly[..=degree].iter().zip(&INVERSES).map(|(c, inverse)| c * inverse).sum();
                shares[p] += here[p] * integral;
            }
            for (mass, f) in below[..players].iter_mut().zip(&here) {
                *mass += f;
            }
        }
    }
    shares[..players].to_vec()
}

/// The race summed to the bit as Python sums it (numpy's order of operations), for the
/// positions where the order decides: a tie for the lead (Python's noise may break it, and
/// the lab's lead changes count it) and the last round.
mod exact {
    use super::{pairwise, Outcome, Race};
    use crate::games::auf_die_eier::model::Stage;
    use crate::games::auf_die_eier::rules::{Eier, EierState};

    /// Per player, per round the game may end with, per score: the chance of being below the
    /// goal before that round and holding that score after it.
    #[derive(Clone, Debug)]
    struct Finals {
        players: usize,
        rounds: usize,
        width: usize,
        chances: Vec<f64>,
    }

    impl Finals {
        fn zeros(players: usize, rounds: usize, width: usize) -> Finals {
            Finals { players, rounds, width, chances: vec![0.0; players * rounds * width] }
        }

        /// Player `p`'s rows, one after another.
        fn player(&self, p: usize) -> &[f64] {
            let size = self.rounds * self.width;
            &self.chances[p * size..(p + 1) * size]
        }

        fn row_mut(&mut self, p: usize, round: usize) -> &mut [f64] {
            let start = (p * self.rounds + round) * self.width;
            &mut self.chances[start..start + self.width]
        }
    }

    /// Each player's chance to win from `state` (a decision or a turn's start, not the end), to
    /// the bit as Python works it out.
    pub(super) fn win_chances(race: &mut Race, rules: &Eier, state: &EierState) -> Vec<f64> {
        let (finals, cut) = finals(race, rules, state);
        let mut chances: Vec<f64> = top_shares(&finals, cut).into_iter().map(|(all, below)| all - below).collect();
        for chance in &mut chances {
            *chance = chance.max(0.0);
        }
        let sum = pairwise(&chances);
        chances.into_iter().map(|c| c / sum).collect()
    }

    /// Python's `_finals`: the scores after each round the game may end with, and where
    /// Python's `below` cuts them (the goal; `None` when the game ends with this round
    /// whatever happens).
    fn finals(race: &mut Race, rules: &Eier, state: &EierState) -> (Finals, Option<usize>) {
        let players = usize::from(rules.config.players);
        let mover = usize::from(state.player);
        let width = race.goal + 2 * race.most + 1;
        let need = rules.chicken_need(state, state.player);
        let outcome = match state.stage {
            Stage::Decide => race.turn_outcomes(state.rolls, &state.dice, need).clone(),
            _ => race.fresh_turn(need).clone(),
        };
        let rung = |p: usize| usize::from(state.crossed[rules.ladder(p as u8)]);
        if state.final_round || state.tie_players != 0 {
            let still: u8 = if state.tie_players != 0 {
                state.tie_players & !((2u8 << mover) - 1)
            } else {
                !((2u8 << mover).wrapping_sub(1))
            };
            let mut finals = Finals::zeros(players, 1, width);
            for p in 0..players {
                let start = usize::from(state.scores[p]);
                let row = finals.row_mut(p, 0);
                if p == mover {
                    let total = outcome.total();
                    row[start..start + total.len()].copy_from_slice(&total);
                } else if still & (1 << p) != 0 {
                    let turn = race.turns[rung(p)].total();
                    row[start..start + turn.len()].copy_from_slice(&turn);
                } else {
                    row[start] = 1.0;
                }
            }
            return (finals, None);
        }
        let lowest = state.scores[..players].iter().copied().min().unwrap_or(0);
        race.prepare(race.goal - usize::from(lowest));
        let race = &*race;
        let rows: Vec<Finals> = (0..players)
            .map(|p| {
                let score = usize::from(state.scores[p]);
                if p == mover {
                    mover_rows(race, score, rung(p), &outcome, width)
                } else {
                    player_rows(race, score, rung(p), p > mover, width)
                }
            })
            .collect();
        let rounds = rows.iter().map(|r| r.rounds).max().unwrap_or(1);
        let mut stacked = Finals::zeros(players, rounds, width);
        for (p, r) in rows.iter().enumerate() {
            for round in 0..r.rounds {
                stacked.row_mut(p, round).copy_from_slice(&r.player(0)[round * width..(round + 1) * width]);
            }
        }
        (stacked, Some(race.goal))
    }

    /// Python's `_player_rows`: row `j`, the player's score after round `j` (counted from this
    /// one), below the goal before it; `now` when the player still plays in this round.
    fn player_rows(race: &Race, score: usize, rung: usize, now: bool, width: usize) -> Finals {
        let future = race.built(race.goal - score, rung);
        let first = usize::from(!now);
        let mut rows = Finals::zeros(1, future.rows + first, width);
        if !now {
            rows.row_mut(0, 0)[score] = 1.0;
        }
        for k in 0..future.rows {
            rows.row_mut(0, first + k)[score..score + future.width].copy_from_slice(future.row(k));
        }
        rows
    }

    /// Python's `_mover_rows`: as [`player_rows`] for the player in the middle of a turn ending as
    /// `outcome`.
    fn mover_rows(race: &Race, score: usize, rung: usize, outcome: &Outcome, width: usize) -> Finals {
        let distance = race.goal - score;
        let parts = super::mover_parts(race, distance, rung, outcome);
        let mut rows = Finals::zeros(1, 1 + parts.iter().map(|(_, _, f)| f.rows).max().unwrap_or(0), width);
        let total = outcome.total();
        rows.row_mut(0, 0)[score..score + total.len()].copy_from_slice(&total);
        for &(p, points, future) in &parts {
            let start = score + points;
            for k in 0..future.rows {
                for (cell, chance) in rows.row_mut(0, 1 + k)[start..start + future.width].iter_mut().zip(future.row(k))
                {
                    *cell += p * chance;
                }
            }
        }
        rows
    }

    /// Python's `_top_shares`, with numpy's order of operations: per player, the sum over rounds
    /// and scores `x` of `f_p(x)` times the integral over `t` in [0, 1] of the product, over the
    /// others, of `below_q(x) + f_q(x) t`; and beside it the same sum with the scores from `cut`
    /// up counting as nothing (Python's `below`, whose other columns equal the finals'), 0
    /// without a cut.
    fn top_shares(finals: &Finals, cut: Option<usize>) -> Vec<(f64, f64)> {
        let players = finals.players;
        let size = finals.rounds * finals.width;
        let below: Vec<Vec<f64>> = (0..players)
            .map(|p| {
                let mut out = Vec::with_capacity(size);
                for row in finals.player(p).chunks(finals.width) {
                    let mut sum = 0.0;
                    for &f in row {
                        sum += f;
                        out.push(sum - f);
                    }
                }
                out
            })
            .collect();
        let mut values = vec![0.0; size];
        let mut poly = vec![0.0; players];
        (0..players)
            .map(|p| {
                for (cell, value) in values.iter_mut().enumerate() {
                    let f = finals.player(p)[cell];
                    if f == 0.0 {
                        *value = 0.0;
                        continue;
                    }
                    poly[0] = 1.0;
                    let mut degree = 0;
                    for q in (0..players).filter(|&q| q != p) {
                        let (constant, linear) = (below[q][cell], finals.player(q)[cell]);
                        poly[degree + 1] = 0.0;
                        for i in (0..=degree).rev() {
                            poly[i + 1] += poly[i] * linear;
                            poly[i] *= constant;
                        }
                        degree += 1;
                    }
                    let mut integral = 0.0;
                    for (i, c) in poly[..=degree].iter().enumerate() {
                        integral += c / (i + 1) as f64;
                    }
                    *value = f * integral;
                }
                let all = pairwise(&values);
                let Some(cut) = cut else { return (all, 0.0) };
                // Python's `below`: the scores from the cut up zeroed, the lower ones (and so
                // their products) the same
                for row in values.chunks_mut(finals.width) {
                    row[cut..].fill(0.0);
                }
                (all, pairwise(&values))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Options, Rules};

    #[test]
    fn a_turn_ends_somehow_and_at_the_start_everyone_has_the_same_chance() {
        let mut race = Race::new(30, 5);
        for turn in &race.turns {
            let sum: f64 = turn.total().iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{sum}");
        }
        assert!(race.future(30, 0).rows > 1);
        // every round is played to its end, so the seat does not matter before a throw
        let rules = Eier::new(3, &Options::new(vec![])).unwrap();
        let mut race = Race::new(100, 9);
        let chances = win_chances(&mut race, &rules, &rules.initial_state()).unwrap();
        assert_eq!(chances, vec![1.0 / 3.0; 3]);
    }

    #[test]
    fn numpys_pairwise_sum_adds_up_arrays_of_every_length() {
        for n in [0, 1, 7, 8, 9, 127, 128, 129, 1000] {
            let values: Vec<f64> = (0..n).map(f64::from).collect();
            assert_eq!(pairwise(&values), f64::from(n * (n.max(1) - 1) / 2));
        }
    }
}
