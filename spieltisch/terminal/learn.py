"""Learning a game in the terminal: its lesson step by step, then a short real game.

Each step shows what it says and which part of the table it points at; the table is drawn
again whenever a move has changed it. A step that asks for a move reads one from the prompt:
the lesson's move goes on, a move the rules forbid is refused with the engine's reason, and
another legal move is explained (the step's own words for it, or the strongest bot's ratings)
and changes nothing. The other steps wait for Enter. ``rules`` shows the rule the step teaches
from the rules page, ``help`` the commands, ``quit`` (or the end of input) leaves. After the
last step comes the lesson's finale: a real game against the gentlest bot from the finale's
position, the strongest bot's hint shown before each of the learner's moves.

The lesson speaks the learner's language (``speech``, English unless given): its own words,
its answers, the prompts and titles here, the game's words and the table's drawing.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from spieltisch.core.agent import Agent
from spieltisch.core.game import Move, State
from spieltisch.core.words import N_
from spieltisch.games import kit_of
from spieltisch.session import Event
from spieltisch.session.lesson import Lesson, LessonRun, Step, StepKind, Verdict
from spieltisch.terminal.draw.base import TableInfo, markup
from spieltisch.terminal.drawers import drawer_for
from spieltisch.terminal.loop import (
    MAX_INPUT,
    Outcome,
    ReadLine,
    Seat,
    TerminalGame,
    advice,
    display_name,
)

HELP = N_(
    "At a step that asks for a move, type it in the game's notation. `rules` shows the rules "
    "this step teaches, `again` repeats the step, `table` draws the table, `quit` leaves the "
    "lesson. Other steps go on with Enter."
)
"""The lesson's commands (English; said in the learner's language)."""
POINTS = {
    # TRANSLATORS: the parts of a game's table a lesson's step points at ("look at: dice")
    "area-2": N_("area 2"),
    "area-3": N_("area 3"),
    "area-4": N_("area 4"),
    "board": N_("board"),
    "choices": N_("choices"),
    "controls": N_("controls"),
    "deck": N_("deck"),
    "dice": N_("dice"),
    "eggs": N_("eggs"),
    "face-up": N_("face up"),
    "females": N_("females"),
    "hand": N_("hand"),
    "heir": N_("heir"),
    "kept-jokers": N_("kept jokers"),
    "ladder": N_("ladder"),
    "last-trick": N_("last trick"),
    "last-turn": N_("last turn"),
    "mating": N_("mating"),
    "opponent-hand": N_("opponent hand"),
    "opponent-piles": N_("opponent piles"),
    "opponent-stores": N_("opponent stores"),
    "piles": N_("piles"),
    "players": N_("players"),
    "raccoon": N_("raccoon"),
    "rotten": N_("rotten"),
    "score": N_("score"),
    "score-sheet": N_("score sheet"),
    "scores": N_("scores"),
    "scoring-pile": N_("scoring pile"),
    "stacks": N_("stacks"),
    "stage": N_("stage"),
    "throws": N_("throws"),
    "track": N_("track"),
    "trick": N_("trick"),
    "your-stores": N_("your stores"),
}
"""The board parts the lessons point at, by their id, in words (English: the id without its
hyphens; said in the learner's language). A part not listed is shown as its id says it."""


@dataclass(frozen=True, slots=True)
class LearnOutcome:
    """How a lesson in the terminal ended: steps done, whether the finale was played to its
    end, and whether the learner left early."""

    steps_done: int
    finale_over: bool
    quit: bool


class _QuitError(Exception):
    """The learner typed ``quit`` or input ended."""


class TerminalLesson:
    """One lesson in the terminal (see the module docstring)."""

    def __init__(
        self,
        lesson: Lesson,
        console: Console,
        read_line: ReadLine,
        *,
        rules: dict[str, str],
        adviser: Agent[Any] | None = None,
        opponent: tuple[str, Agent[Any]] | None = None,
        seed: int = 0,
        speech: gettext.NullTranslations | None = None,
    ) -> None:
        self.lesson = lesson
        self.speech = speech or gettext.NullTranslations()
        """Says everything in the learner's language: the lesson's words and answers, the
        prompts and titles, the game's words and the table's drawing."""
        self.console = console
        self.read_line = read_line
        self.rules = rules
        """The rules page's rules by id (see :func:`~spieltisch.session.rule_ids.rule_ids`)."""
        self.adviser = adviser
        self.opponent = opponent
        """The finale's bot: its name and agent."""
        self.seed = seed
        self.run = LessonRun(lesson, adviser, self.speech)
        self.game = self.run.game
        self.words = kit_of(self.game).words.speaking(self.speech)
        self.drawer = drawer_for(self.game.info.id)
        self.names = tuple(
            display_name(p, name, self.speech) for p, name in enumerate(self.run.table.seats)
        )
        self._shown = self._told = self.run.table.version

    def play(self) -> LearnOutcome:
        """The whole lesson, then the finale."""
        console, _ = self.console, self.speech.gettext
        count = len(self.lesson.steps)
        title = _("Learn {game}").format(game=self.game.info.name)
        steps = self.speech.ngettext("{n} step", "{n} steps", count).format(n=count)
        console.print(f"[bold]{escape(title)}[/] · {escape(steps)}")
        try:
            self._draw()
            while (step := self.run.step) is not None:
                self._show(step)
                if step.kind is StepKind.MOVE:
                    self._ask_move(step)
                else:
                    self._wait(step)
                    self.run.advance()
            finale = _(self.lesson.finale.say)
            console.print(Panel(markup(finale), title=_("Your first game")))
            self._wait(None)
        except (_QuitError, KeyboardInterrupt):
            console.print(_("You left the lesson."))
            return LearnOutcome(self.run.index, False, True)
        outcome = self._finale()
        return LearnOutcome(len(self.lesson.steps), outcome.state.is_terminal(), outcome.quit)

    # --- steps -----------------------------------------------------------------------------

    def _(self, message: str) -> str:
        """``message`` (an English msgid, as written) in the learner's language."""
        return self.speech.gettext(message)

    def _show(self, step: Step) -> None:
        """The step's words, after the table when a move has changed it."""
        self._tell_new_moves()
        if self.run.table.version != self._shown:
            self._draw()
        part = POINTS.get(step.point)
        where = self._(part) if part is not None else step.point.replace("-", " ")
        number = self._("Step {n} of {total}").format(n=step.number, total=len(self.lesson.steps))
        title = f"{number} · " + self._("look at: {part}").format(part=where)
        said = markup(self._(step.say))
        self.console.print(Panel(said, title=title, title_align="left"))

    def _ask_move(self, step: Step) -> None:
        while True:
            line = self._line(self._("Your move:") + " ", step)
            if line is None:
                continue
            attempt = self.run.try_move(line)
            if attempt.verdict is Verdict.ACCEPTED:
                yes = self._("Yes: {move}.").format(move=attempt.move)
                self.console.print(Text(yes, style="green"))
                return
            style = "red" if attempt.verdict is Verdict.REFUSED else "yellow"
            self.console.print(Text(attempt.message, style=style))

    def _wait(self, step: Step | None) -> None:
        while self._line(self._("Press Enter to go on:") + " ", step) is None:
            pass

    def _line(self, prompt: str, step: Step | None) -> str | None:
        """A line read at ``prompt``: ``None`` after a command was answered; raises
        :class:`_QuitError` for ``quit`` or the end of input."""
        try:
            raw = self.read_line(prompt)
        except EOFError:
            raise _QuitError from None
        line = raw.strip()[:MAX_INPUT]
        command = line.lower()
        if command in {"quit", "exit", "q"}:
            raise _QuitError
        if command in {"help", "?", "h"}:
            self.console.print(Panel(markup(self._(HELP)), title=self._("help")))
            return None
        if command == "rules" and step is not None:
            for rule in step.teaches or ():
                self.console.print(Panel(Markdown(self.rules.get(rule, rule)), title=rule))
            if not step.teaches:
                self.console.print(self._("This step adds no new rule."))
            return None
        if command == "again" and step is not None:
            self._show(step)
            return None
        if command == "table":
            self._draw()
            return None
        if step is None or step.kind is not StepKind.MOVE:
            return line  # any line goes on, an empty one too
        return line or None

    def _draw(self) -> None:
        board = self.run.table
        self.console.print(self.drawer.table(board.view(self.lesson.learner), self._info()))
        self._shown = board.version

    def _info(self) -> TableInfo:
        return TableInfo(self.names, (), self.speech)

    def _tell_new_moves(self) -> None:
        """Say the moves made since the last step was shown (chance, the other seat's)."""
        board = self.run.table
        for version in range(self._told + 1, board.version + 1):
            event = board.event_at(version, self.lesson.learner)
            if event.actor != self.lesson.learner:  # the learner's own move was just made
                self._say_event(event)
        self._told = board.version

    def _say_event(self, event: Event) -> None:
        board = self.run.table
        before = board.view(self.lesson.learner, at=event.version - 1)
        actor = self._("chance") if event.actor is None else self.names[event.actor]
        line = self.words.event(before, event.move, self.names, actor)
        after = self.words.aftermath(
            before, board.view(self.lesson.learner, at=event.version), self.names
        )
        for text in (line, after):
            if text:
                self.console.print(markup(text))

    # --- the finale ------------------------------------------------------------------------

    def _finale(self) -> Outcome:
        board = self.run.finale_table(self.seed)
        seats = [Seat(name) for name in board.seats]
        if self.opponent is not None:
            for seat in range(len(seats)):
                if seat != self.lesson.learner:
                    seats[seat] = Seat(self.opponent[0], self.opponent[1])
        hints = self.adviser if self.lesson.finale.hints else None
        game = _HintedGame(
            self.game,
            seats,
            self.seed,
            self.console,
            self.read_line,
            "",
            hints,
            0.0,
            board,
            speech=self.speech,
        )
        return game.run()


class _HintedGame(TerminalGame):
    """The finale: a terminal game that shows the adviser's hint before each of the
    learner's moves."""

    def _choose(self, state: State, player: int) -> Event | None:
        legal: Sequence[Move] = state.legal_actions()
        if self.adviser is not None and len(legal) > 1:
            said = advice(self.adviser, self.words, state.view(player), legal, self.speech)
            self.console.print(self._advised(self._("Hint: {advice}").format(advice=said)))
        return super()._choose(state, player)
