//! Auweier's state and transitions (`spieltisch/games/auweier/rules.py`) and its
//! [`Rules`] impl.
//!
//! Stages follow the Python game: every player arranges their 22-card deck card by card
//! (`Order`), or has the rest shuffled by chance (`Shuffle`, or `Spread` with the Weddings
//! spread evenly); the hands are dealt and normal turns follow (`Play`). An opening Wedding
//! starts a wedding phase: the wedding stage (`Weddings`), the worm stage (`Worms`), then
//! mating, the clean-up and the refill, and the opener plays on. The game ends with the last
//! egg, or when the player to move in normal play cannot play (option `stuck_player`).

use super::deck;
use super::model::{score_eggs, Config, End, Stage, EGGS_PER_FEMALE};
use super::notation::{
    crow_id, starter_hand, swap_id, wedding_id, worm_id, Card, ARRANGE, CROW, CROW_FOOD, CROW_MOVE, DECK_SIZE,
    FALSE_WORM, KINDS, MAX_STACK, NUM_ACTIONS, PASS, SEATS, SHUFFLE_REST, SPREAD_REST, STARTER, SWAP, WEDDING,
    WEDDING_MOVE, WORM, WORM_CARDS,
};
use crate::core::{Node, Options, Prob, Refusal, Rng, Rules};

/// Eggs one player can hold at most: every egg of four females.
pub(crate) const MOST_EGGS: usize = 12;
/// No award at a female in the last mating.
pub(crate) const NOBODY: u8 = u8::MAX;

/// One player's cards: hand, draw pile and the stacks before the females.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Cards in hand by kind; while the decks are arranged, the cards not placed yet.
    pub hand: [u8; KINDS],
    /// The sum of `hand`.
    pub hand_count: u8,
    /// The draw pile is `pile[pile_head..pile_len]`, the next card to draw first.
    pub pile: [Card; DECK_SIZE],
    pub pile_head: u8,
    pub pile_len: u8,
    /// How many cards at the front of the pile the owner knows the order of.
    pub known: u8,
    /// Cards every player knows to be in this hand.
    pub shown: [u8; KINDS],
    /// The player's cards before each female, bottom first: `stacks[f][..heights[f]]`.
    pub stacks: [[Card; MAX_STACK]; SEATS],
    pub heights: [u8; SEATS],
    /// Derived from the stacks: bit mask of the females where the top card is a Crow's food.
    pub food_top: u8,
    /// Derived from the stacks: bit mask of the females where any card is a Crow's food.
    pub food_any: u8,
    /// Derived from the stacks: the female where the False Worm lies ([`NOBODY`]: none).
    pub false_worm_at: u8,
    /// With `false_worm_limit=always`, in normal play: bit mask of the females the False Worm
    /// has lain before since the last mating (0 otherwise; the Python `Seat.roamed`).
    pub roamed: u8,
}

impl Seat {
    pub(crate) fn new(hand: [u8; KINDS]) -> Seat {
        Seat {
            hand,
            hand_count: hand.iter().sum(),
            pile: [0; DECK_SIZE],
            pile_head: 0,
            pile_len: 0,
            known: 0,
            shown: [0; KINDS],
            stacks: [[0; MAX_STACK]; SEATS],
            heights: [0; SEATS],
            food_top: 0,
            food_any: 0,
            false_worm_at: NOBODY,
            roamed: 0,
        }
    }

    /// The draw pile, the next card first.
    #[inline]
    pub fn pile(&self) -> &[Card] {
        &self.pile[usize::from(self.pile_head)..usize::from(self.pile_len)]
    }

    /// The cards before female `f`, bottom first.
    #[inline]
    pub fn stack(&self, f: usize) -> &[Card] {
        &self.stacks[f][..usize::from(self.heights[f])]
    }

    /// Draw the next card of the pile into the hand, if there is one.
    #[inline]
    fn draw(&mut self) {
        if self.pile_head < self.pile_len {
            let card = self.pile[usize::from(self.pile_head)];
            self.hand[usize::from(card)] += 1;
            self.hand_count += 1;
            self.pile_head += 1;
            self.known = self.known.saturating_sub(1);
        }
    }

    /// A card of kind `card` leaves the hand (and what others knew of the hand).
    #[inline]
    fn play(&mut self, card: Card) {
        let card = usize::from(card);
        self.hand[card] -= 1;
        self.hand_count -= 1;
        if self.shown[card] > 0 {
            self.shown[card] -= 1;
        }
    }

    /// The female where this seat's False Worm lies and its index in her stack, if it does.
    #[inline]
    fn false_worm(&self) -> Option<(usize, usize)> {
        let f = usize::from(self.false_worm_at);
        if f >= SEATS {
            return None;
        }
        self.stack(f).iter().position(|&card| card == FALSE_WORM).map(|index| (f, index))
    }

    /// Work out the Crow's food masks of the stack before `f` again after it changed.
    #[inline]
    pub(crate) fn refresh_food(&mut self, f: usize) {
        let bit = 1u8 << f;
        let stack = &self.stacks[f][..usize::from(self.heights[f])];
        let top = stack.last().is_some_and(|&card| CROW_FOOD[usize::from(card)]);
        let any = stack.iter().any(|&card| CROW_FOOD[usize::from(card)]);
        self.food_top = if top { self.food_top | bit } else { self.food_top & !bit };
        self.food_any = if any { self.food_any | bit } else { self.food_any & !bit };
    }
}

/// A wedding phase in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    /// Who played the opening Wedding (and holds the start player card).
    pub opener: u8,
    /// Each player's Weddings, as a bit mask of females.
    pub weddings: [u8; SEATS],
    /// Bit mask of players who have passed in this stage (or take no part in it).
    pub passed: u8,
    /// Each player's False Worm: bit mask of the females it has lain before in this phase.
    pub seen: [u8; SEATS],
}

