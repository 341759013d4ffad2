//! The observation: the numbers of `spieltisch/rl/encode/auf_die_nuesse.py`, block by block.
//!
//! Everything is public, so every seat sees the whole table, turned so that the viewer sits in
//! slot 0 (a spectator sees seat 0 there). Values are worked out in f64 as Python does, then
//! rounded once to f32.

use super::model::{Context, Stage, MAX_SCORE, OFFER, RACCOON, SET_ASIDE, SQUIRRELS, STORE_SIZES};
use super::notation::{is_joker, CARDS, JOKERS, MAX_PLAYERS, NONE, SLOTS, SPACES, STORES};
use super::rules::{Nuesse, NuesseState};
use crate::core::encode::ratio;

const SEATS: usize = MAX_PLAYERS;
const STAGES: usize = 11;
const ENDINGS: usize = 3;
const TRACK: usize = 11;
const STORE_WIDTH: usize = 4 + 3;
const PILE_SCALE: f64 = 60.0;

const PRESENT: usize = 0;
const STAGE: usize = PRESENT + SEATS;
const TURN: usize = STAGE + STAGES;
const ACTOR: usize = TURN + SEATS;
const TRACK_AT: usize = ACTOR + SEATS;
const DICE: usize = TRACK_AT + TRACK;
const PLACEMENTS: usize = DICE + 18;
const AREAS: usize = PLACEMENTS + TRACK;
const SUPPLY: usize = AREAS + SEATS * SPACES;
const FACE_UP: usize = SUPPLY + SEATS;
const PILE: usize = FACE_UP + SLOTS * CARDS;
const UNSEEN: usize = PILE + 2;
const ENDING: usize = UNSEEN + CARDS;
const STORES_AT: usize = ENDING + ENDINGS;
const KEPT: usize = STORES_AT + SEATS * STORES * STORE_WIDTH;
const DAVID: usize = KEPT + SEATS * JOKERS;
const RECEIVER: usize = DAVID + SEATS;
const SPACE: usize = RECEIVER + SEATS;
const OFFERED: usize = SPACE + SPACES;
const PENDING: usize = OFFERED + SLOTS;
const REFILL: usize = PENDING + CARDS;
const FLAGS: usize = REFILL + SLOTS;
const SCORES: usize = FLAGS + 3;
const WINNERS: usize = SCORES + SEATS;
const OPTIONS: usize = WINNERS + SEATS;
/// The observation's length.
pub const SIZE: usize = OPTIONS + 4;

const _: () = assert!(SIZE == 456);

/// Write what `viewer` (`None`: a spectator) observes of `state` into `out` (zeroed).
pub fn observe(rules: &Nuesse, state: &NuesseState, viewer: Option<usize>, out: &mut [f32]) {
    let config = &rules.config;
    let players = config.players;
    let slot_of = |seat: usize| match viewer {
        None => seat,
        Some(viewer) => (seat + players - viewer) % players,
    };
    out[PRESENT..PRESENT + players].fill(1.0);
    out[STAGE + state.stage as usize] = 1.0;
    let player = usize::from(state.player);
    out[TURN + slot_of(player)] = 1.0;
    if let Some(actor) = state.current_player() {
        out[ACTOR + slot_of(actor)] = 1.0;
    }
    for n in 2..=12 {
        if state.track >> n & 1 != 0 {
            out[TRACK_AT + n - 2] = 1.0;
        }
    }
    if let Some([green, white1, white2]) = state.dice {
        out[DICE + usize::from(green) - 1] = 1.0;
        out[DICE + 5 + usize::from(white1)] = 1.0;
        out[DICE + 11 + usize::from(white2)] = 1.0;
        if state.stage == Stage::Place {
            for sum in [green + white1, green + white2] {
                if state.track >> sum & 1 == 0 {
                    out[PLACEMENTS + usize::from(sum) - 2] = 1.0;
                }
            }
        }
    }
    for (space, row) in state.areas.iter().enumerate() {
        for (seat, &count) in row[..players].iter().enumerate() {
            if count > 0 {
                out[AREAS + slot_of(seat) * SPACES + space] = ratio(count, f64::from(SQUIRRELS));
            }
        }
    }
    for seat in 0..players {
        let mut supply = i32::from(state.supply[seat]);
        if seat == player {
            supply -= state.track.count_ones() as i32;
        }
        out[SUPPLY + slot_of(seat)] = ratio(supply, f64::from(SQUIRRELS));
    }
    let market = &state.market;
    for (slot, &card) in market.face_up.iter().enumerate() {
        if card != NONE {
            out[FACE_UP + slot * CARDS + usize::from(card)] = 1.0;
        }
    }
    out[PILE] = ratio(market.pile, PILE_SCALE);
    out[PILE + 1] = ratio(market.set_aside, f64::from(SET_ASIDE));
    for (card, &count) in market.unseen.iter().enumerate() {
        if count > 0 {
            out[UNSEEN + card] = ratio(count, 12.0);
        }
    }
    out[ENDING + market.ending as usize] = 1.0;
    for seat in 0..players {
        let base = STORES_AT + slot_of(seat) * STORES * STORE_WIDTH;
        for (index, store) in state.stores[seat].iter().enumerate() {
            let at = base + index * STORE_WIDTH;
            if store.kind != NONE {
                out[at + usize::from(store.kind)] = 1.0;
            }
            let size = f64::from(STORE_SIZES[index]);
            out[at + 4] = ratio(store.nuts, size);
            out[at + 5] = ratio(store.jokers, size);
            out[at + 6] = f32::from(u8::from(store.full));
        }
        let kept = KEPT + slot_of(seat) * JOKERS;
        for (joker, &count) in state.jokers[seat].iter().enumerate() {
            out[kept + joker] = 0.5 * f32::from(count);
        }
    }
    if state.david != NONE {
        out[DAVID + slot_of(usize::from(state.david))] = 1.0;
    }
    if let Some(step) = state.step {
        if state.stage != Stage::FaceUp {
            out[RECEIVER + slot_of(usize::from(step.actor))] = 1.0;
        }
        if step.space != NONE {
            let space = usize::from(step.space);
            out[SPACE + space] = 1.0;
            for slot in 0..SLOTS {
                if OFFER[space] >> slot & 1 != 0 {
                    out[OFFERED + slot] = 1.0;
                }
            }
            out[FLAGS] = f32::from(u8::from(RACCOON[space]));
        }
        if step.pending != NONE {
            out[PENDING + usize::from(step.pending)] = 1.0;
            if is_joker(step.pending) && step.context != Context::Jokers {
                out[FLAGS + 1] = 1.0;
            }
        }
        if step.refill != NONE {
            out[REFILL + usize::from(step.refill)] = 1.0;
        }
        out[FLAGS + 2] = f32::from(u8::from(step.theft));
    }
    let highest = MAX_SCORE.max(config.max_points) as f64;
    for seat in 0..players {
        out[SCORES + slot_of(seat)] = ratio(rules.score_of(state, seat) as f64, highest);
    }
    let winners = crate::core::Rules::winners(rules, state);
    for seat in 0..players {
        if winners & (1 << seat) != 0 {
            out[WINNERS + slot_of(seat)] = 1.0;
        }
    }
    out[OPTIONS] = f32::from(u8::from(config.late_jokers));
    out[OPTIONS + 1] = f32::from(u8::from(config.next_first));
    out[OPTIONS + 2] = f32::from(u8::from(config.double_collect_upper));
    out[OPTIONS + 3] = f32::from(u8::from(config.optional_setup));
}
