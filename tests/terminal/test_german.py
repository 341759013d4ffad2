"""The terminal in German: ``spieltisch play GAME --lang de`` and ``spieltisch learn GAME --lang
de`` say no English word, in the loop's prompts and messages, the game's words, the table's
drawing and the end alike; in English nothing changes (the other terminal tests pin that).

A word is English as the German walk of the web (``tests/web/test_german_walk.py``) finds
it: a word of the catalog's English msgids that no German text uses. Names and notation are
taken out first: the seats' names (bots keep their English level in every language), the
game's notation, and identifiers with a dot or an underscore (a rule's id such as
``eier.ladder``, an option such as ``nuts_per_kind``, a file name such as ``rulings.md``: the
rules page names them in code). Each game is played through the real command: under typer's
runner, which reads standard input as the loop does, and in a pseudo-terminal, where the
output is a terminal (colours, spinners) and the keyboard types into it.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import spieltisch
from spieltisch.cli import app
from spieltisch.core.game import OptionValue
from spieltisch.games import REGISTRY
from spieltisch.locale import translation
from spieltisch.session.lesson import load_lesson
from spieltisch.terminal.draw.base import TableInfo, sentence
from spieltisch.terminal.drawers import drawer_for
from spieltisch.terminal.loop import display_name
from tests.random_games import random_game
from tests.web.test_german_walk import english_words

GAMES = REGISTRY.implemented()
IDENTIFIER = re.compile(r"\b[\w-]+(?:[._][\w-]+)+\b")
"""A rule's id, an option's name or a file's name: identifiers, not words."""
BOT = re.compile(r"\bBot(?: \d+)? \([\w:.]+\)")
"""A bot's seat name, ``Bot 2 (random)``: its level is its name in every language."""
ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?"
)
"""A terminal's control sequences (colours, cursor moves, the spinner's redraws)."""
COMMANDS = ["help", "moves", "hint", "table", "log", "undo", "999", "xyz 12", "rules"]
"""Every command of the play loop, a number out of range and a line the engine cannot read."""

runner = CliRunner()


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIELTISCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")


def english_in(output: str, names: Iterable[str] = ()) -> list[str]:
    """Each line of ``output`` that has an English word, with its words (names and notation
    taken out: see the module docstring)."""
    found = []
    seen: set[str] = set()
    for written in output.splitlines():
        line = IDENTIFIER.sub(" ", BOT.sub(" ", written))
        if line in seen:
            continue
        seen.add(line)
        words = english_words(line, tuple(names))
        if words:
            found.append(f"{words}: {written.strip()[:160]}")
    return found


def lesson_lines(game_id: str) -> list[str]:
    """A learner's lines: every command first, then each step's move as the lesson asks for
    it (the rules asked for again after the third step), into the closing game, its first
    moves by number."""
    answers = [step.expect or "" for step in load_lesson(game_id).steps]
    commands = ["help", "again", "table", "rules", "xyz 12"]
    return [*commands, *answers[:3], "rules", *answers[3:], "", "help", *["1"] * 30, "quit"]


