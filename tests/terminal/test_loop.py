"""The terminal loop around the engine: secrets that must not leave through it, games that
must not be lost, input it must refuse cheaply, and what a player expects at the table."""

from __future__ import annotations

import io
import random
import time
from collections.abc import Iterable, Iterator

import pytest
from rich.console import Console

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.game import Game
from spieltisch.games.auf_die_nuesse.model import Store
from spieltisch.games.auf_die_nuesse.notation import Nut
from spieltisch.games.auweier.notation import Arrange
from spieltisch.games.awimbawe.notation import Deal
from spieltisch.terminal import loop
from spieltisch.terminal.draw.auf_die_nuesse import squirrels, store_text
from spieltisch.terminal.draw.base import TableInfo
from spieltisch.terminal.drawers import drawer_for
from spieltisch.terminal.loop import (
    MAX_INPUT,
    MAX_MESSAGE,
    NO_PRIVATE_SCREEN,
    PRIVATE_OFF,
    PRIVATE_ON,
    Outcome,
    TerminalGame,
    display_name,
    kinds_from_names,
    kinds_of,
    seats_for,
)


def reader(lines: Iterable[str]) -> loop.ReadLine:
    """A keyboard typing ``lines``, then ending its input."""
    typed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        del prompt
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return read


def play(
    game: Game,
    kinds: list[str],
    lines: Iterable[str],
    *,
    seed: int = 4,
    terminal: bool = False,
    pace: float = 0.0,
) -> tuple[Outcome, str]:
    screen = io.StringIO()
    console = Console(file=screen, width=110, force_terminal=terminal, color_system=None)
    seats = seats_for(kinds, lambda name, seat: make_agent(name, game, seat))
    outcome = TerminalGame(game, seats, seed, console, reader(lines), pace=pace).run()
    return outcome, screen.getvalue()


# --- secrets ------------------------------------------------------------------------------


def test_a_bots_secret_deck_ordering_is_one_event_with_one_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(time, "sleep", pauses.append)
    game = spieltisch.load("auweier", 2)
    outcome, out = play(game, ["human", "heuristic"], ["deck shuffle"], pace=1.0)
    bot_steps = [m for m in outcome.record.moves[2:] if m.startswith("deck ")]
    assert len(bot_steps) == 22  # the bot placed its cards one by one, in secret
    bot_turns_after = len(outcome.record.moves) - 2 - len(bot_steps)
    assert len(pauses) == 1 + bot_turns_after  # one pause for the whole phase
    assert "blue B · Bot 2 (heuristic)'s deck is ready." in out
    assert "\n\n" not in out.split("Game abandoned")[0]  # no blank line per secret step


def test_hot_seat_tables_are_drawn_on_a_wiped_alternate_screen() -> None:
    game = spieltisch.load("awimbawe")
    outcome, out = play(game, ["human", "human"], ["", "1", "", "1"], seed=5, terminal=True)
    assert out.count(PRIVATE_ON) == out.count(PRIVATE_OFF) >= 2
    assert "\x1b[3J" in PRIVATE_ON and "\x1b[3J" in PRIVATE_OFF  # the scrollback too
    deal = Deal.of(outcome.record.moves[0][len("deal ") :])
    main_screen = "".join(part.split(PRIVATE_OFF)[-1] for part in out.split(PRIVATE_ON))
    private = out[len(main_screen) :]
    hand = " ".join(str(card) for card in deal.hands[0])
    assert "hand:" in private
    assert "hand: " + hand.split()[0] not in main_screen
    assert NO_PRIVATE_SCREEN not in out


def test_hot_seat_on_output_that_is_not_a_terminal_says_it_cannot_hide() -> None:
    _, out = play(spieltisch.load("awimbawe"), ["human", "human"], [""], seed=5)
    assert NO_PRIVATE_SCREEN[:40] in out.replace("\n", " ")
    assert PRIVATE_ON not in out


# --- games that are lost -------------------------------------------------------------------


def test_ctrl_c_at_a_prompt_ends_the_game_as_quit_does() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    screen = io.StringIO()
    seats = seats_for(["human", "random"], lambda name, seat: make_agent(name, game, seat))

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    outcome = TerminalGame(game, seats, 1, Console(file=screen), interrupted).run()
    assert outcome.quit and outcome.interrupted
    assert outcome.record.moves  # the first throw is kept
    assert "Interrupted" in screen.getvalue() and "Game abandoned" in screen.getvalue()


# --- bad input -----------------------------------------------------------------------------


def test_a_huge_line_is_refused_unread_and_not_echoed() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    outcome, out = play(game, ["human", "random"], ["x" * 10_000_000, "9" * 1000, "²", "stop"])
    assert f"a move is at most {MAX_INPUT} characters" in out
    assert "There is no move 999999…" in out
    assert "xxxxxxxxxx" not in out and len(out) < 20_000
    assert outcome.record.moves[1] == "stop"  # the game went on to the typed move


