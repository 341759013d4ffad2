//! One native state as Python sees it: the rules' state, its history and the conversions of
//! its answers to Python values. Generic over the game; `mod.rs` wraps it in each game's class.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{error, guard, panicked, refused};
use crate::core::playout::play_outs;
use crate::core::{apply_checked, apply_code, Node, Rng, Rules, Step};

/// A state with its history: action ids as themselves, each chance outcome as a negative
/// marker `-(length + 1)` followed by its code (one flat vector: no allocation per step).
/// A panic while changing it leaves it *broken*: every later call refuses with a
/// `NativeError` rather than answer from a state the rules may have left half changed.
pub struct Table<R: Rules> {
    rules: Arc<R>,
    state: R::State,
    history: Vec<i64>,
    steps: usize,
    scratch: Vec<u32>,
    code: Vec<i64>,
    broken: bool,
}

impl<R: Rules> Clone for Table<R> {
    fn clone(&self) -> Self {
        Table {
            rules: self.rules.clone(),
            state: self.state.clone(),
            history: self.history.clone(),
            steps: self.steps,
            scratch: Vec::with_capacity(self.scratch.capacity()),
            code: Vec::new(),
            broken: self.broken,
        }
    }
}

impl<R: Rules> Table<R> {
    pub fn new(rules: Arc<R>) -> Self {
        let state = rules.initial_state();
        Table {
            rules,
            state,
            history: Vec::new(),
            steps: 0,
            scratch: Vec::with_capacity(64),
            code: Vec::new(),
            broken: false,
        }
    }

    /// Whether this state is of the game `rules` (the same player count and options).
    pub fn has_rules(&self, rules: &Arc<R>) -> bool {
        Arc::ptr_eq(&self.rules, rules)
    }

    fn usable(&self, py: Python<'_>) -> PyResult<()> {
        if self.broken {
            let text = format!("this {} state was left broken by an earlier failure of the native core", R::ID);
            return Err(error(py, "NativeError", (text,)));
        }
        Ok(())
    }

    /// Answer from this state under the panic guard.
    pub fn read<T>(&self, py: Python<'_>, work: impl FnOnce(&Self) -> PyResult<T>) -> PyResult<T> {
        self.usable(py)?;
        guard(py, R::ID, || work(self))
    }

    /// Change this state under the panic guard; a panic leaves it broken.
    pub fn write<T>(&mut self, py: Python<'_>, work: impl FnOnce(&mut Self) -> PyResult<T>) -> PyResult<T> {
        self.usable(py)?;
        match catch_unwind(AssertUnwindSafe(|| work(&mut *self))) {
            Ok(result) => result,
            Err(panic) => {
                self.broken = true;
                Err(panicked(py, R::ID, panic))
            }
        }
    }

    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The rules' state itself (for an agent to act on it).
    pub fn state(&self) -> &R::State {
        &self.state
    }

    pub fn current_player(&self) -> Option<usize> {
        match self.rules.node(&self.state) {
            Node::Decision(seat) => Some(seat),
            _ => None,
        }
    }

    pub fn is_chance(&self) -> bool {
        self.rules.node(&self.state) == Node::Chance
    }

    pub fn is_terminal(&self) -> bool {
        self.rules.node(&self.state) == Node::Terminal
    }

    pub fn legal_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyList> {
        self.scratch.clear();
        self.rules.legal_actions(&self.state, &mut self.scratch);
        PyList::new_bound(py, self.scratch.iter())
    }

    pub fn apply(&mut self, py: Python<'_>, action: i64) -> PyResult<()> {
        match apply_checked(&*self.rules, &mut self.state, action, &mut self.scratch) {
            Ok(()) => {
                self.history.push(action);
                self.steps += 1;
                Ok(())
            }
            Err(refusal) => Err(refused(py, refusal, &format!("action {action}"))),
        }
    }

    fn record_chance(&mut self, outcome: &R::Outcome) {
        self.code.clear();
        self.rules.outcome_code(outcome, &mut self.code);
        self.history.push(-(self.code.len() as i64) - 1);
        self.history.extend_from_slice(&self.code);
        self.steps += 1;
    }

