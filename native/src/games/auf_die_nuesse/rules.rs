//! The state of Auf die Nüsse! and its transitions: the Rust mirror of
//! `spieltisch/games/auf_die_nuesse/rules.py`, function by function (`_checks`, `_receive`,
//! `_after_put`, ...), changing one plain state in place instead of building new ones.
//!
//! Setup: four nuts are drawn face up, each player is dealt a nut to store (or a joker to
//! keep), then the players after the starter put one, two and three squirrels on the 2-area.
//! A turn: the dice, a squirrel on green plus one white die, then roll again or stop. A roll
//! with no free space sends the start track home; stopping moves it up into the 2-area and the
//! collection checks run over the nine spaces in order. Cards are drawn from the multiset of
//! unseen cards (draw pile and set-aside together), as in Python.

use super::encode;
use super::model::{
    Config, Context, Ending, Stage, ABOVE, NEED, OFFER, RACCOON, SETUP_SPACES, SET_ASIDE, SQUIRRELS, STORE_SIZES,
};
use super::notation::{
    is_joker, lay_id, put_id, steal_id, Action, ACTIONS, CARDS, FIRST_JOKER, JOKERS, JOKER_KINDS, KEEP, LEFT_3,
    MAX_PLAYERS, NONE, PASS, PLACE_BASE, ROLL_AGAIN, SETUP_BASE, SLOTS, SPACES, STOP, STORES, TAKE_BASE, TRACK_SPACE,
};
use crate::core::{Node, Options, Prob, Refusal, Rng, Rules};

/// One nut store: its kind and fill, or turned over once full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    /// The kind lying in it ([`NONE`] while empty; a full store keeps the kind it was filled with).
    pub kind: u8,
    /// Real nuts lying in it (they can be stolen).
    pub nuts: u8,
    /// Jokers lying in it, each counting as `kind` (never stolen).
    pub jokers: u8,
    pub full: bool,
}

impl Store {
    pub const EMPTY: Store = Store { kind: NONE, nuts: 0, jokers: 0, full: false };

    /// Nuts of any sort lying in the store.
    #[inline]
    pub fn fill(self) -> u8 {
        self.nuts + self.jokers
    }

    /// Whether a nut counting as `kind` may go in.
    #[inline]
    pub fn fits(self, kind: u8) -> bool {
        !self.full && (self.kind == NONE || self.kind == kind)
    }
}

/// Where a nut-handling sequence stands (setup deal, collection, final jokers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub context: Context,
    /// Who is dealt, collects, stores or steals.
    pub actor: u8,
    /// The space being checked ([`NONE`] outside collections).
    pub space: u8,
    /// The nut in hand, to be stored ([`NONE`]: none).
    pub pending: u8,
    /// The face-up place to refill once the nut in hand is stored ([`NONE`]: none).
    pub refill: u8,
    /// A raccoon theft is still to be offered.
    pub theft: bool,
}

impl Step {
    /// A step of `context` about `actor`, everything else empty.
    #[inline]
    pub fn of(context: Context, actor: u8) -> Step {
        Step { context, actor, space: NONE, pending: NONE, refill: NONE, theft: false }
    }
}

/// The nut cards: the face-up row, what is unseen, and the piles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Market {
    /// The card under 2-4, 5-6, 8-9 and 10-12 ([`NONE`]: that place is empty).
    pub face_up: [u8; SLOTS],
    /// Cards nobody has seen (draw pile and set-aside together), per card.
    pub unseen: [u8; CARDS],
    /// Cards in the draw pile.
    pub pile: u8,
    /// Set-aside cards not yet turned into the draw pile.
    pub set_aside: u8,
    pub ending: Ending,
}

/// A position: the board, the turn under way and any pending step (one plain value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NuesseState {
    pub stage: Stage,
    /// Whose turn it is (the starter during setup).
    pub player: u8,
    /// The start track: bit `n` set when space `n` holds one of the player's squirrels.
    pub track: u16,
    /// The last roll, green die first (kept for display; `None` before the first).
    pub dice: Option<[u8; 3]>,
    /// The setup, collection or end-game step under way (`None` while rolling).
    pub step: Option<Step>,
    /// Squirrels per space, per player.
    pub areas: [[u8; MAX_PLAYERS]; SPACES],
    /// Squirrels in each player's supply (those on the start track still counted).
    pub supply: [u8; MAX_PLAYERS],
    pub market: Market,
    /// Each player's eight stores, S1 to S8.
    pub stores: [[Store; STORES]; MAX_PLAYERS],
    /// Jokers each player keeps in hand, counted per joker.
    pub jokers: [[u8; JOKERS]; MAX_PLAYERS],
    /// The player David the raccoon sits with ([`NONE`]: nobody yet).
    pub david: u8,
}

impl NuesseState {
    /// Squirrels the player whose turn it is still has in supply to place.
    #[inline]
    pub fn available(&self) -> i32 {
        i32::from(self.supply[usize::from(self.player)]) - self.track.count_ones() as i32
    }

    /// The player who decides now (`None` at chance and at the end).
    pub fn current_player(&self) -> Option<usize> {
        match self.stage {
            Stage::Place | Stage::Again => Some(usize::from(self.player)),
            Stage::Setup | Stage::Take | Stage::Put | Stage::Steal => self.step.map(|step| usize::from(step.actor)),
            _ => None,
        }
    }

    /// Whether `player` keeps any joker.
    #[inline]
    fn holds_jokers(&self, player: usize) -> bool {
        self.jokers[player].iter().any(|&count| count > 0)
    }
}

/// A chance outcome: the three dice (pips, green first), or the nut card drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Dice([u8; 3]),
    Draw(u8),
}

