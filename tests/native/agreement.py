"""The agreement harness: the Python engine and the native core stepped side by side.

:func:`walk` plays random games of one game, player count and options in both engines at once
and compares, at every step: who acts, the legal action ids in order, the chance outcomes with
their exact probabilities (or that both refuse to list them), the state (each game's canonical
encoding), every seat's observation and the spectator's (the RL encoder's array against the
native one), and at the end the scores, winners and returns. Chance is drawn by each engine
in turn, so each must accept the other's outcomes; every so often an illegal action id, an
unknown one and a malformed chance code are offered to both: both refuse, and neither state
changes. Every few games the native history replays in Python to an equal state.

:func:`configs` lists what a game is walked with: every player count at the defaults, then
every other value of every option and both bounds of every rule parameter, at the smallest
and the largest player count. ``bench/native.py --agree`` runs the same walk a million steps
per game.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, InvalidActionError, NotEnumerableError
from spieltisch.core.game import Game, Move, OptionSpec, OptionValue, State
from spieltisch.games import REGISTRY
from spieltisch.native import NativeGame, NativeState
from spieltisch.native.face import apply_step
from spieltisch.rl.encode import encoder_for

REQUIRE_VARIABLE = "SPIELTISCH_REQUIRE_NATIVE"
"""Set (CI sets it) to make a missing native core fail the native tests instead of skipping."""


def require_native(game_id: str | None = None) -> None:
    """Skip the calling test module unless the native core is installed (and plays
    ``game_id``); under :data:`REQUIRE_VARIABLE` fail instead."""
    missing = not native.available() or (game_id is not None and game_id not in native.games())
    if not missing:
        return
    what = "the native core" if game_id is None else f"the native {game_id}"
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail(f"{what} is not built, and {REQUIRE_VARIABLE} is set", pytrace=False)
    pytest.skip(f"{what} is not built in this installation", allow_module_level=True)


class DisagreementError(AssertionError):
    """The two engines disagree; the message says where and how to replay it."""


@dataclass(frozen=True)
class Config:
    """One player count and options to walk a game with."""

    players: int
    options: dict[str, OptionValue] = field(default_factory=dict)

    def __str__(self) -> str:
        changed = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.players}p" + (f"-{changed}" if changed else "")


def option_values(spec: OptionSpec) -> tuple[OptionValue, ...]:
    """Every value of an option other than its default worth walking: the other truth value,
    every other choice, both bounds of a rule parameter."""
    if isinstance(spec.default, bool):
        values: tuple[OptionValue, ...] = (not spec.default,)
    elif spec.choices:
        values = spec.choices
    elif spec.bounds is not None:
        values = spec.bounds
    else:
        values = ()
    return tuple(v for v in values if v != spec.default)


def configs(game_id: str) -> list[Config]:
    """What :func:`walk` walks ``game_id`` with (see the module docstring)."""
    info = REGISTRY.game_class(game_id).info
    counts = range(info.min_players, info.max_players + 1)
    found = [Config(players) for players in counts]
    ends = sorted({info.min_players, info.max_players})
    for spec in info.options:
        for value in option_values(spec):
            found.extend(Config(players, {spec.name: value}) for players in ends)
    return found


@dataclass
class Walked:
    """What a walk did: steps (actions and chance outcomes), games finished, refusals tried."""

    steps: int = 0
    games: int = 0
    refusals: int = 0


@dataclass
class _Pair:
    """The two engines' states of one game in progress, and its moves so far (as text)."""

    python: State
    native: NativeState
    moves: list[str] = field(default_factory=list)


def policy_walk(
    both: NativeGame,
    seed: int,
    policy: Callable[[State, random.Random], Move],
    random_moves: float,
) -> Iterator[tuple[State, NativeState]]:
    """One game in both engines, the moves mostly ``policy``'s (a game's playout policy, so
    the states are those a search's playouts meet) and a random one with chance
    ``random_moves``, chance drawn by Python; each step goes to both engines as the same
    record step. Yields every state, the two agreeing in canonical form."""
    rng = random.Random(seed)
    python = both.python.initial_state()
    nat = both.initial_state()
    while True:
        assert both.convert.canonical(python) == tuple(nat.canonical())
        yield python, nat
        if python.is_terminal():
            return
        move: Move
        if python.is_chance():
            move = python.sample_chance(rng)
        elif rng.random() < random_moves:
            move = rng.choice(list(python.legal_actions()))
        else:
            move = policy(python, rng)
        apply_step(nat, both.step_of(python, move))
        python = python.apply(move)


