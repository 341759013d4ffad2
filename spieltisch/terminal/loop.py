"""The terminal play loop: people and bots at one table, chance from a seeded generator.

People choose a move by its number or its notation; ``help``, ``rules``, ``moves``, ``log``,
``undo`` and ``quit`` work at every prompt, and ``hint`` asks the strongest agent for its
choice. Bots' moves and chance are printed as they happen, each line drawn from the view of the
person at the table (a spectator's view when several people share the screen). Every player's
name carries their colour in words and as a letter, so no screen needs colour vision.

Secrets stay secret around the engine too. When several people share the screen in a
hidden-card game, each one's table is drawn on the terminal's alternate screen, which is wiped
(scrollback included) before it is left, so scrolling back shows nothing of another player's
hand; output that is not a terminal cannot be wiped, and the loop says so. A bot's secret
phase (moves of one seat in a row that the viewer may not see, such as ordering a deck) is
played as one event: no line and no pause per step, so neither output nor time tells how many
steps it took. Bots can be paced so their speed gives nothing away.

The table speaks one language (English unless given a catalog's ``speech``): the prompts and
messages here, the game's words (every event and move label) and the drawer's words alike. The
commands, the notation and the bots' names stay as they are in every language.

``undo`` takes back the player's own last move, as far back as the last chance step or the
last move of another player (see :meth:`~spieltisch.session.Table.undo`); ``log`` shows the
whole game so far in words, from the player's side. Ctrl-C at any point ends the game as
``quit`` does. The game is played on a :class:`~spieltisch.session.Table`, which applies each
move once and keeps the record; each move is applied before it is shown. The record is
returned to the caller.
"""

from __future__ import annotations

import gettext
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.agents import Agent
from spieltisch.core.agent import Rated
from spieltisch.core.errors import InvalidActionError, SpieltischError
from spieltisch.core.game import Game, Hidden, Move, PlayerId, State
from spieltisch.core.record import Record
from spieltisch.core.words import ENGLISH, N_, Speech, Words
from spieltisch.games import kit_of
from spieltisch.locale import language_of
from spieltisch.locale import number as written
from spieltisch.session import Event, Table
from spieltisch.session.lesson import refusal_text
from spieltisch.terminal.draw.base import (
    TableInfo,
    markup,
    plain,
    seat_colour_name,
    seat_letter,
    speaks_source,
)
from spieltisch.terminal.drawers import drawer_for

MENU_LIMIT = 24
"""Menus longer than this are summarised; ``moves`` lists them in full."""
MAX_INPUT = 2_000
"""The longest line read as a move or command; a longer one is refused unread."""
MAX_MESSAGE = 240
"""The most characters of an error message shown (a long move is not echoed whole)."""
MAX_NUMBER_DIGITS = 6
"""A move number has at most this many digits (menus are far shorter)."""
RECENT = 8
"""Events kept in the table's "Recent" box; ``log`` shows them all."""
PRIVATE_ON = "\x1b[?1049h\x1b[H\x1b[2J\x1b[3J"
"""Enter the alternate screen and wipe it and the scrollback."""
PRIVATE_OFF = "\x1b[H\x1b[2J\x1b[3J\x1b[?1049l"
"""Wipe the alternate screen and the scrollback, and go back to the main screen."""
NO_PRIVATE_SCREEN = N_(
    "This output is not a terminal, so it cannot be wiped between players: "
    "each player's cards stay readable in it."
)
"""Said at the start when people share a screen that cannot be wiped (English; said in the
table's language)."""
COMMANDS = N_(
    "Commands: a move's `number` or its `notation`; `moves` lists every legal move; `hint` "
    "asks the strongest bot what it would play and why; `table` shows the table again; `log` "
    "shows the game so far; `undo` takes back your last move (back to the last throw, deal or "
    "move of another player); `rules` shows the rules; `quit` (or Ctrl-C) leaves the game."
)
"""The commands, after the game's own help (English; said in the table's language)."""

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
    """How a terminal game ended: the last state, its record, whether someone quit, and
    whether that was Ctrl-C."""

    state: State
    record: Record
    quit: bool
    interrupted: bool = False


class _QuitError(Exception):
    """A person typed ``quit`` or input ended."""


