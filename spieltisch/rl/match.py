"""One episode of a game for the RL adapters: a table, its observations, masks and rewards.

:class:`Match` is what the PettingZoo, Gymnasium and OpenSpiel adapters share. It drives a
:class:`~spieltisch.session.Table`: player actions arrive as stable action ids, chance is
drawn from the table's own generator (seeded at every :meth:`Match.reset`) until a player
must decide or the game is over, and observations are encoded from the views the table
gives each seat, never from the true state. The true state is read only for the rewards at
the end (its returns or scores).

Rewards come at the end only. ``reward="returns"`` (the default) pays each seat its share of
the win (1 split among the winners, else 0); ``reward="score_diff"`` pays each seat its
final score minus the best other seat's, divided by the game's score range.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from spieltisch import load
from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import Game, Move, OptionValue, PlayerId, State
from spieltisch.core.kit import GameKit
from spieltisch.games import kit_of
from spieltisch.rl.encode import Array, Encoder, encoder_for
from spieltisch.rl.text import lines as text_lines
from spieltisch.rl.text import plain as plain_data
from spieltisch.session import Table

Mask = npt.NDArray[np.int8]

MASK_CACHE = 4096
"""Legal-action sequences whose masks a match remembers."""
FANCY_INDEX = 96
"""Legal actions from which a mask is set by one fancy-indexed write, not item by item."""
DECISIONS_PER_PLAYER = {"auf-die-eier": 200, "auf-die-nuesse": 400, "auweier": 150, "awimbawe": 250}
"""A practical bound on one seat's decisions in a game (the games have no hard one: a player
may, say, keep scoring nothing), several times the most of thousands of random games. OpenSpiel's
``max_game_length`` is this times the players; Gymnasium's ``max_episode_steps`` is this (the
learner's decisions), after which an episode is truncated."""
MAX_RENDER_MOVES = 20
"""Legal moves listed by :meth:`Match.render` (more are counted, not listed)."""


class Reward(enum.Enum):
    """What a seat is paid at the end of a game."""

    RETURNS = "returns"
    WIN_LOSS = "win_loss"
    SCORE_DIFF = "score_diff"


def game_of(game_id: str, players: int | None, options: dict[str, OptionValue]) -> Game:
    """The game ``game_id`` with ``players`` and ``options`` (typed errors for bad ones)."""
    return load(game_id, players, **options)


class Outcome(Protocol):
    """What the rewards are read from at the end: a Python state, or a native one."""

    def returns(self) -> Sequence[float]: ...

    def scores(self) -> Sequence[int]: ...


def final_rewards(state: State, reward: Reward) -> tuple[float, ...]:
    """Each seat's reward at the end of a game (``state`` is terminal), as ``reward`` says."""
    return outcome_rewards(state, reward, state.game.score_bounds)


def outcome_rewards(
    outcome: Outcome, reward: Reward, score_bounds: tuple[int, int]
) -> tuple[float, ...]:
    """:func:`final_rewards` of any terminal state with returns and scores (a native state's
    too), the game's ``score_bounds`` given."""
    if reward is Reward.RETURNS:
        return tuple(outcome.returns())
    if reward is Reward.WIN_LOSS:
        return tuple(2.0 * share - 1.0 for share in outcome.returns())
    scores = outcome.scores()
    players = len(scores)
    low, high = score_bounds
    span = max(1, high - low)
    return tuple(
        (scores[p] - max(scores[q] for q in range(players) if q != p)) / span
        for p in range(players)
    )


class ActionIds:
    """The action ids of a game's moves, found fast: by the object's identity first (the
    rules hand out the action table's own objects in most games, and an ``id()`` is hashed far
    faster than a move; the table keeps every listed object alive, so no other object has its
    id), then by value. The ids of a legal-action sequence the rules hand out again and again
    (the same object each time, as a game's legal-action cache does) are remembered by the
    sequence's identity, the sequence kept so that its id cannot be reused meanwhile."""

    def __init__(self, game: Game) -> None:
        self.table = game.action_table()
        self.actions: Sequence[Move] = self.table.actions
        self._by_object = {id(action): i for i, action in enumerate(self.actions)}
        self._by_value = {action: i for i, action in enumerate(self.actions)}
        self._types = [type(action) for action in self.actions]
        self._known: dict[int, tuple[Sequence[Move], list[int]]] = {}

    def ids_of(self, moves: Sequence[Move]) -> list[int]:
        """The action ids of ``moves`` (the typed error for a move without an id)."""
        by_object = self._by_object
        by_value = self._by_value
        ids = []
        for move in moves:
            found = by_object.get(id(move))
            if found is None:
                found = by_value.get(move)
                if found is None or type(move) is not self._types[found]:
                    found = self.table.id_of(move)  # the typed error of a move without an id
            ids.append(found)
        return ids

    def legal_ids(self, legal: Sequence[Move]) -> list[int]:
        """:meth:`ids_of` a legal-action sequence, remembered by its identity (the caller must
        not change the list it gets)."""
        known = self._known.get(id(legal))
        if known is not None and known[0] is legal:
            return known[1]
        ids = self.ids_of(legal)
        if len(self._known) >= MASK_CACHE:
            self._known.clear()
        self._known[id(legal)] = (legal, ids)
        return ids


