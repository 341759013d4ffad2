//! The belief sampler on native states: a state reached by random play is packed as the Python
//! face packs its view (a mirror of `belief_code` here, from the native state), and every world
//! drawn from it gives its viewer the same observation as the state, keeps the masks a seat
//! derives from its stacks right, lets a player due to move play, and plays out to the end. The Python tests
//! (`tests/native/test_belief_auweier.py`) hold the worlds against Python's views and sampler.

use proptest::prelude::*;

use super::belief::belief_from_code;
use super::encode::SIZE;
use super::model::Stage;
use super::notation::KINDS;
use super::rules::{Auweier, AuweierState, NOBODY};
use super::tests::{check_derived, options_strategy};
use crate::core::playout::play_out;
use crate::core::{rng_from_seed, Kit, Node, Refusal, Rng, Rules};

/// The code `belief_code` packs from the view of `state` for `viewer` (`None`: a spectator).
fn code_of(rules: &Auweier, s: &AuweierState, viewer: Option<usize>) -> Vec<i64> {
    let config = &rules.config;
    let (players, females) = (config.players, config.females);
    let setup = s.stage.is_setup();
    let mut stage = s.stage;
    if setup && viewer != Some(usize::from(s.player)) && !config.lucky_eggs {
        stage = Stage::Order;
    }
    let start = match (s.phase, s.last) {
        (Some(phase), _) => phase.opener,
        (None, Some(last)) => last.opener,
        (None, None) => 0,
    };
    let mut out = vec![players as i64, viewer.map_or(-1, |v| v as i64), stage as i64, i64::from(s.player)];
    out.push(i64::from(start));
    for f in 0..females {
        out.push(i64::from(s.laid[f]));
        for p in 0..players {
            let stack = s.seats[p].stack(f);
            out.extend([i64::from(s.totals[f][p]), stack.len() as i64]);
            out.extend(stack.iter().map(|&card| i64::from(card)));
        }
    }
    for p in 0..players {
        let seat = &s.seats[p];
        let ready = !setup || p < usize::from(s.player);
        let hidden = setup && viewer != Some(p);
        out.extend([i64::from(ready), if hidden { -1 } else { i64::from(seat.hand_count) }]);
        out.extend(seat.shown.iter().map(|&n| i64::from(n)));
        let mut discarded = [0i64; KINDS];
        for (kind, left) in discarded.iter_mut().enumerate() {
            *left = i64::from(rules.config.deck[kind]) - i64::from(seat.hand[kind]);
        }
        let table = (0..females).flat_map(|f| seat.stack(f).iter());
        for &card in seat.pile().iter().chain(table) {
            discarded[usize::from(card)] -= 1;
        }
        out.extend(discarded);
        let (weddings, passed, seen) = match s.phase {
            Some(phase) => (phase.weddings[p], phase.passed >> p & 1, phase.seen[p]),
            None => (0, 0, seat.roamed),
        };
        out.extend([i64::from(weddings), i64::from(passed), i64::from(seen)]);
        let eggs = &s.won[p][..usize::from(s.won_len[p])];
        out.push(eggs.len() as i64);
        for &egg in eggs {
            out.extend([i64::from(egg >> 2), i64::from(egg & 3)]);
        }
    }
    if let Some(v) = viewer {
        let seat = &s.seats[v];
        out.extend(seat.hand.iter().map(|&n| i64::from(n)));
        let known = usize::from(seat.known);
        out.push(known as i64);
        out.extend(seat.pile()[..known].iter().map(|&card| i64::from(card)));
        let mut unknown = [0i64; KINDS];
        for &card in &seat.pile()[known..] {
            unknown[usize::from(card)] += 1;
        }
        out.extend(unknown);
    }
    match s.last {
        None => out.push(0),
        Some(last) => {
            out.extend([1, i64::from(last.opener)]);
            let awarded: Vec<usize> = (0..females).filter(|&f| last.award[f] != NOBODY).collect();
            out.push(awarded.len() as i64);
            for f in awarded {
                out.extend([i64::from(last.award[f]), f as i64, i64::from(s.laid[f])]);
            }
            let cleared: Vec<(usize, usize)> = (0..females)
                .flat_map(|f| (0..players).map(move |p| (f, p)))
                .filter(|&(f, p)| last.weddings[p] >> f & 1 == 1)
                .collect();
            out.push(cleared.len() as i64);
            for (f, p) in cleared {
                out.extend([f as i64, p as i64]);
            }
        }
    }
    out.push(s.end.map_or(0, |end| 1 + end as i64));
    out
}

