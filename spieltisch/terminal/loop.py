"""The terminal play loop: people and bots at one table, chance from a seeded generator.

People choose a move by its number or its notation; ``help``, ``rules``, ``moves`` and
``quit`` work at every prompt, and ``hint`` asks the strongest agent for its choice. Bots'
moves and chance are printed as they happen, each line drawn from the view of the person at the
table (a spectator's view when several people share the screen). When several people share the
screen in a hidden-card game, each one's table is shown only after the screen is handed over,
and cleared before the next; bots can be paced so their speed gives nothing away.
The game is played on a :class:`~spieltisch.session.Table`, which applies each move once and
keeps the record; each move is applied before it is shown. The record is returned to the
caller.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.agents import Agent
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Game, Move, PlayerId, State
from spieltisch.core.record import Record
from spieltisch.games import kit_of
from spieltisch.session import Event, Table
from spieltisch.terminal.draw.base import TableInfo, markup, plain
from spieltisch.terminal.drawers import drawer_for

MENU_LIMIT = 24
"""Menus longer than this are summarised; ``moves`` lists them in full."""

ReadLine = Callable[[str], str]
"""Reads one line after showing a prompt; raises ``EOFError`` when input ends."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: a person (``agent`` is ``None``) or a bot."""

    name: str
    agent: Agent[Any] | None = None

    @property
    def is_human(self) -> bool:
        """True for a person at the keyboard."""
        return self.agent is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a terminal game ended: the last state, its record, and whether someone quit."""

    state: State
    record: Record
    quit: bool


class _QuitError(Exception):
    """A person typed ``quit`` or input ended."""


class TerminalGame:
    """One game played in the terminal."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        seed: int,
        console: Console,
        read_line: ReadLine,
        rules_text: str = "",
        adviser: Agent[Any] | None = None,
        pace: float = 0.0,
    ) -> None:
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.console = console
        self.read_line = read_line
        self.rules_text = rules_text
        self.adviser = adviser
        self.pace = pace
        self.drawer = drawer_for(game.info.id)
        self.words = kit_of(game).words
        self.board = Table(game, tuple(seat.name for seat in self.seats), seed)
        humans = [p for p, seat in enumerate(self.seats) if seat.is_human]
        self.narrator: PlayerId | None = humans[0] if len(humans) == 1 else None
        self.private_screens = len(humans) > 1 and game.info.hidden_information
        """Several people share the screen in a hidden-card game: hide each one's table."""
        self.events: deque[str] = deque(maxlen=8)

    def table(self) -> TableInfo:
        """Names and recent events, as drawers receive them."""
        return TableInfo(self.board.seats, tuple(self.events))

    def run(self) -> Outcome:
        """Play until the game ends or a person quits."""
        board = self.board
        quit_game = False
        while not board.over:
            try:
                event = self._next_move()
            except _QuitError:
                quit_game = True
                break
            self._announce(event)
            self._aftermath(board.state_at(event.version - 1), board.state)
        self._summary(board.state, quit_game)
        return Outcome(board.state, board.record(), quit_game)

    def _next_move(self) -> Event:
        board = self.board
        player = board.to_act()
        if player is None:
            return board.advance_chance()
        agent = self.seats[player].agent
        if agent is None:
            return self._ask(board.state, player)
        started = time.perf_counter()
        with self.thinking(f"{self.seats[player].name} is thinking…"):
            move = agent.act(board.view(player), board.legal())
            time.sleep(max(0.0, self.pace - (time.perf_counter() - started)))
        return board.play(move)

    def thinking(self, what: str) -> AbstractContextManager[object]:
        """A spinner saying ``what`` while a bot or the adviser thinks (a search may take a
        second or more per move), on a terminal only: piped output stays plain. A paced bot
        shows it for its whole pace, so it ends no sooner for an easy move."""
        return self.console.status(what) if self.console.is_terminal else nullcontext()

    def _announce(self, event: Event) -> None:
        """Say what the move of ``event`` (already applied) was, as the narrator saw it."""
        board, player = self.board, event.actor
        actor = "chance" if player is None else self.seats[player].name
        before = board.state_at(event.version - 1)
        seen = before.seen_move(board.moves[event.version - 1], self.narrator)
        line = self.words.event(before.view(self.narrator), seen, board.seats, actor)
        self.events.append(plain(line))
        if player is None or not self.seats[player].is_human:
            self.console.print(markup(line))

    def _aftermath(self, before: State, after: State) -> None:
        line = self.words.aftermath(
            before.view(self.narrator), after.view(self.narrator), self.board.seats
        )
        if line:
            self.events.append(plain(line))
            self.console.print(markup(line))

    def _ask(self, state: State, player: PlayerId) -> Event:
        if self.private_screens:
            self._hand_over(self.seats[player].name)
        event = self._choose(state, player)
        if self.private_screens:
            self.console.clear()
        return event

    def _hand_over(self, name: str) -> None:
        """Clear the screen and wait until the next person has it."""
        self.console.clear()
        try:
            self.read_line(f"Pass the screen to {name} and press Enter. ")
        except EOFError:
            raise _QuitError from None

    def _choose(self, state: State, player: PlayerId) -> Event:
        view = state.view(player)
        legal = state.legal_actions()
        self.console.print(self.drawer.table(view, self.table()))
        self._menu(view, legal, full=len(legal) <= MENU_LIMIT)
        name = self.seats[player].name
        while True:
            try:
                line = self.read_line(f"{name}, your move (number, notation, help, quit): ").strip()
            except EOFError:
                raise _QuitError from None
            move = self._answer(state, view, legal, line)
            if move is None:
                continue
            try:
                return self.board.play(move, by=player)
            except SpieltischError as error:
                self.console.print(Text(str(error), style="red"))

    def _answer(self, state: State, view: object, legal: Sequence[Move], line: str) -> Move | None:
        """The move a typed line chooses, or ``None`` after answering a command or an error."""
        command = line.lower()
        if not command:
            return None
        if command in {"quit", "exit", "q"}:
            raise _QuitError
        if command in {"help", "?", "h"}:
            self._help()
            return None
        if command == "rules":
            self.console.print(Markdown(self.rules_text or "No rules page found."))
            return None
        if command in {"moves", "list", "m"}:
            self._menu(view, legal, full=True)
            return None
        if command == "hint":
            self._hint(view, legal)
            return None
        if command == "table":
            self.console.print(self.drawer.table(view, self.table()))
            return None
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(f"[red]There is no move {number}; choose 1 to {len(legal)}.[/]")
            return None
        try:
            return state.parse(line)
        except SpieltischError as error:
            self.console.print(Text(str(error), style="red"))
            return None

    def _hint(self, view: object, legal: Sequence[Move]) -> None:
        if self.adviser is None:
            self.console.print("No adviser is available for this game.")
            return
        with self.thinking("The adviser is thinking…"):
            advice = self.adviser.explain(view, legal)
        self.console.print(Text(advice, style="cyan"))

    def _menu(self, view: object, legal: Sequence[Move], *, full: bool) -> None:
        words = self.words
        labels = [
            f"[bold]{n}[/] {markup(words.move_label(view, m))}" for n, m in enumerate(legal, 1)
        ]
        if full:
            self.console.print(Columns(labels, padding=(0, 3)))
        else:
            self.console.print(Columns(labels[:3], padding=(0, 3)))
            self.console.print(markup(words.many_moves(view, legal)))

    def _help(self) -> None:
        self.console.print(
            Panel(
                markup(self.words.help())
                + "\n\nCommands: a move's [bold]number[/] or its [bold]notation[/]; "
                "[bold]moves[/] lists every legal move; [bold]hint[/] asks the strongest bot "
                "what it would play and why; [bold]table[/] shows the table again; "
                "[bold]rules[/] shows the rules; [bold]quit[/] leaves the game.",
                title="help",
            )
        )

    def _summary(self, state: State, quit_game: bool) -> None:
        view = state.view(self.narrator)
        self.console.print(self.drawer.table(view, self.table()))
        result = RichTable(title="Game abandoned" if quit_game else "Final result")
        result.add_column("player")
        result.add_column("points", justify="right")
        result.add_column("")
        winners = state.winners()
        scores = state.scores()
        for seat in sorted(range(len(self.seats)), key=lambda p: -scores[p]):
            mark = "winner" if seat in winners else ""
            if mark and len(winners) > 1:
                mark = "shared win"
            result.add_row(self.table().player(seat), str(scores[seat]), mark)
        self.console.print(result)


def seats_for(kinds: Sequence[str], make: Callable[[str, int], Agent[Any]]) -> list[Seat]:
    """Seats from kinds such as ``human,random``: people by seat number, bots by their level."""
    return [
        Seat(f"Player {seat + 1}")
        if kind == "human"
        else Seat(f"Bot {seat + 1} ({kind})", make(kind, seat))
        for seat, kind in enumerate(kinds)
    ]