class _Undone:
    """A person took a move back: the turn starts again from the table as it is now."""


UNDONE = _Undone()


def display_name(seat: PlayerId, name: str, speech: Speech = ENGLISH) -> str:
    """A seat's name after its colour in words (in the language of ``speech``) and as a letter:
    ``red R · Player 1``."""
    return f"{seat_colour_name(seat, speech)} {seat_letter(seat)} · {name}"


def unreadable(typed: str, speech: Speech) -> str:
    """What a table says of a typed move the engine cannot read, in a language other than
    English (whose engine's own message says what it expected)."""
    shown = typed if len(typed) <= MAX_MESSAGE // 4 else typed[: MAX_MESSAGE // 4] + "…"
    return speech.gettext(
        "cannot read {move}: type a move's number, or its notation as `moves` lists it"
    ).format(move=repr(shown))


def advice(
    adviser: Agent[Any], words: Words[Any], view: object, legal: Sequence[Move], speech: Speech
) -> str:
    """What ``adviser`` would play here and why. In English, its own explanation; in another
    language, the best move it rates and the next best, in the game's words (an agent's
    explanation is English only)."""
    if speaks_source(speech):
        return adviser.explain(view, legal)
    _ = speech.gettext
    ratings = adviser.rate(view, legal)
    if ratings is None or not ratings.choices:  # forced, or from its book: no search to tell
        move = words.move_label(view, adviser.act(view, legal))
        return _("{move}: the strongest bot plays it here without weighing others.").format(
            move=move
        )
    best, *rest = ratings.choices
    sampled = ratings.unit in ("win chance", "win and lead")
    chance = sampled or ratings.unit == "chance to win"

    def worth(rated: Rated) -> str:
        if chance:
            return f"{100 * rated.value:.0f}\u00a0%"
        return written(rated.value, language_of(speech))

    label = words.move_label(view, best.move)
    if ratings.unit == "win and lead":
        text = _(
            "{move}: it scores {worth} over the {n} games simulated from here, half for "
            "winning and half for the lead."
        ).format(move=label, worth=worth(best), n=best.samples or 0)
    elif sampled:
        text = _("{move}: it wins {worth} of the {n} games simulated from here.").format(
            move=label, worth=worth(best), n=best.samples or 0
        )
    elif chance:
        text = _("{move}: it leaves a {worth} chance to win the game, by the exact odds.").format(
            move=label, worth=worth(best)
        )
    else:
        text = _("{move}: it scores {worth} points this turn on average.").format(
            move=label, worth=worth(best)
        )
    if rest:
        text += " " + _("Next best: {move} ({worth}).").format(
            move=words.move_label(view, rest[0].move), worth=worth(rest[0])
        )
    return text


