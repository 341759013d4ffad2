"""The Auf die Nüsse! rollout agent: the heuristic, checked by playing each choice on.

At each choice that matters (which white die, roll on or stop, which face-up nut, which
theft) the agent plays on from every candidate move in the same ``rollouts`` imagined futures
and plays the move that won most, if it beat the heuristic's own choice by more than the
noise (:data:`MARGIN` standard errors of the difference over those futures); otherwise it
plays as the heuristic does. In each future the expert finishes the agent's turn, the
heuristic plays every seat after that, and at the start of the turn after next
(:data:`HORIZON`; ``rollout:N/T`` sets another turn ``T``) the search's fitted win chances
(:func:`~.search.win_chances`) value the position; near the end the future is played to the
end.

Why this beats the search: the heuristic is the opponent's own policy (in the lab) and a good
guess at a careful player's, the next two turns are played out move by move, pushes and
collections of the opponent's reply included, and only then does the fitted estimate take
over, where the search stops at the next turn start.

The futures are shared between the candidates (common random numbers), so a difference
between two moves is measured on the same dice and cards: a *world* fixes one order of the
unseen cards and the dice of every roll, keyed by the turn (counted from the decision) and the
roll within the turn, so that rolling once more, or stopping sooner, leaves every later
turn's dice as they were. A world's numbers come from SplitMix64 streams (:class:`Stream`),
the same in Python and in the native core, so the reference here (:func:`weigh`) and the
native agent choose the same moves from the same values; :class:`RolloutAgent` plays the
futures in the native core where it is built (:func:`use_faster`), some hundred times
faster. Pure: no I/O, no clock; randomness only from the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spieltisch.core.agent import Agent, Rated, Ratings
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move, PlayerId
from spieltisch.games.auf_die_nuesse.belief import state_of
from spieltisch.games.auf_die_nuesse.bots.expert import ExpertAgent
from spieltisch.games.auf_die_nuesse.bots.heuristic import HeuristicAgent
from spieltisch.games.auf_die_nuesse.bots.judge import nuesse_view
from spieltisch.games.auf_die_nuesse.bots.search import at_turn_start, win_chances
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.notation import DICE, DRAWS, ROLL_AGAIN, STOP
from spieltisch.games.auf_die_nuesse.rules import AufDieNuesse, NuesseState
from spieltisch.games.auf_die_nuesse.view import NuesseView

ROLLOUTS = 64
"""Futures per decision by default (``rollout:N`` sets another number)."""
MAX_ROLLOUTS = 100_000
"""The most futures a setting may ask for."""
MAX_HORIZON = 8
"""The latest turn a setting may stop the futures at."""
MARGIN = 1.0
"""How many standard errors of the paired difference a move must win by to be played instead
of the heuristic's own choice."""
MAX_STEPS = 5_000
"""Player moves a rollout may make before it is scored as it stands (a guard: games end long
before)."""

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def sub_seed(seed: int, index: int) -> int:
    """The seed of item ``index`` of ``seed`` (the native core's ``playout_seed``)."""
    return _mix(seed ^ ((index * _GOLDEN + 0x632BE59BD9B4E019) & _MASK))


