"""A trained policy as a spieltisch agent: a small network read from a plain ``.npz`` file.

A policy file holds the layers of a multilayer perceptron (``w0``, ``b0``, ``w1``, ``b1``,
...; hidden layers use ``tanh``, as stable-baselines3's default policy does), the game id and
the observation size. :class:`PolicyAgent` encodes its seat's view with the game's encoder,
computes the logits with numpy only (no learning framework is needed to play), masks the
illegal action ids and plays the most likely legal action. :func:`save_policy` writes such a
file from the weight matrices.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move
from spieltisch.rl.encode import encoder_for

Matrix = npt.NDArray[np.float32]
MAX_LAYERS = 16


def save_policy(
    path: Path, game_id: str, layers: Sequence[tuple[Matrix, Matrix]], note: str = ""
) -> None:
    """Write a policy: ``layers`` are ``(weights, bias)`` pairs, weights shaped (out, in)."""
    arrays: dict[str, Any] = {"game_id": np.array(game_id), "note": np.array(note)}
    for index, (weights, bias) in enumerate(layers):
        arrays[f"w{index}"] = np.asarray(weights, dtype=np.float32)
        arrays[f"b{index}"] = np.asarray(bias, dtype=np.float32)
    with path.open("wb") as handle:
        np.savez(handle, **arrays)


class Policy:
    """The network of a policy file."""

    def __init__(self, path: Path) -> None:
        with np.load(path, allow_pickle=False) as data:
            self.game_id = str(data["game_id"])
            self.note = str(data["note"]) if "note" in data else ""
            self.layers: list[tuple[Matrix, Matrix]] = []
            while f"w{len(self.layers)}" in data and len(self.layers) < MAX_LAYERS:
                index = len(self.layers)
                self.layers.append((data[f"w{index}"], data[f"b{index}"]))
        if not self.layers:
            raise OptionError(f"{path} holds no policy layers")

    def logits(self, observation: Matrix) -> Matrix:
        """The action logits of one observation."""
        hidden = observation
        last = len(self.layers) - 1
        for index, (weights, bias) in enumerate(self.layers):
            hidden = weights @ hidden + bias
            if index < last:
                hidden = np.tanh(hidden)
        return hidden


class PolicyAgent(Agent[Any]):
    """Plays the most likely legal action of a trained policy (see the module docstring)."""

    name = "policy"

    def __init__(self, game: Game, seed: int = 0, policy: Policy | Path | None = None) -> None:
        super().__init__(game, seed)
        self.policy: Policy | None = None
        self.encoder = encoder_for(game.info.id)
        self._ids = game.action_table()
        if policy is not None:
            self._load(policy if isinstance(policy, Policy) else Policy(policy))

    def _load(self, policy: Policy) -> None:
        if policy.game_id != self.game.info.id:
            raise OptionError(f"the policy is for {policy.game_id}, not {self.game.info.id}")
        self.policy = policy

    def configure(self, setting: str) -> None:
        """``policy:FILE`` seats the policy saved in FILE (an ``.npz`` from examples/train.py)."""
        path = Path(setting)
        if len(setting) > 4096 or not path.is_file():
            raise OptionError(f"no policy file {setting[:200]!r}")
        try:
            self._load(Policy(path))
        except (OSError, ValueError, KeyError) as error:
            raise OptionError(f"{setting[:200]!r} is not a policy file: {error}") from None

    def _id_logits(self, observation: Matrix, legal_ids: Sequence[int]) -> Matrix:
        if self.policy is None:
            raise OptionError("a policy agent needs its file: policy:FILE")
        return self.policy.logits(observation)[list(legal_ids)]

    def _legal_logits(self, view: object, legal: Sequence[Move]) -> Matrix:
        ids = [self._ids.id_of(move) for move in legal]
        return self._id_logits(self.encoder.encode(view), ids)

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        """The legal action with the highest logit."""
        return legal[int(np.argmax(self._legal_logits(view, legal)))]

    def act_encoded(self, observation: Matrix, legal_ids: Sequence[int]) -> int:
        """:meth:`act` from the seat's view already encoded (``observation``, as the game's
        encoder or a native state's ``observation(seat)`` gives it) among the legal action
        ids: the id with the highest logit (the first of equal ones in ``legal_ids``'s
        order)."""
        return int(legal_ids[int(np.argmax(self._id_logits(observation, legal_ids)))])

    def probabilities(self, view: object, legal: Sequence[Move]) -> list[float]:
        """The policy's probabilities of ``legal`` (in their order): the softmax of their
        logits, the illegal ids masked out (the agent plays the most likely one)."""
        logits = self._legal_logits(view, legal).astype(np.float64)
        weights = np.exp(logits - logits.max())
        return [float(w) for w in weights / weights.sum()]
