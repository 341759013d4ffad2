"""Lessons: a guided game from a fixed position with dictated chance, read from data and checked.

Each game may ship ``lesson.toml`` in its folder (see the Auf die Eier one for the format). A
:class:`Lesson` is a list of :class:`Step`: each says a sentence or two to the learner, points
at one part of the board (a name from the lesson's own closed set ``points``), names the rule
ids it teaches (the ids of the game's rules page, see :mod:`.rule_ids`), and either asks the
learner for a move (``expect``), lets chance show a dictated outcome (``dictate``), makes a
scripted move of another seat (``opponent``), or only explains. A :class:`Finale` closes the
lesson: a short real game from its own ``setup`` moves, which the surface plays against the
gentlest bot with hints on.

:func:`check_lesson` walks a lesson through the engine and raises :class:`LessonError`, naming
the step, for a move that is not legal where it stands, a dictated outcome that is not an
outcome of that chance node, a rule id the rules page does not have, or a rule of the page no
step teaches. :class:`LessonRun` drives a lesson on a :class:`~spieltisch.session.Table`: the
current step, :meth:`LessonRun.try_move` (accepted, refused with the engine's reason, or legal
but not the lesson's move, with the step's ``why_not`` or an adviser's ratings; each answer
to another move ends with what the step asks for, in the game's words and its notation) and
:meth:`LessonRun.advance` past the steps that ask for no move.

Reading the lesson file and the rules pages is the only I/O; the rest is pure.
"""

from __future__ import annotations

import enum
import gettext
import importlib.resources
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import spieltisch
from spieltisch.core.agent import Agent
from spieltisch.core.errors import (
    IllegalActionError,
    NotEnumerableError,
    SpieltischError,
    UnknownGameError,
)
from spieltisch.core.game import Game, Move, OptionValue, PlayerId, State
from spieltisch.games import REGISTRY, kit_of
from spieltisch.locale import LANGUAGES, N_
from spieltisch.session.rule_ids import rule_ids
from spieltisch.session.table import Table

LESSON_FILE = "lesson.toml"
"""The lesson's file name in a game's folder."""
_STEP_KEYS = frozenset({"say", "point", "teaches", "expect", "dictate", "opponent", "why_not"})
_LESSON_KEYS = frozenset({"game", "players", "learner", "seats", "points", "options", "setup"})
_FINALE_KEYS = frozenset({"say", "setup", "hints"})


class LessonError(SpieltischError, ValueError):
    """A lesson that cannot be read or does not hold against the engine or its rules page.

    ``step`` is the 1-based number of the step at fault, or ``None`` when the fault is the
    lesson's as a whole (its file, its finale, a rule no step teaches)."""

    def __init__(self, game_id: str, step: int | None, reason: str) -> None:
        self.game_id = game_id
        self.step = step
        self.reason = reason
        where = f", step {step}" if step is not None else ""
        super().__init__(f"lesson {game_id}{where}: {reason}")

    def __reduce__(self) -> tuple[type[LessonError], tuple[str, int | None, str]]:
        """Pickled by its parts (a worker process sends it back to the server whole)."""
        return type(self), (self.game_id, self.step, self.reason)


class NoLessonError(LessonError):
    """The game has no lesson yet."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id, None, f"{game_id} has no lesson yet")

    def __reduce__(self) -> tuple[type[NoLessonError], tuple[str]]:  # type: ignore[override]
        return NoLessonError, (self.game_id,)


class StepKind(enum.Enum):
    """What a step asks of the learner."""

    EXPLAIN = "explain"
    """Only words: read on."""
    MOVE = "move"
    """The learner makes the step's ``expect`` move."""
    CHANCE = "chance"
    """Chance shows the step's ``dictate`` outcome."""
    OPPONENT = "opponent"
    """Another seat makes the step's scripted move."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson (see the module docstring)."""

    number: int
    """1-based, as errors and surfaces name it."""
    say: str
    point: str
    teaches: tuple[str, ...]
    expect: str | None = None
    dictate: str | None = None
    opponent: str | None = None
    why_not: tuple[tuple[str, str], ...] = ()
    """Tempting other moves of an ``expect`` step, each with why it is not the one."""

    @property
    def kind(self) -> StepKind:
        """What the step asks of the learner."""
        if self.expect is not None:
            return StepKind.MOVE
        if self.dictate is not None:
            return StepKind.CHANCE
        return StepKind.EXPLAIN if self.opponent is None else StepKind.OPPONENT

    @property
    def move_text(self) -> str | None:
        """The step's move or outcome as the lesson writes it (``None``: only words)."""
        return self.expect or self.dictate or self.opponent


