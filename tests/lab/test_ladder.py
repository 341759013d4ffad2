"""The bot ladder: the Plackett-Luce fit, its intervals, the command, and the shipped file."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spieltisch
from spieltisch.agents import agent_names
from spieltisch.agents.ladder import (
    NAMES,
    Agreement,
    Ladder,
    LadderError,
    Rung,
    ahead_chance,
    finishing_ranks,
    ladder_from_json,
    load_ladder,
    rung_names,
)
from spieltisch.cli import app
from spieltisch.core.errors import OptionError
from spieltisch.lab import ladder as lab_ladder
from spieltisch.lab.ladder import Pairing, Plan, Ranked, Stages
from spieltisch.native import agents as native_agents
from spieltisch.native import auf_die_eier as native_eier

LEVELS = ("a", "b", "c", "d")


def _synthetic(strengths: list[float], games: int, seed: int) -> Stages:
    """Stages of games drawn from Plackett-Luce with the given log-strengths: two levels a
    game over four seats, the pairings a ladder would play."""
    rng = random.Random(seed)
    counted: Stages = Counter()
    pairs = [(0, 1), (1, 2), (2, 3), (0, 2), (1, 3)]
    for _ in range(games):
        low, high = pairs[rng.randrange(len(pairs))]
        seats = [low, high, low, high]
        left, ranks, place = list(range(4)), [0] * 4, 0
        while left:
            weights = [math.exp(strengths[seats[i]]) for i in left]
            pick = rng.choices(left, weights)[0]
            ranks[pick] = place
            place += 1
            left.remove(pick)
        ranked = Ranked(tuple(LEVELS[s] for s in seats), tuple(ranks))
        counted.update(lab_ladder.stages(ranked, LEVELS))
    return counted


def test_the_fit_recovers_known_strengths() -> None:
    truth = [-1.0, 0.0, 0.4, 1.5]
    theta = lab_ladder.fit(_synthetic(truth, 3000, seed=1), len(LEVELS))
    centre = sum(theta) / len(theta)
    for fitted, true in zip(theta, truth, strict=True):
        assert fitted - centre == pytest.approx(true - sum(truth) / 4, abs=0.12)


def test_the_fit_stays_finite_when_a_level_never_loses() -> None:
    # b beats a in every one of ten two-player games: plain maximum likelihood runs off to
    # infinity, the weak prior keeps it finite and b clearly ahead.
    counted: Stages = Counter({((1, 1), 1): 10})
    theta = lab_ladder.fit(counted, 2)
    assert all(math.isfinite(t) for t in theta)
    assert theta[1] - theta[0] > 2


def test_ties_share_a_stage_and_a_bottom_tie_adds_nothing() -> None:
    ranked = Ranked(("a", "b", "a", "b"), (0, 0, 1, 1))
    counted = lab_ladder.stages(ranked, ("a", "b"))
    # The two tied winners each come first from all four seats; the tie at the bottom is no
    # stage at all (whatever its order, the ranking is the same).
    assert counted == Counter({((2, 2), 0): 1, ((2, 2), 1): 1})
    assert lab_ladder.stages(Ranked(("a", "b"), (0, 0)), ("a", "b")) == Counter()


def test_finishing_ranks_put_winners_first_then_points() -> None:
    assert finishing_ranks([10, 30, 20], winners=[1]) == (2, 0, 1)
    assert finishing_ranks([5, 5, 9], winners=[0, 1]) == (0, 0, 2)
    # A game's own winner (a tie broken by its rules) comes before an equal score.
    assert finishing_ranks([7, 7], winners=[1]) == (1, 0)


def test_the_scale_matches_openskill_for_the_number_of_players() -> None:
    mu = lab_ladder.to_mu([0.0, 1.0], players=3)
    assert sum(mu) / 2 == pytest.approx(25.0)
    assert mu[1] - mu[0] == pytest.approx(math.sqrt(3) * 25 / 6)


def _plan() -> tuple[Plan, dict[Pairing, list[Stages]]]:
    pairing = Pairing("a", "b", 12)
    deals = []
    for b_wins in (2, 1, 2, 1, 2, 1):  # b wins 9 of 12 two-player games, 2 a deal
        deal: Stages = Counter({((1, 1), 1): b_wins})
        if b_wins < 2:
            deal[(1, 1), 0] += 2 - b_wins
        deals.append(deal)
    return Plan("auweier", 2, ("a", "b"), (pairing,)), {pairing: deals}


def test_the_bootstrap_is_reproducible_and_holds_mu() -> None:
    plan, deals = _plan()
    played = {"a": 12, "b": 12}
    first = lab_ladder.rate_plan(plan, deals, played, seed=3, bootstrap=60)
    again = lab_ladder.rate_plan(plan, deals, played, seed=3, bootstrap=60)
    assert first == again
    assert [r.level for r in first] == ["a", "b"]
    for rung in first:
        assert rung.low <= rung.mu <= rung.high
        assert rung.sigma == pytest.approx((rung.high - rung.low) / 3.92, abs=0.01)
    other = lab_ladder.rate_plan(plan, deals, played, seed=4, bootstrap=60)
    assert [r.mu for r in other] == [r.mu for r in first]


def test_pairings_connect_cheap_levels_densely_and_costly_ones_to_neighbours() -> None:
    levels = ("random", "heuristic", "ismcts:50", "ismcts:500", "expert", "ismcts:2000")
    found = lab_ladder.pairings(levels, 40, {"ismcts:500": 4, "ismcts:2000": 2})
    pairs = {(p.weaker, p.stronger): p.games for p in found}
    assert pairs[("ismcts:500", "expert")] == 4
    assert pairs[("expert", "ismcts:2000")] == 2
    assert pairs[("heuristic", "expert")] == 40  # two apart among the uncapped levels
    assert pairs[("random", "expert")] == 40  # and any distance: a round robin
    assert ("ismcts:500", "ismcts:2000") not in pairs  # costly: only its neighbours


def test_without_caps_every_two_levels_meet_so_any_order_is_checked() -> None:
    levels = ("random", "heuristic", "ismcts:50", "ismcts:500", "expert", "ismcts:2000", "racer")
    found = lab_ladder.pairings(levels, lab_ladder.GAMES, {})
    assert len(found) == 21 and all(p.games == lab_ladder.GAMES >= 200 for p in found)
    assert {frozenset((p.weaker, p.stronger)) for p in found} == {
        frozenset(pair) for pair in itertools.combinations(levels, 2)
    }


def test_a_pairings_deals_seat_each_level_in_every_seat() -> None:
    game = spieltisch.load("auweier", 3)
    tasks = lab_ladder.pairing_tasks(game, Pairing("random", "heuristic", 4), seed=9)
    assert [t.seats for t in tasks[:2]] == [
        ("random", "heuristic", "random"),
        ("heuristic", "random", "heuristic"),
    ]
    assert len(tasks) == 4 and tasks[0].seed == tasks[1].seed != tasks[2].seed


TINY = ["--game", "awimbawe", "--level", "random", "--level", "heuristic", "--games", "4"]


def test_the_command_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    """Twice, and to another path with other workers: the file records no machine detail."""
    out = tmp_path / "ladder.json"
    args = ["lab", "ladder", *TINY, "--bootstrap", "40", "--out", str(out)]
    runner = CliRunner()
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    written = out.read_bytes()
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert out.read_bytes() == written
    elsewhere = tmp_path / "elsewhere" / "other.json"
    elsewhere.parent.mkdir()
    moved = runner.invoke(app, [*args[:-1], str(elsewhere), "--workers", "2"])
    assert moved.exit_code == 0, moved.output
    assert elsewhere.read_bytes() == written
    ladder = ladder_from_json(written.decode())
    assert ladder.command.startswith("spieltisch lab ladder --game awimbawe --level random")
    assert "--out" not in ladder.command and str(tmp_path) not in ladder.command
    rungs = ladder.rungs("awimbawe", 2)
    assert [r.level for r in rungs] == ["random", "heuristic"]
    assert all(r.games == 4 for r in rungs)


def test_the_command_refuses_what_the_ladder_does_not_rate(tmp_path: Path) -> None:
    runner = CliRunner()
    out = str(tmp_path / "x.json")
    bad_level = runner.invoke(app, ["lab", "ladder", *TINY, "--level", "ismcts:1s", "--out", out])
    assert bad_level.exit_code != 0 and "ismcts:1s" in bad_level.output
    bad_cap = runner.invoke(app, ["lab", "ladder", *TINY, "--cap", "expert", "--out", out])
    assert bad_cap.exit_code != 0 and "--cap" in bad_cap.output
    with pytest.raises(OptionError):
        lab_ladder.make_plans(["chess"], None, 4, {})


def test_the_shipped_ladder_covers_every_game_and_player_count() -> None:
    ladder = load_ladder()
    assert ladder.command.startswith("spieltisch lab ladder")
    assert "--out" not in ladder.command
    assert ladder.model == "PlackettLuce"
    # The racer plays only where the native core is built: a build without it offers less
    # than the file rates.
    native_only = set() if native_eier.has_racer() else {"racer"}
    for game_id, counts in lab_ladder.PLAYER_COUNTS.items():
        for players in counts:
            rungs = ladder.rungs(game_id, players)
            expected = set(lab_ladder.ladder_levels(spieltisch.load(game_id, players)))
            rated = {r.level for r in rungs}
            assert expected <= rated <= expected | native_only, (game_id, players)
            assert [r.mu for r in rungs] == sorted(r.mu for r in rungs)
            for rung in rungs:
                assert rung.low <= rung.mu <= rung.high and rung.games > 0
                assert ":" not in rung.level or not rung.level.endswith("s")


def test_each_games_strength_order_agrees_with_the_ladder_where_it_is_settled() -> None:
    """``agent_names`` (strongest first) never puts an agent before one whose best rung the
    ladder measured clearly above it (the two intervals apart); where they overlap, the order
    is not settled and the game's own measurements may decide (Auf die Nüsse at 3 and 4)."""
    ladder = load_ladder()
    for game_id, counts in ladder.tables.items():
        for players, rungs in counts.items():
            best: dict[str, Rung] = {}
            for rung in rungs:
                name = rung.level.partition(":")[0]
                if name not in best or rung.mu > best[name].mu:
                    best[name] = rung
            order = [a for a in agent_names(spieltisch.load(game_id, players)) if a in best]
            for higher, lower in itertools.combinations(order, 2):
                assert best[lower].low <= best[higher].high, (game_id, players, higher, lower)


