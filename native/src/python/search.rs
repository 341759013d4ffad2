//! The search as Python calls it: each native game's `search(belief, legal, ...)`.
//!
//! The Python face packs the deciding seat's view into a belief code (its game's
//! `belief_code`) and passes the legal action ids; this reads and checks them, runs
//! [`crate::agents::ismcts::search`] with the GIL released and answers
//! `(iterations, seconds, [(action_id, visits, mean_return), ...])`, the choices ranked as the
//! Python search ranks them. Input that is no belief or no action raises
//! `InvalidActionError`, a budget or setting out of bounds `OptionError`; a panic becomes a
//! `NativeError` naming the game.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use super::{error, panicked, refused};
use crate::agents::ismcts::{search as run_search, Budget, Settings};
use crate::core::{Kit, Refusal};

/// The longest belief code read (the longest a game packs is well below it).
pub const MAX_BELIEF: usize = 4096;
/// The most legal actions read (above any game's action table).
pub const MAX_LEGAL: usize = 65_536;

/// What a search answers: iterations, seconds, and each choice's id, visits and mean return.
pub type Found = (u64, f64, Vec<(u32, u64, f64)>);

/// A search's settings as Python gives them (checked here).
pub struct Asked {
    pub iterations: Option<i64>,
    pub seconds: Option<f64>,
    pub seed: u64,
    pub threads: i64,
    pub exploration: Option<f64>,
    pub tree_depth: Option<i64>,
}

/// A sequence of at most `max` whole numbers (no bool, no string) from Python, or an
/// `InvalidActionError` saying it is no `what`.
fn read_ints(py: Python<'_>, value: &Bound<'_, PyAny>, max: usize, what: &str) -> PyResult<Vec<i64>> {
    let invalid = |text: String| error(py, "InvalidActionError", (text,));
    if value.is_instance_of::<PyString>() || value.len().map_or(true, |n| n > max) {
        return Err(invalid(format!("{what} is a sequence of at most {max} whole numbers")));
    }
    let mut out = Vec::with_capacity(value.len().unwrap_or(0));
    for item in value.iter()? {
        let item = item?;
        if item.is_instance_of::<PyBool>() {
            return Err(invalid(format!("{what} holds whole numbers, not true or false")));
        }
        match item.extract::<i64>() {
            Ok(number) => out.push(number),
            Err(_) => return Err(invalid(format!("{what} holds whole numbers only"))),
        }
    }
    Ok(out)
}

/// The settings of `asked`, or the `Refusal::Option` of what is out of bounds.
fn settings(asked: &Asked) -> Result<Settings, Refusal> {
    let budget = match (asked.iterations, asked.seconds) {
        (Some(n), None) => Budget::Iterations(u64::try_from(n).unwrap_or(0)),
        (None, Some(s)) => Budget::Seconds(s),
        _ => return Err(Refusal::Option("a search takes iterations or seconds, one of the two".into())),
    };
    let threads = usize::try_from(asked.threads).unwrap_or(0);
    let tree_depth = asked.tree_depth.map(|depth| usize::try_from(depth).unwrap_or(0));
    let settings = Settings { budget, seed: asked.seed, threads, exploration: asked.exploration, tree_depth };
    settings.check()?;
    Ok(settings)
}

/// Search `rules`' game from the belief code `belief`, choosing among the action ids `legal`.
pub fn search<K: Kit>(
    py: Python<'_>,
    rules: &K,
    belief: &Bound<'_, PyAny>,
    legal: &Bound<'_, PyAny>,
    asked: &Asked,
) -> PyResult<Found> {
    let code = read_ints(py, belief, MAX_BELIEF, "a belief code")?;
    let ids = read_ints(py, legal, MAX_LEGAL, "the legal action ids")?;
    let settings = settings(asked).map_err(|refusal| refused(py, refusal, ""))?;
    let mut actions = Vec::with_capacity(ids.len());
    for id in ids {
        match u32::try_from(id) {
            Ok(action) => actions.push(action),
            Err(_) => return Err(refused(py, Refusal::Invalid(format!("{id} is no action id of {}", K::ID)), "")),
        }
    }
    let answer = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let belief = rules.belief_from_code(&code)?;
            run_search(rules, &belief, &actions, &settings)
        }))
    });
    match answer {
        Ok(Ok(result)) => {
            let choices = result.choices.iter().map(|c| (c.action, c.visits, c.mean_return)).collect();
            Ok((result.iterations, result.seconds, choices))
        }
        Ok(Err(refusal)) => Err(refused(py, refusal, "")),
        Err(panic) => Err(panicked(py, K::ID, panic)),
    }
}
