//! Aids for search agents, the Rust mirror of `spieltisch/games/auf_die_nuesse/bots/search.py`:
//! the quick playout policy ([`playout`]) and the cut-off evaluation at the next turn start
//! ([`evaluate`]), with the same choices and the same floats as Python.
//!
//! Nothing in this game is hidden, so both read the state directly. Pure: every draw comes from
//! the generator passed in; the per-thread plan cache ([`super::plan::with_plan`]) changes no
//! value.

use std::cell::RefCell;

use super::judge::{card_kinds, expectations, fills, points, store_worth, Judge};
use super::plan::{place_spaces, with_plan, SpaceWorths, TurnPlan, REACH, START_TRACK_SPACES, TWO_AREA};
use crate::core::{Node, Rng, Rules};
use crate::games::auf_die_nuesse::model::{Ending, Stage, RACCOON};
use crate::games::auf_die_nuesse::notation::{
    Action, KEEP, NONE, NUTS, PASS, PLACE_BASE, ROLL_AGAIN, SETUP_BASE, SPACES, STOP, STORES, TAKE_BASE,
};
use crate::games::auf_die_nuesse::rules::{Market, Nuesse, NuesseState, Outcome};

// --- What nuts and stores are worth ----------------------------------------------------------

/// What each kind of nut may still bring each player, for one state's cards (`Outlook`).
pub struct Outlook<'a> {
    state: &'a NuesseState,
    expect: [[f64; NUTS]; 4],
    values: &'a [i64; STORES],
}

impl<'a> Outlook<'a> {
    pub fn new(rules: &'a Nuesse, state: &'a NuesseState) -> Outlook<'a> {
        Outlook { state, expect: expectations(rules, state), values: &rules.config.store_values }
    }

    /// The expected final points of `player`'s store `index` holding `fill` nuts.
    #[inline]
    pub fn worth(&self, player: usize, index: usize, kind: u8, fill: i32) -> f64 {
        store_worth(self.expect[player][usize::from(kind)], index, fill, self.values)
    }

    /// What a nut counting as `kind` adds in `player`'s store `index`.
    pub fn put_gain(&self, player: usize, index: usize, kind: u8) -> f64 {
        let stores = &self.state.stores[player];
        let store = stores[index];
        if store.kind == NONE {
            if stores.iter().any(|s| s.kind == kind && !s.full && s.fill() > 0) {
                return 1.0;
            }
            return self.worth(player, index, kind, 1);
        }
        let fill = i32::from(store.fill());
        self.worth(player, index, kind, fill + 1) - self.worth(player, index, kind, fill)
    }

    /// What receiving `card` is worth to `player` in their best store for it.
    pub fn card_gain(&self, player: usize, card: u8) -> f64 {
        let mut best = 0.0;
        for (index, store) in self.state.stores[player].iter().enumerate() {
            for &kind in card_kinds(card) {
                if store.fits(kind) {
                    let gain = self.put_gain(player, index, kind);
                    if gain > best {
                        best = gain;
                    }
                }
            }
        }
        best
    }

    /// What `player`'s partly filled stores are expected to add to their loose nuts.
    pub fn bonus(&self, player: usize) -> f64 {
        let mut extra = 0.0;
        for (index, store) in self.state.stores[player].iter().enumerate() {
            if !store.full && store.kind != NONE && store.fill() > 0 {
                let fill = i32::from(store.fill());
                extra += self.worth(player, index, store.kind, fill) - f64::from(fill);
            }
        }
        extra
    }
}

// --- The evaluation at a turn start ----------------------------------------------------------

/// What the evaluation reads for each player (`FEATURES`).
pub const FEATURES: usize = 3 + SPACES + 1;
/// Log-odds of winning per unit of each feature, early and late (`WEIGHTS`).
pub const WEIGHTS: [(f64, f64); FEATURES] = [
    (0.0366, 0.1132),  // points
    (0.0434, 0.1177),  // bonus
    (0.1656, 0.5130),  // jokers
    (0.1436, 0.1979),  // on 2-4
    (0.1150, 0.1873),  // on 5-6
    (0.1827, 0.2740),  // on 7
    (0.1024, 0.1303),  // on 8-9
    (0.1231, 0.1745),  // on 10-12
    (0.1495, 0.2818),  // on 3-left
    (0.0151, 0.2480),  // on 3-raccoon
    (0.1993, 0.2193),  // on 3-right
    (-0.0135, 0.1512), // on 4-area
    (0.2327, 0.4811),  // david
];
/// Log-odds the player whose turn starts gains, early and late (`TEMPO`).
pub const TEMPO: (f64, f64) = (0.1954, 0.2972);
/// With this few cards left in the pile the end is near, and is played out (`PLAY_OUT_PILE`).
pub const PLAY_OUT_PILE: u8 = 3;

