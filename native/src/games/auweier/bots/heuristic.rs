//! Auweier's heuristic agent (mirrors `spieltisch/games/auweier/bots/heuristic.py`): the deck
//! is arranged by the book's plan; in a normal turn it opens a wedding phase where a lead is
//! safe and worth it, else plays the best-rated worm, Crow or exchange; in the wedding stage it
//! lays a Wedding where it can win (or to stop an opponent's egg); in the worm stage it takes
//! the lead at its own Weddings, stops eggs, or plays a worm that stays, else passes.
//!
//! View discipline: every decision is reckoned from [`Seen`], what the acting seat's view shows
//! (see [`super::reading`]). Ties go to the first move in the legal order (action ids, as
//! Python lists them), as Python's `max`, `min` and stable sorts give them; the floats are
//! worked out in Python's order, so the moves are the same. Only the deck order draws from the
//! generator: the seat's own (see [`super::book`]).

use std::cmp::Ordering;

use super::super::model::Stage;
use super::super::notation::{
    Card, ARRANGE, CROW_MOVE, FALSE_WORM, MAX_STACK, PASS, SEATS, SWAP, WEDDING_MOVE, WORM, WORM_CARDS,
};
use super::super::rules::{Auweier, AuweierState};
use super::book::plan_next;
use super::reading::{crow_prey, win_chance, Reading, Seen};
use crate::agents::play::Agent;
use crate::core::{Rng, Rules};

/// The smallest lead it opens a wedding phase with (`open_margin`).
pub const OPEN_MARGIN: i32 = 3;
/// What a worm played in a wedding phase must gain (`worth_a_card`).
pub const WORTH_A_CARD: f64 = 0.5;

/// The heuristic: deterministic but for the deck order, drawn from the seat's generator.
pub struct HeuristicAgent;

impl Agent<Auweier> for HeuristicAgent {
    fn act(&self, rules: &Auweier, state: &AuweierState, seat: usize, rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        rules.legal_actions(state, scratch);
        let seen = Seen::of(rules, state, seat);
        decide(&seen, scratch, rng)
    }
}

/// A legal action, as the heuristic tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Arrange(Card),
    Worm {
        card: Card,
        female: usize,
    },
    /// `card` from the hand takes place `place` (0: the bottom) before `female`.
    Swap {
        female: usize,
        place: usize,
        card: Card,
    },
    Crow {
        owner: usize,
        female: usize,
    },
    Wedding(usize),
    Other,
}

impl Move {
    /// The move of action id `action`.
    pub fn of(action: u32) -> Move {
        let seats = SEATS as u32;
        if action < WORM {
            return if action < ARRANGE + 11 { Move::Arrange((action - ARRANGE) as Card) } else { Move::Other };
        }
        if action < SWAP {
            let x = action - WORM;
            return Move::Worm { card: (x / seats) as Card, female: (x % seats) as usize };
        }
        if action < CROW_MOVE {
            let x = (action - SWAP) as usize;
            let female = x / (MAX_STACK * WORM_CARDS);
            return Move::Swap { female, place: x / WORM_CARDS % MAX_STACK, card: (x % WORM_CARDS) as Card };
        }
        if action < WEDDING_MOVE {
            let x = action - CROW_MOVE;
            return Move::Crow { owner: (x / seats) as usize, female: (x % seats) as usize };
        }
        if action < PASS {
            return Move::Wedding((action - WEDDING_MOVE) as usize);
        }
        Move::Other
    }
}

/// The move the heuristic plays among `legal` (Python's `decide`).
pub fn decide(seen: &Seen, legal: &[u32], rng: &mut Rng) -> u32 {
    if legal.len() == 1 {
        return legal[0];
    }
    if seen.stage == Stage::Order {
        let step = ARRANGE + u32::from(plan_next(&seen.hand, &seen.deck, rng));
        return if legal.contains(&step) { step } else { legal[0] };
    }
    let reading = Reading::of(seen);
    let me = Heuristic { seen, reading: &reading };
    match seen.stage {
        Stage::Weddings => me.wedding_stage(legal),
        Stage::Worms => me.worm_stage(legal),
        _ => me.normal_turn(legal),
    }
}

