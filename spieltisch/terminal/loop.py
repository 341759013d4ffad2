"""The terminal play loop: people and bots at one table, chance from a seeded generator.

People choose a move by its number or its notation; ``help``, ``rules``, ``moves`` and
``quit`` work at every prompt, and ``hint`` asks the strongest agent for its choice. Bots'
moves and chance are printed as they happen, each line drawn from the view of the person at the
table (a spectator's view when several people share the screen). When several people share the
screen in a hidden-card game, each one's table is shown only after the screen is handed over,
and cleared before the next; bots can be paced so their speed gives nothing away.
The record of the game is returned to the caller.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

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
from spieltisch.terminal.render import Renderer, Table, renderer_for

MENU_LIMIT = 24
"""Menus longer than this are summarised; ``moves`` lists them in full."""

ReadLine = Callable[[str], str]
"""Reads one line after showing a prompt; raises ``EOFError`` when input ends."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: a person (``agent`` is ``None``) or a bot."""

    name: str
    agent: Agent | None = None

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
        adviser: Agent | None = None,
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
        self.renderer: Renderer = renderer_for(game)
        humans = [p for p, seat in enumerate(self.seats) if seat.is_human]
        self.narrator: PlayerId | None = humans[0] if len(humans) == 1 else None
        self.private_screens = len(humans) > 1 and game.info.hidden_information
        """Several people share the screen in a hidden-card game: hide each one's table."""
        self.events: deque[str] = deque(maxlen=8)

    def table(self) -> Table:
        """Names and recent events, as renderers receive them."""
        return Table(tuple(seat.name for seat in self.seats), tuple(self.events))

    def run(self) -> Outcome:
        """Play until the game ends or a person quits."""
        chance = random.Random(self.seed)
        state = self.game.initial_state()
        moves: list[str] = []
        quit_game = False
        while not state.is_terminal():
            try:
                move = self._next_move(state, chance)
            except _QuitError:
                quit_game = True
                break
            self._announce(state, move)
            moves.append(str(move))
            before, state = state, state.apply(move)
            self._aftermath(before, state)
        record = Record(
            game=self.game.info.id,
            players=self.game.players,
            options=dict(self.game.options),
            moves=tuple(moves),
            seed=self.seed,
            seats=tuple(seat.name for seat in self.seats),
        )
        self._summary(state, quit_game)
        return Outcome(state, record, quit_game)

    def _next_move(self, state: State, chance: random.Random) -> Move:
        player = state.current_player()
        if player is None:
            return state.sample_chance(chance)
        agent = self.seats[player].agent
        if agent is None:
            return self._ask(state, player)
        started = time.perf_counter()
        with self.thinking(f"{self.seats[player].name} is thinking…"):
            move = agent.act(state.view(player), state.legal_actions())
            time.sleep(max(0.0, self.pace - (time.perf_counter() - started)))
        return move

    def thinking(self, what: str) -> AbstractContextManager[object]:
        """A spinner saying ``what`` while a bot or the adviser thinks (a search may take a
        second or more per move), on a terminal only: piped output stays plain. A paced bot
        shows it for its whole pace, so it ends no sooner for an easy move."""
        return self.console.status(what) if self.console.is_terminal else nullcontext()

    def _announce(self, state: State, move: Move) -> None:
        player = state.current_player()
        actor = "chance" if player is None else self.seats[player].name
        text = state.move_text_for(move, self.narrator)
        line = self.renderer.describe(state.view(self.narrator), text, self.table(), actor)
        self.events.append(line)
        if player is None or not self.seats[player].is_human:
            self.console.print(line)

    def _aftermath(self, before: State, after: State) -> None:
        line = self.renderer.aftermath(
            before.view(self.narrator), after.view(self.narrator), self.table()
        )
        if line:
            self.events.append(line)
            self.console.print(line)

    def _ask(self, state: State, player: PlayerId) -> Move:
        if self.private_screens:
            self._hand_over(self.seats[player].name)
        move = self._choose(state, player)
        if self.private_screens:
            self.console.clear()
        return move

    def _hand_over(self, name: str) -> None:
        """Clear the screen and wait until the next person has it."""
        self.console.clear()
        try:
            self.read_line(f"Pass the screen to {name} and press Enter. ")
        except EOFError:
            raise _QuitError from None

    def _choose(self, state: State, player: PlayerId) -> Move:
        view = state.view(player)
        legal = state.legal_actions()
        self.console.print(self.renderer.table(view, self.table()))
        self._menu(view, legal, full=len(legal) <= MENU_LIMIT)
        name = self.seats[player].name
        while True:
            try:
                line = self.read_line(f"{name}, your move (number, notation, help, quit): ").strip()
            except EOFError:
                raise _QuitError from None
            move = self._answer(state, view, legal, line)
            if move is not None:
                return move

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
            self.console.print(self.renderer.table(view, self.table()))
            return None
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(f"[red]There is no move {number}; choose 1 to {len(legal)}.[/]")
            return None
        try:
            move = state.parse(line)
            state.apply(move)
        except SpieltischError as error:
            self.console.print(Text(str(error), style="red"))
            return None
        return move

    def _hint(self, view: object, legal: Sequence[Move]) -> None:
        if self.adviser is None:
            self.console.print("No adviser is available for this game.")
            return
        with self.thinking("The adviser is thinking…"):
            advice = self.adviser.explain(view, legal)
        self.console.print(Text(advice, style="cyan"))

    def _menu(self, view: object, legal: Sequence[Move], *, full: bool) -> None:
        labels = [
            f"[bold]{n}[/] {self.renderer.move_label(view, m)}" for n, m in enumerate(legal, 1)
        ]
        if full:
            self.console.print(Columns(labels, padding=(0, 3)))
        else:
            self.console.print(Columns(labels[:3], padding=(0, 3)))
            self.console.print(self.renderer.many_moves_hint(view, legal))

    def _help(self) -> None:
        self.console.print(
            Panel(
                self.renderer.help()
                + "\n\nCommands: a move's [bold]number[/] or its [bold]notation[/]; "
                "[bold]moves[/] lists every legal move; [bold]hint[/] asks the strongest bot "
                "what it would play and why; [bold]table[/] shows the table again; "
                "[bold]rules[/] shows the rules; [bold]quit[/] leaves the game.",
                title="help",
            )
        )

    def _summary(self, state: State, quit_game: bool) -> None:
        view = state.view(self.narrator)
        self.console.print(self.renderer.table(view, self.table()))
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


def seats_for(kinds: Sequence[str], make: Callable[[str, int], Agent]) -> list[Seat]:
    """Seats from kinds such as ``human,random``: people by seat number, bots by their level."""
    return [
        Seat(f"Player {seat + 1}")
        if kind == "human"
        else Seat(f"Bot {seat + 1} ({kind})", make(kind, seat))
        for seat, kind in enumerate(kinds)
    ]
