//! Auweier's deck plan (mirrors `bots/book.py`'s `plan_next`): the heuristic's next card of a
//! deck being arranged, tier by tier, with the Weddings spread over stretches of places.
//!
//! The plan draws from the seat's own generator where Python draws from the agent's
//! `random.Random`: the same choices with the same chances (`randrange(n)` is a uniform pick
//! among `n`), another sample of them.

use rand::Rng as _;

use super::super::notation::{
    Card, CROW, FALSE_WORM, FIVE_STAR, FOUR, KINDS, ONE, SEVEN, SIX, THREE, TWO, TWO_STAR, WEDDING,
};
use crate::core::Rng;

/// The plan's cards other than Weddings, tier by tier (Python's `PLAN_TIERS`).
pub const PLAN_TIERS: [&[Card]; 4] = [
    &[SEVEN, SIX],
    &[FIVE_STAR, TWO_STAR, FOUR, FOUR, CROW],
    &[THREE, THREE, FALSE_WORM, CROW, ONE],
    &[TWO, TWO, ONE, ONE],
];

/// The places (0: the deck's first card) each Wedding may take, the k-th in `a..=b`.
pub const WEDDING_PLACES: [(usize, usize); 6] = [(0, 5), (6, 8), (9, 11), (12, 14), (15, 17), (18, 21)];

/// The next card of the planned order for a `deck` whose cards not placed yet are `hand`
/// (Python's `plan_next`, drawing as often, in the same order). A smaller deck (`deck_cards`)
/// follows the same plan with the cards it lacks left out.
pub fn plan_next(hand: &[u8; KINDS], deck: &[u8; KINDS], rng: &mut Rng) -> Card {
    let mut placed = [0u8; KINDS];
    for (kind, slot) in placed.iter_mut().enumerate() {
        *slot = deck[kind] - hand[kind];
    }
    let left_total: usize = hand.iter().map(|&n| usize::from(n)).sum();
    let place = deck.iter().map(|&n| usize::from(n)).sum::<usize>() - left_total;
    let weddings = usize::from(hand[usize::from(WEDDING)]);
    let others_left = left_total - weddings;
    if weddings > 0 && (others_left == 0 || wedding_now(place, usize::from(placed[usize::from(WEDDING)]), rng)) {
        return WEDDING;
    }
    let mut unplaced = *hand;
    for tier in PLAN_TIERS {
        let mut left = [0 as Card; 5];
        let mut count = 0;
        for &card in tier {
            let kind = usize::from(card);
            if placed[kind] > 0 {
                placed[kind] -= 1;
            } else if unplaced[kind] > 0 {
                // always, in the rulebook's deck
                left[count] = card;
                count += 1;
                unplaced[kind] -= 1;
            }
        }
        if count > 0 {
            return left[rng.gen_range(0..count)];
        }
    }
    // the tiers cover the deck: unreached
    (0..KINDS).find(|&kind| hand[kind] > 0).map_or(WEDDING, |kind| kind as Card)
}

/// Whether the next Wedding goes at `place` (Python's `_wedding_now`).
fn wedding_now(place: usize, weddings_placed: usize, rng: &mut Rng) -> bool {
    let (first, last) = WEDDING_PLACES[weddings_placed.min(WEDDING_PLACES.len() - 1)];
    if place < first {
        return false;
    }
    place >= last || rng.gen_range(0..last - place + 1) == 0
}

#[cfg(test)]
mod tests {
    use super::super::super::notation::{DECK, DECK_SIZE};
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn a_planned_deck_has_the_plans_shape() {
        let mut rng = rng_from_seed(5);
        for _ in 0..200 {
            let mut hand = DECK;
            let mut order = Vec::new();
            for _ in 0..DECK_SIZE {
                let card = plan_next(&hand, &DECK, &mut rng);
                assert!(hand[usize::from(card)] > 0);
                hand[usize::from(card)] -= 1;
                order.push(card);
            }
            assert!(order[..6].contains(&SEVEN) && order[..6].contains(&SIX));
            let weddings: Vec<usize> = (0..DECK_SIZE).filter(|&i| order[i] == WEDDING).collect();
            for (k, &at) in weddings.iter().enumerate() {
                let (first, last) = WEDDING_PLACES[k];
                assert!((first..=last).contains(&at), "{order:?}");
            }
        }
    }
}
