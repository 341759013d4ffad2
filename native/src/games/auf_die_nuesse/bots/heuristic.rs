//! Auf die Nüsse!'s heuristic agent, the Rust mirror of
//! `spieltisch/games/auf_die_nuesse/bots/heuristic.py`: every choice is priced by the
//! [`Judge`] in expected points, looking one roll ahead for the dice, and the best is played,
//! ties (worths within [`TIED`]) going to the first in the legal order (action ids, as Python
//! lists the moves). The expert ([`super::expert`]) plays its nut-handling choices by
//! [`choose`] too.
//!
//! View discipline: the agent reads the acting seat's view only, through the [`Judge`] (nothing
//! of the state is hidden: see [`super::judge`]). It is deterministic and draws nothing from its
//! generator, as the Python agent, which never uses its own.

use super::judge::{Judge, BOLDNESS, DENY, RESIDUAL};
use super::plan::{sum_pairs, ROLLS, TIED, TWO_AREA};
use crate::agents::play::Agent;
use crate::core::{Rng, Rules};
use crate::games::auf_die_nuesse::model::{Stage, OFFER};
use crate::games::auf_die_nuesse::notation::{
    Action, KEEP, NONE, PASS, ROLL_AGAIN, SETUP_BASE, STOP, TAKE_BASE, TRACK_SPACE,
};
use crate::games::auf_die_nuesse::rules::{Nuesse, NuesseState};

/// The heuristic: deterministic, so it draws nothing from its generator.
pub struct HeuristicAgent;

impl Agent<Nuesse> for HeuristicAgent {
    fn act(&self, rules: &Nuesse, state: &NuesseState, seat: usize, _rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        rules.legal_actions(state, scratch);
        choose(rules, state, seat, scratch)
    }
}

/// The heuristic's move for `me` among `legal` (`HeuristicAgent.judge`).
pub fn choose(rules: &Nuesse, state: &NuesseState, me: usize, legal: &[u32]) -> u32 {
    let mut judge = Judge::new(rules, state, me);
    match state.stage {
        Stage::Again => again(&mut judge, state, legal),
        Stage::Place => place(&mut judge, state, legal),
        _ => booked(&mut judge, state, legal),
    }
}

/// The nut-handling choices and the setup (`BOOKED`), as the heuristic and the expert make them.
pub fn booked(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    match state.stage {
        Stage::Put => put(judge, legal),
        Stage::Take => take(judge, state, legal),
        Stage::Steal => steal(judge, legal),
        Stage::Setup => setup(judge, state, legal),
        _ => legal[0],
    }
}

/// The highest-scored of `scored`, the first on a tie (`_best`: worths within [`TIED`] tie).
fn best(scored: impl IntoIterator<Item = (f64, u32)>) -> Option<(f64, u32)> {
    let mut best: Option<(f64, u32)> = None;
    for (worth, id) in scored {
        if best.map_or(true, |(top, _)| worth > top + TIED) {
            best = Some((worth, id));
        }
    }
    best
}

/// `filling_lay`: laying the kept joker that fills the most valuable store (the first such
/// lay listed), if one fills any.
pub fn filling_lay(judge: &Judge, legal: &[u32]) -> Option<u32> {
    let values = judge.values();
    let mut found: Option<(i64, u32)> = None;
    for &id in legal {
        if let Some(Action::Lay { store, .. }) = Action::of(id) {
            let store = usize::from(store);
            // Python's `max` by value: the first of the most valuable.
            if judge.completes(judge.me(), store) && found.map_or(true, |(value, _)| values[store] > value) {
                found = Some((values[store], id));
            }
        }
    }
    found.map(|(_, id)| id)
}

/// `_again`: a filling joker first; else roll on while one more roll, times its chance of
/// fitting, beats stopping now.
fn again(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    if let Some(lay) = filling_lay(judge, legal) {
        return lay;
    }
    let stop = judge.stop_value(state.track);
    if !legal.contains(&ROLL_AGAIN) {
        return STOP;
    }
    let (fails, success) = judge.roll_value(state.track);
    if (1.0 - fails) * success * BOLDNESS > stop {
        ROLL_AGAIN
    } else {
        STOP
    }
}

