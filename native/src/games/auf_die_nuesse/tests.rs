//! Random games on every option: no panic, legal ids sorted and listed, chance outcomes summing
//! to one, squirrels and cards conserved, the end reached within a bound, returns summing to 1.

use proptest::prelude::*;

use super::model::{Stage, SQUIRRELS};
use super::notation::ACTIONS;
use super::rules::{Nuesse, NuesseState, Outcome};
use crate::core::playout::play_out;
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, OptionValue, Options, Prob, Refusal, Rules};

/// Every option value worth a walk (defaults, each other value, each parameter bound).
fn option_sets() -> Vec<Options> {
    let mut sets = vec![Options::default()];
    let flags = ["late_jokers", "double_collect_upper", "optional_setup", "raccoon_optional"];
    for name in flags {
        for value in [false, true] {
            sets.push(Options::default().with(name, OptionValue::Bool(value)));
        }
    }
    for (name, value) in [("collect_order", "next_first"), ("store_table", "five_25"), ("empty_supply", "fails")] {
        sets.push(Options::default().with(name, OptionValue::Str(value.into())));
    }
    for (name, low, high) in [
        ("store_value_2", 1, 60),
        ("store_value_5", 1, 60),
        ("store_value_6", 1, 60),
        ("nuts_per_kind", 6, 20),
        ("jokers_per_pair", 0, 4),
    ] {
        sets.push(Options::default().with(name, OptionValue::Int(low)));
        sets.push(Options::default().with(name, OptionValue::Int(high)));
    }
    sets.push(
        Options::default()
            .with("double_collect_upper", OptionValue::Bool(false))
            .with("empty_supply", OptionValue::Str("fails".into()))
            .with("raccoon_optional", OptionValue::Bool(false))
            .with("jokers_per_pair", OptionValue::Int(4))
            .with("late_jokers", OptionValue::Bool(false)),
    );
    sets
}

/// The invariants every reachable state keeps.
fn check_state(rules: &Nuesse, state: &NuesseState) {
    let players = rules.players();
    for seat in 0..players {
        let on_board: u32 = state.areas.iter().map(|row| u32::from(row[seat])).sum();
        assert_eq!(on_board + u32::from(state.supply[seat]), u32::from(SQUIRRELS), "squirrels of seat {seat}");
    }
    let unseen: u32 = state.market.unseen.iter().map(|&n| u32::from(n)).sum();
    assert_eq!(unseen, u32::from(state.market.pile) + u32::from(state.market.set_aside));
    assert!(state.available() >= 0);
    for stores in &state.stores[..players] {
        for store in stores {
            assert!(!store.full || store.fill() == 0);
        }
    }
}

/// Play one game by `seed` on `rules`, checking every step; the steps taken.
fn walk(rules: &Nuesse, seed: u64) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut state = rules.initial_state();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut scratch = Vec::new();
    let mut code = Vec::new();
    let mut obs = vec![0.0f32; rules.observation_size()];
    for steps in 0..20_000u64 {
        check_state(rules, &state);
        for seat in (0..rules.players()).map(Some).chain([None]) {
            obs.fill(0.0);
            rules.observe(&state, seat, &mut obs);
            assert!(obs.iter().all(|v| v.is_finite() && *v >= 0.0));
        }
        match rules.node(&state) {
            Node::Terminal => {
                let mut returns = vec![0.0; rules.players()];
                rules.returns(&state, &mut returns);
                assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                return steps;
            }
            Node::Chance => {
                outcomes.clear();
                rules.chance_outcomes(&state, &mut outcomes).expect("listed");
                let total = outcomes.iter().fold(Prob { num: 0, den: 1 }, |sum, (_, p)| {
                    Prob::new(sum.num * p.den + p.num * sum.den, sum.den * p.den)
                });
                assert_eq!(total, Prob { num: 1, den: 1 });
                let outcome = rules.sample_chance(&state, &mut rng);
                assert!(outcomes.iter().any(|(o, _)| *o == outcome));
                code.clear();
                rules.outcome_code(&outcome, &mut code);
                let before = state;
                assert!(apply_code(rules, &mut state.clone(), &[99]).is_err());
                assert!(apply_code(rules, &mut state.clone(), &[]).is_err());
                apply_code(rules, &mut state, &code).expect("a listed outcome applies");
                let mut again = before;
                rules.apply_outcome(&mut again, &rules.outcome_from_code(&before, &code).expect("code"));
                assert_eq!(again, state);
            }
            Node::Decision(seat) => {
                assert_eq!(state.current_player(), Some(seat));
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(!legal.is_empty(), "no legal action at {state:?}");
                assert!(legal.windows(2).all(|pair| pair[0] < pair[1]));
                assert!(legal.iter().all(|&id| id < ACTIONS));
                for id in 0..ACTIONS {
                    if legal.binary_search(&id).is_err() {
                        let mut copy = state;
                        let refused = apply_checked(rules, &mut copy, i64::from(id), &mut scratch);
                        assert!(matches!(refused, Err(Refusal::Illegal { .. })));
                        assert_eq!(copy, state);
                    }
                }
                let action = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                apply_checked(rules, &mut state, i64::from(action), &mut scratch).expect("legal");
            }
        }
    }
    panic!("no end within 20000 steps");
}

