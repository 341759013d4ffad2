//! Auf die Eier's observation: the numbers of the RL encoder `spieltisch/rl/encode/auf_die_eier.py`.
//!
//! Everything is public, so the observation is the whole table seen from the viewer's seat
//! (slot 0; a spectator's starts from seat 0), up to six seats. Each value is worked out in
//! `f64` as Python does, then stored as `f32`.

use super::model::{max_score, max_turn_points, LADDER, MAX_ROLLS};
use super::notation::FACES;
use super::rules::{Eier, EierState};
use crate::core::encode::ratio;

const SEATS: usize = 6;
const STAGES: usize = 4;

// The blocks, in the encoder's order.
const PRESENT: usize = 0;
const SCORES: usize = PRESENT + SEATS;
const CROSSED: usize = SCORES + SEATS;
const NEED: usize = CROSSED + SEATS;
const USED_UP: usize = NEED + SEATS;
const PLAYER: usize = USED_UP + SEATS;
const STAGE: usize = PLAYER + SEATS;
const ROLLS: usize = STAGE + STAGES;
const DICE: usize = ROLLS + 2;
const THROW: usize = DICE + FACES;
const ROTTEN: usize = THROW + 1;
const FLAGS: usize = ROTTEN + SEATS;
const TIE: usize = FLAGS + 2;
const WINNERS: usize = TIE + SEATS;
const LAST: usize = WINNERS + SEATS;
/// The observation's length.
pub const SIZE: usize = LAST + SEATS + 1;

/// What `viewer` (`None`: a spectator) observes in `state`, written into the zeroed `out`.
pub fn observe(rules: &Eier, state: &EierState, viewer: Option<usize>, out: &mut [f32]) {
    let config = &rules.config;
    let players = usize::from(config.players);
    let dice = config.dice;
    let first = viewer.unwrap_or(0);
    let relative = |seat: usize| (seat + players - first) % players;
    let highest = max_score(config.goal, dice);
    for slot in 0..players {
        let seat = (first + slot) % players;
        out[PRESENT + slot] = 1.0;
        out[SCORES + slot] = ratio(state.scores[seat], highest);
        match rules.chicken_need(state, seat as u8) {
            None => out[USED_UP + slot] = 1.0,
            Some(need) => out[NEED + slot] = ratio(need, 5),
        }
        if !config.shared_chicken_ladder {
            out[CROSSED + slot] = ratio(state.crossed[seat], LADDER.len() as u32);
        }
    }
    if config.shared_chicken_ladder {
        out[CROSSED] = ratio(state.crossed[0], LADDER.len() as u32);
    }
    let player = usize::from(state.player);
    out[PLAYER + relative(player)] = 1.0;
    out[STAGE + state.stage as usize] = 1.0;
    out[ROLLS] = ratio(state.rolls, MAX_ROLLS);
    out[ROLLS + 1] = ratio(MAX_ROLLS - state.rolls, MAX_ROLLS);
    for (face, &count) in state.dice.iter().enumerate() {
        if count > 0 {
            out[DICE + face] = ratio(count, dice);
        }
    }
    out[THROW] = ratio(state.to_throw, dice);
    out[ROTTEN + relative((player + players - 1) % players)] = 1.0;
    out[FLAGS] = f32::from(u8::from(state.final_round));
    out[FLAGS + 1] = f32::from(u8::from(config.shared_chicken_ladder));
    for seat in 0..players {
        if state.tie_players & (1 << seat) != 0 {
            out[TIE + relative(seat)] = 1.0;
        }
        if state.winners & (1 << seat) != 0 {
            out[WINNERS + relative(seat)] = 1.0;
        }
    }
    if let Some(last) = &state.last {
        out[LAST + relative(usize::from(last.player))] = 1.0;
        out[LAST + SEATS] = ratio(last.points, max_turn_points(dice));
    }
}