/// A worm from the hand before a female, as the worm stage's steps pick them.
#[derive(Clone, Copy, Debug)]
struct Worm {
    action: u32,
    card: Card,
    female: usize,
}

/// The heuristic at one decision: the view and its reading.
struct Heuristic<'a> {
    seen: &'a Seen,
    reading: &'a Reading,
}

impl<'a> Heuristic<'a> {
    // --- normal turns ---------------------------------------------------------------------

    fn normal_turn(&self, legal: &[u32]) -> u32 {
        if let Some(opening) = self.best_opening(legal) {
            return opening;
        }
        let plays_a_card =
            legal.iter().any(|&action| matches!(Move::of(action), Move::Worm { .. } | Move::Crow { .. }));
        let mut best: Option<(f64, u32)> = None;
        for &action in legal {
            let gain = match Move::of(action) {
                Move::Worm { card, female } => self.rate_worm(card, female),
                Move::Crow { owner, female } => self.rate_crow(owner, female),
                Move::Swap { female, place, card } => {
                    // an exchange only for a gain when a card could be played instead, so it
                    // is never undone by the next one (see the Python mirror)
                    let gain = self.rate_swap(female, place, card);
                    if gain <= 0.0 && plays_a_card {
                        continue;
                    }
                    gain
                }
                _ => continue,
            };
            if best.map_or(true, |(top, _)| gain > top) {
                best = Some((gain, action));
            }
        }
        best.map_or(legal[0], |(_, action)| action)
    }

    fn best_opening(&self, legal: &[u32]) -> Option<u32> {
        let r = self.reading;
        let reserve = r.power[r.me];
        let threat = (0..r.players)
            .filter(|&p| p != r.me)
            .map(|p| r.power[p] * r.wedding_odds[p])
            .reduce(|best, x| if x > best { x } else { best })
            .unwrap_or(0.0);
        let mut best: Option<(f64, u32)> = None;
        for (action, f, worth) in self.worth_marrying(legal) {
            let lead = r.lead(f);
            if lead < OPEN_MARGIN || f64::from(lead) + 0.5 * reserve < threat + 1.0 {
                continue;
            }
            let given_away = self.opponent_chances(f);
            if worth < given_away {
                continue;
            }
            let score = worth * win_chance(f64::from(lead) + 0.5 * reserve - threat) - given_away;
            if best.map_or(true, |(top, _)| score > top) {
                best = Some((score, action));
            }
        }
        best.map(|(_, action)| action)
    }

