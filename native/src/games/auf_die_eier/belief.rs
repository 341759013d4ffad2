//! Auf die Eier: belief sampling for search (mirrors `spieltisch/games/auf_die_eier/belief.py`)
//! and its search hints (the game's `bots.SEARCH`, from [`super::bots::search`]).
//!
//! Nothing is hidden, so a view is the whole state: the belief is the one state a view shows,
//! read back from its canonical integers (the code `spieltisch/native/auf_die_eier.py`'s
//! `belief_code` packs), and a sample is that state itself. A code that is no state of this
//! game (another player count or options, a value out of range, the wrong length) is refused,
//! so the rules never meet a state they could not have made.

use super::bots::{search, TREE_DEPTH};
use super::model::{max_score, Stage, TurnScore, LADDER, MAX_ROLLS};
use super::notation::{Counts, NO_DICE, ROTTEN};
use super::rules::{Eier, EierState, Seats};
use crate::core::code::Reader;
use crate::core::{Kit, Refusal, Rng, Rules};

impl Kit for Eier {
    type Belief = EierState;

    fn belief_from_code(&self, code: &[i64]) -> Result<EierState, Refusal> {
        let mut reader = Reader::new("the auf-die-eier state code", code);
        let state = self.read_state(&mut reader)?;
        if reader.at != code.len() {
            return Err(Refusal::Invalid(format!(
                "an auf-die-eier state is {} integers here, not {}",
                reader.at,
                code.len()
            )));
        }
        Ok(state)
    }

    fn sample(&self, belief: &EierState, rng: &mut Rng) -> EierState {
        let _ = rng;
        *belief
    }

    fn has_playout_policy(&self) -> bool {
        true
    }

    fn playout(&self, state: &EierState, rng: &mut Rng, scratch: &mut Vec<u32>) -> Option<u32> {
        if state.stage != Stage::Decide {
            return self.random_action(state, rng, scratch);
        }
        search::playout(self, state)
    }

    fn evaluate(&self, state: &EierState, depth: usize, out: &mut [f64]) -> bool {
        let _ = depth; // every playout stops at the first turn start it meets
        search::evaluate(self, state, out)
    }

    fn tree_depth(&self) -> Option<usize> {
        Some(TREE_DEPTH)
    }

    fn candidates(&self, state: &EierState, legal: &mut Vec<u32>) {
        search::candidates(self, state, legal);
    }
}

/// Six face counts in `0..=high` each, at most `high` in all.
fn dice(reader: &mut Reader<'_>, what: &str, high: u8) -> Result<Counts, Refusal> {
    let mut dice = NO_DICE;
    for count in &mut dice {
        *count = reader.small(what, 0, high)?;
    }
    let total: u32 = dice.iter().map(|&n| u32::from(n)).sum();
    if total > u32::from(high) {
        return Err(Refusal::Invalid(format!("the auf-die-eier state code's {what} are {total} dice, not {high}")));
    }
    Ok(dice)
}

impl Eier {
    /// The state whose [`crate::core::Rules::canonical`] the reader holds, in the same order.
    fn read_state(&self, reader: &mut Reader<'_>) -> Result<EierState, Refusal> {
        let config = self.config;
        let expected = [
            i64::from(config.players),
            i64::from(config.shared_chicken_ladder),
            i64::from(config.goal),
            i64::from(config.dice),
        ];
        for (what, value) in ["player count", "shared ladder", "goal", "dice in play"].iter().zip(expected) {
            reader.next(what, value, value)?;
        }
        let players = config.players;
        let stage = match reader.next("stage", 0, 3)? {
            0 => Stage::Roll,
            1 => Stage::Decide,
            2 => Stage::Rotten,
            _ => Stage::Over,
        };
        let player = reader.small("player", 0, players - 1)?;
        let rolls = reader.small("throws", 0, MAX_ROLLS)?;
        let dice = dice(reader, "dice on the table", config.dice)?;
        let to_throw = reader.small("dice to throw", 0, config.dice)?;
        let on_table: u8 = dice.iter().sum();
        if stage == Stage::Roll && on_table + to_throw > config.dice {
            return Err(Refusal::Invalid(format!(
                "{on_table} dice on the table and {to_throw} to throw are more than the {} in play",
                config.dice
            )));
        }
        if stage == Stage::Rotten && to_throw > dice[ROTTEN] {
            return Err(Refusal::Invalid(format!("{to_throw} Rotten Eggs to re-roll of {}", dice[ROTTEN])));
        }
        let mut scores = [0u16; 6];
        let highest = i64::from(max_score(config.goal, config.dice));
        for score in &mut scores[..usize::from(players)] {
            *score = reader.next("score", 0, highest)? as u16;
        }
        let mut crossed = [0u8; 6];
        let ladders = if config.shared_chicken_ladder { 1 } else { usize::from(players) };
        for entry in &mut crossed[..ladders] {
            *entry = reader.small("ladder entries crossed", 0, LADDER.len() as u8)?;
        }
        let final_round = reader.flag("final round")?;
        let seats = (1i64 << players) - 1;
        let tie_players = reader.next("tied players", 0, seats)? as Seats;
        let winners = reader.next("winners", 0, seats)? as Seats;
        let last = if reader.flag("last turn")? { Some(self.read_last(reader)?) } else { None };
        Ok(EierState { scores, crossed, final_round, tie_players, winners, last, player, stage, rolls, dice, to_throw })
    }