@dataclass(frozen=True, slots=True)
class Finale:
    """The short real game after the steps: its setup moves (from a new game) and its words."""

    say: str
    setup: tuple[str, ...] = ()
    hints: bool = True


@dataclass(frozen=True, slots=True)
class Lesson:
    """One game's lesson (see the module docstring)."""

    game_id: str
    players: int
    learner: PlayerId
    seats: tuple[str, ...]
    points: tuple[str, ...]
    """The board parts a step may point at (the game's own closed set)."""
    steps: tuple[Step, ...]
    finale: Finale
    options: tuple[tuple[str, OptionValue], ...] = ()
    setup: tuple[str, ...] = ()
    """Moves played before the first step, to reach the lesson's fixed position."""

    def game(self) -> Game:
        """The game the lesson is played in."""
        return spieltisch.load(self.game_id, self.players, **dict(self.options))

    def taught(self) -> frozenset[str]:
        """Every rule id some step teaches."""
        return frozenset(rule for step in self.steps for rule in step.teaches)


# --- reading ---------------------------------------------------------------------------------


def load_lesson(game_id: str, file: str = LESSON_FILE) -> Lesson:
    """The lesson shipped in the game's folder (as ``file``). :class:`UnknownGameError` for
    a game id that is not registered, :class:`NoLessonError` for a game without a lesson
    yet, :class:`LessonError` for a lesson file that cannot be read."""
    entry = next((e for e in REGISTRY.entries() if e.id == game_id), None)
    if entry is None:
        raise UnknownGameError(f"unknown game {game_id[:40]!r}")
    if entry.package is None:
        raise NoLessonError(game_id)
    resource = importlib.resources.files(entry.package) / file
    if not resource.is_file():
        raise NoLessonError(game_id)
    return parse_lesson(resource.read_text(encoding="utf-8"), game_id)


def has_lesson(game_id: str, file: str = LESSON_FILE) -> bool:
    """Whether the registered game ``game_id`` ships a lesson (as ``file``; read or not)."""
    entry = next((e for e in REGISTRY.entries() if e.id == game_id), None)
    if entry is None or entry.package is None:
        return False
    return (importlib.resources.files(entry.package) / file).is_file()


