//! Auweier's observation: the numbers of the RL encoder `spieltisch/rl/encode/auweier.py`
//! for one seat's view (or a spectator's), computed as Python does (f64, then `as f32`).
//!
//! Seats are relative (slot 0 is the viewer); the females turn with the seats, a two-player
//! game's neutral female keeping slot 2. What a viewer does not see (others' hands and deck
//! orders, whether another deck is being shuffled) is left out as the view leaves it out.

use super::model::{score_eggs, End, Stage, EGGS_PER_FEMALE};
use super::notation::{Card, DECK_SIZE, KINDS, SEATS, WORM_CARDS};
use super::rules::{Auweier, AuweierState};

const STAGES: usize = 7;
const MOST_OF_A_KIND: f64 = 6.0;
const PLAYER_WIDTH: usize = 9 + 2 * KINDS + 3 * SEATS;
const STACK_WIDTH: usize = 2 * WORM_CARDS + 2;
const FEMALE_WIDTH: usize = 3 + 3 + SEATS * STACK_WIDTH;
const OPTIONS: usize = 9;

const PRESENT: usize = 0;
const STAGE: usize = PRESENT + SEATS;
const TO_MOVE: usize = STAGE + STAGES;
const START: usize = TO_MOVE + SEATS;
const HAND: usize = START + SEATS;
const PILE_KNOWN: usize = HAND + KINDS;
const PILE_UNKNOWN: usize = PILE_KNOWN + DECK_SIZE * KINDS;
const PLAYERS: usize = PILE_UNKNOWN + KINDS;
const FEMALES: usize = PLAYERS + SEATS * PLAYER_WIDTH;
const END: usize = FEMALES + SEATS * FEMALE_WIDTH;
const WINNERS: usize = END + 4;
const LAST: usize = WINNERS + SEATS;
const OPTION_FLAGS: usize = LAST + 2 * SEATS;
/// The observation's length.
pub const SIZE: usize = OPTION_FLAGS + OPTIONS;

/// `values / scale` from `start` on (zeros left as they are).
#[inline]
fn counts(out: &mut [f32], start: usize, values: &[u8; KINDS], scale: f64) {
    for (offset, &value) in values.iter().enumerate() {
        if value != 0 {
            out[start + offset] = (f64::from(value) / scale) as f32;
        }
    }
}

/// `out[index] += value` as Python does it on a float32 buffer.
#[inline]
fn add(out: &mut [f32], index: usize, value: f64) {
    out[index] = (f64::from(out[index]) + value) as f32;
}