/// A state after `steps` random steps from the start (or the end, if sooner).
fn state_after(rules: &Auweier, steps: usize, rng: &mut Rng) -> AuweierState {
    let mut state = rules.initial_state();
    let mut scratch = Vec::new();
    for _ in 0..steps {
        match rules.node(&state) {
            Node::Terminal => break,
            Node::Chance => rules.random_chance(&mut state, rng),
            Node::Decision(_) => {
                let action = rules.random_action(&state, rng, &mut scratch).unwrap();
                rules.apply_action(&mut state, action);
            }
        }
    }
    state
}

fn observation(rules: &Auweier, s: &AuweierState, viewer: Option<usize>) -> Vec<f32> {
    let mut out = vec![0f32; SIZE];
    rules.observe(s, viewer, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn worlds_show_the_viewer_what_the_state_shows(
        (players, options) in options_strategy(), steps in 0usize..400, seed in any::<u64>()
    ) {
        let rules = Auweier::new(players, &options).expect("options of the strategy");
        let mut rng = rng_from_seed(seed);
        let state = state_after(&rules, steps, &mut rng);
        for viewer in (0..players).map(Some).chain([None]) {
            let belief = rules.belief_from_code(&code_of(&rules, &state, viewer)).expect("a view's code");
            let seen = observation(&rules, &state, viewer);
            for _ in 0..8 {
                let world = rules.sample(&belief, &mut rng);
                prop_assert_eq!(&observation(&rules, &world, viewer), &seen);
                check_derived(&world);
                let mover = usize::from(world.player);
                if world.stage == Stage::Play && viewer != Some(mover) {
                    prop_assert!(rules.has_play(&world, mover));
                }
                // a search plays on from its worlds
                let mut played = world;
                play_out(&rules, &mut played, seed, false);
                prop_assert_eq!(rules.node(&played), Node::Terminal);
            }
        }
    }

    #[test]
    fn changed_codes_are_refused_or_sampled(
        seed in any::<u64>(), steps in 0usize..400, at in any::<prop::sample::Index>(), value in -3i64..70
    ) {
        let rules = Auweier::new(3, &Default::default()).expect("the defaults");
        let mut rng = rng_from_seed(seed);
        let state = state_after(&rules, steps, &mut rng);
        let mut code = code_of(&rules, &state, Some(0));
        let at = at.index(code.len());
        code[at] = value;
        match belief_from_code(&rules, &code) {
            Ok(belief) => {
                let mut world = rules.sample(&belief, &mut rng);
                check_derived(&world);
                play_out(&rules, &mut world, seed, false);
            }
            Err(refusal) => prop_assert!(matches!(refusal, Refusal::Invalid(_))),
        }
        let cut = code.len().min(at);
        prop_assert!(belief_from_code(&rules, &code[..cut]).is_err());
    }
}

#[test]
fn a_code_of_another_player_count_is_refused() {
    let three = Auweier::new(3, &Default::default()).expect("the defaults");
    let four = Auweier::new(4, &Default::default()).expect("the defaults");
    let code = code_of(&three, &three.initial_state(), Some(0));
    assert!(belief_from_code(&three, &code).is_ok());
    assert!(matches!(belief_from_code(&four, &code), Err(Refusal::Invalid(_))));
}

/// This thread's CPU time so far in seconds (Linux: `/proc/thread-self/schedstat`), if known.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Worlds per CPU-second, on a mid-game state (`cargo test --profile quick -- --ignored
/// --nocapture sampling_speed`); a figure, never an assertion.
#[test]
#[ignore]
fn sampling_speed() {
    let rules = Auweier::new(3, &Default::default()).expect("the defaults");
    let mut rng = rng_from_seed(1);
    // the first state of normal play past the first egg, seen by a player not to move
    let state = (0..)
        .map(|steps| state_after(&rules, steps, &mut rng_from_seed(1)))
        .find(|s| s.stage == Stage::Play && s.player != 0 && s.laid.iter().sum::<u8>() > 0)
        .expect("a game reaches normal play");
    let belief = rules.belief_from_code(&code_of(&rules, &state, Some(0))).expect("code");
    let count = 2_000_000;
    let start = cpu_seconds().expect("a Linux thread's CPU time");
    let mut checksum = 0u64;
    for _ in 0..count {
        let world = rules.sample(&belief, &mut rng);
        checksum += u64::from(world.seats[1].hand[0]);
    }
    let seconds = cpu_seconds().expect("a Linux thread's CPU time") - start;
    let hidden: Vec<usize> = (1..3).map(|p| state.seats[p].hand_count as usize + state.seats[p].pile().len()).collect();
    println!(
        "{:.0} worlds per CPU-second (others' unseen cards {hidden:?}, checksum {checksum})",
        f64::from(count) / seconds
    );
}
