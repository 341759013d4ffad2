//! The best way to play out a turn's start track: the Rust mirror of
//! `spieltisch/games/auf_die_nuesse/bots/plan.py`.
//!
//! Within a turn the dice only add squirrels to the start track, so the rest of a turn is a
//! small decision problem over start tracks. Given what stopping with each start track is worth
//! ([`SpaceWorths`], priced space by space), [`TurnPlan`] works out the expected worth of going
//! on with the best play, each track once, in the same order of operations as Python (so the
//! same floats and the same choices). [`with_plan`] keeps the plans of recent tables per thread,
//! as `plan_for` keeps them in Python: a cache only, which changes no value.

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::games::auf_die_nuesse::notation::{Action, TRACK_SPACE};

/// How many equally likely rolls of the three dice there are.
pub const ROLLS: f64 = 216.0;
/// The 2-area spaces.
pub const TWO_AREA: usize = 5;
/// How many start-track spaces lie under each 2-area space.
pub const REACH: [usize; TWO_AREA] = [3, 2, 1, 2, 3];
/// More squirrels than this never stand on the start track at once.
pub const START_TRACK_SPACES: u32 = 11;
/// Worths closer than this are the same; the first choice listed stands.
pub const TIED: f64 = 1e-9;
/// How many plans a thread keeps (Python's `PLANS_KEPT` is 16 for the expert's tables; the
/// playouts' fixed tables near the end need a few more).
pub const PLANS_KEPT: usize = 48;

/// What a stop is worth space by space: `worths[i][c]` is what `c` start-track squirrels moving
/// up to the `i`-th 2-area space bring (`c` up to [`REACH`]; the rest of a row is unused).
pub type SpaceWorths = [[f64; 4]; TWO_AREA];

/// The two start-track spaces each roll offers (the smaller first), with how many of the 216
/// rolls offer them, in increasing order (`sum_pairs`).
pub fn sum_pairs() -> &'static [(u8, u8, u32)] {
    static PAIRS: OnceLock<Vec<(u8, u8, u32)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut tally = [[0u32; 13]; 13];
        for green in 1..=6u8 {
            for white1 in 1..=6u8 {
                for white2 in 1..=6u8 {
                    let (a, b) = (green + white1, green + white2);
                    tally[usize::from(a.min(b))][usize::from(a.max(b))] += 1;
                }
            }
        }
        let mut pairs = Vec::new();
        for (a, row) in tally.iter().enumerate() {
            for (b, &count) in row.iter().enumerate() {
                if count > 0 {
                    pairs.push((a as u8, b as u8, count));
                }
            }
        }
        pairs
    })
}

/// The spaces a placing step offers (at most two: the white dice's sums), in legal order, and
/// how many there are.
pub fn place_spaces(legal: &[u32]) -> ([u8; 2], usize) {
    let mut spaces = [0u8; 2];
    let mut count = 0;
    for &id in legal {
        if let Some(Action::Place(space)) = Action::of(id) {
            if count < spaces.len() {
                spaces[count] = space;
                count += 1;
            }
        }
    }
    (spaces, count)
}

/// The chance that a roll fits no free space of start track `track` (`model.fail_chance`, as
/// a float: the count of failing rolls over 216, rounded once as Python's `float` of the
/// fraction rounds it).
pub fn fail_chance(track: u16) -> f64 {
    let mut fails = 0;
    for &(low, high, rolls) in sum_pairs() {
        if track >> low & 1 != 0 && track >> high & 1 != 0 {
            fails += rolls;
        }
    }
    f64::from(fails) / ROLLS
}

/// How many squirrels of start track `track` reach each 2-area space (`move_up`).
#[inline]
pub fn move_up(track: u16) -> [usize; TWO_AREA] {
    let mut counts = [0; TWO_AREA];
    for (n, &space) in TRACK_SPACE.iter().enumerate().skip(2) {
        if track >> n & 1 != 0 {
            counts[usize::from(space)] += 1;
        }
    }
    counts
}

/// What stopping with `track` is worth, priced space by space by `worths` (`track_worth`).
#[inline]
pub fn track_worth(worths: &SpaceWorths, track: u16) -> f64 {
    let mut total = 0.0;
    for (row, count) in worths.iter().zip(move_up(track)) {
        total += row[count];
    }
    total
}

