//! What Auweier's heuristic sees and reads off one seat's view (mirrors `bots/reading.py`).
//!
//! [`Seen`] copies out of the state what the acting seat's view (`AuweierView`) shows and
//! nothing else: its own hand; every stack and total before the females and how many eggs each
//! has given; for every player the hand size, the cards known to be in the hand (`shown`), the
//! cards that left the game (`discarded`, derived as the Python view derives it: the deck less
//! hand, pile and stacks, a public count), the colours of the eggs won and, in a wedding phase,
//! the Weddings down and the passes. [`Reading`] is then worked out from that alone, the floats
//! in the order Python works them out, so the scores are the same to the bit.

use super::super::model::{Stage, COLOUR_BONUS, EGGS_PER_FEMALE};
use super::super::notation::{Card, CROW, DECK_SIZE, FALSE_WORM, KINDS, MAX_STACK, SEATS, WEDDING};
pub(crate) use super::super::rules::crow_prey;
use super::super::rules::{Auweier, AuweierState};

/// One player as every seat sees them (Python's `PlayerView`, the parts the heuristic reads).
#[derive(Clone, Copy, Debug, Default)]
pub struct SeenPlayer {
    pub hand_size: u8,
    pub shown: [u8; KINDS],
    pub discarded: [u8; KINDS],
    /// The colours of the egg cards won, as a bit mask of females.
    pub egg_colours: u8,
    /// The females this player has a Wedding before in the phase under way, as a bit mask.
    pub weddings: u8,
    pub passed: bool,
}

/// The parts of one seat's view the heuristic reads.
#[derive(Clone, Debug)]
pub struct Seen {
    pub me: usize,
    pub players: usize,
    pub females: usize,
    pub stage: Stage,
    pub hand: [u8; KINDS],
    /// `stacks[player][female][..heights[player][female]]`, bottom first.
    pub stacks: [[[Card; MAX_STACK]; SEATS]; SEATS],
    pub heights: [[u8; SEATS]; SEATS],
    /// `totals[female][player]`.
    pub totals: [[i32; SEATS]; SEATS],
    /// Eggs each female has given.
    pub laid: [u8; SEATS],
    pub others: [SeenPlayer; SEATS],
    pub worth: [i32; KINDS],
    pub crow_digs: bool,
    /// How many cards of each kind a deck holds (`deck_cards`).
    pub deck: [u8; KINDS],
}

impl Seen {
    /// What `seat` sees of `state` (a decision of that seat, after the decks are set up for
    /// everything but [`Seen::hand`] and [`Seen::stage`]).
    pub fn of(rules: &Auweier, state: &AuweierState, seat: usize) -> Seen {
        let config = &rules.config;
        let (players, females) = (config.players, config.females);
        let mut seen = Seen {
            me: seat,
            players,
            females,
            stage: state.stage,
            hand: state.seats[seat].hand,
            stacks: [[[0; MAX_STACK]; SEATS]; SEATS],
            heights: [[0; SEATS]; SEATS],
            totals: [[0; SEATS]; SEATS],
            laid: state.laid,
            others: [SeenPlayer::default(); SEATS],
            worth: config.worm_values.map(i32::from),
            crow_digs: config.crow_digs,
            deck: config.deck,
        };
        for p in 0..players {
            let public = &state.seats[p];
            for f in 0..females {
                seen.stacks[p][f] = public.stacks[f];
                seen.heights[p][f] = public.heights[f];
                seen.totals[f][p] = i32::from(state.totals[f][p]);
            }
            let (weddings, passed) = match state.phase {
                Some(phase) => (phase.weddings[p], phase.passed >> p & 1 == 1),
                None => (0, false),
            };
            let eggs = &state.won[p][..usize::from(state.won_len[p])];
            seen.others[p] = SeenPlayer {
                hand_size: public.hand_count,
                shown: public.shown,
                discarded: discarded(rules, state, p),
                egg_colours: eggs.iter().fold(0, |mask, &egg| mask | 1 << (egg >> 2)),
                weddings,
                passed,
            };
        }
        seen
    }

    /// Player `p`'s cards before female `f`, bottom first.
    pub fn stack(&self, p: usize, f: usize) -> &[Card] {
        &self.stacks[p][f][..usize::from(self.heights[p][f])]
    }
}