def _ladder() -> Ladder:
    rungs = (
        Rung("random", 10.0, 1.0, 8.0, 12.0, 40),
        Rung("heuristic", 20.0, 1.0, 18.0, 22.0, 40),
        Rung("expert", 30.0, 1.0, 28.0, 32.0, 40),
    )
    return Ladder("spieltisch lab ladder --seed 0", 0, {"auweier": {2: rungs}})


def test_the_ladder_answers_where_a_rating_stands() -> None:
    ladder = _ladder()
    assert ladder.level_near("auweier", 2, 24.0) == "heuristic"
    assert ladder.level_near("auweier", 2, 99.0) == "expert"
    assert ladder.between("auweier", 2, 27.4) == ("heuristic", "expert")
    assert ladder.between("auweier", 2, 5.0) == (None, "random")
    assert ladder.between("auweier", 2, 35.0) == ("expert", None)
    assert ladder.rung("auweier", 2, "expert") is not None
    assert ladder.rung("auweier", 2, "ismcts:1s") is None
    assert ladder.rungs("auweier", 3) == () and ladder.level_near("auweier", 3, 25) is None
    assert ladder_from_json(ladder.to_json()) == ladder


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("seed"), "'seed'"),
        (lambda d: d.update(model="Elo"), "'model'"),
        (lambda d: d.update(command="rm -rf"), "'command'"),
        (lambda d: d["games"]["auweier"]["2"][0].pop("mu"), "games.auweier.2[0]"),
        (lambda d: d["games"]["auweier"]["2"][0].update(mu="x"), "games.auweier.2[0].mu"),
        (lambda d: d["games"]["auweier"]["2"][0].update(high=9.0), "interval"),
        (lambda d: d["games"]["auweier"]["2"].reverse(), "weakest first"),
        (lambda d: d["games"]["auweier"].update(two=[]), "'two'"),
    ],
)
def test_a_broken_file_is_refused_by_name(change: object, words: str) -> None:
    data = json.loads(_ladder().to_json())
    assert callable(change)
    change(data)
    with pytest.raises(LadderError, match=words.replace("[", r"\[").replace("]", r"\]")):
        ladder_from_json(json.dumps(data))


