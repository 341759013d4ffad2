//! Reading the integer codes the Python face packs (states, views) front to back, every value
//! checked against its range, so a game's `belief_from_code` refuses a bad code instead of
//! building a state its rules could not have made.

use super::Refusal;

/// Reads a code front to back, each value checked against its range.
pub struct Reader<'a> {
    /// The code's name in refusals (e.g. "the belief code").
    name: &'static str,
    code: &'a [i64],
    /// How many values have been read.
    pub at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `code`, called `name` in its refusals.
    pub fn new(name: &'static str, code: &'a [i64]) -> Self {
        Reader { name, code, at: 0 }
    }

    /// The next value, which must lie in `low..=high` ([`Refusal::Invalid`] naming `what`).
    pub fn next(&mut self, what: &str, low: i64, high: i64) -> Result<i64, Refusal> {
        let name = self.name;
        let Some(&value) = self.code.get(self.at) else {
            return Err(Refusal::Invalid(format!("{name} ends before its {what}")));
        };
        if !(low..=high).contains(&value) {
            let at = self.at;
            return Err(Refusal::Invalid(format!("{name}'s {what} is {value} at {at}, not {low} to {high}")));
        }
        self.at += 1;
        Ok(value)
    }

    /// The next value as a small count or index in `low..=high` (both at most 255).
    pub fn small(&mut self, what: &str, low: u8, high: u8) -> Result<u8, Refusal> {
        Ok(self.next(what, i64::from(low), i64::from(high))? as u8)
    }

    /// The next value as a flag (0 or 1).
    pub fn flag(&mut self, what: &str) -> Result<bool, Refusal> {
        Ok(self.next(what, 0, 1)? == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_in_range_and_refuses_the_rest() {
        let code = [3, 1, 9];
        let mut reader = Reader::new("the test code", &code);
        assert_eq!(reader.small("a count", 0, 5).unwrap(), 3);
        assert!(reader.flag("a flag").unwrap());
        assert!(matches!(reader.next("a digit", 0, 8), Err(Refusal::Invalid(_))));
        assert_eq!(reader.at, 2);
        assert_eq!(reader.next("a digit", 0, 9).unwrap(), 9);
        assert!(matches!(reader.next("a digit", 0, 9), Err(Refusal::Invalid(_))));
    }
}
