//! Auf die Eier's native rules on their own: the action table, the throws' exact
//! distribution, the rulebook's worked example, and random games on every option (no panic,
//! sorted legal ids within the table, an end within a bound, returns that sum to 1).

use proptest::prelude::*;

use super::model::Stage;
use super::notation::{binomial, num_actions, reroll_id, tables, Counts, FACES, MAX_DICE};
use super::rules::{multinomial_ways, roll_of_draw, Eier, EierState, POWERS_OF_SIX};
use super::MUTATION;
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, OptionValue, Options, Refusal, Rules};

fn game(players: usize, shared: bool, goal: i64, dice: i64) -> Eier {
    let options = Options::default()
        .with("shared_chicken_ladder", OptionValue::Bool(shared))
        .with("goal", OptionValue::Int(goal))
        .with("dice", OptionValue::Int(dice));
    Eier::new(players, &options).expect("options within bounds")
}

fn roll(rules: &Eier, state: &mut EierState, counts: Counts) {
    let code: Vec<i64> = counts.iter().map(|&n| i64::from(n)).collect();
    apply_code(rules, state, &code).expect("a possible throw");
}

fn act(rules: &Eier, state: &mut EierState, five: [u8; 5]) {
    let mut scratch = Vec::new();
    apply_checked(rules, state, reroll_id(five) as i64, &mut scratch).expect("a legal action");
}

#[test]
fn the_action_table_numbers_every_reroll_once() {
    let tables = tables();
    assert_eq!(num_actions(9), 2002);
    assert_eq!(num_actions(10), 3003);
    assert_eq!(tables.rerolls.len(), 3003);
    for (id, five) in tables.rerolls.iter().enumerate() {
        assert_eq!(reroll_id(*five), id);
        assert_eq!(usize::from(tables.sizes[id]), five.iter().map(|&n| usize::from(n)).sum::<usize>());
        let subsets = tables.rerolls_of(*five);
        assert!(subsets.windows(2).all(|pair| pair[0] < pair[1]));
        let expected = five.iter().map(|&n| usize::from(n) + 1).product::<usize>() - 1;
        assert_eq!(subsets.len(), expected);
        for &sub in subsets {
            let sub = tables.rerolls[usize::from(sub)];
            assert!(sub.iter().zip(five).all(|(a, b)| a <= b));
        }
    }
    // Fewest dice first, then more Whole Eggs first (as notation.py lists them).
    assert_eq!(tables.rerolls[1], [1, 0, 0, 0, 0]);
    assert_eq!(tables.rerolls[5], [0, 0, 0, 0, 1]);
    assert_eq!(tables.rerolls[6], [2, 0, 0, 0, 0]);
    assert_eq!(tables.rerolls[2001], [0, 0, 0, 0, 9]);
}

#[test]
fn a_throw_reads_every_ordered_throw_once() {
    for (n, &power) in POWERS_OF_SIX.iter().enumerate().take(7) {
        let mut seen = std::collections::HashMap::new();
        for draw in 0..power as u32 {
            *seen.entry(roll_of_draw(draw, n)).or_insert(0u64) += 1;
        }
        assert_eq!(seen.len(), binomial(n + FACES - 1, FACES - 1));
        for (counts, ways) in seen {
            assert_eq!(ways, multinomial_ways(&counts));
        }
    }
}

#[test]
fn the_outcomes_of_every_throw_sum_to_one_in_order() {
    let rules = game(2, false, 100, 10);
    for n in 1..=MAX_DICE as u8 {
        let mut state = rules.initial_state();
        state.to_throw = n;
        let mut out = Vec::new();
        rules.chance_outcomes(&state, &mut out).unwrap();
        assert_eq!(out.len(), binomial(usize::from(n) + 5, 5));
        assert!(out.windows(2).all(|pair| pair[0].0 < pair[1].0));
        let den = POWERS_OF_SIX[usize::from(n)];
        let total: u64 = out.iter().map(|(_, p)| p.num * (den / p.den)).sum();
        assert_eq!(total, den);
    }
}

