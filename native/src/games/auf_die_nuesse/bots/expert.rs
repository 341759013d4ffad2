//! Auf die Nüsse!'s expert agent, the Rust mirror of
//! `spieltisch/games/auf_die_nuesse/bots/expert.py`: the heuristic's choices, except that the
//! dice (which white die, roll on or stop) are played best to the end of the turn by the
//! [`TurnPlan`](super::plan::TurnPlan) over the [`Judge`]'s prices of a stop.
//!
//! View discipline as the heuristic's ([`super::heuristic`]): it reads the acting seat's view
//! only, through the [`Judge`]. Deterministic: it draws nothing from its generator.

use super::heuristic::{booked, filling_lay};
use super::judge::Judge;
use super::plan::{place_spaces, with_plan};
use crate::agents::play::Agent;
use crate::core::{Rng, Rules};
use crate::games::auf_die_nuesse::model::Stage;
use crate::games::auf_die_nuesse::notation::{PLACE_BASE, ROLL_AGAIN, STOP};
use crate::games::auf_die_nuesse::rules::{Nuesse, NuesseState};

/// The expert: deterministic, so it draws nothing from its generator.
pub struct ExpertAgent;

impl Agent<Nuesse> for ExpertAgent {
    fn act(&self, rules: &Nuesse, state: &NuesseState, seat: usize, _rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        rules.legal_actions(state, scratch);
        choose(rules, state, seat, scratch)
    }
}

/// The expert's move for `me` among `legal` (`ExpertAgent.judge`).
pub fn choose(rules: &Nuesse, state: &NuesseState, me: usize, legal: &[u32]) -> u32 {
    let mut judge = Judge::new(rules, state, me);
    match state.stage {
        Stage::Again => planned_again(&mut judge, state, legal),
        Stage::Place => planned_place(&mut judge, state, legal),
        _ => booked(&mut judge, state, legal),
    }
}

/// `planned_again`: a filling joker first; else roll on while rolling on and playing best is
/// worth more than stopping.
pub fn planned_again(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    if let Some(lay) = filling_lay(judge, legal) {
        return lay;
    }
    if !legal.contains(&ROLL_AGAIN) {
        return STOP;
    }
    let worths = judge.space_worths();
    if with_plan(&worths, judge.room(), |plan| plan.rolls_on(state.track)) {
        ROLL_AGAIN
    } else {
        STOP
    }
}

/// `_planned_place`: the space whose start track is worth most with the rest of the turn
/// played best (the first listed on a tie).
fn planned_place(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    let (spaces, count) = place_spaces(legal);
    let worths = judge.space_worths();
    let best = with_plan(&worths, judge.room(), |plan| plan.best_space(state.track, &spaces[..count]));
    best.map_or(legal[0], |(_, space)| PLACE_BASE + u32::from(space))
}