/// Where a card may be stored (the legal ids, increasing), at most `keep` and sixteen puts.
#[derive(Clone, Copy)]
pub(crate) struct PutOptions {
    ids: [u32; 17],
    len: usize,
}

impl PutOptions {
    #[inline]
    fn push(&mut self, id: u32) {
        self.ids[self.len] = id;
        self.len += 1;
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len]
    }
}

/// `_put_options`: where `card` may go in `stores`, in id order; `keep` first if it may be kept.
pub(crate) fn put_options(stores: &[Store; STORES], card: u8, keep: bool) -> PutOptions {
    let mut options = PutOptions { ids: [0; 17], len: 0 };
    if !is_joker(card) {
        for (index, store) in stores.iter().enumerate() {
            if store.fits(card) {
                options.push(put_id(card, index));
            }
        }
        return options;
    }
    if keep {
        options.push(KEEP);
    }
    let kinds = JOKER_KINDS[usize::from(card - FIRST_JOKER)];
    for (index, store) in stores.iter().enumerate() {
        if store.full {
            continue;
        }
        if store.kind == NONE {
            options.push(put_id(kinds[0], index));
            options.push(put_id(kinds[1], index));
        } else if kinds.contains(&store.kind) {
            options.push(put_id(store.kind, index));
        }
    }
    options
}

/// The rules that refuse a move, in the Python `Rule`'s words.
mod rule {
    pub const GAME_OVER: &str = "the game is over";
    pub const CHANCE_ACTS: &str = "chance acts now: the dice are rolled or a nut card is drawn";
    pub const PLAYER_ACTS: &str = "a player decides now; no dice are rolled and no card is drawn";
    pub const OTHER_DECISION: &str = "that move does not answer the decision at hand";
    pub const DIE_FACES: &str = "each die shows a number from 1 to 6";
    pub const UNSEEN_ONLY: &str = "only a card nobody has seen yet can be drawn";
    pub const GREEN_PLUS_WHITE: &str = "a squirrel goes on the green die plus one of the white dice";
    pub const ONE_PER_TRACK_SPACE: &str = "a start-track space holds at most one squirrel";
    pub const NO_SUPPLY: &str = "a player with no squirrel left in supply cannot roll again";
    pub const RACCOON_MUST: &str = "with raccoon_optional off, the raccoon's nut and its theft are taken \
                                    whenever there is one to take";
    pub const SETUP_NOT_RACCOON: &str = "no squirrel may be placed on the raccoon space before the first turn";
    pub const SETUP_ONE_PER_SPACE: &str = "before the first turn no player puts two squirrels on one space";
    pub const SETUP_ALL: &str = "with optional_setup off, every squirrel due before the first turn is placed";
    pub const TAKE_OFFERED: &str = "only the nuts lying under this space can be taken";
    pub const TAKE_THERE: &str = "there is no nut lying in that place";
    pub const PASS_RACCOON: &str = "only what a raccoon space offers may be refused";
    pub const ONE_KIND: &str = "a nut store holds nuts of one kind only";
    pub const STORE_FULL: &str = "a full nut store is turned over and takes no more nuts";
    pub const CARD_KIND: &str = "a nut counts as its own kind, a joker as one of the two kinds it shows";
    pub const KEEP_JOKERS: &str = "only jokers may be kept; every other nut is stored at once";
    pub const KEEP_AT_END: &str = "at the end of the game every kept joker must be stored";
    pub const STEAL_OTHERS: &str = "the raccoon steals from another player";
    pub const STEAL_DAVID: &str = "nothing may be stolen from the player who has David the raccoon";
    pub const STEAL_FULL: &str = "nothing may be stolen from a full nut store";
    pub const STEAL_JOKERS: &str = "jokers may never be stolen";
    pub const STEAL_EMPTY: &str = "an empty nut store has nothing to steal";
    pub const LAY_HELD: &str = "only a joker the player keeps can be laid";
    pub const LAY_LATE_OFF: &str = "with late_jokers off, kept jokers wait until the end of the game";
    pub const NO_SUCH_PLAYER: &str = "there is no such player at the table";
}

fn illegal(rule: &'static str) -> Refusal {
    Refusal::Illegal { rule, detail: String::new() }
}

/// Auf die Nüsse! for a fixed player count and options.
#[derive(Clone, Debug)]
pub struct Nuesse {
    pub config: Config,
    deck: [u8; CARDS],
}

impl Nuesse {
    #[inline]
    fn players_u8(&self) -> u8 {
        self.config.players as u8
    }

    /// `_lays` is not empty: `player` may lay one of their kept jokers now.
    fn has_lays(&self, state: &NuesseState, player: usize) -> bool {
        if !self.config.late_jokers {
            return false;
        }
        let stores = &state.stores[player];
        state.jokers[player].iter().enumerate().any(|(joker, &count)| {
            count > 0 && JOKER_KINDS[joker].iter().any(|&kind| stores.iter().any(|store| store.fits(kind)))
        })
    }

    /// `_lays`: every way `player` may lay a kept joker, appended in id order.
    fn push_lays(&self, state: &NuesseState, player: usize, out: &mut Vec<u32>) {
        if !self.config.late_jokers {
            return;
        }
        let stores = &state.stores[player];
        for (joker, &count) in state.jokers[player].iter().enumerate() {
            if count == 0 {
                continue;
            }
            for &kind in &JOKER_KINDS[joker] {
                for (index, store) in stores.iter().enumerate() {
                    if store.fits(kind) {
                        out.push(lay_id(joker, kind, index));
                    }
                }
            }
        }
    }

