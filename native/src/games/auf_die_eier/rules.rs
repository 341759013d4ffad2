//! Auf die Eier: the state and its transitions (mirrors `spieltisch/games/auf_die_eier/rules.py`).
//!
//! A turn: chance throws the dice; the player re-rolls some non-rotten dice or stops, three
//! throws at most; chance throws the turn's Rotten Eggs once more; the dice score. Rotten Eggs
//! stay set aside from the moment they show. Once a player reaches the goal the round is
//! finished; tied leaders take one more turn each, and a tie after that is a shared win.

use rand::Rng as _;

use super::encode;
use super::model::{
    rule, Config, Stage, TurnScore, BREAKFAST_POINTS_PER_DIE, CHICKEN_POINTS, FRIED_POINTS, LADDER, MAX_ROLLS,
};
use super::notation::{
    num_actions, rerollable, tables, Counts, Tables, CHICKEN, CRACKED, FACES, MAX_DICE, NO_DICE, PAN, POT, ROTTEN,
    WHOLE,
};
use crate::core::{Node, Options, Prob, Refusal, Rng, Rules};

/// How many Chickens score next on a ladder with `crossed` entries crossed off (`None`: the
/// ladder is used up).
pub fn chicken_need(crossed: u8) -> Option<u8> {
    LADDER.get(usize::from(crossed)).copied()
}

/// Score `dice` with `spoilers` re-rolled Rotten Eggs, needing `need` Chickens.
///
/// Each spoiler ruins one combination, at most one each, and the cheapest go first: Fried
/// Eggs pairs (5 each) before the Breakfast (6 or more). `chickens_at_least` is the broken rule
/// of the test of the agreement test: Chickens score whenever there are at least enough.
pub fn score_turn(player: u8, dice: Counts, spoilers: u8, need: Option<u8>, chickens_at_least: bool) -> TurnScore {
    let fried = dice[CRACKED].min(dice[PAN]);
    let whole = dice[WHOLE];
    let breakfast = if whole > 0 && dice[POT] > 0 { BREAKFAST_POINTS_PER_DIE * (whole + 1) } else { 0 };
    let spoiled_fried = spoilers.min(fried);
    let spoiled_breakfast = breakfast > 0 && spoilers > fried;
    let hens = dice[CHICKEN];
    let matched = match need {
        Some(need) if chickens_at_least => hens >= need,
        Some(need) => hens == need,
        None => false,
    };
    let chickens = if hens > 0 && matched { CHICKEN_POINTS * hens } else { 0 };
    let mut points = FRIED_POINTS * (fried - spoiled_fried) + chickens;
    if !spoiled_breakfast {
        points += breakfast;
    }
    TurnScore { player, dice, spoilers, fried, breakfast, spoiled_fried, spoiled_breakfast, chickens, points }
}

/// `dice` with its Rotten Eggs taken away.
fn without_rotten(mut dice: Counts) -> Counts {
    dice[ROTTEN] = 0;
    dice
}

/// A bit set of seats, bit `s` for seat `s`.
pub type Seats = u8;

/// A position of Auf die Eier: the score sheet and the turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EierState {
    // The score sheet: what changes only when a turn ends.
    pub scores: [u16; 6],
    /// Entries crossed off each chicken ladder (only entry 0 when the ladder is shared).
    pub crossed: [u8; 6],
    /// Someone has reached the goal: the game ends with this round.
    pub final_round: bool,
    /// Tied leaders taking their one extra turn each, in seat order (none in normal play).
    pub tie_players: Seats,
    pub winners: Seats,
    /// How the previous turn scored.
    pub last: Option<TurnScore>,
    // The turn.
    /// Whose turn it is (the last player to move once the game is over).
    pub player: u8,
    pub stage: Stage,
    /// Throws made this turn.
    pub rolls: u8,
    /// Dice lying on the table this turn (the thrown ones count once they land).
    pub dice: Counts,
    /// Dice in the hand of whoever throws next (at a chance node).
    pub to_throw: u8,
}

/// The rules of Auf die Eier for one player count and options.
pub struct Eier {
    pub config: Config,
    /// The broken rule of the test of the agreement test (`auf-die-eier:chickens_at_least`).
    chickens_at_least: bool,
    tables: &'static Tables,
}

/// The name of the deliberately broken rule.
pub const MUTATION: &str = "auf-die-eier:chickens_at_least";

/// `6^n` for the throws' denominators and draws.
pub(super) const POWERS_OF_SIX: [u64; MAX_DICE + 1] = {
    let mut powers = [1u64; MAX_DICE + 1];
    let mut i = 1;
    while i <= MAX_DICE {
        powers[i] = powers[i - 1] * 6;
        i += 1;
    }
    powers
};

