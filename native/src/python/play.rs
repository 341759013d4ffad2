//! Games between native agents, as Python drives them: a [`NativeRoster`] (a game's rules and
//! its agents by name, the Auf die Eier expert's table computed here or handed over once, and
//! [`NativeRoster::expert_table`] to compare that table with the Python expert's) and [`play_games`],
//! which plays many games end to end in Rust with the GIL released (see
//! `crate::agents::play`) and returns each game's steps and outcome.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::table::Table;
use super::{guard, read_action, read_code, refused};
use crate::agents::play::{check_match, play_many, Agent, Match, Played, RandomAgent};
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, Rules, Step};

/// The Auf die Eier expert's table as handed over: `(need, rolls, dice, action id)` entries
/// (need 0 for a used-up ladder).
type ExpertEntries = Vec<(u8, u8, [u8; 6], u32)>;

/// The expert's table as computed here, each entry with the chosen action's expected points.
type ValuedEntries = Vec<(u8, u8, [u8; 6], u32, f64)>;

/// A game's rules and its agents, one per name asked for.
struct Roster<R: Rules> {
    rules: Arc<R>,
    agents: Vec<Box<dyn Agent<R>>>,
}

/// A roster of whichever game.
enum AnyRoster {
    #[cfg(feature = "auf_die_eier")]
    Eier(Roster<crate::games::auf_die_eier::Eier>),
    #[cfg(feature = "auf_die_nuesse")]
    Nuesse(Roster<crate::games::auf_die_nuesse::Nuesse>),
    #[cfg(feature = "auweier")]
    Auweier(Roster<crate::games::auweier::Auweier>),
    #[cfg(feature = "awimbawe")]
    Awimbawe(Roster<crate::games::awimbawe::Awimbawe>),
}

/// The agents of a game a roster can seat, built once and shared by every game it plays.
#[pyclass(module = "spieltisch._native", frozen)]
pub struct NativeRoster {
    roster: AnyRoster,
    names: Vec<String>,
}

/// The names Auf die Eier's native agents go by (every game has `random`).
pub const EIER_AGENTS: [&str; 4] = ["random", "heuristic", "expert", "racer"];

/// The names Auweier's native agents go by.
pub const AUWEIER_AGENTS: [&str; 2] = ["random", "heuristic"];

/// The names Awimbawé's native agents go by.
pub const AWIMBAWE_AGENTS: [&str; 2] = ["random", "heuristic"];

/// The names Auf die Nüsse!'s native agents go by (the heuristic and the expert at their
/// default settings).
pub const NUESSE_AGENTS: [&str; 4] = ["random", "heuristic", "expert", "rollout"];

/// A generic agent by name, or an error naming what the game offers.
fn generic<R: Rules>(name: &str, offered: &[&str]) -> PyResult<Box<dyn Agent<R>>> {
    match name {
        "random" => Ok(Box::new(RandomAgent)),
        other => Err(PyValueError::new_err(format!(
            "{} has no native agent {other:?} (native agents: {})",
            R::ID,
            offered.join(", ")
        ))),
    }
}

#[cfg(feature = "auf_die_eier")]
fn eier_agent(
    name: &str,
    config: &crate::games::auf_die_eier::model::Config,
    expert: &Option<ExpertEntries>,
) -> PyResult<Box<dyn Agent<crate::games::auf_die_eier::Eier>>> {
    use crate::games::auf_die_eier::bots::{ExpertAgent, ExpertTable, HeuristicAgent, RacerAgent};
    let dice = config.dice;
    match name {
        "heuristic" => Ok(Box::new(HeuristicAgent)),
        "racer" => Ok(Box::new(RacerAgent::new(config.goal, dice))),
        "expert" => {
            let table = match expert {
                Some(entries) => {
                    ExpertTable::new(entries.iter().map(|&(need, rolls, dice, action)| ((need, rolls, dice), action)))
                }
                None => ExpertTable::solved(dice),
            };
            Ok(Box::new(ExpertAgent { table }))
        }
        other => generic(other, &EIER_AGENTS),
    }
}

#[cfg(feature = "auweier")]
fn auweier_agent(name: &str) -> PyResult<Box<dyn Agent<crate::games::auweier::Auweier>>> {
    match name {
        "heuristic" => Ok(Box::new(crate::games::auweier::bots::HeuristicAgent)),
        other => generic(other, &AUWEIER_AGENTS),
    }
}