class Match:
    """One game being played by action ids (see the module docstring)."""

    def __init__(self, game: Game, reward: Reward | str = Reward.RETURNS) -> None:
        self.game = game
        self.kit: GameKit[Any] = kit_of(game)
        self.encoder: Encoder = encoder_for(game.info.id)
        self.reward = Reward(reward)
        self.num_actions = game.num_distinct_actions
        self._table = Table(game, seed=0)
        self.action_ids = ActionIds(game)
        self._ids = self.action_ids.table
        self._seen = 0
        self._masks: dict[int, tuple[Sequence[Move], Mask]] = {}
        """Masks of legal-action sequences the rules hand out again and again (the same
        object each time, as a game's legal-action cache does), by the object's id; the
        sequence itself is kept, so its id cannot be reused while it is cached."""

    @property
    def table(self) -> Table:
        """The table of the current episode."""
        return self._table

    # --- an episode --------------------------------------------------------------------------

    def reset(self, seed: int) -> None:
        """Start a new game whose chance comes from ``seed``."""
        self._table = Table(self.game, seed=seed)
        self._seen = 0
        self._settle()

    def _settle(self) -> None:
        table = self._table
        while not table.over and table.to_act() is None:
            table.advance_chance()

    def to_act(self) -> PlayerId | None:
        """The seat to decide, or ``None`` once the game is over."""
        return self._table.to_act()

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self._table.over

    def legal_ids(self) -> list[int]:
        """The action ids of the legal actions of the seat to move (empty at the end)."""
        return self._ids_of(self._table.legal())

    def _ids_of(self, moves: Sequence[Move]) -> list[int]:
        return self.action_ids.ids_of(moves)

    def mask(self) -> Mask:
        """An int8 mask over every action id: 1 for the legal ones of the seat to move (a
        new array each time)."""
        legal = self._table.legal()
        key = id(legal)
        known = self._masks.get(key)
        if known is not None and known[0] is legal:  # the rules' own cached tuple again
            return known[1].copy()
        mask = np.zeros(self.num_actions, dtype=np.int8)
        ids = self._ids_of(legal)
        if len(ids) > FANCY_INDEX:
            mask[ids] = 1
        else:  # a few items are set faster one by one through a memoryview (int8 items)
            items = mask.data
            for action_id in ids:
                items[action_id] = 1
        if len(self._masks) >= MASK_CACHE:
            self._masks.clear()
        self._masks[key] = (legal, mask)
        return mask.copy()

    def is_legal(self, action_id: object) -> bool:
        """Whether ``action_id`` names a legal action of the seat to move now."""
        legal = self._table.legal()
        if not legal:
            return False
        try:
            move = self._ids.action(action_id)
        except InvalidActionError:
            return False
        return move in legal

    def play_id(self, action_id: object) -> Move:
        """Play the action with ``action_id`` for the seat to move, then let chance act until
        a player must decide; the typed errors of the table for an illegal or unknown id."""
        actions = self._ids.actions
        if type(action_id) is int and 0 <= action_id < len(actions):  # the common case, quickly
            move: Move = actions[action_id]
        else:
            move = self._ids.action(action_id)
        self._table.play(move)
        self._settle()
        return move

    def observation(self, player: PlayerId | None) -> Array:
        """What ``player`` sees now, encoded."""
        return self.encoder.encode(self._table.view(player))

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward: zeros until the game is over, then as :attr:`reward` says."""
        table = self._table
        players = self.game.players
        if not table.over:
            return (0.0,) * players
        return final_rewards(table.state_at(), self.reward)

    def scores(self) -> tuple[int, ...]:
        """Each seat's score so far."""
        return self._table.state_at().scores()

    # --- rendering ---------------------------------------------------------------------------

    def render(self, names: Sequence[str] = ()) -> str:
        """The moves since the last render in the game's words, then the table as a spectator
        sees it, as plain text (no markup)."""
        table = self._table
        seats = tuple(names) or table.seats
        words = self.kit.words
        lines = [f"{self.game.info.name}, move {table.version}"]
        for event in table.iter_events(None, self._seen):
            before = table.view(None, event.version - 1)
            actor = "chance" if event.actor is None else seats[event.actor]
            lines.append("  " + words.event(before, event.move, seats, actor))
        self._seen = table.version
        lines.extend(text_lines(plain_data(table.view(None))))
        player = table.to_act()
        if player is not None:
            view = table.view(player)
            legal = table.legal()
            lines.append(f"{seats[player]} to move:")
            for move in legal[:MAX_RENDER_MOVES]:
                lines.append(f"  [{self._ids.id_of(move)}] {words.move_label(view, move)}")
            if len(legal) > MAX_RENDER_MOVES:
                lines.append(f"  ... {len(legal) - MAX_RENDER_MOVES} more")
        elif table.over:
            lines.append(f"over: scores {list(self.scores())}")
        return "\n".join(lines)
