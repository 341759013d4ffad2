"""Lessons: the shipped Auf die Eier lesson holds against the engine and its rules page and
walks to its end; broken lessons fail naming the step; the runner takes, refuses and explains
moves; rule ids read the same from both languages of a rules page."""

from __future__ import annotations

import dataclasses
import pickle
import re

import pytest

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.errors import UnknownGameError
from spieltisch.games import REGISTRY
from spieltisch.locale import translation
from spieltisch.session.lesson import (
    Lesson,
    LessonError,
    LessonRun,
    NoLessonError,
    StepKind,
    Verdict,
    check_lesson,
    has_lesson,
    load_lesson,
    parse_lesson,
)
from spieltisch.session.rule_ids import RuleIdError, rule_ids, split_marker, strip_rule_ids

GAME = "auf-die-eier"


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return load_lesson(GAME)


def with_step(lesson: Lesson, number: int, **changes: object) -> Lesson:
    """``lesson`` with step ``number`` changed."""
    steps = list(lesson.steps)
    steps[number - 1] = dataclasses.replace(steps[number - 1], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(lesson, steps=tuple(steps))


def step_of(lesson: Lesson, text: str) -> int:
    """The number of the first step whose move is ``text``."""
    return next(step.number for step in lesson.steps if step.move_text == text)


# --- the shipped lesson ------------------------------------------------------------------------


SHIPPED = [entry.id for entry in REGISTRY.entries() if has_lesson(entry.id)]
"""Every game that ships a lesson (each of the four)."""


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_lesson_holds_and_teaches_every_rule_of_both_pages(game: str) -> None:
    shipped = load_lesson(game)
    check_lesson(shipped)
    english = rule_ids(spieltisch.rules_page(game))
    assert list(english) == list(rule_ids(spieltisch.rules_page(game, "de")))
    assert shipped.taught() == set(english) and len(english) >= 30
    prefix = {rule.split(".")[0] for rule in english}
    assert len(prefix) == 1, prefix  # one game's short name before every id
    assert all(step.point in shipped.points for step in shipped.steps)
    kinds = {step.kind for step in shipped.steps}
    assert kinds == set(StepKind)  # words, the learner's moves, dictated chance, the opponent
    for step in shipped.steps:
        if step.kind is StepKind.MOVE:  # its notation is named in the step's words, as an aside
            assert f"`{step.expect}`" in step.say, (game, step.number)  # (the terminal's way)


def test_the_four_games_ship_a_lesson() -> None:
    assert len(SHIPPED) == 4


TYPE_IT = re.compile(r"(?i)\b(?:type|tippe|tipp)\b[^`.:;]*`")
SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("game", SHIPPED)
def test_no_lesson_text_tells_to_type_or_names_an_option_id(game: str) -> None:
    """Seen by a German group in the browser: "tippe `reroll H`" where the board takes a
    click, and option ids (`tie_break`, `blocked_duties=bound`) in the prose. A lesson's
    words say what to do and what a table option does in words, in either language; the
    notation of a move stays as an aside."""
    shipped = load_lesson(game)
    german = translation("de")
    options = [spec.name for spec in shipped.game().info.options]
    texts = [shipped.finale.say]
    for step in shipped.steps:
        texts += [step.say, *(why for _, why in step.why_not)]
    for english in texts:
        for text in (english, german.gettext(english)):
            assert not TYPE_IT.search(text), (game, text)
            assert not SNAKE_CASE.search(text), (game, text)
            named = [name for name in options if f"`{name}" in text or f"{name}=" in text]
            assert not named, (game, named, text)


def test_the_lesson_walks_to_its_end_through_the_engine(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    moves = 0
    while (step := run.step) is not None:
        if step.kind is StepKind.MOVE:
            assert step.expect is not None
            attempt = run.try_move(step.expect)
            assert attempt.verdict is Verdict.ACCEPTED, (step.number, attempt)
            moves += 1
        else:
            version = run.table.version
            assert run.try_move("stop").verdict is Verdict.REFUSED  # no move is asked here
            assert run.table.version == version
            run.advance()
    assert run.done and moves == 4
    assert run.table.state.scores() == (45, 10)  # 16 + 29 for the learner, 10 for the opponent
    with pytest.raises(LessonError, match="the lesson is over"):
        run.advance()
    finale = run.finale_table(seed=1)
    assert finale.state.scores() == (81, 81) and not finale.over
    assert finale.state.is_chance()  # the learner's first throw of the real game comes next


def test_following_does_the_steps_as_the_lesson_says(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    first = next(step.number for step in lesson.steps if step.kind is StepKind.MOVE)
    run.follow(first + 1)
    assert run.step is not None and run.step.number == first + 1
    asked = lesson.steps[first - 1].expect
    assert asked in [str(move) for move in run.table.moves]  # the lesson's move, played
    run.follow(len(lesson.steps) + 1)
    assert run.done
    broken = with_step(lesson, first, expect="reroll R")  # a move the rules refuse there
    with pytest.raises(LessonError, match=f"step {first}: its move is not taken"):
        LessonRun(broken).follow(first + 1)


def test_a_step_without_a_move_refuses_moves_and_a_move_step_waits(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    first = run.step
    assert first is not None and first.kind is StepKind.EXPLAIN
    assert run.try_move("stop").verdict is Verdict.REFUSED
    while run.step is not None and run.step.kind is not StepKind.MOVE:
        run.advance()
    with pytest.raises(LessonError, match="waits for a move"):
        run.advance()


# --- the runner's answers ----------------------------------------------------------------------


def at_first_move(lesson: Lesson, adviser: object = None) -> LessonRun:
    run = LessonRun(lesson, adviser)  # type: ignore[arg-type]
    while run.step is not None and run.step.kind is not StepKind.MOVE:
        run.advance()
    return run


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(lesson: Lesson) -> None:
    run = at_first_move(lesson)
    version, step = run.table.version, run.step
    attempt = run.try_move("reroll R")
    assert attempt.verdict is Verdict.REFUSED
    assert "Rotten Eggs stay set aside" in attempt.message
    unreadable = run.try_move("throw everything")
    assert unreadable.verdict is Verdict.REFUSED
    assert "not a move of this game (`throw everything`)" in unreadable.message
    assert run.table.version == version and run.step == step


def test_a_tempting_move_is_answered_by_the_steps_own_words(lesson: Lesson) -> None:
    run = at_first_move(lesson)
    assert run.step is not None
    why = dict(run.step.why_not)["stop"]
    attempt = run.try_move("stop")
    asks = "This step asks for another move: `reroll H`."  # English words it as notation
    assert attempt == dataclasses.replace(attempt, verdict=Verdict.OTHER, message=f"{why} {asks}")
    assert run.table.version == 1  # the first throw, and nothing else


def test_another_legal_move_is_rated_by_the_adviser_or_plainly_named(lesson: Lesson) -> None:
    plain = at_first_move(lesson).try_move("reroll CC")
    assert plain.verdict is Verdict.OTHER
    assert plain.message == (
        "That move (`reroll CC`) is allowed, but it is not the one this step is about. "
        "This step asks for another move: `reroll H`."
    )
    game = lesson.game()
    rated = at_first_move(lesson, make_agent("expert", game, 0)).try_move("keep WCFFHH")
    assert rated.verdict is Verdict.OTHER and rated.move == "reroll CP"
    assert "legal but weaker" in rated.message and "expected points this turn" in rated.message


def nuesse_at_place_3(language: str) -> LessonRun:
    """Auf die Nüsse at the step that asks for `place 3` (green 2, white 1 and 6), in
    ``language``."""
    nuesse = load_lesson("auf-die-nuesse")
    run = LessonRun(nuesse, speech=translation(language))
    run.follow(step_of(nuesse, "place 3"))
    return run


def test_a_wrong_move_is_answered_with_the_move_the_step_asks_for_in_words() -> None:
    """Seen in German: a click on the wrong space answered "Zug 'place 2' nicht erlaubt".
    A move the rules forbid, a legal move that is not the step's, one the step has words for,
    and one that cannot be read are each answered in the learner's language, with what the
    step asks for in words (the notation beside it) and nothing changed."""
    run = nuesse_at_place_3("de")
    version = run.table.version
    wanted = "auf Feld 3 setzen (grün 2 + weiß 1)"  # the German board's own words for it
    forbidden = run.try_move("place 2")
    assert forbidden.verdict is Verdict.REFUSED
    assert not forbidden.message.startswith("Zug 'place 2' nicht erlaubt")
    assert "Regeln" in forbidden.message and "Eichhörnchen" in forbidden.message  # the rule
    tempting = run.try_move("place 8")  # the step's own words for it
    assert tempting.verdict is Verdict.OTHER and tempting.message.startswith("Feld 8 führt")
    unreadable = run.try_move("fly away")
    assert unreadable.verdict is Verdict.REFUSED and "cannot read" not in unreadable.message
    for attempt in (forbidden, tempting, unreadable):
        assert f"Dieser Schritt will einen anderen Zug: {wanted}" in attempt.message
        assert "`place 3`" in attempt.message  # the notation, as an aside
    assert run.table.version == version
    english = nuesse_at_place_3("en").try_move("place 2").message
    assert "This step asks for another move: place on 3 (green 2 + white 1)" in english
    assert "(this roll allows 3 or 8)" in english  # the detail worked out from the position


# --- broken lessons ----------------------------------------------------------------------------


def test_an_illegal_scripted_move_names_its_step(lesson: Lesson) -> None:
    number = step_of(lesson, "reroll H")
    with pytest.raises(LessonError, match=rf"step {number}: .*Rotten Eggs stay") as caught:
        check_lesson(with_step(lesson, number, expect="reroll R"))
    assert caught.value.step == number


def test_an_impossible_dictated_outcome_names_its_step(lesson: Lesson) -> None:
    number = step_of(lesson, "roll WCCRPFFHH")
    with pytest.raises(LessonError, match=rf"step {number}: .*can show that"):
        check_lesson(with_step(lesson, number, dictate="roll WWW"))  # three dice of nine
    with pytest.raises(LessonError, match=rf"step {number + 1}: chance does not act"):
        check_lesson(with_step(lesson, number + 1, dictate="roll W"))  # the learner decides


def test_a_move_at_the_wrong_seat_names_its_step(lesson: Lesson) -> None:
    learner = step_of(lesson, "reroll H")
    with pytest.raises(LessonError, match=rf"step {learner}: no other seat"):
        check_lesson(with_step(lesson, learner, expect=None, opponent="reroll H"))
    other = next(s.number for s in lesson.steps if s.opponent == "stop")
    with pytest.raises(LessonError, match=rf"step {other}: the learner is not to move"):
        check_lesson(with_step(lesson, other, opponent=None, expect="stop"))


def test_unknown_and_untaught_rule_ids_fail(lesson: Lesson) -> None:
    with pytest.raises(LessonError, match=r"step 1: the rules page has no rule eier\.nope"):
        check_lesson(with_step(lesson, 1, teaches=("eier.goal", "eier.nope")))
    last = lesson.steps[-1]
    assert last.teaches == ("eier.concede",)
    with pytest.raises(LessonError, match=r"no step teaches eier\.concede") as caught:
        check_lesson(with_step(lesson, last.number, teaches=()))
    assert caught.value.step is None


def test_a_why_not_must_be_another_legal_move(lesson: Lesson) -> None:
    number = step_of(lesson, "reroll H")
    with pytest.raises(LessonError, match=rf"step {number}: why_not 'keep WCCPFFH' is the move"):
        check_lesson(with_step(lesson, number, why_not=(("keep WCCPFFH", "same"),)))
    with pytest.raises(LessonError, match=rf"step {number}: why_not 'reroll RR' is not legal"):
        check_lesson(with_step(lesson, number, why_not=(("reroll RR", "no"),)))


def test_a_step_pointing_at_no_part_of_the_board_fails(lesson: Lesson) -> None:
    with pytest.raises(LessonError, match=r"step 2: it points at 'sky'"):
        check_lesson(with_step(lesson, 2, point="sky"))


def test_the_rules_pages_must_carry_the_same_ids(lesson: Lesson) -> None:
    english = spieltisch.rules_page(GAME)
    german = spieltisch.rules_page(GAME, "de").replace(" {#eier.concede}", "")
    with pytest.raises(LessonError, match=r"the de rules page differs in eier\.concede"):
        check_lesson(lesson, {"en": english, "de": german})


def test_a_malformed_file_fails_naming_the_step() -> None:
    head = '[lesson]\nplayers = 2\npoints = ["dice"]\n[finale]\nsay = "Play."\n'
    step = '[[steps]]\nsay = "Hello."\npoint = "dice"\nteaches = []\n'
    assert len(parse_lesson(head + step, GAME).steps) == 1
    with pytest.raises(LessonError, match=r"step 2: a step has unknown keys expct"):
        parse_lesson(head + step + step + 'expct = "stop"\n', GAME)
    with pytest.raises(LessonError, match=r"step 1: a step has one move at most"):
        parse_lesson(head + step + 'expect = "stop"\ndictate = "roll W"\n', GAME)
    with pytest.raises(LessonError, match=r"step 1: say must be a text"):
        parse_lesson(head + step.replace('"Hello."', '""'), GAME)
    with pytest.raises(LessonError, match=r"lesson auf-die-eier: not TOML"):
        parse_lesson("[lesson", GAME)
    with pytest.raises(LessonError, match=r"the file is the lesson of 'auweier'"):
        parse_lesson('[lesson]\ngame = "auweier"\n' + head.split("\n", 1)[1], GAME)


def test_loading_names_unknown_games_and_games_without_a_lesson() -> None:
    with pytest.raises(UnknownGameError, match="chess"):
        load_lesson("chess")
    assert has_lesson(GAME) and not has_lesson("chess")
    missing = "no-such-lesson.toml"  # as a game without a lesson has none
    with pytest.raises(NoLessonError, match="auf-die-eier has no lesson yet"):
        load_lesson(GAME, missing)
    assert not has_lesson(GAME, missing)


# --- rule ids ----------------------------------------------------------------------------------


def test_both_languages_give_the_same_ids_in_the_same_order() -> None:
    english = rule_ids(spieltisch.rules_page(GAME))
    german = rule_ids(spieltisch.rules_page(GAME, "de"))
    assert list(english) == list(german) and len(english) >= 30
    assert english["eier.throw"] == "Throw all nine dice."
    assert german["eier.throw"] == "Wirf alle neun Würfel."
    assert english["eier.face-pot"] == "`P` | pot | one pot makes the Breakfast"
    assert english["eier.score"].startswith("Score every die in front of you")
    assert english["eier.breakfast"].endswith("so is a pot without a whole egg.")
    assert all(text and "{#" not in text for text in (*english.values(), *german.values()))


def test_stripping_takes_every_marker_off_and_keeps_the_rest() -> None:
    page = spieltisch.rules_page(GAME)
    stripped, ids = strip_rule_ids(page)
    assert "{#" not in stripped and ids == rule_ids(page)
    assert "| `P`    | pot         | one pot makes the Breakfast |" in stripped
    assert (
        "5. Score every die in front of you (all nine, the re-thrown rotten eggs included):\n"
        "   - **Fried Eggs**" in stripped
    )  # a marker alone on its line leaves no empty line
    assert strip_rule_ids("# Game\n\nNo ids.\n") == ("# Game\n\nNo ids.\n", {})


def test_markers_are_read_as_written_or_refused() -> None:
    page = "Para one\ngoes on. {#g.one}\n\n- item {#g.two}\n\n```\nkept {#g.code}\n```\n"
    assert rule_ids(page) == {"g.one": "Para one goes on.", "g.two": "item"}
    with pytest.raises(RuleIdError, match=r"line 2: the id g\.one names two rules"):
        rule_ids("A. {#g.one}\nB. {#g.one}\n")
    with pytest.raises(RuleIdError, match="line 1: a marker must be"):
        rule_ids("Bad id. {#G one}\n")
    assert split_marker("Throw all nine dice. {#eier.throw}") == (
        "Throw all nine dice.",
        "eier.throw",
    )
    assert split_marker("no marker") == ("no marker", None)


def test_an_escaped_pipe_stays_in_its_cell() -> None:
    page = "| move | what |\n|---|---|\n| `deal A \\| B` | the deal {#g.deal} |\n"
    assert rule_ids(page) == {"g.deal": "`deal A | B` | the deal"}  # out of the table: a pipe


def test_a_row_whose_last_cell_holds_only_the_marker_reads_without_it() -> None:
    page = "| a | b | c |\n|---|---|---|\n| `x` | the x | {#g.x} |\n"
    assert rule_ids(page) == {"g.x": "`x` | the x"}


def test_a_lessons_errors_cross_to_another_process_whole() -> None:
    error = LessonError(GAME, 3, "its move is not taken")
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), back.step) == (LessonError, str(error), 3)
    missing = pickle.loads(pickle.dumps(NoLessonError("auweier")))
    assert type(missing) is NoLessonError and str(missing).endswith("auweier has no lesson yet")