#[cfg(feature = "awimbawe")]
fn awimbawe_agent(name: &str) -> PyResult<Box<dyn Agent<crate::games::awimbawe::Awimbawe>>> {
    match name {
        "heuristic" => Ok(Box::new(crate::games::awimbawe::bots::HeuristicAgent)),
        other => generic(other, &AWIMBAWE_AGENTS),
    }
}

#[cfg(feature = "auf_die_nuesse")]
fn nuesse_agent(name: &str) -> PyResult<Box<dyn Agent<crate::games::auf_die_nuesse::Nuesse>>> {
    use crate::games::auf_die_nuesse::bots::rollout::{MAX_HORIZON, MAX_ROLLOUTS};
    use crate::games::auf_die_nuesse::bots::{ExpertAgent, HeuristicAgent, RolloutAgent};
    if let Some(("rollout", setting)) = name.split_once(':') {
        return match RolloutAgent::of_setting(setting) {
            Some(agent) => Ok(Box::new(agent)),
            None => Err(PyValueError::new_err(format!(
                "rollout takes 1 to {MAX_ROLLOUTS} futures per move, and after a slash 1 to \
                 {MAX_HORIZON} turns ahead, not {setting:?}"
            ))),
        };
    }
    match name {
        "heuristic" => Ok(Box::new(HeuristicAgent)),
        "expert" => Ok(Box::new(ExpertAgent)),
        "rollout" => Ok(Box::new(RolloutAgent::default())),
        other => generic(other, &NUESSE_AGENTS),
    }
}

/// The roster of `names` for one game's rules, agents built by `agent`.
fn roster<R: Rules>(
    rules: Arc<R>,
    names: &[String],
    agent: impl Fn(&str) -> PyResult<Box<dyn Agent<R>>>,
) -> PyResult<Roster<R>> {
    let agents = names.iter().map(|name| agent(name)).collect::<PyResult<Vec<_>>>()?;
    Ok(Roster { rules, agents })
}