/// The expected worth of the rest of a turn under the best play, for one table of stop
/// worths and `room` squirrels to place this turn in all (`TurnPlan`).
#[derive(Clone, Debug)]
pub struct TurnPlan {
    worths: SpaceWorths,
    room: u32,
    /// `value` and `roll_on` of each track (indexed by `track >> 2`); NaN: not yet worked out.
    values: Vec<f64>,
    rolls: Vec<f64>,
}

impl TurnPlan {
    /// The plan for stops priced by `worths` with `room` squirrels to place.
    pub fn new(worths: SpaceWorths, room: u32) -> TurnPlan {
        TurnPlan {
            worths,
            room: room.min(START_TRACK_SPACES),
            values: vec![f64::NAN; 1 << 11],
            rolls: vec![f64::NAN; 1 << 11],
        }
    }

    /// What stopping with `track` is worth.
    #[inline]
    pub fn stop_value(&self, track: u16) -> f64 {
        track_worth(&self.worths, track)
    }

    /// Whether a squirrel is left to roll with from `track`.
    #[inline]
    pub fn can_roll(&self, track: u16) -> bool {
        track.count_ones() < self.room
    }

    /// What `track` is worth at the roll-or-stop choice: the better of stopping and rolling on.
    pub fn value(&mut self, track: u16) -> f64 {
        let key = usize::from(track >> 2);
        let known = self.values[key];
        if !known.is_nan() {
            return known;
        }
        let mut worth = self.stop_value(track);
        if self.can_roll(track) {
            // Python's `max(worth, roll_on)`: the first unless the second is greater.
            let rolled = self.roll_on(track);
            if rolled > worth {
                worth = rolled;
            }
        }
        self.values[key] = worth;
        worth
    }

    /// The expected worth of rolling on from `track` and playing best afterwards.
    pub fn roll_on(&mut self, track: u16) -> f64 {
        let key = usize::from(track >> 2);
        let known = self.rolls[key];
        if !known.is_nan() {
            return known;
        }
        let worth = if self.can_roll(track) { self.roll_on_uncached(track) } else { 0.0 };
        self.rolls[key] = worth;
        worth
    }

    fn roll_on_uncached(&mut self, track: u16) -> f64 {
        let mut total = 0.0;
        for &(low, high, rolls) in sum_pairs() {
            let mut best: Option<f64> = None;
            let offered = [low, high];
            for &n in &offered[..if low == high { 1 } else { 2 }] {
                if track >> n & 1 == 0 {
                    let worth = self.value(track | 1 << n);
                    best = Some(best.map_or(worth, |b: f64| if worth > b { worth } else { b }));
                }
            }
            if let Some(best) = best {
                total += f64::from(rolls) * best;
            }
        }
        total / ROLLS
    }

    /// Whether rolling on from `track` is worth more than stopping (never on a tie).
    pub fn rolls_on(&mut self, track: u16) -> bool {
        self.can_roll(track) && self.roll_on(track) > self.stop_value(track) + TIED
    }

    /// The free space among `spaces` (a roll's offer) worth most; the first listed on a tie.
    pub fn best_space(&mut self, track: u16, spaces: &[u8]) -> Option<(f64, u8)> {
        let mut best: Option<(f64, u8)> = None;
        for &space in spaces {
            let worth = self.value(track | 1 << space);
            if best.map_or(true, |(b, _)| worth > b + TIED) {
                best = Some((worth, space));
            }
        }
        best
    }
}

thread_local! {
    static PLANS: RefCell<Vec<([u64; 4 * TWO_AREA], u32, TurnPlan)>> = const { RefCell::new(Vec::new()) };
}

/// Run `work` on the plan for `worths` and `room` (`plan_for`), kept for the decisions to come
/// (the same turn meets the same table at each of its decisions).
pub fn with_plan<T>(worths: &SpaceWorths, room: u32, work: impl FnOnce(&mut TurnPlan) -> T) -> T {
    let room = room.min(START_TRACK_SPACES);
    let mut key = [0u64; 4 * TWO_AREA];
    for (slot, worth) in key.iter_mut().zip(worths.iter().flatten()) {
        *slot = worth.to_bits();
    }
    PLANS.with(|plans| {
        let mut plans = plans.borrow_mut();
        let found = plans.iter().rposition(|(k, r, _)| *r == room && *k == key);
        let index = match found {
            Some(index) => index,
            None => {
                if plans.len() >= PLANS_KEPT {
                    plans.remove(0);
                }
                plans.push((key, room, TurnPlan::new(*worths, room)));
                plans.len() - 1
            }
        };
        work(&mut plans[index].2)
    })
}
