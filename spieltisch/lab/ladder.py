"""Measure the bot ladder: games between pairs of levels, a Plackett-Luce fit, OpenSkill's scale.

For each game and number of players the rated levels (:func:`ladder_levels`: ``random``,
``heuristic``, ``expert`` where the game has it, the iteration-budget searches ``ismcts:50``,
``ismcts:500``, ``ismcts:2000``, Auf die Eier's ``racer`` where the native core offers it and
Auf die Nüsse's ``rollout``;
every one deterministic given its seed) play in *pairings* (:func:`pairings`): every level
meets every other one (a round robin, :data:`GAMES` games each by default), so any two levels
that end up side by side have games of their own; a level with a cost cap (``--cap``) meets
only its neighbours in a rough prior order. A pairing plays in deals (:func:`pairing_tasks`):
on each deal, with the arena's seeds, the lineup ``A, B, A, ...`` and its swap
``B, A, B, ...``, so every seat holds each level once a deal with the same luck. The deals of
one game and player count are the same for every pairing; the games are played by
:func:`spieltisch.lab.arena.run` (workers, progress, journal), the pairings of two native levels
end to end in the native core and those with a search in the Python engine with the native
search (:func:`play_all`).

**The check.** After the fit, :func:`check` compares each two rungs side by side with their own
games: the chance the ratings give a seat of the stronger to finish ahead of a seat of the
weaker (:func:`spieltisch.agents.ladder.ahead_chance`) against the measured rate and its 95%
Wilson interval; the ladder file keeps it, and the command warns of every disagreement.

**The model.** Each finished game is a ranking (:func:`spieltisch.agents.ladder.finishing_ranks`:
the winners, then the rest by points). Plackett-Luce gives level ``t`` a strength
``gamma_t = exp(theta_t)``: the best of a set of seats is seat ``i`` with probability
``gamma_i / sum of gamma over the set``, then the best of the rest, and so on. The strengths are
fitted by Hunter's MM algorithm (Hunter 2004, "MM algorithms for generalized Bradley-Terry
models", section 5)::

    gamma_t <- (A - 1 + w_t) / (B + sum over stages s of n_t(s) / sum_{i in s} gamma_i)

where ``w_t`` counts the stages a seat of level ``t`` came first in and ``n_t(s)`` its seats
still in stage ``s``; after each step all strengths are multiplied by the factor that is best
for them together, ``K (A - 1) / (B * sum gamma)`` for ``K`` levels (the prior alone sets the
overall scale, along which plain MM would crawl). ``A = 2, B = 1`` is a weak Gamma prior on
each strength (Caron and Doucet 2012): the fit stays finite when a level never lost (or never
won) a game, and a few hundred games outweigh it.

**Ties.** Seats tied for a place each come first in a stage over the same set, the one that
holds all of them (Breslow's approximation, as survival analysis treats tied times); seats
tied at the bottom add nothing, which is exact (whatever their order, the rest is the same).

**OpenSkill's scale.** OpenSkill's Plackett-Luce, for ``n`` teams at zero sigma, ranks with
``exp(mu_i / c)`` and ``c = sqrt(n) * beta``; so ``mu_t = 25 + sqrt(n) * beta * (theta_t - mean
theta)`` gives a game of ``n`` bots exactly the fitted chances, and puts the mean of the ladder's
rungs at OpenSkill's starting ``mu`` of 25: a newcomer starts in the middle of the ladder.

**Intervals.** A rung's 95% interval is the union of two: the percentile interval of
bootstrap refits to the deals resampled within each pairing (so every pairing keeps its
games; the generator is seeded from the run's seed, so the same arguments write the same
bytes), and ``mu`` plus or minus 1.96 standard errors from the curvature of what the fit
maximises (the observed information). The bootstrap alone understates the spread of a costly
level measured on a few deals (two deals can be resampled only three ways); the curvature alone
takes the games of a deal for independent. ``sigma = (high - low) / 3.92``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import spieltisch
from spieltisch.agents import agent_names
from spieltisch.agents.ladder import (
    BETA,
    MODEL,
    Agreement,
    Ladder,
    Rung,
    ahead_chance,
    finishing_ranks,
)
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game
from spieltisch.lab.arena import GameResult, Task, run
from spieltisch.lab.engine import derive_seed
from spieltisch.lab.stats import wilson_interval
from spieltisch.native import agents as native_agents

PRIOR_ORDER = (
    "random",
    "heuristic",
    "ismcts:50",
    "ismcts:500",
    "expert",
    "ismcts:2000",
    "racer",
    "rollout",
)
"""The rated levels, in a rough order of strength that only chooses which of two levels a
pairing names first (and, with ``--cap``, a costly level's two neighbours)."""
GAMES = 300
"""Games a pairing plays by default: enough that the rate of any two levels side by side is
measured to within about five points (a 95% Wilson interval at most 0.11 wide)."""
PLAYER_COUNTS: Mapping[str, tuple[int, ...]] = {
    "auf-die-eier": (2, 3, 4, 5, 6),
    "auf-die-nuesse": (2, 3, 4),
    "auweier": (2, 3, 4),
    "awimbawe": (2,),
}
"""The games and numbers of players the ladder covers."""
MU_CENTRE = 25.0
"""OpenSkill's default ``mu``: where the mean of the rungs sits."""
PRIOR_SHAPE = 2.0
PRIOR_RATE = 1.0
"""The Gamma prior on each strength (``A`` and ``B`` in the module docstring)."""
BOOTSTRAP = 400
"""Bootstrap resamples for the intervals."""
Z95 = 1.959964
"""The normal distribution's 97.5% point."""
TOLERANCE = 1e-10
MAX_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two levels and the games they play against each other."""

    weaker: str
    stronger: str
    games: int


@dataclass(frozen=True, slots=True)
class Plan:
    """One game and number of players: its levels and pairings."""

    game: str
    players: int
    levels: tuple[str, ...]
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True, slots=True)
class Ranked:
    """One finished game as the fit reads it: each seat's level and rank (0 best)."""

    levels: tuple[str, ...]
    ranks: tuple[int, ...]


Stages = Counter[tuple[tuple[int, ...], int]]
"""Plackett-Luce stages by (seats of each level still in, the level that came first): count."""


def ladder_levels(game: Game) -> tuple[str, ...]:
    """The rated levels ``game`` offers, in :data:`PRIOR_ORDER`."""
    names = set(agent_names(game))
    return tuple(level for level in PRIOR_ORDER if level.partition(":")[0] in names)


def pairings(levels: Sequence[str], games: int, caps: Mapping[str, int]) -> tuple[Pairing, ...]:
    """Which levels meet: every level its neighbours in ``levels``, and the levels without a
    cap every other level without one (a round robin), so whatever order the games put them
    in, each two levels that end up side by side have played each other (what
    :func:`check` compares); a costly (capped) level meets only the two beside it. A pairing
    plays ``games`` games, or the smaller cap of its levels."""
    cheap = [level for level in levels if level not in caps]
    pairs = list(itertools.pairwise(levels))
    pairs += [pair for pair in itertools.combinations(cheap, 2) if pair not in pairs]
    chosen = sorted(pairs, key=lambda p: (levels.index(p[0]), levels.index(p[1])))
    return tuple(
        Pairing(a, b, min(games, caps.get(a, games), caps.get(b, games))) for a, b in chosen
    )


def config_seed(seed: int, game: str, players: int) -> int:
    """The seed of one game and player count (the same whichever others are measured)."""
    return derive_seed(seed, "ladder", game, players)


def pairing_tasks(game: Game, pairing: Pairing, seed: int) -> list[Task]:
    """A pairing's games, at least ``pairing.games``, in deals of two: on each deal (the
    arena's seeds) the lineup ``A, B, A, ...`` and its swap ``B, A, B, ...``, so every seat
    holds each level once a deal. For an even number of players these are the arena's first
    two rotations (the others repeat them); for an odd one, two games instead of one per seat."""
    players = game.players
    options = tuple(sorted(game.options.items()))
    orders = ((pairing.weaker, pairing.stronger), (pairing.stronger, pairing.weaker))
    tasks = []
    for deal in range(-(-pairing.games // 2)):
        deal_seed = derive_seed(seed, "deal", deal)
        for rotation, (first, second) in enumerate(orders):
            seats = tuple(first if seat % 2 == 0 else second for seat in range(players))
            tasks.append(Task(game.info.id, players, options, deal, rotation, seats, deal_seed))
    return tasks


def ranked(result: GameResult) -> Ranked:
    """A finished game's levels and ranks."""
    if not result.finished:
        raise OptionError(f"a game of deal {result.deal} did not finish")
    winners = [seat for seat, share in enumerate(result.returns) if share > 0]
    return Ranked(result.seats, finishing_ranks(result.scores, winners))


def stages(game: Ranked, levels: Sequence[str]) -> Stages:
    """The game's Plackett-Luce stages (ties as in the module docstring)."""
    index = {level: i for i, level in enumerate(levels)}
    places = sorted(set(game.ranks))
    counted: Stages = Counter()
    for place in places[:-1]:
        still = [index[lv] for lv, r in zip(game.levels, game.ranks, strict=True) if r >= place]
        present = tuple(still.count(i) for i in range(len(levels)))
        for level, rank in zip(game.levels, game.ranks, strict=True):
            if rank == place:
                counted[present, index[level]] += 1
    return counted


def fit(counted: Stages, size: int, start: Sequence[float] | None = None) -> list[float]:
    """The fitted log-strengths ``theta`` of ``size`` levels (MM, see the module docstring)."""
    wins = [PRIOR_SHAPE - 1.0] * size
    for (_, first), count in counted.items():
        wins[first] += count
    items = list(counted.items())
    gamma = [1.0] * size if start is None else [math.exp(t) for t in start]
    for _ in range(MAX_STEPS):
        exposure = [PRIOR_RATE] * size
        for (present, _), count in items:
            total = sum(n * g for n, g in zip(present, gamma, strict=True))
            for t, n in enumerate(present):
                if n:
                    exposure[t] += count * n / total
        new = [w / e for w, e in zip(wins, exposure, strict=True)]
        # The best common factor of all strengths, in closed form: the prior alone fixes the
        # scale, so plain MM would crawl along it.
        factor = size * (PRIOR_SHAPE - 1.0) / (PRIOR_RATE * sum(new))
        new = [g * factor for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < TOLERANCE:
            break
    return [math.log(g) for g in gamma]


def to_mu(theta: Sequence[float], players: int) -> list[float]:
    """Log-strengths on OpenSkill's scale, the mean of the rungs at 25."""
    scale = math.sqrt(players) * BETA
    mean = sum(theta) / len(theta)
    return [MU_CENTRE + scale * (t - mean) for t in theta]


def _percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` percentile of ``values``, interpolated between order statistics."""
    ordered = sorted(values)
    at = share * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a small positive definite matrix (Gauss-Jordan elimination)."""
    size = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


def curvature_sd(counted: Stages, theta: Sequence[float]) -> list[float]:
    """Each level's standard error of ``theta_t - mean theta`` from the curvature of what the
    fit maximises (the observed information, the Gamma prior's included)."""
    size = len(theta)
    gamma = [math.exp(t) for t in theta]
    info = [[PRIOR_RATE * gamma[i] if i == j else 0.0 for j in range(size)] for i in range(size)]
    for (present, _), count in counted.items():
        weights = [n * g for n, g in zip(present, gamma, strict=True)]
        total = sum(weights)
        share = [w / total for w in weights]
        for i in range(size):
            info[i][i] += count * share[i]
            for j in range(size):
                info[i][j] -= count * share[i] * share[j]
    cov = _inverse(info)
    sds = []
    for t in range(size):
        contrast = [(1.0 if i == t else 0.0) - 1.0 / size for i in range(size)]
        var = sum(contrast[i] * cov[i][j] * contrast[j] for i in range(size) for j in range(size))
        sds.append(math.sqrt(max(var, 0.0)))
    return sds


def bootstrap_mu(
    plan: Plan,
    deals: Mapping[Pairing, Sequence[Stages]],
    theta: Sequence[float],
    seed: int,
    count: int,
) -> list[list[float]]:
    """Each level's ``mu`` in ``count`` refits to deals resampled within each pairing."""
    rng = random.Random(derive_seed(seed, "bootstrap", plan.game, plan.players))
    samples: list[list[float]] = [[] for _ in plan.levels]
    for _ in range(count):
        resampled: Stages = Counter()
        for pairing in plan.pairings:
            pairing_deals = deals[pairing]
            for _ in pairing_deals:
                resampled.update(pairing_deals[rng.randrange(len(pairing_deals))])
        refit = fit(resampled, len(plan.levels), theta)
        for t, value in enumerate(to_mu(refit, plan.players)):
            samples[t].append(value)
    return samples


def rate_plan(
    plan: Plan,
    deals: Mapping[Pairing, Sequence[Stages]],
    played: Mapping[str, int],
    seed: int,
    bootstrap: int,
) -> tuple[Rung, ...]:
    """The plan's rungs, weakest first, from each pairing's deals (their stages). A rung's
    interval is the union of the bootstrap's and the curvature's (see the module docstring)."""
    everything: Stages = Counter()
    for pairing_deals in deals.values():
        for deal in pairing_deals:
            everything.update(deal)
    theta = fit(everything, len(plan.levels))
    mu = to_mu(theta, plan.players)
    scale = math.sqrt(plan.players) * BETA
    sds = curvature_sd(everything, theta)
    samples = bootstrap_mu(plan, deals, theta, seed, bootstrap)
    rungs = []
    for t, level in enumerate(plan.levels):
        low, high = mu[t] - Z95 * scale * sds[t], mu[t] + Z95 * scale * sds[t]
        if bootstrap:
            low = min(low, _percentile(samples[t], 0.025))
            high = max(high, _percentile(samples[t], 0.975))
        low, high, centre = round(low, 2), round(high, 2), round(mu[t], 2)
        rungs.append(Rung(level, centre, round((high - low) / 3.92, 2), low, high, played[level]))
    return tuple(sorted(rungs, key=lambda r: (r.mu, r.level)))


def make_plans(
    games: Iterable[str] | None,
    players: Iterable[int] | None,
    per_pairing: int,
    caps: Mapping[str, int],
    only: Iterable[str] | None = None,
) -> list[Plan]:
    """The plans of the chosen games and player counts (all of them by default), with the
    rated levels, or the ones of them in ``only``."""
    chosen = list(games) if games else list(PLAYER_COUNTS)
    counts = set(players) if players else None
    wanted = set(only) if only else set(PRIOR_ORDER)
    if not wanted <= set(PRIOR_ORDER):
        unknown = ", ".join(sorted(wanted - set(PRIOR_ORDER)))
        raise OptionError(f"the ladder rates {', '.join(PRIOR_ORDER)}, not {unknown}")
    plans = []
    for game_id in chosen:
        if game_id not in PLAYER_COUNTS:
            raise OptionError(f"the ladder covers {', '.join(PLAYER_COUNTS)}, not {game_id!r}")
        for count in PLAYER_COUNTS[game_id]:
            if counts is not None and count not in counts:
                continue
            levels = tuple(
                level for level in ladder_levels(spieltisch.load(game_id, count)) if level in wanted
            )
            if len(levels) < 2:
                raise OptionError(f"{game_id} has fewer than two of the levels asked for")
            plans.append(Plan(game_id, count, levels, pairings(levels, per_pairing, caps)))
    if not plans:
        raise OptionError("no game takes that many players")
    return plans


@dataclass(frozen=True, slots=True)
class Tally:
    """A pairing's games as the check reads them: how many, and the sum over them of the share
    of seat pairs (a seat of ``stronger``, a seat of ``weaker``) the stronger finished ahead in
    (ties half)."""

    games: int = 0
    ahead: float = 0.0


def ahead_share(game: Ranked, first: str, second: str) -> float:
    """The share of a game's seat pairs (a seat of ``first``, a seat of ``second``) in which
    ``first`` finished ahead, ties counting half (at two players: 1 won, 0 lost, 1/2 tied)."""
    firsts = [r for level, r in zip(game.levels, game.ranks, strict=True) if level == first]
    seconds = [r for level, r in zip(game.levels, game.ranks, strict=True) if level == second]
    if not firsts or not seconds:
        raise OptionError(f"a game of {first} against {second} seats only one of them")
    points = sum(1.0 if a < b else 0.5 if a == b else 0.0 for a in firsts for b in seconds)
    return points / (len(firsts) * len(seconds))


def check(
    rungs: Sequence[Rung], tallies: Mapping[tuple[str, str], Tally], players: int
) -> tuple[Agreement, ...]:
    """For each two rungs side by side (``rungs`` weakest first): the chance the ratings give
    the stronger to finish ahead of the weaker (:func:`~spieltisch.agents.ladder.ahead_chance`)
    against the rate measured in their games (``tallies`` by pairing, weaker level first as
    played), with its 95% Wilson interval over the games (each game counted once, its share
    of seat pairs as its success). Two rungs that never met get an agreement of no games,
    which does not agree."""
    checked = []
    for weaker, stronger in itertools.pairwise(rungs):
        tally = tallies.get((weaker.level, stronger.level))
        ahead = None if tally is None else tally.ahead
        if tally is None and (flipped := tallies.get((stronger.level, weaker.level))):
            tally, ahead = flipped, flipped.games - flipped.ahead
        predicted = round(ahead_chance(stronger.mu, weaker.mu, players), 4)
        if tally is None or ahead is None or not tally.games:
            checked.append(Agreement(weaker.level, stronger.level, 0, predicted, 0.0, 0.0, 1.0))
            continue
        low, high = wilson_interval(ahead, tally.games)
        checked.append(
            Agreement(
                weaker.level,
                stronger.level,
                tally.games,
                predicted,
                round(ahead / tally.games, 4),
                round(low, 4),
                round(high, 4),
            )
        )
    return tuple(checked)


@dataclass(frozen=True, slots=True)
class Measurement:
    """What a measurement found: the rungs and the check of every game and player count."""

    tables: dict[str, dict[int, tuple[Rung, ...]]]
    checks: dict[str, dict[int, tuple[Agreement, ...]]]


def native_journal(journal: Path) -> Path:
    """Where a run journaled at ``journal`` keeps its natively played games (a journal holds
    the games of one engine): beside it, ``.native`` before its suffix."""
    return journal.with_name(f"{journal.stem}.native{journal.suffix}")


def play_all(
    tasks: Sequence[Task],
    workers: int,
    progress: Callable[[int], None] | None,
    journal: Path | None,
    engine: str,
) -> list[GameResult]:
    """Every task's result in order. For ``auto`` the pairings whose two levels both have
    native counterparts play end to end in the native core, the others (the searches) in the
    Python engine with the native search, each engine with a journal of its own (see
    :func:`native_journal`); ``native`` and ``python`` play every game with that engine."""
    if engine != "auto":
        return run(tasks, workers, progress=progress, journal=journal, engine=engine)
    native = [i for i, t in enumerate(tasks) if native_agents.plays_natively(t.game, t.seats)]
    chosen = set(native)
    python = [i for i in range(len(tasks)) if i not in chosen]
    done = [0, 0]

    def part(index: int) -> Callable[[int], None] | None:
        if progress is None:
            return None

        def report(count: int) -> None:
            done[index] = count
            progress(sum(done))

        return report

    results: dict[int, GameResult] = {}
    for index, (picked, used, kept) in enumerate(
        (
            (native, "native", journal and native_journal(journal)),
            (python, "python", journal),
        )
    ):
        if picked:
            games = run([tasks[i] for i in picked], workers, part(index), kept, used)
            results.update(zip(picked, games, strict=True))
    return [results[i] for i in range(len(tasks))]


def measure(
    plans: Sequence[Plan],
    seed: int,
    workers: int = 1,
    bootstrap: int = BOOTSTRAP,
    progress: Callable[[int], None] | None = None,
    journal: Path | None = None,
    engine: str = "auto",
) -> Measurement:
    """Play every plan's pairings (one run: one progress) and rate them, with the ``engine``
    asked for (see :func:`play_all`), and check the rungs side by side against their games
    (:func:`check`)."""
    jobs: list[tuple[Plan, Pairing, list[Task]]] = []
    for plan in plans:
        game = spieltisch.load(plan.game, plan.players)
        plan_seed = config_seed(seed, plan.game, plan.players)
        jobs += [(plan, p, pairing_tasks(game, p, plan_seed)) for p in plan.pairings]
    tasks = [task for _, _, job_tasks in jobs for task in job_tasks]
    results = iter(play_all(tasks, workers, progress, journal, engine))
    by_plan: dict[Plan, dict[Pairing, list[tuple[int, Ranked]]]] = {plan: {} for plan in plans}
    for plan, pairing, job_tasks in jobs:
        by_plan[plan][pairing] = [(task.deal, ranked(next(results))) for task in job_tasks]
    measured = Measurement({}, {})
    for plan in plans:
        rungs, checked = rate_and_check(plan, by_plan[plan], seed, bootstrap)
        measured.tables.setdefault(plan.game, {})[plan.players] = rungs
        measured.checks.setdefault(plan.game, {})[plan.players] = checked
    return measured


def rate_and_check(
    plan: Plan,
    games: Mapping[Pairing, Sequence[tuple[int, Ranked]]],
    seed: int,
    bootstrap: int,
) -> tuple[tuple[Rung, ...], tuple[Agreement, ...]]:
    """The plan's rungs (:func:`rate_plan`) and their check (:func:`check`) from each
    pairing's finished games, each with its deal."""
    deals: dict[Pairing, list[Stages]] = {}
    tallies: dict[tuple[str, str], Tally] = {}
    played: Counter[str] = Counter()
    for pairing, pairing_games in games.items():
        played.update({pairing.weaker: len(pairing_games), pairing.stronger: len(pairing_games)})
        per_deal: dict[int, Stages] = {}
        for deal, game in pairing_games:
            per_deal.setdefault(deal, Counter()).update(stages(game, plan.levels))
        deals[pairing] = [per_deal[d] for d in sorted(per_deal)]
        ahead = sum(
            ahead_share(game, pairing.stronger, pairing.weaker) for _, game in pairing_games
        )
        tallies[pairing.weaker, pairing.stronger] = Tally(len(pairing_games), ahead)
    rungs = rate_plan(plan, deals, played, seed, bootstrap)
    return rungs, check(rungs, tallies, plan.players)


def plan_notes(plans: Sequence[Plan], per_pairing: int) -> tuple[str, ...]:
    """Sentences for the file: where pairings played fewer games than the rest."""
    notes = []
    for plan in plans:
        fewer = [p for p in plan.pairings if p.games < per_pairing]
        if fewer:
            named = ", ".join(f"{p.weaker} v {p.stronger}: {p.games}" for p in fewer)
            notes.append(
                f"{plan.game}, {plan.players} players: fewer games for the costly levels "
                f"({named}; the others {per_pairing}), so their intervals are wider"
            )
    return tuple(notes)


def build_ladder(
    command: str,
    seed: int,
    plans: Sequence[Plan],
    per_pairing: int,
    measured: Measurement,
) -> Ladder:
    """The ladder a measurement writes (its check beside the tables)."""
    notes = plan_notes(plans, per_pairing)
    return Ladder(command, seed, measured.tables, MODEL, notes, measured.checks)


def markdown_table(ladder: Ladder) -> str:
    """The ladder as a Markdown table (the one ``docs/ladder.md`` shows)."""
    lines = [
        "| game | players | level | mu | 95% interval | games |",
        "|---|---:|---|---:|---|---:|",
    ]
    for game in sorted(ladder.tables):
        for players in sorted(ladder.tables[game]):
            for r in ladder.tables[game][players]:
                lines.append(
                    f"| {game} | {players} | {r.level} | {r.mu:.1f} | "
                    f"{r.low:.1f} to {r.high:.1f} | {r.games} |"
                )
    return "\n".join(lines) + "\n"


def check_table(ladder: Ladder) -> str:
    """The check as a Markdown table: each two rungs side by side, the chance the ratings give
    the stronger to finish ahead, the measured rate with its 95% interval, and the verdict."""
    lines = [
        "| game | players | weaker | stronger | games | predicted | measured | 95% interval | |",
        "|---|---:|---|---|---:|---:|---:|---|---|",
    ]
    for game in sorted(ladder.checks):
        for players in sorted(ladder.checks[game]):
            for a in ladder.checks[game][players]:
                verdict = "ok" if a.agrees else "never met" if not a.games else "DISAGREES"
                lines.append(
                    f"| {game} | {players} | {a.weaker} | {a.stronger} | {a.games} | "
                    f"{a.predicted:.1%} | {a.measured:.1%} | {a.low:.1%} to {a.high:.1%} | "
                    f"{verdict} |"
                )
    return "\n".join(lines) + "\n"


def check_warnings(ladder: Ladder) -> list[str]:
    """A sentence for each pair of rungs side by side whose ratings disagree with their games
    (or that never met); none when the check passes."""
    sentences = []
    for game, players, a in ladder.disagreements():
        where = f"{game}, {players} players, {a.weaker} below {a.stronger}"
        if not a.games:
            sentences.append(f"{where}: they never met, so the check has nothing to compare")
        else:
            sentences.append(
                f"{where}: the ratings predict {a.predicted:.1%} for {a.stronger} to finish "
                f"ahead, their {a.games} games measured {a.measured:.1%} "
                f"({a.low:.1%} to {a.high:.1%})"
            )
    return sentences


__all__ = [
    "GAMES",
    "PLAYER_COUNTS",
    "PRIOR_ORDER",
    "Measurement",
    "Pairing",
    "Plan",
    "Ranked",
    "Tally",
    "ahead_share",
    "build_ladder",
    "check",
    "check_table",
    "check_warnings",
    "fit",
    "ladder_levels",
    "make_plans",
    "markdown_table",
    "measure",
    "native_journal",
    "pairing_tasks",
    "pairings",
    "play_all",
    "ranked",
    "rate_and_check",
    "rate_plan",
    "stages",
    "to_mu",
]
