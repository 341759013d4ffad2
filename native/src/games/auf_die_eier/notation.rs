//! Auf die Eier: dice faces and the action table (mirrors
//! `spieltisch/games/auf_die_eier/notation.py`).
//!
//! Dice are identical, so a set of dice is its counts per face in the order whole egg,
//! cracked egg, rotten egg, pot, frying pan, chicken. Action 0 is `stop`; the others re-roll a
//! set of non-rotten dice, fewest dice first, and among sets of one size the one with more
//! Whole Eggs (then Cracked Eggs, Pots, Pans) first. A game with fewer dice lists a prefix of
//! the table of a game with more, so an id means the same re-roll whatever the dice in play.

use std::sync::OnceLock;

/// The six faces, as indices into a set of dice.
pub const WHOLE: usize = 0;
pub const CRACKED: usize = 1;
pub const ROTTEN: usize = 2;
pub const POT: usize = 3;
pub const PAN: usize = 4;
pub const CHICKEN: usize = 5;
pub const FACES: usize = 6;
/// Dice of the rulebook's game.
pub const NUM_DICE: u8 = 9;
/// The most dice the `dice` parameter allows.
pub const MAX_DICE: usize = 10;
/// A set of dice: counts per face.
pub type Counts = [u8; FACES];
pub const NO_DICE: Counts = [0; FACES];
/// The faces a player can re-roll (every face but the Rotten Egg), in table order.
pub const REROLLABLE: [usize; 5] = [WHOLE, CRACKED, POT, PAN, CHICKEN];
const PARTS: usize = REROLLABLE.len();

/// `n` choose `k` for the table's small numbers.
pub const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// The number of player actions with `dice` in play: `stop` and every re-roll of 1 to `dice`
/// non-rotten dice (2,002 at nine dice).
pub const fn num_actions(dice: usize) -> usize {
    binomial(dice + PARTS, PARTS)
}

/// The five re-rollable counts of a set of dice.
pub fn rerollable(dice: &Counts) -> [u8; PARTS] {
    [dice[WHOLE], dice[CRACKED], dice[POT], dice[PAN], dice[CHICKEN]]
}

/// The action id of re-rolling `five` (counts of the re-rollable faces); 0 (`stop`) for none.
pub fn reroll_id(five: [u8; PARTS]) -> usize {
    let total: usize = five.iter().map(|&n| usize::from(n)).sum();
    if total == 0 {
        return 0;
    }
    // Position among the sets of this size in increasing (lexicographic) order.
    let mut position = 0;
    let mut rest = total;
    for (index, &count) in five.iter().enumerate().take(PARTS - 1) {
        let after = PARTS - 1 - index;
        for taken in 0..usize::from(count) {
            position += binomial(rest - taken + after - 1, after - 1);
        }
        rest -= usize::from(count);
    }
    // Sets of fewer dice come first (they and stop fill ids below C(total + 4, 5)), and the
    // table lists each size in decreasing order.
    binomial(total + PARTS - 1, PARTS) + binomial(total + PARTS - 1, PARTS - 1) - 1 - position
}

/// The tables worked out once for every game: each id's re-roll, and for every set of
/// re-rollable dice on the table the ids of its re-rolls in increasing order.
pub struct Tables {
    /// The re-rollable counts of each action id (id 0, `stop`, re-rolls nothing).
    pub rerolls: Vec<[u8; PARTS]>,
    /// The dice thrown by each action id.
    pub sizes: Vec<u8>,
    /// `subsets[starts[k]..starts[k + 1]]`: the re-roll ids of the dice whose own id is `k`.
    starts: Vec<u32>,
    subsets: Vec<u16>,
}

impl Tables {
    /// The ids of every re-roll of some of the dice `five`, increasing (without `stop`).
    pub fn rerolls_of(&self, five: [u8; PARTS]) -> &[u16] {
        let key = reroll_id(five);
        &self.subsets[self.starts[key] as usize..self.starts[key + 1] as usize]
    }

    fn build() -> Tables {
        let mut rerolls = vec![[0u8; PARTS]];
        for total in 1..=MAX_DICE as u8 {
            for w in (0..=total).rev() {
                for c in (0..=total - w).rev() {
                    for p in (0..=total - w - c).rev() {
                        for f in (0..=total - w - c - p).rev() {
                            rerolls.push([w, c, p, f, total - w - c - p - f]);
                        }
                    }
                }
            }
        }
        let sizes = rerolls.iter().map(|five| five.iter().sum()).collect();
        let mut starts = Vec::with_capacity(rerolls.len() + 1);
        let mut subsets = Vec::new();
        for five in &rerolls {
            starts.push(subsets.len() as u32);
            let first = subsets.len();
            for w in 0..=five[0] {
                for c in 0..=five[1] {
                    for p in 0..=five[2] {
                        for f in 0..=five[3] {
                            for h in 0..=five[4] {
                                let id = reroll_id([w, c, p, f, h]);
                                if id != 0 {
                                    subsets.push(id as u16);
                                }
                            }
                        }
                    }
                }
            }
            subsets[first..].sort_unstable();
        }
        starts.push(subsets.len() as u32);
        Tables { rerolls, sizes, starts, subsets }
    }
}

/// The tables (built on first use, shared by every game).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}
