//! How the heuristic and the expert price what they see, in expected points: the Rust mirror
//! of `spieltisch/games/auf_die_nuesse/bots/judge.py` (the store model, the worth of nuts and
//! thefts, and the prices of a stop and of a start track, [`Judge::space_worths`] for the
//! search's playouts and the expert, [`Judge::place_value`] for the heuristic's dice).
//!
//! Every float is worked out in the same order of operations as in Python, so that the same
//! ties break the same way.
//!
//! View discipline: a [`Judge`] reads only what `NuesseView` shows. Nothing of this state is
//! hidden (the native state keeps the unseen cards as a multiset, never the pile's order), so it
//! reads the state's fields the Python judge reads of the view; the one difference is that the
//! state's supply still counts the start track, so [`Judge::room`] is the state's supply where
//! Python adds the view's supply and start track.

use super::plan::{fail_chance, sum_pairs, track_worth, SpaceWorths, REACH, TWO_AREA};
use crate::games::auf_die_nuesse::model::{ABOVE, NEED, OFFER, RACCOON, STORE_SIZES};
use crate::games::auf_die_nuesse::notation::{is_joker, CARDS, FIRST_JOKER, JOKER_KINDS, NONE, NUTS, STORES};
use crate::games::auf_die_nuesse::rules::{Market, Nuesse, NuesseState, Store};

/// The heuristic's rules of thumb (`Weights`' defaults), in points.
pub const RESIDUAL: f64 = 1.7;
pub const PUSH: f64 = 0.3;
pub const JOKER_FLEX: f64 = 0.5;
pub const LEADER: f64 = 0.5;
pub const SHARE: f64 = 2.0;
pub const SLACK: u32 = 2;
/// How much of a face-up nut's worth to the best-placed opponent counts when choosing it.
pub const DENY: f64 = 0.3;
/// How much more than its expected worth the heuristic rates rolling on against stopping.
pub const BOLDNESS: f64 = 1.0;

/// The kinds a card counts as (`CARD_KINDS`): one for a plain nut, two for a joker.
#[inline]
pub fn card_kinds(card: u8) -> &'static [u8] {
    const PLAIN: [[u8; 1]; NUTS] = [[0], [1], [2], [3]];
    if is_joker(card) {
        &JOKER_KINDS[usize::from(card - FIRST_JOKER)]
    } else {
        &PLAIN[usize::from(card)]
    }
}

/// The chance that a Poisson count with this mean reaches `count` (`at_least`).
pub fn at_least(mean: f64, count: i32) -> f64 {
    if count <= 0 {
        return 1.0;
    }
    let mut term = (-mean).exp();
    let mut total = term;
    for k in 1..count {
        term *= mean / f64::from(k);
        total += term;
    }
    (1.0 - total).max(0.0)
}

/// The expected final points of store `index` holding `fill` nuts of a kind of which
/// `expected` more may still come (`store_worth`).
pub fn store_worth(expected: f64, index: usize, fill: i32, values: &[i64; STORES]) -> f64 {
    let size = i32::from(STORE_SIZES[index]);
    let value = values[index] as f64;
    if fill >= size {
        return value;
    }
    if fill <= 0 {
        return 0.0;
    }
    let filled = at_least(expected, size - fill);
    f64::from(fill) * (filled * value / f64::from(size) + 1.0 - filled)
}

/// The cards nobody holds yet, per card (the unseen ones and the face-up row), and how many of
/// them lie face up (`still_to_take`).
pub fn still_to_take(market: &Market) -> ([u32; CARDS], u32) {
    let mut left = market.unseen.map(u32::from);
    let mut shown = 0;
    for &card in &market.face_up {
        if card != NONE {
            left[usize::from(card)] += 1;
            shown += 1;
        }
    }
    (left, shown)
}

/// Each kind's share of the cards still to come; a joker counts half for each of its kinds
/// (`kind_shares`).
pub fn kind_shares(left: &[u32; CARDS]) -> [f64; NUTS] {
    let cards = f64::from(left.iter().sum::<u32>().max(1));
    let mut shares = [0.0; NUTS];
    for (card, &count) in left.iter().enumerate() {
        let kinds = card_kinds(card as u8);
        for &kind in kinds {
            shares[usize::from(kind)] += f64::from(count) / kinds.len() as f64 / cards;
        }
    }
    shares
}