/// `player`'s standing as numbers, in `FEATURES` order (`features`).
pub fn features(rules: &Nuesse, state: &NuesseState, player: usize, outlook: &Outlook) -> [f64; FEATURES] {
    let mut values = [0.0; FEATURES];
    values[0] = points(&state.stores[player], &rules.config.store_values) as f64;
    values[1] = outlook.bonus(player);
    values[2] = f64::from(state.jokers[player].iter().map(|&n| u32::from(n)).sum::<u32>());
    for space in 0..SPACES {
        values[3 + space] = f64::from(state.areas[space][player]);
    }
    values[FEATURES - 1] = if usize::from(state.david) == player { 1.0 } else { 0.0 };
    values
}

/// How much of the game is left, from 1 (every card to come) to 0 (`remaining`).
pub fn remaining(rules: &Nuesse, market: &Market) -> f64 {
    let deck: u32 = rules.config.deck().iter().map(|&n| u32::from(n)).sum();
    f64::from(u32::from(market.pile) + u32::from(market.set_aside)) / f64::from(deck)
}

/// `player`'s standing on the logistic scale (`strength`).
pub fn strength(rules: &Nuesse, state: &NuesseState, player: usize, mover: usize, outlook: &Outlook) -> f64 {
    let left = remaining(rules, &state.market);
    let values = features(rules, state, player, outlook);
    let mut level = 0.0;
    for (value, (early, late)) in values.iter().zip(WEIGHTS) {
        level += value * (late + (early - late) * left);
    }
    if player == mover {
        level += TEMPO.1 + (TEMPO.0 - TEMPO.1) * left;
    }
    level
}

/// Each player's chance to win from `state`, into `out` (`win_chances`): a softmax of their
/// strengths.
pub fn win_chances(rules: &Nuesse, state: &NuesseState, out: &mut [f64]) {
    let outlook = Outlook::new(rules, state);
    let players = rules.config.players;
    let mover = usize::from(state.player);
    let mut levels = [0.0; 4];
    for (player, level) in levels.iter_mut().enumerate().take(players) {
        *level = strength(rules, state, player, mover, &outlook);
    }
    let top = levels[..players].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut odds = [0.0; 4];
    let mut total = 0.0;
    for (odd, level) in odds.iter_mut().zip(&levels).take(players) {
        *odd = (level - top).exp();
        total += *odd;
    }
    for (value, odd) in out.iter_mut().zip(&odds).take(players) {
        *value = odd / total;
    }
}

/// The next turn start if the player at a roll-or-stop choice stops now (`stopped`): the
/// collections played by the policy, each empty place refilled with the card most often unseen.
pub fn stopped(rules: &Nuesse, state: &NuesseState, scratch: &mut Vec<u32>) -> NuesseState {
    let mut state = *state;
    rules.apply_action(&mut state, STOP);
    while state.stage != Stage::Roll && state.stage != Stage::Over {
        if rules.node(&state) == Node::Chance {
            let unseen = state.market.unseen;
            let mut card = 0;
            for (index, &count) in unseen.iter().enumerate() {
                if count > unseen[card] {
                    card = index;
                }
            }
            rules.apply_outcome(&mut state, &Outcome::Draw(card as u8));
        } else {
            scratch.clear();
            rules.legal_actions(&state, scratch);
            let action = decide(rules, &state, scratch);
            rules.apply_action(&mut state, action);
        }
    }
    state
}

/// Whether the end is still far enough off for [`evaluate`] to value positions.
#[inline]
pub fn before_the_end(market: &Market) -> bool {
    market.ending == Ending::NotYet && market.pile > PLAY_OUT_PILE
}

/// Whether `state` is a turn start that [`evaluate`] values (`at_turn_start`).
#[inline]
pub fn at_turn_start(state: &NuesseState) -> bool {
    state.stage == Stage::Roll && state.track == 0 && before_the_end(&state.market)
}

/// Where a search's playout stops, each player's chance to win written into `out` (`evaluate`,
/// with `MIN_DEPTH` and `AGAIN_DEPTH` 0): at a turn start, and at a roll-or-stop choice where
/// the policy stops, at the turn start that stop leads to; `false` elsewhere and near the end.
pub fn evaluate(rules: &Nuesse, state: &NuesseState, out: &mut [f64], scratch: &mut Vec<u32>) -> bool {
    if !before_the_end(&state.market) {
        return false;
    }
    if at_turn_start(state) {
        win_chances(rules, state, out);
        return true;
    }
    if state.stage == Stage::Again && policy_stops(rules, state, scratch) {
        let after = stopped(rules, state, scratch);
        if after.market.ending == Ending::NotYet {
            win_chances(rules, &after, out);
            return true;
        }
    }
    false
}

