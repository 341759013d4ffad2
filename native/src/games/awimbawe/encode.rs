//! Awimbawé's observation: the numbers `spieltisch/rl/encode/awimbawe.py` writes for a view,
//! worked out from the state directly (the view's fields are the state's, as seen by one seat).
//!
//! Two sides, the viewer's first (a spectator's starts from seat 0), then the table. Cards are
//! 28-wide masks in code order; fractions are worked out in `f64` and then rounded to `f32`, as
//! the Python encoder stores them.

use super::model::{Config, Stage, HAND_SIZE, MAX_PILE, NUM_CARDS, NUM_LANDS, NUM_PILES};
use super::rules::{AwimbaweState, Side, NOBODY};
use crate::core::encode::ratio;

const CARDS: usize = NUM_CARDS;
/// Where each block of one side starts, from the side's start.
const HAND: usize = 0;
const HAND_SEEN: usize = HAND + CARDS;
const HAND_SIZE_AT: usize = HAND_SEEN + 1;
const TOPS: usize = HAND_SIZE_AT + 1;
const FACE_UP: usize = TOPS + NUM_PILES * CARDS;
const FACE_DOWN: usize = FACE_UP + CARDS;
const PILE_SIZE: usize = FACE_DOWN + NUM_PILES;
const BLOCKED: usize = PILE_SIZE + NUM_PILES;
const BLOCKED_UNSEEN: usize = BLOCKED + CARDS;
const SHOWN: usize = BLOCKED_UNSEEN + 1;
const VOID: usize = SHOWN + CARDS;
const BLIND_VOID: usize = VOID + NUM_LANDS;
const BLIND_PICKS: usize = BLIND_VOID + NUM_LANDS;
const AVAILABLE: usize = BLIND_PICKS + 1;
const SCORING: usize = AVAILABLE + CARDS;
const HEIR_GOLD: usize = SCORING + 4;
/// The length of one side's blocks.
const SIDE: usize = HEIR_GOLD + 1;
/// The table's blocks.
const STAGE: usize = 2 * SIDE;
const TO_ACT: usize = STAGE + 9;
const POWER_OF: usize = TO_ACT + 2;
const LEADER: usize = POWER_OF + 2;
const ROUND_LEADER: usize = LEADER + 2;
const NEXT_LEADER: usize = ROUND_LEADER + 2;
const TRICK: usize = NEXT_LEADER + 2;
const LAST: usize = TRICK + 2 * CARDS;
const PLAYED: usize = LAST + 2 * CARDS + 2 * 2 + 2;
const ROUND: usize = PLAYED + CARDS;
const OPTIONS: usize = ROUND + 1;
const WINNER: usize = OPTIONS + 6;
/// The observation's length.
pub const SIZE: usize = WINNER + 2;

/// The most net crowns one round can give a side.
const CROWN_SCALE: f64 = 48.0;

/// Set `out[start + code]` for each card of `bits`.
#[inline]
fn cards(out: &mut [f32], start: usize, mut bits: u32) {
    while bits != 0 {
        out[start + bits.trailing_zeros() as usize] = 1.0;
        bits &= bits - 1;
    }
}

