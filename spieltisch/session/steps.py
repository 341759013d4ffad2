"""Public steps: a table's moves counted as every viewer may count them.

Some moves are *private*: a seat's decision that every other viewer (each other seat and a
spectator) sees only as hidden, such as a step of arranging one's own Auweier deck. How many
such steps a seat takes, and whether chance shuffled what it left, must not show in anything
the others are told, counts and version numbers included. So a *private run* (a seat's
private decision and every move after it that stays hidden from all but that seat, chance
steps included) counts as one public step, whatever it holds; every other move is a public
step of its own. Surfaces that number moves for several viewers (the web's versions and logs)
number public steps, and tell the others of a run only once it is over.

The count asks nothing of a game but :meth:`~spieltisch.core.game.State.seen_move`: a game
whose decisions are never hidden has no runs, and its public steps are its moves. Pure.
"""

from __future__ import annotations

from spieltisch.core.game import Hidden, Move, PlayerId, State
from spieltisch.session.table import Table


def _hidden_from_all_but(state: State, move: Move, owner: PlayerId) -> bool:
    """Whether every viewer but ``owner`` (the other seats and a spectator) sees ``move``
    only as hidden."""
    others: list[PlayerId | None] = [p for p in range(state.num_players) if p != owner]
    return all(isinstance(state.seen_move(move, v), Hidden) for v in [*others, None])


def private_owner(state: State, move: Move) -> PlayerId | None:
    """The seat whose private decision ``move`` is (made by it, hidden from all others), or
    ``None``."""
    player = state.current_player()
    if player is None or not _hidden_from_all_but(state, move, player):
        return None
    return player


class Steps:
    """The public steps of one table, brought up to date with :meth:`update` as it moves."""

    def __init__(self) -> None:
        self.ends: list[int] = []
        self.owner: PlayerId | None = None
        self.seen = 0
        self._reset()

    def _reset(self) -> None:
        self.ends = [0]
        """The table's version at the end of each public step (``ends[0]``: the start)."""
        self.owner = None
        """The seat whose private run is still open (not yet a public step), if any."""
        self.seen = 0
        """Versions of the table looked at so far."""

    @property
    def public(self) -> int:
        """Public steps completed."""
        return len(self.ends) - 1

    def version_at(self, public: int) -> int:
        """The table's version at the end of public step ``public`` (clamped to the steps)."""
        return self.ends[max(0, min(public, self.public))]

    def moves_of(self, public: int) -> range:
        """The table versions made by public step ``public`` (1-based)."""
        return range(self.ends[public - 1] + 1, self.ends[public] + 1)

    def update(self, table: Table) -> None:
        """Count the moves made since the last update."""
        if table.version < self.seen:  # taken back or rebuilt: count again from the start
            self._reset()
        for version, before, move, after in table.walk(self.seen):
            self._count(version, before, move, after)
        self.seen = table.version

    def _count(self, version: int, before: State, move: Move, after: State) -> None:
        owner = self.owner
        if owner is not None:
            acting = before.current_player()
            if acting in (None, owner) and _hidden_from_all_but(before, move, owner):
                self._close_if_over(version, after)
                return
            self.ends.append(version - 1)  # the run ended with the move before this one
            self.owner = None
        owner = private_owner(before, move)
        if owner is None:
            self.ends.append(version)
            return
        self.owner = owner
        self._close_if_over(version, after)

    def _close_if_over(self, version: int, after: State) -> None:
        """End the open run at ``version`` if nothing after it can go on with it: the game
        ended or another seat is to move."""
        acting = after.current_player()
        if after.is_terminal() or (acting is not None and acting != self.owner):
            self.ends.append(version)
            self.owner = None