class Stream:
    """A SplitMix64 stream of numbers (the native ``Stream``)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        """The next 64 bits."""
        self._state = (self._state + _GOLDEN) & _MASK
        return _mix(self._state)

    def below(self, n: int) -> int:
        """A number below ``n`` (small ``n``: the bias is below 2**-56)."""
        return self.next() % n


@dataclass(frozen=True, slots=True)
class World:
    """One future: the seed of its dice and the order in which the unseen cards come."""

    dice: int
    cards: tuple[int, ...]
    """Card indices (:data:`~.notation.CARDS` order), the next drawn first."""

    @classmethod
    def of(cls, seed: int, unseen: Sequence[int]) -> World:
        """The world of ``seed`` for a state whose unseen cards are ``unseen`` (per card)."""
        cards = [card for card, count in enumerate(unseen) for _ in range(count)]
        shuffle = Stream(sub_seed(seed, 1))
        for i in range(len(cards) - 1, 0, -1):
            j = shuffle.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cls(sub_seed(seed, 0), tuple(cards))


HORIZON = 2
"""A rollout stops at the start of this turn, counted from the decision (the next player's
turn is the first), and is valued there by the search's fitted win chances
(:func:`~.search.win_chances`); where the end is near it plays to the end instead."""


def play_out(
    state: NuesseState,
    world: World,
    me: PlayerId,
    players: tuple[HeuristicAgent, ExpertAgent],
    horizon: int = HORIZON,
) -> tuple[float, ...]:
    """Each player's return (or fitted win chance) once ``state`` is played on in ``world``:
    ``me`` by the expert for the rest of the turn under way, everyone else and every later
    turn by the heuristic, to the start of turn ``horizon`` or to the end."""
    heuristic, expert = players
    next_card = steps = turn = roll = 0
    while not state.is_terminal():
        if state.is_chance():
            if state.stage is Stage.ROLL:
                if state.track:
                    roll += 1
                else:
                    turn, roll = turn + 1, 0
                    if turn >= horizon and at_turn_start(state):
                        return win_chances(state)
                outcome: Move = DICE[Stream(sub_seed(sub_seed(world.dice, turn), roll)).below(216)]
            else:
                card = world.cards[next_card] if next_card < len(world.cards) else 0
                next_card += 1
                outcome = DRAWS[card]
            state = state.apply(outcome)
            continue
        legal = state.legal_actions()
        seat = state.current_player()
        assert seat is not None
        if len(legal) == 1:
            move = legal[0]
        else:
            agent = expert if turn == 0 and seat == me else heuristic
            move = agent.act(state.view(seat), legal)
        state = state.apply(move)
        steps += 1
        if steps > MAX_STEPS:
            break
    return state.returns()


def candidates(stage: Stage, legal: Sequence[Move], prior: Move) -> list[Move]:
    """The moves weighed at a decision: every legal one at the dice, a face-up nut or a theft;
    at a roll-or-stop choice rolling on and stopping (a kept joker's lays are left to the
    heuristic: only its own choice among them is weighed); none when filing a nut or at the
    setup (the heuristic's move stands)."""
    if stage in (Stage.PLACE, Stage.TAKE, Stage.STEAL):
        return list(legal)
    if stage is Stage.AGAIN:
        return [m for m in legal if m in (ROLL_AGAIN, STOP) or m == prior]
    return []


def weigh(
    state: NuesseState,
    me: PlayerId,
    legal: Sequence[Move],
    rollouts: int,
    seed: int,
    horizon: int = HORIZON,
) -> tuple[Move, list[tuple[Move, float]]]:
    """The rollout agent's move for ``me`` among ``legal`` with ``rollouts`` worlds drawn from
    ``seed``, each played to the start of turn ``horizon`` (the reference of the native
    ``weigh``), with each weighed move's mean return."""
    heuristic = HeuristicAgent(state.game, 0)
    players = (heuristic, ExpertAgent(state.game, 0))
    prior = heuristic.act(state.view(me), legal)
    moves = candidates(state.stage, legal, prior)
    if len(moves) < 2 or rollouts <= 0:
        return prior, []
    worlds = [World.of(sub_seed(seed, k), state.board.market.unseen) for k in range(rollouts)]
    results = [
        [play_out(state.apply(m), w, me, players, horizon)[me] for w in worlds] for m in moves
    ]
    base = moves.index(prior) if prior in moves else 0
    n = float(len(worlds))
    best: tuple[float, Move] = (0.0, prior)
    for at, row in enumerate(results):
        if at == base:
            continue
        total = squares = 0.0
        for a, b in zip(row, results[base], strict=True):
            total += a - b
            squares += (a - b) * (a - b)
        mean = total / n
        spread = (max(0.0, squares / n - mean * mean) / max(1.0, n - 1.0)) ** 0.5
        if mean > MARGIN * spread and mean > best[0]:
            best = (mean, moves[at])
    return best[1], [(m, sum(row) / n) for m, row in zip(moves, results, strict=True)]


def game_of(view: NuesseView) -> AufDieNuesse:
    """The game ``view`` is of (its players and options)."""
    return AufDieNuesse.of(view.config)


Weigher = Callable[
    [NuesseView, Sequence[Move], int, int, int], tuple[Move, list[tuple[Move, float]]] | None
]
"""A faster :func:`weigh` from a view, the legal moves, the futures, the seed and the turn
that ends the futures (the same answer), or ``None`` where it cannot weigh this view."""

_FASTER: list[Weigher] = []


def use_faster(weigher: Weigher | None) -> None:
    """Let :class:`RolloutAgent` weigh its moves with ``weigher`` (``None``: in Python again).
    The native core registers its own when it is loaded (``spieltisch.native``): this package
    cannot import it, as the games sit below the native core."""
    _FASTER[:] = [] if weigher is None else [weigher]


class RolloutAgent(Agent[NuesseView]):
    """Plays as the heuristic does, except where playing each choice to the end, many times
    in the same futures with the heuristic in every seat, shows another choice to win more
    (see the module docstring). ``rollout:N`` sets the futures per decision (default
    :data:`ROLLOUTS`), ``rollout:N/T`` also the turn whose start ends them (default
    :data:`HORIZON`: the turn after next; ``rollout:512/3`` also plays, at two players, the
    agent's own next turn, the strongest setting measured). The futures are played by the
    faster weigher where one is registered (:func:`use_faster`: the native core's), else in
    Python (the reference, some three hundred times slower); ``native=False`` insists on
    Python."""

    name = "rollout"

    def __init__(self, game: Game, seed: int = 0, *, native: bool = True) -> None:
        super().__init__(game, seed)
        self.rollouts = ROLLOUTS
        self.horizon = HORIZON
        self.native = native

    def configure(self, setting: str) -> None:
        rollouts, slash, horizon = setting.partition("/")
        counts = _count(rollouts), _count(horizon) if slash else HORIZON
        if not (1 <= counts[0] <= MAX_ROLLOUTS and 1 <= counts[1] <= MAX_HORIZON):
            raise OptionError(
                f"rollout takes 1 to {MAX_ROLLOUTS} futures per move, and after a slash 1 to "
                f"{MAX_HORIZON} turns ahead, not {setting!r}"
            )
        self.rollouts, self.horizon = counts

    def act(self, view: NuesseView, legal: Sequence[Move]) -> Move:
        return self.weigh(view, legal)[0]

    def explain(self, view: NuesseView, legal: Sequence[Move]) -> str:
        move, means = self.weigh(view, legal)
        if not means:
            return f"{self.name}: {move} — as the heuristic plays it"
        shares = ", ".join(f"{m} {share:.0%}" for m, share in means)
        return f"{self.name}: {move} — won in {self.rollouts} futures: {shares}"

    def rate(self, view: NuesseView, legal: Sequence[Move]) -> Ratings | None:
        """The weighed moves, the one played first, then by the share they won (each a win
        chance over :attr:`rollouts` futures); ``None`` where the heuristic's move stands
        unweighed."""
        move, means = self.weigh(view, legal)
        if not means:
            return None
        ranked = sorted(means, key=lambda item: (item[0] != move, -item[1]))
        return Ratings("win chance", tuple(Rated(m, share, self.rollouts) for m, share in ranked))

    def weigh(
        self, view: NuesseView, legal: Sequence[Move]
    ) -> tuple[Move, list[tuple[Move, float]]]:
        """The move to play and what each weighed move won (:func:`weigh`)."""
        view = nuesse_view(view)
        seed = self.rng.getrandbits(64)
        if self.native and _FASTER:
            found = _FASTER[0](view, legal, self.rollouts, seed, self.horizon)
            if found is not None:
                return found
        me = view.actor if view.actor is not None else view.player
        return weigh(state_of(view), me, legal, self.rollouts, seed, self.horizon)


def _count(text: str) -> int:
    """A setting's whole number (digits only), or 0 where it is none."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else 0


__all__ = [
    "HORIZON",
    "MARGIN",
    "MAX_HORIZON",
    "MAX_ROLLOUTS",
    "ROLLOUTS",
    "RolloutAgent",
    "Stream",
    "Weigher",
    "World",
    "candidates",
    "game_of",
    "play_out",
    "sub_seed",
    "use_faster",
    "weigh",
]
