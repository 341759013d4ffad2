"""The spieltisch games as OpenSpiel Python games, registered when this module is imported.

Names: ``spieltisch_auf_die_eier``, ``spieltisch_auf_die_nuesse``, ``spieltisch_auweier`` and
``spieltisch_awimbawe``; the parameters are ``players`` and every option of the game
(``pyspiel.load_game("spieltisch_awimbawe(tie_break=seat1)")``). Player actions are the
game's stable action ids. Chance nodes are explicit: an event small enough to list is one
node whose outcomes are numbered in the order the rules list them; a larger one (Awimbawé's
deal, Auweier's shuffles) is dealt item by item by the game's splitter
(:mod:`spieltisch.rl.chance`), each step with its exact probability. Information-state and
observation tensors are the game's encoder (``docs/rl/<game>.md``), and the strings the
seat's view as one line of JSON: a view holds what the seat knows, so they serve as both.
Returns are the game's (1 split among the winners). ``resample_from_infostate`` draws from the
game's belief sampler, so OpenSpiel's ISMCTS bot can play.

``max_game_length`` is a practical bound (the games have no hard one: a player may, say, keep
scoring nothing): :data:`DECISIONS_PER_PLAYER` decisions per player, several times the longest
of thousands of random games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from spieltisch import load
from spieltisch.core.errors import NotEnumerableError
from spieltisch.core.game import Game, Move, OptionValue, State
from spieltisch.games import REGISTRY, kit_of
from spieltisch.rl.chance import SPLITTERS, Splitter
from spieltisch.rl.encode import Encoder, encoder_for
from spieltisch.rl.text import compact as compact_text
from spieltisch.rl.text import lines as text_lines
from spieltisch.rl.text import plain as plain_data

DECISIONS_PER_PLAYER = {"auf-die-eier": 200, "auf-die-nuesse": 400, "auweier": 150}
"""The practical bound on decisions per player (Awimbawé: :data:`AWIMBAWE_DECISIONS`)."""
AWIMBAWE_DECISIONS = 500
MAX_LISTED_CHANCE = {"auf-die-eier": 2002, "auf-die-nuesse": 216, "awimbawe": 6, "auweier": 1}
"""The most outcomes one listed chance node of each game has (a throw of nine dice: 2,002;
three dice: 216; a blind pick: at most six hand cards)."""


def openspiel_name(game_id: str) -> str:
    """The game's OpenSpiel name, e.g. ``spieltisch_auf_die_eier``."""
    return "spieltisch_" + game_id.replace("-", "_")


def _max_length(game: Game) -> int:
    game_id = game.info.id
    if game_id in DECISIONS_PER_PLAYER:
        return DECISIONS_PER_PLAYER[game_id] * game.players
    return AWIMBAWE_DECISIONS


_NUMBERED: dict[int, tuple[Sequence[tuple[Move, Fraction]], list[tuple[int, float]]]] = {}
NUMBERED_CACHE = 1024
"""Listed chance events whose numbered outcomes are remembered (a throw of nine dice has
2,002: the rules hand out the same list object each time, and so does this cache)."""


def _numbered(listed: Sequence[tuple[Move, Fraction]]) -> list[tuple[int, float]]:
    """The outcomes as OpenSpiel wants them: their positions and float probabilities."""
    known = _NUMBERED.get(id(listed))
    if known is not None and known[0] is listed:
        return list(known[1])
    numbered = [(index, float(chance)) for index, (_, chance) in enumerate(listed)]
    if len(_NUMBERED) >= NUMBERED_CACHE:
        _NUMBERED.clear()
    _NUMBERED[id(listed)] = (listed, numbered)
    return list(numbered)


class SpieltischState(pyspiel.State):  # type: ignore[misc]
    """One position of a spieltisch game, as an OpenSpiel state."""

    def __init__(self, game: SpieltischGame, state: State | None = None) -> None:
        super().__init__(game)
        self._game = game
        self._state: State = game.rules.initial_state() if state is None else state
        self._drawn: list[int] = []
        self._listed: Sequence[tuple[Move, Fraction]] | None = None

    # --- who acts ----------------------------------------------------------------------------

    @property
    def rules_state(self) -> State:
        """The spieltisch state (a chance event being dealt item by item is not applied yet)."""
        return self._state

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        state = self._state
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        player = state.current_player()
        return int(player) if player is not None else int(pyspiel.PlayerId.TERMINAL)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of ``player`` (the seat to act), in increasing order."""
        del player
        id_of = self._game.rules.action_id
        return sorted(id_of(move) for move in self._state.legal_actions())

    # --- chance ------------------------------------------------------------------------------

    def _splitter(self) -> Splitter | None:
        splitter = self._game.splitter
        if splitter is not None and splitter.applies(self._state):
            return splitter
        return None

    def _listed_outcomes(self) -> Sequence[tuple[Move, Fraction]]:
        if self._listed is None:
            try:
                self._listed = self._state.chance_outcomes()
            except NotEnumerableError as error:
                raise pyspiel.SpielError(
                    f"{self._game.rules.info.name} has no way to list this chance event: {error}"
                ) from None
        return self._listed

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome of this chance node (or of this step of one) and its probability."""
        splitter = self._splitter()
        if splitter is not None:
            items = splitter.next_items(self._state, self._drawn)
            return [(item, float(chance)) for item, chance in items]
        return _numbered(self._listed_outcomes())

    # --- moving ------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        state = self._state
        if state.is_chance():
            splitter = self._splitter()
            if splitter is not None:
                self._drawn.append(int(action))
                move = splitter.outcome(state, self._drawn)
                if move is None:
                    return
            else:
                move = self._listed_outcomes()[int(action)][0]
        else:
            move = self._game.rules.action_from_id(int(action))
        self._state = state.apply(move)
        self._drawn = []
        self._listed = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            splitter = self._splitter()
            if splitter is not None:
                return splitter.item_text(int(action))
            return str(self._listed_outcomes()[int(action)][0])
        return str(self._game.rules.action_from_id(int(action)))

    def returns(self) -> list[float]:
        """Each seat's share of the win once the game is over (zeros before)."""
        if not self._state.is_terminal():
            return [0.0] * self._game.rules.players
        return list(self._state.returns())

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpieltischState:
        """A state ``player_id`` cannot tell from this one, from the game's belief sampler."""
        belief = kit_of(self._game.rules).belief
        if belief is None:
            raise pyspiel.SpielError(f"{self._game.rules.info.name} has no belief sampler")
        rng = random.Random(int(probability_sampler() * 2**53))
        return SpieltischState(self._game, belief.redeal(self._state, player_id, rng))

    def __str__(self) -> str:
        drawn = ""
        if self._drawn:
            splitter = self._game.splitter
            shown = [splitter.item_text(i) if splitter else str(i) for i in self._drawn]
            drawn = "\ndrawn so far: " + ", ".join(shown)
        return "\n".join(text_lines(plain_data(self._state.view(None)))) + drawn


