"""Fit Awimbawé's within-round chance that the lab's game-quality measures read
(``spieltisch.lab.awimbawe_odds.WEIGHTS``).

Plays games of the heuristic against itself (one move in twenty at random, so that the
positions vary), records ``awimbawe_odds.features`` at every decision inside a round with who
took that round, and fits a logistic regression without a constant (Newton's method with a
small ridge). Games are split four to one; the held-out decisions score the fitted weights, the
weights in the package and an even split by log loss and Brier score (lower is better; an even
split scores log 2 = 0.693 and 0.25). Prints the figures, then the weights as Python to paste.

Usage: .venv/bin/python scripts/fit_awimbawe_round.py [GAMES] [SEED]   (2000 and 5 by default:
the figures behind the package's weights; a few minutes on one core.)
"""

from __future__ import annotations

import math
import random
import sys

import numpy as np

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.game import State
from spieltisch.games.awimbawe.rules import AwimbaweState
from spieltisch.lab import awimbawe_odds
from spieltisch.lab.play import play_on

GAMES, SEED = 2000, 5
RANDOM_MOVES = 0.05
HELD_OUT = 0.2
RIDGE = 1e-2

Rows = list[tuple[tuple[float, ...], int]]


def play(seed: int) -> Rows:
    """One game's in-round decisions: features and whether seat 0 took that round."""
    game = spieltisch.load("awimbawe", 2)
    agents = [make_agent("heuristic", game, seed * 2 + p) for p in range(2)]
    seen: list[tuple[int, tuple[float, ...]]] = []
    final: State = game.initial_state()
    for final in play_on(game.initial_state(), agents, random.Random(seed), RANDOM_MOVES):
        assert isinstance(final, AwimbaweState)
        if final.stage in awimbawe_odds.IN_ROUND and not final.is_chance():
            seen.append((final.match.round, awimbawe_odds.features(final)))
    assert isinstance(final, AwimbaweState)
    winners = {r.number: r.winner for r in final.match.results}
    return [(f, int(winners[number] == 0)) for number, f in seen]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression without a constant, by Newton's method with a ridge."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + RIDGE * w
        hessian = (x.T * (p * (1 - p))) @ x + RIDGE * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Mean log loss and Brier score of chances ``p`` of outcomes ``y``."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(loss), float(np.mean((p - y) ** 2))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    split = random.Random(seed)
    train: Rows = []
    test: Rows = []
    for g in range(games):
        (test if split.random() < HELD_OUT else train).extend(play(seed * 100_000 + g))
    x, y = np.array([f for f, _ in train]), np.array([w for _, w in train], dtype=float)
    tx, ty = np.array([f for f, _ in test]), np.array([w for _, w in test], dtype=float)
    weights = fit(x, y)
    print(f"{len(train)} decisions to fit, {len(test)} held out ({games} games, seed {seed})")
    for name, p in (
        ("fitted", 1 / (1 + np.exp(-tx @ weights))),
        ("package", 1 / (1 + np.exp(-tx @ np.array(awimbawe_odds.WEIGHTS)))),
        ("even split", np.full(len(ty), 0.5)),
    ):
        loss, brier = scores(p, ty)
        print(f"{name:>10}: log loss {loss:.4f}  Brier {brier:.4f}")
    print(f"(log 2 = {math.log(2):.4f})")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")
    for name, w in zip(awimbawe_odds.FEATURES, weights, strict=True):
        print(f"  {name:>16} {w:+.4f}")


if __name__ == "__main__":
    main()