#[test]
fn every_option_plays_to_the_end() {
    for options in option_sets() {
        for players in 2..=4 {
            let rules = Nuesse::new(players, &options).expect("options");
            for seed in 0..3 {
                let steps = walk(&rules, seed);
                assert!(steps > 20);
            }
        }
    }
}

#[test]
fn refuses_player_counts_and_options() {
    assert!(matches!(Nuesse::new(1, &Options::default()), Err(Refusal::Option(_))));
    assert!(matches!(Nuesse::new(5, &Options::default()), Err(Refusal::Option(_))));
    let bad = Options::default().with("nuts_per_kind", OptionValue::Int(21));
    assert!(matches!(Nuesse::new(3, &bad), Err(Refusal::Option(_))));
    let unknown = Options::default().with("colour", OptionValue::Bool(true));
    assert!(matches!(Nuesse::new(3, &unknown), Err(Refusal::Option(_))));
}

#[test]
fn store_values_follow_the_table_unless_overridden() {
    let five = Options::default().with("store_table", OptionValue::Str("five_25".into()));
    assert_eq!(Nuesse::new(2, &five).unwrap().config.store_values[6], 25);
    let overridden = five.with("store_value_5", OptionValue::Int(22));
    assert_eq!(Nuesse::new(2, &overridden).unwrap().config.store_values[6], 22);
}

#[test]
fn refuses_wrong_chance() {
    let rules = Nuesse::new(3, &Options::default()).unwrap();
    let state = rules.initial_state();
    assert!(rules.check_outcome(&state, &Outcome::Dice([1, 2, 3])).is_err());
    let mut rolling = state;
    rolling.stage = Stage::Roll;
    rolling.step = None;
    assert!(rules.check_outcome(&rolling, &Outcome::Draw(0)).is_err());
    assert!(rules.check_outcome(&rolling, &Outcome::Dice([0, 2, 3])).is_err());
    assert!(rules.outcome_from_code(&rolling, &[6, 0, 0]).is_err());
    assert!(rules.outcome_from_code(&rolling, &[i64::MIN]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants(option in 0usize..32, players in 2usize..=4, seed in any::<u64>()) {
        let sets = option_sets();
        let rules = Nuesse::new(players, &sets[option % sets.len()]).unwrap();
        walk(&rules, seed);
        let mut state = rules.initial_state();
        let played = play_out(&rules, &mut state, seed, true);
        prop_assert!(played.steps < 20_000);
        prop_assert!((played.returns.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn any_code_or_id_is_refused_or_applied(code in proptest::collection::vec(any::<i64>(), 0..5), id in any::<i64>()) {
        let rules = Nuesse::new(4, &Options::default()).unwrap();
        let mut state = rules.initial_state();
        let before = state;
        if apply_code(&rules, &mut state, &code).is_err() {
            prop_assert_eq!(state, before);
        }
        let mut scratch = Vec::new();
        let _ = apply_checked(&rules, &mut state, id, &mut scratch);
    }
}
