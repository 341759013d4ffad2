//! A game's options as the Python game names them: `name -> bool | int | str`.
//!
//! The Python face checks options against the Python game's declarations before building a
//! native game, and passes every option; a native game still reads them through these typed
//! getters, which refuse a missing name, a wrong type or a value outside the allowed set.

use super::Refusal;

/// One option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

/// The options a game is built with, in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    values: Vec<(String, OptionValue)>,
    /// A deliberately broken rule, by name, for the test of the agreement test (never set by
    /// a player: only `spieltisch.native`'s private `_mutation` argument sets it).
    pub mutation: Option<String>,
}

impl Options {
    /// Options from `(name, value)` pairs.
    pub fn new(values: Vec<(String, OptionValue)>) -> Options {
        Options { values, mutation: None }
    }

    /// Set `name` (replacing an earlier value).
    pub fn with(mut self, name: &str, value: OptionValue) -> Options {
        self.values.retain(|(known, _)| known != name);
        self.values.push((name.to_string(), value));
        self
    }

    fn get(&self, name: &str) -> Option<&OptionValue> {
        self.values.iter().find(|(known, _)| known == name).map(|(_, value)| value)
    }

    /// Refuse any option not in `known`.
    pub fn check_known(&self, game: &str, known: &[&str]) -> Result<(), Refusal> {
        match self.values.iter().find(|(name, _)| !known.contains(&name.as_str())) {
            Some((name, _)) => Err(Refusal::Option(format!("{game} has no option {name:?}"))),
            None => Ok(()),
        }
    }

    /// A true-or-false option (`default` when not given).
    pub fn bool(&self, name: &str, default: bool) -> Result<bool, Refusal> {
        match self.get(name) {
            None => Ok(default),
            Some(OptionValue::Bool(value)) => Ok(*value),
            Some(other) => Err(Refusal::Option(format!("option {name} takes true or false, not {other:?}"))),
        }
    }

    /// A whole-number option from `low` to `high` (`default` when not given).
    pub fn int(&self, name: &str, default: i64, low: i64, high: i64) -> Result<i64, Refusal> {
        let value = match self.get(name) {
            None => default,
            Some(OptionValue::Int(value)) => *value,
            Some(other) => return Err(Refusal::Option(format!("option {name} takes a whole number, not {other:?}"))),
        };
        if (low..=high).contains(&value) {
            Ok(value)
        } else {
            Err(Refusal::Option(format!("parameter {name} must be from {low} to {high}, not {value}")))
        }
    }

    /// A text option, one of `choices`, as its index there (`default` when not given).
    pub fn choice(&self, name: &str, default: &str, choices: &[&str]) -> Result<usize, Refusal> {
        let value = match self.get(name) {
            None => default,
            Some(OptionValue::Str(value)) => value.as_str(),
            Some(other) => return Err(Refusal::Option(format!("option {name} takes a text, not {other:?}"))),
        };
        choices.iter().position(|choice| *choice == value).ok_or_else(|| {
            Refusal::Option(format!("option {name} must be one of {}, not {value:?}", choices.join(", ")))
        })
    }

    /// Whether the test of the agreement test asked for the broken rule `name`.
    pub fn mutated(&self, name: &str) -> bool {
        self.mutation.as_deref() == Some(name)
    }
}
