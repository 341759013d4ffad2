//! Auweier's belief (`spieltisch/games/auweier/belief.py`): a whole state drawn from what one
//! player sees, and the game's search hints.
//!
//! [`Belief`] holds what the sampler reads from an `AuweierView`, read from the flat code
//! `spieltisch.native.auweier.belief_code` packs (its docstring gives the layout);
//! [`state_of`] is the port of the Python `state_of`: other players' hands and piles are dealt
//! from their cards that are neither on the table nor discarded nor known to be in the hand,
//! the viewer's shuffled cards are put in a random order, a deck still being set up by another
//! player has no card placed (a ready one is the whole deck in a random order), and another
//! player due to play a normal turn is dealt again until they hold a card they can play. Every
//! deal that fits the view is equally likely, as in Python.
//!
//! Python's `SearchHints(book=BOOK)` sets no playout policy and no evaluation, so every other
//! hint keeps the [`Kit`] default (random playouts); the book is played before any search, in
//! Python. Pure: every draw from the [`Rng`] passed in.

use rand::Rng as _;

use super::model::{End, Stage, EGGS_PER_FEMALE};
use super::notation::{Card, DECK, DECK_SIZE, FALSE_WORM, KINDS, MAX_STACK, SEATS};
use super::rules::{Auweier, AuweierState, Mating, Phase, Seat, MOST_EGGS, NOBODY};
use crate::core::code::Reader;
use crate::core::{Kit, Refusal, Rng, Rules};

/// Deals tried for a player due to move before giving up (a real view never needs many;
/// Python raises then, and a sampler cannot fail: see [`state_of`]).
pub const MAX_REDEALS: usize = 10_000;

/// What everyone knows about one player (the parts of the Python `PlayerView` the sampler
/// reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// The player's deck is set up.
    pub ready: bool,
    /// Cards in hand (`None` for another player's deck while the decks are set up).
    pub hand_size: Option<u8>,
    /// Cards everyone knows to be in this hand.
    pub shown: [u8; KINDS],
    /// This player's cards that have left the game.
    pub discarded: [u8; KINDS],
    /// Egg cards won, in the order won, as `female << 2 | eggs` (the native state's `won`).
    pub eggs: [u8; MOST_EGGS],
    pub eggs_len: u8,
    /// Females this player has a Wedding before in the wedding phase under way, as a bit mask.
    pub weddings: u8,
    /// Has passed, or takes no part, in the stage of the wedding phase under way.
    pub passed: bool,
    /// Females this player's False Worm has lain before in the phase, as a bit mask.
    pub false_worm_seen: u8,
}

/// What one player (or a spectator) sees of an Auweier table: everything `state_of` reads.
#[derive(Clone, Debug)]
pub struct Belief {
    pub viewer: Option<u8>,
    /// The stage as the viewer sees it (`Order` while another player's deck is set up).
    pub stage: Stage,
    pub player: u8,
    /// Who holds the start player card: the opener of the phase under way, if any.
    pub start_player: u8,
    pub players: [PlayerView; SEATS],
    /// The viewer's hand (`None` for a spectator).
    pub hand: Option<[u8; KINDS]>,
    /// The viewer's next cards to draw, in order: `pile_known[..pile_known_len]`.
    pub pile_known: [Card; DECK_SIZE],
    pub pile_known_len: u8,
    /// The rest of the viewer's pile, shuffled: its order is unknown to them too.
    pub pile_unknown: [u8; KINDS],
    pub last: Option<Mating>,
    pub end: Option<End>,
    /// What everyone sees, as a state: the nests, the stacks, the totals, the phase; every
    /// hand and pile still empty (worked out once, when the code is read).
    public: AuweierState,
    /// Another player's unseen cards (once play has begun), in notation order:
    /// `unseen[p][..unseen_len[p]]`; the first `free[p]` of a deal go to the hand.
    unseen: [[Card; DECK_SIZE]; SEATS],
    unseen_len: [u8; SEATS],
    free: [u8; SEATS],
}

impl Kit for Auweier {
    type Belief = Belief;

    fn belief_from_code(&self, code: &[i64]) -> Result<Belief, Refusal> {
        belief_from_code(self, code)
    }

    fn sample(&self, belief: &Belief, rng: &mut Rng) -> AuweierState {
        sample_state(self, belief, rng)
    }

    fn margin(&self) -> Option<f64> {
        Some(super::bots::MARGIN)
    }
}

/// A state of `game` that shows `belief`'s view to its viewer, with their unseen cards dealt
/// at random (Python's `sample_state`).
pub fn sample_state(game: &Auweier, belief: &Belief, rng: &mut Rng) -> AuweierState {
    state_of(game, belief, rng)
}