    /// Whether the raccoon may steal from `victim` for `thief` (David protects his player).
    #[inline]
    fn may_rob(&self, state: &NuesseState, thief: u8, victim: u8) -> bool {
        victim != thief && (victim != state.david || self.config.steal_from_david)
    }

    /// `_thefts` is not empty.
    fn has_thefts(&self, state: &NuesseState, thief: u8) -> bool {
        (0..self.players_u8()).any(|victim| {
            self.may_rob(state, thief, victim) && state.stores[usize::from(victim)].iter().any(|store| store.nuts > 0)
        })
    }

    /// `_thefts`: every nut the raccoon may steal for `thief`, appended in id order.
    fn push_thefts(&self, state: &NuesseState, thief: u8, out: &mut Vec<u32>) {
        for victim in 0..self.players_u8() {
            if !self.may_rob(state, thief, victim) {
                continue;
            }
            for (index, store) in state.stores[usize::from(victim)].iter().enumerate() {
                if store.nuts > 0 {
                    out.push(steal_id(usize::from(victim), index));
                }
            }
        }
    }

    /// `placements`: the free start-track spaces the last roll allows, increasing.
    fn push_placements(state: &NuesseState, out: &mut Vec<u32>) {
        let Some([green, white1, white2]) = state.dice else {
            return;
        };
        let (first, second) = (green + white1, green + white2);
        let (low, high) = if first <= second { (first, second) } else { (second, first) };
        if state.track >> low & 1 == 0 {
            out.push(PLACE_BASE + u32::from(low));
        }
        if high != low && state.track >> high & 1 == 0 {
            out.push(PLACE_BASE + u32::from(high));
        }
    }

    // --- Transitions -------------------------------------------------------------------

    /// `_apply_dice`: place at once where only one space is free; fail where none is.
    fn apply_dice(&self, state: &mut NuesseState, dice: [u8; 3]) {
        state.dice = Some(dice);
        let first = dice[0] + dice[1];
        let second = dice[0] + dice[2];
        let free_first = state.track >> first & 1 == 0;
        let free_second = second != first && state.track >> second & 1 == 0;
        state.step = None;
        if free_first && free_second {
            state.stage = Stage::Place;
        } else if free_first || free_second {
            state.track |= 1 << if free_first { first } else { second };
            self.again(state);
        } else {
            self.failed(state);
        }
    }

    /// `_apply_draw`: the card leaves the unseen cards; it goes where the step says.
    fn apply_draw(&self, state: &mut NuesseState, card: u8) {
        let market = &mut state.market;
        market.unseen[usize::from(card)] -= 1;
        market.pile -= 1;
        if market.pile == 0 && market.set_aside > 0 {
            market.pile = market.set_aside;
            market.set_aside = 0;
            market.ending = Ending::Triggered;
        }
        let Some(step) = state.step else { return };
        if step.refill != NONE {
            market.face_up[usize::from(step.refill)] = card;
        }
        match state.stage {
            Stage::Refill => self.after_refill(state, step),
            Stage::Deal => {
                state.dice = None;
                self.receive(state, step, card);
            }
            _ => {
                if usize::from(step.refill) + 1 < SLOTS {
                    let mut after = Step::of(Context::Setup, 0);
                    after.refill = step.refill + 1;
                    state.stage = Stage::FaceUp;
                    state.track = 0;
                    state.dice = None;
                    state.step = Some(after);
                } else {
                    self.deal(state, 0);
                }
            }
        }
    }

    /// `_again`: after a squirrel is placed, roll again or stop; with an empty supply the turn
    /// ends (with `empty_supply=fails`, as a failed roll ends it).
    fn again(&self, state: &mut NuesseState) {
        let player = usize::from(state.player);
        if u32::from(state.supply[player]) <= state.track.count_ones() {
            if self.config.supply_fails {
                return self.failed(state);
            }
            if !self.has_lays(state, player) {
                return self.end_turn(state);
            }
        }
        state.stage = Stage::Again;
        state.step = None;
    }

    /// `_failed`: the start track goes back to the supply (which still counts it).
    fn failed(&self, state: &mut NuesseState) {
        state.track = 0;
        if !self.config.double_collect_upper {
            // A surplus left in the 3- or 4-area by the last checks pays out now.
            return self.checks(state, LEFT_3, NONE);
        }
        self.next_turn(state);
    }

    /// `_end_turn`: the start track moves up into the 2-area, then the checks run from the
    /// first space where the player now has two (the upper areas always, without
    /// `double_collect_upper`).
    fn end_turn(&self, state: &mut NuesseState) {
        let player = usize::from(state.player);
        let mut moved = [0u8; 5];
        for n in 2..=12 {
            if state.track >> n & 1 != 0 {
                moved[usize::from(TRACK_SPACE[n])] += 1;
            }
        }
        let mut first = NONE;
        for (space, &count) in moved.iter().enumerate() {
            if count > 0 {
                let now = state.areas[space][player] + count;
                state.areas[space][player] = now;
                if first == NONE && now >= 2 {
                    first = space as u8;
                }
            }
        }
        state.supply[player] -= state.track.count_ones() as u8;
        state.track = 0;
        if first != NONE {
            self.checks(state, first, NONE);
        } else if !self.config.double_collect_upper {
            self.checks(state, LEFT_3, NONE);
        } else {
            self.next_turn(state);
        }
    }

    /// `_next_turn`: the next player clockwise rolls.
    fn next_turn(&self, state: &mut NuesseState) {
        state.player = (state.player + 1) % self.players_u8();
        state.stage = Stage::Roll;
        state.track = 0;
        state.step = None;
    }

