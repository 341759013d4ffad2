"""The command line: games, rules, a whole terminal game through standard input, simulate,
replay, and one-line errors for bad input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import spieltisch
from spieltisch import cli
from spieltisch.agents import agent_names, make_agent
from spieltisch.cli import app
from spieltisch.core.codec import to_jsonable
from spieltisch.core.record import Record, replay_states
from spieltisch.games.awimbawe.notation import Deal
from spieltisch.terminal.loop import TerminalGame, seats_for

runner = CliRunner()


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIELTISCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")


def test_games_lists_every_game_and_option() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for text in ("auf-die-eier", "2-6", "shared_chicken_ladder", "auweier", "awimbawe"):
        assert text in result.output


def test_rules_shows_the_rules_page() -> None:
    result = runner.invoke(app, ["rules", "auf-die-eier"])
    assert result.exit_code == 0
    assert "Rulings" in result.output and "chicken ladder" in result.output


def test_a_whole_game_plays_through_standard_input(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    commands = "help\nrules\nmoves\n999\nreroll XX\nreroll R\n" + "stop\n" * 400
    result = runner.invoke(
        app,
        [
            "play",
            "auf-die-eier",
            "--seats",
            "human,random",
            "--seed",
            "3",
            "--record",
            str(record_file),
        ],
        input=commands,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Commands:" in out  # help
    assert "Rulings" in out  # rules
    assert "There is no move 999" in out
    assert "cannot read 'reroll XX'" in out
    assert "Rotten Eggs stay set aside" in out or "only dice lying on the table" in out
    assert "Bot 2 (random) throws" in out and "scores" in out
    assert "Final result" in out and "winner" in out
    assert f"Game record (seed 3) saved to {record_file}" in out.replace("\n", "")
    record = Record.loads(record_file.read_text())
    assert record.seed == 3 and record.seats == ("Player 1", "Bot 2 (random)")
    replayed = runner.invoke(app, ["replay", str(record_file), "--json"])
    assert json.loads(replayed.output)["terminal"] is True


def test_play_defaults_seat_a_newcomer_against_bots_and_quit_saves_the_record(
    tmp_path: Path,
) -> None:
    result = runner.invoke(app, ["play", "auf-die-eier", "--seed", "1"], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Player 1, your move" in result.output and "Bot 2" in result.output
    assert "Game abandoned" in result.output
    saved = list((tmp_path / "home" / "records").glob("auf-die-eier-*-1.json"))
    assert len(saved) == 1
    record = Record.loads(saved[0].read_text())
    assert record.moves and record.players == 2


def test_end_of_input_ends_the_game_cleanly() -> None:
    result = runner.invoke(app, ["play", "auf-die-eier", "--seed", "2"], input="")
    assert result.exit_code == 0 and "Game abandoned" in result.output


def simulate_json(*extra: str) -> dict[str, object]:
    result = runner.invoke(
        app,
        [
            "simulate",
            "auf-die-eier",
            "--players",
            "3",
            "--games",
            "20",
            "--seed",
            "9",
            "--json",
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_simulate_json_has_the_promised_fields_and_is_reproducible(tmp_path: Path) -> None:
    data = simulate_json("--records", str(tmp_path / "recs"))
    for key in ("game", "players", "games", "wins", "mean_scores", "mean_actions"):
        assert key in data
    assert data["games"] == 20 and data["players"] == 3
    wins = data["wins"]
    assert isinstance(wins, list) and abs(sum(wins) - 20) < 1e-9
    assert simulate_json() == data
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert len(files) == 20
    replayed = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.output)["terminal"] is True


def test_simulate_prints_a_table_with_a_progress_bar() -> None:
    result = runner.invoke(app, ["simulate", "auf-die-eier", "--games", "5", "--agents", "random"])
    assert result.exit_code == 0
    assert "win rate" in result.output and "mean game length" in result.output


def test_replay_prints_the_final_state_scores_and_winners(tmp_path: Path) -> None:
    simulate_json("--records", str(tmp_path))
    record = sorted(tmp_path.glob("*.json"))[0]
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0
    assert "scores:" in result.output and "winners:" in result.output
    data = json.loads(runner.invoke(app, ["replay", str(record), "--json"]).output)
    assert set(data) >= {"game", "terminal", "scores", "winners", "actions"}


def test_replay_of_an_illegal_record_names_the_bad_move(tmp_path: Path) -> None:
    simulate_json("--records", str(tmp_path), "--engine", "python")  # the game the test knows
    path = sorted(tmp_path.glob("*.json"))[0]
    data = json.loads(path.read_text())
    data["moves"][2] = "roll HH"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code != 0
    assert "move 2:" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "auf-die-eier", "--players", "9"], "2 to 6 players"),
        (["play", "auf-die-eier", "--seats", "human,random,random", "--players", "2"], "3 seats"),
        (["play", "auf-die-eier", "--seats", "human,wizard"], "unknown agent 'wizard'"),
        (["play", "auf-die-eier", "--option", "shared_chicken_ladder=perhaps"], "true or false"),
        (["play", "auf-die-eier", "--option", "colour"], "name=value"),
        (["simulate", "auf-die-eier", "--agents", "random,random,random"], "3 agents"),
        (["replay", "/nonexistent/record.json"], "No such file"),
        (["rules", "chess"], "unknown game"),
    ],
)
def test_bad_input_gets_a_one_line_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("error:")]) == 1


def test_replay_of_garbage_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not JSON" in result.output


def test_hint_shows_what_the_strongest_agent_would_play_and_why() -> None:
    result = runner.invoke(app, ["play", "auf-die-eier", "--seed", "4"], input="hint\nquit\n")
    assert result.exit_code == 0
    # Auf die Eier's adviser is its expert (points a player can check), even where the racer
    # is stronger
    assert "expert: " in result.output and "expected" in result.output


def test_agents_lists_the_levels() -> None:
    result = runner.invoke(app, ["agents", "auf-die-eier"])
    listed = [name for name in result.output.split() if name != "racer"]  # native core only
    # as the ladder measured; the shipped policy (two players, default options) above the
    # heuristic it beats
    assert listed == ["expert", "ismcts", "learned", "heuristic", "random"]


def test_a_reserved_game_says_it_is_not_implemented_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    from spieltisch.core.registry import Entry
    from spieltisch.games import REGISTRY

    monkeypatch.setitem(REGISTRY._entries, "later-game", Entry("later-game", "Later", None))
    result = runner.invoke(app, ["play", "later-game"])
    assert result.exit_code == 2 and "not implemented yet" in result.output
    assert "not implemented yet" in runner.invoke(app, ["games"]).output


def test_a_secret_seed_is_shown_only_once_the_game_is_over() -> None:
    result = runner.invoke(app, ["play", "auf-die-eier"], input="stop\n" * 5 + "quit\n")
    seed = re.search(r"Game record \(seed (\d+)\) saved", result.output)
    assert seed is not None
    before_end = result.output[: result.output.index("Game record (seed")]
    assert seed.group(1) not in before_end
    fixed = runner.invoke(app, ["play", "auf-die-eier", "--seed", "0"], input="quit\n")
    assert "practice game: seed 0" in fixed.output


def test_a_terminal_game_never_prints_a_hidden_card(tmp_path: Path) -> None:
    record_file = tmp_path / "duel.json"
    result = runner.invoke(
        app,
        ["play", "awimbawe", "--seats", "human,random", "--seed", "5", "--record",
         str(record_file)],
        input="1\n" * 2 + "quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert not record_file.exists()  # an unfinished hidden-card game is kept out of sight
    (kept,) = (tmp_path / "home" / "unfinished").glob("awimbawe-*.json")
    record = Record.loads(kept.read_text())
    deal = Deal.of(record.moves[0][len("deal ") :])
    hidden = {*deal.hands[1], *(card for pile in deal.down for card in pile)}
    game = spieltisch.load("awimbawe")
    seen = " ".join(
        json.dumps(to_jsonable(state.view(0))) for state in replay_states(game, record.moves)
    )
    checked = 0
    for card in hidden:
        if json.dumps(to_jsonable(card)) in seen:
            continue  # played, or turned up: player 1 was allowed to see it by then
        checked += 1
        assert not re.search(rf"\b{card}\b", result.output), f"{card} was shown"
    assert checked >= 5


def test_people_sharing_a_screen_get_it_handed_over() -> None:
    result = runner.invoke(
        app, ["play", "awimbawe", "--seats", "human,human", "--seed", "5"], input="\n1\n\n1\nquit\n"
    )
    assert result.exit_code == 0
    assert "Pass the screen to Player 1" in result.output
    assert "Pass the screen to Player 2" in result.output


def _bots_only_table(console: Console) -> TerminalGame:
    game = spieltisch.load("auf-die-eier", 2)
    seats = seats_for(["random", "random"], lambda name, seat: make_agent(name, game, seat))
    return TerminalGame(game, seats, 3, console, input)


def test_a_thinking_bot_shows_a_spinner_on_a_terminal_and_nothing_in_piped_output() -> None:
    screen = io.StringIO()
    _bots_only_table(Console(file=screen, force_terminal=True, width=100)).run()
    assert "Bot 1 (random) is thinking…" in screen.getvalue()
    piped = io.StringIO()
    outcome = _bots_only_table(Console(file=piped, width=100)).run()
    assert outcome.state.is_terminal() and "thinking" not in piped.getvalue()


# --- issue 22: secrets, lost games and bad input around the engine --------------------------


def kept_games(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "home" / "unfinished").glob("*.json"))


def test_quitting_a_hidden_card_game_keeps_it_out_of_sight_and_resume_continues_it(
    tmp_path: Path,
) -> None:
    args = ["play", "auweier", "--seats", "human,heuristic", "--bot-pace", "0"]
    first = runner.invoke(app, args, input="deck 7\nquit\n")
    assert first.exit_code == 0, first.output
    assert "seed" not in first.output.split("Game abandoned")[-1]
    said = first.output.replace("\n", "")
    assert "--resume last" in said and str(tmp_path) not in said
    assert not (tmp_path / "home" / "records").exists()
    (kept,) = kept_games(tmp_path)
    assert Record.loads(kept.read_text()).moves == ("deck 7",)
    again = runner.invoke(app, ["play", "--resume", "last"], input="deck H\nquit\n")
    assert again.exit_code == 0, again.output
    assert "continued after 1 moves" in again.output
    assert kept_games(tmp_path) == [kept]  # the same game, kept in the same place
    assert Record.loads(kept.read_text()).moves == ("deck 7", "deck H")
    by_file = runner.invoke(app, ["play", "--resume", str(kept)], input="quit\n")
    assert by_file.exit_code == 0 and "continued after 2 moves" in by_file.output


def test_a_resumed_game_that_ends_shows_its_seed_and_record(tmp_path: Path) -> None:
    game = spieltisch.load("auf-die-eier", 2)
    first = runner.invoke(app, ["play", "auf-die-eier", "--seats", "human,random"], input="quit\n")
    assert first.exit_code == 0
    (saved,) = (tmp_path / "home" / "records").glob("*.json")
    seed = Record.loads(saved.read_text()).seed
    finish = runner.invoke(app, ["play", "--resume", str(saved)], input="stop\n" * 400)
    assert finish.exit_code == 0, finish.output
    assert "Final result" in finish.output
    assert f"Game record (seed {seed}) saved to" in finish.output
    assert game.info.id in finish.output


def test_ctrl_c_saves_the_game_and_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_read_line", interrupt)
    result = runner.invoke(app, ["play", "auf-die-eier", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Ctrl-C" in result.output and "Game record (seed 2) saved" in result.output
    assert len(list((tmp_path / "home" / "records").glob("*.json"))) == 1


@pytest.mark.parametrize("where", ["folder", "under_a_file"])
def test_a_bad_record_path_is_refused_before_the_game(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    path = tmp_path if where == "folder" else blocker / "game.json"
    result = runner.invoke(
        app, ["play", "auf-die-eier", "--record", str(path)], input="stop\n" * 400
    )
    assert result.exit_code == 2 and "--record" in result.output
    assert "your move" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "auf-die-eier", "--bot-pace", "inf"], "--bot-pace takes seconds"),
        (["play", "auf-die-eier", "--bot-pace", "nan"], "--bot-pace takes seconds"),
        (["play", "auf-die-eier", "--bot-pace", "-1"], "--bot-pace takes seconds"),
        (["play", "auf-die-eier", "--seats", "human,ismcts:infs"], "seconds"),
        (["play", "auf-die-eier", "--seats", "human,ismcts:nans"], "seconds"),
        (["play", "auf-die-eier", "--seats", "human,ismcts:0"], "iterations"),
        (["play", "auf-die-eier", "--seats", "human,ismcts:0s"], "seconds"),
        (["play", "auf-die-eier", "--seats", "human,ismcts:" + "9" * 5000], "ismcts takes"),
        (["simulate", "auf-die-eier", "--agents", "ismcts:-3"], "iterations"),
        (["play", "--resume", "/nonexistent/game.json"], "No such file"),
        (["play"], "name a game"),
        (["play", "auf-die-eier", "--resume", "last"], "--resume continues a record"),
        (["arena", "auf-die-eier", "--plot", "/dev/null/plot.png"], "--plot"),
    ],
)
def test_every_option_and_agent_setting_is_checked_at_the_start(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert "your move" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("error:")]) == 1


def test_replay_of_deeply_nested_json_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "nested too deeply" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_arena_refuses_a_file_that_is_not_its_journal_and_leaves_it_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    for text in ("my notes, no newline at the end", "first line\nlast line without newline"):
        notes.write_text(text)
        result = runner.invoke(
            app, ["arena", "auf-die-eier", "--games", "2", "--journal", str(notes)]
        )
        assert result.exit_code == 2 and "not a journal" in result.output
        assert notes.read_text() == text


def test_agents_lists_the_order_for_a_player_count() -> None:
    # Auf die Eier's learned policy plays two players only, so the lists differ.
    listed = {}
    for players in (2, 4):
        result = runner.invoke(app, ["agents", "auf-die-eier", "--players", str(players)])
        assert result.exit_code == 0
        listed[players] = result.output.split()
        assert listed[players] == list(agent_names(spieltisch.load("auf-die-eier", players)))
    assert "learned" in listed[2] and "learned" not in listed[4]


def test_version_says_which_build_runs() -> None:
    result = runner.invoke(cli.app, ["--version"])
    assert result.exit_code == 0
    about = spieltisch.about()
    said = f"spieltisch {spieltisch.__version__} ({about['native_core']})"
    assert result.stdout.strip() == said
    assert about["build"] == ("native" if about["native"] else "pure")
    if about["native"]:
        assert "(Rust: auf-die-eier, " in result.stdout
    else:
        assert "native core not built" in result.stdout or "does not load" in result.stdout