/// What the last mating did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mating {
    pub opener: u8,
    /// The Weddings that were down (their stacks were cleared).
    pub weddings: [u8; SEATS],
    /// The player each female gave an egg to ([`NOBODY`]: none); the egg is her `laid`-th.
    pub award: [u8; SEATS],
}

/// A position of Auweier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuweierState {
    pub stage: Stage,
    /// Who acts (whose deck is arranged or shuffled; the last player to move at the end).
    pub player: u8,
    pub seats: [Seat; SEATS],
    /// `totals[female][player]`: the worm total of that player's stack before that female.
    pub totals: [[i16; SEATS]; SEATS],
    pub phase: Option<Phase>,
    /// Eggs each female has given.
    pub laid: [u8; SEATS],
    /// The egg cards each player holds, in the order won, as `female << 2 | eggs`.
    pub won: [[u8; MOST_EGGS]; SEATS],
    pub won_len: [u8; SEATS],
    pub last: Option<Mating>,
    pub end: Option<End>,
}

impl AuweierState {
    /// Player `p`'s egg cards as `(female, eggs)`, in the order won, into `out`; how many.
    pub fn eggs(&self, p: usize, out: &mut [(u8, u8); MOST_EGGS]) -> usize {
        let count = usize::from(self.won_len[p]).min(MOST_EGGS);
        for (slot, &egg) in out.iter_mut().zip(self.won[p][..count].iter()) {
            *slot = (egg >> 2, egg & 3);
        }
        count
    }
}

/// A shuffle's outcome: the cards in the order they will be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shuffled {
    pub cards: [Card; DECK_SIZE],
    pub len: u8,
}

impl Shuffled {
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

/// Auweier for a player count and options.
#[derive(Clone, Debug)]
pub struct Auweier {
    pub config: Config,
}

// The rules an illegal move can break, in the Python game's words (`Rule`).
const GAME_OVER: &str = "the game is over";
const DECKS_FIRST: &str = "the decks are being arranged; cards are played once every deck is ready";
const DECK_STEPS: &str = "deck steps are made only while the decks are being arranged";
const DECK_CARDS: &str = "a deck step places cards that the player has not placed yet";
const STARTER_FIRST: &str = "a ready order arranges the whole deck, so it comes before any card is placed";
const SHUFFLE_SIZE: &str = "a shuffle needs at least two cards still to be placed";
const SPREAD_MIX: &str = "spreading needs Weddings and other cards still to be placed";
const CHANCE_NOW: &str = "chance acts now: cards are being shuffled";
const PLAYER_NOW: &str = "a player acts now; no cards are being shuffled";
const SHUFFLE_CARDS: &str = "a shuffle puts exactly the cards still to be placed in some order";
const SPREAD_EVEN: &str = "this shuffle spreads the Weddings evenly: one in each part of the pile";
const NO_FEMALE: &str = "there is no female of that colour at this table";
const NO_PLAYER: &str = "there is no player of that colour at this table";
const IN_HAND: &str = "a card can only be played from the player's hand";
const CLOSED_NEST: &str = "with closed_nests, a female whose eggs are all gone takes no more cards";
const OPENING: &str = "the opening Wedding goes only before a female where the player has a worm card and a higher worm total than every other player";
const OPENING_TIES: &str = "the opening Wedding goes only before a female where the player has a worm card and no other player has a higher worm total (opening_ties)";
const ONE_WEDDING: &str = "a player places at most one Wedding before each female in a wedding phase";
const WEDDING_STAGE: &str = "in the wedding stage a player places a Wedding or passes";
const WORM_STAGE: &str = "the worm stage has begun: no more Weddings in this wedding phase";
const CROW_PHASE: &str = "Crows cannot be played during a wedding phase (Lucky Eggs allows them)";
const CROW_OPPONENT: &str = "a Crow eats an opponent's worm, never the player's own";
const CROW_NOTHING: &str = "a Crow needs a worm to eat: that player has no card before that female";
const CROW_TOP: &str =
    "a Crow eats the top card of a stack, and only a real worm without a star (never the False Worm, a 2* or a 5*)";
const CROW_DIG: &str =
    "a Crow eats the topmost real worm without a star in a stack (crow_digs), and there is none in this one";
const SWAP_PLACE: &str = "an exchange names a place in the player's own stack before that female";
const SWAP_PAIR: &str = "an exchange swaps the player's False Worm with one of their real worms";
const FALSE_WORM_ONCE: &str = "in a wedding phase a False Worm lies before each female only once";
const FALSE_WORM_ALWAYS: &str =
    "a False Worm lies before each female only once between two matings (false_worm_limit=always)";
const PASS_PHASE: &str = "passing is only possible in a wedding phase; a normal turn plays a card";

fn illegal(rule: &'static str) -> Refusal {
    Refusal::Illegal { rule, detail: String::new() }
}

/// The next player clockwise after `player` who has not passed (`player` again if all the
/// others have).
#[inline]
fn next_go(players: usize, passed: u8, player: usize) -> usize {
    next_after_pass(players, passed, player).unwrap_or(player)
}

/// The next player clockwise after `player` who has not passed; `None` once all have.
#[inline]
fn next_after_pass(players: usize, passed: u8, player: usize) -> Option<usize> {
    (1..players).map(|step| (player + step) % players).find(|&other| passed >> other & 1 == 0)
}

/// The player with the highest total in `column`, or `None` if the highest is shared.
fn leader(column: &[i16]) -> Option<usize> {
    let best = *column.iter().max()?;
    let mut found = None;
    for (p, &total) in column.iter().enumerate() {
        if total == best {
            if found.is_some() {
                return None;
            }
            found = Some(p);
        }
    }
    found
}

/// The index in `stack` of the card a Crow eats there: the top card if it is a real worm
/// without a star, or with `digs` the topmost such worm anywhere; `None` if none.
#[inline]
pub(crate) fn crow_prey(stack: &[Card], digs: bool) -> Option<usize> {
    if !digs {
        return match stack.last() {
            Some(&top) if CROW_FOOD[usize::from(top)] => Some(stack.len() - 1),
            _ => None,
        };
    }
    stack.iter().rposition(|&card| CROW_FOOD[usize::from(card)])
}

/// Whether `hand` holds every one of `cards`.
fn holds(hand: &[u8; KINDS], cards: &[Card]) -> bool {
    let mut need = [0u8; KINDS];
    for &card in cards {
        need[usize::from(card)] += 1;
    }
    need.iter().zip(hand.iter()).all(|(&n, &have)| n <= have)
}

/// The bits set in `mask`, lowest first.
#[inline]
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let bit = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(bit)
    })
}