const FACTORIALS: [u64; MAX_DICE + 1] = {
    let mut values = [1u64; MAX_DICE + 1];
    let mut i = 1;
    while i <= MAX_DICE {
        values[i] = values[i - 1] * i as u64;
        i += 1;
    }
    values
};

/// The faces of `n` dice read from `draw` (below `6^n`): its `n` base-6 digits, counted.
pub(super) fn roll_of_draw(mut draw: u32, n: usize) -> Counts {
    let mut roll = NO_DICE;
    for _ in 0..n {
        roll[(draw % 6) as usize] += 1;
        draw /= 6;
    }
    roll
}

/// Call `visit` with every set of faces `dice` dice can show (a count per face), in increasing
/// (lexicographic) order of the counts: the order the Python game lists a throw's outcomes in.
pub(super) fn for_each_throw(dice: u8, mut visit: impl FnMut(Counts)) {
    fn fill(counts: &mut Counts, face: usize, rest: u8, visit: &mut impl FnMut(Counts)) {
        if face == FACES - 1 {
            counts[face] = rest;
            visit(*counts);
            return;
        }
        for n in 0..=rest {
            counts[face] = n;
            fill(counts, face + 1, rest - n, visit);
        }
    }
    let mut counts = NO_DICE;
    fill(&mut counts, 0, dice, &mut visit);
}

/// In how many orders distinguishable dice show exactly `counts`.
pub(super) fn multinomial_ways(counts: &Counts) -> u64 {
    let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
    counts.iter().fold(FACTORIALS[total], |ways, &n| ways / FACTORIALS[usize::from(n)])
}

impl Eier {
    /// The index of `player`'s chicken ladder.
    pub fn ladder(&self, player: u8) -> usize {
        if self.config.shared_chicken_ladder {
            0
        } else {
            usize::from(player)
        }
    }

    /// How many Chickens `player` must throw to score them now (`None`: ladder used up).
    pub fn chicken_need(&self, state: &EierState, player: u8) -> Option<u8> {
        chicken_need(state.crossed[self.ladder(player)])
    }

    /// A throw of `n` dice: one uniform draw below `6^n`, read as `n` base-6 digits (one face
    /// per die), so every ordered throw is equally likely.
    fn throw(&self, n: u8, rng: &mut Rng) -> Counts {
        let n = usize::from(n).min(MAX_DICE);
        roll_of_draw(rng.gen_range(0..POWERS_OF_SIX[n] as u32), n)
    }

    /// Rolling is over: re-roll the Rotten Eggs if there are any, else score.
    fn after_rolling(&self, state: &mut EierState) {
        let rotten = state.dice[ROTTEN];
        if rotten > 0 {
            state.stage = Stage::Rotten;
            state.to_throw = rotten;
        } else {
            self.end_turn(state, state.dice, 0);
        }
    }

    /// Score the turn, then pass the dice on or end the game.
    fn end_turn(&self, state: &mut EierState, dice: Counts, spoilers: u8) {
        let player = state.player;
        let ladder = self.ladder(player);
        let result = score_turn(player, dice, spoilers, chicken_need(state.crossed[ladder]), self.chickens_at_least);
        self.close_turn(state, result);
    }

    /// Write the mover's finished turn, scored `result`, on the sheet (its Chickens, if they
    /// scored, cross off the ladder's entry), then pass the dice on or end the game (Python's
    /// `close_turn`; the racer asks where each way a turn can end leads).
    pub fn close_turn(&self, state: &mut EierState, result: TurnScore) {
        let player = state.player;
        let ladder = self.ladder(player);
        if result.chickens > 0 {
            state.crossed[ladder] += 1;
        }
        state.scores[usize::from(player)] += u16::from(result.points);
        state.last = Some(result);
        match self.following(state, player) {
            Following::Next(next) => {
                state.player = next;
                state.stage = Stage::Roll;
                state.rolls = 0;
                state.dice = NO_DICE;
                state.to_throw = self.config.dice;
            }
            Following::Over(among) => {
                state.winners = self.leaders(state, among);
                state.final_round = true;
                state.stage = Stage::Over;
                state.dice = NO_DICE;
                state.to_throw = 0;
            }
        }
    }

