//! The extension module `spieltisch._native`: each game's rules and states as Python classes.
//!
//! `spieltisch.native` is the face Python code uses; this module is what it drives. Every game
//! gets two classes from one macro: a game (its options, initial state and playouts) and a
//! state (one PyO3 call per step, changed in place like OpenSpiel's). Every call runs under a
//! guard that turns a panic into `spieltisch.core.errors.NativeError` naming the game, and
//! every refusal into the Python engine's own exception (`IllegalActionError`,
//! `InvalidActionError`, `NotEnumerableError`, `OptionError`), with the state unchanged.

// PyO3 0.22's function macros convert a `PyResult` into itself, which clippy names.
#![allow(clippy::useless_conversion)]

mod batch;
mod belief;
mod play;
#[cfg(feature = "auf_die_eier")]
mod race;
#[cfg(feature = "auf_die_nuesse")]
mod rollout;
mod search;
mod table;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};

use crate::core::{OptionValue, Options, Refusal, Rng, Rules};
use table::Table;

/// Run `work` for `game`; a panic becomes a `NativeError` naming the game.
fn guard<T>(py: Python<'_>, game: &str, work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| Err(panicked(py, game, panic)))
}

/// The `NativeError` of a caught panic of `game`'s code.
fn panicked(py: Python<'_>, game: &str, panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    error(py, "NativeError", (format!("the native core of {game} failed: {}", shorten(&text)),))
}