# --- the check: predicted head-to-head against the measured one -------------------------------


def _drawn(
    wins: dict[tuple[str, str], float], players: int, games: int, seed: int
) -> dict[Pairing, list[tuple[int, Ranked]]]:
    """Games of every pairing of ``wins`` (weaker, stronger: the chance a seat of the stronger
    finishes ahead of a seat of the weaker), ``players`` seats in the lineups ``A, B, A, ...``
    and its swap: each game ranked by a race of exponential times, the stronger's rate
    ``p / (1 - p)`` times the weaker's, which is Plackett-Luce for that pair."""
    rng = random.Random(seed)
    drawn: dict[Pairing, list[tuple[int, Ranked]]] = {}
    for (weaker, stronger), chance in wins.items():
        pairing = Pairing(weaker, stronger, games)
        rate = {weaker: 1.0, stronger: chance / (1 - chance)}
        drawn[pairing] = []
        for index in range(games):
            first, second = (weaker, stronger) if index % 2 == 0 else (stronger, weaker)
            seats = tuple(first if seat % 2 == 0 else second for seat in range(players))
            times = [rng.expovariate(rate[level]) for level in seats]
            ranks = tuple(sorted(times).index(t) for t in times)
            drawn[pairing].append((index // 2, Ranked(seats, ranks)))
    return drawn


def _checked(
    wins: dict[tuple[str, str], float], players: int, games: int = 400
) -> tuple[tuple[Rung, ...], tuple[Agreement, ...]]:
    levels = ("a", "b", "c")
    drawn = _drawn(wins, players, games, seed=5)
    plan = Plan("auweier", players, levels, tuple(drawn))
    return lab_ladder.rate_and_check(plan, drawn, seed=1, bootstrap=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_check_passes_when_the_games_follow_the_model(players: int) -> None:
    # a, b, c with strengths 1, 3, 12: b ahead of a 75%, c ahead of b 80%, c ahead of a 92.3%
    wins = {("a", "b"): 0.75, ("b", "c"): 0.8, ("a", "c"): 12 / 13}
    rungs, checked = _checked(wins, players)
    assert [r.level for r in rungs] == ["a", "b", "c"]
    assert [(a.weaker, a.stronger, a.games) for a in checked] == [("a", "b", 400), ("b", "c", 400)]
    for agreement in checked:
        assert agreement.agrees, agreement
        assert agreement.low <= agreement.measured <= agreement.high
        assert agreement.predicted == pytest.approx(
            wins[agreement.weaker, agreement.stronger], abs=0.05
        )


def test_the_check_flags_ratings_that_disagree_with_the_games() -> None:
    # Not transitive: b is level with a and c with b, yet c beats a nearly always. No three
    # ratings can say all three; the fit spreads them, and a and b side by side are predicted
    # apart where their own games are even.
    wins = {("a", "b"): 0.5, ("b", "c"): 0.5, ("a", "c"): 0.97}
    rungs, checked = _checked(wins, players=2)
    assert [r.level for r in rungs] == ["a", "b", "c"]
    flagged = [a for a in checked if not a.agrees]
    assert flagged, checked
    for agreement in flagged:
        assert not agreement.low <= agreement.predicted <= agreement.high
        assert agreement.predicted > agreement.high  # the ratings overstate the gap


def test_the_head_to_head_chance_is_plackett_lucess_pairwise_one() -> None:
    assert ahead_chance(25.0, 25.0, 4) == 0.5
    gap = math.sqrt(3) * 25 / 6 * math.log(3)  # three times as strong: ahead 3 times in 4
    assert ahead_chance(25.0 + gap, 25.0, 3) == pytest.approx(0.75)
    assert ahead_chance(20.0, 30.0, 2) == pytest.approx(1 - ahead_chance(30.0, 20.0, 2))


def test_a_games_share_of_seat_pairs_counts_ties_half() -> None:
    game = Ranked(("a", "b", "a", "b"), (0, 1, 2, 1))
    # a in places 0 and 2, b twice in place 1: a ahead in 2 of 4 pairs
    assert lab_ladder.ahead_share(game, "a", "b") == 0.5
    assert lab_ladder.ahead_share(Ranked(("a", "b"), (0, 0)), "b", "a") == 0.5
    assert lab_ladder.ahead_share(Ranked(("a", "b"), (1, 0)), "b", "a") == 1.0


def test_two_rungs_that_never_met_do_not_pass_the_check() -> None:
    rungs = (Rung("a", 20.0, 1, 18, 22, 10), Rung("b", 30.0, 1, 28, 32, 10))
    (agreement,) = lab_ladder.check(rungs, {}, players=2)
    assert agreement.games == 0 and not agreement.agrees
    # a pairing played the other way round is read from the stronger's side
    tally = lab_ladder.Tally(games=10, ahead=3.0)  # a ahead in 3 of 10
    (turned,) = lab_ladder.check(rungs, {("b", "a"): tally}, players=2)
    assert turned.measured == 0.7 and turned.games == 10


def _with_check(agreements: tuple[Agreement, ...]) -> Ladder:
    ladder = _ladder()
    return Ladder(ladder.command, 0, ladder.tables, checks={"auweier": {2: agreements}})


def test_the_check_is_kept_in_the_file_and_read_back() -> None:
    agreements = (
        Agreement("random", "heuristic", 300, 0.9, 0.92, 0.88, 0.95),
        Agreement("heuristic", "expert", 300, 0.7, 0.9, 0.86, 0.93),
    )
    ladder = _with_check(agreements)
    assert ladder_from_json(ladder.to_json()) == ladder
    assert [a for _, _, a in ladder.disagreements()] == [agreements[1]]
    data = json.loads(ladder.to_json())
    assert data["check"]["auweier"]["2"][1]["agrees"] is False
    data["check"]["auweier"]["2"][1]["agrees"] = True
    with pytest.raises(LadderError, match="agrees"):
        ladder_from_json(json.dumps(data))
    table = lab_ladder.check_table(ladder)
    assert "| heuristic | expert | 300 | 70.0% | 90.0% | 86.0% to 93.0% | DISAGREES |" in table
    (warning,) = lab_ladder.check_warnings(ladder)
    assert "predict 70.0%" in warning and "measured 90.0%" in warning


def test_the_command_warns_of_a_disagreement_and_fails_with_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = Agreement("random", "heuristic", 4, 0.4, 1.0, 0.51, 1.0)
    rungs = (Rung("random", 20.0, 1, 18, 22, 4), Rung("heuristic", 30.0, 1, 28, 32, 4))
    measured = lab_ladder.Measurement({"awimbawe": {2: rungs}}, {"awimbawe": {2: (bad,)}})
    monkeypatch.setattr(lab_ladder, "measure", lambda *args, **kwargs: measured)
    out = tmp_path / "ladder.json"
    runner = CliRunner()
    warned = runner.invoke(app, ["lab", "ladder", *TINY, "--out", str(out)])
    assert warned.exit_code == 0, warned.output
    assert "DISAGREES" in warned.output and "warning: awimbawe, 2 players" in warned.output
    assert ladder_from_json(out.read_text()).disagreements()
    strict = runner.invoke(app, ["lab", "ladder", *TINY, "--strict", "--out", str(out)])
    assert strict.exit_code != 0 and "disagree" in strict.output


def test_search_pairings_play_in_python_and_the_rest_natively(tmp_path: Path) -> None:
    if not native_agents.supported():
        pytest.skip("the native core is not built")
    game = spieltisch.load("awimbawe", 2)
    tasks = lab_ladder.pairing_tasks(game, Pairing("random", "heuristic", 2), seed=1)
    tasks += lab_ladder.pairing_tasks(game, Pairing("random", "ismcts:5", 2), seed=1)
    journal = tmp_path / "games.jsonl"
    results = lab_ladder.play_all(tasks, 1, None, journal, "auto")
    assert [r.engine for r in results] == ["native", "native", "python", "python"]
    assert journal.is_file() and lab_ladder.native_journal(journal).is_file()
    again = lab_ladder.play_all(tasks, 1, None, journal, "auto")  # resumed from both journals
    assert again == results
    only_python = lab_ladder.play_all(tasks[:2], 1, None, None, "python")
    assert [r.engine for r in only_python] == ["python", "python"]


def test_every_ladder_up_to_seven_rungs_has_a_word_for_each_rung_in_both_languages() -> None:
    """Auf die Eier's ladder has seven levels once the racer is rated (heuristic, expert,
    racer and the searches): each is a word of its own, said in German too, and a ladder of
    six keeps its names."""
    from spieltisch.locale import translation

    german = translation("de")
    for count in range(1, 8):
        names = rung_names(count)
        assert len(set(names)) == count and names[-1] == "Master"
        assert all(name in NAMES for name in names)
    assert rung_names(6) == ("Beginner", "Casual", "Advanced", "Strong", "Expert", "Master")
    assert rung_names(7)[-2] == "Virtuoso"
    for name in NAMES:
        assert german.gettext(name) != name, name