impl Auweier {
    /// The females that take cards: all, or with `closed_nests` those with eggs left.
    #[inline]
    fn open(&self, s: &AuweierState) -> u8 {
        let config = &self.config;
        if !config.closed_nests {
            return config.all_females;
        }
        let mut open = 0;
        for f in 0..config.females {
            if s.laid[f] < EGGS_PER_FEMALE {
                open |= 1 << f;
            }
        }
        open
    }

    /// The Crows `player` can play, as bits `owner * 4 + female`: on each opponent's stacks
    /// before the `open` females where a Crow finds food.
    fn crow_targets(&self, s: &AuweierState, player: usize, open: u8) -> u32 {
        let digs = self.config.crow_digs;
        let mut targets = 0u32;
        for (owner, seat) in s.seats[..self.config.players].iter().enumerate() {
            if owner != player {
                let food = if digs { seat.food_any } else { seat.food_top };
                targets |= u32::from(food & open) << (owner * SEATS);
            }
        }
        targets
    }

    /// Whether `player` may open a wedding phase before `f`: a worm card there and a total
    /// above every other player's, or with `opening_ties` none above theirs.
    #[inline]
    fn may_open(&self, s: &AuweierState, player: usize, f: usize) -> bool {
        let column = &s.totals[f][..self.config.players];
        let mine = column[player];
        if self.config.opening_ties {
            // none above the player's total (a tie allowed), with a card of theirs there
            return s.seats[player].heights[f] > 0 && column.iter().all(|&total| total <= mine);
        }
        // a positive total above every other player's
        mine > 0 && column.iter().enumerate().all(|(p, &total)| p == player || total < mine)
    }

    /// The females before which `player` may open a wedding phase, as a bit mask.
    fn openings(&self, s: &AuweierState, player: usize, open: u8) -> u8 {
        let mut mask = 0;
        for f in bits(u32::from(open)) {
            if self.may_open(s, player, f) {
                mask |= 1 << f;
            }
        }
        mask
    }

    /// Whether `player` has a legal play on a normal turn.
    pub(crate) fn has_play(&self, s: &AuweierState, player: usize) -> bool {
        let open = self.open(s);
        let seat = &s.seats[player];
        let hand = &seat.hand;
        // a real worm can go before any open female, the False Worm before any it has not lain
        // before since the last mating (`roamed`); with no worm card in hand there is no
        // exchange either (it needs the False Worm or a real worm from the hand)
        let real = hand[..usize::from(FALSE_WORM)].iter().any(|&n| n > 0);
        let false_worm = hand[usize::from(FALSE_WORM)] > 0 && open & !seat.roamed != 0;
        if open != 0 && (real || false_worm) {
            return true;
        }
        (hand[usize::from(CROW)] > 0 && self.crow_targets(s, player, open) != 0)
            || (hand[usize::from(WEDDING)] > 0 && self.openings(s, player, open) != 0)
    }

    /// Worm cards from the hand before the `open` females (the False Worm not before those
    /// in `no_false_worm`).
    fn worm_actions(&self, seat: &Seat, open: u8, no_false_worm: u8, out: &mut Vec<u32>) {
        for card in 0..WORM_CARDS {
            if seat.hand[card] == 0 {
                continue;
            }
            let allowed = if card == usize::from(FALSE_WORM) { open & !no_false_worm } else { open };
            for f in bits(u32::from(allowed)) {
                out.push(worm_id(card, f));
            }
        }
    }

    /// False Worm exchanges: the False Worm from the hand for any card of the player's stacks
    /// (all real worms then), or the False Worm lying there for a real worm from the hand.
    fn swap_actions(&self, seat: &Seat, open: u8, no_false_worm: u8, out: &mut Vec<u32>) {
        if seat.hand[usize::from(FALSE_WORM)] > 0 {
            for f in bits(u32::from(open & !no_false_worm)) {
                for place in 0..usize::from(seat.heights[f]) {
                    out.push(swap_id(f, place, usize::from(FALSE_WORM)));
                }
            }
            return;
        }
        if !seat.hand[..usize::from(FALSE_WORM)].iter().any(|&n| n > 0) {
            return;
        }
        if let Some((f, place)) = seat.false_worm() {
            if open >> f & 1 == 1 {
                for card in 0..usize::from(FALSE_WORM) {
                    if seat.hand[card] > 0 {
                        out.push(swap_id(f, place, card));
                    }
                }
            }
        }
    }

    fn crow_actions(&self, s: &AuweierState, player: usize, open: u8, out: &mut Vec<u32>) {
        for bit in bits(self.crow_targets(s, player, open)) {
            out.push(crow_id(bit / SEATS, bit % SEATS));
        }
    }

