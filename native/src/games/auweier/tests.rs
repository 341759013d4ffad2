//! Random walks over every option: no panic, legal ids sorted and in the table, a terminal
//! state within a bound, returns summing to 1, chance outcomes summing to 1 where listed.

use proptest::prelude::*;

use super::deck;
use super::encode::SIZE;
use super::notation::{CROW_FOOD, FALSE_WORM, KINDS, NUM_ACTIONS, SEATS, WEDDING};
use super::rules::{Auweier, AuweierState};
use crate::core::playout::play_out;
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, OptionValue, Options, Refusal, Rules};

/// Steps a game takes at most: 4 decks of 22 cards, 88 cards played, 4 x 22 exchanges each
/// bounded by the pile, wedding phases of passes: far below this.
const STEP_BOUND: usize = 20_000;

pub(super) fn options_strategy() -> impl Strategy<Value = (usize, Options)> {
    (2usize..=4, any::<[bool; 9]>(), 3i64..=10, proptest::collection::vec(0i64..=20, 7), any::<bool>()).prop_map(
        |(players, flags, hand_size, worms, default_worms)| {
            let mut options = Options::default()
                .with("lucky_eggs", OptionValue::Bool(flags[0]))
                .with("closed_nests", OptionValue::Bool(flags[1]))
                .with("stuck_player", OptionValue::Str(if flags[2] { "passes" } else { "ends_game" }.into()))
                .with("opening_ties", OptionValue::Bool(flags[3]))
                .with("crow_digs", OptionValue::Bool(flags[4]))
                .with("exchange_cost", OptionValue::Str(if flags[5] { "draws" } else { "turn" }.into()))
                .with("wedding_order", OptionValue::Str(if flags[6] { "onward" } else { "opener" }.into()))
                .with("neutral_colour", OptionValue::Bool(flags[7]))
                .with("lucky_crows", OptionValue::Str(if flags[8] { "both_stages" } else { "worm_stage" }.into()))
                .with("hand_size", OptionValue::Int(hand_size));
            if !default_worms {
                for (number, value) in worms.iter().enumerate() {
                    options = options.with(&format!("worm_value_{}", number + 1), OptionValue::Int(*value));
                }
            }
            (players, options)
        },
    )
}

/// The masks a seat keeps beside its stacks agree with the stacks.
pub(super) fn check_derived(state: &AuweierState) {
    for seat in &state.seats {
        let (mut top, mut any, mut false_worm) = (0u8, 0u8, u8::MAX);
        for f in 0..SEATS {
            let stack = seat.stack(f);
            if stack.last().is_some_and(|&card| CROW_FOOD[usize::from(card)]) {
                top |= 1 << f;
            }
            if stack.iter().any(|&card| CROW_FOOD[usize::from(card)]) {
                any |= 1 << f;
            }
            if stack.contains(&FALSE_WORM) {
                false_worm = f as u8;
            }
        }
        assert_eq!((seat.food_top, seat.food_any, seat.false_worm_at), (top, any, false_worm));
    }
}

