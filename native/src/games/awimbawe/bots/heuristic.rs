//! Awimbawé's heuristic agent (mirrors `spieltisch/games/awimbawe/bots/heuristic.py`): every
//! legal move is given a worth in crowns (answers by what they bring in, leads by the chance of
//! taking the trick, powers by the harm of the card they strike) and the best is played, ties
//! going to the first in the legal order (action ids, as Python lists them).
//!
//! View discipline: the agent first copies out of the state what the acting seat's view shows
//! ([`Seen`]: its own hand and blocks; both sides' piles with face-down cards as [`FACE_DOWN`];
//! the opponent's hand size, the blocks it can name and how many it cannot, the cards a shown
//! blind pick revealed and the lands the opponent was found without; the trick, the leader, the
//! cards played this round and each scoring pile's crowns and hyenas), and reckons from that
//! alone. The floats are worked out in the order Python works them out, so the scores, and the
//! moves, are the same to the bit.

use super::super::model::{
    crowns, land, land_bit, land_cards, value, Stage, BLOCK_BASE, BLOCK_HAND, DECLINE_ID, EAGLE_BITS, FIRST_EAGLE,
    HYENA_BITS, LEAD_ME, LEAD_OPPONENT, MAX_PILE, NUM_CARDS, NUM_PILES, PLAY_FIGHT_BASE, PLAY_FLEE_BASE, RHINO_BASE,
};
use super::super::rules::{rhino_of, Awimbawe, AwimbaweState};
use crate::agents::play::Agent;
use crate::core::{Rng, Rules};

/// How much holding 0-3 hyenas weighs against a player, in crowns (`HYENA_RISK`).
pub const HYENA_RISK: [f64; 4] = [0.0, 1.0, 4.0, 12.0];
/// What taking the fourth hyena costs, in crowns: the round.
pub const FOURTH_HYENA: f64 = 40.0;
/// The crowns an unknown answer to a lead is reckoned to carry.
pub const AVERAGE_ANSWER: f64 = 1.5;
/// How likely an opponent who can throw a hyena on a trick I take is reckoned to do it.
pub const DUMPING: f64 = 1.0;
/// Crowns that win a round played out.
pub const MAJORITY: i32 = 23;
/// What reaching the majority is worth beyond its crowns.
pub const MAJORITY_BONUS: f64 = 10.0;
/// A pile card lying face down, as [`Seen`] holds it (the view's `None`).
pub const FACE_DOWN: u8 = u8::MAX;

/// The heuristic: deterministic, so it draws nothing from its generator.
pub struct HeuristicAgent;

impl Agent<Awimbawe> for HeuristicAgent {
    fn act(&self, rules: &Awimbawe, state: &AwimbaweState, seat: usize, _rng: &mut Rng, scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        rules.legal_actions(state, scratch);
        let seen = Seen::of(rules, state, seat);
        choose(&seen, scratch)
    }
}

/// The first of the best-scored of `legal` (Python's sort by worth, then legal order).
pub fn choose(seen: &Seen, legal: &[u32]) -> u32 {
    let reading = Reading::of(seen);
    let mut best = (legal.first().copied().unwrap_or(DECLINE_ID), f64::NEG_INFINITY);
    for &action in legal {
        let worth = score(seen, &reading, action);
        if worth > best.1 {
            best = (action, worth);
        }
    }
    best.0
}

/// One pile as the viewer sees it, bottom first, face-down cards as [`FACE_DOWN`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SeenPile {
    pub cards: [u8; MAX_PILE],
    pub len: u8,
}

impl SeenPile {
    /// The top card as seen (`Some(FACE_DOWN)` for a face-down one), if the pile holds any.
    fn top(&self) -> Option<u8> {
        (self.len > 0).then(|| self.cards[self.len as usize - 1])
    }

    /// The face-up cards, as bits.
    fn face_up(&self) -> u32 {
        self.cards[..self.len as usize].iter().filter(|&&c| c != FACE_DOWN).fold(0, |bits, &c| bits | 1 << c)
    }
}