    /// How the previous turn scored, as [`crate::core::Rules::canonical`] writes it.
    fn read_last(&self, reader: &mut Reader<'_>) -> Result<TurnScore, Refusal> {
        let config = self.config;
        let player = reader.small("last player", 0, config.players - 1)?;
        let dice = dice(reader, "last dice", config.dice)?;
        let spoilers = reader.small("spoilers", 0, config.dice)?;
        let fried = reader.small("Fried Eggs pairs", 0, u8::MAX)?;
        let breakfast = reader.small("Breakfast points", 0, u8::MAX)?;
        let spoiled_fried = reader.small("spoiled pairs", 0, u8::MAX)?;
        let spoiled_breakfast = reader.flag("spoiled Breakfast")?;
        let chickens = reader.small("Chicken points", 0, u8::MAX)?;
        let points = reader.small("points", 0, u8::MAX)?;
        Ok(TurnScore { player, dice, spoilers, fried, breakfast, spoiled_fried, spoiled_breakfast, chickens, points })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::rules::{Eier, EierState};
    use crate::core::{rng_from_seed, Kit, Node, OptionValue, Options, Refusal, Rules};

    fn game(players: usize, shared: bool, dice: i64) -> Eier {
        let options = Options::default()
            .with("shared_chicken_ladder", OptionValue::Bool(shared))
            .with("goal", OptionValue::Int(40))
            .with("dice", OptionValue::Int(dice));
        Eier::new(players, &options).expect("options within bounds")
    }

    /// The belief code of `state`: its canonical integers, as the Python face packs them.
    fn code_of(rules: &Eier, state: &EierState) -> Vec<i64> {
        let mut code = Vec::new();
        rules.canonical(state, &mut code);
        code
    }

    /// Every state of a seeded random game, the last (the end) included.
    fn walk(rules: &Eier, seed: u64) -> Vec<EierState> {
        let mut rng = rng_from_seed(seed);
        let mut state = rules.initial_state();
        let mut seen = vec![state];
        let mut scratch = Vec::new();
        while rules.node(&state) != Node::Terminal {
            match rules.node(&state) {
                Node::Chance => rules.random_chance(&mut state, &mut rng),
                _ => {
                    let action = rules.random_action(&state, &mut rng, &mut scratch).unwrap();
                    rules.apply_action(&mut state, action);
                }
            }
            seen.push(state);
        }
        seen
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn a_code_reads_back_as_the_state_it_came_from(
            seed in any::<u64>(), players in 2usize..=6, shared in any::<bool>(), dice in 5i64..=10,
        ) {
            let rules = game(players, shared, dice);
            for state in walk(&rules, seed) {
                let code = code_of(&rules, &state);
                let read = rules.belief_from_code(&code).expect("a state's own code");
                prop_assert_eq!(read, state);
                prop_assert_eq!(code_of(&rules, &read), code);
                prop_assert_eq!(rules.sample(&read, &mut rng_from_seed(seed)), state);
            }
        }

        #[test]
        fn a_changed_code_is_refused_or_read_as_exactly_that_code(
            seed in any::<u64>(), at in any::<prop::sample::Index>(), value in -3i64..400, cut in any::<bool>(),
        ) {
            let rules = game(3, false, 9);
            let states = walk(&rules, seed);
            let state = states[at.index(states.len())];
            let mut code = code_of(&rules, &state);
            if cut {
                code.truncate(at.index(code.len()));
            } else {
                let i = at.index(code.len());
                code[i] = value;
            }
            match rules.belief_from_code(&code) {
                Ok(read) => prop_assert_eq!(code_of(&rules, &read), code),
                Err(refusal) => prop_assert!(matches!(refusal, Refusal::Invalid(_))),
            }
        }
    }

    #[test]
    fn a_code_of_another_game_or_with_more_integers_is_refused() {
        let (two, three) = (game(2, false, 9), game(3, false, 9));
        let code = code_of(&three, &three.initial_state());
        assert!(matches!(two.belief_from_code(&code), Err(Refusal::Invalid(_))));
        let mut longer = code.clone();
        longer.push(0);
        assert!(matches!(three.belief_from_code(&longer), Err(Refusal::Invalid(_))));
        assert!(matches!(three.belief_from_code(&[]), Err(Refusal::Invalid(_))));
        assert!(three.belief_from_code(&code).is_ok());
    }

    #[test]
    fn a_state_read_from_an_accepted_code_plays_to_the_end_without_panic() {
        // Values at the edges of their ranges, each accepted code played out at random.
        let rules = game(2, false, 9);
        let base = code_of(&rules, &walk(&rules, 5)[7]);
        let mut rng = rng_from_seed(1);
        let mut scratch = Vec::new();
        for i in 0..base.len() {
            for value in [0, 1, 2, 3, 9, 10, 255] {
                let mut code = base.clone();
                code[i] = value;
                let Ok(mut state) = rules.belief_from_code(&code) else { continue };
                for _ in 0..10_000 {
                    match rules.node(&state) {
                        Node::Terminal => break,
                        Node::Chance => rules.random_chance(&mut state, &mut rng),
                        Node::Decision(_) => {
                            let action = rules.random_action(&state, &mut rng, &mut scratch).unwrap();
                            rules.apply_action(&mut state, action);
                        }
                    }
                }
            }
        }
    }
}