def walk(
    game_id: str,
    config: Config,
    *,
    seed: int,
    steps: int,
    mutation: str | None = None,
    outcomes_every: int = 1,
    observe_every: int = 1,
) -> Walked:
    """Play random games of ``game_id`` with ``config`` in both engines until ``steps`` steps
    are compared; :class:`DisagreementError` at the first difference. ``outcomes_every`` and
    ``observe_every`` compare chance lists and observations at every n-th step only (1: all)."""
    game = REGISTRY.game_class(game_id)(config.players, **config.options)
    both = NativeGame(game, mutation)
    rng = random.Random(seed)
    native_rng = native.Rng(seed)
    walked = Walked()
    checker = _Checker(game, both, game_id, config, seed)
    while walked.steps < steps:
        pair = _Pair(game.initial_state(), both.initial_state())
        while True:
            checker.agree(pair, walked.steps % observe_every == 0)
            if pair.python.is_terminal():
                break
            if walked.steps % 7 == 3:
                walked.refusals += checker.refusals(pair, rng)
                if pair.python.is_chance():
                    walked.refusals += checker.near_misses(pair, rng, native_rng)
            if pair.python.is_chance():
                if walked.steps % outcomes_every == 0:
                    checker.outcomes(pair)
                checker.chance(pair, rng, native_rng, python_draws=walked.games % 2 == 0)
            else:
                checker.action(pair, rng)
            walked.steps += 1
        checker.ended(pair)
        if walked.games % 4 == 0:
            checker.replays(pair)
        walked.games += 1
    return walked