/// What one seat's view shows, as far as the heuristic reads it (the fields of `AwimbaweView`
/// and its `SideView`s it uses; nothing else of the state).
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    pub me: usize,
    pub stage: Stage,
    /// Who leads the current trick.
    pub leader: usize,
    pub trick: [u8; 2],
    pub trick_len: u8,
    /// The cards of the earlier tricks of this round, as bits (`view.played`).
    pub played: u32,
    /// My hand, as bits.
    pub hand: u32,
    /// Both sides' piles, seat by seat.
    pub piles: [[SeenPile; NUM_PILES]; 2],
    /// The blocked cards I can name, seat by seat (all of mine; the opponent's pile tops, and
    /// their hand cards when blind picks are shown).
    pub blocked: [u32; 2],
    /// The opponent's blocked hand cards I cannot name.
    pub their_blocked_unseen: u32,
    pub their_hand_size: u32,
    /// The opponent's hand cards a shown blind pick revealed, as bits.
    pub their_shown: u32,
    /// The lands the opponent holds no hand card of besides the shown ones, as land bits.
    pub their_void: u8,
    /// Crowns and hyenas taken this round, seat by seat.
    pub crowns: [i32; 2],
    pub hyenas: [u32; 2],
    /// The cards in play, as bits (all 28 but with fewer lands).
    pub deck: u32,
    /// The hyenas fewer than the rulebook's four that lose a round with fewer lands (the
    /// reading counts the hyenas taken as the last ones of four).
    pub short: u32,
}

impl Seen {
    /// What `seat` sees of `state` (`view_of` and `_side_view` in `rules.py`).
    pub fn of(rules: &Awimbawe, state: &AwimbaweState, seat: usize) -> Seen {
        let them = 1 - seat;
        let mut piles = [[SeenPile::default(); NUM_PILES]; 2];
        for (p, side) in state.sides.iter().enumerate() {
            for (index, pile) in side.piles.iter().enumerate() {
                let seen = &mut piles[p][index];
                seen.len = pile.len;
                for (slot, &card) in seen.cards.iter_mut().zip(pile.cards()) {
                    *slot = if side.down >> card & 1 != 0 { FACE_DOWN } else { card };
                }
            }
        }
        let theirs = &state.sides[them];
        let nameable = if rules.config.blind_pick_shown { theirs.blocked } else { theirs.blocked & !theirs.hand };
        let mut blocked = [0; 2];
        blocked[seat] = state.sides[seat].blocked;
        blocked[them] = nameable;
        let tallies = &state.tallies;
        Seen {
            me: seat,
            stage: state.stage,
            leader: usize::from(state.leader()),
            trick: state.trick,
            trick_len: state.trick_len,
            played: state.played,
            hand: state.sides[seat].hand,
            piles,
            blocked,
            their_blocked_unseen: (theirs.blocked & !nameable).count_ones(),
            their_hand_size: theirs.hand.count_ones(),
            their_shown: state.memory.shown[them],
            their_void: state.memory.void[them],
            crowns: [i32::from(tallies[0].crowns), i32::from(tallies[1].crowns)],
            hyenas: [u32::from(tallies[0].hyenas), u32::from(tallies[1].hyenas)],
            deck: rules.config.deck(),
            short: 4 - u32::from(rules.config.hyenas_to_lose()),
        }
    }

    fn them(&self) -> usize {
        1 - self.me
    }

    fn trick(&self) -> &[u8] {
        &self.trick[..self.trick_len as usize]
    }

    /// The face-up top cards of `seat`'s piles, as bits.
    fn tops(&self, seat: usize) -> u32 {
        self.piles[seat].iter().filter_map(SeenPile::top).filter(|&c| c != FACE_DOWN).fold(0, |bits, c| bits | 1 << c)
    }

    /// The led card, when I led the trick under way and it waits for its answer.
    fn my_lead(&self) -> Option<u8> {
        (self.trick_len == 1 && self.leader == self.me).then_some(self.trick[0])
    }
}

