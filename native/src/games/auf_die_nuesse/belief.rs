//! Auf die Nüsse!'s belief and search hints: the mirror of
//! `spieltisch/games/auf_die_nuesse/belief.py` and of `bots.SEARCH`.
//!
//! Nothing in the game is hidden (cards are drawn from the unseen multiset as they are
//! needed), so a view shows the whole state: the belief is the state itself, read back from
//! its canonical integers ([`Rules::canonical`]; `spieltisch.native.auf_die_nuesse.belief_code`
//! packs a view so), and sampling it is a copy. A code is checked item by item, and for the
//! invariants every reachable state keeps (squirrels and unseen cards counted, stores and steps
//! well formed, a decision with a move to make), so the rules never meet a state they cannot
//! play. The hints are those of `bots.SEARCH` ([`super::bots`]): the playout policy, the
//! evaluation at the next turn start, the exploration constant 0.15 and a tree of depth 1.

use super::bots::{search, EXPLORATION, TREE_DEPTH};
use super::model::{Context, Ending, Stage, SQUIRRELS, STORE_SIZES};
use super::notation::{CARDS, JOKERS, MAX_PLAYERS, NONE, NUTS, SLOTS, SPACES, STORES};
use super::rules::{Market, Nuesse, NuesseState, Step, Store};
use crate::core::{Kit, Node, Refusal, Rng, Rules};

const STAGES: [Stage; 11] = [
    Stage::FaceUp,
    Stage::Deal,
    Stage::Setup,
    Stage::Roll,
    Stage::Place,
    Stage::Again,
    Stage::Take,
    Stage::Put,
    Stage::Refill,
    Stage::Steal,
    Stage::Over,
];
const CONTEXTS: [Context; 3] = [Context::Setup, Context::Checks, Context::Jokers];
const ENDINGS: [Ending; 3] = [Ending::NotYet, Ending::Triggered, Ending::Final];

/// How many integers the canonical code of a state with `players` players has.
pub fn code_len(players: usize) -> usize {
    // stage, player, track, dice, step; areas, supply; market; stores; jokers; David.
    3 + 3 + 7 + SPACES * players + players + SLOTS + CARDS + 3 + STORES * 4 * players + JOKERS * players + 1
}

/// Reads a code item by item, each checked against its range.
struct Reader<'a> {
    code: &'a [i64],
    at: usize,
}

impl Reader<'_> {
    /// The next item, which must lie in `low..=high`.
    fn item(&mut self, what: &str, low: i64, high: i64) -> Result<i64, Refusal> {
        let value = self.code[self.at];
        if !(low..=high).contains(&value) {
            return Err(Refusal::Invalid(format!("item {} ({what}) is {value}, not {low} to {high}", self.at)));
        }
        self.at += 1;
        Ok(value)
    }

    fn small(&mut self, what: &str, high: i64) -> Result<u8, Refusal> {
        Ok(self.item(what, 0, high)? as u8)
    }

    /// An item that is -1 ([`NONE`]) or in `0..=high`.
    fn or_none(&mut self, what: &str, high: i64) -> Result<u8, Refusal> {
        let value = self.item(what, -1, high)?;
        Ok(if value < 0 { NONE } else { value as u8 })
    }
}

fn invalid(what: &str) -> Refusal {
    Refusal::Invalid(format!("no state of Auf die Nüsse!: {what}"))
}

impl Nuesse {
    /// The state whose canonical integers `code` is; [`Refusal::Invalid`] for a code that is no
    /// reachable-looking state of this game (wrong length, an item out of range, a broken
    /// invariant).
    pub fn state_from_code(&self, code: &[i64]) -> Result<NuesseState, Refusal> {
        let players = self.config.players;
        if code.len() != code_len(players) {
            return Err(Refusal::Invalid(format!(
                "a code of Auf die Nüsse! for {players} players has {} integers, not {}",
                code_len(players),
                code.len()
            )));
        }
        let last_seat = players as i64 - 1;
        let mut read = Reader { code, at: 0 };
        let stage = STAGES[usize::from(read.small("stage", STAGES.len() as i64 - 1)?)];
        let player = read.small("player", last_seat)?;
        let track = read.item("start track", 0, (1 << 13) - 1)? as u16;
        if track & 0b11 != 0 {
            return Err(invalid("the start track has no space 0 or 1"));
        }
        let faces = [read.small("green die", 6)?, read.small("white die", 6)?, read.small("white die", 6)?];
        let dice = match faces {
            [0, 0, 0] => None,
            _ if faces.contains(&0) => return Err(invalid("each die shows 1 to 6")),
            _ => Some(faces),
        };
        let step = self.read_step(&mut read, last_seat)?;
        let mut areas = [[0; MAX_PLAYERS]; SPACES];
        for row in &mut areas {
            for count in &mut row[..players] {
                *count = read.small("squirrels on a space", i64::from(SQUIRRELS))?;
            }
        }
        let mut supply = [SQUIRRELS; MAX_PLAYERS];
        for count in &mut supply[..players] {
            *count = read.small("supply", i64::from(SQUIRRELS))?;
        }
        let market = self.read_market(&mut read)?;
        let mut stores = [[Store::EMPTY; STORES]; MAX_PLAYERS];
        for row in &mut stores[..players] {
            for (index, store) in row.iter_mut().enumerate() {
                *store = read_store(&mut read, index)?;
            }
        }
        let deck = self.config.deck();
        let mut jokers = [[0; JOKERS]; MAX_PLAYERS];
        for row in &mut jokers[..players] {
            for (joker, count) in row.iter_mut().enumerate() {
                *count = read.small("kept jokers", i64::from(deck[NUTS + joker]))?;
            }
        }
        let david = read.or_none("David", last_seat)?;
        let state = NuesseState { stage, player, track, dice, step, areas, supply, market, stores, jokers, david };
        self.check_state(&state)?;
        Ok(state)
    }