#[test]
fn the_rulebook_example_scores_21() {
    let rules = game(2, false, 100, 9);
    let mut state = rules.initial_state();
    // Stefan (seat 0) crosses off 1 and 2 on his ladder first; Gabriela scores nothing.
    roll(&rules, &mut state, [8, 0, 0, 0, 0, 1]);
    act(&rules, &mut state, [0; 5]);
    roll(&rules, &mut state, [9, 0, 0, 0, 0, 0]);
    act(&rules, &mut state, [0; 5]);
    roll(&rules, &mut state, [7, 0, 0, 0, 0, 2]);
    act(&rules, &mut state, [0; 5]);
    roll(&rules, &mut state, [9, 0, 0, 0, 0, 0]);
    act(&rules, &mut state, [0; 5]);
    assert_eq!(state.scores[..2], [15, 0]);
    assert_eq!(rules.chicken_need(&state, 0), Some(3));
    // His turn: two Rotten Eggs, a Cracked Egg, three Pans, two Pots and a Chicken.
    roll(&rules, &mut state, [0, 1, 2, 2, 3, 1]);
    act(&rules, &mut state, [0, 0, 1, 2, 0]);
    roll(&rules, &mut state, [0, 0, 0, 2, 0, 1]);
    act(&rules, &mut state, [0, 0, 2, 0, 0]);
    roll(&rules, &mut state, [0, 0, 1, 0, 0, 1]);
    assert_eq!(state.stage, Stage::Rotten);
    assert_eq!(state.to_throw, 3);
    roll(&rules, &mut state, [1, 0, 1, 0, 1, 0]);
    let last = state.last.expect("a scored turn");
    assert_eq!((last.breakfast, last.spoiled_fried, last.spoiled_breakfast, last.chickens), (6, 1, false, 15));
    assert_eq!(last.points, 21);
    assert_eq!(state.scores[..2], [36, 0]);
    assert_eq!(rules.chicken_need(&state, 0), Some(4));
    assert_eq!(rules.chicken_need(&state, 1), Some(1));
}

#[test]
fn refusals_leave_the_state_alone() {
    let rules = game(3, false, 100, 9);
    let mut state = rules.initial_state();
    let before = state;
    let mut scratch = Vec::new();
    assert!(matches!(apply_checked(&rules, &mut state, 0, &mut scratch), Err(Refusal::Illegal { .. })));
    assert!(matches!(apply_code(&rules, &mut state, &[1, 2]), Err(Refusal::Invalid(_))));
    assert!(matches!(apply_code(&rules, &mut state, &[-1, 0, 0, 0, 0, 10]), Err(Refusal::Invalid(_))));
    assert!(matches!(apply_code(&rules, &mut state, &[9, 0, 0, 0, 0, 1]), Err(Refusal::Illegal { .. })));
    assert!(matches!(apply_code(&rules, &mut state, &[i64::MAX, 0, 0, 0, 0, 0]), Err(Refusal::Illegal { .. })));
    assert_eq!(state, before);
    roll(&rules, &mut state, [2, 0, 1, 0, 0, 6]);
    let before = state;
    // Three Pots are not on the table; an id past the table is no action.
    let pots = reroll_id([0, 0, 3, 0, 0]) as i64;
    let refused = apply_checked(&rules, &mut state, pots, &mut scratch);
    assert!(matches!(refused, Err(Refusal::Illegal { rule, .. }) if rule == super::model::rule::REROLL_OWN));
    assert!(matches!(apply_checked(&rules, &mut state, 2002, &mut scratch), Err(Refusal::Invalid(_))));
    assert!(matches!(apply_checked(&rules, &mut state, -5, &mut scratch), Err(Refusal::Invalid(_))));
    assert!(matches!(apply_code(&rules, &mut state, &[1, 0, 0, 0, 0, 0]), Err(Refusal::Illegal { .. })));
    assert_eq!(state, before);
}

#[test]
fn options_out_of_range_are_refused() {
    for players in [0, 1, 7, 100] {
        assert!(matches!(Eier::new(players, &Options::default()), Err(Refusal::Option(_))));
    }
    let bad = [("dice", OptionValue::Int(4)), ("dice", OptionValue::Int(11)), ("goal", OptionValue::Int(19))];
    for (name, value) in bad {
        assert!(matches!(Eier::new(2, &Options::default().with(name, value)), Err(Refusal::Option(_))));
    }
    let unknown = Options::default().with("rolls", OptionValue::Int(3));
    assert!(matches!(Eier::new(2, &unknown), Err(Refusal::Option(_))));
    let wrong_type = Options::default().with("shared_chicken_ladder", OptionValue::Int(1));
    assert!(matches!(Eier::new(2, &wrong_type), Err(Refusal::Option(_))));
}