#[pymethods]
impl NativeRoster {
    /// The agents `names` of the native `game` (a game object of `new_game`); `expert` is the
    /// Auf die Eier expert's table to play by when `expert` is among the names (by default the
    /// table computed here for the game's dice, as [`NativeRoster::expert_table`] gives it).
    #[new]
    #[pyo3(signature = (game, names, expert=None))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        names: Vec<String>,
        expert: Option<ExpertEntries>,
    ) -> PyResult<NativeRoster> {
        let _ = &expert;
        #[cfg(feature = "auf_die_eier")]
        if let Ok(game) = game.downcast::<super::EierGame>() {
            let rules = game.get().rules.clone();
            let config = rules.config;
            let built = guard(py, "auf-die-eier", || roster(rules, &names, |name| eier_agent(name, &config, &expert)))?;
            return Ok(NativeRoster { roster: AnyRoster::Eier(built), names });
        }
        #[cfg(feature = "auf_die_nuesse")]
        if let Ok(game) = game.downcast::<super::NuesseGame>() {
            let built = roster(game.get().rules.clone(), &names, nuesse_agent)?;
            return Ok(NativeRoster { roster: AnyRoster::Nuesse(built), names });
        }
        #[cfg(feature = "auweier")]
        if let Ok(game) = game.downcast::<super::AuweierGame>() {
            let built = roster(game.get().rules.clone(), &names, auweier_agent)?;
            return Ok(NativeRoster { roster: AnyRoster::Auweier(built), names });
        }
        #[cfg(feature = "awimbawe")]
        if let Ok(game) = game.downcast::<super::AwimbaweGame>() {
            let built = roster(game.get().rules.clone(), &names, awimbawe_agent)?;
            return Ok(NativeRoster { roster: AnyRoster::Awimbawe(built), names });
        }
        let _ = py;
        Err(PyValueError::new_err("a roster needs a native game object"))
    }

    /// The Auf die Eier expert's table for a game of `dice` dice as computed here:
    /// `(need, rolls, dice on the table, action id, expected points)` for every decision, in
    /// the order of the Python expert's table (need 0: the ladder is used up).
    #[cfg(feature = "auf_die_eier")]
    #[staticmethod]
    fn expert_table(py: Python<'_>, dice: u8) -> PyResult<ValuedEntries> {
        use crate::games::auf_die_eier::bots::expert::solve;
        let (low, high) = crate::games::auf_die_eier::model::DICE_BOUNDS;
        if !(low..=high).contains(&i64::from(dice)) {
            return Err(PyValueError::new_err(format!("auf-die-eier plays with {low} to {high} dice, not {dice}")));
        }
        let entries = py.allow_threads(|| solve(dice));
        Ok(entries
            .into_iter()
            .map(|((need, rolls, counts), action, value)| (need, rolls, counts, action, value))
            .collect())
    }

    /// The agents' names, in roster order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// The action id agent `name` plays at the decision reached by `steps` (action ids and
    /// chance codes from the start, each checked), its generator seeded with `seed`: for the
    /// test that a native agent picks what its Python agent picks.
    fn act(&self, py: Python<'_>, name: &str, steps: &Bound<'_, PyList>, seed: u64) -> PyResult<u32> {
        let agent = self.agent(name)?;
        match &self.roster {
            #[cfg(feature = "auf_die_eier")]
            AnyRoster::Eier(roster) => act_after(py, roster, agent, steps, seed),
            #[cfg(feature = "auf_die_nuesse")]
            AnyRoster::Nuesse(roster) => act_after(py, roster, agent, steps, seed),
            #[cfg(feature = "auweier")]
            AnyRoster::Auweier(roster) => act_after(py, roster, agent, steps, seed),
            #[cfg(feature = "awimbawe")]
            AnyRoster::Awimbawe(roster) => act_after(py, roster, agent, steps, seed),
        }
    }

    /// The action id agent `name` plays at the native `state` (a state of the roster's game
    /// at a decision), its generator seeded with `seed`: what [`NativeRoster::act`] plays
    /// after the state's history, without replaying it (a Gymnasium opponent's move).
    fn act_on(&self, py: Python<'_>, name: &str, state: &Bound<'_, PyAny>, seed: u64) -> PyResult<u32> {
        let agent = self.agent(name)?;
        match &self.roster {
            #[cfg(feature = "auf_die_eier")]
            AnyRoster::Eier(roster) => {
                act_on_table(py, roster, agent, &state.downcast::<super::EierState>()?.try_borrow()?.table, seed)
            }
            #[cfg(feature = "auf_die_nuesse")]
            AnyRoster::Nuesse(roster) => {
                act_on_table(py, roster, agent, &state.downcast::<super::NuesseState>()?.try_borrow()?.table, seed)
            }
            #[cfg(feature = "auweier")]
            AnyRoster::Auweier(roster) => {
                act_on_table(py, roster, agent, &state.downcast::<super::AuweierState>()?.try_borrow()?.table, seed)
            }
            #[cfg(feature = "awimbawe")]
            AnyRoster::Awimbawe(roster) => {
                act_on_table(py, roster, agent, &state.downcast::<super::AwimbaweState>()?.try_borrow()?.table, seed)
            }
        }
    }

    /// Play every match (`(seed, keyed, seats, seat_seeds)`, seats as indices into the roster)
    /// from the start, on `threads` threads, at most `max_moves` steps each: a list of
    /// `(steps or None, moves, scores, winners, returns, actions, finished)` per game.
    #[pyo3(signature = (matches, threads=1, max_moves=1_000_000, records=false))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        matches: Vec<(u64, bool, Vec<usize>, Vec<u64>)>,
        threads: usize,
        max_moves: u64,
        records: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let matches: Vec<Match> = matches
            .into_iter()
            .map(|(seed, keyed, seats, agent_seeds)| Match { seed, keyed, seats, agent_seeds })
            .collect();
        match &self.roster {
            #[cfg(feature = "auf_die_eier")]
            AnyRoster::Eier(roster) => play_in(py, roster, &matches, threads, max_moves, records),
            #[cfg(feature = "auf_die_nuesse")]
            AnyRoster::Nuesse(roster) => play_in(py, roster, &matches, threads, max_moves, records),
            #[cfg(feature = "auweier")]
            AnyRoster::Auweier(roster) => play_in(py, roster, &matches, threads, max_moves, records),
            #[cfg(feature = "awimbawe")]
            AnyRoster::Awimbawe(roster) => play_in(py, roster, &matches, threads, max_moves, records),
        }
    }
}