    /// `_collector`: the first space from `start` on where a player has enough squirrels, and
    /// who (the first such seat in the collecting order from `first`).
    fn collector(&self, state: &NuesseState, first: u8, start: u8) -> Option<(u8, u8)> {
        let players = self.players_u8();
        let start = usize::from(start);
        for (space, (row, &need)) in state.areas.iter().zip(&NEED).enumerate().skip(start) {
            if row.iter().all(|&count| count < need) {
                continue;
            }
            for k in 0..players {
                let seat = (first + k) % players;
                if row[usize::from(seat)] >= need {
                    return Some((space as u8, seat));
                }
            }
        }
        None
    }

    /// `_next_collector`: without `double_collect_upper`, `last` (who has just collected on
    /// `start`) may not collect on a 3- or 4-area space again in this pass, unless the end has
    /// come; a later seat in the order may.
    fn next_collector(&self, state: &NuesseState, first: u8, start: u8, last: u8) -> Option<(u8, u8)> {
        if !self.config.double_collect_upper && last != NONE && start >= LEFT_3 && state.market.ending != Ending::Final
        {
            let players = self.players_u8();
            let row = &state.areas[usize::from(start)];
            let need = NEED[usize::from(start)];
            let after_last = (last + players - first) % players + 1;
            for k in after_last..players {
                let seat = (first + k) % players;
                if row[usize::from(seat)] >= need {
                    return Some((start, seat));
                }
            }
            return self.collector(state, first, start + 1);
        }
        self.collector(state, first, start)
    }

    /// `_checks`: run the collection checks from `start` until a decision, a draw, or their
    /// end; `last` has just collected on `start` ([`NONE`]: nobody has).
    fn checks(&self, state: &mut NuesseState, start: u8, last: u8) {
        state.track = 0;
        let players = self.players_u8();
        // active_first starts the order at the active seat, next_first one seat later.
        let first = (state.player + u8::from(self.config.next_first)) % players;
        let (mut start, mut last) = (start, last);
        // Each pass collects squirrels off the board (or moves them all up once): bounded.
        for _ in 0..1024 {
            let Some((space, actor)) = self.next_collector(state, first, start, last) else {
                match state.market.ending {
                    Ending::Triggered => {
                        self.all_up(state);
                        start = super::notation::AREA_4;
                        last = NONE;
                        continue;
                    }
                    Ending::Final => return self.store_kept_jokers(state),
                    Ending::NotYet => return self.next_turn(state),
                }
            };
            start = space;
            last = actor;
            self.collect(state, space, actor);
            let offered = OFFER[usize::from(space)] & self.face_up_mask(state);
            let raccoon = RACCOON[usize::from(space)];
            if offered.count_ones() == 1 && !raccoon {
                let slot = offered.trailing_zeros() as u8;
                let card = state.market.face_up[usize::from(slot)];
                state.market.face_up[usize::from(slot)] = NONE;
                let after = Step { context: Context::Checks, actor, space, pending: NONE, refill: slot, theft: false };
                return self.receive(state, after, card);
            }
            let step = Step { context: Context::Checks, actor, space, pending: NONE, refill: NONE, theft: raccoon };
            if offered != 0 {
                state.stage = Stage::Take;
                state.step = Some(step);
                return;
            }
            if raccoon {
                return self.after_refill(state, step);
            }
            // The space paid out but no nut was left: the claim is lost, the checks go on.
        }
        // Every pass takes squirrels off the board or moves them all up, so the checks end long
        // before this; reaching it is a bug, which the Python face reports as a NativeError.
        unreachable!("the collection checks did not end");
    }

    /// The face-up places holding a card, as a bit set of slots.
    #[inline]
    fn face_up_mask(&self, state: &NuesseState) -> u8 {
        let mut mask = 0;
        for (slot, &card) in state.market.face_up.iter().enumerate() {
            if card != NONE {
                mask |= 1 << slot;
            }
        }
        mask
    }

    /// `_collect`: `collector` takes the space's squirrels back; the others' with fewer than
    /// needed are pushed up.
    fn collect(&self, state: &mut NuesseState, space: u8, collector: u8) {
        let space = usize::from(space);
        let need = NEED[space];
        state.areas[space][usize::from(collector)] -= need;
        let above = ABOVE[space];
        if above != NONE {
            for other in 0..self.config.players {
                let count = state.areas[space][other];
                if other != usize::from(collector) && count > 0 && count < need {
                    state.areas[usize::from(above)][other] += count;
                    state.areas[space][other] = 0;
                }
            }
        }
        state.supply[usize::from(collector)] += need;
    }

    /// `_all_up`: the end: every squirrel on the board moves into the 4-area.
    fn all_up(&self, state: &mut NuesseState) {
        for player in 0..self.config.players {
            let total: u8 = state.areas.iter().map(|row| row[player]).sum();
            for row in state.areas.iter_mut() {
                row[player] = 0;
            }
            state.areas[usize::from(super::notation::AREA_4)][player] = total;
        }
        state.market.ending = Ending::Final;
    }

    /// `_take`: the actor takes the face-up nut in `slot`; it is stored, then replaced.
    fn take(&self, state: &mut NuesseState, step: Step, slot: u8) {
        let card = state.market.face_up[usize::from(slot)];
        state.market.face_up[usize::from(slot)] = NONE;
        let after = Step { pending: NONE, refill: slot, ..step };
        self.receive(state, after, card);
    }

