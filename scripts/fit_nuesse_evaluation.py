"""Fit the Auf die Nüsse! turn-start evaluation that search uses (``search.WEIGHTS``, ``TEMPO``).

Plays two-player games of the heuristic against itself (one move in twenty at random, so that
the positions vary), records ``search.features`` for both players at every turn start the
evaluation is asked about, and fits a logistic regression of who won on the difference of the
two players' features, each feature with a weight for the start of the game and one for its
end (interpolated by ``search.remaining``), plus the tempo of the player to move.

Prints the held-out log loss (games split four to one) of the fitted weights and of the
weights in the package, then the fitted weights as Python to paste into ``bots/search.py``.

Usage: .venv/bin/python scripts/fit_nuesse_evaluation.py [GAMES] [SEED]   (5000 and 2 by
default: the figures in ``bots/search.py``; about ten minutes on one core.)
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np

import spieltisch
from spieltisch.agents import Agent, make_agent
from spieltisch.core.game import Game, State
from spieltisch.games.auf_die_nuesse.bots import search
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from spieltisch.lab.play import play_on

GAME = "auf-die-nuesse"
PLAYER = "heuristic"
GAMES, SEED = 5000, 2
"""The defaults: the games and seed behind the weights in ``bots/search.py``."""
RANDOM_MOVES = 0.05
"""The share of moves made at random, so that the positions vary."""
HELD_OUT = 0.2
"""The share of games kept out of the fit to measure it."""
SPLIT_SEED = 0
RIDGE = 1e-3
NEWTON_STEPS = 30
CLIP = 1e-9
"""Probabilities are kept this far from 0 and 1 in the log loss."""

Sample = tuple[list[float], list[float], float, int]  # features of 0, of 1, left, mover


Record = list[tuple[list[Sample], tuple[float, ...]]]  # per game: samples, returns


def sample(state: NuesseState) -> Sample:
    """Both players' features at a turn start, how much of the game is left, who moves."""
    board, outlook = state.board, search.Outlook(state.board)
    first, second = (search.features(board, p, outlook) for p in (0, 1))
    return first, second, search.remaining(board), state.player


def play_one(
    game: Game, agents: list[Agent[Any]], rng: random.Random
) -> tuple[list[Sample], State]:
    """One self-play game: its turn-start samples and its final state."""
    samples: list[Sample] = []
    for state in play_on(game.initial_state(), agents, rng, RANDOM_MOVES):
        if isinstance(state, NuesseState) and search.at_turn_start(state):
            samples.append(sample(state))
    return samples, state


def play(games: int, seed: int) -> Record:
    """``games`` recorded self-play games: their turn-start samples and their returns."""
    game = spieltisch.load(GAME, 2)
    agents = [make_agent(PLAYER, game, 1), make_agent(PLAYER, game, 2)]
    rng = random.Random(seed)
    record = []
    for number in range(games):
        samples, end = play_one(game, agents, rng)
        record.append((samples, end.returns()))
        if (number + 1) % 500 == 0:
            print(f"{number + 1}/{games} games", file=sys.stderr, flush=True)
    return record


def design(record: Record) -> tuple[np.ndarray, np.ndarray]:
    """Rows of feature differences (late weights, then the early-minus-late ones, then the
    tempo's two) and whether player 0 won; drawn games are left out."""
    rows, wins = [], []
    for samples, returns in record:
        if returns[0] == returns[1]:
            continue
        for first, second, left, mover in samples:
            diff = np.array(first) - np.array(second)
            tempo = 1.0 if mover == 0 else -1.0
            rows.append(np.concatenate([diff, diff * left, [tempo, tempo * left]]))
            wins.append(returns[0])
    return np.array(rows), np.array(wins)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge-penalised logistic regression by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) / len(y) + RIDGE * w
        hessian = (x.T * (p * (1 - p))) @ x / len(y) + RIDGE * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The mean log loss of the weights ``w`` on the rows ``x`` with results ``y``."""
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), CLIP, 1 - CLIP)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def packaged() -> np.ndarray:
    """The weights in the package, in the regression's order."""
    late = [late for _, late in search.WEIGHTS]
    rise = [early - late for early, late in search.WEIGHTS]
    tempo_early, tempo_late = search.TEMPO
    return np.array([*late, *rise, tempo_late, tempo_early - tempo_late])


def main() -> None:
    """Play, fit, and print the figures and the weights."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    record = play(games, seed)
    order = np.arange(len(record))
    np.random.default_rng(SPLIT_SEED).shuffle(order)
    cut = int((1 - HELD_OUT) * len(record))
    train = design([record[i] for i in order[:cut]])
    test = design([record[i] for i in order[cut:]])
    w = fit(*train)
    print(f"samples: {len(train[1])} to fit, {len(test[1])} held out")
    print(f"held-out log loss: fitted {log_loss(*test, w):.4f}, ", end="")
    print(f"package {log_loss(*test, packaged()):.4f}, coin toss {np.log(2):.4f}")
    count = len(search.FEATURES)
    print("WEIGHTS = (")
    for name, late, rise in zip(search.FEATURES, w[:count], w[count : 2 * count], strict=True):
        print(f"    ({late + rise:.4f}, {late:.4f}),  # {name}")
    print(")")
    print(f"TEMPO = ({w[-2] + w[-1]:.4f}, {w[-2]:.4f})")


if __name__ == "__main__":
    main()
