//! The protocol every native game speaks: the Rust mirror of `spieltisch/core/game.py`.
//!
//! A game is a value implementing [`Rules`]: its player count and options, fixed when it is
//! built. Its states are plain values (fixed arrays, small integers, bit sets) that the rules
//! change in place, so a playout allocates nothing per step. Player actions are the ids of the
//! Python game's action table; chance is an explicit step whose outcomes carry exact
//! probabilities and a code of small integers the Python face turns into the Python game's
//! chance move and back. Pure: no I/O, no clock, no global random (every draw takes an
//! explicit [`Rng`]).

pub mod batch;
pub mod code;
pub mod encode;
pub mod kit;
pub mod options;
pub mod playout;

pub use kit::Kit;
pub use options::{OptionValue, Options};

use rand::SeedableRng;

/// The random generator of every draw: PCG-64 (MCG), small, fast and the same stream for the
/// same seed on every machine and build.
pub type Rng = rand_pcg::Pcg64Mcg;

/// A generator seeded from one whole number.
pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// The player in this seat chooses an action.
    Decision(usize),
    /// Chance acts: a roll, a shuffle, a deal, a draw.
    Chance,
    /// The game is over.
    Terminal,
}

/// An exact probability: `num / den`, in lowest terms, `0 < num <= den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prob {
    pub num: u64,
    pub den: u64,
}

impl Prob {
    /// `num / den` in lowest terms.
    pub fn new(num: u64, den: u64) -> Prob {
        let divisor = gcd(num, den).max(1);
        Prob { num: num / divisor, den: den / divisor }
    }

    /// The probability as a float.
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// The greatest common divisor.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Why a move, an option or a question was refused; the Python face raises the matching
/// exception of `spieltisch.core.errors`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A move the rules do not allow here (`IllegalActionError`), naming the rule.
    Illegal { rule: &'static str, detail: String },
    /// A value that is no move of this game at all (`InvalidActionError`).
    Invalid(String),
    /// A chance event too large to list: it can only be sampled (`NotEnumerableError`).
    NotEnumerable(String),
    /// A player count or an option the game does not take (`OptionError`).
    Option(String),
}

impl Refusal {
    /// The refusal of a chance step (an outcome, a draw) where a player acts.
    pub fn not_chance() -> Refusal {
        Refusal::Illegal { rule: "chance acts", detail: "a player acts next, not chance".into() }
    }
}

/// A step of a game's history: a player's action id, or a chance outcome's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Action(u32),
    Chance(Vec<i64>),
}

