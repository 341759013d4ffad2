//! Nuts, cards, board spaces and the player actions' ids: the Rust mirror of
//! `spieltisch/games/auf_die_nuesse/notation.py` (the action table's order is its order).

/// "Nothing here": no card, no kind, no space, no slot, no player.
pub const NONE: u8 = u8::MAX;

/// The four kinds of nut, in the notation's order.
pub const WALNUT: u8 = 0;
pub const NUTS: usize = 4;
/// The ten cards: the four plain nuts (card = kind), then the six jokers.
pub const CARDS: usize = 10;
/// The first joker's card index.
pub const FIRST_JOKER: u8 = 4;
/// The jokers (card `4 + j`): the two kinds each shows, in kind order.
pub const JOKERS: usize = 6;
pub const JOKER_KINDS: [[u8; 2]; JOKERS] = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];

/// Whether `card` is a joker.
#[inline]
pub fn is_joker(card: u8) -> bool {
    card >= FIRST_JOKER
}

/// The nine spaces above the start track, in checking order.
pub const SPACES: usize = 9;
pub const RACCOON_2: u8 = 2;
pub const LEFT_3: u8 = 5;
pub const RACCOON_3: u8 = 6;
pub const AREA_4: u8 = 8;
/// The face-up places under 2-4, 5-6, 8-9 and 10-12.
pub const SLOTS: usize = 4;
/// The 2-area space above each start-track space 0..=12 (only 2..=12 are spaces).
pub const TRACK_SPACE: [u8; 13] = [NONE, NONE, 0, 0, 0, 1, 1, 2, 3, 3, 4, 4, 4];
pub const MAX_PLAYERS: usize = 4;
pub const STORES: usize = 8;

// The action table: roll, stop, pass, keep, places, setups, takes, steals, puts, lays.
pub const ROLL_AGAIN: u32 = 0;
pub const STOP: u32 = 1;
pub const PASS: u32 = 2;
pub const KEEP: u32 = 3;
/// `place n` (n = 2..=12) is `PLACE_BASE + n`.
pub const PLACE_BASE: u32 = 2;
/// `setup` onto 2-area space `s` (0..5).
pub const SETUP_BASE: u32 = 15;
/// `take` from face-up slot `s`.
pub const TAKE_BASE: u32 = 20;
/// `steal P(v+1) S(i+1)`: `STEAL_BASE + 8 v + i`.
pub const STEAL_BASE: u32 = 24;
/// `put kind S(i+1)`: `PUT_BASE + 4 i + kind`.
pub const PUT_BASE: u32 = 56;
/// `lay joker as kind S(i+1)`: `LAY_BASE + 32 j + 8 kind + i`.
pub const LAY_BASE: u32 = 88;
/// The action table's length.
pub const ACTIONS: u32 = LAY_BASE + (JOKERS * NUTS * STORES) as u32;

/// The id of `put kind` into store `store`.
#[inline]
pub fn put_id(kind: u8, store: usize) -> u32 {
    PUT_BASE + 4 * store as u32 + u32::from(kind)
}

/// The id of laying kept joker `joker` (0..6) as `kind` into store `store`.
#[inline]
pub fn lay_id(joker: usize, kind: u8, store: usize) -> u32 {
    LAY_BASE + 32 * joker as u32 + 8 * u32::from(kind) + store as u32
}

/// The id of stealing from store `store` of player `victim`.
#[inline]
pub fn steal_id(victim: usize, store: usize) -> u32 {
    STEAL_BASE + 8 * victim as u32 + store as u32
}

/// One player action, decoded from its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    RollAgain,
    Stop,
    Pass,
    Keep,
    Place(u8),
    Setup(u8),
    Take(u8),
    Steal { victim: u8, store: u8 },
    Put { kind: u8, store: u8 },
    Lay { joker: u8, kind: u8, store: u8 },
}

impl Action {
    /// The action with id `id` (`None` past the table).
    pub fn of(id: u32) -> Option<Action> {
        Some(match id {
            ROLL_AGAIN => Action::RollAgain,
            STOP => Action::Stop,
            PASS => Action::Pass,
            KEEP => Action::Keep,
            4..=14 => Action::Place((id - PLACE_BASE) as u8),
            15..=19 => Action::Setup((id - SETUP_BASE) as u8),
            20..=23 => Action::Take((id - TAKE_BASE) as u8),
            24..=55 => Action::Steal { victim: ((id - STEAL_BASE) / 8) as u8, store: ((id - STEAL_BASE) % 8) as u8 },
            56..=87 => Action::Put { kind: ((id - PUT_BASE) % 4) as u8, store: ((id - PUT_BASE) / 4) as u8 },
            88..=279 => {
                let rest = id - LAY_BASE;
                Action::Lay { joker: (rest / 32) as u8, kind: ((rest / 8) % 4) as u8, store: (rest % 8) as u8 }
            }
            _ => return None,
        })
    }
}
