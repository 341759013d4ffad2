//! `NativeBatch`: N games of one game stepped inside Rust (`crate::core::batch`), writing into
//! numpy arrays the batch owns. One class for every game: the game's batch sits behind
//! [`Engine`]. The arrays are made once and handed out as themselves (no copies): every step
//! overwrites them. A step releases the GIL while the rows are played (on the batch's own
//! threads when it has more than one).

use std::panic::{catch_unwind, AssertUnwindSafe};

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::{error, panicked, read_options, refused};
use crate::core::batch::{Batch, Out, Reward, Seats, Setup};
use crate::core::{rng_from_seed, Options, Refusal, Rng, Rules};

/// A game's batch, whatever the game.
trait Engine: Send {
    fn id(&self) -> &'static str;
    /// Observation size, action ids, players.
    fn widths(&self) -> (usize, usize, usize);
    fn len(&self) -> usize;
    fn reset(&mut self, seeds: &[u64], out: Out<'_>) -> Result<(), Refusal>;
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), (usize, Refusal)>;
    fn restart(&mut self, rows: &[bool], out: Out<'_>) -> Result<(), Refusal>;
    fn history(&self, row: usize, last: bool) -> Vec<i64>;
    fn observe_all(&self, out: &mut [f32]) -> Result<(), Refusal>;
    fn random_actions(&self, rng: &mut Rng, out: &mut [i64]);
}

impl<R: Rules> Engine for Batch<R> {
    fn id(&self) -> &'static str {
        R::ID
    }
    fn widths(&self) -> (usize, usize, usize) {
        let rules = self.rules();
        (rules.observation_size(), rules.num_distinct_actions(), rules.players())
    }
    fn len(&self) -> usize {
        Batch::len(self)
    }
    fn reset(&mut self, seeds: &[u64], out: Out<'_>) -> Result<(), Refusal> {
        Batch::reset(self, seeds, out)
    }
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), (usize, Refusal)> {
        Batch::step(self, actions, out)
    }
    fn restart(&mut self, rows: &[bool], out: Out<'_>) -> Result<(), Refusal> {
        Batch::restart(self, rows, out)
    }
    fn history(&self, row: usize, last: bool) -> Vec<i64> {
        Batch::history(self, row, last).to_vec()
    }
    fn observe_all(&self, out: &mut [f32]) -> Result<(), Refusal> {
        Batch::observe_all(self, out)
    }
    fn random_actions(&self, rng: &mut Rng, out: &mut [i64]) {
        Batch::random_actions(self, rng, out)
    }
}

/// The batch of game `R`.
fn build<R: Rules>(
    players: usize,
    options: &Options,
    count: usize,
    setup: Setup,
    threads: usize,
) -> Result<Box<dyn Engine>, Refusal> {
    Ok(Box::new(Batch::new(R::new(players, options)?, count, setup, threads)?))
}

/// The batch of `game_id`.
fn engine_of(
    game_id: &str,
    players: usize,
    options: &Options,
    count: usize,
    setup: Setup,
    threads: usize,
) -> Result<Box<dyn Engine>, Refusal> {
    match game_id {
        #[cfg(feature = "auf_die_eier")]
        "auf-die-eier" => build::<crate::games::auf_die_eier::Eier>(players, options, count, setup, threads),
        #[cfg(feature = "auf_die_nuesse")]
        "auf-die-nuesse" => build::<crate::games::auf_die_nuesse::Nuesse>(players, options, count, setup, threads),
        #[cfg(feature = "auweier")]
        "auweier" => build::<crate::games::auweier::Auweier>(players, options, count, setup, threads),
        #[cfg(feature = "awimbawe")]
        "awimbawe" => build::<crate::games::awimbawe::Awimbawe>(players, options, count, setup, threads),
        other => Err(Refusal::Option(format!("the native core has no game {other:?}"))),
    }
}

/// The most threads a batch takes.
const MAX_THREADS: usize = 256;

/// N games of one game stepped inside Rust (see the module docstring).
#[pyclass(module = "spieltisch._native")]
pub struct NativeBatch {
    engine: Box<dyn Engine>,
    broken: bool,
    #[pyo3(get)]
    observation: Py<PyArray2<f32>>,
    #[pyo3(get)]
    action_mask: Py<PyArray2<i8>>,
    #[pyo3(get)]
    current_player: Py<PyArray1<i64>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
    #[pyo3(get)]
    illegal: Py<PyArray1<bool>>,
    #[pyo3(get)]
    final_scores: Py<PyArray2<i64>>,
    #[pyo3(get)]
    final_observation: Py<PyArray2<f32>>,
    #[pyo3(get)]
    final_mask: Py<PyArray2<i8>>,
    every_seat: Option<Py<PyArray3<f32>>>,
    actions: Py<PyArray1<i64>>,
    policy: Rng,
}

/// The reward of its name and the score range.
fn read_reward(name: &str, span: f64) -> PyResult<Reward> {
    match name {
        "returns" => Ok(Reward::Returns),
        "win_loss" => Ok(Reward::WinLoss),
        "score_diff" if span > 0.0 => Ok(Reward::ScoreDiff { span }),
        _ => Err(PyValueError::new_err(format!("no reward {name:?} with span {span}"))),
    }
}