    fn read_step(&self, read: &mut Reader, last_seat: i64) -> Result<Option<Step>, Refusal> {
        if read.small("a step is under way", 1)? == 0 {
            let rest = [0, 0, -1, -1, -1, 0];
            for expected in rest {
                read.item("no step", expected, expected)?;
            }
            return Ok(None);
        }
        Ok(Some(Step {
            context: CONTEXTS[usize::from(read.small("context", CONTEXTS.len() as i64 - 1)?)],
            actor: read.small("actor", last_seat)?,
            space: read.or_none("space", SPACES as i64 - 1)?,
            pending: read.or_none("card in hand", CARDS as i64 - 1)?,
            refill: read.or_none("place to refill", SLOTS as i64 - 1)?,
            theft: read.small("theft due", 1)? == 1,
        }))
    }

    fn read_market(&self, read: &mut Reader) -> Result<Market, Refusal> {
        let deck = self.config.deck();
        let total: u8 = deck.iter().sum();
        let mut face_up = [NONE; SLOTS];
        for card in &mut face_up {
            *card = read.or_none("face-up card", CARDS as i64 - 1)?;
        }
        let mut unseen = [0; CARDS];
        for (card, count) in unseen.iter_mut().enumerate() {
            *count = read.small("unseen cards", i64::from(deck[card]))?;
        }
        let pile = read.small("draw pile", i64::from(total))?;
        let set_aside = read.small("set-aside cards", i64::from(total))?;
        let ending = ENDINGS[usize::from(read.small("ending", ENDINGS.len() as i64 - 1)?)];
        Ok(Market { face_up, unseen, pile, set_aside, ending })
    }

    /// The invariants every reachable state keeps, which the rules rely on.
    fn check_state(&self, state: &NuesseState) -> Result<(), Refusal> {
        for seat in 0..self.config.players {
            let on_board: u32 = state.areas.iter().map(|row| u32::from(row[seat])).sum();
            if on_board + u32::from(state.supply[seat]) != u32::from(SQUIRRELS) {
                return Err(invalid("a player's squirrels do not add up"));
            }
        }
        if state.available() < 0 {
            return Err(invalid("more squirrels on the start track than in supply"));
        }
        let market = &state.market;
        let unseen: u32 = market.unseen.iter().map(|&n| u32::from(n)).sum();
        if unseen != u32::from(market.pile) + u32::from(market.set_aside) {
            return Err(invalid("the unseen cards are not the pile and the set-aside cards"));
        }
        let stepped = !matches!(state.stage, Stage::Roll | Stage::Place | Stage::Again | Stage::Over);
        if stepped != state.step.is_some() {
            return Err(invalid("a step is under way exactly at the steps' stages"));
        }
        if let Some(step) = state.step {
            let pending = step.pending != NONE;
            let collecting = matches!(state.stage, Stage::Take | Stage::Steal);
            if pending != (state.stage == Stage::Put)
                || (collecting && step.space == NONE)
                || (matches!(state.stage, Stage::Refill | Stage::FaceUp) && step.refill == NONE)
            {
                return Err(invalid("the step does not fit its stage"));
            }
        }
        match self.node(state) {
            Node::Chance if state.stage != Stage::Roll && market.pile == 0 => {
                Err(invalid("a card is to be drawn from an empty pile"))
            }
            Node::Decision(_) => {
                let mut legal = Vec::new();
                self.legal_actions(state, &mut legal);
                if legal.is_empty() {
                    return Err(invalid("the player to act has no move"));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// A store, well formed: a kind exactly while it holds nuts or is full, no more than it holds.
fn read_store(read: &mut Reader, index: usize) -> Result<Store, Refusal> {
    let size = i64::from(STORE_SIZES[index]);
    let kind = read.or_none("store kind", NUTS as i64 - 1)?;
    let nuts = read.small("nuts in a store", size - 1)?;
    let jokers = read.small("jokers in a store", size - 1)?;
    let full = read.small("store full", 1)? == 1;
    let store = Store { kind, nuts, jokers, full };
    let fill = i64::from(store.fill());
    let formed = if full { kind != NONE && fill == 0 } else { fill < size && (kind == NONE) == (fill == 0) };
    if !formed {
        return Err(invalid("a nut store is not well formed"));
    }
    Ok(store)
}

impl Kit for Nuesse {
    type Belief = NuesseState;

    fn belief_from_code(&self, code: &[i64]) -> Result<NuesseState, Refusal> {
        self.state_from_code(code)
    }

    fn sample(&self, belief: &NuesseState, rng: &mut Rng) -> NuesseState {
        let _ = rng;
        *belief
    }

    fn has_playout_policy(&self) -> bool {
        true
    }

    fn playout(&self, state: &NuesseState, rng: &mut Rng, scratch: &mut Vec<u32>) -> Option<u32> {
        scratch.clear();
        self.legal_actions(state, scratch);
        if scratch.is_empty() {
            return None;
        }
        let legal = std::mem::take(scratch);
        let action = search::playout(self, state, &legal, rng);
        *scratch = legal;
        Some(action)
    }

    fn evaluate(&self, state: &NuesseState, depth: usize, out: &mut [f64]) -> bool {
        let _ = depth; // MIN_DEPTH and AGAIN_DEPTH are 0: every depth may stop
        let mut scratch = Vec::new();
        search::evaluate(self, state, out, &mut scratch)
    }

    fn exploration(&self) -> Option<f64> {
        Some(EXPLORATION)
    }

    fn tree_depth(&self) -> Option<usize> {
        Some(TREE_DEPTH)
    }
}