/// Walk `rules` from the start with `seed`, checking every state on the way.
fn walk(rules: &Auweier, seed: u64) {
    let mut rng = rng_from_seed(seed);
    let mut state = rules.initial_state();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut observation = vec![0f32; SIZE];
    let mut canonical = Vec::new();
    for _ in 0..STEP_BOUND {
        for seat in (0..rules.players()).map(Some).chain([None]) {
            observation.iter_mut().for_each(|x| *x = 0.0);
            rules.observe(&state, seat, &mut observation);
            let outside = observation.iter().position(|x| !(-1.0..=1.0).contains(x));
            assert!(outside.is_none(), "observation out of range at {outside:?} for {seat:?}: {state:?}");
        }
        canonical.clear();
        rules.canonical(&state, &mut canonical);
        check_derived(&state);
        match rules.node(&state) {
            Node::Terminal => {
                let mut returns = vec![0.0; rules.players()];
                rules.returns(&state, &mut returns);
                let sum: f64 = returns.iter().sum();
                assert!((sum - 1.0).abs() < 1e-9, "returns sum to {sum}");
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(legal.is_empty());
                return;
            }
            Node::Chance => {
                outcomes.clear();
                match rules.chance_outcomes(&state, &mut outcomes) {
                    Ok(()) => {
                        let den = outcomes[0].1.den;
                        let total: u64 = outcomes.iter().map(|(_, p)| p.num * (den / p.den)).sum();
                        assert_eq!(total, den, "chance outcomes sum to 1");
                        for (outcome, _) in &outcomes {
                            assert!(rules.check_outcome(&state, outcome).is_ok());
                        }
                    }
                    Err(Refusal::NotEnumerable(_)) => {}
                    Err(other) => panic!("unexpected {other:?}"),
                }
                let outcome = rules.sample_chance(&state, &mut rng);
                assert!(rules.check_outcome(&state, &outcome).is_ok(), "sampled outcome refused");
                if rand::Rng::gen_bool(&mut rng, 0.5) {
                    let mut code = Vec::new();
                    rules.outcome_code(&outcome, &mut code);
                    apply_code(rules, &mut state, &code).expect("code of a sampled outcome");
                } else {
                    rules.random_chance(&mut state, &mut rng);
                }
            }
            Node::Decision(_) => {
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(!legal.is_empty(), "a decision with no legal action");
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "legal ids not sorted: {legal:?}");
                assert!(legal.iter().all(|&a| (a as usize) < NUM_ACTIONS));
                // an illegal id is refused without changing the state
                let illegal = (0..NUM_ACTIONS as u32).find(|a| legal.binary_search(a).is_err());
                if let Some(id) = illegal {
                    let before = state;
                    let mut scratch = Vec::new();
                    assert!(matches!(
                        apply_checked(rules, &mut state, i64::from(id), &mut scratch),
                        Err(Refusal::Illegal { .. })
                    ));
                    assert_eq!(before, state);
                }
                let action = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                rules.apply_action(&mut state, action);
            }
        }
    }
    panic!("no terminal state within {STEP_BOUND} steps");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_walks_on_every_option((players, options) in options_strategy(), seed in any::<u64>()) {
        let rules = Auweier::new(players, &options).expect("valid options");
        walk(&rules, seed);
    }

    #[test]
    fn playouts_end((players, options) in options_strategy(), seed in any::<u64>()) {
        let rules = Auweier::new(players, &options).expect("valid options");
        let mut state: AuweierState = rules.initial_state();
        let played = play_out(&rules, &mut state, seed, false);
        let sum: f64 = played.returns.iter().sum();
        prop_assert!((sum - 1.0).abs() < 1e-9);
    }

    #[test]
    fn codes_of_any_shape_are_refused_or_applied(code in proptest::collection::vec(-3i64..14, 0..30)) {
        let rules = Auweier::new(2, &Options::default().with("lucky_eggs", OptionValue::Bool(true))).expect("valid");
        let mut state = rules.initial_state();
        let before = state;
        if apply_code(&rules, &mut state, &code).is_err() {
            prop_assert_eq!(before, state);
        }
    }
}

#[test]
fn refuses_player_counts_and_options() {
    assert!(matches!(Auweier::new(1, &Options::default()), Err(Refusal::Option(_))));
    assert!(matches!(Auweier::new(5, &Options::default()), Err(Refusal::Option(_))));
    let bad = Options::default().with("hand_size", OptionValue::Int(11));
    assert!(matches!(Auweier::new(3, &bad), Err(Refusal::Option(_))));
    let unknown = Options::default().with("no_such_option", OptionValue::Bool(true));
    assert!(matches!(Auweier::new(3, &unknown), Err(Refusal::Option(_))));
}

#[test]
fn knows_the_small_deck_and_the_false_worm_limit_but_plays_only_their_defaults() {
    let defaults = Options::default()
        .with("deck_cards", OptionValue::Int(22))
        .with("false_worm_limit", OptionValue::Str("wedding_phase".into()));
    assert!(Auweier::new(2, &defaults).is_ok());
    for small in [3, 21] {
        let options = Options::default().with("deck_cards", OptionValue::Int(small));
        assert!(matches!(Auweier::new(2, &options), Err(Refusal::Option(_))));
    }
    let always = Options::default().with("false_worm_limit", OptionValue::Str("always".into()));
    assert!(matches!(Auweier::new(2, &always), Err(Refusal::Option(_))));
}

#[test]
fn spread_orders_are_listed_and_counted_alike() {
    // 2 Weddings among 5 cards: parts of 2 and 3
    let mut counts = [0u8; KINDS];
    counts[0] = 2;
    counts[3] = 1;
    counts[WEDDING as usize] = 2;
    let mut listed = 0u128;
    deck::for_each_order(&counts, true, |order| {
        assert!(deck::is_spread(order));
        listed += 1;
    });
    assert_eq!(listed, deck::count_orders(&counts, true));
    assert_eq!(listed, 2 * 3 * 3);
    let mut plain = 0u128;
    deck::for_each_order(&counts, false, |_| plain += 1);
    assert_eq!(plain, deck::count_orders(&counts, false));
    assert_eq!(plain, 30);
}

#[test]
fn rulebook_scoring_example() {
    // Yellow (seat 3 of four) holds a first yellow egg, a first red one, a second yellow one
    // and a third green one: 1 + 1 + 2 + 3 eggs, 2 of the own colour, three colours.
    let eggs = [(3, 1), (0, 1), (3, 2), (2, 3)];
    assert_eq!(super::model::score_eggs(3, &eggs, None), 14);
    // with two players and neutral_colour=false, the neutral female adds no colour
    assert_eq!(super::model::score_eggs(0, &[(0, 1), (2, 1)], Some(2)), 3);
    assert_eq!(super::model::score_eggs(0, &[(0, 1), (2, 1)], None), 5);
}