    /// `_receive`: the actor must store `card` now: by choice, by force, or back to the box.
    fn receive(&self, state: &mut NuesseState, step: Step, card: u8) {
        let actor = usize::from(step.actor);
        let options = put_options(&state.stores[actor], card, step.context != Context::Jokers);
        match options.as_slice() {
            [] => {}
            [KEEP] => state.jokers[actor][usize::from(card - FIRST_JOKER)] += 1,
            [only] => {
                let Some(Action::Put { kind, store }) = Action::of(*only) else {
                    return;
                };
                Self::store(state, actor, card, kind, usize::from(store));
            }
            _ => {
                state.stage = Stage::Put;
                state.track = 0;
                state.step = Some(Step { pending: card, ..step });
                return;
            }
        }
        self.after_put(state, step);
    }

    /// `_store`: `card` goes into store `index` as `kind`; a full store is turned over.
    fn store(state: &mut NuesseState, actor: usize, card: u8, kind: u8, index: usize) {
        let store = &mut state.stores[actor][index];
        if store.fill() + 1 == STORE_SIZES[index] {
            *store = Store { kind, nuts: 0, jokers: 0, full: true };
        } else {
            store.kind = kind;
            if is_joker(card) {
                store.jokers += 1;
            } else {
                store.nuts += 1;
            }
        }
    }

    /// `_after_put`: the nut in hand is dealt with: refill its place, deal on, or store the
    /// next kept joker.
    fn after_put(&self, state: &mut NuesseState, step: Step) {
        match step.context {
            Context::Checks => {
                if step.refill != NONE && state.market.pile > 0 {
                    state.stage = Stage::Refill;
                    state.track = 0;
                    state.step = Some(Step { pending: NONE, ..step });
                } else {
                    self.after_refill(state, step);
                }
            }
            Context::Setup => self.deal(state, step.actor + 1),
            Context::Jokers => self.store_kept_jokers(state),
        }
    }

    /// `_after_refill`: the raccoon's theft if one is due, else the checks go on.
    fn after_refill(&self, state: &mut NuesseState, step: Step) {
        if step.theft && self.has_thefts(state, step.actor) {
            state.stage = Stage::Steal;
            state.track = 0;
            let mut theft = Step::of(Context::Checks, step.actor);
            theft.space = step.space;
            state.step = Some(theft);
            return;
        }
        self.checks(state, step.space, step.actor);
    }

    /// `_store_kept_jokers`: at the end every kept joker is stored (the active player first);
    /// then the game is over.
    fn store_kept_jokers(&self, state: &mut NuesseState) {
        let players = self.players_u8();
        for k in 0..players {
            let seat = (state.player + k) % players;
            if let Some(joker) = state.jokers[usize::from(seat)].iter().position(|&count| count > 0) {
                state.jokers[usize::from(seat)][joker] -= 1;
                return self.receive(state, Step::of(Context::Jokers, seat), FIRST_JOKER + joker as u8);
            }
        }
        state.stage = Stage::Over;
        state.track = 0;
        state.step = None;
    }

    /// `_deal`: deal the start nut to `seat`; after the last seat, the squirrels are placed.
    fn deal(&self, state: &mut NuesseState, seat: u8) {
        if seat < self.players_u8() {
            state.stage = Stage::Deal;
            state.player = 0;
            state.track = 0;
            state.dice = None;
            state.step = Some(Step::of(Context::Setup, seat));
            return;
        }
        self.setup_next(state, 1);
    }

    /// `_setup_next`: seat `k` puts `k` squirrels on the 2-area before the first turn (seats
    /// before `first` are done); then seat 0 rolls.
    fn setup_next(&self, state: &mut NuesseState, first: u8) {
        state.player = 0;
        state.track = 0;
        state.dice = None;
        for seat in first..self.players_u8() {
            if SQUIRRELS - state.supply[usize::from(seat)] < seat {
                state.stage = Stage::Setup;
                state.step = Some(Step::of(Context::Setup, seat));
                return;
            }
        }
        state.stage = Stage::Roll;
        state.step = None;
    }

    /// `_do_steal` of a nut: it leaves the victim's store, David moves there, the thief
    /// stores it.
    fn steal(&self, state: &mut NuesseState, step: Step, victim: u8, index: u8) {
        let store = &mut state.stores[usize::from(victim)][usize::from(index)];
        let kind = store.kind;
        store.nuts -= 1;
        if store.fill() == 0 {
            store.kind = NONE;
        }
        state.david = victim;
        self.receive(state, step, kind);
    }

    // --- Refusals ------------------------------------------------------------------------