class SpieltischObserver:
    """Tensors from the game's encoder, strings from the seat's view (OpenSpiel's observer)."""

    def __init__(self, game: SpieltischGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        del iig_obs_type
        self._encoder = game.encoder
        self.tensor = np.zeros(self._encoder.shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpieltischState, player: int) -> None:
        """Encode ``player``'s view of ``state``."""
        self.tensor[:] = self._encoder.encode(state.rules_state.view(player))

    def string_from(self, state: SpieltischState, player: int) -> str:
        """``player``'s view of ``state`` as one line."""
        return compact_text(state.rules_state.view(player))


@dataclass(frozen=True, slots=True)
class _Setup:
    rules: Game
    splitter: Splitter | None


@functools.cache
def _setup_of(game_id: str, params: tuple[tuple[str, OptionValue], ...]) -> _Setup:
    values = dict(params)
    players = values.pop("players", None)
    count = None if players is None else int(players)
    return _Setup(load(game_id, count, **values), SPLITTERS.get(game_id))


def _setup(game_id: str, params: dict[str, Any]) -> _Setup:
    return _setup_of(game_id, tuple(sorted(params.items())))


class SpieltischGame(pyspiel.Game):  # type: ignore[misc]
    """A spieltisch game as an OpenSpiel game (one subclass per game, see :func:`register`)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        setup = _setup(self.game_id, params or {})
        rules = setup.rules
        listed = MAX_LISTED_CHANCE.get(self.game_id, 1)
        chance = max(listed, setup.splitter.items if setup.splitter else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_distinct_actions,
            max_chance_outcomes=chance,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=_max_length(rules),
        )
        super().__init__(_GAME_TYPES[self.game_id], info, params or {})

    # The Python side is looked up from the parameters, not kept on the object: OpenSpiel
    # rebuilds unpickled games without calling __init__.

    @property
    def rules(self) -> Game:
        """The spieltisch game (players and options)."""
        return _setup(self.game_id, self.get_parameters()).rules

    @property
    def encoder(self) -> Encoder:
        """The game's observation encoder."""
        return encoder_for(self.game_id)

    @property
    def splitter(self) -> Splitter | None:
        """The game's splitter of large chance events, if it has one."""
        return SPLITTERS.get(self.game_id)

    def new_initial_state(self) -> SpieltischState:
        """The state before the first move."""
        return SpieltischState(self)

    def state_of(self, state: State) -> SpieltischState:
        """An OpenSpiel state at the spieltisch state ``state`` (no history before it)."""
        return SpieltischState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpieltischObserver:
        """The observer of information states and observations."""
        return SpieltischObserver(self, iig_obs_type, params)


_GAME_TYPES: dict[str, Any] = {}
GAME_CLASSES: dict[str, type[SpieltischGame]] = {}
"""The OpenSpiel game class of each game id."""


def _game_type(game_id: str) -> Any:
    rules_class = REGISTRY.game_class(game_id)
    info = rules_class.info
    parameters: dict[str, OptionValue] = {"players": info.default_players}
    parameters.update({spec.name: spec.default for spec in info.options})
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if info.hidden_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=openspiel_name(game_id),
        long_name=f"spieltisch {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def register(game_id: str) -> type[SpieltischGame]:
    """Register ``game_id`` with OpenSpiel (once) and return its game class."""
    known = GAME_CLASSES.get(game_id)
    if known is not None:
        return known
    game_type = _game_type(game_id)
    _GAME_TYPES[game_id] = game_type
    name = "Game_" + game_id.replace("-", "_")
    game_class = type(name, (SpieltischGame,), {"game_id": game_id, "__module__": __name__})
    globals()[name] = game_class  # pickling finds the class by its module and name
    if openspiel_name(game_id) not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)
    GAME_CLASSES[game_id] = game_class
    return game_class


for _game_id in REGISTRY.implemented():
    register(_game_id)