/// Whether `answer`, of the led land, takes the trick from `led` (`answer_beats`: not the
/// rulebook's `leader_wins`, so, as in Python, a card counts as beating itself).
pub const fn answer_beats(led: u8, answer: u8) -> bool {
    if land(led) != land(answer) {
        return false;
    }
    let (lv, fv) = (value(led), value(answer));
    if lv == 1 && fv == 6 {
        return false; // the mouse beats the elephant of its land
    }
    if lv == 6 && fv == 1 {
        return true;
    }
    fv >= lv
}

/// By led card: the cards that beat it, as bits.
const BEATERS: [u32; NUM_CARDS] = {
    let mut table = [0u32; NUM_CARDS];
    let mut led = 0;
    while led < NUM_CARDS {
        let mut answer = 0;
        while answer < NUM_CARDS {
            if answer_beats(led as u8, answer as u8) {
                table[led] |= 1 << answer;
            }
            answer += 1;
        }
        led += 1;
    }
    table
};

/// How well the round stands for me, in crowns (`standing`).
pub fn standing(crowns: (i32, i32), hyenas: (u32, u32)) -> f64 {
    let (mine, theirs) = crowns;
    let mut worth = f64::from(mine.min(MAJORITY) - theirs.min(MAJORITY));
    worth += MAJORITY_BONUS * f64::from(i32::from(mine >= MAJORITY) - i32::from(theirs >= MAJORITY));
    worth + hyena_weight(hyenas.0, hyenas.1)
}

/// What the hyenas taken weigh for me, in crowns (`hyena_weight`).
pub fn hyena_weight(mine: u32, theirs: u32) -> f64 {
    let mut worth = 0.0;
    if mine >= 4 {
        worth -= FOURTH_HYENA;
    } else if theirs == 0 {
        worth -= HYENA_RISK[mine as usize];
    }
    if theirs >= 4 {
        worth += FOURTH_HYENA;
    } else if mine == 0 {
        worth += HYENA_RISK[theirs as usize];
    }
    worth
}

/// `n` choose `k` (exact: the deck is small).
fn comb(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..u64::from(k)).fold(1u64, |product, i| product * (u64::from(n) - i) / (i + 1))
}

/// What the heuristic reads off the view (`Reading`); sets of cards as bits.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    pub me: usize,
    pub them: usize,
    /// The opponent's cards I know they may play: unblocked face-up tops and shown cards.
    pub their_cards: u32,
    /// Cards I have not seen that the opponent may hold in hand.
    pub unseen: u32,
    /// How many of the opponent's hand cards I cannot name.
    pub hidden: u32,
    /// Hyenas taken: mine, theirs.
    pub hyenas: (u32, u32),
    /// Crowns taken this round: mine, theirs.
    pub crowns: (i32, i32),
    /// Cards not yet played or seen in my own hand.
    pub live: u32,
}

impl Reading {
    /// The reading of a seat's view (`read`).
    pub fn of(seen: &Seen) -> Reading {
        let (me, them) = (seen.me, seen.them());
        let mut seen_cards = seen.played | seen.hand | seen.their_shown;
        for &card in seen.trick() {
            seen_cards |= 1 << card;
        }
        for side in &seen.piles {
            for pile in side {
                seen_cards |= pile.face_up();
            }
        }
        let known = (seen.tops(them) | seen.their_shown) & !seen.blocked[them];
        let mut unseen = 0u32;
        for card in 0..NUM_CARDS as u8 {
            if seen_cards >> card & 1 == 0 && seen.their_void & land_bit(card) == 0 && seen.deck >> card & 1 != 0 {
                unseen |= 1 << card;
            }
        }
        let all = seen.deck;
        let hidden = i64::from(seen.their_hand_size)
            - i64::from(seen.their_shown.count_ones())
            - i64::from(seen.their_blocked_unseen);
        Reading {
            me,
            them,
            their_cards: known,
            unseen,
            hidden: hidden.max(0) as u32,
            hyenas: (seen.hyenas[me] + seen.short, seen.hyenas[them] + seen.short),
            crowns: (seen.crowns[me], seen.crowns[them]),
            live: (all & !seen_cards) | known,
        }
    }

