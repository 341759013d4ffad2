//! Random action sequences on every option: no panic, and the invariants of the protocol and
//! of the cards hold at every step.

use proptest::prelude::*;

use super::encode::SIZE;
use super::model::{Config, NUM_ACTIONS, NUM_CARDS};
use super::rules::{Awimbawe, AwimbaweState, Outcome};
use crate::core::playout::play_out;
use crate::core::{apply_checked, apply_code, rng_from_seed, Node, OptionValue, Options, Refusal, Rules};

/// Options from the proptest's choices.
fn options(tie: usize, flags: u8, duties: bool, rounds: i64, lands: i64) -> Options {
    Options::default()
        .with("tie_break", OptionValue::Str(["chance", "seat0", "seat1"][tie % 3].into()))
        .with("rhino_to_empty_pile", OptionValue::Bool(flags & 1 != 0))
        .with("leader_choice_after_deal", OptionValue::Bool(flags & 2 != 0))
        .with("blind_pick_shown", OptionValue::Bool(flags & 4 != 0))
        .with("blocked_duties", OptionValue::Str(if duties { "bound" } else { "excused" }.into()))
        .with("rounds_to_win", OptionValue::Int(rounds))
        .with("lands", OptionValue::Int(lands))
}

/// Every card in play is in exactly one place: a hand, a pile, the trick or a scoring pile.
fn check_cards(config: &Config, state: &AwimbaweState) {
    if state.sides.iter().all(|side| side.hand == 0 && side.piles.iter().all(|p| p.len == 0)) {
        return; // between rounds
    }
    let mut seen = 0u32;
    let mut count = 0u32;
    for side in &state.sides {
        seen |= side.hand;
        count += side.hand.count_ones();
        let (mut tops, mut exposed) = (0u32, 0u32);
        for pile in &side.piles {
            for &card in pile.cards() {
                seen |= 1 << card;
                count += 1;
            }
            if let Some(top) = pile.top() {
                if side.down >> top & 1 == 0 {
                    tops |= 1 << top;
                } else {
                    exposed |= 1 << top;
                }
            }
        }
        assert_eq!(side.available, side.hand | tops, "the available cache");
        assert_eq!(side.exposed, exposed, "the exposed cache");
    }
    for &card in state.trick() {
        seen |= 1 << card;
        count += 1;
    }
    seen |= state.played;
    count += state.played.count_ones();
    assert_eq!(seen, config.deck());
    assert_eq!(count as usize, config.deck_size());
    let taken: u8 = state.tallies.iter().map(|t| t.size).sum();
    assert_eq!(u32::from(taken), state.played.count_ones());
}