def test_an_error_message_is_cut_short() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    long_move = "reroll " + "F" * (MAX_INPUT - 10)
    _, out = play(game, ["human", "random"], [long_move])
    for line in out.splitlines():
        assert len(line) <= max(MAX_MESSAGE + 1, 110)


# --- at the table --------------------------------------------------------------------------


def test_undo_takes_back_own_moves_and_log_tells_the_whole_game() -> None:
    game = spieltisch.load("auweier", 2)
    outcome, out = play(
        game, ["human", "heuristic"], ["deck 7", "deck H", "undo", "log", "undo", "undo"]
    )
    assert outcome.record.moves == ()  # both placements taken back, nothing more
    assert out.count("Your last move is taken back.") == 2
    assert "Nothing to take back" in out
    assert "game log" in out and "red R · Player 1 places 7 next in their deck." in out
    assert isinstance(game.initial_state().parse("deck 7"), Arrange)


def test_log_shows_more_than_the_recent_box() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    lines = ["stop"] * 12 + ["log"]
    _, out = play(game, ["human", "random"], lines)
    log = out.split("game log")[-1]
    assert sum(1 for line in log.splitlines() if ". " in line and "throws" in line) > 8


def test_every_name_carries_its_colour_in_words_and_as_a_letter() -> None:
    assert display_name(0, "Ann") == "red R · Ann"
    assert display_name(3, "Bot 4 (heuristic)") == "yellow Y · Bot 4 (heuristic)"
    _, out = play(spieltisch.load("auf-die-nuesse", 2), ["human", "random"], [])
    assert "red R · Player 1" in out and "blue B · Bot 2 (random)" in out


def test_the_seat_kinds_are_read_back_from_the_names() -> None:
    names = [seat.name for seat in seats_for(["human", "ismcts:2s"], lambda n, s: None)]  # type: ignore[arg-type,return-value]
    assert kinds_from_names(names) == ["human", "ismcts:2s"]


def test_squirrels_and_stores_read_without_colour_vision() -> None:
    assert squirrels((2, 1, 0), 20).plain == "RR B"
    assert squirrels((3, 4), 3).plain == "3R4B"
    assert store_text(Store(Nut.ACORN, 0, 1, False)).plain == "J=A"
    assert store_text(Store(Nut.WALNUT, 1, 1, False)).plain == "W1+J"
    assert store_text(Store(Nut.WALNUT, 2, 0, False)).plain == "W2"


def test_awimbawes_final_table_counts_rounds_won() -> None:
    assert drawer_for("awimbawe").score_label == "rounds won"
    assert drawer_for("auf-die-eier").score_label == "points"
    _, out = play(spieltisch.load("awimbawe"), ["human", "random"], [], seed=5)
    assert "rounds won" in out


def test_a_long_menu_shows_one_move_of_each_common_kind() -> None:
    game = spieltisch.load("auf-die-nuesse", 2)
    state = game.initial_state()
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    kinds = kinds_of(legal)
    assert sum(count for _, count in kinds) == len(legal)
    assert [count for _, count in kinds] == sorted((c for _, c in kinds), reverse=True)
    numbers = [number for number, _ in kinds]
    assert len({type(legal[n - 1]) for n in numbers}) == len(numbers)


def test_the_nuesse_table_heads_each_store_with_the_tables_own_value() -> None:
    from rich.console import Console as RichConsole

    from spieltisch.games.auf_die_nuesse import NuesseView
    from spieltisch.terminal.draw.auf_die_nuesse import players_table

    heads = {}
    for table in ("standard", "five_25"):
        view = spieltisch.load("auf-die-nuesse", 2, store_table=table).initial_state().view(0)
        assert isinstance(view, NuesseView)
        buffer = io.StringIO()
        RichConsole(file=buffer, width=120).print(players_table(view, TableInfo(("A", "B"), ())))
        heads[table] = buffer.getvalue()
    assert "5:20" in heads["standard"] and "5:25" not in heads["standard"]
    assert "5:25" in heads["five_25"] and "5:20" not in heads["five_25"]


def test_awimbawes_board_draws_the_piles_and_hyenas_of_its_lands() -> None:
    """With one land each side has one pile and there is one hyena: the board draws one pile
    column and counts hyenas out of one; the rulebook's four lands draw four and count to 4."""
    rng = random.Random(3)
    for lands, columns in ((1, ["pile 1"]), (4, ["pile 1", "pile 2", "pile 3", "pile 4"])):
        state = spieltisch.load("awimbawe", 2, lands=lands).initial_state()
        while state.is_chance():
            state = state.apply(state.sample_chance(rng))
        screen = Console(width=160, record=True, file=io.StringIO())
        screen.print(drawer_for("awimbawe").table(state.view(0), TableInfo(("A", "B"), ())))
        text = screen.export_text()
        assert [f"pile {n}" for n in range(1, 5) if f"pile {n}" in text] == columns
        assert f"hyenas 0/{lands}" in text