/// How many cards are still to be taken by someone (`coming`).
#[inline]
pub fn coming(pile: u8, face_up: u32, set_aside: u8) -> u32 {
    u32::from(pile) + face_up + if set_aside > 0 { SLACK } else { 0 }
}

/// Whether one more nut fills store `index` of `stores` (`fills`).
#[inline]
pub fn fills(stores: &[Store; STORES], index: usize) -> bool {
    stores[index].fill() + 1 >= STORE_SIZES[index]
}

/// Half a nut of `kind` for each kept joker showing it (`held`).
pub fn held(jokers: &[u8], kind: u8) -> f64 {
    let mut total = 0.0;
    for (joker, &count) in jokers.iter().enumerate() {
        if JOKER_KINDS[joker].contains(&kind) {
            for _ in 0..count {
                total += 0.5;
            }
        }
    }
    total
}

/// How many more nuts of each kind each player can hope for (`Judge.expected`, and the
/// search's `_expectations`): a share of the cards to come, and half a nut per kept joker.
pub fn expectations(rules: &Nuesse, state: &NuesseState) -> [[f64; NUTS]; 4] {
    let market = &state.market;
    let (left, face_up) = still_to_take(market);
    let shares = kind_shares(&left);
    let players = rules.config.players;
    let per_player = SHARE * f64::from(coming(market.pile, face_up, market.set_aside)) / players as f64;
    let mut expect = [[0.0; NUTS]; 4];
    for (player, row) in expect.iter_mut().enumerate().take(players) {
        for (kind, slot) in row.iter_mut().enumerate() {
            *slot = shares[kind] * per_player + held(&state.jokers[player], kind as u8);
        }
    }
    expect
}

/// Each player's points: a full store its value, a partly filled one a point per nut.
pub fn points(stores: &[Store; STORES], values: &[i64; STORES]) -> i64 {
    stores.iter().zip(values).map(|(store, &worth)| if store.full { worth } else { i64::from(store.fill()) }).sum()
}

/// The worth of nuts, stores, thefts and start tracks for the player who decides
/// (`Judge`, from the state's view: nothing is hidden).
pub struct Judge<'a> {
    rules: &'a Nuesse,
    state: &'a NuesseState,
    me: usize,
    expect: [[f64; NUTS]; 4],
    kind_gains: [[Option<Option<f64>>; NUTS]; 4],
    /// `space_worths`, once worked out (Python's cached property).
    worths: Option<SpaceWorths>,
}