/// Write what `seat` (`None`: a spectator) sees of `state` into `out` (zeros, [`SIZE`] long).
pub fn observe(config: &Config, state: &AwimbaweState, seat: Option<usize>, out: &mut [f32]) {
    if out.len() < SIZE {
        return;
    }
    let viewer = seat.map(|s| s as u8 & 1);
    let slot = |player: u8| -> usize { usize::from(player ^ viewer.unwrap_or(0)) & 1 };
    for place in 0..2u8 {
        let player = place ^ viewer.unwrap_or(0);
        fill_side(config, state, player, viewer == Some(player), &mut out[place as usize * SIDE..]);
    }
    out[STAGE + state.stage as usize] = 1.0;
    if let Some(player) = state.current_player() {
        out[TO_ACT + slot(player)] = 1.0;
    }
    if matches!(state.stage, Stage::Rhinoceros | Stage::Snake | Stage::BlindPick | Stage::Cheetah) {
        out[POWER_OF + slot(state.actor)] = 1.0;
    }
    out[LEADER + slot(state.leader())] = 1.0;
    if state.round_leader != NOBODY {
        out[ROUND_LEADER + slot(state.round_leader)] = 1.0;
    }
    if state.next_leader != NOBODY {
        out[NEXT_LEADER + slot(state.next_leader)] = 1.0;
    }
    for (index, &card) in state.trick().iter().enumerate() {
        out[TRICK + index * CARDS + card as usize] = 1.0;
    }
    if let Some(last) = state.last_trick {
        out[LAST + last.cards[0] as usize] = 1.0;
        out[LAST + CARDS + last.cards[1] as usize] = 1.0;
        out[LAST + 2 * CARDS + slot(last.leader)] = 1.0;
        out[LAST + 2 * CARDS + 2 + slot(last.winner)] = 1.0;
        match last.stance {
            super::model::Stance::Fight => out[LAST + 2 * CARDS + 4] = 1.0,
            super::model::Stance::Flee => out[LAST + 2 * CARDS + 5] = 1.0,
            super::model::Stance::None => {}
        }
    }
    cards(out, PLAYED, state.played);
    out[ROUND] = ratio(f64::from(state.round), 3.0);
    let tie = match config.tie_break_seat {
        None => 0,
        Some(seat) => 1 + slot(seat),
    };
    out[OPTIONS + tie] = 1.0;
    out[OPTIONS + 3] = f32::from(u8::from(config.rhino_to_empty_pile));
    out[OPTIONS + 4] = f32::from(u8::from(config.leader_choice_after_deal));
    out[OPTIONS + 5] = f32::from(u8::from(config.blind_pick_shown));
    if state.stage == Stage::Over {
        if let Some(winner) = (0..2u8).find(|&p| state.wins[p as usize] >= config.rounds_to_win) {
            out[WINNER + slot(winner)] = 1.0;
        }
    }
}

/// One side's blocks: player `player`'s cards as the viewer sees them (`own`: their own).
fn fill_side(config: &Config, state: &AwimbaweState, player: u8, own: bool, out: &mut [f32]) {
    let side: &Side = &state.sides[player as usize];
    if own {
        cards(out, HAND, side.hand);
        out[HAND_SEEN] = 1.0;
    }
    out[HAND_SIZE_AT] = ratio(f64::from(side.hand.count_ones()), HAND_SIZE as f64);
    for (index, pile) in side.piles.iter().enumerate() {
        if let Some(top) = pile.top() {
            if side.down >> top & 1 == 0 {
                out[TOPS + index * CARDS + top as usize] = 1.0;
            }
        }
        let mut down = 0u32;
        for &card in pile.cards() {
            if side.down >> card & 1 != 0 {
                down += 1;
            } else {
                out[FACE_UP + card as usize] = 1.0;
            }
        }
        out[FACE_DOWN + index] = ratio(f64::from(down), 4.0);
        out[PILE_SIZE + index] = ratio(f64::from(pile.len), MAX_PILE as f64);
    }
    let hidden = if own || config.blind_pick_shown { 0 } else { side.hand };
    let visible = side.blocked & !hidden;
    cards(out, BLOCKED, visible);
    out[BLOCKED_UNSEEN] = ratio(f64::from(side.blocked.count_ones() - visible.count_ones()), HAND_SIZE as f64);
    let memory = &state.memory;
    cards(out, SHOWN, memory.shown[player as usize]);
    for land in 0..NUM_LANDS {
        if memory.void[player as usize] >> land & 1 != 0 {
            out[VOID + land] = 1.0;
        }
    }
    let mut picks = 0u8;
    for record in memory.blind_of(player as usize) {
        for land in 0..NUM_LANDS {
            if record.lands >> land & 1 != 0 {
                out[BLIND_VOID + land] = 1.0;
            }
        }
        picks = picks.max(record.picks);
    }
    out[BLIND_PICKS] = ratio(f64::from(picks), HAND_SIZE as f64);
    cards(out, AVAILABLE, if own { side.available } else { side.face_up_tops() });
    let tally = &state.tallies[player as usize];
    out[SCORING] = ratio(f64::from(tally.size), NUM_CARDS as f64);
    out[SCORING + 1] = ratio(f64::from(tally.crowns), CROWN_SCALE);
    out[SCORING + 2] = ratio(f64::from(tally.hyenas), 4.0);
    let wins = state.wins[player as usize];
    out[SCORING + 3] = ratio(f64::from(wins), f64::from(config.rounds_to_win));
    out[HEIR_GOLD] = f32::from(u8::from(wins > 0));
}