/// Whether the playout policy stops at this roll-or-stop choice (`_policy_stops`).
fn policy_stops(rules: &Nuesse, state: &NuesseState, scratch: &mut Vec<u32>) -> bool {
    if state.jokers[usize::from(state.player)].iter().any(|&n| n > 0) {
        scratch.clear();
        rules.legal_actions(state, scratch);
        return again(rules, state, scratch) == STOP;
    }
    state.available() <= 0 || !turn_plan(rules, state, |plan| plan.rolls_on(state.track))
}

// --- The playout policy ----------------------------------------------------------------------

/// What a nut collected on a 2-area space is worth, roughly, to the playout's turn plan.
pub const NUT_WORTH: f64 = 4.0;
/// A collection on the raccoon space: any face-up nut and a theft.
pub const RACCOON_WORTH: f64 = 7.0;
/// A squirrel left standing on the board (as the heuristic counts it).
pub const RESIDUAL: f64 = 1.7;

/// What `count` squirrels moving up to a 2-area space are worth with `single` of mine already
/// there (`_space_value`).
fn space_value(count: usize, single: usize, nut: f64) -> f64 {
    if count == 0 {
        return 0.0;
    }
    let pays = (count + single) / 2;
    pays as f64 * nut + RESIDUAL * (count as f64 - 2.0 * pays as f64)
}

/// The fixed table of stop worths when bit `s` of `singles` marks a 2-area space already
/// holding one of my squirrels (`_worths`).
pub fn fixed_worths(singles: u32) -> SpaceWorths {
    let mut worths = [[0.0; 4]; TWO_AREA];
    for (space, row) in worths.iter_mut().enumerate() {
        let nut = if RACCOON[space] { RACCOON_WORTH } else { NUT_WORTH };
        for (count, slot) in row.iter_mut().enumerate().take(REACH[space] + 1) {
            *slot = space_value(count, (singles >> space & 1) as usize, nut);
        }
    }
    worths
}

/// How many boards' prices a thread keeps (Python's `PRICES_KEPT` is 64; a search's playouts
/// meet a few boards per decision).
pub const PRICES_KEPT: usize = 16;

/// What the prices depend on: the board and whose turn it is (not the start track, the dice
/// or the step), with the players and the store table.
type PriceKey = (NuesseState, usize, [i64; STORES]);

thread_local! {
    static PRICES: RefCell<Vec<(PriceKey, SpaceWorths)>> = const { RefCell::new(Vec::new()) };
}

/// The expert's prices of a stop for the player whose turn it is (`_prices`), worked out once
/// per board and kept per thread (a cache: the same prices either way).
pub fn prices(rules: &Nuesse, state: &NuesseState) -> SpaceWorths {
    let mut board = *state;
    (board.stage, board.track, board.dice, board.step, board.supply) = (Stage::Again, 0, None, None, [0; 4]);
    let key = (board, rules.config.players, rules.config.store_values);
    PRICES.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some((_, worths)) = kept.iter().rev().find(|(k, _)| *k == key) {
            return *worths;
        }
        let worths = Judge::new(rules, state, usize::from(state.player)).space_worths();
        if kept.len() >= PRICES_KEPT {
            kept.remove(0);
        }
        kept.push((key, worths));
        worths
    })
}

/// Run `work` on the plan for the turn under way (`_turn_plan`): stops priced as the expert
/// prices them while playouts end at the next turn start, by the fixed tables near the end.
pub fn turn_plan<T>(rules: &Nuesse, state: &NuesseState, work: impl FnOnce(&mut TurnPlan) -> T) -> T {
    let player = usize::from(state.player);
    let room = START_TRACK_SPACES.min(u32::from(state.supply[player]));
    let worths = if before_the_end(&state.market) {
        prices(rules, state)
    } else {
        let singles = (0..TWO_AREA).filter(|&s| state.areas[s][player] > 0).fold(0, |bits, s| bits | 1 << s);
        fixed_worths(singles)
    };
    with_plan(&worths, room, work)
}

/// A quick, sensible move for the player to act in `state` (`playout`); `legal` holds the
/// legal actions. Only the setup draws from `rng`.
pub fn playout(rules: &Nuesse, state: &NuesseState, legal: &[u32], rng: &mut Rng) -> u32 {
    if state.stage == Stage::Setup {
        return setup(legal, rng);
    }
    decide(rules, state, legal)
}