impl NativeRoster {
    /// The index of agent `name` in the roster.
    fn agent(&self, name: &str) -> PyResult<usize> {
        self.names
            .iter()
            .position(|known| known == name)
            .ok_or_else(|| PyValueError::new_err(format!("the roster has no agent {name:?}")))
    }
}

/// Agent `agent` of `roster` at the decision of a native state's `table`.
fn act_on_table<R: Rules>(
    py: Python<'_>,
    roster: &Roster<R>,
    agent: usize,
    table: &Table<R>,
    seed: u64,
) -> PyResult<u32> {
    if !table.has_rules(&roster.rules) {
        return Err(PyValueError::new_err(format!(
            "the state is not of the roster's {} game (another player count or options)",
            R::ID
        )));
    }
    table.read(py, |table| act_at(py, roster, agent, table.state(), seed))
}

/// Agent `agent` of `roster` at the decision in `state`, its generator seeded with `seed`.
fn act_at<R: Rules>(py: Python<'_>, roster: &Roster<R>, agent: usize, state: &R::State, seed: u64) -> PyResult<u32> {
    let rules = &*roster.rules;
    let Node::Decision(seat) = rules.node(state) else {
        return Err(PyValueError::new_err("no agent acts here: chance acts, or the game is over"));
    };
    let mut rng = rng_from_seed(seed);
    let mut scratch = Vec::new();
    guard(py, R::ID, || Ok(roster.agents[agent].act(rules, state, seat, &mut rng, &mut scratch)))
}

/// Agent `agent` of `roster` at the decision `steps` lead to.
fn act_after<R: Rules>(
    py: Python<'_>,
    roster: &Roster<R>,
    agent: usize,
    steps: &Bound<'_, PyList>,
    seed: u64,
) -> PyResult<u32> {
    let rules = &*roster.rules;
    let mut state = rules.initial_state();
    let mut scratch = Vec::new();
    for item in steps.iter() {
        if item.downcast::<PyTuple>().is_ok() {
            let code = read_code(py, &item)?;
            apply_code(rules, &mut state, &code)
                .map_err(|refusal| refused(py, refusal, &format!("chance {code:?}")))?;
        } else {
            let action = read_action(py, &item)?;
            apply_checked(rules, &mut state, action, &mut scratch)
                .map_err(|refusal| refused(py, refusal, &format!("action {action}")))?;
        }
    }
    act_at(py, roster, agent, &state, seed)
}

/// Play `matches` with `roster` (GIL released) and convert each game for Python.
fn play_in<'py, R: Rules>(
    py: Python<'py>,
    roster: &Roster<R>,
    matches: &[Match],
    threads: usize,
    max_moves: u64,
    records: bool,
) -> PyResult<Bound<'py, PyList>> {
    let players = roster.rules.players();
    for game in matches {
        check_match(game, players, roster.agents.len()).map_err(PyValueError::new_err)?;
    }
    let agents: Vec<&dyn Agent<R>> = roster.agents.iter().map(|agent| agent.as_ref()).collect();
    let rules = roster.rules.clone();
    let played = guard(py, R::ID, || {
        Ok(py.allow_threads(|| play_many(&*rules, &agents, matches, max_moves, threads.max(1), records)))
    })?;
    let list = PyList::empty_bound(py);
    for game in played {
        list.append(converted(py, game, players, records)?)?;
    }
    Ok(list)
}

/// One game's outcome as a Python tuple.
fn converted<'py>(py: Python<'py>, game: Played, players: usize, records: bool) -> PyResult<Bound<'py, PyTuple>> {
    let steps: PyObject = if records {
        let steps = PyList::empty_bound(py);
        for step in game.steps {
            match step {
                Step::Action(action) => steps.append(action)?,
                Step::Chance(code) => steps.append(PyTuple::new_bound(py, code))?,
            }
        }
        steps.into_any().unbind()
    } else {
        py.None()
    };
    let winners: Vec<usize> = (0..players).filter(|seat| game.winners & (1 << seat) != 0).collect();
    Ok(PyTuple::new_bound(
        py,
        [
            steps,
            game.moves.into_py(py),
            game.scores.into_py(py),
            winners.into_py(py),
            game.returns.into_py(py),
            game.actions.into_py(py),
            game.finished.into_py(py),
        ],
    ))
}
