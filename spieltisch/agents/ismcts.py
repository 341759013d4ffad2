"""Information-set Monte Carlo tree search (ISMCTS) for every game: through the protocol only,
or the same search in the native core where it is built (see the last paragraph).

The agent never sees the true state. Each iteration draws a complete state from the deciding
player's view with the game's belief sampler (its kit's ``belief.sample``), so hidden cards and
every future roll or draw are fresh guesses; it then walks one tree shared by all those guesses
(single-observer ISMCTS): at each decision it prefers children by UCB1 with availability
counts, adds one new child, plays on to the end (at random, or by the game's quick ``PLAYOUT``
policy) or to where the game's ``evaluate`` hint can value the position (such as the end of a round
of a match), and credits every node on the way with the return of the player who moved into
it: the share of the win, or for a game with a ``margin`` hint that share blended with the
score lead (:func:`end_value`). Chance is sampled, never branched on. The move played is the
root child visited most often.

A game may narrow a wide choice to the few worth searching (its ``candidates`` hint, such as
the expert's two best throws in Auf die Eier): the search then tries no other.

A game may cap the tree's depth (its ``tree_depth`` hint: decisions with more than one legal
move, anyone's; forced moves and chance do not count). At depth 1 the tree holds the root's
choices only and every playout goes on by the game's policy (or at random, for a game without
one): each choice is rated by what it leads to when the policy plays on, a one-step lookahead
over the policy (a rollout), up to the noise of sampling and the cut-off of ``evaluate``.
Deeper trees rate a choice by the mean over every later choice tried under it, and where the
values differ by a few points those later choices are tried almost alike, so a choice with
more decisions after it (such as rolling on rather than stopping) can be undervalued.

The budget is a number of iterations or a time per move; with an iteration budget and a seed,
the same view always gives the same decision. A search stops early once its most visited
choice can no longer be overtaken within the budget, so it never spends more than it was given
and often less. A forced move, or a move from the game's book (its ``book`` hint, e.g. arranging
a deck before play), is played without searching.

Where the native core is built and plays the game (its converter packs the view into a belief
the Rust sampler reads), the same search runs in Rust
(:meth:`spieltisch.native.NativeGame.search`), seeded from the agent's own generator, so a
seeded agent stays reproducible; it is the same algorithm with its own random streams, so its
decisions match the Python search's in distribution, not draw for draw. It can also grow
several trees on as many threads and sum their root statistics (root parallelism,
``threads``). ``native=False`` keeps the search in Python; ``native=True`` insists on Rust.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from spieltisch.core.agent import Agent, Rated, Ratings
from spieltisch.core.chance import randbelow
from spieltisch.core.errors import InvalidActionError, NativeError, OptionError
from spieltisch.core.fast import value
from spieltisch.core.game import Game, Move, PlayerId, State
from spieltisch.core.playout import random_playout
from spieltisch.games import kit_of
from spieltisch.native import NativeGame
from spieltisch.native import games as native_games

DEFAULT_SECONDS = 1.0
MAX_SECONDS = 3600.0
"""The longest time budget per move a setting may ask for."""
MAX_ITERATIONS = 100_000_000
"""The largest iteration budget per move a setting may ask for."""
EXPLORATION = 0.7
CHECK_EVERY = 32
"""How often (in iterations) the search asks whether its choice can still change."""
MARGIN_WEIGHT = 0.5
"""The share of a finished playout's value that its score lead makes, in a game that sets a
``margin`` hint (the win makes the rest)."""
MAX_THREADS = 64
"""The most trees a native search grows side by side."""


def _settled(root: Node, left: float) -> bool:
    """True when the most visited root choice can no longer be overtaken in ``left`` visits."""
    visits = sorted(
        (c.visits for row in root.children.values() for c in row.values()), reverse=True
    )
    return len(visits) >= 2 and visits[0] - visits[1] > left


class Node:
    """A tree node: reached by ``player``'s move, with its visit and reward totals. Its
    children are kept by the player who moves and then by the move (no key tuple to build and
    hash at every look-up)."""

    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: PlayerId | None) -> None:
        self.player = player
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[PlayerId, dict[Move, Node]] = {}


@value
class ChoiceStats:
    """How the search rated one root choice."""

    action: Move
    visits: int
    mean_return: float


@value
class SearchResult:
    """The outcome of one search: the choice, the iterations run, the time spent, the ratings."""

    action: Move
    iterations: int
    seconds: float
    choices: tuple[ChoiceStats, ...]


class IsmctsAgent(Agent[Any]):
    """Single-observer ISMCTS with random playouts (see the module docstring).

    Strength setting (``ismcts:SETTING``): ``2s`` or ``0.25s`` for seconds per move, ``3000``
    for iterations per move. The default is one second per move.

    ``native``: ``None`` searches in Rust where the native core can search the game (else in
    Python), ``True`` insists on Rust (:class:`OptionError` where it cannot), ``False`` stays
    in Python. ``threads`` (1 to :data:`MAX_THREADS`) grows that many trees side by side in
    Rust; a game searched in Python grows one.
    """

    name = "ismcts"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        tree_depth: int | None = None,
        native: bool | None = None,
        threads: int = 1,
    ) -> None:
        super().__init__(game, seed)
        kit = kit_of(game)
        if kit.belief is None:
            raise OptionError(f"{game.info.name} has no belief sampler, so search cannot play it")
        hints = kit.search
        self.sample = kit.belief.sample
        self.book = hints.book
        self.book_reason = hints.book_reason
        self.evaluate = hints.evaluate
        self.policy = hints.playout
        self.margin = hints.margin
        self.candidates = hints.candidates
        self.iterations = iterations
        self.seconds = DEFAULT_SECONDS if seconds is None and iterations is None else seconds
        if exploration is None:
            exploration = hints.exploration
        self.exploration = EXPLORATION if exploration is None else exploration
        self.tree_depth = hints.tree_depth if tree_depth is None else tree_depth
        if self.tree_depth is not None and self.tree_depth < 1:
            raise OptionError(f"the search tree's depth must be at least 1, not {self.tree_depth}")
        if not 1 <= threads <= MAX_THREADS:
            raise OptionError(f"a search takes 1 to {MAX_THREADS} threads, not {threads}")
        if threads > 1 and native is False:
            raise OptionError("only the native search grows trees on several threads")
        self.threads = threads
        self.native = native
        self._native: NativeGame | None = _native_game(game) if native is not False else None
        if native and self._native is None:
            raise OptionError(f"the native core cannot search {game.info.name} here")
        self.last: SearchResult | None = None

    def configure(self, setting: str) -> None:
        """Set the budget from ``2s`` / ``0.25s`` (seconds, more than 0 and at most
        :data:`MAX_SECONDS`) or ``3000`` (iterations, 1 to :data:`MAX_ITERATIONS`); anything
        else, ``inf`` and ``nan`` included, is an :class:`OptionError`."""
        text = setting.strip().lower()
        shown = repr(setting if len(setting) <= 40 else setting[:40] + "…")
        seconds: float | None = None
        iterations: int | None = None
        try:
            if len(text) > 40:
                raise ValueError(text)
            if text.endswith("s"):
                seconds = float(text[:-1])
            else:
                iterations = int(text)
        except ValueError:
            raise OptionError(
                f"ismcts takes seconds ('1s') or iterations ('2000'), not {shown}"
            ) from None
        if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
            raise OptionError(
                f"ismcts takes more than 0 and at most {MAX_SECONDS:g} seconds, not {shown}"
            )
        if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
            raise OptionError(f"ismcts takes 1 to {MAX_ITERATIONS:,} iterations, not {shown}")
        self.seconds, self.iterations = seconds, iterations

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        return self.search(view, legal).action

    def rate(self, view: object, legal: Sequence[Move]) -> Ratings | None:
        """Every choice rated by its share of the wins in the simulated games that began with
        it (``win chance``; in a game with a ``margin`` hint that share blended with the score
        lead, ``win and lead``); ``None`` for a move played without searching: forced, or from
        the book."""
        result = self.search(view, legal)
        if result.iterations == 0:
            return None
        rated = tuple(Rated(c.action, c.mean_return, c.visits) for c in result.choices)
        return Ratings("win chance" if self.margin is None else "win and lead", rated)

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        result = self.search(view, legal)
        best = result.choices[0]
        if result.iterations == 0:
            return f"ismcts: {best.action} — {self._unsearched(view, legal)}"
        verb = "wins" if self.margin is None else "scores (half win, half lead)"
        others = ", ".join(
            f"{c.action} {verb} {100 * c.mean_return:.0f}% of {c.visits}"
            for c in result.choices[1:4]
        )
        return (
            f"ismcts: {best.action} — {verb} {100 * best.mean_return:.0f}% of {best.visits} "
            f"simulated games ({result.iterations} iterations in {result.seconds:.2f}s; "
            f"next: {others or 'none'})"
        )

    def _unsearched(self, view: object, legal: Sequence[Move]) -> str:
        """Why a move was played without searching (with the book's reason where it gives
        one)."""
        if len(legal) == 1:
            return "the only legal move, played without searching"
        reason = self.book_reason(view, legal) if self.book_reason else None
        book = "a set move from the game's book, played without searching"
        return book if reason is None else f"{reason} ({book})"

    def search(self, view: object, legal: Sequence[Move]) -> SearchResult:
        """Search from ``view`` within the budget and return the decision with its statistics."""
        start = time.perf_counter()
        book = self.book
        set_move = legal[0] if len(legal) == 1 else book(view, legal, self.rng) if book else None
        if set_move is not None:
            result = SearchResult(set_move, 0, 0.0, (ChoiceStats(set_move, 0, 0.0),))
            self.last = result
            return result
        found = None if self._native is None else self._search_natively(view, legal, start)
        if found is not None:
            self.last = found
            return found
        root = Node(None)
        iterations = 0
        deadline = None if self.seconds is None else start + self.seconds
        while True:
            self._iterate(root, view)
            iterations += 1
            now = time.perf_counter()
            if self.iterations is not None and iterations >= self.iterations:
                break
            if deadline is not None and now + (now - start) / iterations > deadline:
                break
            if iterations % CHECK_EVERY == 0 and _settled(root, self._left(iterations, start, now)):
                break
        result = self._result(root, legal, iterations, time.perf_counter() - start)
        self.last = result
        return result

    def _search_natively(
        self, view: object, legal: Sequence[Move], start: float
    ) -> SearchResult | None:
        """The search run in Rust, or ``None`` where the native core cannot read this view
        or these moves (the Python search then runs, and runs from now on, unless the agent
        insists on the native search)."""
        native = self._native
        assert native is not None  # only called with the native game at hand
        if self.iterations is not None and self.seconds is not None:
            return None  # both budgets at once: only the Python search keeps to both
        seed = self.rng.getrandbits(64)
        seconds = None
        if self.seconds is not None:
            seconds = max(self.seconds - (time.perf_counter() - start), 1e-6)
        try:
            found = native.search(
                view,
                legal,
                seed=seed,
                iterations=self.iterations,
                seconds=seconds,
                threads=self.threads,
                exploration=self.exploration,
                tree_depth=self.tree_depth,
            )
        except (InvalidActionError, NativeError, OptionError):
            if self.native:
                raise
            self._native = None
            return None
        choices = tuple(ChoiceStats(c.action, c.visits, c.mean_return) for c in found.choices)
        took = time.perf_counter() - start
        return SearchResult(choices[0].action, found.iterations, took, choices)

    def _left(self, iterations: int, start: float, now: float) -> float:
        """How many more iterations the budget allows (estimated from the pace for time)."""
        if self.iterations is not None:
            return self.iterations - iterations
        assert self.seconds is not None  # one of the two budgets is always set
        return (start + self.seconds - now) * iterations / (now - start)

    def _result(
        self, root: Node, legal: Sequence[Move], iterations: int, seconds: float
    ) -> SearchResult:
        stats = []
        for action in legal:
            child = next(
                (n for row in root.children.values() for a, n in row.items() if a == action), None
            )
            visits = child.visits if child else 0
            mean = child.reward / child.visits if child and child.visits else 0.0
            stats.append(ChoiceStats(action, visits, mean))
        ranked = sorted(stats, key=lambda c: (-c.visits, -c.mean_return))
        return SearchResult(ranked[0].action, iterations, seconds, tuple(ranked))

    def _iterate(self, root: Node, view: object) -> None:
        rng = self.rng
        state = self.sample(self.game, view, rng)
        path = [root]
        node = root
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            player = state.current_player()
            assert player is not None  # a decision node has a player
            if len(legal) == 1:
                state = state.apply(legal[0])
                continue
            if self.candidates is not None:
                legal = self.candidates(state, legal)
            child, action, expanded = self._select(node, player, legal)
            state = state.apply(action)
            path.append(child)
            node = child
            if expanded or (self.tree_depth is not None and len(path) > self.tree_depth):
                break
        returns = self._playout(state)
        for visited in path:
            visited.visits += 1
            if visited.player is not None:
                visited.reward += returns[visited.player]

    def _select(
        self, node: Node, player: PlayerId, legal: Sequence[Move]
    ) -> tuple[Node, Move, bool]:
        """The child to follow: an untried action if any (chosen at random), else best UCB1."""
        children = node.children.get(player)
        if children is None:
            children = node.children[player] = {}
        untried = []
        best: tuple[float, Node, Move] | None = None
        for action in legal:
            child = children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.available += 1
            score = child.reward / child.visits + self.exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if best is None or score > best[0]:
                best = (score, child, action)
        if untried:
            action = untried[randbelow(self.rng, len(untried))]
            child = Node(player)
            child.available = 1
            children[action] = child
            return child, action, True
        assert best is not None  # legal is not empty
        return best[1], best[2], False

    def _playout(self, state: State) -> tuple[float, ...]:
        """Play to the end (or to where the game's evaluator can value the position) and
        return each player's expected share of the win. Decisions follow the game's playout
        policy if it has one, else they are uniformly random."""
        rng, evaluate, policy = self.rng, self.evaluate, self.policy
        if evaluate is None and policy is None:
            return end_value(random_playout(state, rng)[0], self.margin)
        depth = 0
        while not state.is_terminal():
            if evaluate is not None and (value := evaluate(state, depth)) is not None:
                return value
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            elif policy is not None:
                state = state.apply(policy(state, rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[randbelow(rng, len(legal))])
            depth += 1
        return end_value(state, self.margin)


def end_value(state: State, margin: float | None) -> tuple[float, ...]:
    """What a finished game is worth to each player in the search: the share of the win, or,
    in a game with a ``margin`` hint of ``m`` points, that share blended (by
    :data:`MARGIN_WEIGHT`) with ``(1 + tanh(lead / m)) / 2``, where the lead is the player's
    score less the best other score. Win or lose, a rollout then also tells a wide margin from
    a narrow one, which a search with few rollouts per choice can use: one rollout's win or
    loss is mostly luck, its score difference somewhat less so."""
    returns = state.returns()
    if margin is None:
        return returns
    scores = state.scores()
    valued = []
    for player, share in enumerate(returns):
        lead = scores[player] - max(s for other, s in enumerate(scores) if other != player)
        leading = 0.5 * (1.0 + math.tanh(lead / margin))
        valued.append((1.0 - MARGIN_WEIGHT) * share + MARGIN_WEIGHT * leading)
    return tuple(valued)


def _native_game(game: Game) -> NativeGame | None:
    """The native twin of ``game`` where the native core is built, plays it with these
    options and can search it (its converter packs beliefs); else ``None``."""
    if game.info.id not in native_games():
        return None
    try:
        twin = NativeGame(game)
    except (NativeError, OptionError):
        return None
    return twin if twin.searches else None