/// A state that shows the view to its viewer, with what they cannot see drawn at random: see
/// the module docs and Python's `state_of`.
pub fn state_of(game: &Auweier, belief: &Belief, rng: &mut Rng) -> AuweierState {
    let mut state = belief.public;
    for p in 0..game.config.players {
        if belief.viewer == Some(p as u8) {
            own_seat(belief, &mut state.seats[p], rng);
        } else {
            other_seat(game, belief, p, &mut state.seats[p], rng);
        }
    }
    let mover = usize::from(belief.player);
    if belief.stage != Stage::Play || belief.viewer == Some(belief.player) {
        return state;
    }
    for _ in 0..MAX_REDEALS {
        if game.has_play(&state, mover) {
            return state;
        }
        other_seat(game, belief, mover, &mut state.seats[mover], rng);
    }
    if !game.has_play(&state, mover) {
        // no view of a game in progress gets here (Python raises): a world the rules can
        // still step, the game over as if the player had had no play
        state.stage = Stage::Over;
        state.end = Some(End::NoPlay);
    }
    state
}

/// The viewer's seat: their hand, the pile's known part in order and its shuffled part in a
/// random order.
fn own_seat(belief: &Belief, seat: &mut Seat, rng: &mut Rng) {
    let hand = belief.hand.unwrap_or([0; KINDS]);
    let known = usize::from(belief.pile_known_len);
    seat.pile[..known].copy_from_slice(&belief.pile_known[..known]);
    let length = known + cards_of(&belief.pile_unknown, &mut seat.pile[known..]);
    shuffle(&mut seat.pile[known..length], rng);
    let viewer = usize::from(belief.viewer.unwrap_or(0));
    deal(seat, hand, length, known, belief.players[viewer].shown);
}

/// Another player's seat: while the decks are set up, no card placed or (ready) the whole
/// deck in a random order; then their unseen cards dealt at random to the hand (beside the
/// cards shown) and the pile.
fn other_seat(game: &Auweier, belief: &Belief, p: usize, seat: &mut Seat, rng: &mut Rng) {
    let info = &belief.players[p];
    if belief.stage.is_setup() {
        let start: &[Card] = if game.config.lucky_eggs { game.config.lucky_start() } else { &[] };
        let mut rest = game.config.deck;
        for &card in start {
            rest[usize::from(card)] -= 1;
        }
        seat.pile[..start.len()].copy_from_slice(start);
        if info.ready {
            let length = start.len() + cards_of(&rest, &mut seat.pile[start.len()..]);
            shuffle(&mut seat.pile[start.len()..length], rng);
            deal(seat, [0; KINDS], length, start.len(), [0; KINDS]);
        } else {
            deal(seat, rest, start.len(), start.len(), [0; KINDS]);
        }
        return;
    }
    let length = usize::from(belief.unseen_len[p]);
    let free = usize::from(belief.free[p]);
    let cards = &mut seat.pile[..length];
    cards.copy_from_slice(&belief.unseen[p][..length]);
    shuffle(cards, rng);
    let mut hand = info.shown;
    for &card in &cards[..free] {
        hand[usize::from(card)] += 1;
    }
    cards.copy_within(free.., 0);
    deal(seat, hand, length - free, 0, info.shown);
}

/// `seat` with this hand, its pile `pile[..length]`, `known` cards of it known in order, and
/// these cards shown.
fn deal(seat: &mut Seat, hand: [u8; KINDS], length: usize, known: usize, shown: [u8; KINDS]) {
    seat.hand = hand;
    seat.hand_count = hand.iter().sum();
    seat.pile_head = 0;
    seat.pile_len = length as u8;
    seat.known = known as u8;
    seat.shown = shown;
}

/// The cards `counts` holds, in notation order, written to the front of `out`; how many.
fn cards_of(counts: &[u8; KINDS], out: &mut [Card]) -> usize {
    let mut length = 0;
    for (kind, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            out[length] = kind as Card;
            length += 1;
        }
    }
    length
}

/// `cards` in a uniformly random order (Fisher-Yates; Python sorts by random keys, the same
/// distribution).
fn shuffle(cards: &mut [Card], rng: &mut Rng) {
    for last in (1..cards.len()).rev() {
        let pick = rng.gen_range(0..=last);
        cards.swap(last, pick);
    }
}

// --- reading the code -----------------------------------------------------------------------

fn card(read: &mut Reader<'_>) -> Result<Card, Refusal> {
    read.small("a card", 0, KINDS as u8 - 1)
}

/// Counts per card kind, each at most a deck's.
fn counts(read: &mut Reader<'_>, what: &str) -> Result<[u8; KINDS], Refusal> {
    let mut counts = [0; KINDS];
    for (count, &most) in counts.iter_mut().zip(DECK.iter()) {
        *count = read.small(what, 0, most)?;
    }
    Ok(counts)
}