    /// `_store_fault`: why a nut counting as `kind` may not go into store `index`.
    fn store_fault(stores: &[Store; STORES], index: u8, kind: u8) -> Option<&'static str> {
        let store = stores[usize::from(index)];
        if store.full {
            Some(rule::STORE_FULL)
        } else if store.kind != NONE && store.kind != kind {
            Some(rule::ONE_KIND)
        } else {
            None
        }
    }

    /// `fault`: the rule a listed action breaks here (`None`: it is legal).
    fn fault(&self, state: &NuesseState, action: Action) -> Option<&'static str> {
        let stage = state.stage;
        if !matches!(self.node(state), Node::Decision(_)) {
            return Some(if stage == Stage::Over { rule::GAME_OVER } else { rule::CHANCE_ACTS });
        }
        let fits = matches!(
            (stage, action),
            (Stage::Setup, Action::Setup(_) | Action::Pass)
                | (Stage::Place, Action::Place(_))
                | (Stage::Again, Action::RollAgain | Action::Stop | Action::Lay { .. })
                | (Stage::Take, Action::Take(_) | Action::Pass)
                | (Stage::Put, Action::Put { .. } | Action::Keep)
                | (Stage::Steal, Action::Steal { .. } | Action::Pass)
        );
        if !fits {
            return Some(rule::OTHER_DECISION);
        }
        let step = state.step.unwrap_or(Step::of(Context::Checks, 0));
        match action {
            Action::Place(space) => {
                let [green, white1, white2] = state.dice.unwrap_or([0; 3]);
                if space != green + white1 && space != green + white2 {
                    Some(rule::GREEN_PLUS_WHITE)
                } else if state.track >> space & 1 != 0 {
                    Some(rule::ONE_PER_TRACK_SPACE)
                } else {
                    None
                }
            }
            Action::Stop => None,
            Action::RollAgain => (state.available() <= 0).then_some(rule::NO_SUPPLY),
            Action::Lay { joker, kind, store } => {
                let player = usize::from(state.player);
                if !self.config.late_jokers {
                    Some(rule::LAY_LATE_OFF)
                } else if state.jokers[player][usize::from(joker)] == 0 {
                    Some(rule::LAY_HELD)
                } else if !JOKER_KINDS[usize::from(joker)].contains(&kind) {
                    Some(rule::CARD_KIND)
                } else {
                    Self::store_fault(&state.stores[player], store, kind)
                }
            }
            Action::Setup(space) => {
                if space == super::notation::RACCOON_2 {
                    Some(rule::SETUP_NOT_RACCOON)
                } else if state.areas[usize::from(space)][usize::from(step.actor)] > 0 {
                    Some(rule::SETUP_ONE_PER_SPACE)
                } else {
                    None
                }
            }
            Action::Pass if stage == Stage::Setup => (!self.config.optional_setup).then_some(rule::SETUP_ALL),
            Action::Pass if stage == Stage::Take => {
                if !RACCOON[usize::from(step.space) % SPACES] {
                    Some(rule::PASS_RACCOON)
                } else {
                    (!self.config.raccoon_optional).then_some(rule::RACCOON_MUST)
                }
            }
            Action::Pass => (!self.config.raccoon_optional).then_some(rule::RACCOON_MUST),
            Action::Take(slot) => {
                if OFFER[usize::from(step.space) % SPACES] >> slot & 1 == 0 {
                    Some(rule::TAKE_OFFERED)
                } else if state.market.face_up[usize::from(slot)] == NONE {
                    Some(rule::TAKE_THERE)
                } else {
                    None
                }
            }
            Action::Keep => {
                if !is_joker(step.pending) || step.pending == NONE {
                    Some(rule::KEEP_JOKERS)
                } else {
                    (step.context == Context::Jokers).then_some(rule::KEEP_AT_END)
                }
            }
            Action::Put { kind, store } => {
                let card = step.pending;
                let counts = if is_joker(card) && card != NONE {
                    JOKER_KINDS[usize::from(card - FIRST_JOKER)].contains(&kind)
                } else {
                    card == kind
                };
                if !counts {
                    Some(rule::CARD_KIND)
                } else {
                    Self::store_fault(&state.stores[usize::from(step.actor)], store, kind)
                }
            }
            Action::Steal { victim, store } => {
                if usize::from(victim) >= self.config.players {
                    return Some(rule::NO_SUCH_PLAYER);
                }
                if victim == step.actor {
                    return Some(rule::STEAL_OTHERS);
                }
                if victim == state.david && !self.config.steal_from_david {
                    return Some(rule::STEAL_DAVID);
                }
                let robbed = state.stores[usize::from(victim)][usize::from(store)];
                if robbed.full {
                    Some(rule::STEAL_FULL)
                } else if robbed.nuts == 0 {
                    Some(if robbed.jokers > 0 { rule::STEAL_JOKERS } else { rule::STEAL_EMPTY })
                } else {
                    None
                }
            }
        }
    }

    /// Each player's points: a full store its value, a partly filled one a point per nut.
    fn points(&self, stores: &[Store; STORES]) -> i64 {
        stores
            .iter()
            .zip(self.config.store_values)
            .map(|(store, worth)| if store.full { worth } else { i64::from(store.fill()) })
            .sum()
    }

    /// The value of the most valuable full store (0 without one): the tie-break.
    fn best_full_store(&self, stores: &[Store; STORES]) -> i64 {
        stores.iter().zip(self.config.store_values).filter(|(store, _)| store.full).map(|(_, v)| v).max().unwrap_or(0)
    }

    /// Each player's score, for the encoder.
    pub(crate) fn score_of(&self, state: &NuesseState, player: usize) -> i64 {
        self.points(&state.stores[player])
    }
}

impl Rules for Nuesse {
    type State = NuesseState;
    type Outcome = Outcome;

    const ID: &'static str = "auf-die-nuesse";

    fn new(players: usize, options: &Options) -> Result<Self, Refusal> {
        let config = Config::new(players, options)?;
        let deck = config.deck();
        Ok(Nuesse { config, deck })
    }

    fn players(&self) -> usize {
        self.config.players
    }

    fn num_distinct_actions(&self) -> usize {
        ACTIONS as usize
    }

    fn observation_size(&self) -> usize {
        encode::SIZE
    }

    fn initial_state(&self) -> NuesseState {
        let total: u8 = self.deck.iter().sum();
        let mut step = Step::of(Context::Setup, 0);
        step.refill = 0;
        NuesseState {
            stage: Stage::FaceUp,
            player: 0,
            track: 0,
            dice: None,
            step: Some(step),
            areas: [[0; MAX_PLAYERS]; SPACES],
            supply: [SQUIRRELS; MAX_PLAYERS],
            market: Market {
                face_up: [NONE; SLOTS],
                unseen: self.deck,
                pile: total - SET_ASIDE,
                set_aside: SET_ASIDE,
                ending: Ending::NotYet,
            },
            stores: [[Store::EMPTY; STORES]; MAX_PLAYERS],
            jokers: [[0; JOKERS]; MAX_PLAYERS],
            david: NONE,
        }
    }