    /// A normal turn of `player`; if they have no legal play, the end, or with
    /// `stuck_player=passes` a pass to the next player clockwise who can play (an empty hand
    /// with nothing to draw on the way ends the game, and so does a round where nobody can).
    fn turn(&self, s: &mut AuweierState, player: usize) {
        s.stage = Stage::Play;
        s.phase = None;
        s.player = player as u8;
        if self.has_play(s, player) {
            return;
        }
        let players = self.config.players;
        let mut end = End::NoPlay;
        let mut last = player;
        let seat = &s.seats[player];
        if self.config.stuck_passes && (seat.hand_count > 0 || seat.pile_head < seat.pile_len) {
            end = End::NobodyCanPlay;
            for step in 1..players {
                let other = (player + step) % players;
                if self.has_play(s, other) {
                    s.player = other as u8;
                    return;
                }
                let seat = &s.seats[other];
                if seat.hand_count == 0 && seat.pile_head >= seat.pile_len {
                    end = End::NoPlay;
                    last = other;
                    break;
                }
            }
        }
        s.end = Some(end);
        s.stage = Stage::Over;
        s.player = last as u8;
    }

    /// After a worm, Crow or exchange: the next turn, or the next go in the phase.
    fn after_card(&self, s: &mut AuweierState) {
        let player = usize::from(s.player);
        match s.phase {
            None => self.turn(s, (player + 1) % self.config.players),
            Some(phase) => {
                s.player = next_go(self.config.players, phase.passed, player) as u8;
                if s.stage != Stage::Weddings {
                    s.stage = Stage::Worms;
                }
            }
        }
    }

    /// After a deck step: go on with this deck, the next one, or deal the hands.
    fn arranged(&self, s: &mut AuweierState) {
        let player = usize::from(s.player);
        let config = &self.config;
        if s.seats[player].hand_count > 0 {
            s.stage = Stage::Order;
            return;
        }
        if player + 1 < config.players {
            s.stage = if config.lucky_eggs { Stage::Shuffle } else { Stage::Order };
            s.player += 1;
            return;
        }
        let hand_size = config.hand_size;
        for seat in s.seats[..config.players].iter_mut() {
            seat.hand = [0; KINDS];
            seat.hand_count = 0;
            let known = seat.known;
            for _ in 0..hand_size {
                seat.draw();
            }
            seat.known = known.saturating_sub(hand_size);
            seat.shown = [0; KINDS];
            if config.lucky_eggs {
                for &card in config.lucky_start() {
                    seat.shown[usize::from(card)] = 1;
                }
            }
        }
        self.turn(s, 0);
    }

    /// The False Worm of `player` comes before `f` in the phase under way.
    #[inline]
    fn false_worm_to(s: &mut AuweierState, player: usize, f: usize) {
        if let Some(phase) = s.phase.as_mut() {
            phase.seen[player] |= 1 << f;
        }
    }

    /// In normal play with `false_worm_limit=always`, `player`'s False Worm comes before `f`.
    #[inline]
    fn roams(&self, s: &mut AuweierState, player: usize, f: usize) {
        if s.phase.is_none() && self.config.false_worm_always {
            s.seats[player].roamed |= 1 << f;
        }
    }

    fn apply_worm(&self, s: &mut AuweierState, card: usize, f: usize) {
        let player = usize::from(s.player);
        if card == usize::from(FALSE_WORM) {
            Self::false_worm_to(s, player, f);
            self.roams(s, player, f);
        }
        let draw = s.phase.is_none();
        let seat = &mut s.seats[player];
        seat.play(card as Card);
        if draw {
            seat.draw();
        }
        let height = usize::from(seat.heights[f]);
        if height < MAX_STACK {
            seat.stacks[f][height] = card as Card;
            seat.heights[f] += 1;
        }
        seat.refresh_food(f);
        if card == usize::from(FALSE_WORM) {
            seat.false_worm_at = f as u8;
        }
        s.totals[f][player] += self.config.worm_values[card];
        self.after_card(s);
    }

    fn apply_crow(&self, s: &mut AuweierState, owner: usize, f: usize) {
        let player = usize::from(s.player);
        let victim = &mut s.seats[owner];
        if let Some(index) = crow_prey(victim.stack(f), self.config.crow_digs) {
            let eaten = victim.stacks[f][index];
            let height = usize::from(victim.heights[f]);
            victim.stacks[f].copy_within(index + 1..height, index);
            victim.heights[f] -= 1;
            victim.refresh_food(f);
            s.totals[f][owner] -= self.config.worm_values[usize::from(eaten)];
        }
        let draw = s.phase.is_none();
        let seat = &mut s.seats[player];
        seat.play(CROW);
        if draw {
            seat.draw();
        }
        self.after_card(s);
    }

    fn apply_swap(&self, s: &mut AuweierState, f: usize, place: usize, card: usize) {
        let player = usize::from(s.player);
        if card == usize::from(FALSE_WORM) {
            Self::false_worm_to(s, player, f);
            self.roams(s, player, f);
        }
        let draw = s.phase.is_none() && self.config.exchange_draws;
        let seat = &mut s.seats[player];
        let out = usize::from(seat.stacks[f][place]);
        seat.play(card as Card);
        seat.hand[out] += 1;
        seat.hand_count += 1;
        seat.shown[out] += 1;
        seat.stacks[f][place] = card as Card;
        seat.refresh_food(f);
        seat.false_worm_at = if card == usize::from(FALSE_WORM) { f as u8 } else { NOBODY };
        if draw {
            seat.draw();
        }
        let worth = &self.config.worm_values;
        s.totals[f][player] += worth[card] - worth[out];
        self.after_card(s);
    }