/// What `viewer` (`None`: a spectator) observes of `s`, into `out` (zeroed, [`SIZE`] long).
pub fn observe(rules: &Auweier, s: &AuweierState, viewer: Option<usize>, out: &mut [f32]) {
    if out.len() < SIZE {
        return;
    }
    let config = &rules.config;
    let (players, females) = (config.players, config.females);
    let slot = |seat: usize| match viewer {
        None => seat,
        Some(v) => (seat + players - v % players) % players,
    };
    let female_slot = |colour: usize| {
        if colour < players {
            slot(colour)
        } else {
            colour
        }
    };
    let current = usize::from(s.player);
    for flag in &mut out[PRESENT..PRESENT + players] {
        *flag = 1.0;
    }
    let setup = s.stage.is_setup();
    let stage = if setup && viewer != Some(current) && !config.lucky_eggs { Stage::Order } else { s.stage };
    out[STAGE + stage as usize] = 1.0;
    out[TO_MOVE + slot(current)] = 1.0;
    let start_player = match (s.phase, s.last) {
        (Some(phase), _) => usize::from(phase.opener),
        (None, Some(last)) => usize::from(last.opener),
        (None, None) => 0,
    };
    out[START + slot(start_player)] = 1.0;
    if let Some(v) = viewer {
        let seat = &s.seats[v];
        counts(out, HAND, &seat.hand, MOST_OF_A_KIND);
        let pile = seat.pile();
        let known = usize::from(seat.known).min(pile.len());
        for (index, &card) in pile[..known].iter().enumerate() {
            out[PILE_KNOWN + index * KINDS + usize::from(card)] = 1.0;
        }
        let mut unknown = [0u8; KINDS];
        for &card in &pile[known..] {
            unknown[usize::from(card)] += 1;
        }
        counts(out, PILE_UNKNOWN, &unknown, MOST_OF_A_KIND);
    }
    let mut eggs = [(0u8, 0u8); 12];
    for (p, seat) in s.seats[..players].iter().enumerate() {
        let at = PLAYERS + slot(p) * PLAYER_WIDTH;
        let hidden = setup && viewer != Some(p);
        if !hidden {
            out[at] = (f64::from(seat.hand_count) / DECK_SIZE as f64) as f32;
            out[at + 2] = 1.0;
            out[at + 1] = (seat.pile().len() as f64 / DECK_SIZE as f64) as f32;
        }
        if !setup || p < current {
            out[at + 3] = 1.0;
        }
        let count = s.eggs(p, &mut eggs);
        let score = score_eggs(p, &eggs[..count], config.uncounted);
        if score != 0 {
            out[at + 4] = (score as f64 / 37.0) as f32;
        }
        if let Some(phase) = s.phase {
            if phase.passed >> p & 1 == 1 {
                out[at + 5] = 1.0;
            }
            for f in 0..females {
                if phase.weddings[p] >> f & 1 == 1 {
                    out[at + 6 + female_slot(f)] = 1.0;
                }
                if phase.seen[p] >> f & 1 == 1 {
                    out[at + 6 + SEATS + female_slot(f)] = 1.0;
                }
            }
        } else {
            // with false_worm_limit=always, where the False Worm has lain since the last mating
            for f in 0..females {
                if seat.roamed >> f & 1 == 1 {
                    out[at + 6 + SEATS + female_slot(f)] = 1.0;
                }
            }
        }
        if count > 0 {
            for &(female, _) in &eggs[..count] {
                add(out, at + 6 + 2 * SEATS + female_slot(usize::from(female)), 1.0 / 3.0);
            }
            out[at + 6 + 3 * SEATS + 2 * KINDS] = (count as f64 / 12.0) as f32;
        }
        counts(out, at + 6 + 3 * SEATS, &seat.shown, MOST_OF_A_KIND);
        let mut discarded = config.deck;
        let mut take = |card: Card| {
            let kind = &mut discarded[usize::from(card)];
            *kind = kind.saturating_sub(1);
        };
        for (kind, &n) in seat.hand.iter().enumerate() {
            for _ in 0..n {
                take(kind as Card);
            }
        }
        for &card in seat.pile() {
            take(card);
        }
        for f in 0..females {
            for &card in seat.stack(f) {
                take(card);
            }
        }
        counts(out, at + 6 + 3 * SEATS + KINDS, &discarded, MOST_OF_A_KIND);
    }
    let scale = config.total_scale;
    for f in 0..females {
        let mut at = FEMALES + female_slot(f) * FEMALE_WIDTH;
        out[at] = 1.0;
        if f >= players {
            out[at + 1] = 1.0;
        }
        let laid = s.laid[f];
        if config.closed_nests && laid >= EGGS_PER_FEMALE {
            out[at + 2] = 1.0;
        }
        for egg in laid + 1..=EGGS_PER_FEMALE {
            out[at + 2 + usize::from(egg)] = 1.0;
        }
        at += 3 + 3;
        for (p, seat) in s.seats[..players].iter().enumerate() {
            let stack = seat.stack(f);
            let wedding = s.phase.is_some_and(|phase| phase.weddings[p] >> f & 1 == 1);
            if stack.is_empty() && !wedding {
                continue;
            }
            let base = at + slot(p) * STACK_WIDTH;
            for &card in stack {
                if usize::from(card) < WORM_CARDS {
                    add(out, base + usize::from(card), 1.0 / 3.0);
                }
            }
            if let Some(&top) = stack.last() {
                if usize::from(top) < WORM_CARDS {
                    out[base + WORM_CARDS + usize::from(top)] = 1.0;
                }
            }
            out[base + 2 * WORM_CARDS] = (f64::from(s.totals[f][p]) / scale) as f32;
            out[base + 2 * WORM_CARDS + 1] = if wedding { 1.0 } else { 0.0 };
        }
    }
    out[END + s.end.map_or(0, |end: End| 1 + end as usize)] = 1.0;
    if s.stage == Stage::Over {
        use crate::core::Rules as _;
        let winners = rules.winners(s);
        for p in 0..players {
            if winners >> p & 1 == 1 {
                out[WINNERS + slot(p)] = 1.0;
            }
        }
    }
    if let Some(last) = s.last {
        out[LAST + slot(usize::from(last.opener))] = 1.0;
        for f in 0..females {
            let winner = last.award[f];
            if usize::from(winner) < players {
                // One award per female won: up to every female (four at four players).
                add(out, LAST + SEATS + slot(usize::from(winner)), 1.0 / SEATS as f64);
            }
        }
    }
    let flags = [
        config.lucky_eggs,
        config.closed_nests,
        config.stuck_passes,
        config.opening_ties,
        config.crow_digs,
        config.exchange_draws,
        config.wedding_onward,
        config.neutral_colour,
        config.lucky_crows_both,
    ];
    for (offset, &flag) in flags.iter().enumerate() {
        if flag {
            out[OPTION_FLAGS + offset] = 1.0;
        }
    }
}