/// At most [`SHOWN`] characters of a message built from input (a code may be long).
fn shorten(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// How much of a message built from input an exception carries.
const SHOWN: usize = 200;
/// The longest chance code read (the longest a game writes is a deal's 28 cards).
const MAX_CODE: usize = 64;

/// An action id from Python: a whole number, not a bool (an `InvalidActionError` otherwise).
fn read_action(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<i64> {
    if value.is_instance_of::<PyBool>() {
        return Err(error(py, "InvalidActionError", (format!("{value} is no action id"),)));
    }
    value.extract()
}

/// A chance code from Python: a sequence of at most [`MAX_CODE`] whole numbers, none a bool.
fn read_code(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let invalid = |what: String| error(py, "InvalidActionError", (what,));
    if value.is_instance_of::<PyString>() || value.len().map_or(true, |n| n > MAX_CODE) {
        return Err(invalid(format!("a chance code is a sequence of at most {MAX_CODE} whole numbers")));
    }
    let mut code = Vec::with_capacity(value.len().unwrap_or(0));
    for item in value.iter()? {
        let item = item?;
        if item.is_instance_of::<PyBool>() {
            return Err(invalid("a chance code holds whole numbers, not true or false".into()));
        }
        code.push(item.extract()?);
    }
    Ok(code)
}

/// An exception of `spieltisch.core.errors` built with `args`.
fn error<A: IntoPy<Py<PyTuple>>>(py: Python<'_>, name: &str, args: A) -> PyErr {
    let built = py
        .import_bound("spieltisch.core.errors")
        .and_then(|module| module.getattr(name))
        .and_then(|class| class.call1(args));
    match built {
        Ok(value) => PyErr::from_value_bound(value),
        Err(failed) => PyRuntimeError::new_err(format!("cannot raise {name}: {failed}")),
    }
}

/// The Python exception of a refusal; `what` is the refused move's text.
fn refused(py: Python<'_>, refusal: Refusal, what: &str) -> PyErr {
    match refusal {
        Refusal::Illegal { rule, detail } => error(py, "IllegalActionError", (shorten(what), rule, shorten(&detail))),
        Refusal::Invalid(text) => error(py, "InvalidActionError", (shorten(&text),)),
        Refusal::NotEnumerable(text) => error(py, "NotEnumerableError", (shorten(&text),)),
        Refusal::Option(text) => error(py, "OptionError", (shorten(&text),)),
    }
}

/// Options from the Python face's `(name, value)` pairs.
fn read_options(pairs: Vec<(String, Bound<'_, PyAny>)>, mutation: Option<String>) -> PyResult<Options> {
    let mut values = Vec::with_capacity(pairs.len());
    for (name, value) in pairs {
        let read = if value.is_instance_of::<PyBool>() {
            OptionValue::Bool(value.extract()?)
        } else if value.is_instance_of::<PyInt>() {
            OptionValue::Int(value.extract()?)
        } else if value.is_instance_of::<PyString>() {
            OptionValue::Str(value.extract()?)
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!("option {name}: not a bool, int or str")));
        };
        values.push((name, read));
    }
    let mut options = Options::new(values);
    options.mutation = mutation;
    Ok(options)
}

/// A seeded random generator for chance steps driven from Python (PCG-64).
#[pyclass(module = "spieltisch._native")]
pub struct NativeRng {
    rng: Rng,
}

#[pymethods]
impl NativeRng {
    #[new]
    fn new(seed: u64) -> Self {
        NativeRng { rng: crate::core::rng_from_seed(seed) }
    }
}

/// Defines a game's two Python classes and its entry in [`new_game`].
macro_rules! native_game {
    ($rules:ty, $game:ident, $state:ident) => {
        #[pyclass(module = "spieltisch._native", frozen)]
        pub struct $game {
            rules: Arc<$rules>,
        }

        #[pyclass(module = "spieltisch._native")]
        pub struct $state {
            table: Table<$rules>,
        }

        #[pymethods]
        impl $game {
            /// The game's id.
            #[getter]
            fn id(&self) -> &'static str {
                <$rules as Rules>::ID
            }
            /// The number of players.
            #[getter]
            fn players(&self) -> usize {
                self.rules.players()
            }
            /// The number of player-action ids.
            #[getter]
            fn num_distinct_actions(&self) -> usize {
                self.rules.num_distinct_actions()
            }
            /// The length of one seat's observation.
            #[getter]
            fn observation_size(&self) -> usize {
                self.rules.observation_size()
            }
            /// The state before the first move.
            fn initial_state(&self, py: Python<'_>) -> PyResult<$state> {
                guard(py, <$rules as Rules>::ID, || Ok($state { table: Table::new(self.rules.clone()) }))
            }
            /// `count` random playouts from `state`: (returns as a `count x players` float64
            /// array, steps per playout as a uint64 array, the records or None).
            #[pyo3(signature = (state, count, seed, threads=1, records=false))]
            fn playouts<'py>(
                &self,
                py: Python<'py>,
                state: &$state,
                count: usize,
                seed: u64,
                threads: usize,
                records: bool,
            ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, PyObject)> {
                if !state.table.has_rules(&self.rules) {
                    return Err(PyValueError::new_err(format!(
                        "the state is not of this {} game (another player count or options)",
                        <$rules as Rules>::ID
                    )));
                }
                state.table.read(py, |table| table::playouts(py, table, count, seed, threads, records))
            }
            fn sample_worlds(&self, py: Python<'_>, belief_code: Vec<i64>, count: usize, seed: u64) -> belief::Worlds {
                belief::sample_worlds(py, &*self.rules, &belief_code, count, seed)
            }
            fn evaluate(&self, py: Python<'_>, state: &$state, depth: usize) -> belief::Evaluated {
                belief::evaluate(py, &*self.rules, &state.table, depth)
            }
            fn kit_playout(&self, py: Python<'_>, belief_code: Vec<i64>, seed: u64) -> PyResult<u32> {
                belief::playout(py, &*self.rules, &belief_code, seed)
            }
            fn kit_candidates(&self, py: Python<'_>, belief_code: Vec<i64>, seed: u64) -> PyResult<Vec<u32>> {
                belief::candidates(py, &*self.rules, &belief_code, seed)
            }
            /// ISMCTS from a belief code among the legal action ids (see `search.rs`).
            #[pyo3(signature = (belief, legal, *, iterations=None, seconds=None, seed=0, threads=1, exploration=None, tree_depth=None))]
            #[allow(clippy::too_many_arguments)]
            fn search(
                &self,
                py: Python<'_>,
                belief: &Bound<'_, PyAny>,
                legal: &Bound<'_, PyAny>,
                iterations: Option<i64>,
                seconds: Option<f64>,
                seed: u64,
                threads: i64,
                exploration: Option<f64>,
                tree_depth: Option<i64>,
            ) -> PyResult<search::Found> {
                let asked = search::Asked { iterations, seconds, seed, threads, exploration, tree_depth };
                search::search(py, &*self.rules, belief, legal, &asked)
            }
        }

        #[pymethods]
        impl $state {
            /// The player to act, or None at chance and at the end.
            fn current_player(&self, py: Python<'_>) -> PyResult<Option<usize>> {
                self.table.read(py, |table| Ok(table.current_player()))
            }
            /// Whether chance acts next.
            fn is_chance(&self, py: Python<'_>) -> PyResult<bool> {
                self.table.read(py, |table| Ok(table.is_chance()))
            }
            /// Whether the game is over.
            fn is_terminal(&self, py: Python<'_>) -> PyResult<bool> {
                self.table.read(py, |table| Ok(table.is_terminal()))
            }
            /// The legal action ids, in increasing order.
            fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.table.write(py, |table| Ok(table.legal_actions(py)))
            }
            /// Apply an action id here, in place; refused (state unchanged) unless legal.
            fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
                let action = read_action(py, action)?;
                self.table.write(py, |table| table.apply(py, action))
            }
            /// A copy of this state with an action id applied.
            fn child(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<$state> {
                let action = read_action(py, action)?;
                let mut table = self.table.read(py, |table| Ok(table.clone()))?;
                table.write(py, |table| table.apply(py, action))?;
                Ok($state { table })
            }
            /// Every chance outcome's code with its probability as a float.
            fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.table.read(py, |table| table.chance_outcomes(py, false))
            }
            /// Every chance outcome's code with its exact probability as (numerator, denominator).
            fn exact_chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.table.read(py, |table| table.chance_outcomes(py, true))
            }
            /// Draw a chance outcome's code with its true probability.
            fn sample_chance<'py>(&self, py: Python<'py>, rng: &mut NativeRng) -> PyResult<Bound<'py, PyTuple>> {
                self.table.read(py, |table| table.sample_chance(py, &mut rng.rng))
            }
            /// Apply a chance outcome by its code, in place; refused unless possible here.
            fn apply_chance(&mut self, py: Python<'_>, code: &Bound<'_, PyAny>) -> PyResult<()> {
                let code = read_code(py, code)?;
                self.table.write(py, |table| table.apply_chance(py, &code))
            }
            /// Draw and apply a chance outcome, in place.
            fn apply_random_chance(&mut self, py: Python<'_>, rng: &mut NativeRng) -> PyResult<()> {
                self.table.write(py, |table| table.apply_random_chance(py, &mut rng.rng))
            }
            /// What `seat` (None: a spectator) observes: the RL encoder's float32 array.
            #[pyo3(signature = (seat=None))]
            fn observation<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyArray1<f32>>> {
                self.table.read(py, |table| table.observation(py, seat))
            }
            /// Each player's share of the win (1 split among the winners).
            fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
                self.table.read(py, |table| Ok(table.returns()))
            }
            /// Each player's points so far.
            fn scores(&self, py: Python<'_>) -> PyResult<Vec<i64>> {
                self.table.read(py, |table| Ok(table.scores()))
            }
            /// The winning seats once the game is over.
            fn winners(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
                self.table.read(py, |table| Ok(table.winners()))
            }
            /// The state as integers (the agreement test's canonical encoding).
            fn canonical<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                self.table.read(py, |table| Ok(table.canonical(py)))
            }
            /// Every step so far: action ids (int) and chance codes (tuple), in order.
            fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.table.read(py, |table| Ok(table.history(py)))
            }
            /// The number of steps so far.
            fn __len__(&self) -> usize {
                self.table.steps()
            }
            /// An equal, independent state.
            fn clone(&self, py: Python<'_>) -> PyResult<$state> {
                self.table.read(py, |table| Ok($state { table: table.clone() }))
            }
            fn __copy__(&self, py: Python<'_>) -> PyResult<$state> {
                self.clone(py)
            }
            fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<$state> {
                self.clone(py)
            }
            fn __repr__(&self) -> String {
                format!("<native {} state after {} steps>", <$rules as Rules>::ID, self.table.steps())
            }
            /// Panic while changing this state, as a rule with a bug would: for the test that
            /// the state is then refused, never answered from.
            fn _panic_for_test(&mut self, py: Python<'_>) -> PyResult<()> {
                self.table.write(py, |_| -> PyResult<()> { panic!("a test asked for a panic") })
            }
        }

        impl $game {
            fn build(py: Python<'_>, players: usize, options: &Options) -> PyResult<PyObject> {
                match <$rules as Rules>::new(players, options) {
                    Ok(rules) => Ok(Py::new(py, $game { rules: Arc::new(rules) })?.into_any()),
                    Err(refusal) => Err(refused(py, refusal, "")),
                }
            }
        }
    };
}