fn invalid(text: String) -> Refusal {
    Refusal::Invalid(text)
}

/// The most a worm total can be: a whole deck's worms at the highest worm value.
const MOST_TOTAL: i64 = DECK_SIZE as i64 * 20;

/// The belief of a code `belief_code` packed (see its docstring for the layout), checked
/// against `game`: [`Refusal::Invalid`] for a code that is no view of this game, or one whose
/// unseen cards cannot be dealt.
pub fn belief_from_code(game: &Auweier, code: &[i64]) -> Result<Belief, Refusal> {
    let config = &game.config;
    let (players, females) = (config.players, config.females);
    let top = players as u8 - 1;
    let mut read = Reader::new("the belief code", code);
    if read.next("the player count", 2, SEATS as i64)? as usize != players {
        return Err(invalid(format!("the belief code is of another player count than {players}")));
    }
    let viewer = read.next("the viewer", -1, i64::from(top))?;
    let viewer = u8::try_from(viewer).ok();
    let stage = stage_of(read.small("the stage", 0, Stage::Over as u8)?);
    let player = read.small("the player", 0, top)?;
    let start_player = read.small("the start player", 0, top)?;
    let mut public = game.initial_state();
    public.stage = stage;
    public.player = player;
    for seat in public.seats[..players].iter_mut() {
        *seat = Seat::new([0; KINDS]);
    }
    for f in 0..females {
        public.laid[f] = read.small("eggs laid", 0, EGGS_PER_FEMALE)?;
        for p in 0..players {
            public.totals[f][p] = read.next("a worm total", -MOST_TOTAL, MOST_TOTAL)? as i16;
            let seat = &mut public.seats[p];
            let height = read.small("a stack's height", 0, MAX_STACK as u8)?;
            for place in 0..usize::from(height) {
                seat.stacks[f][place] = card(&mut read)?;
            }
            seat.heights[f] = height;
            seat.refresh_food(f);
            if seat.stack(f).contains(&FALSE_WORM) {
                seat.false_worm_at = f as u8;
            }
        }
    }
    let masks = (1u8 << females) - 1;
    let mut infos = [PlayerView {
        ready: false,
        hand_size: None,
        shown: [0; KINDS],
        discarded: [0; KINDS],
        eggs: [0; MOST_EGGS],
        eggs_len: 0,
        weddings: 0,
        passed: false,
        false_worm_seen: 0,
    }; SEATS];
    for (p, info) in infos[..players].iter_mut().enumerate() {
        info.ready = read.flag("ready")?;
        let size = read.next("a hand size", -1, DECK_SIZE as i64)?;
        info.hand_size = u8::try_from(size).ok();
        info.shown = counts(&mut read, "a card shown")?;
        info.discarded = counts(&mut read, "a card discarded")?;
        info.weddings = read.small("Weddings", 0, masks)?;
        info.passed = read.flag("passed")?;
        info.false_worm_seen = read.small("False Worm sightings", 0, masks)?;
        info.eggs_len = read.small("egg cards won", 0, MOST_EGGS as u8)?;
        for egg in info.eggs[..usize::from(info.eggs_len)].iter_mut() {
            let female = read.small("an egg card's female", 0, females as u8 - 1)?;
            *egg = female << 2 | read.small("an egg card's eggs", 1, EGGS_PER_FEMALE)?;
        }
        public.won[p] = info.eggs;
        public.won_len[p] = info.eggs_len;
        if !matches!(stage, Stage::Weddings | Stage::Worms) {
            // with false_worm_limit=always, where the False Worm has lain since the last mating
            public.seats[p].roamed = info.false_worm_seen;
        }
    }
    let (mut hand, mut pile_known, mut pile_known_len, mut pile_unknown) = (None, [0; DECK_SIZE], 0, [0; KINDS]);
    if viewer.is_some() {
        hand = Some(counts(&mut read, "a card in hand")?);
        pile_known_len = read.small("the known pile's length", 0, DECK_SIZE as u8)?;
        for known in pile_known[..usize::from(pile_known_len)].iter_mut() {
            *known = card(&mut read)?;
        }
        pile_unknown = counts(&mut read, "a shuffled card")?;
    }
    public.last = read_last(&mut read, players, females, &public.laid)?;
    public.end = match read.small("the end", 0, End::NobodyCanPlay as u8 + 1)? {
        0 => None,
        1 => Some(End::LastEgg),
        2 => Some(End::NoPlay),
        _ => Some(End::NobodyCanPlay),
    };
    if read.at != code.len() {
        return Err(invalid(format!("the belief code has {} numbers after its end", code.len() - read.at)));
    }
    if matches!(stage, Stage::Weddings | Stage::Worms) {
        let mut phase = Phase { opener: start_player, weddings: [0; SEATS], passed: 0, seen: [0; SEATS] };
        for (p, info) in infos[..players].iter().enumerate() {
            phase.weddings[p] = info.weddings;
            phase.passed |= u8::from(info.passed) << p;
            phase.seen[p] = info.false_worm_seen;
        }
        public.phase = Some(phase);
    }
    let mut belief = Belief {
        viewer,
        stage,
        player,
        start_player,
        players: infos,
        hand,
        pile_known,
        pile_known_len,
        pile_unknown,
        last: public.last,
        end: public.end,
        public,
        unseen: [[0; DECK_SIZE]; SEATS],
        unseen_len: [0; SEATS],
        free: [0; SEATS],
    };
    check_cards(game, &mut belief)?;
    Ok(belief)
}

