//! `eier_win_chances`: Auf die Eier's race ([`crate::games::auf_die_eier::race`]) for the lab;
//! `eier_racer_choices` and `eier_turn_ends`: the racer's worth of every choice at a decision
//! and of every way its turn can end ([`crate::games::auf_die_eier::bots::racer`]).
//!
//! Python hands over a state's canonical integers (`spieltisch/native/auf_die_eier.py`'s
//! `canonical`) and gets each player's chance to win. The race tables of the last few goals
//! and numbers of dice are kept between calls, as the Python module keeps them.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::{guard, refused};
use crate::core::{Kit, OptionValue, Options, Rules};
use crate::games::auf_die_eier::bots::racer;
use crate::games::auf_die_eier::model::Stage;
use crate::games::auf_die_eier::race::{win_chances, Race};
use crate::games::auf_die_eier::rules::EierState;
use crate::games::auf_die_eier::Eier;

/// Race tables kept at once (as the Python module's `RACES_KEPT`).
const RACES_KEPT: usize = 4;

/// The races asked for so far, by goal and dice, with the call that last used each.
type Races = HashMap<(u16, u8), (u64, Race)>;

fn races() -> &'static Mutex<(u64, Races)> {
    static RACES: OnceLock<Mutex<(u64, Races)>> = OnceLock::new();
    RACES.get_or_init(|| Mutex::new((0, HashMap::new())))
}

/// The rules of the game a canonical code starts with (players, shared ladder, goal, dice).
fn rules_of(py: Python<'_>, code: &[i64]) -> PyResult<Eier> {
    let [players, shared, goal, dice, ..] = code else {
        return Err(PyValueError::new_err("an auf-die-eier state code starts with players, ladder, goal, dice"));
    };
    let options = Options::new(vec![
        ("shared_chicken_ladder".into(), OptionValue::Bool(*shared != 0)),
        ("goal".into(), OptionValue::Int(*goal)),
        ("dice".into(), OptionValue::Int(*dice)),
    ]);
    let players = usize::try_from(*players).map_err(|_| PyValueError::new_err("no player count"))?;
    Eier::new(players, &options).map_err(|refusal| refused(py, refusal, ""))
}

/// Each player's chance to win from the Auf die Eier state of canonical integers `code` (a
/// decision, a turn's start or the end), as a tuple of floats summing to one.
#[pyfunction]
pub fn eier_win_chances<'py>(py: Python<'py>, code: Vec<i64>) -> PyResult<Bound<'py, PyTuple>> {
    guard(py, Eier::ID, || {
        let chances = with_race(py, &code, win_chances)?;
        Ok(PyTuple::new_bound(py, chances))
    })
}

/// `work(race, rules, state)` on the state of canonical integers `code`, with the race of its
/// goal and dice kept between calls.
fn with_race<T>(
    py: Python<'_>,
    code: &[i64],
    work: impl FnOnce(&mut Race, &Eier, &EierState) -> Result<T, String>,
) -> PyResult<T> {
    let rules = rules_of(py, code)?;
    let state = rules.belief_from_code(code).map_err(|refusal| refused(py, refusal, ""))?;
    let key = (rules.config.goal, rules.config.dice);
    let mut held = races().lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (clock, races) = &mut *held;
    *clock += 1;
    if !races.contains_key(&key) && races.len() >= RACES_KEPT {
        let oldest = races.iter().min_by_key(|(_, (used, _))| *used).map(|(key, _)| *key);
        races.remove(&oldest.expect("a full cache holds a race"));
    }
    let (used, race) = races.entry(key).or_insert_with(|| (0, Race::new(key.0, key.1)));
    *used = *clock;
    work(race, &rules, &state).map_err(PyValueError::new_err)
}

/// The racer's every legal choice at the Auf die Eier decision of canonical integers `code`,
/// with the mover's chance to win by it: `(action id, chance)`, `stop` first, the re-rolls in
/// id order.
#[pyfunction]
pub fn eier_racer_choices(py: Python<'_>, code: Vec<i64>) -> PyResult<Vec<(u32, f64)>> {
    guard(py, Eier::ID, || {
        with_race(py, &code, |race, rules, state| {
            if state.stage != Stage::Decide {
                return Err("the racer chooses at a decision".into());
            }
            racer::choices(race, rules, state)
        })
    })
}

/// The mover's chance to win after its turn ends each way, from the Auf die Eier decision of
/// canonical integers `code`: two rows (the Chickens did not score, did), a chance per number
/// of points.
#[pyfunction]
pub fn eier_turn_ends(py: Python<'_>, code: Vec<i64>) -> PyResult<Vec<Vec<f64>>> {
    guard(py, Eier::ID, || {
        with_race(py, &code, |race, rules, state| {
            let ends = racer::turn_ends(race, rules, state)?;
            Ok(ends.chances.chunks(ends.width).map(<[f64]>::to_vec).collect())
        })
    })
}