/// The cards of `p`'s deck that are in no hand, pile or stack any more: the view's public
/// count (Python's `_discarded`, which the view is built with).
fn discarded(rules: &Auweier, state: &AuweierState, p: usize) -> [u8; KINDS] {
    let seat = &state.seats[p];
    let mut left = [0u8; KINDS];
    for (kind, slot) in left.iter_mut().enumerate() {
        *slot = rules.config.deck[kind] - seat.hand[kind];
    }
    let table = (0..rules.config.females).flat_map(|f| seat.stack(f).iter());
    for &card in seat.pile().iter().chain(table) {
        left[usize::from(card)] -= 1;
    }
    left
}

/// The facts the heuristic uses (Python's `Reading`).
#[derive(Clone, Debug)]
pub struct Reading {
    pub me: usize,
    pub players: usize,
    /// The females that still have eggs to give, as a bit mask (ascending as Python's tuple).
    pub open: u8,
    /// `totals[female][player]`.
    pub totals: [[i32; SEATS]; SEATS],
    /// `value[female][player]`: what her next egg is worth to that player.
    pub value: [[f64; SEATS]; SEATS],
    /// Each player's expected worm value in hand (the viewer's is exact).
    pub power: [f64; SEATS],
    /// Chance that an opponent holds a Crow.
    pub crow_risk: f64,
    /// Chance that each player holds a Wedding (1 or 0 for the viewer).
    pub wedding_odds: [f64; SEATS],
    pub crow_digs: bool,
    pub worth: [i32; KINDS],
}

impl Reading {
    /// Python's `read(view)`.
    pub fn of(seen: &Seen) -> Reading {
        let (me, players) = (seen.me, seen.players);
        let worth = seen.worth;
        let mut open = 0u8;
        let mut value = [[0.0; SEATS]; SEATS];
        for (f, row) in value.iter_mut().enumerate().take(seen.females) {
            if egg_left(seen, f).is_some() {
                open |= 1 << f;
            }
            for (p, slot) in row.iter_mut().enumerate().take(players) {
                *slot = egg_value(seen, f, p);
            }
        }
        let mut power = [0.0; SEATS];
        let mut weddings = [0.0; SEATS];
        let mut risk_left = 1.0;
        let mut any_crows = false;
        for p in 0..players {
            if p == me {
                let hand = &seen.hand;
                power[p] =
                    hand.iter().zip(worth.iter()).map(|(&n, &w)| i64::from(n) * i64::from(w)).sum::<i64>() as f64;
                weddings[p] = if hand[usize::from(WEDDING)] > 0 { 1.0 } else { 0.0 };
                continue;
            }
            let info = &seen.others[p];
            let unseen = unseen(seen, p);
            let size: i64 = unseen.iter().sum();
            let free = i64::from(info.hand_size) - info.shown.iter().map(|&n| i64::from(n)).sum::<i64>();
            let known: i64 = info.shown.iter().zip(worth.iter()).map(|(&n, &w)| i64::from(n) * i64::from(w)).sum();
            power[p] = known as f64 + hand_power(&unseen, free, &worth);
            let crow =
                if info.shown[usize::from(CROW)] == 0 { holds(unseen[usize::from(CROW)], size, free) } else { 1.0 };
            risk_left *= 1.0 - crow;
            any_crows = true;
            let held = info.shown[usize::from(WEDDING)] > 0;
            weddings[p] = if held { 1.0 } else { holds(unseen[usize::from(WEDDING)], size, free) };
        }
        let crow_risk = if any_crows { 1.0 - risk_left } else { 0.0 };
        Reading {
            me,
            players,
            open,
            totals: seen.totals,
            value,
            power,
            crow_risk,
            wedding_odds: weddings,
            crow_digs: seen.crow_digs,
            worth,
        }
    }

    /// The open females, ascending.
    pub fn females(&self) -> impl Iterator<Item = usize> {
        let open = self.open;
        (0..SEATS).filter(move |&f| open >> f & 1 == 1)
    }

    /// The highest total before `female` among the players other than `player` (0 if none is
    /// above 0).
    pub fn best_other(&self, female: usize, player: usize) -> i32 {
        let mut best = 0;
        for (p, &total) in self.totals[female][..self.players].iter().enumerate() {
            if p != player && total > best {
                best = total;
            }
        }
        best
    }

    /// `player`'s total before `female` minus the best other total.
    pub fn lead_of(&self, female: usize, player: usize) -> i32 {
        self.totals[female][player] - self.best_other(female, player)
    }

    /// The viewer's lead before `female`.
    pub fn lead(&self, female: usize) -> i32 {
        self.lead_of(female, self.me)
    }
}

