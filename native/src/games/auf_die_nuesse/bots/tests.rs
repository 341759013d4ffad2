//! The belief, the search hints and the agents on their own: every state of policy-played games
//! reads back from its code, malformed codes are refused without a panic, the policy and the
//! heuristic and expert agents only pick legal moves (and finish their games), the evaluation's
//! win chances sum to one, and the plan's arithmetic holds. (Agreement with the Python hints is
//! `tests/native/test_kit_auf_die_nuesse.py`'s, with the Python agents
//! `tests/native/test_agents_nuesse.py`'s.)

use proptest::prelude::*;

use super::heuristic::hits;
use super::plan::{fail_chance, sum_pairs, with_plan, TurnPlan, REACH};
use super::search::{at_turn_start, fixed_worths};
use super::{ExpertAgent, HeuristicAgent};
use crate::agents::play::Agent;
use crate::core::{rng_from_seed, Kit, Node, OptionValue, Options, Refusal, Rules};
use crate::games::auf_die_nuesse::belief::code_len;
use crate::games::auf_die_nuesse::rules::{Nuesse, NuesseState};

fn code_of(rules: &Nuesse, state: &NuesseState) -> Vec<i64> {
    let mut code = Vec::new();
    rules.canonical(state, &mut code);
    code
}

/// The states of one game played by the policy (chance at random), each checked on the way.
fn policy_game(rules: &Nuesse, seed: u64) -> Vec<NuesseState> {
    let mut rng = rng_from_seed(seed);
    let mut state = rules.initial_state();
    let (mut scratch, mut legal) = (Vec::new(), Vec::new());
    let mut seen = Vec::new();
    let mut out = vec![0.0; rules.players()];
    for _ in 0..20_000 {
        seen.push(state);
        if rules.evaluate(&state, 0, &mut out) {
            assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12, "win chances {out:?}");
            assert!(out.iter().all(|&p| p > 0.0));
        }
        match rules.node(&state) {
            Node::Terminal => return seen,
            Node::Chance => rules.random_chance(&mut state, &mut rng),
            Node::Decision(_) => {
                let action = rules.playout(&state, &mut rng, &mut scratch).unwrap();
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(legal.contains(&action), "policy move {action} not in {legal:?}");
                rules.apply_action(&mut state, action);
            }
        }
    }
    panic!("a policy game did not end");
}

#[test]
fn every_state_of_policy_games_reads_back() {
    let variants = [
        Options::default(),
        Options::default().with("optional_setup", OptionValue::Bool(true)),
        Options::default().with("raccoon_optional", OptionValue::Bool(false)),
        Options::default().with("jokers_per_pair", OptionValue::Int(4)),
    ];
    for (index, options) in variants.iter().enumerate() {
        for players in 2..=4 {
            let rules = Nuesse::new(players, options).unwrap();
            let states = policy_game(&rules, 100 * index as u64 + players as u64);
            assert!(states.iter().any(at_turn_start));
            for state in states {
                let code = code_of(&rules, &state);
                assert_eq!(code.len(), code_len(players));
                let belief = rules.belief_from_code(&code).unwrap();
                assert_eq!(belief, state);
                assert_eq!(rules.sample(&belief, &mut rng_from_seed(1)), state);
            }
        }
    }
}

#[test]
fn the_hints_are_pythons() {
    let rules = Nuesse::new(2, &Options::default()).unwrap();
    assert!(rules.has_playout_policy());
    assert_eq!(rules.exploration(), Some(0.15));
    assert_eq!(rules.tree_depth(), Some(1));
}

#[test]
fn malformed_codes_are_refused() {
    let rules = Nuesse::new(3, &Options::default()).unwrap();
    let code = code_of(&rules, &rules.initial_state());
    let invalid = |code: &[i64]| matches!(rules.belief_from_code(code), Err(Refusal::Invalid(_)));
    assert!(invalid(&[]));
    assert!(invalid(&code[1..]));
    let mut longer = code.clone();
    longer.push(0);
    assert!(invalid(&longer));
    for (index, value) in [(0, 11), (1, 3), (2, 1), (3, 7), (code.len() - 1, 3)] {
        let mut bad = code.clone();
        bad[index] = value;
        assert!(invalid(&bad), "item {index} = {value}");
    }
}