/// `"all"`, `"rotate"` or a learner's seat.
fn read_seats(value: &Bound<'_, PyAny>) -> PyResult<Seats> {
    if value.is_instance_of::<PyString>() {
        return match value.extract::<String>()?.as_str() {
            "all" => Ok(Seats::All),
            "rotate" => Ok(Seats::Rotate),
            other => Err(PyValueError::new_err(format!("seats is \"all\", \"rotate\" or a seat, not {other:?}"))),
        };
    }
    Ok(Seats::Learner(value.extract()?))
}

/// The slices of a batch's arrays, borrowed for one call.
macro_rules! with_out {
    ($self:ident, $py:ident, |$out:ident| $body:expr) => {{
        let mut observation = $self.observation.bind($py).readwrite();
        let mut action_mask = $self.action_mask.bind($py).readwrite();
        let mut current_player = $self.current_player.bind($py).readwrite();
        let mut rewards = $self.rewards.bind($py).readwrite();
        let mut terminated = $self.terminated.bind($py).readwrite();
        let mut illegal = $self.illegal.bind($py).readwrite();
        let mut final_scores = $self.final_scores.bind($py).readwrite();
        let mut final_observation = $self.final_observation.bind($py).readwrite();
        let mut final_mask = $self.final_mask.bind($py).readwrite();
        let $out = Out {
            observation: observation.as_slice_mut().map_err(not_contiguous)?,
            action_mask: action_mask.as_slice_mut().map_err(not_contiguous)?,
            current_player: current_player.as_slice_mut().map_err(not_contiguous)?,
            rewards: rewards.as_slice_mut().map_err(not_contiguous)?,
            terminated: terminated.as_slice_mut().map_err(not_contiguous)?,
            illegal: illegal.as_slice_mut().map_err(not_contiguous)?,
            final_scores: final_scores.as_slice_mut().map_err(not_contiguous)?,
            final_observation: final_observation.as_slice_mut().map_err(not_contiguous)?,
            final_mask: final_mask.as_slice_mut().map_err(not_contiguous)?,
        };
        $body
    }};
}

fn not_contiguous(e: numpy::NotContiguousError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl NativeBatch {
    /// A `NativeError` if an earlier panic left the batch broken.
    fn usable(&self, py: Python<'_>) -> PyResult<()> {
        if self.broken {
            let text =
                format!("this {} batch was left broken by an earlier failure of the native core", self.engine.id());
            return Err(error(py, "NativeError", (text,)));
        }
        Ok(())
    }

    /// Run `work` on the engine with the GIL released; a panic leaves the batch broken.
    fn play<T: Send>(&mut self, py: Python<'_>, work: impl FnOnce(&mut dyn Engine) -> T + Send) -> PyResult<T> {
        self.usable(py)?;
        let engine = &mut *self.engine;
        let id = engine.id();
        match py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| work(engine)))) {
            Ok(done) => Ok(done),
            Err(panic) => {
                self.broken = true;
                Err(panicked(py, id, panic))
            }
        }
    }
}

