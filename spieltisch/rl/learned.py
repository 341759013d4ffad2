"""The level ``learned``: the trained policy shipped with spieltisch for a game, by name.

``examples/train.py`` trained the masked-PPO policy for Auf die Eier and
``examples/self_play.py`` the one for Awimbawé, in a league with its heuristic (``docs/rl``:
88.8% and 80.4% against random, 57.3% and 59.1% against the heuristics); they ship in
``spieltisch/rl/policies``. :class:`LearnedAgent` is a
:class:`~spieltisch.rl.policy.PolicyAgent` that loads its game's file itself, so every surface
seats it by the name ``learned``, like ``heuristic``: ``spieltisch play``, ``arena``, the lab's
experiment files and the web's bot picker (it needs numpy alone, no learning framework, so a
server without the ``rl`` extra seats it too).

A policy is offered only at the table it learned at (:data:`SHIPPED`: the player count, every
option at its default): elsewhere its inputs mean things it never saw. The catalogue
(:mod:`spieltisch.agents`) reads :func:`offers` and :func:`above` through the
``spieltisch.levels`` entry point, so the agents layer imports no surface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game
from spieltisch.rl.policy import Policy, PolicyAgent

LEARNED = "learned"
"""The level's name."""


@dataclass(frozen=True)
class Shipped:
    """A shipped policy: its file in ``spieltisch/rl/policies``, the player count it learned
    at, and the level it plays above (measured: it beats that level, not the next one up)."""

    file: str
    players: int
    above: str


SHIPPED = {
    "auf-die-eier": Shipped("auf-die-eier.npz", 2, above="heuristic"),
    "awimbawe": Shipped("awimbawe.npz", 2, above="heuristic"),
}
"""The games with a shipped policy. Auf die Eier's beats the heuristic 57.3% [55.1, 59.4],
Awimbawé's 59.1% [56.0, 62.1] (``docs/rl``)."""


def policy_path(game_id: str) -> Path | None:
    """The shipped policy file of ``game_id``, if there is one."""
    shipped = SHIPPED.get(game_id)
    if shipped is None:
        return None
    path = Path(str(resources.files("spieltisch.rl") / "policies" / shipped.file))
    return path if path.is_file() else None


def learned_at(game: Game) -> bool:
    """Whether ``game`` is the table a shipped policy learned at: its game, its player count,
    every option at its default (whether the file is there aside)."""
    shipped = SHIPPED.get(game.info.id)
    if shipped is None or game.players != shipped.players:
        return False
    return all(value == game.info.option(name).default for name, value in game.options.items())


def offers(game: Game) -> bool:
    """Whether ``learned`` is a level of ``game``: a policy is shipped for it, its file is
    there, and the table is the one it learned at (:func:`learned_at`)."""
    return learned_at(game) and policy_path(game.info.id) is not None


def above(game: Game) -> str | None:
    """The level ``learned`` ranks just above in ``game``'s list, strongest first."""
    shipped = SHIPPED.get(game.info.id)
    return None if shipped is None else shipped.above


class LearnedAgent(PolicyAgent):
    """The shipped policy of its game (see the module docstring); refused where it is not
    offered."""

    name = LEARNED

    def __init__(self, game: Game, seed: int = 0) -> None:
        path = policy_path(game.info.id) if learned_at(game) else None
        if path is None:
            where = ", ".join(f"{g} ({s.players} players)" for g, s in sorted(SHIPPED.items()))
            raise OptionError(
                f"no learned policy for {game.info.id} with {game.players} players and these "
                f"options: one is shipped for {where}, at the default options"
            )
        super().__init__(game, seed, Policy(path))

    def configure(self, setting: str) -> None:
        """``learned`` takes no setting (``policy:FILE`` seats another file)."""
        raise OptionError(f"the level {LEARNED!r} takes no setting, not {setting[:100]!r}")


@dataclass(frozen=True)
class Level:
    """A level the catalogue offers where a game allows it (the ``spieltisch.levels`` entry
    point's object): whether ``game`` has it, the level it ranks just above, its agent."""

    offers: Callable[[Game], bool]
    above: Callable[[Game], str | None]
    factory: Callable[[Game, int], Agent[object]]


LEVEL = Level(offers, above, LearnedAgent)
"""``learned`` as the catalogue reads it."""
