"""Observations and masks stay byte-identical: a fingerprint over seeded games per game.

Every environment step of a few seeded games (random masked actions from a seeded generator)
is hashed: each agent's observation and mask as :meth:`observe` gives them (the mover's mask
and the zeros of the others), the mask :meth:`action_masks` gives, the spectator's encoding,
and the OpenSpiel tensors of the same games. The digests were recorded before the speed work
on the RL layer (preallocated encoders, cached masks, lazy observations); a change that alters
one byte of an observation or mask fails here. Only a deliberate change of an observation
layout (with its ``docs/rl`` page) may record new digests (print :func:`fingerprint` and
:func:`openspiel_fingerprint` of each case).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from spieltisch.rl import openspiel as spiel  # noqa: E402
from spieltisch.rl import pettingzoo as pz  # noqa: E402

SEEDS = (1, 2, 3)
CASES = (
    ("auf-die-eier", 2),
    ("auf-die-eier", 5),
    ("auf-die-nuesse", 2),
    ("auf-die-nuesse", 4),
    ("auweier", 2),
    ("auweier", 4),
    ("awimbawe", 2),
)
DIGESTS = {
    ("auf-die-eier", 2): "3cb101b816ab484841a77f90140db9ad00d41368123fe9591122655bec3ac8bb",
    ("auf-die-eier", 5): "b9ae4d196eb87c9059256fa709707b2398d4b6661e40afb986b3d69a8c15a6b1",
    ("auf-die-nuesse", 2): "eb5d714d6e969a996416a030c6fd02de2835358884bce1bb69bf9f2a8416dfbb",
    ("auf-die-nuesse", 4): "f9a786d7806b5bb472d831fbcb345285ab89537dee9c5e14499322795a3092f3",
    ("auweier", 2): "a57ae19f11e858a253e7b2cdcd3d70db84fa46f37467bceac2a7a4a90fd4b597",
    ("auweier", 4): "084f44e8617413ee7d4f2ca27afef23d174d2d22669990fe1e7c85147760798a",
    ("awimbawe", 2): "900b4f9c9e3ef1888efe04992648d5fe81ea1d354168ef1c4cb4f2c47b00e085",
}
"""The digest of each case, recorded before the speed work (see the module docstring)."""
OPENSPIEL_DIGESTS = {
    ("auf-die-eier", 2): "79384b3ae51bcd89003bad8771d287fefd3dc6a11adbd1b26399eef473643022",
    ("auf-die-eier", 5): "ed94e47cb30f74d1ce9a2152fa04a6a9a3545bc895b3f6ba59e42108a5293b17",
    ("auf-die-nuesse", 2): "2ca84e6cbdb04357087d4bf53b914ca3eec2e18dd265fdca5f6e7e23e4ce59aa",
    ("auf-die-nuesse", 4): "58ba29b17de706255d7babcbba2afefdfa6e638edf9633315d5b248970f0061b",
    ("auweier", 2): "10fbce9c9e29e2adc0329e118ada14ce43117e54a96dee60cb39ebc94db1f9c1",
    ("auweier", 4): "78810b0a46b69d59f12cb152c58623598f5d8296fdda698964f6551b8d8ce788",
    ("awimbawe", 2): "22e6d8b74cb974d06722720331464c2d6a29ca74fdf2f08feaf7bfa49fed1de0",
}
"""The same for the OpenSpiel tensors. The dice games' digests were recorded again when their
throws became one chance node per die (the seeded games draw other dice from then on; the
observations of a position are unchanged, as the PettingZoo digests above show)."""


def _add(digest: hashlib._Hash, array: np.ndarray, dtype: type) -> None:
    assert array.dtype == dtype
    digest.update(str(array.shape).encode())
    digest.update(array.tobytes())


def fingerprint(game_id: str, players: int) -> tuple[str, int]:
    """The sha256 of every observation and mask of the seeded games, and the steps taken."""
    digest = hashlib.sha256()
    env = pz.env(game_id, players=players)
    inner = env.unwrapped
    steps = 0
    for seed in SEEDS:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            for other in env.agents:
                seen = env.observe(other)
                _add(digest, seen["observation"], np.float32)
                _add(digest, seen["action_mask"], np.int8)
            _add(digest, inner.match.observation(None), np.float32)
            observation, reward, termination, truncation, _ = env.last()
            digest.update(f"{agent} {reward} {termination} {truncation}".encode())
            if termination or truncation:
                env.step(None)
                continue
            mask = inner.action_masks()
            _add(digest, mask, np.int8)
            assert np.array_equal(mask, observation["action_mask"])
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return digest.hexdigest(), steps


def openspiel_fingerprint(game_id: str, players: int) -> tuple[str, int]:
    """The sha256 of every seat's observation tensor and the legal ids at every decision of
    seeded OpenSpiel games, and the decisions taken."""
    digest = hashlib.sha256()
    game = pyspiel.load_game(f"{spiel.openspiel_name(game_id)}(players={players})")
    steps = 0
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            for seat in range(players):
                tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                _add(digest, tensor, np.float32)
            legal = state.legal_actions()
            digest.update(str(legal).encode())
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return digest.hexdigest(), steps


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_openspiel_tensors_are_unchanged(game_id: str, players: int) -> None:
    digest, steps = openspiel_fingerprint(game_id, players)
    assert steps > 0
    assert digest == OPENSPIEL_DIGESTS[game_id, players]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_and_masks_are_unchanged(game_id: str, players: int) -> None:
    digest, steps = fingerprint(game_id, players)
    assert steps > 0
    assert digest == DIGESTS[game_id, players]


def test_an_observation_is_the_callers_own() -> None:
    env = pz.env("awimbawe")
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)
    first["observation"][:] = 0.5
    first["action_mask"][:] = 0
    again = env.observe(agent)
    assert not np.all(again["observation"] == 0.5)
    assert again["action_mask"].any()
    mask = env.unwrapped.action_masks()
    mask[:] = 0
    assert env.unwrapped.action_masks().any()