    #[inline]
    fn node(&self, state: &NuesseState) -> Node {
        match state.stage {
            Stage::FaceUp | Stage::Deal | Stage::Roll | Stage::Refill => Node::Chance,
            Stage::Over => Node::Terminal,
            _ => Node::Decision(state.current_player().unwrap_or(0)),
        }
    }

    fn legal_actions(&self, state: &NuesseState, out: &mut Vec<u32>) {
        match state.stage {
            Stage::Place => Self::push_placements(state, out),
            Stage::Again => {
                if state.available() > 0 {
                    out.push(ROLL_AGAIN);
                }
                out.push(STOP);
                if state.holds_jokers(usize::from(state.player)) {
                    self.push_lays(state, usize::from(state.player), out);
                }
            }
            Stage::Put => {
                if let Some(step) = state.step {
                    let keep = step.context != Context::Jokers;
                    out.extend_from_slice(
                        put_options(&state.stores[usize::from(step.actor)], step.pending, keep).as_slice(),
                    );
                }
            }
            Stage::Take => {
                if let Some(step) = state.step {
                    let space = usize::from(step.space);
                    if RACCOON[space] && self.config.raccoon_optional {
                        out.push(PASS);
                    }
                    let offered = OFFER[space] & self.face_up_mask(state);
                    for slot in 0..SLOTS as u32 {
                        if offered >> slot & 1 != 0 {
                            out.push(TAKE_BASE + slot);
                        }
                    }
                }
            }
            Stage::Steal => {
                if let Some(step) = state.step {
                    if self.config.raccoon_optional {
                        out.push(PASS);
                    }
                    self.push_thefts(state, step.actor, out);
                }
            }
            Stage::Setup => {
                if let Some(step) = state.step {
                    if self.config.optional_setup {
                        out.push(PASS);
                    }
                    for space in SETUP_SPACES {
                        if state.areas[usize::from(space)][usize::from(step.actor)] == 0 {
                            out.push(SETUP_BASE + u32::from(space));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn apply_action(&self, state: &mut NuesseState, action: u32) {
        let Some(action) = Action::of(action) else {
            return;
        };
        match (state.stage, action) {
            (Stage::Place, Action::Place(space)) => {
                state.track |= 1 << space;
                self.again(state);
            }
            (Stage::Again, Action::Stop) => self.end_turn(state),
            (Stage::Again, Action::RollAgain) => {
                state.stage = Stage::Roll;
                state.step = None;
            }
            (Stage::Again, Action::Lay { joker, kind, store }) => {
                let player = usize::from(state.player);
                state.jokers[player][usize::from(joker)] -= 1;
                Self::store(state, player, FIRST_JOKER + joker, kind, usize::from(store));
                self.again(state);
            }
            _ => {
                let Some(step) = state.step else { return };
                match (state.stage, action) {
                    (Stage::Setup, Action::Pass) => self.setup_next(state, step.actor + 1),
                    (Stage::Setup, Action::Setup(space)) => {
                        let seat = usize::from(step.actor);
                        state.areas[usize::from(space)][seat] += 1;
                        state.supply[seat] -= 1;
                        self.setup_next(state, step.actor);
                    }
                    (Stage::Take, Action::Pass) => self.after_refill(state, step),
                    (Stage::Take, Action::Take(slot)) => self.take(state, step, slot),
                    (Stage::Put, Action::Put { kind, store }) => {
                        Self::store(state, usize::from(step.actor), step.pending, kind, usize::from(store));
                        self.after_put(state, step);
                    }
                    (Stage::Put, Action::Keep) => {
                        state.jokers[usize::from(step.actor)][usize::from(step.pending - FIRST_JOKER)] += 1;
                        self.after_put(state, step);
                    }
                    (Stage::Steal, Action::Pass) => self.checks(state, step.space, step.actor),
                    (Stage::Steal, Action::Steal { victim, store }) => self.steal(state, step, victim, store),
                    _ => {}
                }
            }
        }
    }

    fn refusal(&self, state: &NuesseState, action: u32) -> Refusal {
        match Action::of(action).and_then(|action| self.fault(state, action)) {
            Some(rule) => illegal(rule),
            None => Refusal::Illegal { rule: "legal actions", detail: format!("action {action} is not legal here") },
        }
    }

    fn chance_outcomes(&self, state: &NuesseState, out: &mut Vec<(Outcome, Prob)>) -> Result<(), Refusal> {
        match state.stage {
            Stage::Roll => {
                for green in 1..=6 {
                    for white1 in 1..=6 {
                        for white2 in 1..=6 {
                            out.push((Outcome::Dice([green, white1, white2]), Prob::new(1, 216)));
                        }
                    }
                }
            }
            Stage::FaceUp | Stage::Deal | Stage::Refill => {
                let unseen = &state.market.unseen;
                let total: u64 = unseen.iter().map(|&n| u64::from(n)).sum();
                for (card, &count) in unseen.iter().enumerate() {
                    if count > 0 {
                        out.push((Outcome::Draw(card as u8), Prob::new(u64::from(count), total)));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn sample_chance(&self, state: &NuesseState, rng: &mut Rng) -> Outcome {
        if state.stage == Stage::Roll {
            let pick = rand::Rng::gen_range(rng, 0..216u16) as u8;
            return Outcome::Dice([pick / 36 + 1, pick / 6 % 6 + 1, pick % 6 + 1]);
        }
        let unseen = &state.market.unseen;
        let total: u32 = unseen.iter().map(|&n| u32::from(n)).sum();
        let mut pick = rand::Rng::gen_range(rng, 0..total.max(1));
        for (card, &count) in unseen.iter().enumerate() {
            if pick < u32::from(count) {
                return Outcome::Draw(card as u8);
            }
            pick -= u32::from(count);
        }
        Outcome::Draw(0)
    }

    fn apply_outcome(&self, state: &mut NuesseState, outcome: &Outcome) {
        match *outcome {
            Outcome::Dice(dice) => self.apply_dice(state, dice),
            Outcome::Draw(card) => self.apply_draw(state, card),
        }
    }

    #[inline]
    fn random_chance(&self, state: &mut NuesseState, rng: &mut Rng) {
        let outcome = self.sample_chance(state, rng);
        self.apply_outcome(state, &outcome);
    }

    fn check_outcome(&self, state: &NuesseState, outcome: &Outcome) -> Result<(), Refusal> {
        let stage = state.stage;
        let draws = matches!(stage, Stage::FaceUp | Stage::Deal | Stage::Refill);
        let wrong = |expected: &str| {
            if stage == Stage::Over {
                illegal(rule::GAME_OVER)
            } else if !matches!(self.node(state), Node::Chance) {
                illegal(rule::PLAYER_ACTS)
            } else {
                Refusal::Illegal { rule: rule::OTHER_DECISION, detail: expected.to_string() }
            }
        };
        match *outcome {
            Outcome::Dice(dice) => {
                if stage != Stage::Roll {
                    return Err(wrong("a nut card is drawn"));
                }
                if dice.iter().any(|face| !(1..=6).contains(face)) {
                    return Err(illegal(rule::DIE_FACES));
                }
            }
            Outcome::Draw(card) => {
                if !draws || state.step.is_none() {
                    return Err(wrong("the dice are rolled"));
                }
                if usize::from(card) >= CARDS || state.market.unseen[usize::from(card)] == 0 {
                    return Err(illegal(rule::UNSEEN_ONLY));
                }
            }
        }
        Ok(())
    }

    fn outcome_code(&self, outcome: &Outcome, out: &mut Vec<i64>) {
        match *outcome {
            // The dice splitter's items: each die's pips less one, green first.
            Outcome::Dice(dice) => out.extend(dice.iter().map(|&face| i64::from(face) - 1)),
            Outcome::Draw(card) => out.push(i64::from(card)),
        }
    }

    fn outcome_from_code(&self, _state: &NuesseState, code: &[i64]) -> Result<Outcome, Refusal> {
        match *code {
            [green, white1, white2] if [green, white1, white2].iter().all(|item| (0..6).contains(item)) => {
                Ok(Outcome::Dice([green as u8 + 1, white1 as u8 + 1, white2 as u8 + 1]))
            }
            [card] if (0..CARDS as i64).contains(&card) => Ok(Outcome::Draw(card as u8)),
            _ => Err(Refusal::Invalid(format!(
                "{code:?} is no chance outcome of Auf die Nüsse! (three dice 0-5, or a card 0-{})",
                CARDS - 1
            ))),
        }
    }

    fn scores(&self, state: &NuesseState, out: &mut Vec<i64>) {
        out.extend((0..self.config.players).map(|player| self.score_of(state, player)));
    }

    fn winners(&self, state: &NuesseState) -> u32 {
        if state.stage != Stage::Over {
            return 0;
        }
        let players = self.config.players;
        let scores: [i64; MAX_PLAYERS] =
            std::array::from_fn(|p| if p < players { self.score_of(state, p) } else { i64::MIN });
        let top = scores.iter().copied().max().unwrap_or(0);
        let best: [i64; MAX_PLAYERS] = std::array::from_fn(|p| {
            if p < players && scores[p] == top {
                self.best_full_store(&state.stores[p])
            } else {
                i64::MIN
            }
        });
        let most = best.iter().copied().max().unwrap_or(0);
        (0..players).filter(|&p| scores[p] == top && best[p] == most).fold(0, |bits, p| bits | 1 << p)
    }

    fn observe(&self, state: &NuesseState, seat: Option<usize>, out: &mut [f32]) {
        encode::observe(self, state, seat, out);
    }

    fn canonical(&self, state: &NuesseState, out: &mut Vec<i64>) {
        let or_none = |value: u8| if value == NONE { -1 } else { i64::from(value) };
        let players = self.config.players;
        out.push(state.stage as i64);
        out.push(i64::from(state.player));
        out.push(i64::from(state.track));
        out.extend(state.dice.unwrap_or([0; 3]).iter().map(|&face| i64::from(face)));
        match state.step {
            None => out.extend([0, 0, 0, -1, -1, -1, 0]),
            Some(step) => out.extend([
                1,
                step.context as i64,
                i64::from(step.actor),
                or_none(step.space),
                or_none(step.pending),
                or_none(step.refill),
                i64::from(step.theft),
            ]),
        }
        for row in &state.areas {
            out.extend(row[..players].iter().map(|&count| i64::from(count)));
        }
        out.extend(state.supply[..players].iter().map(|&count| i64::from(count)));
        let market = &state.market;
        out.extend(market.face_up.iter().map(|&card| or_none(card)));
        out.extend(market.unseen.iter().map(|&count| i64::from(count)));
        out.extend([i64::from(market.pile), i64::from(market.set_aside), market.ending as i64]);
        for stores in &state.stores[..players] {
            for store in stores {
                out.extend([
                    or_none(store.kind),
                    i64::from(store.nuts),
                    i64::from(store.jokers),
                    i64::from(store.full),
                ]);
            }
        }
        for held in &state.jokers[..players] {
            out.extend(held.iter().map(|&count| i64::from(count)));
        }
        out.push(or_none(state.david));
    }
}
