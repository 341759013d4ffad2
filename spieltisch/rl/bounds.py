"""Practical bounds on the length of a game, shared by the RL adapters (no framework needed).

The games have no hard bound (a player may, say, keep scoring nothing), so these are measured
bounds: several times the longest of thousands of random games. OpenSpiel's
``max_game_length`` and the Gymnasium environments' ``max_episode_steps`` come from here.
"""

from __future__ import annotations

DECISIONS_PER_PLAYER = {"auf-die-eier": 200, "auf-die-nuesse": 400, "auweier": 150}
"""The practical bound on decisions per player (Awimbawé: :data:`AWIMBAWE_DECISIONS`).
Measured with ``SpieltischGym`` (random learner, random opponents, 2000 episodes per player
count, seeds 0-1999): a seat's longest episode was 30 decisions in Auf die Eier, 157 in Auf die
Nüsse (two players) and 56 in Auweier."""
AWIMBAWE_DECISIONS = 500
"""The practical bound on the decisions of a whole Awimbawé game (both seats together); the
longest learner's episode measured as above was 66 decisions."""


def max_episode_steps(game_id: str) -> int:
    """The most steps (the learner's own decisions) a Gymnasium episode of ``game_id`` takes
    before Gymnasium's ``TimeLimit`` truncates it: the per-player bound, which holds for any
    player count (Awimbawé: the whole game's bound, which bounds each seat's share)."""
    return DECISIONS_PER_PLAYER.get(game_id, AWIMBAWE_DECISIONS)