#[cfg(feature = "auf_die_eier")]
native_game!(crate::games::auf_die_eier::Eier, EierGame, EierState);
#[cfg(feature = "auf_die_nuesse")]
native_game!(crate::games::auf_die_nuesse::Nuesse, NuesseGame, NuesseState);
#[cfg(feature = "auweier")]
native_game!(crate::games::auweier::Auweier, AuweierGame, AuweierState);
#[cfg(feature = "awimbawe")]
native_game!(crate::games::awimbawe::Awimbawe, AwimbaweGame, AwimbaweState);

/// The ids of the games this build carries.
fn game_ids() -> Vec<&'static str> {
    [
        #[cfg(feature = "auf_die_eier")]
        <crate::games::auf_die_eier::Eier as Rules>::ID,
        #[cfg(feature = "auf_die_nuesse")]
        <crate::games::auf_die_nuesse::Nuesse as Rules>::ID,
        #[cfg(feature = "auweier")]
        <crate::games::auweier::Auweier as Rules>::ID,
        #[cfg(feature = "awimbawe")]
        <crate::games::awimbawe::Awimbawe as Rules>::ID,
    ]
    .to_vec()
}

/// The native game `game_id` with `players` and `options` (checked by the Python face first,
/// and again here); `mutation` names a deliberately broken rule (the test of the test only).
#[pyfunction]
#[pyo3(signature = (game_id, players, options, mutation=None))]
fn new_game(
    py: Python<'_>,
    game_id: &str,
    players: usize,
    options: Vec<(String, Bound<'_, PyAny>)>,
    mutation: Option<String>,
) -> PyResult<PyObject> {
    let options = read_options(options, mutation)?;
    guard(py, game_id, || match game_id {
        #[cfg(feature = "auf_die_eier")]
        "auf-die-eier" => EierGame::build(py, players, &options),
        #[cfg(feature = "auf_die_nuesse")]
        "auf-die-nuesse" => NuesseGame::build(py, players, &options),
        #[cfg(feature = "auweier")]
        "auweier" => AuweierGame::build(py, players, &options),
        #[cfg(feature = "awimbawe")]
        "awimbawe" => AwimbaweGame::build(py, players, &options),
        other => Err(error(py, "UnknownGameError", (format!("the native core has no game {other:?}"),))),
    })
}

/// Panic inside the guard, as a game would on a bug: for the test that no panic crosses into
/// Python as anything but a `NativeError` naming the game.
#[pyfunction]
fn _panic_for_test(py: Python<'_>, game_id: &str) -> PyResult<()> {
    guard(py, game_id, || -> PyResult<()> { panic!("a test asked for a panic") })
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    module.add("GAMES", game_ids())?;
    module.add_class::<NativeRng>()?;
    module.add_class::<batch::NativeBatch>()?;
    module.add_class::<play::NativeRoster>()?;
    module.add_function(wrap_pyfunction!(new_game, module)?)?;
    module.add_function(wrap_pyfunction!(_panic_for_test, module)?)?;
    #[cfg(feature = "auf_die_eier")]
    module.add_function(wrap_pyfunction!(race::eier_win_chances, module)?)?;
    #[cfg(feature = "auf_die_eier")]
    module.add_function(wrap_pyfunction!(race::eier_racer_choices, module)?)?;
    #[cfg(feature = "auf_die_eier")]
    module.add_function(wrap_pyfunction!(race::eier_turn_ends, module)?)?;
    #[cfg(feature = "auf_die_nuesse")]
    module.add_function(wrap_pyfunction!(rollout::nuesse_rollout, module)?)?;
    Ok(())
}
