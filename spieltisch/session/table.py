"""One table being played: the game, its seats, its own seeded chance, its moves and events.

A :class:`Table` is what every surface drives: the terminal, the lab's games, the golden
playthroughs, the benchmarks and the conformance checks (and the web server and the RL
environments after them). It applies each move once, after the rules have validated it;
counts the moves applied so far as its *version*, so that a stale move (one chosen at an
older version) is refused with :class:`StaleVersionError`; draws chance from its own
generator, seeded when the table is made, unless an outcome is dictated; tells each viewer
what happened as that viewer may see it (:meth:`Table.events`); and writes its record, from
which :meth:`Table.from_record` rebuilds the table exactly, its chance generator included, so
that a restarted server or a resumed run continues as if nothing had happened.

*Keyed chance* (``keyed_chance=True``, for the lab's experiments) draws each chance event from
a generator of its own, seeded by the table's seed and the event's place in the game as the
table sees it: how many player decisions came before it, and its index among the chance steps
since the last decision. Two variants of a game (other options, other rule tables) then meet
the same rolls and deals wherever their games have reached the same place, even when one of
them has consumed chance differently before (a running stream would shift every later draw).
The key asks nothing of the game: the two counts are what every table can see.

A seat may *concede* (:meth:`Table.concede`): the table notes it in the record, and once every
seat but one has conceded the game is over and that seat alone wins (in a two-player game, the
other player). Until then the game goes on, and whoever drives the table plays a conceded seat
(an online table seats a bot there); a seat that conceded cannot win.

Pure: the table holds names, not agents, and does no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from spieltisch.core.agent import Agent
from spieltisch.core.errors import IllegalActionError, RecordError, SpieltischError
from spieltisch.core.game import Game, Hidden, Move, PlayerId, State
from spieltisch.core.record import Record
from spieltisch.core.seeds import derive_seed

MAX_MOVE_TEXT = 10_000
"""The longest move text a table reads; longer input is refused unread."""


class StaleVersionError(SpieltischError, ValueError):
    """A move was chosen at another version of the table than the current one."""

    def __init__(self, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(
            f"the move was chosen at version {expected}, but the table is at version {current}"
        )


@dataclass(frozen=True, slots=True)
class Event:
    """One move as one viewer may see it."""

    version: int
    """The table's version once this move was applied (the first move makes version 1)."""
    actor: PlayerId | None
    """Who moved: a seat, or ``None`` for chance."""
    move: Move | Hidden
    """The move itself, or what the viewer may know of it."""


