//! What the round remembers of the hands, as far as the belief sampler needs it beyond the
//! rules (the mirror of `memory.py`'s `BlindVoid.weight`; the memory itself, kept up to date by
//! every move, lives beside the state in [`super::rules`]).

use super::rules::BlindVoid;

/// `n! / (n - k)!`: ordered choices of `k` out of `n` (0 when `k > n`).
fn perm(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (n - k + 1..=n).fold(1u128, |product, factor| product * u128::from(factor))
}

impl BlindVoid {
    /// In how many ways the blind picks explain a hand that now holds `held` cards of the
    /// record's lands: the ordered pick sequences whose cards include every card of those lands
    /// the hand held then (the `held` ones and the `resolved` ones played since). Zero: the
    /// hand is impossible.
    pub fn weight(&self, held: u32) -> u128 {
        let needed = held + u32::from(self.resolved);
        let picks = u32::from(self.picks);
        if needed > picks {
            return 0;
        }
        perm(picks, needed) * perm(u32::from(self.candidates).saturating_sub(needed), picks - needed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_count_the_pick_sequences() {
        // One pick among four candidates (the Python test's blind void): 4 ways without a
        // desert card in hand, 1 with one, none with two.
        let record = BlindVoid { lands: 2, picks: 1, candidates: 4, resolved: 0 };
        assert_eq!([record.weight(0), record.weight(1), record.weight(2)], [4, 1, 0]);
        let two = BlindVoid { lands: 2, picks: 2, candidates: 5, resolved: 1 };
        assert_eq!([two.weight(0), two.weight(1), two.weight(2)], [2 * 4, 2, 0]);
    }
}