class TerminalGame:
    """One game played in the terminal (on ``board``, a table to continue, if given)."""

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
        board: Table | None = None,
        *,
        speech: gettext.NullTranslations | None = None,
    ) -> None:
        self.game = game
        self.speech = speech or gettext.NullTranslations()
        """The table's language (English unless given): prompts, messages, the game's words
        and the drawer's."""
        self.seats = tuple(seats)
        self.seed = seed
        self.console = console
        self.read_line = read_line
        self.rules_text = rules_text
        self.adviser = adviser
        self.pace = pace
        self.drawer = drawer_for(game.info.id)
        self.words = kit_of(game).words.speaking(self.speech)
        self.board = board or Table(game, tuple(seat.name for seat in self.seats), seed)
        self.names = tuple(
            display_name(p, seat.name, self.speech) for p, seat in enumerate(self.seats)
        )
        """The names said and drawn: each with its colour, in words and as a letter."""
        humans = [p for p, seat in enumerate(self.seats) if seat.is_human]
        self.narrator: PlayerId | None = humans[0] if len(humans) == 1 else None
        self.private_screens = len(humans) > 1 and game.info.hidden_information
        """Several people share the screen in a hidden-card game: hide each one's table."""
        self.events: deque[str] = deque(maxlen=RECENT)
        self._recount()

    def _(self, message: str) -> str:
        """``message`` (an English msgid, as written) in the table's language."""
        return self.speech.gettext(message)

    def table(self) -> TableInfo:
        """Names, recent events and the language, as drawers receive them."""
        return TableInfo(self.names, tuple(self.events), self.speech)

    def run(self) -> Outcome:
        """Play until the game ends or a person quits (``quit``, end of input or Ctrl-C)."""
        board = self.board
        quit_game = interrupted = False
        if self.private_screens and not self.console.is_terminal:
            self.console.print(self._(NO_PRIVATE_SCREEN), style="yellow")
        while not board.over:
            try:
                events = self._next_move()
            except _QuitError:
                quit_game = True
                break
            except KeyboardInterrupt:
                quit_game = interrupted = True
                self.console.print("\n" + self._("Interrupted."))
                break
            for event in events:
                self._tell(event)
        self._summary(board.state, quit_game)
        return Outcome(board.state, board.record(), quit_game, interrupted)

    # --- moves ---------------------------------------------------------------------------

    def _next_move(self) -> list[Event]:
        """The next move or moves: chance, a person's move (none after an undo), or a bot's
        move, or its whole secret phase."""
        board = self.board
        player = board.to_act()
        if player is None:
            return [board.advance_chance()]
        agent = self.seats[player].agent
        if agent is None:
            event = self._ask(board.state, player)
            return [] if event is None else [event]
        return self._bot_moves(player, agent)

    def _bot_moves(self, player: PlayerId, agent: Agent[Any]) -> list[Event]:
        """A bot's move; while the viewer may not see its moves and it is still to move, the
        moves that follow too, all under one spinner and one pace (see the module
        docstring)."""
        board = self.board
        events: list[Event] = []
        started = time.perf_counter()
        with self.thinking(self._("{player} is thinking…").format(player=self.names[player])):
            while True:
                events.append(board.play(agent.act(board.view(player), board.legal())))
                if not self._secret(events[-1]) or board.to_act() != player:
                    break
            time.sleep(max(0.0, self.pace - (time.perf_counter() - started)))
        return events

    def _secret(self, event: Event) -> bool:
        """True when the narrator may not see the move of ``event``."""
        return isinstance(self.board.event_at(event.version, self.narrator).move, Hidden)

    def thinking(self, what: str) -> AbstractContextManager[object]:
        """A spinner saying ``what`` while a bot or the adviser thinks (a search may take a
        second or more per move), on a terminal only: piped output stays plain. A paced bot
        shows it for its whole pace, so it ends no sooner for an easy move."""
        return self.console.status(what) if self.console.is_terminal else nullcontext()

    # --- what is said ----------------------------------------------------------------------

    def _lines(self, version: int, viewer: PlayerId | None) -> tuple[str, str]:
        """What ``viewer`` is told of the move that made ``version``: the event's sentence
        and what it brought about (either may be empty)."""
        board = self.board
        event = board.event_at(version, viewer)
        actor = self._("chance") if event.actor is None else self.names[event.actor]
        seen_before = board.view(viewer, at=version - 1)
        line = self.words.event(seen_before, event.move, self.names, actor)
        aftermath = self.words.aftermath(seen_before, board.view(viewer, at=version), self.names)
        return line, aftermath or ""

    def _tell(self, event: Event) -> None:
        """Say what the move of ``event`` (already applied) was and brought about, as the
        narrator saw it; a person's own move is not repeated, and nothing empty is printed."""
        line, aftermath = self._lines(event.version, self.narrator)
        player = event.actor
        if line:
            self.events.append(plain(line))
            if player is None or not self.seats[player].is_human:
                self.console.print(markup(line))
        if aftermath:
            self.events.append(plain(aftermath))
            self.console.print(markup(aftermath))

    def _log_lines(self, viewer: PlayerId | None) -> Iterator[str]:
        """The whole game so far as ``viewer`` may know it, one sentence per line."""
        for version in range(1, self.board.version + 1):
            for text in self._lines(version, viewer):
                if text:
                    yield f"{version:>4}. {plain(text)}"

    def _recount(self) -> None:
        """Fill the "Recent" box again from the table (after an undo or on a resumed game)."""
        self.events.clear()
        for version in range(max(1, self.board.version - 3 * RECENT), self.board.version + 1):
            for text in self._lines(version, self.narrator):
                if text:
                    self.events.append(plain(text))

    # --- a person's turn -------------------------------------------------------------------

    def _ask(self, state: State, player: PlayerId) -> Event | None:
        if not self.private_screens:
            return self._choose(state, player)
        colour = f"{seat_colour_name(player, self.speech)} {seat_letter(player)}"
        self._hand_over(f"{self.seats[player].name} ({colour})")
        with _PrivateScreen(self.console):
            return self._choose(state, player)

    def _hand_over(self, name: str) -> None:
        """Wait until the next person has the screen."""
        try:
            self.read_line(
                self._("Pass the screen to {name} and press Enter.").format(name=name) + " "
            )
        except EOFError:
            raise _QuitError from None

    def _choose(self, state: State, player: PlayerId) -> Event | None:
        view = state.view(player)
        legal = state.legal_actions()
        self.console.print(self.drawer.table(view, self.table()))
        self._menu(view, legal, full=len(legal) <= MENU_LIMIT)
        name = self.names[player]
        while True:
            try:
                prompt = self._("{player}, your move (number, notation, help, quit):")
                raw = self.read_line(prompt.format(player=name) + " ")
            except EOFError:
                raise _QuitError from None
            if len(raw) > MAX_INPUT:
                too_long = self._("that line is too long: a move is at most {n} characters")
                self._say_error(too_long.format(n=MAX_INPUT))
                continue
            answer = self._answer(state, view, legal, raw.strip(), player)
            if isinstance(answer, _Undone):
                return None
            if answer is None:
                continue
            try:
                return self.board.play(answer, by=player)
            except SpieltischError as error:
                self._say_error(self._refusal(error, raw.strip()))

    def _refusal(self, error: SpieltischError, typed: str) -> str:
        """The engine's refusal of a typed move in the table's language: in English as the
        engine says it; in another, the rule it names (with a fixed detail), or that the line
        cannot be read."""
        if speaks_source(self.speech):
            return str(error)
        if isinstance(error, InvalidActionError):
            return unreadable(typed, self.speech)
        return refusal_text(error, self.speech)

    def _say_error(self, message: str) -> None:
        """An error in red, cut to :data:`MAX_MESSAGE` characters (in a language other than
        English, a catalog's text: its notation in bold)."""
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "…"
        if speaks_source(self.speech):  # the engine's own message, as it is
            self.console.print(Text(message, style="red"))
        else:
            self.console.print(Text.from_markup(markup(message), style="red"))

    def _answer(
        self, state: State, view: object, legal: Sequence[Move], line: str, player: PlayerId
    ) -> Move | _Undone | None:
        """The move a typed line chooses, :data:`UNDONE` after taking a move back, or
        ``None`` after answering a command or an error."""
        command = line.lower()
        if not command:
            return None
        if command in {"quit", "exit", "q"}:
            raise _QuitError
        if command in {"help", "?", "h"}:
            self._help()
            return None
        if command == "rules":
            self.console.print(Markdown(self.rules_text or self._("No rules page found.")))
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
        if command == "log":
            self._log(player)
            return None
        if command == "undo":
            return self._undo(player)
        if line.isascii() and line.isdigit():
            number = int(line) if len(line) <= MAX_NUMBER_DIGITS else 0
            if 1 <= number <= len(legal):
                return legal[number - 1]
            shown = line if len(line) <= MAX_NUMBER_DIGITS else line[:MAX_NUMBER_DIGITS] + "…"
            no_move = self._("There is no move {number}; choose 1 to {last}.")
            self._say_error(no_move.format(number=shown, last=len(legal)))
            return None
        try:
            return state.parse(line)
        except SpieltischError as error:
            self._say_error(self._refusal(error, line))
            return None

    def _undo(self, player: PlayerId) -> _Undone | None:
        if not self.board.undo(player):
            self.console.print(
                self._(
                    "Nothing to take back: only your own moves since the last chance step or the "
                    "last move of another player can be taken back."
                )
            )
            return None
        self._recount()
        self.console.print(self._("Your last move is taken back."))
        return UNDONE

    def _log(self, player: PlayerId) -> None:
        lines = list(self._log_lines(player))
        said = "\n".join(lines) or self._("No moves yet.")
        self.console.print(Panel(Text(said), title=self._("game log")))

    def _hint(self, view: object, legal: Sequence[Move]) -> None:
        if self.adviser is None:
            self.console.print(self._("No adviser is available for this game."))
            return
        with self.thinking(self._("The adviser is thinking…")):
            said = advice(self.adviser, self.words, view, legal, self.speech)
        self.console.print(self._advised(said))

    def _advised(self, text: str) -> Text:
        """Advice (see :func:`advice`) in cyan: an agent's own explanation as it is, the
        game's words with their notation in bold."""
        if speaks_source(self.speech):
            return Text(text, style="cyan")
        return Text.from_markup(markup(text), style="cyan")

    def _menu(self, view: object, legal: Sequence[Move], *, full: bool) -> None:
        words = self.words
        if full:
            labels = [
                f"[bold]{n}[/] {markup(words.move_label(view, m))}" for n, m in enumerate(legal, 1)
            ]
            self.console.print(Columns(labels, padding=(0, 3)))
            return
        more = self._("(and {n} more like it)")
        samples = [
            f"[bold]{n}[/] {markup(words.move_label(view, legal[n - 1]))}"
            + (f" [dim]{escape(more.format(n=count - 1))}[/]" if count > 1 else "")
            for n, count in kinds_of(legal)[:3]
        ]
        self.console.print(Columns(samples, padding=(0, 3)))
        self.console.print(markup(words.many_moves(view, legal)))

    def _help(self) -> None:
        self.console.print(
            Panel(
                markup(self.words.help()) + "\n\n" + markup(self._(COMMANDS)),
                title=self._("help"),
            )
        )

    def _summary(self, state: State, quit_game: bool) -> None:
        view = state.view(self.narrator)
        self.console.print(self.drawer.table(view, self.table()))
        result = RichTable(title=self._("Game abandoned") if quit_game else self._("Final result"))
        result.add_column(self._("player"))
        result.add_column(self._(self.drawer.score_label), justify="right")
        result.add_column("")
        winners = state.winners()
        scores = state.scores()
        for seat in sorted(range(len(self.seats)), key=lambda p: -scores[p]):
            mark = self._("winner") if seat in winners else ""
            if mark and len(winners) > 1:
                mark = self._("shared win")
            result.add_row(self.table().player(seat), str(scores[seat]), mark)
        self.console.print(result)