def parse_lesson(text: str, game_id: str) -> Lesson:
    """Read a lesson from its TOML text (the shape only: :func:`check_lesson` checks it)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(game_id, None, f"not TOML: {error}") from None
    head = _table(data.get("lesson"), game_id, None, "[lesson]")
    _known_keys(head, _LESSON_KEYS, game_id, None, "[lesson]")
    if head.get("game", game_id) != game_id:
        raise LessonError(game_id, None, f"the file is the lesson of {head.get('game')!r}")
    players = head.get("players")
    learner = head.get("learner", 0)
    if not isinstance(players, int) or not isinstance(learner, int):
        raise LessonError(game_id, None, "[lesson] needs whole numbers players and learner")
    options = _table(head.get("options", {}), game_id, None, "[lesson] options")
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise LessonError(game_id, None, "a lesson needs at least one [[steps]]")
    steps = tuple(_step(raw, number, game_id) for number, raw in enumerate(steps_data, 1))
    finale = _table(data.get("finale"), game_id, None, "[finale]")
    _known_keys(finale, _FINALE_KEYS, game_id, None, "[finale]")
    return Lesson(
        game_id=game_id,
        players=players,
        learner=learner,
        seats=_strings(head.get("seats", []), game_id, None, "seats"),
        points=_strings(head.get("points"), game_id, None, "points"),
        steps=steps,
        finale=Finale(
            say=_text(finale.get("say"), game_id, None, "the finale's say"),
            setup=_strings(finale.get("setup", []), game_id, None, "the finale's setup"),
            hints=bool(finale.get("hints", True)),
        ),
        options=tuple(sorted((str(k), _option(v, game_id)) for k, v in options.items())),
        setup=_strings(head.get("setup", []), game_id, None, "setup"),
    )


def _step(raw: object, number: int, game_id: str) -> Step:
    data = _table(raw, game_id, number, "a step")
    _known_keys(data, _STEP_KEYS, game_id, number, "a step")
    moves = [key for key in ("expect", "dictate", "opponent") if key in data]
    if len(moves) > 1:
        raise LessonError(
            game_id, number, f"a step has one move at most, not {' and '.join(moves)}"
        )
    why_not = _table(data.get("why_not", {}), game_id, number, "why_not")
    if why_not and "expect" not in data:
        raise LessonError(game_id, number, "why_not explains other moves of an expect step only")
    return Step(
        number=number,
        say=_text(data.get("say"), game_id, number, "say"),
        point=_text(data.get("point"), game_id, number, "point"),
        teaches=_strings(data.get("teaches"), game_id, number, "teaches"),
        expect=_optional_text(data.get("expect"), game_id, number, "expect"),
        dictate=_optional_text(data.get("dictate"), game_id, number, "dictate"),
        opponent=_optional_text(data.get("opponent"), game_id, number, "opponent"),
        why_not=tuple(
            (str(move), _text(why, game_id, number, "why_not")) for move, why in why_not.items()
        ),
    )


def _table(value: object, game_id: str, step: int | None, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LessonError(game_id, step, f"{what} is missing or not a table")
    return value


def _known_keys(
    data: Mapping[str, object], known: frozenset[str], game_id: str, step: int | None, what: str
) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise LessonError(game_id, step, f"{what} has unknown keys {', '.join(unknown)}")


def _text(value: object, game_id: str, step: int | None, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LessonError(game_id, step, f"{what} must be a text that is not empty")
    return value.strip()


def _optional_text(value: object, game_id: str, step: int | None, what: str) -> str | None:
    return None if value is None else _text(value, game_id, step, what)


def _strings(value: object, game_id: str, step: int | None, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise LessonError(game_id, step, f"{what} must be a list of texts")
    return tuple(value)


def _option(value: object, game_id: str) -> OptionValue:
    if not isinstance(value, bool | int | str):
        raise LessonError(game_id, None, "an option's value must be true/false, a number or text")
    return value


# --- checking --------------------------------------------------------------------------------


def check_lesson(lesson: Lesson, pages: Mapping[str, str] | None = None) -> None:
    """Walk ``lesson`` through the engine and against its rules ``pages`` (by language; the
    shipped rules pages when not given); :class:`LessonError` naming the step at fault (see
    the module docstring)."""
    game_id = lesson.game_id
    try:
        game = lesson.game()
    except SpieltischError as error:
        raise LessonError(game_id, None, str(error)) from None
    if not 0 <= lesson.learner < game.players:
        raise LessonError(game_id, None, f"there is no seat {lesson.learner} to learn at")
    if lesson.seats and len(lesson.seats) != game.players:
        raise LessonError(game_id, None, f"seats names {len(lesson.seats)} seats")
    known = _page_ids(lesson, pages)
    for step in lesson.steps:
        if step.point not in lesson.points:
            raise LessonError(game_id, step.number, f"it points at {step.point!r}, not a part")
        for rule in step.teaches:
            if rule not in known:
                raise LessonError(game_id, step.number, f"the rules page has no rule {rule}")
    untaught = [rule for rule in known if rule not in lesson.taught()]
    if untaught:
        raise LessonError(game_id, None, f"no step teaches {', '.join(untaught)}")
    table = Table(game, lesson.seats)
    _play_setup(table, lesson.setup, lesson, "the setup")
    for step in lesson.steps:
        _check_step(table, step, lesson)
    finale = Table(game, lesson.seats)
    _play_setup(finale, lesson.finale.setup, lesson, "the finale's setup")
    if finale.over:
        raise LessonError(game_id, None, "the finale's setup ends the game")


def _page_ids(lesson: Lesson, pages: Mapping[str, str] | None) -> tuple[str, ...]:
    """The rule ids of the lesson's rules page, the same in every language."""
    texts = pages or {
        language: spieltisch.rules_page(lesson.game_id, language) for language in LANGUAGES
    }
    english = tuple(rule_ids(texts.get("en", "")))
    if not english:
        raise LessonError(lesson.game_id, None, "the rules page has no rule ids")
    for language, text in texts.items():
        ids = set(rule_ids(text))
        if ids != set(english):
            differ = sorted(ids ^ set(english))
            raise LessonError(
                lesson.game_id, None, f"the {language} rules page differs in {', '.join(differ)}"
            )
    return english