/// The policy's choice at every decision after the setup (`_decide`).
pub fn decide(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    match state.stage {
        Stage::Again => again(rules, state, legal),
        Stage::Place => place(rules, state, legal),
        Stage::Put => put(rules, state, legal),
        Stage::Take => take(rules, state, legal),
        Stage::Steal => steal(rules, state, legal),
        _ => legal[0],
    }
}

/// Lay a kept joker that fills a store (the most valuable); else roll on while the plan says so
/// (`_again`).
fn again(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    let stores = &state.stores[usize::from(state.player)];
    let values = &rules.config.store_values;
    let mut best: Option<(i64, u32)> = None;
    for &id in legal {
        if let Some(Action::Lay { store, .. }) = Action::of(id) {
            let store = usize::from(store);
            if fills(stores, store) && best.map_or(true, |(value, _)| values[store] > value) {
                best = Some((values[store], id));
            }
        }
    }
    if let Some((_, id)) = best {
        return id;
    }
    if legal.contains(&ROLL_AGAIN) && turn_plan(rules, state, |plan| plan.rolls_on(state.track)) {
        return ROLL_AGAIN;
    }
    STOP
}

/// The space that makes the start track worth most with the rest of the turn played best
/// (`_place`).
fn place(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    let (spaces, count) = place_spaces(legal);
    let best = turn_plan(rules, state, |plan| plan.best_space(state.track, &spaces[..count]));
    best.map_or(legal[0], |(_, space)| PLACE_BASE + u32::from(space))
}

/// The store where the nut adds most; a joker waits in hand unless it fills a store (`_put`).
fn put(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    let Some(step) = state.step else { return legal[0] };
    let actor = usize::from(step.actor);
    let outlook = Outlook::new(rules, state);
    let stores = &state.stores[actor];
    let keep = legal.contains(&KEEP);
    let mut best = legal[0];
    let mut worth = -1.0;
    for &id in legal {
        let Some(Action::Put { kind, store }) = Action::of(id) else { continue };
        let store = usize::from(store);
        if keep && !fills(stores, store) {
            continue;
        }
        let gain = outlook.put_gain(actor, store, kind);
        if gain > worth {
            (best, worth) = (id, gain);
        }
    }
    if worth < 0.0 && keep {
        return KEEP;
    }
    best
}

/// The face-up nut worth most to the collector, a raccoon's only if worth anything (`_take`).
fn take(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    let Some(step) = state.step else { return legal[0] };
    let outlook = Outlook::new(rules, state);
    let may_pass = legal.contains(&PASS);
    let mut best = if may_pass { PASS } else { legal[0] };
    let mut worth = if may_pass { 0.0 } else { -1.0 };
    for &id in legal {
        let Some(Action::Take(slot)) = Action::of(id) else { continue };
        let card = state.market.face_up[usize::from(slot)];
        if card != NONE {
            let gain = outlook.card_gain(usize::from(step.actor), card);
            if gain > worth {
                (best, worth) = (TAKE_BASE + u32::from(slot), gain);
            }
        }
    }
    best
}

/// The theft that costs its victim most, counting what the nut is worth to me (`_steal`).
fn steal(rules: &Nuesse, state: &NuesseState, legal: &[u32]) -> u32 {
    let Some(step) = state.step else { return legal[0] };
    let outlook = Outlook::new(rules, state);
    let mut best = PASS;
    let mut worth = 0.0;
    for &id in legal {
        let Some(Action::Steal { victim, store }) = Action::of(id) else { continue };
        let (victim, index) = (usize::from(victim), usize::from(store));
        let store = state.stores[victim][index];
        if store.kind == NONE {
            continue;
        }
        let fill = i32::from(store.fill());
        let mut loss = outlook.worth(victim, index, store.kind, fill);
        loss -= outlook.worth(victim, index, store.kind, fill - 1);
        let gain = loss + outlook.card_gain(usize::from(step.actor), store.kind);
        if gain > worth {
            (best, worth) = (id, gain);
        }
    }
    best
}

/// The setups the policy prefers, in order: below 5-6, then 8-9 (rolled most often).
const SETUP_PREFERENCE: [u32; 2] = [SETUP_BASE + 1, SETUP_BASE + 3];

/// A setup squirrel below 5-6 or 8-9, else anywhere at random (`_setup`).
fn setup(legal: &[u32], rng: &mut Rng) -> u32 {
    for preferred in SETUP_PREFERENCE {
        if legal.contains(&preferred) {
            return preferred;
        }
    }
    legal[rand::Rng::gen_range(rng, 0..legal.len())]
}
