//! Shuffled piles as chance events (`spieltisch/games/auweier/deck.py`).
//!
//! A shuffle puts the cards a player has not placed yet in a random order. A spread shuffle
//! keeps one Wedding in each of as many parts of the pile as there are Weddings (part `k` ends
//! after the first `k * n / w` cards); every allowed order is equally likely. Cards come as
//! counts per kind.

use rand::Rng as _;

use super::notation::{Card, DECK_SIZE, KINDS, WEDDING};
use crate::core::Rng;

/// Shuffles with more distinct orders than this are sampled, not listed.
pub const ENUMERATE_LIMIT: u128 = 720;

/// Sizes of the parts of a spread pile of `cards` cards with `weddings` Weddings, in draw
/// order, into `out`; the number of parts.
pub fn spread_parts(cards: usize, weddings: usize, out: &mut [usize; DECK_SIZE]) -> usize {
    let weddings = weddings.min(DECK_SIZE);
    if weddings == 0 {
        return 0;
    }
    for (part, size) in out.iter_mut().enumerate().take(weddings) {
        *size = (part + 1) * cards / weddings - part * cards / weddings;
    }
    weddings
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

/// How many distinct orders the cards `counts` holds can lie in.
pub fn arrangements(counts: &[u8; KINDS]) -> u128 {
    let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
    let mut ways = factorial(total);
    for &n in counts {
        ways /= factorial(usize::from(n));
    }
    ways
}

/// `counts` with no Wedding.
pub fn without_weddings(counts: &[u8; KINDS]) -> [u8; KINDS] {
    let mut rest = *counts;
    rest[WEDDING as usize] = 0;
    rest
}

/// How many distinct orders a (`spread`) shuffle of `counts` can give.
pub fn count_orders(counts: &[u8; KINDS], spread: bool) -> u128 {
    if !spread {
        return arrangements(counts);
    }
    let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
    let mut parts = [0usize; DECK_SIZE];
    let count = spread_parts(total, usize::from(counts[WEDDING as usize]), &mut parts);
    parts[..count].iter().map(|&size| size as u128).product::<u128>() * arrangements(&without_weddings(counts))
}

/// The cards `counts` holds, in notation order, into `out`; how many.
pub fn cards_of(counts: &[u8; KINDS], out: &mut [Card; DECK_SIZE]) -> usize {
    let mut length = 0;
    for (kind, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            if length < DECK_SIZE {
                out[length] = kind as Card;
                length += 1;
            }
        }
    }
    length
}

/// The next order of `cards` in lexicographic order (false after the last): with the cards
/// sorted first, this walks every distinct order once, as the Python recursion lists them.
pub fn next_order(cards: &mut [Card]) -> bool {
    if cards.len() < 2 {
        return false;
    }
    let mut pivot = cards.len() - 1;
    while pivot > 0 && cards[pivot - 1] >= cards[pivot] {
        pivot -= 1;
    }
    if pivot == 0 {
        return false;
    }
    let mut swap = cards.len() - 1;
    while cards[swap] <= cards[pivot - 1] {
        swap -= 1;
    }
    cards.swap(pivot - 1, swap);
    cards[pivot..].reverse();
    true
}

/// Every order a (`spread`) shuffle of `counts` can give, in the Python game's order, each
/// passed to `visit` (only for counts with few orders: see [`ENUMERATE_LIMIT`]).
pub fn for_each_order(counts: &[u8; KINDS], spread: bool, mut visit: impl FnMut(&[Card])) {
    let mut cards = [0 as Card; DECK_SIZE];
    if !spread {
        let length = cards_of(counts, &mut cards);
        loop {
            visit(&cards[..length]);
            if !next_order(&mut cards[..length]) {
                return;
            }
        }
    }
    let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
    let mut parts = [0usize; DECK_SIZE];
    let count = spread_parts(total, usize::from(counts[WEDDING as usize]), &mut parts);
    let mut places = [0usize; DECK_SIZE];
    let mut order = [0 as Card; DECK_SIZE];
    loop {
        let others = cards_of(&without_weddings(counts), &mut cards);
        loop {
            // the Weddings go in at their places, part by part, among the other cards
            let (mut taken, mut at) = (0, 0);
            for (&size, &place) in parts[..count].iter().zip(places[..count].iter()) {
                for slot in 0..size {
                    if slot == place {
                        order[at] = WEDDING;
                    } else if taken < others {
                        order[at] = cards[taken];
                        taken += 1;
                    }
                    at += 1;
                }
            }
            visit(&order[..total.min(DECK_SIZE)]);
            if !next_order(&mut cards[..others]) {
                break;
            }
        }
        // the places: an odometer, the last part's place turning fastest
        let mut part = count;
        loop {
            if part == 0 {
                return;
            }
            part -= 1;
            places[part] += 1;
            if places[part] < parts[part] {
                break;
            }
            places[part] = 0;
        }
    }
}

/// True if `order` has exactly one Wedding in each part of its spread layout (its Weddings
/// counted as the parts).
pub fn is_spread(order: &[Card]) -> bool {
    let weddings = order.iter().filter(|&&card| card == WEDDING).count();
    let mut parts = [0usize; DECK_SIZE];
    let count = spread_parts(order.len(), weddings, &mut parts);
    let mut start = 0;
    let mut part = 0;
    for (place, &card) in order.iter().enumerate() {
        if card != WEDDING {
            continue;
        }
        if part >= count {
            return false;
        }
        let end = start + parts[part];
        if !(start <= place && place < end) {
            return false;
        }
        start = end;
        part += 1;
    }
    true
}

/// One (`spread`) shuffle of `counts`, written into `out` (as long as the cards), every
/// allowed order equally likely.
pub fn sample_order(counts: &[u8; KINDS], spread: bool, rng: &mut Rng, out: &mut [Card]) {
    let mut cards = [0 as Card; DECK_SIZE];
    if !spread {
        let length = cards_of(counts, &mut cards).min(out.len());
        let out = &mut out[..length];
        out.copy_from_slice(&cards[..length]);
        for last in (1..length).rev() {
            let pick = rng.gen_range(0..=last);
            out.swap(last, pick);
        }
        return;
    }
    let others = cards_of(&without_weddings(counts), &mut cards);
    for last in (1..others).rev() {
        let pick = rng.gen_range(0..=last);
        cards.swap(last, pick);
    }
    let total = (others + usize::from(counts[WEDDING as usize])).min(out.len());
    let mut parts = [0usize; DECK_SIZE];
    let count = spread_parts(total, usize::from(counts[WEDDING as usize]), &mut parts);
    let (mut taken, mut at) = (0, 0);
    for &size in &parts[..count] {
        let place = rng.gen_range(0..size.max(1));
        for slot in 0..size {
            if at < out.len() {
                if slot == place {
                    out[at] = WEDDING;
                } else if taken < others {
                    out[at] = cards[taken];
                    taken += 1;
                }
            }
            at += 1;
        }
    }
}