#[test]
fn the_plan_counts_every_roll() {
    assert_eq!(sum_pairs().iter().map(|&(_, _, n)| n).sum::<u32>(), 216);
    assert!(sum_pairs().windows(2).all(|pair| (pair[0].0, pair[0].1) < (pair[1].0, pair[1].1)));
    let worths = fixed_worths(0b00101);
    for (row, reach) in worths.iter().zip(REACH) {
        assert_eq!(row[0], 0.0);
        assert!(row[reach + 1..].iter().all(|&w| w == 0.0));
    }
    // A plan with no room never rolls; with room, rolling from nothing beats stopping.
    let mut none = TurnPlan::new(worths, 0);
    assert!(!none.rolls_on(0));
    assert!(with_plan(&worths, 11, |plan| plan.rolls_on(0)));
    // The kept plan gives what a fresh one gives.
    let mut fresh = TurnPlan::new(worths, 5);
    let track = 1 << 6 | 1 << 8;
    assert_eq!(with_plan(&worths, 5, |plan| plan.value(track)), fresh.value(track));
}

#[test]
fn the_fail_chance_counts_the_rolls_that_fit_nowhere() {
    let brute = |track: u16| {
        let mut fails = 0;
        for green in 1..=6u16 {
            for white1 in 1..=6u16 {
                for white2 in 1..=6u16 {
                    if track >> (green + white1) & 1 != 0 && track >> (green + white2) & 1 != 0 {
                        fails += 1;
                    }
                }
            }
        }
        f64::from(fails) / 216.0
    };
    for track in (0..1u16 << 11).map(|bits| bits << 2) {
        assert_eq!(fail_chance(track), brute(track), "track {track:#b}");
    }
    assert_eq!(fail_chance(0), 0.0);
    assert_eq!(fail_chance(0b1_1111_1111_1100), 1.0);
}

#[test]
fn the_setup_chances_favour_the_middle_spaces() {
    let chances: Vec<f64> = (0..5).map(hits).collect();
    assert!(chances.iter().all(|&p| 0.0 < p && p <= 1.0));
    assert!(chances[1] > chances[0] && chances[3] > chances[4]);
}

/// A game between `roster`'s agents in turn (chance drawn from `seed`, the agents' generator
/// seeded with `agent_seed`), every move checked legal; the moves made.
fn agents_game(rules: &Nuesse, roster: &[&dyn Agent<Nuesse>], seed: u64, agent_seed: u64) -> Vec<u32> {
    let mut chance = rng_from_seed(seed);
    let mut own = rng_from_seed(agent_seed);
    let mut state = rules.initial_state();
    let (mut scratch, mut legal, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..20_000 {
        match rules.node(&state) {
            Node::Terminal => return moves,
            Node::Chance => rules.random_chance(&mut state, &mut chance),
            Node::Decision(seat) => {
                let action = roster[seat % roster.len()].act(rules, &state, seat, &mut own, &mut scratch);
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(legal.contains(&action), "agent move {action} not in {legal:?}");
                moves.push(action);
                rules.apply_action(&mut state, action);
            }
        }
    }
    panic!("an agents' game did not end");
}

#[test]
fn the_agents_play_legal_moves_to_the_end_whatever_their_generator() {
    let variants = [
        Options::default(),
        Options::default().with("optional_setup", OptionValue::Bool(true)),
        Options::default().with("raccoon_optional", OptionValue::Bool(false)),
        Options::default().with("late_jokers", OptionValue::Bool(false)),
        Options::default().with("jokers_per_pair", OptionValue::Int(4)),
    ];
    let (heuristic, expert) = (HeuristicAgent, ExpertAgent);
    let roster: [&dyn Agent<Nuesse>; 2] = [&heuristic, &expert];
    for (index, options) in variants.iter().enumerate() {
        for players in 2..=4 {
            let rules = Nuesse::new(players, options).unwrap();
            let seed = 10 * index as u64 + players as u64;
            let moves = agents_game(&rules, &roster, seed, 1);
            // The same chance with another generator for the agents: the same game.
            assert_eq!(agents_game(&rules, &roster, seed, 99), moves);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// A real code with items changed is refused, or read back to itself; the hints never
    /// panic on what is read.
    #[test]
    fn changed_codes_are_refused_or_read_back(
        players in 2usize..=4,
        seed in 0u64..64,
        pick in any::<usize>(),
        changes in proptest::collection::vec((any::<usize>(), -3i64..40), 1..4),
    ) {
        let rules = Nuesse::new(players, &Options::default()).unwrap();
        let states = policy_game(&rules, seed);
        let mut code = code_of(&rules, &states[pick % states.len()]);
        for (index, value) in changes {
            let at = index % code.len();
            code[at] = value;
        }
        if let Ok(state) = rules.belief_from_code(&code) {
            prop_assert_eq!(code_of(&rules, &state), code);
            let mut out = vec![0.0; players];
            rules.evaluate(&state, 0, &mut out);
            if matches!(rules.node(&state), Node::Decision(_)) {
                rules.playout(&state, &mut rng_from_seed(seed), &mut Vec::new());
            }
        }
    }
}
