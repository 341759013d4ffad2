"""Fit the Auf die Nüsse! turn-start evaluation that search uses (``search.WEIGHTS``, ``TEMPO``).

Plays two-player games of the heuristic against itself (one move in twenty at random, so that
the positions vary), records ``search.features`` for both players at every turn start the
evaluation is asked about, and fits a logistic regression of who won on the difference of the
two players' features, each feature with a weight for the start of the game and one for its
end (interpolated by ``search.remaining``), plus the tempo of the player to move.

Prints the held-out log loss (games split four to one) of the fitted weights and of the
weights in the package, then the fitted weights as Python to paste into ``bots/search.py``.

With ``--reach`` it also asks whether the face-up row would sharpen the estimate: it fits
again with four more differences per player (:func:`reach`: each squirrel above the start
track times what the best nut its space offers is worth to its owner, summed for the 2-area's
plain spaces, the 3-area's sides and the raccoon spaces, and the best face-up nut's worth) and
prints both held-out log losses. On 8,000 games (2026-12-06, two runs of 4,000 from the seeds
100 and 200) they were 0.5577 without and 0.5570 with them: the row adds next to nothing to
what the board already says.

Usage: .venv/bin/python scripts/fit_nuesse_evaluation.py [GAMES] [SEED] [--reach]   (5000 and
2 by default: the figures in ``bots/search.py``; a few minutes on one core.)
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
from spieltisch.games.auf_die_nuesse.model import OFFER
from spieltisch.games.auf_die_nuesse.notation import Space
from spieltisch.games.auf_die_nuesse.rules import Board, NuesseState
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


REACH_GROUPS = (
    (Space.TWO_FOUR, Space.FIVE_SIX, Space.EIGHT_NINE, Space.TEN_TWELVE),
    (Space.LEFT_3, Space.RIGHT_3),
    (Space.RACCOON_2, Space.RACCOON_3),
)
"""The spaces whose squirrels :func:`reach` sums, a number per group."""


def reach(board: Board, player: int, outlook: search.Outlook) -> list[float]:
    """What the face-up row offers ``player``: for each of :data:`REACH_GROUPS`, their
    squirrels on its spaces times the worth to them of the best nut each space offers; then
    the best face-up nut's worth to them."""
    gains = [
        0.0 if card is None else outlook.card_gain(player, card) for card in board.market.face_up
    ]
    offered = [max(gains[slot] for slot in OFFER[space]) for space in Space]
    reached = [
        sum(board.areas[space][player] * offered[space] for space in group)
        for group in REACH_GROUPS
    ]
    return [*reached, max(gains)]


def sample(state: NuesseState) -> Sample:
    """Both players' features at a turn start (with :func:`reach`'s after them), how much of
    the game is left, who moves."""
    board, outlook = state.board, search.Outlook(state.board)
    first, second = (search.features(board, p, outlook) + reach(board, p, outlook) for p in (0, 1))
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


def design(record: Record, columns: int = len(search.FEATURES)) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the first ``columns`` feature differences (late weights, then the
    early-minus-late ones, then the tempo's two) and whether player 0 won; drawn games are
    left out."""
    rows, wins = [], []
    for samples, returns in record:
        if returns[0] == returns[1]:
            continue
        for first, second, left, mover in samples:
            diff = (np.array(first) - np.array(second))[:columns]
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
    args = [arg for arg in sys.argv[1:] if arg != "--reach"]
    games = int(args[0]) if args else GAMES
    seed = int(args[1]) if len(args) > 1 else SEED
    record = play(games, seed)
    order = np.arange(len(record))
    np.random.default_rng(SPLIT_SEED).shuffle(order)
    cut = int((1 - HELD_OUT) * len(record))
    train_games = [record[i] for i in order[:cut]]
    test_games = [record[i] for i in order[cut:]]
    train, test = design(train_games), design(test_games)
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
    if "--reach" in sys.argv:
        wider = len(search.FEATURES) + len(REACH_GROUPS) + 1
        train, test = design(train_games, wider), design(test_games, wider)
        print(f"with the face-up row's reach: held-out log loss {log_loss(*test, fit(*train)):.4f}")


if __name__ == "__main__":
    main()