    fn apply_wedding(&self, s: &mut AuweierState, f: usize) {
        let player = usize::from(s.player);
        let phase = match s.phase {
            None => {
                let mut seen = [0u8; SEATS];
                for (mask, seat) in seen.iter_mut().zip(s.seats[..self.config.players].iter()) {
                    if let Some((at, _)) = seat.false_worm() {
                        *mask = 1 << at;
                    }
                }
                let mut weddings = [0u8; SEATS];
                weddings[player] = 1 << f;
                Phase { opener: player as u8, weddings, passed: 0, seen }
            }
            Some(mut phase) => {
                phase.weddings[player] |= 1 << f;
                phase
            }
        };
        s.phase = Some(phase);
        s.seats[player].play(WEDDING);
        s.player = next_go(self.config.players, phase.passed, player) as u8;
        s.stage = Stage::Weddings;
    }

    fn apply_pass(&self, s: &mut AuweierState) {
        let Some(mut phase) = s.phase else { return };
        let players = self.config.players;
        let player = usize::from(s.player);
        let passed = phase.passed | 1 << player;
        if let Some(following) = next_after_pass(players, passed, player) {
            phase.passed = passed;
            s.phase = Some(phase);
            s.player = following as u8;
            return;
        }
        if s.stage == Stage::Weddings {
            let outside = (0..players).filter(|&p| phase.weddings[p] == 0).fold(0u8, |mask, p| mask | 1 << p);
            phase.passed = outside;
            let first =
                if self.config.wedding_onward { next_go(players, outside, player) } else { usize::from(phase.opener) };
            s.phase = Some(phase);
            s.stage = Stage::Worms;
            s.player = first as u8;
            return;
        }
        self.mate(s, phase);
    }

    /// Mating at every female, the clean-up, the refill, and the opener's turn (or the end).
    fn mate(&self, s: &mut AuweierState, phase: Phase) {
        let config = &self.config;
        let players = config.players;
        let weddings = phase.weddings;
        let wedded = weddings[..players].iter().fold(0u8, |mask, &w| mask | w);
        let mut award = [NOBODY; SEATS];
        for f in bits(u32::from(wedded)) {
            if let Some(winner) = leader(&s.totals[f][..players]) {
                if weddings[winner] >> f & 1 == 1 && s.laid[f] < EGGS_PER_FEMALE {
                    s.laid[f] += 1;
                    let count = usize::from(s.won_len[winner]);
                    if count < MOST_EGGS {
                        s.won[winner][count] = (f as u8) << 2 | s.laid[f];
                        s.won_len[winner] += 1;
                    }
                    award[f] = winner as u8;
                }
            }
            for (total, &wedding) in s.totals[f][..players].iter_mut().zip(weddings.iter()) {
                if wedding >> f & 1 == 1 {
                    *total = 0;
                }
            }
        }
        let laid: usize = s.laid[..config.females].iter().map(|&n| usize::from(n)).sum();
        let over = laid == usize::from(EGGS_PER_FEMALE) * config.females;
        s.last = Some(Mating { opener: phase.opener, weddings, award });
        s.phase = None;
        let hand_size = if config.short_refill { config.hand_size - 1 } else { config.hand_size };
        for (p, seat) in s.seats[..players].iter_mut().enumerate() {
            for f in bits(u32::from(weddings[p])) {
                seat.heights[f] = 0;
            }
            seat.food_top &= !weddings[p];
            seat.food_any &= !weddings[p];
            if seat.false_worm_at < SEATS as u8 && weddings[p] >> seat.false_worm_at & 1 == 1 {
                seat.false_worm_at = NOBODY;
            }
            // the False Worm's count starts afresh, the place where it stays counting
            seat.roamed =
                if config.false_worm_always && seat.false_worm_at < SEATS as u8 { 1 << seat.false_worm_at } else { 0 };
            if !over {
                while seat.hand_count < hand_size && seat.pile_head < seat.pile_len {
                    seat.draw();
                }
            }
        }
        if over {
            s.end = Some(End::LastEgg);
            s.stage = Stage::Over;
            s.player = phase.opener;
        } else {
            self.turn(s, usize::from(phase.opener));
        }
    }

    /// The end of a shuffle: its cards, now at the back of the pile, leave the hand.
    fn shuffled(&self, s: &mut AuweierState, cards: usize) {
        let seat = &mut s.seats[usize::from(s.player)];
        seat.pile_len += cards as u8;
        seat.hand = [0; KINDS];
        seat.hand_count = 0;
        seat.shown = [0; KINDS];
        self.arranged(s);
    }