def _play_setup(table: Table, moves: Sequence[str], lesson: Lesson, what: str) -> None:
    for index, text in enumerate(moves, 1):
        try:
            _play_any(table, text)
        except SpieltischError as error:
            raise LessonError(lesson.game_id, None, f"{what}, move {index}: {error}") from None


def _play_any(table: Table, text: str) -> None:
    """Play ``text`` here: a dictated outcome at chance, else the move of the seat to act."""
    move = table.state.parse(text)
    if table.state.is_chance():
        _check_outcome(table.state, move, text)
        table.advance_chance(move)
    else:
        table.play(move)


def _check_outcome(state: State, move: Move, text: str) -> None:
    """Raise unless ``move`` is an outcome of the chance node ``state``."""
    try:
        outcomes = {outcome for outcome, chance in state.chance_outcomes() if chance > 0}
    except NotEnumerableError:
        state.apply(move)  # too many to list: the rules still refuse an impossible outcome
        return
    if move not in outcomes:
        raise IllegalActionError(text, "no throw or deal here can show that")


def _check_step(table: Table, step: Step, lesson: Lesson) -> None:
    game_id, text = lesson.game_id, step.move_text
    if text is None:
        return
    to_act = table.to_act()
    kind = step.kind
    if kind is StepKind.CHANCE and not table.state.is_chance():
        raise LessonError(game_id, step.number, f"chance does not act here, so {text!r} cannot")
    if kind is StepKind.MOVE and to_act != lesson.learner:
        raise LessonError(game_id, step.number, f"the learner is not to move for {text!r}")
    if kind is StepKind.OPPONENT and to_act in (None, lesson.learner):
        raise LessonError(game_id, step.number, f"no other seat is to move for {text!r}")
    try:
        if kind is StepKind.MOVE:
            _check_why_not(table, step, lesson)
        _play_any(table, text)
    except SpieltischError as error:
        raise LessonError(game_id, step.number, str(error)) from None


def _check_why_not(table: Table, step: Step, lesson: Lesson) -> None:
    expected = table.state.parse(step.expect or "")
    legal = table.legal()
    for text, _ in step.why_not:
        move = table.state.parse(text)
        if move == expected:
            raise LessonError(lesson.game_id, step.number, f"why_not {text!r} is the move asked")
        if move not in legal:
            raise LessonError(lesson.game_id, step.number, f"why_not {text!r} is not legal here")


# --- running ---------------------------------------------------------------------------------


