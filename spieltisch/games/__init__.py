"""The games. Registering a game is one line here; a game adds its folder and that line."""

from typing import Any

from spieltisch.core.game import Game
from spieltisch.core.kit import GameKit
from spieltisch.core.registry import Registry

REGISTRY = Registry()
REGISTRY.add("auf-die-eier", "Auf die Eier", "spieltisch.games.auf_die_eier")
REGISTRY.add("auf-die-nuesse", "Auf die Nüsse!", "spieltisch.games.auf_die_nuesse")
REGISTRY.add("auweier", "Auweier", "spieltisch.games.auweier")
REGISTRY.add("awimbawe", "Awimbawé", "spieltisch.games.awimbawe")


def kit_of(game: Game) -> GameKit[Any]:
    """The kit of the game ``game`` is an instance of."""
    return REGISTRY.kit(game.info.id)