    /// Why `action` is refused here, as the Python game says (a move that is not legal).
    fn refuse(&self, s: &AuweierState, action: u32) -> Refusal {
        let stage = s.stage;
        let refuse_stage = |rule: &'static str| {
            illegal(match stage {
                Stage::Play | Stage::Weddings | Stage::Worms => rule,
                Stage::Over => GAME_OVER,
                Stage::Order => DECKS_FIRST,
                Stage::Shuffle | Stage::Spread => CHANCE_NOW,
            })
        };
        let player = usize::from(s.player);
        let seat = &s.seats[player];
        let config = &self.config;
        let open = self.open(s);
        let check_female = |f: usize| -> Option<Refusal> {
            if open >> f & 1 == 1 {
                None
            } else if f < config.females {
                Some(illegal(CLOSED_NEST))
            } else {
                Some(illegal(NO_FEMALE))
            }
        };
        if action < WORM {
            if stage != Stage::Order {
                let rule = if matches!(stage, Stage::Shuffle | Stage::Spread) {
                    CHANCE_NOW
                } else if stage == Stage::Over {
                    GAME_OVER
                } else {
                    DECK_STEPS
                };
                return illegal(rule);
            }
            return illegal(if action < SHUFFLE_REST {
                DECK_CARDS
            } else if action < STARTER {
                if seat.hand_count < 2 {
                    SHUFFLE_SIZE
                } else {
                    SPREAD_MIX
                }
            } else if seat.pile_len == 0 {
                DECK_CARDS
            } else {
                STARTER_FIRST
            });
        }
        if action < SWAP {
            let card = ((action - WORM) / SEATS as u32) as usize;
            let f = ((action - WORM) % SEATS as u32) as usize;
            if !matches!(stage, Stage::Play | Stage::Worms) {
                return refuse_stage(WEDDING_STAGE);
            }
            if let Some(refusal) = check_female(f) {
                return refusal;
            }
            if seat.hand[card] == 0 {
                return illegal(IN_HAND);
            }
            return illegal(if stage == Stage::Play { FALSE_WORM_ALWAYS } else { FALSE_WORM_ONCE });
        }
        if action < CROW_MOVE {
            let index = (action - SWAP) as usize;
            let f = index / (MAX_STACK * WORM_CARDS);
            let place = index / WORM_CARDS % MAX_STACK;
            let card = index % WORM_CARDS;
            if !matches!(stage, Stage::Play | Stage::Worms) {
                return refuse_stage(WEDDING_STAGE);
            }
            if let Some(refusal) = check_female(f) {
                return refusal;
            }
            let stack = seat.stack(f);
            if place >= stack.len() {
                return illegal(SWAP_PLACE);
            }
            let out = stack[place];
            let pair = (out == FALSE_WORM && card < usize::from(FALSE_WORM))
                || (card == usize::from(FALSE_WORM) && out < FALSE_WORM);
            if !pair {
                return illegal(SWAP_PAIR);
            }
            if seat.hand[card] == 0 {
                return illegal(IN_HAND);
            }
            return illegal(if stage == Stage::Play { FALSE_WORM_ALWAYS } else { FALSE_WORM_ONCE });
        }
        if action < WEDDING_MOVE {
            let owner = ((action - CROW_MOVE) / SEATS as u32) as usize;
            let f = ((action - CROW_MOVE) % SEATS as u32) as usize;
            if stage != Stage::Play && s.phase.is_none() {
                return refuse_stage(CROW_PHASE);
            }
            if s.phase.is_some() && !config.lucky_eggs {
                return illegal(CROW_PHASE);
            }
            if stage == Stage::Weddings && !config.lucky_crows_both {
                return illegal(WEDDING_STAGE);
            }
            if let Some(refusal) = check_female(f) {
                return refusal;
            }
            if owner >= config.players {
                return illegal(NO_PLAYER);
            }
            if owner == player {
                return illegal(CROW_OPPONENT);
            }
            if seat.hand[usize::from(CROW)] == 0 {
                return illegal(IN_HAND);
            }
            if s.seats[owner].heights[f] == 0 {
                return illegal(CROW_NOTHING);
            }
            return illegal(if config.crow_digs { CROW_DIG } else { CROW_TOP });
        }
        if action < PASS {
            let f = (action - WEDDING_MOVE) as usize;
            if !matches!(stage, Stage::Play | Stage::Weddings) {
                return refuse_stage(WORM_STAGE);
            }
            if let Some(refusal) = check_female(f) {
                return refusal;
            }
            if seat.hand[usize::from(WEDDING)] == 0 {
                return illegal(IN_HAND);
            }
            if s.phase.is_none() {
                return illegal(if config.opening_ties { OPENING_TIES } else { OPENING });
            }
            return illegal(ONE_WEDDING);
        }
        refuse_stage(PASS_PHASE)
    }
}

impl Rules for Auweier {
    type State = AuweierState;
    type Outcome = Shuffled;

    const ID: &'static str = "auweier";

    fn new(players: usize, options: &Options) -> Result<Self, Refusal> {
        Ok(Auweier { config: Config::new(players, options)? })
    }

