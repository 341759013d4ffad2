//! Random walks over every option: no panic, legal ids sorted and in the table, a terminal
//! state within a bound, returns summing to 1, chance outcomes summing to 1 where listed.

use proptest::prelude::*;

use super::deck;
use super::encode::SIZE;
use super::notation::{
    deck_of, swap_id, worm_id, ARRANGE, CROW, CROW_FOOD, DECK, DECK_SIZE, FALSE_WORM, KEEP_ORDER, KINDS, NUM_ACTIONS,
    SEATS, THREE, WEDDING,
};
use super::rules::{Auweier, AuweierState};
use crate::core::playout::play_out;
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, OptionValue, Options, Refusal, Rules};

/// Steps a game takes at most: 4 decks of 22 cards, 88 cards played, 4 x 22 exchanges each
/// bounded by the pile, wedding phases of passes: far below this.
const STEP_BOUND: usize = 20_000;

pub(super) fn options_strategy() -> impl Strategy<Value = (usize, Options)> {
    let deck_cards = prop_oneof![Just(DECK_SIZE as i64), 3i64..=DECK_SIZE as i64];
    (2usize..=4, any::<[bool; 10]>(), 3i64..=10, proptest::collection::vec(0i64..=20, 7), any::<bool>(), deck_cards)
        .prop_map(|(players, flags, hand_size, worms, default_worms, deck_cards)| {
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
                .with("false_worm_limit", OptionValue::Str(if flags[9] { "always" } else { "wedding_phase" }.into()))
                .with("hand_size", OptionValue::Int(hand_size))
                .with("deck_cards", OptionValue::Int(deck_cards));
            if !default_worms {
                for (number, value) in worms.iter().enumerate() {
                    options = options.with(&format!("worm_value_{}", number + 1), OptionValue::Int(*value));
                }
            }
            (players, options)
        })
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
        if !rules.config.false_worm_always || state.stage.is_setup() {
            assert!(state.seats.iter().all(|seat| seat.roamed == 0), "roamed without its option: {state:?}");
        }
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
fn a_smaller_deck_is_the_first_cards_of_one_list() {
    assert_eq!(deck_of(DECK_SIZE), DECK);
    assert_eq!(deck_of(3), {
        let mut three = [0u8; KINDS];
        for card in [WEDDING, THREE, CROW] {
            three[usize::from(card)] = 1;
        }
        three
    });
    for (cards, &next) in KEEP_ORDER.iter().enumerate().skip(3) {
        let (smaller, larger) = (deck_of(cards), deck_of(cards + 1));
        assert_eq!(smaller.iter().map(|&n| usize::from(n)).sum::<usize>(), cards);
        let added: Vec<usize> = (0..KINDS).filter(|&kind| larger[kind] != smaller[kind]).collect();
        assert_eq!(added, [usize::from(next)], "deck {cards} + 1 adds one card");
        assert_eq!(larger[added[0]], smaller[added[0]] + 1);
    }
    for cards in [3, 4, 21, 22] {
        let rules = Auweier::new(2, &Options::default().with("deck_cards", OptionValue::Int(cards))).expect("valid");
        let hand = rules.initial_state().seats[0].hand;
        assert_eq!(hand, deck_of(cards as usize));
    }
    for cards in [2, 23] {
        let options = Options::default().with("deck_cards", OptionValue::Int(cards));
        assert!(matches!(Auweier::new(2, &options), Err(Refusal::Option(_))));
    }
    let unknown = Options::default().with("false_worm_limit", OptionValue::Str("never".into()));
    assert!(matches!(Auweier::new(2, &unknown), Err(Refusal::Option(_))));
}

/// Two players with four-card decks `F 3 K H`, all in hand, after: 0 puts the False Worm
/// before female 0, 1 a 3 before female 1, 0 exchanges a 3 in for the False Worm, 1 puts their
/// False Worm before female 2. Player 0 is to move with the False Worm back in hand.
fn false_worm_back_in_hand(limit: &str) -> (Auweier, AuweierState) {
    let options = Options::default()
        .with("deck_cards", OptionValue::Int(4))
        .with("hand_size", OptionValue::Int(4))
        .with("false_worm_limit", OptionValue::Str(limit.into()));
    let rules = Auweier::new(2, &options).expect("valid options");
    let mut state = rules.initial_state();
    let mut scratch = Vec::new();
    let false_worm = usize::from(FALSE_WORM);
    let order = [FALSE_WORM, THREE, CROW, WEDDING].map(|card| i64::from(ARRANGE) + i64::from(card));
    let play = [
        worm_id(false_worm, 0),
        worm_id(usize::from(THREE), 1),
        swap_id(0, 0, usize::from(THREE)),
        worm_id(false_worm, 2),
    ];
    for action in order.iter().chain(order.iter()).copied().chain(play.map(i64::from)) {
        apply_checked(&rules, &mut state, action, &mut scratch).expect("a legal step");
    }
    (rules, state)
}

#[test]
fn the_false_worm_limit_holds_in_normal_play_only_when_asked() {
    let back = worm_id(usize::from(FALSE_WORM), 0);
    let (rules, mut state) = false_worm_back_in_hand("always");
    assert_eq!((state.player, state.seats[0].roamed, state.seats[1].roamed), (0, 0b001, 0b100));
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    assert!(!legal.contains(&back) && legal.contains(&worm_id(usize::from(FALSE_WORM), 1)));
    let before = state;
    let refused = apply_checked(&rules, &mut state, i64::from(back), &mut Vec::new());
    assert!(matches!(refused, Err(Refusal::Illegal { rule, .. }) if rule.contains("between two matings")));
    assert_eq!(state, before);

    let (rules, state) = false_worm_back_in_hand("wedding_phase");
    assert_eq!((state.seats[0].roamed, state.seats[1].roamed), (0, 0));
    legal.clear();
    rules.legal_actions(&state, &mut legal);
    assert!(legal.contains(&back));
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