    /// Who plays after `player` (setting the final round and the tied players), or the seats
    /// among whom the winners are found once the game is over.
    fn following(&self, state: &mut EierState, player: u8) -> Following {
        let ties = state.tie_players;
        if ties != 0 {
            let later = ties & !((2u8 << player) - 1);
            return if later != 0 { Following::Next(later.trailing_zeros() as u8) } else { Following::Over(ties) };
        }
        let final_round = state.final_round || state.scores[usize::from(player)] >= self.config.goal;
        let following = (player + 1) % self.config.players;
        state.final_round = final_round;
        if !(final_round && following == 0) {
            return Following::Next(following);
        }
        let everyone = ((1u16 << self.config.players) - 1) as u8;
        let leaders = self.leaders(state, everyone);
        if leaders.count_ones() > 1 {
            state.tie_players = leaders;
            Following::Next(leaders.trailing_zeros() as u8)
        } else {
            Following::Over(leaders)
        }
    }

    /// The seats of `among` with the highest score.
    fn leaders(&self, state: &EierState, among: Seats) -> Seats {
        let seats = (0..self.config.players).filter(|&seat| among & (1 << seat) != 0);
        let best = seats.clone().map(|seat| state.scores[usize::from(seat)]).max().unwrap_or(0);
        seats.filter(|&seat| state.scores[usize::from(seat)] == best).fold(0, |mask, seat| mask | (1 << seat))
    }

    /// Apply a throw that [`Rules::check_outcome`] accepted.
    fn apply_roll(&self, state: &mut EierState, roll: &Counts) {
        if state.stage == Stage::Rotten {
            let mut scored = without_rotten(state.dice);
            for (count, &thrown) in scored.iter_mut().zip(&without_rotten(*roll)) {
                *count += thrown;
            }
            self.end_turn(state, scored, roll[ROTTEN]);
            return;
        }
        for (count, &thrown) in state.dice.iter_mut().zip(roll) {
            *count += thrown;
        }
        let rolls = state.rolls + 1;
        if rolls < MAX_ROLLS && state.dice[ROTTEN] < self.config.dice {
            state.rolls = rolls;
            state.stage = Stage::Decide;
            state.to_throw = 0;
        } else if state.dice[ROTTEN] > 0 {
            state.rolls = rolls;
            state.stage = Stage::Rotten;
            state.to_throw = state.dice[ROTTEN];
        } else {
            // As in Python, a game that ends on this throw keeps the count of throws before it.
            self.end_turn(state, state.dice, 0);
        }
    }
}

/// What follows a finished turn.
enum Following {
    Next(u8),
    Over(Seats),
}

impl Rules for Eier {
    type State = EierState;
    type Outcome = Counts;

    const ID: &'static str = "auf-die-eier";

    fn new(players: usize, options: &Options) -> Result<Self, Refusal> {
        let config = Config::read(players, options)?;
        Ok(Eier { config, chickens_at_least: options.mutated(MUTATION), tables: tables() })
    }

    fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    fn num_distinct_actions(&self) -> usize {
        num_actions(usize::from(self.config.dice))
    }

    fn observation_size(&self) -> usize {
        encode::SIZE
    }

    fn initial_state(&self) -> EierState {
        EierState {
            scores: [0; 6],
            crossed: [0; 6],
            final_round: false,
            tie_players: 0,
            winners: 0,
            last: None,
            player: 0,
            stage: Stage::Roll,
            rolls: 0,
            dice: NO_DICE,
            to_throw: self.config.dice,
        }
    }

    fn node(&self, state: &EierState) -> Node {
        match state.stage {
            Stage::Decide => Node::Decision(usize::from(state.player)),
            Stage::Over => Node::Terminal,
            Stage::Roll | Stage::Rotten => Node::Chance,
        }
    }

    fn legal_actions(&self, state: &EierState, out: &mut Vec<u32>) {
        if state.stage != Stage::Decide {
            return;
        }
        out.push(0);
        out.extend(self.tables.rerolls_of(rerollable(&state.dice)).iter().map(|&id| u32::from(id)));
    }

    fn random_action(&self, state: &EierState, rng: &mut Rng, _scratch: &mut Vec<u32>) -> Option<u32> {
        // `stop` (id 0) and then the re-rolls, as `legal_actions` lists them, without the list.
        if state.stage != Stage::Decide {
            return None;
        }
        let rerolls = self.tables.rerolls_of(rerollable(&state.dice));
        Some(match rng.gen_range(0..rerolls.len() + 1) {
            0 => 0,
            pick => u32::from(rerolls[pick - 1]),
        })
    }

    fn apply_action(&self, state: &mut EierState, action: u32) {
        if action == 0 {
            self.after_rolling(state);
            return;
        }
        let id = action as usize;
        let picked = self.tables.rerolls[id];
        state.dice[WHOLE] -= picked[0];
        state.dice[CRACKED] -= picked[1];
        state.dice[POT] -= picked[2];
        state.dice[PAN] -= picked[3];
        state.dice[CHICKEN] -= picked[4];
        state.stage = Stage::Roll;
        state.to_throw = self.tables.sizes[id];
    }