@dataclass
class _Checker:
    game: Game
    both: NativeGame
    game_id: str
    config: Config
    seed: int

    def fail(self, pair: _Pair, what: str) -> DisagreementError:
        moves = " ".join(pair.moves[-12:])
        return DisagreementError(
            f"{self.game_id} {self.config} seed {self.seed}, after {len(pair.moves)} moves "
            f"(last: {moves}): {what}"
        )

    def agree(self, pair: _Pair, observe: bool) -> None:
        python, nat = pair.python, pair.native
        facts = [
            ("player to act", python.current_player(), nat.current_player()),
            ("chance acts", python.is_chance(), nat.is_chance()),
            ("game over", python.is_terminal(), nat.is_terminal()),
            ("state", self.both.convert.canonical(python), tuple(nat.canonical())),
        ]
        for what, expected, got in facts:
            if expected != got:
                raise self.fail(pair, f"{what}: Python {expected}, native {got}")
        if not observe:
            return
        encoder = encoder_for(self.game_id)
        for seat in [*range(self.game.players), None]:
            expected_array = encoder.encode(python.view(seat))
            got_array = nat.observation(seat)
            if not np.array_equal(expected_array, got_array):
                where = np.flatnonzero(expected_array != got_array)[:8].tolist()
                raise self.fail(
                    pair,
                    f"observation of seat {seat} differs at {where}: Python "
                    f"{expected_array[where].tolist()}, native {got_array[where].tolist()}",
                )

    def outcomes(self, pair: _Pair) -> None:
        convert = self.both.convert
        expected: list[tuple[tuple[int, ...], Fraction]] | None
        try:
            listed = pair.python.chance_outcomes()
            expected = [(convert.chance_code(pair.python, m), Fraction(p)) for m, p in listed]
        except NotEnumerableError:
            expected = None
        got: list[tuple[tuple[int, ...], Fraction]] | None
        try:
            exact = pair.native.exact_chance_outcomes()
            got = [(tuple(code), Fraction(num, den)) for code, num, den in exact]
        except NotEnumerableError:
            got = None
        if expected != got:
            raise self.fail(
                pair, f"chance outcomes: Python {_shown(expected)}, native {_shown(got)}"
            )

    def chance(
        self, pair: _Pair, rng: random.Random, native_rng: object, *, python_draws: bool
    ) -> None:
        convert = self.both.convert
        if python_draws:
            move = pair.python.sample_chance(rng)
            code = convert.chance_code(pair.python, move)
        else:
            code = tuple(pair.native.sample_chance(native_rng))
            move = convert.chance_move(pair.python, code)
            if convert.chance_code(pair.python, move) != code:
                raise self.fail(pair, f"chance code {code} does not convert back")
        try:
            pair.native.apply_chance(code)
        except (IllegalActionError, InvalidActionError) as error:
            raise self.fail(
                pair, f"native refuses Python's chance outcome {move}: {error}"
            ) from None
        pair.python = pair.python.apply(move)
        pair.moves.append(str(move))

    def action(self, pair: _Pair, rng: random.Random) -> None:
        expected = [self.game.action_id(a) for a in pair.python.legal_actions()]
        got = list(pair.native.legal_actions())
        if expected != got:
            raise self.fail(pair, f"legal action ids: Python {expected}, native {got}")
        action_id = rng.choice(got)
        move = self.game.action_from_id(action_id)
        pair.native.apply(action_id)
        pair.python = pair.python.apply(move)
        pair.moves.append(str(move))

    def refusals(self, pair: _Pair, rng: random.Random) -> int:
        """Offer both engines moves they must refuse; count the refusals checked."""
        before = tuple(pair.native.canonical())
        tried = 0
        for bad in self._bad_steps(pair, rng):
            python_refused = self._refuses(self._apply_python, pair, bad)
            native_refused = self._refuses(_apply, pair.native, bad)
            if not native_refused:
                raise self.fail(pair, f"native accepts {bad!r}")
            if python_refused is False and not isinstance(bad, tuple):
                raise self.fail(pair, f"Python accepts action id {bad} that native refuses")
            if tuple(pair.native.canonical()) != before:
                raise self.fail(pair, f"refusing {bad!r} changed the native state")
            tried += 1
        return tried

    def near_misses(self, pair: _Pair, rng: random.Random, native_rng: object) -> int:
        """Offer both engines codes one change away from a possible outcome (an item up or
        down, one more or one fewer, two swapped): each must take exactly the codes the other
        takes, to equal states; count the refusals."""
        code = list(pair.native.sample_chance(native_rng))
        variants = [code + code[-1:], code[:-1]]
        if code:
            i, j = rng.randrange(len(code)), rng.randrange(len(code))
            variants += [_changed(code, i, code[i] + 1), _changed(code, i, code[i] - 1)]
            variants.append(_changed(_changed(code, i, code[j]), j, code[i]))
        refused = 0
        for variant in map(tuple, variants):
            twin = pair.native.clone()
            native_took = not self._refuses(twin.apply_chance, variant)
            try:
                move = self.both.convert.chance_move(pair.python, variant)
                after = pair.python.apply(move)
            except (IllegalActionError, InvalidActionError):
                if native_took:
                    raise self.fail(
                        pair, f"native takes chance code {variant}, Python refuses it"
                    ) from None
                refused += 1
                continue
            if not native_took:
                raise self.fail(pair, f"Python takes chance code {variant}, native refuses it")
            if self.both.convert.canonical(after) != tuple(twin.canonical()):
                raise self.fail(pair, f"chance code {variant} leads to other states")
        return refused

    def _bad_steps(self, pair: _Pair, rng: random.Random) -> Iterator[int | tuple[int, ...]]:
        size = self.both.num_distinct_actions
        yield size
        yield -1
        if pair.python.is_chance():
            yield ()
            yield (10**6,) * 3
            return
        legal = set(pair.native.legal_actions())
        illegal = [a for a in range(size) if a not in legal]
        if illegal:
            yield rng.choice(illegal)
        yield (0,)  # a chance code where a player acts

    def _apply_python(self, pair: _Pair, bad: int | tuple[int, ...]) -> None:
        """Apply ``bad`` in Python: an id as its action (an unknown id is refused in the
        conversion already), a tuple as it is."""
        move = bad if isinstance(bad, tuple) else self.game.action_from_id(bad)
        pair.python.apply(move)

    @staticmethod
    def _refuses(attempt: Callable[..., object], *args: object) -> bool:
        try:
            attempt(*args)
        except (IllegalActionError, InvalidActionError):
            return True
        return False

    def ended(self, pair: _Pair) -> None:
        python, nat = pair.python, pair.native
        facts = [
            ("scores", tuple(python.scores()), tuple(nat.scores())),
            ("winners", tuple(sorted(python.winners())), tuple(nat.winners())),
            ("returns", tuple(python.returns()), tuple(nat.returns())),
        ]
        for what, expected, got in facts:
            if expected != got:
                raise self.fail(pair, f"{what}: Python {expected}, native {got}")

    def replays(self, pair: _Pair) -> None:
        replayed = self.both.to_python(pair.native)
        if replayed != pair.python:
            raise self.fail(pair, "the native history replays in Python to another state")
        again, _ = self.both.from_moves(
            self.both.move_of(state, step)
            for state, step in _states_and_steps(self.both, pair.native)
        )
        if tuple(again.canonical()) != tuple(pair.native.canonical()):
            raise self.fail(pair, "the Python moves replay natively to another state")


def _changed(code: list[int], index: int, value: int) -> list[int]:
    return [value if i == index else item for i, item in enumerate(code)]


def _shown(outcomes: list[tuple[tuple[int, ...], Fraction]] | None) -> object:
    """A long list of chance outcomes in short: its length and first few."""
    return None if outcomes is None else (len(outcomes), outcomes[:4])


def _states_and_steps(
    both: NativeGame, nat: NativeState
) -> Iterator[tuple[State, int | tuple[int, ...]]]:
    state = both.python.initial_state()
    for step in nat.history():
        yield state, step
        state = state.apply(both.move_of(state, step))


def _apply(state: NativeState, step: int | tuple[int, ...]) -> None:
    if isinstance(step, tuple):
        state.apply_chance(step)
    else:
        state.apply(step)