# --- through standard input -----------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_in_german_says_no_english_word(game_id: str, tmp_path: Path) -> None:
    record = tmp_path / "partie.json"
    typed = [*COMMANDS, *["1"] * 600]
    args = ["play", game_id, "--lang", "de", "--seed", "3", "--seats", "human,random"]
    result = runner.invoke(
        app, [*args, "--bot-pace", "0", "--record", str(record)], input="\n".join(typed) + "\n"
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Endergebnis" in out and "Sieger" in out  # played to its end, the end said in German
    for german in ("dein Zug", "Hilfe", "Befehle:", "Spielverlauf", "Es gibt keinen Zug 999"):
        assert german in out, german
    assert "'xyz 12' kann ich nicht lesen" in out and "Spieler 1" in out
    assert "Spielprotokoll (Startwert 3) gespeichert" in out
    assert english_in(out, [str(record)]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_lesson_in_german_says_no_english_word(game_id: str) -> None:
    typed = lesson_lines(game_id)
    result = runner.invoke(
        app, ["learn", game_id, "--lang", "de", "--seed", "3"], input="\n".join(typed)
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    steps = len(load_lesson(game_id).steps)
    assert f"Schritt {steps} von {steps} · Blick auf: " in out  # every step, each in German
    assert "Weiter mit Enter:" in out and "Dein Zug:" in out and "Ja: " in out
    assert "Dein erstes Spiel" in out and "Tipp: " in out  # the closing game, with hints
    assert english_in(out, ["Alex", "Robin"]) == []


def test_people_sharing_a_screen_and_six_colours_are_told_in_german() -> None:
    hot_seat = runner.invoke(
        app,
        ["play", "awimbawe", "--lang", "de", "--seats", "human,human", "--seed", "5"],
        input="\n1\n\n1\nquit\n",
    )
    assert hot_seat.exit_code == 0, hot_seat.output
    said = hot_seat.output
    assert "Gib den Bildschirm an Spieler 1 (rot R) weiter" in said
    assert "lässt sich zwischen den Spielern nicht löschen" in said and "Spiel abgebrochen" in said
    six = runner.invoke(
        app,
        ["play", "auf-die-eier", "--lang", "de", "--players", "6", "--seed", "2",
         "--seats", "human,random,random,random,random,random"],
        input="stop\nquit\n",
    )  # fmt: skip
    assert six.exit_code == 0, six.output
    assert "magenta M · Bot 5 (random)" in six.output and "cyan C · Bot 6 (random)" in six.output
    assert english_in(said + six.output) == []


def tables() -> list[tuple[str, int, dict[str, OptionValue]]]:
    """Each game at its fewest and most players, and Auf die Eier with its shared ladder."""
    found: list[tuple[str, int, dict[str, OptionValue]]] = []
    for game_id in GAMES:
        info = REGISTRY.game_class(game_id).info
        found += [(game_id, n, {}) for n in sorted({info.min_players, info.max_players})]
    return [*found, ("auf-die-eier", 3, {"shared_chicken_ladder": True})]


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    tables(),
    ids=[f"{game}-{n}" + "-shared" * bool(options) for game, n, options in tables()],
)
def test_the_drawers_draw_a_whole_game_in_german(
    game_id: str, players: int, options: dict[str, OptionValue]
) -> None:
    speech = translation("de")
    game = spieltisch.load(game_id, players, **options)
    names = tuple(display_name(p, f"Spieler {p + 1}", speech) for p in range(players))
    table = random_game(game, seed=players, names=names)
    screen = Console(width=120, record=True, file=io.StringIO())
    drawer = drawer_for(game_id)
    every = max(1, table.version // 40)  # some forty positions of the game, and its end
    for version in sorted({*range(0, table.version, every), table.version}):
        for viewer in (None, *range(players)):
            view = table.view(viewer, at=version)
            screen.print(drawer.table(view, TableInfo(names, ("x",), speech)))
    assert english_in(screen.export_text()) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_check_finds_the_english_table(game_id: str) -> None:
    game = spieltisch.load(game_id)
    names = tuple(f"Spieler {p + 1}" for p in range(game.players))
    screen = Console(width=120, record=True, file=io.StringIO())
    view = game.initial_state().view(0)
    screen.print(drawer_for(game_id).table(view, TableInfo(names, ("x",))))  # English
    assert english_in(screen.export_text(), names) != []


def test_play_takes_the_languages_learn_does() -> None:
    wrong = runner.invoke(app, ["play", "auf-die-eier", "--lang", "fr"])
    assert wrong.exit_code == 2 and "no game language 'fr': one of en, de" in wrong.output
    english = runner.invoke(
        app, ["play", "auf-die-eier", "--lang", "en", "--seed", "1"], input="quit\n"
    )
    assert "your move (number, notation, help, quit)" in english.output
    assert "Game abandoned" in english.output


def test_a_sentence_keeps_each_parts_style() -> None:
    name = Text("Ann", style="bold red")
    said = sentence("{player} ist dran: {what}.", player=name, what="eine Karte")
    assert said.plain == "Ann ist dran: eine Karte."
    assert [(span.start, span.end, span.style) for span in said.spans] == [(0, 3, "bold red")]


# --- in a terminal --------------------------------------------------------------------------


def in_a_terminal(args: list[str], typed: list[str], home: Path, timeout: float = 120) -> str:
    """What ``spieltisch ARGS`` writes to a pseudo-terminal 120 columns wide while ``typed`` is
    typed into it (not echoed), its control sequences taken out."""
    command = Path(sys.executable).with_name("spieltisch")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    modes = termios.tcgetattr(slave)
    modes[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, modes)
    env = {**os.environ, "SPIELTISCH_HOME": str(home), "TERM": "xterm-256color"}
    env.pop("COLUMNS", None)  # the terminal's own width
    process = subprocess.Popen(
        [str(command), *args], stdin=slave, stdout=slave, stderr=slave, env=env,
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    os.write(master, "".join(f"{line}\n" for line in typed).encode())
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"spieltisch {' '.join(args)} did not end")
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # the command ended and closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        os.close(master)
    assert process.returncode == 0, b"".join(chunks).decode(errors="replace")[-2000:]
    return ESCAPE.sub("", b"".join(chunks).decode("utf-8", errors="replace")).replace("\r", "")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_real_command_plays_in_german_in_a_terminal(game_id: str, tmp_path: Path) -> None:
    args = ["play", game_id, "--lang", "de", "--seed", "4", "--seats", "human,random"]
    out = in_a_terminal([*args, "--bot-pace", "0"], ["help", "1", "1", "log", "quit"], tmp_path)
    assert "dein Zug (Nummer, Notation, help, quit)" in out and "Spiel abgebrochen" in out
    assert "Befehle:" in out and "Spielverlauf" in out
    assert english_in(out) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_real_command_teaches_in_german_in_a_terminal(game_id: str, tmp_path: Path) -> None:
    answers = [step.expect or "" for step in load_lesson(game_id).steps][:4]
    out = in_a_terminal(["learn", game_id, "--lang", "de"], ["help", *answers, "quit"], tmp_path)
    assert "Schritt 1 von" in out and "Blick auf:" in out and "Weiter mit Enter:" in out
    assert "Du hast die Lektion verlassen." in out
    assert english_in(out, ["Alex", "Robin"]) == []
