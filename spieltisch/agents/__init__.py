"""Agents by name: the game-independent ones here, each game's own from its kit.

``make_agent("random", game, seed)`` builds an agent; :func:`agent_names` lists what a game
offers, strongest first. A game adds agents, and tells search about itself, through its
:class:`~spieltisch.core.kit.GameKit`: ``agents`` (its own agents by name),
``strength_order(players)`` (how they rank for that many players, where measurements say
otherwise than :data:`STRENGTH_ORDER`) and ``search`` (book, book reason, evaluation, playout
policy, exploration, tree depth, score margin). ``ismcts`` is offered for every game whose kit
has a belief sampler; a few levels come only with the native core
(:func:`~spieltisch.native.agents.native_levels`: Auf die Eier's ``racer``).

**One catalogue for every surface.** Besides a game's levels, :func:`make_agent` builds the
agents installed packages declare under the ``spieltisch.agents`` entry-point group
(:data:`ENTRY_POINTS`): spieltisch's own RL surface declares ``policy`` (``policy:FILE``, a
trained policy) and ``openspiel-ismcts`` / ``openspiel-mcts`` (OpenSpiel's bots,
``openspiel-ismcts:2s`` for a time budget, ``:200`` for simulations). An entry point is
loaded only when its name is asked for, so the rules core imports no RL library; when its
extra is not installed, the error says which to install. An installed package may also add a
*level* under :data:`LEVEL_POINTS`, offered only where it says a game has it (spieltisch's
``learned``: a trained policy, at the table it learned at): :func:`agent_names` lists it, just
above the level it beats. So ``play``, ``arena``, the
Gymnasium opponents and the PettingZoo helpers (and the web, which lists its bot levels from
:func:`agent_names`) all read agents from the same strings. A surface may still add one by
hand with :func:`register_agent`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, Protocol, cast

from spieltisch.agents.base import Agent, RandomAgent
from spieltisch.agents.ismcts import IsmctsAgent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game
from spieltisch.core.kit import AgentFactory, Book, Evaluator, PlayoutPolicy
from spieltisch.games import kit_of
from spieltisch.native.agents import native_levels

GENERIC_AGENTS: dict[str, AgentFactory] = {"ismcts": IsmctsAgent, "random": RandomAgent}
REGISTERED: dict[str, AgentFactory] = {}
"""Agents a surface adds for every game (a trained policy from the RL surface), by name."""
STRENGTH_ORDER = ("racer", "expert", "ismcts", "heuristic", "random")
"""How agents rank when listed, strongest first, unless the game's kit says otherwise; names
not listed come after."""


ENTRY_POINTS = "spieltisch.agents"
"""The entry-point group of agents that installed packages add to the catalogue."""
EXTRA_OF_MODULE = {
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl,openspiel",
    "open_spiel": "rl,openspiel",
}
"""Which extra of spieltisch brings a module an entry-point agent needs (for the error)."""


@functools.cache
def _declared() -> dict[str, metadata.EntryPoint]:
    """The agents installed packages declare, by name (read once: it scans every package)."""
    return {e.name: e for e in metadata.entry_points(group=ENTRY_POINTS)}


_LOADED: dict[str, AgentFactory] = {}


def _entry_point(name: str) -> AgentFactory | None:
    """The factory an installed package declares for ``name`` (loaded once); ``None`` if no
    package declares one."""
    known = _LOADED.get(name)
    if known is not None:
        return known
    declared = _declared().get(name)
    if declared is None:
        return None
    try:
        factory = declared.load()
    except ModuleNotFoundError as missing:
        top = (missing.name or "").split(".")[0]
        extra = EXTRA_OF_MODULE.get(top, "rl")
        raise OptionError(
            f"the agent {name!r} needs {top or 'a module that is missing'}: "
            f'pip install "spieltisch[{extra}]"'
        ) from None
    _LOADED[name] = cast(AgentFactory, factory)
    return _LOADED[name]


LEVEL_POINTS = "spieltisch.levels"
"""The entry-point group of levels installed packages offer where a game allows them."""


class DeclaredLevel(Protocol):
    """What a :data:`LEVEL_POINTS` entry point names: whether a game has the level, the level
    it ranks just above in that game (``None``: weakest), and its agent factory."""

    @property
    def offers(self) -> Callable[[Game], bool]: ...

    @property
    def above(self) -> Callable[[Game], str | None]: ...

    @property
    def factory(self) -> AgentFactory: ...


@functools.cache
def _declared_levels() -> dict[str, DeclaredLevel]:
    """The levels installed packages declare, by name, loaded once; one whose package cannot be
    imported here (a missing dependency) is not offered."""
    levels = {}
    for point in metadata.entry_points(group=LEVEL_POINTS):
        try:
            levels[point.name] = cast(DeclaredLevel, point.load())
        except ImportError:
            continue
    return levels


@functools.lru_cache(maxsize=256)
def _offered_levels(game: Game) -> tuple[tuple[str, DeclaredLevel], ...]:
    """The declared levels ``game`` has (asked once per game and options)."""
    return tuple((n, level) for n, level in _declared_levels().items() if level.offers(game))


def entry_point_agents() -> tuple[str, ...]:
    """The names of the agents installed packages declare (``policy``, ...), sorted."""
    return tuple(sorted(_declared()))


def register_agent(name: str, factory: AgentFactory) -> None:
    """Let ``make_agent`` build the agent ``name`` for every game (a surface's own, such as
    ``policy:FILE``); it is no level of a game, so :func:`agent_names` does not list it."""
    REGISTERED[name] = factory


def _factories(game: Game) -> dict[str, AgentFactory]:
    """The game's levels: the generic agents and its own (not the ones a surface added)."""
    kit = kit_of(game)
    factories = {**GENERIC_AGENTS, **kit.agents, **native_levels(game.info.id)}
    if kit.belief is None:
        del factories["ismcts"]
    for name, level in _offered_levels(game):
        factories.setdefault(name, level.factory)
    return factories