    fn refusal(&self, state: &EierState, action: u32) -> Refusal {
        let _ = state;
        Refusal::Illegal { rule: rule::REROLL_OWN, detail: format!("action {action} re-rolls dice not on the table") }
    }

    fn chance_outcomes(&self, state: &EierState, out: &mut Vec<(Counts, Prob)>) -> Result<(), Refusal> {
        if !matches!(state.stage, Stage::Roll | Stage::Rotten) {
            return Ok(());
        }
        let n = state.to_throw.min(MAX_DICE as u8);
        let den = POWERS_OF_SIX[usize::from(n)];
        for_each_throw(n, |roll| out.push((roll, Prob::new(multinomial_ways(&roll), den))));
        Ok(())
    }

    fn sample_chance(&self, state: &EierState, rng: &mut Rng) -> Counts {
        self.throw(state.to_throw, rng)
    }

    fn random_chance(&self, state: &mut EierState, rng: &mut Rng) {
        let roll = self.throw(state.to_throw, rng);
        self.apply_roll(state, &roll);
    }

    fn apply_outcome(&self, state: &mut EierState, outcome: &Counts) {
        self.apply_roll(state, outcome);
    }

    fn check_outcome(&self, state: &EierState, outcome: &Counts) -> Result<(), Refusal> {
        let thrown: u32 = outcome.iter().map(|&n| u32::from(n)).sum();
        if thrown == u32::from(state.to_throw) {
            Ok(())
        } else {
            Err(Refusal::Illegal { rule: rule::ROLL_SIZE, detail: format!("{} dice were thrown", state.to_throw) })
        }
    }

    fn outcome_code(&self, outcome: &Counts, out: &mut Vec<i64>) {
        out.extend(outcome.iter().map(|&n| i64::from(n)));
    }

    fn outcome_from_code(&self, state: &EierState, code: &[i64]) -> Result<Counts, Refusal> {
        if code.len() != FACES || code.iter().any(|&n| n < 0) {
            return Err(Refusal::Invalid(format!(
                "{code:?} is no roll of auf-die-eier (a count of each of the {FACES} faces)"
            )));
        }
        let mut roll = NO_DICE;
        for (count, &n) in roll.iter_mut().zip(code) {
            match u8::try_from(n) {
                Ok(n) if usize::from(n) <= MAX_DICE => *count = n,
                _ => {
                    return Err(Refusal::Illegal {
                        rule: rule::ROLL_SIZE,
                        detail: format!("{} dice were thrown", state.to_throw),
                    })
                }
            }
        }
        Ok(roll)
    }

    fn scores(&self, state: &EierState, out: &mut Vec<i64>) {
        out.extend(state.scores[..self.players()].iter().map(|&s| i64::from(s)));
    }

    fn winners(&self, state: &EierState) -> u32 {
        u32::from(state.winners)
    }

    fn observe(&self, state: &EierState, seat: Option<usize>, out: &mut [f32]) {
        encode::observe(self, state, seat, out);
    }

    fn canonical(&self, state: &EierState, out: &mut Vec<i64>) {
        let config = &self.config;
        out.extend([
            i64::from(config.players),
            i64::from(config.shared_chicken_ladder),
            i64::from(config.goal),
            i64::from(config.dice),
            state.stage as i64,
            i64::from(state.player),
            i64::from(state.rolls),
        ]);
        out.extend(state.dice.iter().map(|&n| i64::from(n)));
        out.push(i64::from(state.to_throw));
        out.extend(state.scores[..self.players()].iter().map(|&s| i64::from(s)));
        let ladders = if config.shared_chicken_ladder { 1 } else { self.players() };
        out.extend(state.crossed[..ladders].iter().map(|&n| i64::from(n)));
        out.extend([i64::from(state.final_round), i64::from(state.tie_players), i64::from(state.winners)]);
        match &state.last {
            None => out.push(0),
            Some(last) => {
                out.extend([1, i64::from(last.player)]);
                out.extend(last.dice.iter().map(|&n| i64::from(n)));
                out.extend([
                    i64::from(last.spoilers),
                    i64::from(last.fried),
                    i64::from(last.breakfast),
                    i64::from(last.spoiled_fried),
                    i64::from(last.spoiled_breakfast),
                    i64::from(last.chickens),
                    i64::from(last.points),
                ]);
            }
        }
    }
}