    /// The chance that the opponent can play one of `wanted` (`holds_any`).
    pub fn holds_any(&self, wanted: u32) -> f64 {
        if wanted & self.their_cards != 0 {
            return 1.0;
        }
        let count = (self.unseen & wanted).count_ones();
        let (pool, hand) = (self.unseen.count_ones(), self.hidden);
        if count == 0 || hand == 0 {
            return 0.0;
        }
        if hand > pool - count {
            return 1.0;
        }
        1.0 - comb(pool - count, hand) as f64 / comb(pool, hand) as f64
    }

    /// What keeping `card` for later is worth, in crowns (`strength`).
    pub fn strength(&self, card: u8) -> f64 {
        if card >= FIRST_EAGLE {
            return 1.2 + 0.3 * f64::from(value(card) - 7);
        }
        let (mine, theirs) = self.hyenas;
        if value(card) == 4 && mine >= 2 && theirs == 0 {
            return -HYENA_RISK[mine.min(3) as usize];
        }
        let beaters = (self.live & BEATERS[card as usize]).count_ones();
        let mut worth = 0.9 * (1.0 - f64::from(beaters) / 5.0);
        if value(card) == 1 && self.live >> (card + 5) & 1 != 0 {
            worth += 0.4; // the mouse still has prey
        }
        worth
    }

    /// The chance that leading `card` takes the trick (`win_chance`).
    pub fn win_chance(&self, card: u8, power: bool, ducking: bool) -> f64 {
        let mut beaters = BEATERS[card as usize] & self.live;
        let visible = beaters & self.their_cards;
        if power && visible.count_ones() == 1 {
            beaters &= !visible;
        }
        let beat = self.holds_any(beaters);
        let others = self.live & land_cards(land(card)) & !beaters;
        let follow = self.holds_any(others);
        if ducking {
            return 1.0 - beat * (1.0 - follow);
        }
        if card >= FIRST_EAGLE {
            return 1.0 - beat;
        }
        let eagle = self.holds_any(self.live & EAGLE_BITS);
        (1.0 - beat) * (follow + (1.0 - follow) * (1.0 - eagle))
    }

    /// The chance that the opponent answers `card`, led, with a hyena it beats (`dump_chance`).
    pub fn dump_chance(&self, card: u8) -> f64 {
        let hyenas = self.live & HYENA_BITS;
        let eagles = self.live & EAGLE_BITS;
        if card >= FIRST_EAGLE {
            return 0.5 * self.holds_any(hyenas) * (1.0 - self.holds_any(eagles));
        }
        let mut chance = 0.0;
        if value(card) != 4 {
            let own = card / 6 * 6 + 3;
            if self.live >> own & 1 != 0 && answer_beats(own, card) {
                chance = DUMPING * self.holds_any(1 << own);
            }
        }
        let lands = self.live & land_cards(land(card));
        let cannot = (1.0 - self.holds_any(lands)) * (1.0 - self.holds_any(eagles));
        f64::min(1.0, chance + DUMPING * cannot * self.holds_any(hyenas))
    }
}

/// What `action` is worth to the viewer, in crowns (`HeuristicAgent.score`).
pub fn score(seen: &Seen, reading: &Reading, action: u32) -> f64 {
    if action < RHINO_BASE {
        let (card, flee, fight) = if action < PLAY_FIGHT_BASE {
            (action as u8, false, false)
        } else if action < PLAY_FLEE_BASE {
            ((action - PLAY_FIGHT_BASE) as u8 + FIRST_EAGLE, false, true)
        } else {
            ((action - PLAY_FLEE_BASE) as u8 + FIRST_EAGLE, true, false)
        };
        return match seen.trick().first() {
            Some(&led) => answer_score(reading, led, card, flee, fight),
            None => lead_score(reading, card),
        };
    }
    if action < BLOCK_BASE {
        let (source, dest) = rhino_of(action);
        return rhino_score(seen, reading, source, dest);
    }
    if action < DECLINE_ID {
        let pile = (action != BLOCK_HAND).then(|| (action - BLOCK_BASE) as usize);
        return block_score(seen, reading, pile);
    }
    if action == LEAD_ME || action == LEAD_OPPONENT {
        let me = action == LEAD_ME;
        if seen.stage == Stage::ChooseLeader {
            return if me { 1.0 } else { 0.0 };
        }
        return if me { best_lead(seen, reading) } else { 0.3 };
    }
    0.0 // declining a power
}