class _PrivateScreen(AbstractContextManager[None]):
    """One person's table on the alternate screen, wiped with the scrollback before it is
    left; on output that is not a terminal (warned about at the start), nothing."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def _write(self, control: str) -> None:
        if self.console.is_terminal:
            self.console.file.write(control)
            self.console.file.flush()

    def __enter__(self) -> None:
        self._write(PRIVATE_ON)

    def __exit__(self, *exc: object) -> None:
        self._write(PRIVATE_OFF)


def kinds_of(legal: Sequence[Move]) -> list[tuple[int, int]]:
    """The kinds of move in ``legal``, most common first: each as the number (from 1) of its
    first move in the menu and how many moves of that kind there are."""
    counts = Counter(type(move) for move in legal)
    first: dict[type, int] = {}
    for number, move in enumerate(legal, 1):
        first.setdefault(type(move), number)
    return sorted(
        ((first[kind], count) for kind, count in counts.items()), key=lambda x: (-x[1], x[0])
    )


def seats_for(
    kinds: Sequence[str], make: Callable[[str, int], Agent[Any]], speech: Speech = ENGLISH
) -> list[Seat]:
    """Seats from kinds such as ``human,random``: people by seat number (``Player 1``, in the
    language of ``speech``), bots by their level (the same in every language)."""
    return [
        Seat(speech.gettext("Player {n}").format(n=seat + 1))
        if kind == "human"
        else Seat(f"Bot {seat + 1} ({kind})", make(kind, seat))
        for seat, kind in enumerate(kinds)
    ]


def kinds_from_names(names: Sequence[str]) -> list[str]:
    """The seat kinds :func:`seats_for` made ``names`` from (``human`` or an agent name)."""
    kinds = []
    for seat, name in enumerate(names):
        prefix = f"Bot {seat + 1} ("
        bot = name.startswith(prefix) and name.endswith(")")
        kinds.append(name[len(prefix) : -1] if bot else "human")
    return kinds