    /// The weddings among `legal` at a female worth something to this seat: each action, its
    /// female and her worth, in legal order.
    fn worth_marrying<'l>(&self, legal: &'l [u32]) -> impl Iterator<Item = (u32, usize, f64)> + 'l
    where
        'a: 'l,
    {
        let r = self.reading;
        legal.iter().filter_map(move |&action| {
            let Move::Wedding(f) = Move::of(action) else { return None };
            let worth = r.value[f][r.me];
            (worth != 0.0).then_some((action, f, worth))
        })
    }

    /// What the opponent who gains most could expect to win at the other females if a phase
    /// opened now (the most any one opponent gains, not the sum: see the Python mirror).
    fn opponent_chances(&self, opened: usize) -> f64 {
        let r = self.reading;
        let mut best = 0.0;
        for p in (0..r.players).filter(|&p| p != r.me) {
            let mut total = 0.0;
            for f in r.females() {
                let lead = r.lead_of(f, p);
                if f != opened && lead > 0 {
                    total += r.value[f][p] * win_chance(f64::from(lead)) * r.wedding_odds[p];
                }
            }
            if total > best {
                best = total;
            }
        }
        best
    }

    /// How much a total of `mine` against `others` before `f` is worth to the viewer.
    fn female_worth(&self, f: usize, mine: f64, others: i32) -> f64 {
        self.reading.value[f][self.reading.me] * win_chance(mine - f64::from(others))
    }

    /// Worm points a Crow may take off the top of `stack` (expected).
    fn exposed(&self, stack: &[Card]) -> f64 {
        let r = self.reading;
        match crow_prey(stack, r.crow_digs) {
            None => 0.0,
            Some(prey) => r.crow_risk * 0.5 * f64::from(r.worth[usize::from(stack[prey])]),
        }
    }

    fn rate_worm(&self, card: Card, f: usize) -> f64 {
        let r = self.reading;
        let me = r.me;
        let value = r.worth[usize::from(card)];
        let mine = r.totals[f][me];
        let others = r.best_other(f, me);
        let stack = self.seen.stack(me, f);
        let mut grown = [0 as Card; MAX_STACK + 1];
        grown[..stack.len()].copy_from_slice(stack);
        grown[stack.len()] = card;
        let before = f64::from(mine) - self.exposed(stack);
        let after = f64::from(mine + value) - self.exposed(&grown[..=stack.len()]);
        let mut gain = self.female_worth(f, after, others) - self.female_worth(f, before, others);
        gain -= 0.04 * f64::from(value);
        if card == FALSE_WORM {
            gain -= 0.3;
        }
        if r.value[f][me] == 0.0 {
            gain -= 1.0;
        }
        gain
    }

    fn rate_crow(&self, owner: usize, f: usize) -> f64 {
        let r = self.reading;
        let me = r.me;
        let stack = self.seen.stack(owner, f);
        let eaten = crow_prey(stack, r.crow_digs).map_or(0, |prey| r.worth[usize::from(stack[prey])]);
        let mut column = r.totals[f];
        let mine = column[me];
        let others_before = r.best_other(f, me);
        column[owner] -= eaten;
        let others_after = (0..r.players).filter(|&p| p != me).map(|p| column[p]).max().unwrap_or(0);
        let mut gain =
            self.female_worth(f, f64::from(mine), others_after) - self.female_worth(f, f64::from(mine), others_before);
        let owner_lead = r.lead_of(f, owner);
        let deny = r.value[f][owner] * (win_chance(f64::from(owner_lead)) - win_chance(f64::from(owner_lead - eaten)));
        gain += deny / (r.players.saturating_sub(1).max(1)) as f64;
        gain -= 0.6;
        if eaten < 3 {
            gain -= 0.5;
        }
        gain
    }

    fn rate_swap(&self, f: usize, place: usize, card: Card) -> f64 {
        let r = self.reading;
        let me = r.me;
        let stack = self.seen.stack(me, f);
        let out = usize::from(stack[place]);
        let change = r.worth[usize::from(card)] - r.worth[out];
        let mine = r.totals[f][me];
        let others = r.best_other(f, me);
        let mut changed = [0 as Card; MAX_STACK];
        changed[..stack.len()].copy_from_slice(stack);
        changed[place] = card;
        let before = f64::from(mine) - self.exposed(stack);
        let after = f64::from(mine + change) - self.exposed(&changed[..stack.len()]);
        let mut gain = self.female_worth(f, after, others) - self.female_worth(f, before, others);
        // lost even with the whole hand: the same test on both sides of an exchange
        let lost = f64::from(mine) + r.power[me] <= f64::from(others);
        if card == FALSE_WORM {
            // a worm comes back to the hand: worth it if it is big and this female is lost
            gain += if lost { 0.08 * f64::from(r.worth[out]) } else { -0.2 };
        } else {
            gain -= 0.35;
            if lost {
                // it would fetch the worm straight back
                gain -= 0.08 * f64::from(r.worth[usize::from(card)]);
            }
        }
        gain
    }

    // --- the wedding stage ----------------------------------------------------------------

    fn wedding_stage(&self, legal: &[u32]) -> u32 {
        let r = self.reading;
        let me = r.me;
        let reserve = r.power[me];
        let rival = self.rival_power();
        let mut best: Option<(f64, u32)> = None;
        for (action, f, worth) in self.worth_marrying(legal) {
            let stake = r.totals[f][me];
            let lead = r.lead(f);
            let chance = win_chance(f64::from(lead) + 0.6 * reserve - 0.6 * rival);
            let score = worth * chance - 0.15 * f64::from(stake) * (1.0 - chance) - 0.3;
            if lead <= 0 && stake > 0 && f64::from(lead) + reserve <= 0.0 {
                continue; // it would lose its worms there for nothing
            }
            if score > 0.4 && best.map_or(true, |(top, _)| score > top) {
                best = Some((score, action));
            }
        }
        if let Some((_, action)) = best {
            return action;
        }
        if self.seen.others[me].weddings == 0 {
            if let Some(action) = self.access_wedding(legal) {
                return action;
            }
        }
        PASS
    }

    /// The strongest worm power among opponents who can still play worms in this phase.
    fn rival_power(&self) -> f64 {
        let r = self.reading;
        let mut best = 0.0;
        for (p, info) in self.seen.others[..r.players].iter().enumerate() {
            if p == r.me || (info.passed && (self.seen.stage == Stage::Worms || info.weddings == 0)) {
                continue;
            }
            if r.power[p] > best {
                best = r.power[p];
            }
        }
        best
    }

    /// A cheap Wedding that lets it play worms to stop an opponent's egg.
    fn access_wedding(&self, legal: &[u32]) -> Option<u32> {
        let r = self.reading;
        let me = r.me;
        let mut threat: f64 = 0.0;
        for f in r.females() {
            for p in 0..r.players {
                if p != me && self.seen.others[p].weddings >> f & 1 == 1 && r.lead_of(f, p) > 0 {
                    let gap = r.totals[f][p] - r.totals[f][me];
                    if f64::from(gap) <= r.power[me] && r.value[f][p] > threat {
                        threat = r.value[f][p];
                    }
                }
            }
        }
        if threat < 2.0 {
            return None;
        }
        let mut best: Option<(f64, u32)> = None;
        for &action in legal {
            let Move::Wedding(f) = Move::of(action) else { continue };
            if r.totals[f][me] != 0 {
                continue;
            }
            let worth = r.value[f][me];
            if best.map_or(true, |(top, _)| worth > top) {
                best = Some((worth, action));
            }
        }
        best.map(|(_, action)| action)
    }

    // --- the worm stage -------------------------------------------------------------------

    fn worm_stage(&self, legal: &[u32]) -> u32 {
        let mut worms = [Worm { action: 0, card: 0, female: 0 }; WORM_CARDS * SEATS];
        let mut count = 0;
        for &action in legal {
            if let Move::Worm { card, female } = Move::of(action) {
                worms[count] = Worm { action, card, female };
                count += 1;
            }
        }
        let worms = &worms[..count];
        let mine = self.seen.others[self.reading.me].weddings;
        let steps = [Self::take_lead, Self::stop_eggs, Self::keep_turn];
        for step in steps {
            if let Some(action) = step(self, worms, mine) {
                return action;
            }
        }
        for &action in legal {
            if let Move::Swap { female, card, .. } = Move::of(action) {
                if card != FALSE_WORM && mine >> female & 1 == 1 && self.reading.lead(female) <= 0 {
                    return action;
                }
            }
        }
        PASS
    }

    /// Take or secure the lead at its own Wedding females, the most valuable first.
    fn take_lead(&self, worms: &[Worm], mine: u8) -> Option<u32> {
        let r = self.reading;
        let me = r.me;
        let rival = self.rival_power();
        let mut order = [0usize; SEATS];
        let mut count = 0;
        for f in 0..SEATS {
            if mine >> f & 1 == 1 {
                order[count] = f;
                count += 1;
            }
        }
        let order = &mut order[..count];
        // Python sorts by -value, stably: the most valuable first, ties in colour order
        order.sort_by(|&a, &b| r.value[b][me].partial_cmp(&r.value[a][me]).unwrap_or(Ordering::Equal));
        for &f in order.iter() {
            let lead = r.lead(f);
            if r.value[f][me] == 0.0 || f64::from(lead) > rival / 2.0 {
                continue;
            }
            let found = if lead <= 0 {
                if f64::from(1 - lead) > r.power[me] || f64::from(lead) + r.power[me] < 0.7 * rival {
                    continue;
                }
                self.smallest(worms, f, 1 - lead).or_else(|| self.largest(worms, f))
            } else {
                self.smallest(worms, f, 1)
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Tie or beat an opponent who is about to win an egg, when one worm does it.
    fn stop_eggs(&self, worms: &[Worm], mine: u8) -> Option<u32> {
        let r = self.reading;
        let me = r.me;
        let least = if r.players == 2 { 2.0 } else { 3.0 };
        let mut threats: Vec<(f64, i32, usize)> = Vec::new();
        for f in r.females() {
            for p in 0..r.players {
                if p == me || self.seen.others[p].weddings >> f & 1 == 0 || mine >> f & 1 == 1 {
                    continue;
                }
                if r.lead_of(f, p) > 0 {
                    threats.push((r.value[f][p], r.totals[f][p] - r.totals[f][me], f));
                }
            }
        }
        // Python's sorted(reverse=True) of the tuples: largest first
        threats
            .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
        for (worth, gap, f) in threats {
            let found = self.smallest(worms, f, gap);
            if found.is_some() && worth >= least {
                return found;
            }
        }
        None
    }

    /// A worm that clearly helps where it stays on the table, or the False Worm to keep the
    /// turn while a narrow lead at its Wedding needs an answer.
    fn keep_turn(&self, worms: &[Worm], mine: u8) -> Option<u32> {
        let r = self.reading;
        let rival = self.rival_power();
        let narrow = (0..SEATS).any(|f| mine >> f & 1 == 1 && 0 < r.lead(f) && f64::from(r.lead(f)) <= rival);
        let mut best: Option<(f64, u32)> = None;
        for worm in worms {
            if mine >> worm.female & 1 == 1 {
                continue;
            }
            let mut gain = self.rate_worm(worm.card, worm.female);
            if worm.card == FALSE_WORM && narrow {
                gain += 1.0;
            }
            if best.map_or(true, |(top, _)| gain > top) {
                best = Some((gain, worm.action));
            }
        }
        best.filter(|&(gain, _)| gain > WORTH_A_CARD).map(|(_, action)| action)
    }

    /// The smallest worm before `f` that adds at least `need` (the first of the smallest).
    fn smallest(&self, worms: &[Worm], f: usize, need: i32) -> Option<u32> {
        let worth = &self.reading.worth;
        let mut best: Option<(i32, u32)> = None;
        for worm in worms.iter().filter(|w| w.female == f && worth[usize::from(w.card)] >= need) {
            let value = worth[usize::from(worm.card)];
            if best.map_or(true, |(low, _)| value < low) {
                best = Some((value, worm.action));
            }
        }
        best.map(|(_, action)| action)
    }

    /// The largest worm before `f` that adds anything (the first of the largest).
    fn largest(&self, worms: &[Worm], f: usize) -> Option<u32> {
        let worth = &self.reading.worth;
        let mut best: Option<(i32, u32)> = None;
        for worm in worms.iter().filter(|w| w.female == f && worth[usize::from(w.card)] > 0) {
            let value = worth[usize::from(worm.card)];
            if best.map_or(true, |(high, _)| value > high) {
                best = Some((value, worm.action));
            }
        }
        best.map(|(_, action)| action)
    }
}