class Table:
    """One game being played (see the module docstring).

    ``seats`` are the players' display names (``Player 1`` ... when not given); ``seed`` seeds
    the table's chance generator (a table without a seed can only apply dictated outcomes);
    ``keyed_chance`` draws each chance event from its own generator keyed by its place (see the
    module docstring). ``history``: keep only the last ``history`` states before the current
    one, and every ``history``-th as a checkpoint; an older state is rebuilt from its
    checkpoint by replaying the moves after it (a long-lived table's memory stays small).
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[str] = (),
        seed: int | None = None,
        *,
        keyed_chance: bool = False,
        history: int | None = None,
    ) -> None:
        if seats and len(seats) != game.players:
            raise IllegalActionError(
                "seats", f"{game.info.name} with {game.players} players needs {game.players} seats"
            )
        self.game = game
        self.seats: tuple[str, ...] = tuple(seats) or tuple(
            f"Player {p + 1}" for p in range(game.players)
        )
        self.seed = seed
        self.keyed_chance = keyed_chance
        self.history = history
        self._chance = None if seed is None or keyed_chance else random.Random(seed)
        self.state: State = game.initial_state()
        self._decisions = 0
        self._chance_run = 0
        self.moves: list[Move] = []
        self._before: list[State | None] = []
        self._dictated: list[int] = []
        self.conceded: list[tuple[PlayerId, int]] = []
        """Each concession so far: the seat, and the version at which it conceded."""
        self._survivor: PlayerId | None = None
        """The one seat left when every other seat has conceded (the game is then over)."""

    # --- reading -------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many moves (chance outcomes included) have been applied."""
        return len(self.moves)

    @property
    def over(self) -> bool:
        """True once the game has ended (by its rules, or because all seats but one conceded)."""
        return self._survivor is not None or self.state.is_terminal()

    @property
    def conceded_out(self) -> bool:
        """True when the game ended because every seat but one conceded."""
        return self._survivor is not None

    def to_act(self) -> PlayerId | None:
        """The seat to move, or ``None`` when chance acts or the game is over."""
        return None if self._survivor is not None else self.state.current_player()

    def legal(self) -> Sequence[Move]:
        """The legal actions of the seat to move (empty at chance and at the end)."""
        return () if self._survivor is not None else self.state.legal_actions()

    def winners(self) -> frozenset[PlayerId]:
        """Who won the finished game: by the rules, or the one seat that did not concede. A
        seat that conceded cannot win: if the rules name it, the win goes to the others the
        rules name, or else to the best score among the seats that did not concede."""
        if self._survivor is not None:
            return frozenset({self._survivor})
        winners = self.state.winners()
        gone = {seat for seat, _ in self.conceded}
        if not winners & gone:
            return winners
        if winners - gone:
            return frozenset(winners - gone)
        scores = self.state.scores()
        left = [p for p in range(self.game.players) if p not in gone]
        best = max(scores[p] for p in left)
        return frozenset(p for p in left if scores[p] == best)

    def view(self, viewer: PlayerId | None, at: int | None = None) -> object:
        """What ``viewer`` (``None``: a spectator) sees now, or at version ``at``."""
        return self.state_at(at).view(viewer)

    def state_at(self, version: int | None = None) -> State:
        """The true state at ``version`` (the current one by default); for the rules' side of
        a surface only, never for what a player is shown."""
        if version is None or version == self.version:
            return self.state
        if not 0 <= version < self.version:
            raise IndexError(f"no version {version}: the table is at version {self.version}")
        start, state = version, self._before[version]
        while state is None:  # back to the last checkpoint kept (version 0 always is)
            start -= 1
            state = self._before[start]
        for index in range(start, version):
            state = state.apply(self.moves[index])
        return state

    def events(self, viewer: PlayerId | None, since: int = 0) -> list[Event]:
        """Every move after version ``since``, as ``viewer`` may see it."""
        return list(self.iter_events(viewer, since))

    def iter_events(self, viewer: PlayerId | None, since: int = 0) -> Iterator[Event]:
        """The events of :meth:`events`, one at a time."""
        for version in range(max(since, 0) + 1, self.version + 1):
            yield self.event_at(version, viewer)

    def walk(
        self, since: int, until: int | None = None
    ) -> Iterator[tuple[int, State, Move, State]]:
        """Each move after version ``since`` (up to ``until``, or the end) with the true states
        before and after it: (version it made, before, move, after). One pass, however little
        history the table keeps.

        The states of one walk come from one chain of moves: a walk that starts from a kept
        state goes on through the kept ones, a walk that starts from a rebuilt state rebuilds
        every later one too. Parts a move leaves alone are then the same objects before and
        after it, in every walk (a game's words may tell what changed by identity)."""
        end = self.version if until is None else min(until, self.version)
        start = max(since, 0)
        state = self.state_at(start)
        kept_chain = start == self.version or self._before[start] is not None
        for version in range(start + 1, end + 1):
            move = self.moves[version - 1]
            kept = self.state if version == self.version else self._before[version]
            if kept_chain and kept is not None:
                after = kept
            else:
                kept_chain = False
                after = state.apply(move)
            yield version, state, move, after
            state = after

    def event_at(self, version: int, viewer: PlayerId | None) -> Event:
        """The move that made ``version`` (1 for the first move), as ``viewer`` may see it."""
        before = self.state_at(version - 1)
        return Event(
            version, before.current_player(), before.seen_move(self.moves[version - 1], viewer)
        )

    def record(self) -> Record:
        """The game so far as a record (every move, chance included, in canonical text)."""
        return Record(
            game=self.game.info.id,
            players=self.game.players,
            options=dict(self.game.options),
            moves=tuple(str(move) for move in self.moves),
            seed=self.seed,
            seats=self.seats,
            dictated=tuple(self._dictated),
            conceded=tuple(self.conceded),
        )

    # --- moving --------------------------------------------------------------------------

    def play(
        self, move: Move, expected_version: int | None = None, *, by: PlayerId | None = None
    ) -> Event:
        """Apply the player action ``move`` of the seat to move (``by``, if given, must be
        that seat) and return the event as the mover saw it.

        Raises :class:`StaleVersionError` when ``expected_version`` is not the current
        version, and :class:`IllegalActionError` (naming the rule) when it is not a player's
        turn, not ``by``'s turn, or the rules forbid the move; the table is unchanged then.
        """
        self._check_version(expected_version)
        player = self.to_act()
        if player is None:
            rule = "the game is over" if self.over else "chance acts now, not a player"
            raise IllegalActionError(str(move), rule)
        if by is not None and by != player:
            raise IllegalActionError(str(move), f"it is {self.seats[player]}'s turn")
        return self._apply(move, player)

    def play_text(
        self, text: str, expected_version: int | None = None, *, by: PlayerId | None = None
    ) -> Event:
        """Read ``text`` as a move here and :meth:`play` it."""
        self._check_version(expected_version)
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalActionError(
                text[:40] + "…", f"a move is at most {MAX_MOVE_TEXT} characters"
            )
        return self.play(self.state.parse(text), expected_version, by=by)

    def advance_chance(self, outcome: Move | None = None) -> Event:
        """Let chance act: draw its outcome from the table's generator, or apply ``outcome``
        if it is dictated (a test's dice, a replayed record)."""
        if self._survivor is not None or not self.state.is_chance():
            rule = "the game is over" if self.over else "a player acts now, not chance"
            raise IllegalActionError("chance", rule)
        if outcome is None:
            chance = self._generator()
            if chance is None:
                raise IllegalActionError("chance", "a table without a seed has no dice of its own")
            outcome = self.state.sample_chance(chance)
        else:
            self._dictated.append(self.version)
        try:
            return self._apply(outcome, None)
        except SpieltischError:
            if self._dictated and self._dictated[-1] == self.version:
                self._dictated.pop()
            raise

    def play_out(self, agents: Sequence[Agent[Any]], max_moves: int = 1_000_000) -> int:
        """Play on with ``agents[p]`` in seat ``p`` until the game ends (or ``max_moves`` moves
        in all are on the table) and return how many player actions were made.

        The same moves as :meth:`play` and :meth:`advance_chance` one after another (the same
        chance drawn, the same record, events and versions), in one loop without their
        per-move checks and event values: each agent gets its seat's view only if it reads
        views, and the legal actions. An agent's or a rule's error leaves the table at the
        last move applied."""
        if self._survivor is not None:
            return 0
        acts = [agent.act for agent in agents]
        reads = [agent.reads_views for agent in agents]
        moves, before = self.moves, self._before
        chance = self._chance
        keyed = self.seed if self.keyed_chance else None
        decisions, run = self._decisions, self._chance_run
        state = self.state
        version = len(moves)
        actions = 0
        try:
            while version < max_moves and not state.is_terminal():
                player = state.current_player()
                if player is None:
                    if keyed is not None:
                        chance = random.Random(derive_seed(keyed, "chance", decisions, run))
                    if chance is None:
                        raise IllegalActionError(
                            "chance", "a table without a seed has no dice of its own"
                        )
                    move = state.sample_chance(chance)
                    after = state.apply(move)
                    run += 1
                else:
                    view = state.view(player) if reads[player] else None
                    move = acts[player](view, state.legal_actions())
                    after = state.apply(move)
                    decisions += 1
                    run = 0
                    actions += 1
                before.append(state)
                moves.append(move)
                state = after
                version += 1
        finally:
            self.state = state
            self._decisions, self._chance_run = decisions, run
        return actions

    def concede(self, seat: PlayerId) -> bool:
        """``seat`` gives up the game; True if that ends it (every seat but one has conceded).

        Raises :class:`IllegalActionError` for a finished game, a seat the game does not have,
        or a seat that has conceded already; the table is unchanged then."""
        if self.over:
            raise IllegalActionError("concede", "the game is over")
        if not 0 <= seat < self.game.players:
            raise IllegalActionError("concede", f"there is no seat {seat}")
        if any(gone == seat for gone, _ in self.conceded):
            raise IllegalActionError("concede", f"{self.seats[seat]} has conceded already")
        self.conceded.append((seat, self.version))
        left = set(range(self.game.players)) - {gone for gone, _ in self.conceded}
        if len(left) == 1:
            self._survivor = left.pop()
        return self._survivor is not None

    def _generator(self) -> random.Random | None:
        """Where the next chance outcome comes from: the running generator, or in keyed mode
        a fresh one keyed by the seed, the decisions so far and the place in this chance run."""
        if self.keyed_chance and self.seed is not None:
            key = derive_seed(self.seed, "chance", self._decisions, self._chance_run)
            return random.Random(key)
        return self._chance

    def _apply(self, move: Move, actor: PlayerId | None) -> Event:
        before = self.state
        after = before.apply(move)
        self._before.append(before)
        self.moves.append(move)
        self.state = after
        keep = self.history
        if keep is not None:
            old = len(self._before) - keep - 1  # now out of the window: a checkpoint or gone
            if old > 0 and old % keep:
                self._before[old] = None
        if before.is_chance():
            self._chance_run += 1
        else:
            self._decisions += 1
            self._chance_run = 0
        return Event(len(self.moves), actor, move)

    def _check_version(self, expected: int | None) -> None:
        if expected is not None and expected != self.version:
            raise StaleVersionError(expected, self.version)

    # --- rebuilding ------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls, game: Game, record: Record, *, keyed_chance: bool = False, history: int | None = None
    ) -> Table:
        """The table that wrote ``record``, move for move, its chance generator where that
        table's was; :class:`RecordError` (with the move's index) for a move that cannot be
        read or applied, or a drawn chance outcome other than the record's seed gives.
        ``keyed_chance`` says the record was written by a table in keyed mode."""
        if record.game != game.info.id or record.players != game.players:
            raise RecordError(f"the record is for {record.game} with {record.players} players")
        seats = record.seats if len(record.seats) == game.players else ()
        table = cls(game, seats, record.seed, keyed_chance=keyed_chance, history=history)
        dictated = set(record.dictated)
        concessions = list(record.conceded)
        for index, text in enumerate(record.moves):
            table._concede_due(concessions)
            try:
                table._replay_one(text, index in dictated)
            except SpieltischError as error:
                raise RecordError(str(error), index) from None
        table._concede_due(concessions)
        if concessions:
            raise RecordError(f"a concession at version {concessions[0][1]} comes too late")
        return table

    def extend(self, moves: Sequence[tuple[str, bool]]) -> None:
        """Apply the moves another copy of this table recorded after it (each its text and
        whether its chance outcome was dictated), as :meth:`from_record` would; on a
        :class:`RecordError` (with the move's index from here) the table is not to be used."""
        for index, (text, dictated) in enumerate(moves):
            try:
                self._replay_one(text, dictated)
            except SpieltischError as error:
                raise RecordError(str(error), index) from None

    def _concede_due(self, concessions: list[tuple[PlayerId, int]]) -> None:
        """Apply the concessions of a record made at the table's version now."""
        while concessions and concessions[0][1] == self.version:
            seat, _ = concessions.pop(0)
            try:
                self.concede(seat)
            except SpieltischError as error:
                raise RecordError(str(error), self.version) from None

    def _replay_one(self, text: str, dictated: bool) -> None:
        state = self.state
        if self.over:
            raise RecordError(f"{text!r} comes after the end of the game")
        move = state.parse(text)
        chance = self._generator() if state.is_chance() else None
        if not state.is_chance():
            self.play(move)
        elif dictated or chance is None:
            self.advance_chance(move)
        else:
            drawn = state.sample_chance(chance)
            if drawn != move:
                raise RecordError(f"chance drew {drawn}, not {text!r}, from the record's seed")
            self._apply(move, None)

    # --- taking back -----------------------------------------------------------------------

    def undoable(self, player: PlayerId) -> int:
        """How many of the last moves ``player`` may take back: their own moves at the end
        of the game so far, back to the last chance step or the last move of another player
        (by then the others have seen the moves before it), the rule online tables use."""
        count = 0
        for index in range(self.version - 1, -1, -1):
            if self.state_at(index).current_player() != player:
                break
            count += 1
        return count

    def undo(self, player: PlayerId, count: int = 1) -> int:
        """Take back ``player``'s last ``count`` moves (at most :meth:`undoable` of them) and
        return how many were taken back. The table is rebuilt from the shortened record, so
        its chance generator stands exactly where it stood before those moves."""
        steps = min(max(count, 0), self.undoable(player))
        if not steps:
            return 0
        full = self.record()
        kept = self.version - steps
        shorter = Record(
            game=full.game,
            players=full.players,
            options=full.options,
            moves=full.moves[:kept],
            seed=full.seed,
            seats=full.seats,
            dictated=tuple(i for i in full.dictated if i < kept),
            conceded=tuple(c for c in full.conceded if c[1] <= kept),
        )
        rebuilt = Table.from_record(
            self.game, shorter, keyed_chance=self.keyed_chance, history=self.history
        )
        self.state = rebuilt.state
        self.moves = rebuilt.moves
        self._before = rebuilt._before
        self._dictated = rebuilt._dictated
        self._chance = rebuilt._chance
        self._decisions = rebuilt._decisions
        self._chance_run = rebuilt._chance_run
        self.conceded = rebuilt.conceded
        self._survivor = rebuilt._survivor
        return steps