/// The worth of answering `led` with `card` (fleeing or fighting with an eagle).
fn answer_score(reading: &Reading, led: u8, card: u8, flee: bool, fight: bool) -> f64 {
    let (mut mine, mut theirs) = reading.hyenas;
    let (mut my_crowns, mut their_crowns) = reading.crowns;
    let (led_hyena, card_hyena) = (u32::from(value(led) == 4), u32::from(value(card) == 4));
    let hyenas = led_hyena + card_hyena;
    let (led_crowns, card_crowns) = (i32::from(crowns(led)), i32::from(crowns(card)));
    if flee {
        my_crowns += card_crowns;
        their_crowns += led_crowns;
        theirs += led_hyena;
    } else if answer_beats(led, card) || fight {
        my_crowns += led_crowns + card_crowns;
        mine += hyenas;
    } else {
        their_crowns += led_crowns + card_crowns;
        theirs += hyenas;
    }
    let mut gain = standing((my_crowns, their_crowns), (mine, theirs));
    gain -= standing(reading.crowns, reading.hyenas);
    gain - reading.strength(card) + power(card)
}

/// The worth of leading `card`: the trick's crowns by the chance of taking it.
fn lead_score(reading: &Reading, card: u8) -> f64 {
    let is_power = card < FIRST_EAGLE && matches!(value(card), 2 | 5);
    let (mine, theirs) = reading.hyenas;
    let hyena = u32::from(value(card) == 4);
    let win = reading.win_chance(card, is_power, hyena == 1 && mine >= 2 && theirs == 0);
    // Python's round() sends halves to the even integer.
    let pot = (f64::from(crowns(card)) + AVERAGE_ANSWER).round_ties_even() as i32;
    let (my_crowns, their_crowns) = reading.crowns;
    let before = standing(reading.crowns, (mine, theirs));
    let mut if_won = standing((my_crowns + pot, their_crowns), (mine + hyena, theirs)) - before;
    let if_lost = standing((my_crowns, their_crowns + pot), (mine, theirs + hyena)) - before;
    let dumped = reading.dump_chance(card); // a hyena they may throw on a trick I take
    if dumped != 0.0 {
        let taken = mine + hyena;
        if_won += dumped * (3.0 + hyena_weight(taken + 1, theirs) - hyena_weight(taken, theirs));
    }
    let score = win * if_won + (1.0 - win) * if_lost;
    score - reading.strength(card) + power(card)
}

/// A small bonus for a card whose power is still to come (cheetah, snake, rhinoceros).
fn power(card: u8) -> f64 {
    if card < FIRST_EAGLE && matches!(value(card), 2 | 3 | 5) {
        0.2
    } else {
        0.0
    }
}

/// The worth of the best lead the viewer could make next.
fn best_lead(seen: &Seen, reading: &Reading) -> f64 {
    let available = seen.hand | seen.tops(seen.me);
    let free = available & !seen.blocked[seen.me];
    let mut cards = if free != 0 { free } else { available };
    if cards == 0 {
        return 0.0; // Python's max(..., default=0.0)
    }
    let mut best = f64::NEG_INFINITY;
    while cards != 0 {
        let card = cards.trailing_zeros() as u8;
        cards &= cards - 1;
        best = best.max(lead_score(reading, card));
    }
    best
}