/// `_place`: the space whose start track is worth most, stopping after it or rolling once more.
fn place(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    let scored: Vec<(f64, u32)> = legal
        .iter()
        .filter_map(|&id| match Action::of(id) {
            Some(Action::Place(space)) => Some((judge.place_value(state.track | 1 << space), id)),
            _ => None,
        })
        .collect();
    best(scored).map_or(legal[0], |(_, id)| id)
}

/// `_put`: the store where the nut adds most; a joker that may be kept waits in hand unless it
/// fills a store now.
fn put(judge: &mut Judge, legal: &[u32]) -> u32 {
    let me = judge.me();
    let keep = legal.contains(&KEEP);
    let mut any = false;
    let mut scored = Vec::with_capacity(legal.len());
    for &id in legal {
        if let Some(Action::Put { kind, store }) = Action::of(id) {
            any = true;
            let store = usize::from(store);
            if !keep || judge.completes(me, store) {
                scored.push((judge.put_gain(me, store, kind), id));
            }
        }
    }
    if !any {
        return legal[0];
    }
    match best(scored) {
        Some((_, id)) => id,
        None => KEEP, // only when keeping is allowed: no put fills a store
    }
}

/// `_take`: the face-up nut worth most to me plus a little of its worth to the opponent it
/// would help most; a raccoon's nut is refused when worth nothing.
fn take(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    let me = judge.me();
    let players = judge.players();
    let may_pass = legal.contains(&PASS);
    let mut scored = Vec::with_capacity(4);
    for &id in legal {
        let Some(Action::Take(slot)) = Action::of(id) else { continue };
        let card = state.market.face_up[usize::from(slot)];
        if card == NONE {
            continue;
        }
        let mut deny: Option<f64> = None;
        for other in (0..players).filter(|&p| p != me) {
            let gain = judge.gain(other, card);
            if deny.map_or(true, |d| gain > d) {
                deny = Some(gain);
            }
        }
        scored.push((judge.gain(me, card) + DENY * deny.unwrap_or(0.0), TAKE_BASE + u32::from(slot)));
    }
    match best(scored) {
        None => {
            if may_pass {
                PASS
            } else {
                legal[0]
            }
        }
        Some((worth, _)) if worth <= 0.0 && may_pass => PASS,
        Some((_, id)) => id,
    }
}

/// `_steal`: the theft worth most (the victim's loss, more from a leader, and my gain); none
/// worth nothing.
fn steal(judge: &mut Judge, legal: &[u32]) -> u32 {
    let mut scored = Vec::with_capacity(legal.len());
    for &id in legal {
        if let Some(Action::Steal { victim, store }) = Action::of(id) {
            scored.push((judge.steal_worth(usize::from(victim), usize::from(store)), id));
        }
    }
    match best(scored) {
        Some((worth, id)) if worth > 0.0 => id,
        _ => PASS,
    }
}

/// The chance that one roll can put a squirrel below 2-area `space` (`_HITS`).
pub fn hits(space: usize) -> f64 {
    let mut rolls = 0;
    for &(a, b, count) in sum_pairs() {
        if usize::from(TRACK_SPACE[usize::from(a)]) == space || usize::from(TRACK_SPACE[usize::from(b)]) == space {
            rolls += count;
        }
    }
    debug_assert!(space < TWO_AREA);
    f64::from(rolls) / ROLLS
}

/// `_setup`: the 2-area space most often rolled, with the best nut below it.
fn setup(judge: &mut Judge, state: &NuesseState, legal: &[u32]) -> u32 {
    let me = judge.me();
    let mut scored = Vec::with_capacity(legal.len());
    for &id in legal {
        let Some(Action::Setup(space)) = Action::of(id) else { continue };
        let space = usize::from(space);
        let card = state.market.face_up[OFFER[space].trailing_zeros() as usize];
        let nut = if card != NONE { judge.gain(me, card) } else { 0.0 };
        scored.push((hits(space) * (RESIDUAL + nut), SETUP_BASE + space as u32));
    }
    best(scored).map_or(legal[0], |(_, id)| id)
}