/// Play `choices` (indices into the legal actions or chance outcomes) from the start; checks
/// the invariants at every step and that the match ends within a bound.
fn walk(rules: &Awimbawe, seed: u64, choices: &[u16]) {
    let mut state = rules.initial_state();
    let mut rng = rng_from_seed(seed);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut observation = vec![0.0f32; SIZE];
    let mut code = Vec::new();
    let mut steps = 0usize;
    let mut index = 0usize;
    loop {
        check_cards(&rules.config, &state);
        for seat in [None, Some(0), Some(1)] {
            observation.iter_mut().for_each(|x| *x = 0.0);
            rules.observe(&state, seat, &mut observation);
            // every value in [-1, 1], but the round number / 3 (round 4 on of a long match)
            let (round, rest) = (observation[723], [&observation[..723], &observation[724..]]);
            assert!(rest.iter().all(|part| part.iter().all(|x| (-1.0..=1.0).contains(x))));
            assert_eq!(round, (f64::from(state.round) / 3.0) as f32);
        }
        let choice = usize::from(choices.get(index).copied().unwrap_or(0));
        index += 1;
        match rules.node(&state) {
            Node::Terminal => break,
            Node::Chance => {
                outcomes.clear();
                let outcome = match rules.chance_outcomes(&state, &mut outcomes) {
                    Ok(()) => {
                        assert!(!outcomes.is_empty());
                        let total: f64 = outcomes.iter().map(|(_, p)| p.as_f64()).sum();
                        assert!((total - 1.0).abs() < 1e-9);
                        outcomes[choice % outcomes.len()].0
                    }
                    Err(Refusal::NotEnumerable(_)) => rules.sample_chance(&state, &mut rng),
                    Err(other) => panic!("{other:?}"),
                };
                code.clear();
                rules.outcome_code(&outcome, &mut code);
                apply_code(rules, &mut state, &code).expect("an outcome of its own is accepted");
            }
            Node::Decision(seat) => {
                assert!(seat < 2);
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                assert!(!legal.is_empty());
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted: {legal:?}");
                assert!(legal.iter().all(|&a| (a as usize) < NUM_ACTIONS));
                // a few ids that are not legal are refused without a change
                for id in [0i64, 27, 40, 53, 55, -1, 56, 1 << 40] {
                    if id >= 0 && legal.contains(&(id as u32)) {
                        continue;
                    }
                    let before = state;
                    let mut scratch = Vec::new();
                    assert!(apply_checked(rules, &mut state, id, &mut scratch).is_err());
                    assert_eq!(before, state);
                }
                let action = legal[choice % legal.len()];
                let mut scratch = Vec::new();
                apply_checked(rules, &mut state, i64::from(action), &mut scratch).expect("legal");
            }
        }
        steps += 1;
        assert!(steps < 2_000, "the match ends");
    }
    let mut returns = [0.0; 2];
    rules.returns(&state, &mut returns);
    assert_eq!(returns.iter().sum::<f64>(), 1.0);
    assert_eq!(rules.winners(&state).count_ones(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_walks_keep_the_invariants(
        tie in 0usize..3,
        flags in 0u8..8,
        duties in any::<bool>(),
        rounds in 1i64..=5,
        lands in 1i64..=4,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u16>(), 0..600),
    ) {
        let rules = Awimbawe::new(2, &options(tie, flags, duties, rounds, lands)).unwrap();
        walk(&rules, seed, &choices);
    }

    #[test]
    fn codes_of_any_shape_never_panic(code in proptest::collection::vec(any::<i64>(), 0..30), seed in any::<u64>()) {
        let rules = Awimbawe::new(2, &Options::default()).unwrap();
        let mut state = rules.initial_state();
        let before = state;
        let _ = apply_code(&rules, &mut state, &code);
        if state == before {
            // refused: nothing changed
        } else {
            prop_assert_eq!(code.len(), NUM_CARDS);
        }
        let mut played = rules.initial_state();
        let _ = play_out(&rules, &mut played, seed, false);
    }
}

#[test]
fn options_are_read_and_checked() {
    assert!(matches!(Awimbawe::new(3, &Options::default()), Err(Refusal::Option(_))));
    assert!(matches!(Awimbawe::new(1, &Options::default()), Err(Refusal::Option(_))));
    let bad = Options::default().with("rounds_to_win", OptionValue::Int(6));
    assert!(matches!(Awimbawe::new(2, &bad), Err(Refusal::Option(_))));
    let bad = Options::default().with("tie_break", OptionValue::Str("youngest".into()));
    assert!(matches!(Awimbawe::new(2, &bad), Err(Refusal::Option(_))));
    let bad = Options::default().with("colour", OptionValue::Bool(true));
    assert!(matches!(Awimbawe::new(2, &bad), Err(Refusal::Option(_))));
    for lands in [0, 5] {
        let bad = Options::default().with("lands", OptionValue::Int(lands));
        assert!(matches!(Awimbawe::new(2, &bad), Err(Refusal::Option(_))));
    }
}

#[test]
fn a_smaller_deal_uses_the_cards_in_play_once() {
    // one land: the grassland's six animals, one pile and one hand card each
    let rules = Awimbawe::new(2, &Options::default().with("lands", OptionValue::Int(1))).unwrap();
    assert_eq!((rules.config.deck(), rules.config.deck_size(), rules.config.hand_size()), (0x3F, 6, 1));
    let mut state = rules.initial_state();
    let all: Vec<i64> = (0..NUM_CARDS as i64).collect();
    assert!(matches!(apply_code(&rules, &mut state, &all), Err(Refusal::Invalid(_))));
    let desert = [0, 1, 2, 3, 4, 6];
    assert!(matches!(apply_code(&rules, &mut state, &desert), Err(Refusal::Illegal { .. })));
    apply_code(&rules, &mut state, &[0, 1, 2, 3, 4, 5]).unwrap();
    assert_eq!(state.sides[0].piles[0].cards(), &[0, 1]);
    assert_eq!((state.sides[0].hand, state.sides[1].hand), (1 << 2, 1 << 5));
    assert!(state.sides.iter().all(|side| side.piles[1..].iter().all(|pile| pile.len == 0)));
    // two and three lands keep the eagles 9 and 10; four are the rulebook's 28 cards
    let eagles = 0b11 << 26;
    for (lands, deck, hand) in [(2, 0xFFF | eagles, 3), (3, 0x3FFFF | eagles, 4), (4, (1 << NUM_CARDS) - 1, 6)] {
        let config = Config::from_options(&Options::default().with("lands", OptionValue::Int(lands))).unwrap();
        assert_eq!((config.deck(), config.hand_size()), (deck, hand), "{lands} lands");
    }
}

#[test]
fn a_deal_must_use_every_card_once() {
    let rules = Awimbawe::new(2, &Options::default()).unwrap();
    let mut state = rules.initial_state();
    let mut code: Vec<i64> = (0..NUM_CARDS as i64).collect();
    code[5] = 4;
    assert!(matches!(apply_code(&rules, &mut state, &code), Err(Refusal::Illegal { .. })));
    assert!(matches!(apply_code(&rules, &mut state, &code[..27]), Err(Refusal::Invalid(_))));
    code[5] = 5;
    apply_code(&rules, &mut state, &code).unwrap();
    assert_eq!(state, {
        let mut fresh = rules.initial_state();
        let mut order = [0u8; NUM_CARDS];
        for (slot, card) in order.iter_mut().zip(0u8..) {
            *slot = card;
        }
        rules.apply_outcome(&mut fresh, &Outcome::Deal(order));
        fresh
    });
}

#[test]
fn the_mouse_beats_the_elephant_unless_mutated() {
    // Seat 0 holds G1 (the grassland mouse) in hand, seat 1 the grassland elephant G6.
    for (mutation, mouse_wins) in [(None, true), (Some("awimbawe:mouse"), false)] {
        let mut options = Options::default().with("tie_break", OptionValue::Str("seat0".into()));
        options.mutation = mutation.map(String::from);
        let rules = Awimbawe::new(2, &options).unwrap();
        let mut state = rules.initial_state();
        // seat 0: down 24-27 (eagles), up D1 D2 D4 D6 (crowns 3+2+3+1 = 9), hand G1 M1 M2 M4 P1 P2
        // seat 1: down G2 G3 G4 G5, up D3 D5 M3 M5 (2+1+2+1 = 6), hand G6 M6 P3 P4 P5 P6
        let code: [i64; 28] = [
            24, 25, 26, 27, 6, 7, 9, 11, 0, 12, 13, 15, 18, 19, //
            1, 2, 3, 4, 8, 10, 14, 16, 5, 17, 20, 21, 22, 23,
        ];
        apply_code(&rules, &mut state, &code).unwrap();
        // seat 1 has fewer face-up crowns: it leads; it plays G6, seat 0 answers with G1
        assert_eq!(rules.node(&state), Node::Decision(1));
        let mut scratch = Vec::new();
        apply_checked(&rules, &mut state, 5, &mut scratch).unwrap();
        apply_checked(&rules, &mut state, 0, &mut scratch).unwrap();
        let last = state.last_trick.unwrap();
        assert_eq!(last.winner == 0, mouse_wins);
    }
}

/// Random playouts' speed (run with `cargo test --release -- --ignored --nocapture speed`).
#[test]
#[ignore]
fn speed_of_random_playouts() {
    let rules = Awimbawe::new(2, &Options::default()).unwrap();
    let start = std::time::Instant::now();
    let played = crate::core::playout::play_outs(&rules, &rules.initial_state(), 200_000, 1, 1, false);
    let steps: u64 = played.iter().map(|p| p.steps).sum();
    let seconds = start.elapsed().as_secs_f64();
    println!("{steps} steps in {seconds:.3} s: {:.2}M steps/s", steps as f64 / seconds / 1e6);
}