/// How much harm the opponent's face-up `card` can do in the trick under way.
fn threat(seen: &Seen, reading: &Reading, card: u8) -> f64 {
    let mut threat = reading.strength(card);
    if let Some(led) = seen.my_lead() {
        if answer_beats(led, card) {
            threat += 2.0;
        }
        let shows_land = reading.their_cards & land_cards(land(led)) != 0;
        if card >= FIRST_EAGLE && !shows_land {
            threat += 1.5;
        }
    }
    threat
}

/// Burying the opponent's top of pile `source` under their pile `dest`.
fn rhino_score(seen: &Seen, reading: &Reading, source: usize, dest: usize) -> f64 {
    let piles = &seen.piles[reading.them];
    match piles[source].top() {
        Some(top) if top != FACE_DOWN => threat(seen, reading, top) - 0.4 + 0.01 * f64::from(piles[dest].len),
        _ => -0.1, // a face-down card uncovered in this trick: it stays hidden anyway
    }
}

/// Blocking the top of the opponent's pile `pile`, or (`None`) a hand card blind.
fn block_score(seen: &Seen, reading: &Reading, pile: Option<usize>) -> f64 {
    if let Some(pile) = pile {
        return match seen.piles[reading.them][pile].top() {
            Some(top) if top != FACE_DOWN => threat(seen, reading, top) - 0.4,
            _ => -0.1,
        };
    }
    if let Some(led) = seen.my_lead() {
        let hidden = (reading.unseen & BEATERS[led as usize]).count_ones();
        let pool = reading.unseen.count_ones();
        let odds = if pool != 0 { f64::from(hidden) / f64::from(pool) } else { 0.0 };
        return 2.0 * odds * f64::min(1.0, f64::from(reading.hidden)) - 0.2;
    }
    if reading.hidden != 0 {
        0.5
    } else {
        -0.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mouse_beats_the_elephant_and_not_the_other_way() {
        // G1 (mouse) led: the elephant G6 does not take it; G6 led: the mouse takes it.
        assert!(!answer_beats(0, 5));
        assert!(answer_beats(5, 0));
        assert!(answer_beats(1, 2));
        assert!(!answer_beats(2, 1));
        assert!(answer_beats(24, 27));
        assert!(!answer_beats(0, 24)); // another land never beats by following
        assert!(answer_beats(9, 9)); // not leader_wins: a card "beats" itself, as in Python
    }

    #[test]
    fn odds_of_holding_a_card() {
        let reading = Reading {
            me: 0,
            them: 1,
            their_cards: 0,
            unseen: 0b1111,
            hidden: 2,
            hyenas: (0, 0),
            crowns: (0, 0),
            live: 0b1111,
        };
        // two cards out of four: the chance that one of the two named is among them is 5/6
        assert_eq!(reading.holds_any(0b11), 1.0 - 1.0 / 6.0);
        assert_eq!(reading.holds_any(0b1_0000), 0.0);
        assert_eq!(reading.holds_any(0b111), 1.0);
    }

    #[test]
    fn games_against_random_and_itself_end() {
        use crate::agents::play::{play_many, Match, RandomAgent};
        use crate::core::Options;
        let rules = Awimbawe::new(2, &Options::default()).unwrap();
        let roster: [&dyn Agent<Awimbawe>; 2] = [&HeuristicAgent, &RandomAgent];
        let games: Vec<Match> = (0..20)
            .map(|i| Match { seed: i, keyed: false, seats: vec![0, (i % 2) as usize], agent_seeds: vec![i, i + 7] })
            .collect();
        for played in play_many(&rules, &roster, &games, 100_000, 1, false) {
            assert!(played.finished);
        }
    }

    #[test]
    fn python_rounds_the_pot_half_to_even() {
        let pots: Vec<i32> =
            [3, 2, 1, 0, -1, -2].iter().map(|&c| (f64::from(c) + AVERAGE_ANSWER).round_ties_even() as i32).collect();
        assert_eq!(pots, [4, 4, 2, 2, 0, 0]);
    }
}