/// The number of eggs on female `f`'s top egg card, if she has one and takes cards.
fn egg_left(seen: &Seen, f: usize) -> Option<u8> {
    let laid = seen.laid[f];
    // with closed_nests a female is closed exactly when she has no eggs left
    (laid < EGGS_PER_FEMALE).then_some(laid + 1)
}

/// What female `f`'s next egg is worth to `player` (Python's `_egg_value`).
fn egg_value(seen: &Seen, f: usize, player: usize) -> f64 {
    let Some(left) = egg_left(seen, f) else { return 0.0 };
    let own = i64::from(f == player && f < seen.players);
    let colours = seen.others[player].egg_colours;
    let with = (colours | 1 << f).count_ones() as usize;
    let gain = COLOUR_BONUS[with] - COLOUR_BONUS[colours.count_ones() as usize];
    (i64::from(left) + own + gain) as f64
}

/// Cards of `player`'s deck in their hand or pile that the viewer has not seen.
fn unseen(seen: &Seen, player: usize) -> [i64; KINDS] {
    let mut on_table = [0i64; KINDS];
    for f in 0..seen.females {
        for &card in seen.stack(player, f) {
            on_table[usize::from(card)] += 1;
        }
    }
    let info = &seen.others[player];
    let mut out = [0i64; KINDS];
    for (kind, slot) in out.iter_mut().enumerate() {
        *slot =
            i64::from(seen.deck[kind]) - on_table[kind] - i64::from(info.discarded[kind]) - i64::from(info.shown[kind]);
    }
    out
}

/// What `hand` cards from the `unseen` ones are likely to add as worms: halfway between a
/// random hand and one that kept the best worms (Python's `_hand_power`).
fn hand_power(unseen: &[i64; KINDS], hand: i64, worth: &[i32; KINDS]) -> f64 {
    let size: i64 = unseen.iter().sum();
    if size == 0 || hand <= 0 {
        return 0.0;
    }
    let mut values = [0i64; DECK_SIZE];
    let mut count = 0;
    for (kind, &n) in unseen.iter().enumerate() {
        for _ in 0..n.max(0) {
            if count < values.len() {
                values[count] = i64::from(worth[kind]);
                count += 1;
            }
        }
    }
    let values = &mut values[..count];
    values.sort_unstable_by(|a, b| b.cmp(a));
    let average = (hand * values.iter().sum::<i64>()) as f64 / size as f64;
    let worms: i64 = unseen[..usize::from(FALSE_WORM)].iter().sum();
    let rounded = ((hand * worms) as f64 / size as f64).round_ties_even() as i64;
    let take = hand.min(rounded.max(1)).max(0) as usize;
    let kept: i64 = values[..take.min(values.len())].iter().sum();
    (average + kept as f64) / 2.0
}

/// `n` choose `k` (0 when `k > n`).
fn comb(n: i64, k: i64) -> u64 {
    if k < 0 || k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Chance that `hand` cards drawn from `unseen` cards include one of `kind` (Python's `_holds`).
fn holds(kind: i64, unseen: i64, hand: i64) -> f64 {
    if kind <= 0 || hand <= 0 || unseen <= 0 {
        return 0.0;
    }
    if hand >= unseen {
        return 1.0;
    }
    1.0 - comb(unseen - kind, hand) as f64 / comb(unseen, hand) as f64
}

/// How likely a lead of `lead` worm points holds until the egg is given (a guess).
#[inline]
pub fn win_chance(lead: f64) -> f64 {
    1.0 / (1.0 + (-(lead - 0.5) / 2.5).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comb_counts_choices() {
        assert_eq!([comb(22, 11), comb(5, 0), comb(3, 4), comb(6, 2)], [705_432, 1, 0, 15]);
    }

    #[test]
    fn hand_power_rounds_half_to_even_as_python() {
        // 2 cards of 4 unseen, 1 of them a worm: round(0.5) is 0 in Python, so max(1, 0) keeps 1
        let mut unseen = [0i64; KINDS];
        unseen[usize::from(super::super::super::notation::SEVEN)] = 1;
        unseen[usize::from(WEDDING)] = 3;
        let worth = [1, 2, 2, 3, 4, 5, 6, 7, 0, 0, 0];
        assert_eq!(hand_power(&unseen, 2, &worth), (2.0 * 7.0 / 4.0 + 7.0) / 2.0);
    }
}