impl<'a> Judge<'a> {
    /// The judge of `state` for `me`.
    pub fn new(rules: &'a Nuesse, state: &'a NuesseState, me: usize) -> Judge<'a> {
        Judge { rules, state, me, expect: expectations(rules, state), kind_gains: [[None; NUTS]; 4], worths: None }
    }

    /// The player the judge decides for.
    #[inline]
    pub fn me(&self) -> usize {
        self.me
    }

    /// `completes`: whether a nut put in `player`'s store `index` fills it.
    #[inline]
    pub fn completes(&self, player: usize, index: usize) -> bool {
        fills(&self.state.stores[player], index)
    }

    /// `room`: the squirrels I may place this turn in all, those on the start track included
    /// (the state's supply still counts them).
    #[inline]
    pub fn room(&self) -> u32 {
        u32::from(self.state.supply[self.me])
    }

    /// The full value of each store under the game's store table.
    pub fn values(&self) -> &'a [i64; STORES] {
        &self.rules.config.store_values
    }

    /// The players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.rules.config.players
    }

    /// `store_value`: store `index` of `player` holding `fill` nuts of `kind`.
    pub fn store_value(&self, player: usize, index: usize, kind: u8, fill: i32) -> f64 {
        store_worth(self.expect[player][usize::from(kind)], index, fill, self.values())
    }

    /// `put_gain`: what a nut counting as `kind` adds in `player`'s store `index`.
    pub fn put_gain(&self, player: usize, index: usize, kind: u8) -> f64 {
        let stores = &self.state.stores[player];
        let store = stores[index];
        if store.kind == NONE && stores.iter().any(|other| other.kind == kind && !other.full && other.fill() > 0) {
            return 1.0;
        }
        let fill = i32::from(store.fill());
        let before = if store.kind != NONE { self.store_value(player, index, kind, fill) } else { 0.0 };
        self.store_value(player, index, kind, fill + 1) - before
    }

    /// `kind_gain`: the nut's worth in `player`'s best store for it (`None`: none takes it).
    pub fn kind_gain(&mut self, player: usize, kind: u8) -> Option<f64> {
        if let Some(known) = self.kind_gains[player][usize::from(kind)] {
            return known;
        }
        let mut best: Option<f64> = None;
        for (index, store) in self.state.stores[player].iter().enumerate() {
            if store.fits(kind) {
                let gain = self.put_gain(player, index, kind);
                if best.map_or(true, |b| gain > b) {
                    best = Some(gain);
                }
            }
        }
        self.kind_gains[player][usize::from(kind)] = Some(best);
        best
    }

    /// `gain`: what receiving `card` is worth to `player` (a joker a little more).
    pub fn gain(&mut self, player: usize, card: u8) -> f64 {
        let mut worth: Option<f64> = None;
        for &kind in card_kinds(card) {
            if let Some(gain) = self.kind_gain(player, kind) {
                if worth.map_or(true, |w| gain > w) {
                    worth = Some(gain);
                }
            }
        }
        let bonus = if is_joker(card) { JOKER_FLEX } else { 0.0 };
        worth.unwrap_or(0.0) + bonus
    }

    /// `mean_draw_gain`: what the next card drawn is worth to me on average.
    pub fn mean_draw_gain(&mut self) -> f64 {
        let unseen = self.state.market.unseen;
        let total: u32 = unseen.iter().map(|&n| u32::from(n)).sum();
        let mut gains = 0.0;
        for (card, &count) in unseen.iter().enumerate() {
            if count > 0 {
                gains += f64::from(count) * self.gain(self.me, card as u8);
            }
        }
        if total > 0 {
            gains / f64::from(total)
        } else {
            0.0
        }
    }

    /// `steal_worth`: what stealing from `victim`'s store `index` is worth to me.
    pub fn steal_worth(&mut self, victim: usize, index: usize) -> f64 {
        let scores = self.scores();
        self.steal_worth_at(victim, index, &scores)
    }

    /// Each player's points now (the view's `scores`).
    fn scores(&self) -> [i64; 4] {
        let mut scores = [0i64; 4];
        for (player, score) in scores.iter_mut().enumerate().take(self.rules.config.players) {
            *score = points(&self.state.stores[player], self.values());
        }
        scores
    }

    /// `steal_worth` with the scores worked out: the victim's loss (more from a leader) plus
    /// my gain.
    fn steal_worth_at(&mut self, victim: usize, index: usize, scores: &[i64; 4]) -> f64 {
        let store = self.state.stores[victim][index];
        if store.kind == NONE {
            return 0.0;
        }
        let fill = i32::from(store.fill());
        let mut loss = self.store_value(victim, index, store.kind, fill);
        loss -= self.store_value(victim, index, store.kind, fill - 1);
        let players = self.rules.config.players;
        let top = (0..players).filter(|&p| p != self.me).map(|p| scores[p]).max().unwrap_or(0);
        let lead = if players > 2 && scores[victim] == top { LEADER } else { 0.0 };
        loss * (1.0 + lead) + self.gain(self.me, store.kind)
    }

    /// `theft_worth`: what the best theft open to me now is worth.
    fn theft_worth(&mut self) -> f64 {
        let players = self.rules.config.players;
        let scores = self.scores();
        let mut best: Option<f64> = None;
        for victim in 0..players {
            if victim == self.me || victim == usize::from(self.state.david) {
                continue;
            }
            for index in 0..STORES {
                let store = self.state.stores[victim][index];
                if store.nuts > 0 && !store.full {
                    let worth = self.steal_worth_at(victim, index, &scores);
                    if best.map_or(true, |b| worth > b) {
                        best = Some(worth);
                    }
                }
            }
        }
        best.unwrap_or(0.0)
    }

    /// The best of `player`'s gains over the face-up cards (`default` without one).
    fn best_face_up(&mut self, player: usize, default: f64) -> f64 {
        let mut best: Option<f64> = None;
        for card in self.state.market.face_up {
            if card != NONE {
                let gain = self.gain(player, card);
                if best.map_or(true, |b| gain > b) {
                    best = Some(gain);
                }
            }
        }
        best.unwrap_or(default)
    }

    /// `payout`: what collecting `times` on 2-area `space` brings me.
    fn payout(&mut self, space: usize, times: i32, theft: &mut Option<f64>) -> f64 {
        if RACCOON[space] {
            let best = self.best_face_up(self.me, 0.0);
            let stolen = match *theft {
                Some(worth) => worth,
                None => *theft.insert(self.theft_worth()),
            };
            return f64::from(times) * (best + stolen);
        }
        let card = self.state.market.face_up[OFFER[space].trailing_zeros() as usize];
        let first = if card != NONE { self.gain(self.me, card) } else { 0.0 };
        first + f64::from(times - 1) * self.mean_draw_gain()
    }

    /// `push_cost`: what the others gain when my collection on `space` pushes them up.
    fn push_cost(&mut self, space: usize) -> f64 {
        let above = ABOVE[space];
        if above == NONE {
            return 0.0;
        }
        let above = usize::from(above);
        let areas = self.state.areas;
        let mut cost = 0.0;
        let rows = areas[space].iter().zip(&areas[above]);
        for (other, (&count, &higher)) in rows.enumerate().take(self.rules.config.players) {
            if other == self.me || !(0 < count && count < NEED[space]) {
                continue;
            }
            if higher + count >= NEED[above] {
                cost += self.best_face_up(other, 1.0);
            } else {
                cost += PUSH * f64::from(count);
            }
        }
        cost
    }

    /// `space_worths`: what each count of start-track squirrels moving up to each 2-area space
    /// brings me (`space_worth`, with `collection` priced once per space and count).
    pub fn space_worths(&mut self) -> SpaceWorths {
        if let Some(worths) = self.worths {
            return worths;
        }
        let worths = self.work_out_space_worths();
        self.worths = Some(worths);
        worths
    }

    fn work_out_space_worths(&mut self) -> SpaceWorths {
        let mut worths = [[0.0; 4]; TWO_AREA];
        let mut theft = None;
        for (space, row) in worths.iter_mut().enumerate() {
            let mut collections: [Option<f64>; 4] = [None; 4];
            for (count, slot) in row.iter_mut().enumerate().take(REACH[space] + 1).skip(1) {
                let need = i32::from(NEED[space]);
                let pays = (i32::from(self.state.areas[space][self.me]) + count as i32) / need;
                let worth = RESIDUAL * f64::from(count as i32 - pays * need);
                *slot = if pays > 0 {
                    let collection = match collections[pays as usize] {
                        Some(value) => value,
                        None => {
                            let value = self.payout(space, pays, &mut theft) - self.push_cost(space);
                            *collections[pays as usize].insert(value)
                        }
                    };
                    worth + collection
                } else {
                    worth
                };
            }
        }
        worths
    }

    /// `stop_value`: what stopping with `track` (bit `n`: start-track space `n`) is worth to me.
    pub fn stop_value(&mut self, track: u16) -> f64 {
        track_worth(&self.space_worths(), track)
    }

    /// `roll_value`: the chance the next roll fails, and the expected worth of stopping after
    /// one more squirrel (averaged over the rolls that fit, the better free space of each).
    pub fn roll_value(&mut self, track: u16) -> (f64, f64) {
        let fails = fail_chance(track);
        if fails >= 1.0 {
            return (1.0, 0.0);
        }
        let worths = self.space_worths();
        let mut after = [None; 13];
        for (n, slot) in after.iter_mut().enumerate().skip(2) {
            if track >> n & 1 == 0 {
                *slot = Some(track_worth(&worths, track | 1 << n));
            }
        }
        let (mut total, mut weight) = (0.0, 0.0);
        for &(a, b, count) in sum_pairs() {
            let count = f64::from(count);
            match (after[usize::from(a)], after[usize::from(b)]) {
                // Python's `max(after[a], after[b])`: the first unless the second is greater.
                (Some(low), Some(high)) => total += count * if high > low { high } else { low },
                (Some(low), None) => total += count * low,
                (None, Some(high)) => total += count * high,
                (None, None) => continue,
            }
            weight += count;
        }
        (fails, total / weight)
    }

    /// `place_value`: a start track's worth: stop with it, or roll once more and then stop.
    pub fn place_value(&mut self, track: u16) -> f64 {
        let stop = self.stop_value(track);
        if self.room() <= track.count_ones() {
            return stop;
        }
        let (fails, success) = self.roll_value(track);
        let rolled = (1.0 - fails) * success;
        if rolled > stop {
            rolled
        } else {
            stop
        }
    }
}