/// Play one random game, checking the invariants at every step; the steps taken.
fn play(rules: &Eier, seed: u64, list_outcomes: bool) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut state = rules.initial_state();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut observation = vec![0f32; rules.observation_size()];
    let mut steps = 0u64;
    loop {
        for seat in (0..rules.players()).map(Some).chain([None]) {
            observation.iter_mut().for_each(|x| *x = 0.0);
            rules.observe(&state, seat, &mut observation);
            assert!(observation.iter().all(|x| (0.0..=1.0).contains(x)), "{observation:?}");
        }
        match rules.node(&state) {
            Node::Terminal => break,
            Node::Chance => {
                assert!((1..=rules.config.dice).contains(&state.to_throw));
                if list_outcomes && steps < 40 {
                    outcomes.clear();
                    rules.chance_outcomes(&state, &mut outcomes).unwrap();
                    let total: f64 = outcomes.iter().map(|(_, p)| p.as_f64()).sum();
                    assert!((total - 1.0).abs() < 1e-9);
                }
                let throw = rules.sample_chance(&state, &mut rng);
                rules.check_outcome(&state, &throw).expect("a sampled throw is possible");
                if steps % 2 == 0 {
                    rules.apply_outcome(&mut state, &throw);
                } else {
                    rules.random_chance(&mut state, &mut rng);
                }
            }
            Node::Decision(seat) => {
                assert_eq!(seat, usize::from(state.player));
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert_eq!(legal.first(), Some(&0));
                assert!(legal.len() > 1, "a decision has a re-roll");
                assert!(legal.windows(2).all(|pair| pair[0] < pair[1]));
                assert!(legal.iter().all(|&id| (id as usize) < rules.num_distinct_actions()));
                let action = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                rules.apply_action(&mut state, action);
            }
        }
        steps += 1;
        assert!(steps < 20_000, "no end in sight");
        // Every die is on the table or in a hand (the Rotten Eggs' re-throw is of dice on it).
        let on_table: u8 = state.dice.iter().sum();
        match state.stage {
            Stage::Roll | Stage::Decide => assert_eq!(on_table + state.to_throw, rules.config.dice),
            Stage::Rotten => assert_eq!(on_table, rules.config.dice),
            Stage::Over => assert_eq!((on_table, state.to_throw), (0, 0)),
        }
    }
    let mut returns = vec![0.0; rules.players()];
    rules.returns(&state, &mut returns);
    assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_ne!(rules.winners(&state), 0);
    steps
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_end_well(
        players in 2usize..=6,
        shared in any::<bool>(),
        goal in prop_oneof![Just(20i64), Just(100), Just(300), 20i64..=300],
        dice in 5i64..=10,
        seed in any::<u64>(),
    ) {
        let rules = game(players, shared, goal, dice);
        play(&rules, seed, seed % 8 == 0);
    }

    #[test]
    fn no_code_or_id_panics(code in proptest::collection::vec(any::<i64>(), 0..9), id in any::<i64>(), seed in any::<u64>()) {
        let rules = game(2, false, 20, 9);
        let mut state = rules.initial_state();
        let mut rng = rng_from_seed(seed);
        let mut scratch = Vec::new();
        for _ in 0..6 {
            let before = state;
            if apply_code(&rules, &mut state, &code).is_err() {
                prop_assert_eq!(state, before);
            }
            if apply_checked(&rules, &mut state, id, &mut scratch).is_err() {
                prop_assert_eq!(state, before);
            }
            match rules.node(&state) {
                Node::Chance => rules.random_chance(&mut state, &mut rng),
                Node::Decision(_) => rules.apply_action(&mut state, 0),
                Node::Terminal => break,
            }
        }
    }
}

#[test]
fn the_mutation_changes_chicken_scoring_only_when_asked() {
    let mut options = Options::default();
    let honest = Eier::new(2, &options).unwrap();
    options.mutation = Some(MUTATION.to_string());
    let broken = Eier::new(2, &options).unwrap();
    // Two Chickens where one is needed: nothing, unless the rule is broken.
    for (rules, points) in [(&honest, 0), (&broken, 10)] {
        let mut state = rules.initial_state();
        roll(rules, &mut state, [7, 0, 0, 0, 0, 2]);
        act(rules, &mut state, [0; 5]);
        assert_eq!(state.scores[0], points);
    }
}

#[test]
fn a_random_action_is_the_one_the_legal_list_gives_for_the_same_draw() {
    let rules = game(3, false, 50, 10);
    let mut state = rules.initial_state();
    let mut rng = rng_from_seed(5);
    let mut listed = Vec::new();
    let mut seen = 0;
    while rules.node(&state) != Node::Terminal {
        if rules.node(&state) == Node::Chance {
            rules.random_chance(&mut state, &mut rng);
            continue;
        }
        let mut twin = rng.clone();
        listed.clear();
        rules.legal_actions(&state, &mut listed);
        let expected = listed[rand::Rng::gen_range(&mut twin, 0..listed.len())];
        let picked = rules.random_action(&state, &mut rng, &mut Vec::new()).unwrap();
        assert_eq!(picked, expected);
        rules.apply_action(&mut state, picked);
        seen += 1;
    }
    assert!(seen > 10);
}