/// The stage of its native number (checked to be one).
fn stage_of(number: u8) -> Stage {
    [Stage::Order, Stage::Shuffle, Stage::Spread, Stage::Play, Stage::Weddings, Stage::Worms, Stage::Over]
        [usize::from(number).min(6)]
}

/// The last mating: 0, or 1, its opener, its awards `(player, female, eggs)` and its cleared
/// stacks `(female, player)`; an award is the female's latest egg, so `eggs` is her `laid`.
fn read_last(read: &mut Reader, players: usize, females: usize, laid: &[u8; SEATS]) -> Result<Option<Mating>, Refusal> {
    if !read.flag("whether a mating was")? {
        return Ok(None);
    }
    let top = players as u8 - 1;
    let mut last = Mating { opener: read.small("the opener", 0, top)?, weddings: [0; SEATS], award: [NOBODY; SEATS] };
    let awards = read.small("awards", 0, females as u8)?;
    for _ in 0..awards {
        let winner = read.small("an award's player", 0, top)?;
        let female = usize::from(read.small("an award's female", 0, females as u8 - 1)?);
        let eggs = read.small("an award's eggs", 1, EGGS_PER_FEMALE)?;
        if last.award[female] != NOBODY || eggs != laid[female] {
            return Err(invalid(format!("an award of female {female} that is not her latest egg")));
        }
        last.award[female] = winner;
    }
    let cleared = read.small("cleared stacks", 0, (players * females) as u8)?;
    for _ in 0..cleared {
        let female = read.small("a cleared stack's female", 0, females as u8 - 1)?;
        let owner = usize::from(read.small("a cleared stack's player", 0, top)?);
        last.weddings[owner] |= 1 << female;
    }
    Ok(Some(last))
}

/// Check that the cards add up to a deck for every seat, and work out the unseen cards of
/// every other player once play has begun (their number less the free places in the hand
/// goes to the pile).
fn check_cards(game: &Auweier, belief: &mut Belief) -> Result<(), Refusal> {
    let setup = belief.stage.is_setup();
    let deck = game.config.deck;
    for p in 0..game.config.players {
        let seat = &belief.public.seats[p];
        let info = &belief.players[p];
        let mut placed = [0u8; KINDS];
        for f in 0..game.config.females {
            for &card in seat.stack(f) {
                placed[usize::from(card)] += 1;
            }
        }
        if belief.viewer == Some(p as u8) {
            let hand = belief.hand.unwrap_or([0; KINDS]);
            let mut held = placed;
            for &card in &belief.pile_known[..usize::from(belief.pile_known_len)] {
                held[usize::from(card)] += 1;
            }
            for kind in 0..KINDS {
                let sum = u32::from(held[kind] + hand[kind] + belief.pile_unknown[kind] + info.discarded[kind]);
                if sum != u32::from(deck[kind]) || info.shown[kind] > hand[kind] {
                    return Err(invalid(format!("the viewer's cards of kind {kind} are no deck's")));
                }
            }
            continue;
        }
        if setup {
            continue;
        }
        let Some(hand_size) = info.hand_size else {
            return Err(invalid(format!("play has begun, and the hand size of player {p} is unknown")));
        };
        let mut length = 0;
        for kind in 0..KINDS {
            let known = u32::from(placed[kind]) + u32::from(info.discarded[kind]) + u32::from(info.shown[kind]);
            let Some(left) = u32::from(deck[kind]).checked_sub(known) else {
                return Err(invalid(format!("player {p} has more cards of kind {kind} than a deck")));
            };
            for _ in 0..left {
                belief.unseen[p][length] = kind as Card;
                length += 1;
            }
        }
        let shown: u8 = info.shown.iter().sum();
        let free = hand_size.checked_sub(shown).filter(|&free| usize::from(free) <= length);
        let Some(free) = free else {
            return Err(invalid(format!("player {p}'s hand of {hand_size} cannot hold the cards shown and unseen")));
        };
        belief.unseen_len[p] = length as u8;
        belief.free[p] = free;
    }
    Ok(())
}