#[pymethods]
impl NativeBatch {
    /// `count` games of `game_id` (players and options as `new_game` takes them); `seats`:
    /// `"all"` (each row shows its seat to move), `"rotate"` or a learner's seat (the others
    /// play at random inside the step); `span` the score range for `score_diff`.
    #[new]
    #[pyo3(signature = (game_id, players, options, count, reward="returns", span=1.0, seats=None, threads=1, record=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: &str,
        players: usize,
        options: Vec<(String, Bound<'_, PyAny>)>,
        count: usize,
        reward: &str,
        span: f64,
        seats: Option<&Bound<'_, PyAny>>,
        threads: usize,
        record: bool,
    ) -> PyResult<Self> {
        if count == 0 || !(1..=MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "a batch needs at least one game and 1 to {MAX_THREADS} threads"
            )));
        }
        let options = read_options(options, None)?;
        let seats = seats.map_or(Ok(Seats::All), read_seats)?;
        let setup = Setup { reward: read_reward(reward, span)?, seats, record };
        let engine = super::guard(py, game_id, || {
            engine_of(game_id, players, &options, count, setup, threads).map_err(|r| refused(py, r, ""))
        })?;
        let (size, actions, players) = engine.widths();
        Ok(NativeBatch {
            engine,
            broken: false,
            observation: PyArray2::zeros_bound(py, [count, size], false).unbind(),
            action_mask: PyArray2::zeros_bound(py, [count, actions], false).unbind(),
            current_player: PyArray1::zeros_bound(py, count, false).unbind(),
            rewards: PyArray2::zeros_bound(py, [count, players], false).unbind(),
            terminated: PyArray1::from_vec_bound(py, vec![false; count]).unbind(),
            illegal: PyArray1::from_vec_bound(py, vec![false; count]).unbind(),
            final_scores: PyArray2::zeros_bound(py, [count, players], false).unbind(),
            final_observation: PyArray2::zeros_bound(py, [count, size], false).unbind(),
            final_mask: PyArray2::zeros_bound(py, [count, actions], false).unbind(),
            every_seat: None,
            actions: PyArray1::zeros_bound(py, count, false).unbind(),
            policy: rng_from_seed(0),
        })
    }

    /// Start every game: game `i` from `seeds[i]` (a uint64 array).
    fn reset(&mut self, py: Python<'_>, seeds: PyReadonlyArray1<'_, u64>) -> PyResult<()> {
        self.usable(py)?;
        let seeds = seeds.as_slice().map_err(not_contiguous)?;
        let id = self.engine.id();
        let done = with_out!(self, py, |out| {
            let engine = &mut *self.engine;
            let result = py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| engine.reset(seeds, out))));
            match result {
                Ok(done) => done,
                Err(panic) => {
                    self.broken = true;
                    return Err(panicked(py, id, panic));
                }
            }
        });
        done.map_err(|refusal| refused(py, refusal, "reset"))
    }

    /// Play `actions[i]` (an int64 array of action ids) in game `i` (see `crate::core::batch`).
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        self.usable(py)?;
        let actions = actions.as_slice().map_err(not_contiguous)?;
        let id = self.engine.id();
        let done = with_out!(self, py, |out| {
            let engine = &mut *self.engine;
            let result = py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| engine.step(actions, out))));
            match result {
                Ok(done) => done,
                Err(panic) => {
                    self.broken = true;
                    return Err(panicked(py, id, panic));
                }
            }
        });
        done.map_err(|(row, refusal)| {
            let action = actions.get(row).copied().unwrap_or_default();
            refused(py, refusal, &format!("action {action} in game {row}"))
        })
    }

    /// Start a new game in every game flagged in `rows` (a bool array), cutting the one it
    /// plays short: its observation and mask so far go to `final_observation` and
    /// `final_mask`, its scores so far to `final_scores`, and nothing is paid (a step limit's
    /// truncation; see `crate::core::batch`).
    fn restart(&mut self, py: Python<'_>, rows: PyReadonlyArray1<'_, bool>) -> PyResult<()> {
        self.usable(py)?;
        let rows = rows.as_slice().map_err(not_contiguous)?;
        let id = self.engine.id();
        let done = with_out!(self, py, |out| {
            let engine = &mut *self.engine;
            let result = py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| engine.restart(rows, out))));
            match result {
                Ok(done) => done,
                Err(panic) => {
                    self.broken = true;
                    return Err(panicked(py, id, panic));
                }
            }
        });
        done.map_err(|refusal| refused(py, refusal, "restart"))
    }

    /// Every seat's observation of every game: a `players x N x size` float32 array of the
    /// batch's own (overwritten at the next call).
    fn observe_all<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (size, _, players) = self.engine.widths();
        let count = self.engine.len();
        let array = match &self.every_seat {
            Some(array) => array.bind(py).clone(),
            None => {
                let made = PyArray3::<f32>::zeros_bound(py, [players, count, size], false);
                self.every_seat = Some(made.clone().unbind());
                made
            }
        };
        {
            let mut view = array.readwrite();
            let out = view.as_slice_mut().map_err(not_contiguous)?;
            self.play(py, |engine| engine.observe_all(out))?.map_err(|refusal| refused(py, refusal, ""))?;
        }
        Ok(array)
    }

    /// A uniformly random legal action id for each game, in an int64 array of the batch's own
    /// (overwritten at the next call), from a generator of its own (`seed`: restarted from it).
    #[pyo3(signature = (seed=None))]
    fn random_actions<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.usable(py)?;
        if let Some(seed) = seed {
            self.policy = rng_from_seed(seed);
        }
        let array = self.actions.bind(py).clone();
        {
            let mut view = array.readwrite();
            let out = view.as_slice_mut().map_err(not_contiguous)?;
            self.engine.random_actions(&mut self.policy, out);
        }
        Ok(array)
    }

    /// The steps of game `row`'s game so far (`last`: of its last finished game): action ids
    /// (int) and chance codes (tuple), in order; empty unless the batch keeps records.
    #[pyo3(signature = (row, last=false))]
    fn history<'py>(&self, py: Python<'py>, row: usize, last: bool) -> PyResult<Bound<'py, PyList>> {
        if row >= self.engine.len() {
            return Err(PyValueError::new_err(format!("no game {row} in a batch of {}", self.engine.len())));
        }
        let flat = self.engine.history(row, last);
        let list = PyList::empty_bound(py);
        let mut index = 0;
        while index < flat.len() {
            let item = flat[index];
            if item >= 0 {
                list.append(item)?;
                index += 1;
            } else {
                let length = (-item - 1) as usize;
                list.append(PyTuple::new_bound(py, &flat[index + 1..index + 1 + length]))?;
                index += 1 + length;
            }
        }
        Ok(list)
    }

    fn __len__(&self) -> usize {
        self.engine.len()
    }
}