    pub fn chance_outcomes<'py>(&self, py: Python<'py>, exact: bool) -> PyResult<Bound<'py, PyList>> {
        let mut outcomes = Vec::new();
        if self.rules.node(&self.state) == Node::Chance {
            self.rules.chance_outcomes(&self.state, &mut outcomes).map_err(|refusal| refused(py, refusal, ""))?;
        }
        let list = PyList::empty_bound(py);
        let mut code = Vec::new();
        for (outcome, prob) in outcomes {
            code.clear();
            self.rules.outcome_code(&outcome, &mut code);
            let code = PyTuple::new_bound(py, code.iter());
            if exact {
                list.append((code, prob.num, prob.den))?;
            } else {
                list.append((code, prob.as_f64()))?;
            }
        }
        Ok(list)
    }

    fn check_chance(&self, py: Python<'_>) -> PyResult<()> {
        if self.rules.node(&self.state) == Node::Chance {
            return Ok(());
        }
        Err(refused(py, crate::core::Refusal::not_chance(), "chance"))
    }

    pub fn sample_chance<'py>(&self, py: Python<'py>, rng: &mut Rng) -> PyResult<Bound<'py, PyTuple>> {
        self.check_chance(py)?;
        let outcome = self.rules.sample_chance(&self.state, rng);
        let mut code = Vec::new();
        self.rules.outcome_code(&outcome, &mut code);
        Ok(PyTuple::new_bound(py, code))
    }

    pub fn apply_chance(&mut self, py: Python<'_>, code: &[i64]) -> PyResult<()> {
        match apply_code(&*self.rules, &mut self.state, code) {
            Ok(outcome) => {
                self.record_chance(&outcome); // as the game writes it (a hand in card order)
                Ok(())
            }
            Err(refusal) => Err(refused(py, refusal, &format!("chance {code:?}"))),
        }
    }

    pub fn apply_random_chance(&mut self, py: Python<'_>, rng: &mut Rng) -> PyResult<()> {
        self.check_chance(py)?;
        let outcome = self.rules.sample_chance(&self.state, rng);
        self.record_chance(&outcome);
        self.rules.apply_outcome(&mut self.state, &outcome);
        Ok(())
    }

    pub fn observation<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = match seat {
            None => None,
            Some(seat) if (0..self.rules.players() as i64).contains(&seat) => Some(seat as usize),
            Some(seat) => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "{} has no seat {seat} (0 to {})",
                    R::ID,
                    self.rules.players() - 1
                )))
            }
        };
        let array = PyArray1::<f32>::zeros_bound(py, self.rules.observation_size(), false);
        {
            let mut view = array.readwrite();
            let out = view.as_slice_mut().map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
            self.rules.observe(&self.state, seat, out);
        }
        Ok(array)
    }

    pub fn returns(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.rules.players()];
        self.rules.returns(&self.state, &mut out);
        out
    }

    pub fn scores(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.rules.scores(&self.state, &mut out);
        out
    }

    pub fn winners(&self) -> Vec<usize> {
        let bits = self.rules.winners(&self.state);
        (0..self.rules.players()).filter(|seat| bits & (1 << seat) != 0).collect()
    }

    pub fn canonical<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        let mut out = Vec::new();
        self.rules.canonical(&self.state, &mut out);
        PyTuple::new_bound(py, out)
    }

    pub fn history<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        let list = PyList::empty_bound(py);
        let mut index = 0;
        while index < self.history.len() {
            let item = self.history[index];
            if item >= 0 {
                let _ = list.append(item);
                index += 1;
            } else {
                let length = (-item - 1) as usize;
                let _ = list.append(PyTuple::new_bound(py, &self.history[index + 1..index + 1 + length]));
                index += 1 + length;
            }
        }
        list
    }
}

/// `count` playouts from `table`'s state, as (returns, steps, records or None).
pub fn playouts<'py, R: Rules>(
    py: Python<'py>,
    table: &Table<R>,
    count: usize,
    seed: u64,
    threads: usize,
    records: bool,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, PyObject)> {
    let rules = table.rules.clone();
    let start = table.state.clone();
    let played = py.allow_threads(|| play_outs(&*rules, &start, count, seed, threads, records));
    let players = rules.players();
    let mut returns = Vec::with_capacity(count * players);
    let mut steps = Vec::with_capacity(count);
    for playout in &played {
        returns.extend_from_slice(&playout.returns);
        steps.push(playout.steps);
    }
    let returns = PyArray1::from_vec_bound(py, returns).reshape([count, players])?.into_any();
    let steps = PyArray1::from_vec_bound(py, steps).into_any();
    let kept: PyObject = if records {
        let list = PyList::empty_bound(py);
        for playout in played {
            let steps = PyList::empty_bound(py);
            for step in playout.record.unwrap_or_default() {
                match step {
                    Step::Action(action) => steps.append(action)?,
                    Step::Chance(code) => steps.append(PyTuple::new_bound(py, code))?,
                }
            }
            list.append(steps)?;
        }
        list.into_any().unbind()
    } else {
        py.None()
    };
    Ok((returns, steps, kept))
}