    fn players(&self) -> usize {
        self.config.players
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn observation_size(&self) -> usize {
        super::encode::SIZE
    }

    fn initial_state(&self) -> AuweierState {
        let config = &self.config;
        let mut seat = Seat::new(config.deck);
        let mut stage = Stage::Order;
        if config.lucky_eggs {
            // a Wedding and the False Worm (as far as the deck has them) go into the hand
            // first; the rest is shuffled
            let start = config.lucky_start();
            for &card in start {
                seat.hand[usize::from(card)] -= 1;
                seat.hand_count -= 1;
                seat.pile[usize::from(seat.pile_len)] = card;
                seat.pile_len += 1;
            }
            seat.known = start.len() as u8;
            stage = Stage::Shuffle;
        }
        let mut seats = [Seat::new([0; KINDS]); SEATS];
        for slot in seats[..config.players].iter_mut() {
            *slot = seat;
        }
        AuweierState {
            stage,
            player: 0,
            seats,
            totals: [[0; SEATS]; SEATS],
            phase: None,
            laid: [0; SEATS],
            won: [[0; MOST_EGGS]; SEATS],
            won_len: [0; SEATS],
            last: None,
            end: None,
        }
    }

    #[inline]
    fn node(&self, s: &AuweierState) -> Node {
        match s.stage {
            Stage::Shuffle | Stage::Spread => Node::Chance,
            Stage::Over => Node::Terminal,
            _ => Node::Decision(usize::from(s.player)),
        }
    }

    fn legal_actions(&self, s: &AuweierState, out: &mut Vec<u32>) {
        let player = usize::from(s.player);
        let seat = &s.seats[player];
        let config = &self.config;
        match s.stage {
            Stage::Order => {
                for (card, &n) in seat.hand.iter().enumerate() {
                    if n > 0 {
                        out.push(ARRANGE + card as u32);
                    }
                }
                let left = seat.hand_count;
                if left >= 2 {
                    out.push(SHUFFLE_REST);
                }
                let weddings = seat.hand[usize::from(WEDDING)];
                if 0 < weddings && weddings < left {
                    out.push(SPREAD_REST);
                }
                if seat.pile_len == 0 {
                    for index in 0..(WORM - STARTER) as usize {
                        if holds(&seat.hand, &starter_hand(index)) {
                            out.push(STARTER + index as u32);
                        }
                    }
                }
            }
            Stage::Play => {
                let open = self.open(s);
                self.worm_actions(seat, open, seat.roamed, out);
                self.swap_actions(seat, open, seat.roamed, out);
                if seat.hand[usize::from(CROW)] > 0 {
                    self.crow_actions(s, player, open, out);
                }
                if seat.hand[usize::from(WEDDING)] > 0 {
                    for f in bits(u32::from(self.openings(s, player, open))) {
                        out.push(wedding_id(f));
                    }
                }
            }
            Stage::Weddings => {
                let Some(phase) = s.phase else { return };
                let open = self.open(s);
                if seat.hand[usize::from(CROW)] > 0 && config.lucky_eggs && config.lucky_crows_both {
                    self.crow_actions(s, player, open, out);
                }
                if seat.hand[usize::from(WEDDING)] > 0 {
                    for f in bits(u32::from(open & !phase.weddings[player])) {
                        out.push(wedding_id(f));
                    }
                }
                out.push(PASS);
            }
            Stage::Worms => {
                let Some(phase) = s.phase else { return };
                let open = self.open(s);
                let seen = phase.seen[player];
                self.worm_actions(seat, open, seen, out);
                self.swap_actions(seat, open, seen, out);
                if seat.hand[usize::from(CROW)] > 0 && config.lucky_eggs {
                    self.crow_actions(s, player, open, out);
                }
                out.push(PASS);
            }
            Stage::Shuffle | Stage::Spread | Stage::Over => {}
        }
    }

    fn apply_action(&self, s: &mut AuweierState, action: u32) {
        let player = usize::from(s.player);
        if action < SHUFFLE_REST {
            let seat = &mut s.seats[player];
            let card = (action - ARRANGE) as Card;
            seat.hand[usize::from(card)] -= 1;
            seat.hand_count -= 1;
            seat.pile[usize::from(seat.pile_len)] = card;
            seat.pile_len += 1;
            seat.known = seat.pile_len - seat.pile_head;
            seat.shown = [0; KINDS];
            self.arranged(s);
        } else if action < STARTER {
            s.stage = if action == SPREAD_REST { Stage::Spread } else { Stage::Shuffle };
        } else if action < WORM {
            let seat = &mut s.seats[player];
            for card in starter_hand((action - STARTER) as usize) {
                seat.hand[usize::from(card)] -= 1;
                seat.hand_count -= 1;
                seat.pile[usize::from(seat.pile_len)] = card;
                seat.pile_len += 1;
            }
            seat.known = seat.pile_len - seat.pile_head;
            seat.shown = [0; KINDS];
            s.stage = Stage::Spread;
        } else if action < SWAP {
            let index = (action - WORM) as usize;
            self.apply_worm(s, index / SEATS, index % SEATS);
        } else if action < CROW_MOVE {
            let index = (action - SWAP) as usize;
            self.apply_swap(s, index / (MAX_STACK * WORM_CARDS), index / WORM_CARDS % MAX_STACK, index % WORM_CARDS);
        } else if action < WEDDING_MOVE {
            let index = (action - CROW_MOVE) as usize;
            self.apply_crow(s, index / SEATS, index % SEATS);
        } else if action < PASS {
            self.apply_wedding(s, (action - WEDDING_MOVE) as usize);
        } else {
            self.apply_pass(s);
        }
    }

    fn refusal(&self, s: &AuweierState, action: u32) -> Refusal {
        self.refuse(s, action)
    }

    fn chance_outcomes(&self, s: &AuweierState, out: &mut Vec<(Shuffled, Prob)>) -> Result<(), Refusal> {
        if !matches!(s.stage, Stage::Shuffle | Stage::Spread) {
            return Ok(());
        }
        let hand = &s.seats[usize::from(s.player)].hand;
        let spread = s.stage == Stage::Spread;
        let orders = deck::count_orders(hand, spread);
        if orders > deck::ENUMERATE_LIMIT {
            return Err(Refusal::NotEnumerable(format!("this shuffle has {orders} outcomes; sample it instead")));
        }
        let chance = Prob::new(1, orders as u64);
        deck::for_each_order(hand, spread, |order| {
            let mut cards = [0; DECK_SIZE];
            cards[..order.len()].copy_from_slice(order);
            out.push((Shuffled { cards, len: order.len() as u8 }, chance));
        });
        Ok(())
    }

    fn sample_chance(&self, s: &AuweierState, rng: &mut Rng) -> Shuffled {
        let seat = &s.seats[usize::from(s.player)];
        let len = usize::from(seat.hand_count).min(DECK_SIZE);
        let mut cards = [0; DECK_SIZE];
        deck::sample_order(&seat.hand, s.stage == Stage::Spread, rng, &mut cards[..len]);
        Shuffled { cards, len: len as u8 }
    }

    fn random_chance(&self, s: &mut AuweierState, rng: &mut Rng) {
        let spread = s.stage == Stage::Spread;
        let seat = &mut s.seats[usize::from(s.player)];
        let start = usize::from(seat.pile_len);
        let end = (start + usize::from(seat.hand_count)).min(DECK_SIZE);
        let hand = seat.hand;
        deck::sample_order(&hand, spread, rng, &mut seat.pile[start..end]);
        self.shuffled(s, end - start);
    }

    fn apply_outcome(&self, s: &mut AuweierState, outcome: &Shuffled) {
        let seat = &mut s.seats[usize::from(s.player)];
        let start = usize::from(seat.pile_len);
        let cards = outcome.cards();
        let end = (start + cards.len()).min(DECK_SIZE);
        seat.pile[start..end].copy_from_slice(&cards[..end - start]);
        self.shuffled(s, end - start);
    }

    fn check_outcome(&self, s: &AuweierState, outcome: &Shuffled) -> Result<(), Refusal> {
        match s.stage {
            Stage::Shuffle | Stage::Spread => {}
            Stage::Over => return Err(illegal(GAME_OVER)),
            _ => return Err(illegal(PLAYER_NOW)),
        }
        let mut counts = [0u8; KINDS];
        for &card in outcome.cards() {
            counts[usize::from(card)] += 1;
        }
        if counts != s.seats[usize::from(s.player)].hand {
            return Err(illegal(SHUFFLE_CARDS));
        }
        if s.stage == Stage::Spread && !deck::is_spread(outcome.cards()) {
            return Err(illegal(SPREAD_EVEN));
        }
        Ok(())
    }

    fn outcome_code(&self, outcome: &Shuffled, out: &mut Vec<i64>) {
        out.extend(outcome.cards().iter().map(|&card| i64::from(card)));
    }

    fn outcome_from_code(&self, _s: &AuweierState, code: &[i64]) -> Result<Shuffled, Refusal> {
        if code.len() > DECK_SIZE {
            return Err(Refusal::Invalid(format!(
                "a shuffle puts at most {DECK_SIZE} cards in order, not {}",
                code.len()
            )));
        }
        let mut cards = [0; DECK_SIZE];
        for (slot, &card) in cards.iter_mut().zip(code) {
            if !(0..KINDS as i64).contains(&card) {
                return Err(Refusal::Invalid(format!("{card} is no card kind of Auweier (0 to {})", KINDS - 1)));
            }
            *slot = card as Card;
        }
        Ok(Shuffled { cards, len: code.len() as u8 })
    }

    fn scores(&self, s: &AuweierState, out: &mut Vec<i64>) {
        let mut eggs = [(0, 0); MOST_EGGS];
        for p in 0..self.config.players {
            let count = s.eggs(p, &mut eggs);
            out.push(score_eggs(p, &eggs[..count], self.config.uncounted));
        }
    }

    fn winners(&self, s: &AuweierState) -> u32 {
        if s.stage != Stage::Over {
            return 0;
        }
        let mut scores = [0i64; SEATS];
        let mut eggs = [(0, 0); MOST_EGGS];
        for (p, score) in scores[..self.config.players].iter_mut().enumerate() {
            let count = s.eggs(p, &mut eggs);
            *score = score_eggs(p, &eggs[..count], self.config.uncounted);
        }
        let scores = &scores[..self.config.players];
        let best = scores.iter().copied().max().unwrap_or(0);
        scores.iter().enumerate().filter(|(_, &score)| score == best).fold(0, |mask, (p, _)| mask | 1 << p)
    }

    fn observe(&self, s: &AuweierState, seat: Option<usize>, out: &mut [f32]) {
        super::encode::observe(self, s, seat, out);
    }

    fn canonical(&self, s: &AuweierState, out: &mut Vec<i64>) {
        let config = &self.config;
        let (players, females) = (config.players, config.females);
        out.push(s.stage as i64);
        out.push(i64::from(s.player));
        for seat in &s.seats[..players] {
            out.extend(seat.hand.iter().map(|&n| i64::from(n)));
            out.push(seat.pile().len() as i64);
            out.extend(seat.pile().iter().map(|&card| i64::from(card)));
            out.push(i64::from(seat.known));
            out.extend(seat.shown.iter().map(|&n| i64::from(n)));
            for f in 0..females {
                out.push(seat.stack(f).len() as i64);
                out.extend(seat.stack(f).iter().map(|&card| i64::from(card)));
            }
            out.push(i64::from(seat.roamed));
        }
        for column in &s.totals[..females] {
            out.extend(column[..players].iter().map(|&total| i64::from(total)));
        }
        match s.phase {
            None => out.push(0),
            Some(phase) => {
                out.push(1);
                out.push(i64::from(phase.opener));
                out.extend(phase.weddings[..players].iter().map(|&w| i64::from(w)));
                out.push(i64::from(phase.passed));
                out.extend(phase.seen[..players].iter().map(|&w| i64::from(w)));
            }
        }
        out.extend(s.laid[..females].iter().map(|&n| i64::from(n)));
        let mut eggs = [(0, 0); MOST_EGGS];
        for p in 0..players {
            let count = s.eggs(p, &mut eggs);
            out.push(count as i64);
            for &(female, n) in &eggs[..count] {
                out.push(i64::from(female));
                out.push(i64::from(n));
            }
        }
        match s.last {
            None => out.push(0),
            Some(last) => {
                out.push(1);
                out.push(i64::from(last.opener));
                let awards = last.award[..females].iter().filter(|&&p| p != NOBODY).count();
                out.push(awards as i64);
                for f in 0..females {
                    if last.award[f] != NOBODY {
                        out.extend([i64::from(last.award[f]), f as i64, i64::from(s.laid[f])]);
                    }
                }
                let cleared: u32 = last.weddings[..players].iter().map(|w| w.count_ones()).sum();
                out.push(i64::from(cleared));
                for f in 0..females {
                    for p in 0..players {
                        if last.weddings[p] >> f & 1 == 1 {
                            out.extend([f as i64, p as i64]);
                        }
                    }
                }
            }
        }
        out.push(match s.end {
            None => 0,
            Some(end) => 1 + end as i64,
        });
    }
}