class Verdict(enum.Enum):
    """How a learner's move was taken."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    """Unreadable, or the rules forbid it (the message says so, with the rules' reason, and
    what the step asks for)."""
    OTHER = "other"
    """Legal, but not the lesson's move (the message says why the lesson's is wanted, and
    what it is)."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """What became of one move the learner tried."""

    verdict: Verdict
    message: str
    move: str = ""
    """The canonical text of the move tried, when it could be read."""


_NOTHING_ASKED = N_("No move is asked for now; read on.")
_ASKS = N_("This step asks for another move: {wanted}, in notation `{move}`.")
_ASKS_NOTATION = N_("This step asks for another move: `{move}`.")
"""What the step asks for, after every answer to another move: in the game's own words for
it (its label on the board), its notation beside them (alone where the two are the same)."""
_FORBIDDEN = N_("The rules do not allow that move (`{move}`) here: {rule}.")
_UNREADABLE = N_("That is not a move of this game (`{move}`).")
_NOT_THIS = N_("That move (`{move}`) is allowed, but it is not the one this step is about.")
_WEAKER = N_(
    "That move (`{move}`) is legal but weaker: the strongest bot expects {value} ({unit}) "
    "from it and {best} from the step's move."
)
_AS_GOOD = N_(
    "That move (`{move}`) is legal and about as good ({value} against {best}, {unit}), but "
    "this lesson asks for another one to show the rule at hand."
)
_ILLEGAL = N_("illegal move {move}: {rule}")
_ECHO = 40
"""The most characters of an unreadable move said back to the learner."""
_UNITS = (N_("expected points this turn"), N_("win chance"))
"""The units the agents rate moves in (said in the learner's language)."""


class LessonRun:
    """One learner going through a lesson on a table (see the module docstring).

    The table starts at the lesson's fixed position; entering a step that dictates chance or
    scripts another seat's move applies that move at once, so the board shows it while the
    step's words are read. ``adviser`` (the game's strongest agent, if the surface has one)
    rates a legal move that is not the lesson's when the step has no ``why_not`` for it.
    ``speech`` says the run's answers in the learner's language (the lesson's own words are
    msgids of the catalogs; English without it).
    """

    def __init__(
        self,
        lesson: Lesson,
        adviser: Agent[Any] | None = None,
        speech: gettext.NullTranslations | None = None,
    ) -> None:
        self.lesson = lesson
        self.game = lesson.game()
        self.adviser = adviser
        self.speech = speech or gettext.NullTranslations()
        self.table = Table(self.game, lesson.seats)
        for text in lesson.setup:
            _play_any(self.table, text)
        self.index = 0
        self._enter()

    @property
    def step(self) -> Step | None:
        """The current step (``None`` once every step is done)."""
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def done(self) -> bool:
        """True once every step is done (the finale comes next)."""
        return self.step is None

    def advance(self) -> None:
        """Go on past a step that asks for no move; :class:`LessonError` at a move step."""
        step = self.step
        if step is None:
            raise LessonError(self.lesson.game_id, None, "the lesson is over")
        if step.kind is StepKind.MOVE:
            raise LessonError(self.lesson.game_id, step.number, "this step waits for a move")
        self.index += 1
        self._enter()

    def follow(self, until: int) -> None:
        """Do every step before step number ``until`` (1-based) as the lesson says: its move
        where it asks for one, on past the others; from where the run stands."""
        while (step := self.step) is not None and step.number < until:
            if step.expect is None:
                self.advance()
            elif self.try_move(step.expect).verdict is not Verdict.ACCEPTED:
                raise LessonError(self.lesson.game_id, step.number, "its move is not taken")

    def wanted(self) -> tuple[str, str] | None:
        """The current step's move as the learner's board words it (its label among the
        legal moves, in the learner's language) and in canonical notation (as a board sends
        it); ``None`` at a step that asks for no move."""
        step = self.step
        if step is None or step.expect is None:
            return None
        move = self.table.state.parse(step.expect)
        words = kit_of(self.game).words.speaking(self.speech)
        return words.move_label(self.table.view(self.lesson.learner), move), str(move)

    def try_move(self, text: str) -> Attempt:
        """Try the learner's move ``text`` at the current step; the table changes only when
        the move is the lesson's (and the lesson then goes on to the next step). Any other
        move is answered in the learner's language: why not (the rules' reason, the step's
        own words for a tempting move, or the adviser's ratings), then what the step asks
        for instead (:meth:`wanted`)."""
        step = self.step
        if step is None or step.expect is None:
            return Attempt(Verdict.REFUSED, self.speech.gettext(_NOTHING_ASKED))
        state = self.table.state
        try:
            move = state.parse(text)
            state.apply(move)  # the rules' own refusal, the table untouched
        except SpieltischError as error:
            return Attempt(Verdict.REFUSED, self._asks(self._refused(error, text)))
        if move != state.parse(step.expect):
            return Attempt(Verdict.OTHER, self._asks(self._why_not(step, move)), str(move))
        self.table.play(move, by=self.lesson.learner)
        self.index += 1
        self._enter()
        return Attempt(Verdict.ACCEPTED, "", str(move))

    def _refused(self, error: SpieltischError, text: str) -> str:
        """Why the rules refuse the learner's ``text`` here (or cannot read it)."""
        _ = self.speech.gettext
        if isinstance(error, IllegalActionError):
            return _(_FORBIDDEN).format(move=error.action, rule=rule_text(error, self.speech))
        echo = " ".join(text.replace("`", "").split())[:_ECHO]
        return _(_UNREADABLE).format(move=echo)

    def _asks(self, answer: str) -> str:
        """``answer`` to another move, and what the step asks for instead."""
        step, wanted = self.step, self.wanted()
        if step is None or step.expect is None or wanted is None:
            return answer
        (label, canonical), expected = wanted, step.expect
        if label in (canonical, expected):
            asks = self.speech.gettext(_ASKS_NOTATION).format(move=expected)
        else:
            asks = self.speech.gettext(_ASKS).format(wanted=label, move=expected)
        return f"{answer} {asks}"

    def finale_table(self, seed: int) -> Table:
        """A new table for the finale, its setup played, chance from ``seed`` after that."""
        return finale_table(self.lesson, seed)

    def _enter(self) -> None:
        step = self.step
        if step is not None and step.kind in (StepKind.CHANCE, StepKind.OPPONENT):
            _play_any(self.table, step.move_text or "")

    def _why_not(self, step: Step, move: Move) -> str:
        """Why the lesson wants its own move rather than the legal ``move``."""
        _ = self.speech.gettext
        state, expected_text = self.table.state, step.expect or ""
        for text, why in step.why_not:
            if state.parse(text) == move:
                return _(why)
        fallback = _(_NOT_THIS).format(move=move)
        if self.adviser is None:
            return fallback
        legal = self.table.legal()
        ratings = self.adviser.rate(state.view(self.lesson.learner), legal)
        mine = None if ratings is None else ratings.of(move)
        wanted = None if ratings is None else ratings.of(state.parse(expected_text))
        if ratings is None or mine is None or wanted is None:
            return fallback
        said = {
            "move": move,
            "value": _amount(mine.value, ratings.unit),
            "best": _amount(wanted.value, ratings.unit),
            "unit": _(ratings.unit),
        }
        return _(_WEAKER if mine.value < wanted.value else _AS_GOOD).format(**said)


def refusal_text(error: SpieltischError, speech: gettext.NullTranslations) -> str:
    """The rules' refusal of a move, said by ``speech``: the rule, and its detail where that is
    a fixed text (a detail worked out from the position is English only, so another language
    leaves it out, as a table's refusals do)."""
    if not isinstance(error, IllegalActionError):
        return str(error)
    return speech.gettext(_ILLEGAL).format(move=repr(error.action), rule=rule_text(error, speech))


def rule_text(error: IllegalActionError, speech: gettext.NullTranslations) -> str:
    """The rule that refuses a move, said by ``speech``, with its detail where that is a
    fixed text (see :func:`refusal_text`)."""
    _ = speech.gettext
    rule, detail, english = _(error.rule), _(error.detail), _(_ILLEGAL) == _ILLEGAL
    return f"{rule} ({detail})" if error.detail and (english or detail != error.detail) else rule


def _amount(value: float, unit: str) -> str:
    """A rated value as a person reads it: a chance in per cent, points with one decimal."""
    return f"{100 * value:.0f} %" if "chance" in unit else f"{value:.1f}"


# --- the finale ------------------------------------------------------------------------------


def finale_table(lesson: Lesson, seed: int) -> Table:
    """A new table for ``lesson``'s finale, its setup played, chance from ``seed`` after it."""
    table = Table(lesson.game(), lesson.seats, seed)
    for text in lesson.finale.setup:
        _play_any(table, text)
    return table


def replay_finale(lesson: Lesson, seed: int, moves: Sequence[str], opponent: Agent[Any]) -> Table:
    """The finale after the learner's ``moves`` (in order): chance from ``seed``, every
    other seat played by ``opponent`` (a new agent, seeded as it was at the start, so the
    same moves give the same game). Stops where the learner is to move next or the game is
    over. :class:`IllegalActionError` for a move the rules refuse where it stands, or for
    moves left over once the game is over; the table is not returned then."""
    table = finale_table(lesson, seed)
    pending = list(moves)
    pending.reverse()
    while not table.over:
        seat = table.to_act()
        if seat is None:
            table.advance_chance()
        elif seat != lesson.learner:
            table.play(opponent.act(table.view(seat), table.legal()), by=seat)
        elif pending:
            table.play_text(pending.pop(), by=seat)
        else:
            break
    if pending:
        raise IllegalActionError(pending[-1], "the game is over")
    return table