/// One game's rules, for a fixed player count and options.
///
/// Implementations keep the Python game's names for the same rules, so a reader can hold
/// `native/src/games/<game>/` beside `spieltisch/games/<game>/`.
pub trait Rules: Sized + Send + Sync + 'static {
    /// A position: a plain value the rules change in place.
    type State: Clone + Send + Sync + std::fmt::Debug;
    /// A chance outcome (a throw, a shuffle's order, a deal).
    type Outcome: Clone + Send + Sync + std::fmt::Debug;

    /// The game's id, as in the Python registry (`auf-die-eier`).
    const ID: &'static str;

    /// The game with `players` players and these options (the Python game's names and values);
    /// [`Refusal::Option`] for a count or an option it does not take.
    fn new(players: usize, options: &Options) -> Result<Self, Refusal>;

    /// The number of players.
    fn players(&self) -> usize;

    /// The number of player-action ids (every id is below it): the Python action table's length.
    fn num_distinct_actions(&self) -> usize;

    /// The length of one seat's observation: the RL encoder's shape.
    fn observation_size(&self) -> usize;

    /// The state before the first move.
    fn initial_state(&self) -> Self::State;

    /// Who acts in `state`.
    fn node(&self, state: &Self::State) -> Node;

    /// The legal action ids of the player to act, in increasing order, appended to `out`
    /// (nothing unless `state` is a decision).
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<u32>);

    /// A uniformly random legal action id of a decision state: what playouts call; `None`
    /// (nothing drawn) when the player to act has no legal action, which the rules never
    /// leave but a world sampled from a crafted belief code may. The default lists the legal
    /// actions into `scratch` and picks one; override it where a game can pick without
    /// listing, drawing the same number from `rng` (so a playout is the same game whichever
    /// is called).
    fn random_action(&self, state: &Self::State, rng: &mut Rng, scratch: &mut Vec<u32>) -> Option<u32> {
        scratch.clear();
        self.legal_actions(state, scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch[rand::Rng::gen_range(rng, 0..scratch.len())])
    }

    /// Apply a legal action id. The caller has checked that it is legal here.
    fn apply_action(&self, state: &mut Self::State, action: u32);

    /// Why `action` (a listed id, not legal here) is refused: the rule it breaks, as the Python
    /// game names it where it can.
    fn refusal(&self, state: &Self::State, action: u32) -> Refusal {
        let _ = state;
        Refusal::Illegal { rule: "legal actions", detail: format!("action {action} is not legal here") }
    }

    /// Every chance outcome with its exact probability, in the order the Python game lists
    /// them, appended to `out`; [`Refusal::NotEnumerable`] where the Python game says so.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Self::Outcome, Prob)>) -> Result<(), Refusal>;

    /// Draw a chance outcome with its true probability.
    fn sample_chance(&self, state: &Self::State, rng: &mut Rng) -> Self::Outcome;

    /// Apply a chance outcome that [`Rules::check_outcome`] accepted.
    fn apply_outcome(&self, state: &mut Self::State, outcome: &Self::Outcome);

    /// Whether `outcome` can happen here; a refusal otherwise (the state is not changed).
    fn check_outcome(&self, state: &Self::State, outcome: &Self::Outcome) -> Result<(), Refusal>;

    /// Draw and apply a chance outcome in one go: what playouts call. Override it where
    /// sampling in place is cheaper than building the outcome.
    fn random_chance(&self, state: &mut Self::State, rng: &mut Rng) {
        let outcome = self.sample_chance(state, rng);
        self.apply_outcome(state, &outcome);
    }

    /// The outcome's code (small integers) appended to `out`: what the Python face converts.
    fn outcome_code(&self, outcome: &Self::Outcome, out: &mut Vec<i64>);

    /// The outcome of a code at `state`; [`Refusal::Invalid`] for a code that is none.
    fn outcome_from_code(&self, state: &Self::State, code: &[i64]) -> Result<Self::Outcome, Refusal>;

    /// Each player's points so far, appended to `out`.
    fn scores(&self, state: &Self::State, out: &mut Vec<i64>);

    /// The winners once the game is over, one bit per seat (bit 0 is seat 0); else 0.
    fn winners(&self, state: &Self::State) -> u32;

    /// Each player's share of the win (1 split equally among the winners, else 0) into `out`
    /// (one value per player).
    fn returns(&self, state: &Self::State, out: &mut [f64]) {
        let winners = self.winners(state);
        let count = winners.count_ones();
        for (seat, value) in out.iter_mut().enumerate() {
            *value = if count > 0 && winners & (1 << seat) != 0 { 1.0 / f64::from(count) } else { 0.0 };
        }
    }

    /// What `seat` (`None`: a spectator) observes, written into `out` (zeroed by the caller,
    /// [`Rules::observation_size`] long): the same numbers as the game's RL encoder gives for
    /// that seat's view.
    fn observe(&self, state: &Self::State, seat: Option<usize>, out: &mut [f32]);

    /// The state as integers, appended to `out`: equal for two states exactly when the Python
    /// face's `canonical` of the Python states is equal (every field the rules read).
    fn canonical(&self, state: &Self::State, out: &mut Vec<i64>);
}

/// Apply an action id after checking it: an id outside the table is [`Refusal::Invalid`], one
/// not legal here [`Refusal::Illegal`] (through [`Rules::refusal`]); `state` is unchanged then.
pub fn apply_checked<R: Rules>(
    rules: &R,
    state: &mut R::State,
    action: i64,
    scratch: &mut Vec<u32>,
) -> Result<(), Refusal> {
    let listed = usize::try_from(action).ok().filter(|&id| id < rules.num_distinct_actions());
    let Some(id) = listed else {
        return Err(Refusal::Invalid(format!(
            "{action} is no action id of {} (0 to {})",
            R::ID,
            rules.num_distinct_actions() - 1
        )));
    };
    let id = id as u32;
    match rules.node(state) {
        Node::Decision(_) => {}
        Node::Chance => {
            return Err(Refusal::Illegal { rule: "chance acts", detail: "chance acts next, not a player".into() })
        }
        Node::Terminal => return Err(Refusal::Illegal { rule: "game over", detail: "the game is over".into() }),
    }
    scratch.clear();
    rules.legal_actions(state, scratch);
    if scratch.binary_search(&id).is_err() {
        return Err(rules.refusal(state, id));
    }
    rules.apply_action(state, id);
    Ok(())
}

/// Apply a chance outcome given by its code after checking it, and return it; `state` is
/// unchanged on refusal.
pub fn apply_code<R: Rules>(rules: &R, state: &mut R::State, code: &[i64]) -> Result<R::Outcome, Refusal> {
    if rules.node(state) != Node::Chance {
        return Err(Refusal::not_chance());
    }
    let outcome = rules.outcome_from_code(state, code)?;
    rules.check_outcome(state, &outcome)?;
    rules.apply_outcome(state, &outcome);
    Ok(outcome)
}