def _factory(game: Game, name: str) -> AgentFactory | None:
    """The factory of agent ``name`` in ``game``: the game's levels before a surface's (one
    small table, not the three merged per call the lab used to pay for every seat)."""
    return _factories(game).get(name) or REGISTERED.get(name) or _entry_point(name)


def _strength_order(game: Game) -> Sequence[str]:
    """How ``game``'s agents rank for its number of players."""
    order = kit_of(game).strength_order(game.players)
    return STRENGTH_ORDER if order is None else order


def agent_names(game: Game) -> tuple[str, ...]:
    """Every agent name usable in ``game``, strongest first (a declared level just above the
    level it says it beats)."""
    offered = dict(_offered_levels(game))
    names = [name for name in _factories(game) if name not in offered]
    rank = {name: index for index, name in enumerate(_strength_order(game))}
    ranked = sorted(names, key=lambda n: rank.get(n, len(rank)))
    for name, level in offered.items():
        beaten = level.above(game)
        ranked.insert(ranked.index(beaten) if beaten in ranked else len(ranked), name)
    return tuple(ranked)


def make_agent(spec: str, game: Game, seed: int = 0) -> Agent[Any]:
    """The agent ``spec`` (a name, or ``name:setting`` such as ``ismcts:2s``) for ``game``.

    Raises :class:`OptionError` for an unknown name or a bad setting.
    """
    name, _, setting = spec.partition(":")
    factory = _factory(game, name)
    if factory is None:
        known = ", ".join(agent_names(game))
        more = ", ".join(f"{n}:..." for n in entry_point_agents())
        also = f"; with a setting: {more}" if more else ""
        raise OptionError(f"unknown agent {name!r} for {game.info.id} (agents: {known}{also})")
    agent = factory(game, seed)
    if setting:
        agent.configure(setting)
    return agent


def strongest_agent(game: Game) -> str:
    """The name of the strongest agent ``game`` offers (what a newcomer plays against)."""
    return agent_names(game)[0]


def adviser(game: Game) -> str:
    """The level whose ratings hints and analyses read: the game's declared adviser where it
    offers it, else its strongest agent."""
    declared = kit_of(game).adviser
    return declared if declared in agent_names(game) else strongest_agent(game)


def game_book(game: Game) -> Book | None:
    """The game's book of set moves, if it has one."""
    return kit_of(game).search.book


def game_evaluator(game: Game) -> Evaluator | None:
    """Where the game lets a search's playout stop, and what it is worth there, if it says."""
    return kit_of(game).search.evaluate


def game_playout_policy(game: Game) -> PlayoutPolicy | None:
    """The game's quick playout policy, if it has one."""
    return kit_of(game).search.playout


def game_tree_depth(game: Game) -> int | None:
    """How deep the game lets a search tree grow, if it caps it."""
    return kit_of(game).search.tree_depth


__all__ = [
    "Agent",
    "IsmctsAgent",
    "RandomAgent",
    "adviser",
    "agent_names",
    "entry_point_agents",
    "game_book",
    "game_evaluator",
    "game_playout_policy",
    "game_tree_depth",
    "make_agent",
    "register_agent",
    "strongest_agent",
]
