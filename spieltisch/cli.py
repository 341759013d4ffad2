"""The ``spieltisch`` command: list games, read rules, play, simulate and replay.

Every command turns bad input into a one-line error on standard error and a non-zero exit,
never a traceback. Reading files, the clock and the operating system's randomness happen here
and in the terminal and lab layers, never in the rules core.
"""

from __future__ import annotations

import gettext
import json
import math
import os
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

import spieltisch
from spieltisch.agents import Agent, agent_names, make_agent, strongest_agent
from spieltisch.agents import adviser as game_adviser
from spieltisch.core.errors import RecordError, SpieltischError
from spieltisch.core.game import Game, OptionValue
from spieltisch.core.record import Record, replay
from spieltisch.games import REGISTRY
from spieltisch.lab import arena as arena_lab
from spieltisch.lab import engine as lab_engine
from spieltisch.lab import experiment as lab_experiment
from spieltisch.lab import ladder as lab_ladder_module
from spieltisch.lab import native as lab_native
from spieltisch.lab.play import derive_seed, pick_seed
from spieltisch.lab.simulate import simulate as run_simulation
from spieltisch.lab.summary import ArenaSummary, SeatSummary
from spieltisch.locale import LANGUAGES, translation
from spieltisch.session import Table as GameTable
from spieltisch.session import verify as verify_dice
from spieltisch.session.lesson import check_lesson, load_lesson
from spieltisch.session.rule_ids import rule_ids, strip_rule_ids
from spieltisch.terminal.draw.base import TableInfo, markup
from spieltisch.terminal.drawers import drawer_for
from spieltisch.terminal.learn import TerminalLesson
from spieltisch.terminal.loop import Outcome, Seat, TerminalGame, kinds_from_names, seats_for

AGENT_SPECS = (
    "an agent is a name from 'spieltisch agents GAME' (ismcts:2s, ismcts:5000 for a budget), "
    "policy:FILE (a trained policy), or openspiel-ismcts:2s / openspiel-mcts:200 (OpenSpiel's "
    "bots; docs/rl/README.md, 'Seating agents')"
)

app = typer.Typer(
    help="spieltisch: play, study and train on four tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(wanted: bool) -> None:
    if wanted:
        facts = spieltisch.about()
        print(f"spieltisch {facts['version']} ({facts['native_core']})")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Show the version and whether the native core is there, and exit.",
        ),
    ] = False,
) -> None:
    """spieltisch: play, study and train on four tabletop games."""


class CliError(Exception):
    """Bad input to a command, reported in one line."""


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error."""
    raise CliError(message)


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Turn every expected error into ``error: ...`` on standard error and exit status 2."""
    try:
        yield
    except (CliError, SpieltischError, OSError, ValueError) as error:
        # The message is text, not markup: "[tune]" or "[options]" must reach the reader.
        Console(stderr=True).print(
            f"[red]error:[/] {escape(str(error))}", highlight=False, soft_wrap=True
        )
        raise typer.Exit(2) from None


def home() -> Path:
    """Where spieltisch keeps its files: ``$SPIELTISCH_HOME`` or ``~/.spieltisch``."""
    return Path(os.environ.get("SPIELTISCH_HOME", Path.home() / ".spieltisch"))


def parse_options(game_id: str, pairs: list[str]) -> dict[str, OptionValue]:
    """Read ``--option name=value`` pairs against the game's declared options."""
    info = REGISTRY.game_class(game_id).info
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            fail(f"--option takes name=value, not {pair!r}")
        options[name.strip()] = info.option(name.strip()).parse(value)
    return options


def split_names(text: str | None) -> list[str]:
    """``"a, b,c"`` as ``["a", "b", "c"]``."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def rules_text(game_id: str, language: str = "en") -> str:
    """The game's rules page in ``language`` (without its rule ids' markers), or an empty
    text if it is missing."""
    return strip_rule_ids(spieltisch.rules_page(game_id, language))[0]


@app.command()
def games() -> None:
    """List the games with their player counts and options."""
    table = Table(title="spieltisch games")
    for column in ("id", "name", "players", "options"):
        table.add_column(column)
    for entry in REGISTRY.entries():
        if entry.package is None:
            table.add_row(entry.id, entry.name, "", "[dim]not implemented yet[/]")
            continue
        info = REGISTRY.game_class(entry.id).info
        options = "\n".join(f"{o.name}={o.default!s}: {o.help}" for o in info.options) or "-"
        name = f"{info.name}\n[dim]{info.summary}[/]" if info.summary else info.name
        table.add_row(info.id, name, f"{info.min_players}-{info.max_players}", options)
    Console().print(table)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Game id, e.g. auf-die-eier.")]) -> None:
    """Show a game's rules page."""
    with one_line_errors():
        REGISTRY.game_class(game)
        text = rules_text(game)
        if not text:
            fail(f"no rules page for {game}")
        Console().print(Markdown(text))


@app.command()
def learn(
    game: Annotated[str, typer.Argument(help="Game id, e.g. auf-die-eier.")],
    seed: Annotated[
        int | None, typer.Option(help="Seed for the dice and cards of the closing game.")
    ] = None,
    lang: Annotated[
        str, typer.Option(help="The lesson's language: " + ", ".join(LANGUAGES) + ".")
    ] = "en",
) -> None:
    """Learn a game: its lesson step by step (every throw and deal dictated), then a short
    real game against the gentlest bot, with hints."""
    with one_line_errors():
        speech = _speech(lang, "lesson")
        lesson = load_lesson(game)
        check_lesson(lesson)
        the_game = lesson.game()
        run_seed = pick_seed() if seed is None else seed
        adviser = make_agent(game_adviser(the_game), the_game, derive_seed(run_seed, "hint"))
        gentlest = agent_names(the_game)[-1]
        bot = make_agent(gentlest, the_game, derive_seed(run_seed, "seat", 1))
        TerminalLesson(
            lesson,
            Console(highlight=False),
            _read_line,
            rules=rule_ids(rules_text(game, lang)),
            adviser=adviser,
            opponent=(f"Bot ({gentlest})", bot),
            seed=run_seed,
            speech=speech,
        ).play()


def _speech(lang: str, what: str) -> gettext.NullTranslations:
    """The translations of ``lang`` for a ``what`` (``lesson``, ``game``); a one-line error
    for a language spieltisch does not speak."""
    if lang not in LANGUAGES:
        fail(f"no {what} language {lang[:20]!r}: one of {', '.join(LANGUAGES)}")
    return translation(lang)


@app.command()
def play(
    game: Annotated[
        str | None, typer.Argument(help="Game id, e.g. auf-die-eier (not with --resume).")
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="Who sits where: human or an agent, e.g. human,random; " + AGENT_SPECS),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the dice and cards.")] = None,
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value.")] = None,
    record: Annotated[
        Path | None, typer.Option(help="Where to save the game record once the game is over.")
    ] = None,
    bot_pace: Annotated[
        float | None,
        typer.Option(help="Least seconds a bot takes per move (default: 1 in hidden-card games)."),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            help="Continue an unfinished game: its record file, or 'last' for the last "
            "hidden-card game left unfinished."
        ),
    ] = None,
    lang: Annotated[
        str, typer.Option(help="The game's language: " + ", ".join(LANGUAGES) + ".")
    ] = "en",
) -> None:
    """Play a game in the terminal against bots or other people.

    A hidden-card game left unfinished (``quit``, end of input or Ctrl-C) is kept where its
    record, which holds every hidden card, is not shown to the player; ``--resume last``
    continues it. The seed and the record's place are shown once the game is over. ``--lang``
    plays it in another language: every prompt, message, move and event, and the table."""
    with one_line_errors():
        speech = _speech(lang, "game")
        _ = speech.gettext
        if bot_pace is not None and not (math.isfinite(bot_pace) and 0 <= bot_pace <= MAX_PACE):
            fail(f"--bot-pace takes seconds from 0 to {MAX_PACE:g}, not {bot_pace}")
        if record is not None:
            check_writable(record, "--record")
        if resume is not None:
            if game is not None or players is not None or seed is not None or option:
                fail("--resume continues a record as it was: give no game, players, seed or option")
            source = _resume_path(resume)
            board = _resumed_table(source)
            the_game, run_seed = board.game, board.seed
            assert run_seed is not None  # _resumed_table refuses a record without a seed
            kinds = split_names(seats) or kinds_from_names(board.seats)
        else:
            if game is None:
                fail("name a game to play (see `spieltisch games`), or --resume a record")
            source = None
            options = parse_options(game, option or [])
            kinds = split_names(seats)
            count = players if players is not None else (len(kinds) or None)
            the_game = spieltisch.load(game, count, **options)
            if not kinds:
                kinds = ["human"] + [strongest_agent(the_game)] * (the_game.players - 1)
            run_seed = pick_seed() if seed is None else seed
            board = None
        if len(kinds) != the_game.players:
            fail(f"--seats names {len(kinds)} seats for {the_game.players} players")
        table = seats_for(kinds, _bot_maker(the_game, run_seed), speech)
        if board is not None:
            table = [Seat(name, seat.agent) for name, seat in zip(board.seats, table, strict=True)]
        console = Console(highlight=False)
        # The seed fixes every deal and throw to come, so a secret seed is shown only at the end.
        practice = _("practice game: seed {seed} decides every deal and throw")
        fixed = "" if seed is None else " · " + practice.format(seed=seed)
        continued = _("continued after {n} moves")
        went_on = "" if board is None else " · " + continued.format(n=board.version)
        for_help = markup(_("type `help` for help"))
        console.print(f"[bold]{the_game.info.name}[/]{escape(fixed + went_on)} · {for_help}")
        adviser = make_agent(game_adviser(the_game), the_game, derive_seed(run_seed, "hint"))
        pace = bot_pace if bot_pace is not None else _default_pace(the_game, console)
        outcome = TerminalGame(
            the_game,
            table,
            run_seed,
            console,
            _read_line,
            rules_text(the_game.info.id, lang),
            adviser,
            pace,
            board,
            speech=speech,
        ).run()
        _keep_record(the_game, outcome, run_seed, record, source, console, speech)


MAX_PACE = 60.0
"""The longest --bot-pace, in seconds."""


def check_writable(path: Path, what: str) -> None:
    """Fail at once (not after the game) when ``path`` cannot be written as a file."""
    if path.is_dir():
        fail(f"{what} {path} is a folder, not a file")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        fail(f"{what} {path} cannot be written: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"{what} {path} cannot be written: permission denied")


def unfinished_dir() -> Path:
    """Where hidden-card games left unfinished are kept, out of the player's sight."""
    return home() / "unfinished"


def _resume_path(resume: str) -> Path:
    if resume != "last":
        return Path(resume)
    kept = sorted(unfinished_dir().glob("*.json"), key=lambda p: p.stat().st_mtime)
    if not kept:
        fail("no unfinished game is kept to continue")
    return kept[-1]


def _resumed_table(path: Path) -> GameTable:
    """The table of an unfinished record, rebuilt move by move with its chance generator."""
    rec = Record.loads(path.read_text(encoding="utf-8"))
    if rec.seed is None:
        fail(f"{path}: the record has no seed, so its dice and cards cannot go on")
    try:
        board = GameTable.from_record(spieltisch.load_record(rec), rec)
    except RecordError as error:
        fail(f"{path}: {error}")
    if board.over:
        fail(f"{path}: that game is over (`spieltisch replay` shows it)")
    return board


def _keep_record(
    game: Game,
    outcome: Outcome,
    seed: int,
    record: Path | None,
    source: Path | None,
    console: Console,
    speech: gettext.NullTranslations | None = None,
) -> None:
    """Save the record: a finished game (or one without hidden cards) where asked or in the
    records folder, with its seed; an unfinished hidden-card game out of sight. Says so in the
    language of ``speech`` (English unless given)."""
    _ = (speech or gettext.NullTranslations()).gettext
    kept_dir = unfinished_dir()
    from_kept = source is not None and source.resolve().parent == kept_dir.resolve()
    text = outcome.record.dumps()
    if outcome.interrupted:
        console.print(_("The game was stopped with Ctrl-C."))
    if not outcome.state.is_terminal() and game.info.hidden_information:
        path = source if from_kept and source is not None else _record_path(game.info.id, seed)
        path = kept_dir / path.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        kept = _(
            "The unfinished game is kept (its record would show the hidden cards, so it is "
            "not shown here); `spieltisch play --resume last` continues it."
        )
        console.print(markup(kept))
        return
    path = record or _record_path(game.info.id, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if from_kept and source is not None:
        source.unlink(missing_ok=True)
    saved = _("Game record (seed {seed}) saved to {path}").format(seed=seed, path=path)
    console.print(escape(saved))


def _default_pace(game: Game, console: Console) -> float:
    """Bots in a hidden-information game take one second a move at an interactive table,
    forced moves included, so how fast a bot answers tells nothing about its cards."""
    return 1.0 if game.info.hidden_information and console.is_terminal else 0.0


class EngineChoice(StrEnum):
    """Which engine plays a lab command's games (see spieltisch.lab.native)."""

    auto = "auto"
    native = "native"
    python = "python"


ENGINE_HELP = (
    "auto: the native core where every agent has a native counterpart and the core is built, "
    "else Python; native (refused where it cannot play every game); python."
)
EngineOption = Annotated[EngineChoice, typer.Option(help=ENGINE_HELP)]
FileEngineOption = Annotated[
    EngineChoice | None, typer.Option(help=ENGINE_HELP + " Default: the file's engine, else auto.")
]


def _bot_maker(game: Game, seed: int) -> Callable[[str, int], Agent[Any]]:
    def make(name: str, seat: int) -> Agent[Any]:
        return make_agent(name, game, derive_seed(seed, "seat", seat))

    return make


def _read_line(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        raise EOFError
    return line


def _record_path(game_id: str, seed: int) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return home() / "records" / f"{game_id}-{stamp}-{seed}.json"


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id.")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games: Annotated[int, typer.Option(min=1, help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    agents: Annotated[
        str | None,
        typer.Option(
            help="Agent per seat, e.g. random,random (one name: every seat); " + AGENT_SPECS
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value.")] = None,
    records: Annotated[Path | None, typer.Option(help="Write every game's record here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    engine: EngineOption = EngineChoice.auto,
) -> None:
    """Play many games between agents and report win rates, scores and lengths."""
    with one_line_errors():
        the_game = spieltisch.load(game, players, **parse_options(game, option or []))
        names = split_names(agents) or ["random"]
        if len(names) == 1:
            names = names * the_game.players
        if len(names) != the_game.players:
            fail(f"--agents names {len(names)} agents for {the_game.players} players")
        for name in set(names):
            make_agent(name, the_game, 0)
        used = lab_native.resolve_engine(engine.value, {the_game.info.id: names})  # or refused
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)

        def save(index: int, rec: Record) -> None:
            if records is not None:
                (records / f"{game}-{seed}-{index:05d}.json").write_text(
                    rec.dumps(), encoding="utf-8"
                )

        keep = save if records is not None else None  # no record built where none is kept

        if as_json:
            summary = run_simulation(
                the_game, names, games, seed, on_record=keep, engine=engine.value
            )
            print(json.dumps({**summary.to_json(), "engine": used}))
            return
        with progress_reporter(the_game.info.name, games) as progress:
            summary = run_simulation(
                the_game, names, games, seed, on_record=keep, progress=progress, engine=engine.value
            )
        _print_summary(summary, names)
        Console().print(f"played by the {used} engine", highlight=False)


def _print_summary(summary: SeatSummary, names: list[str]) -> None:
    table = Table(title=f"{summary.game}: {summary.games} games, seed {summary.seed}")
    for column in ("seat", "agent", "win rate", "mean score"):
        table.add_column(column, justify="right" if column != "agent" else "left")
    games = max(summary.games, 1)
    for seat, name in enumerate(names):
        rate = round(summary.wins[seat] / games, 6) if summary.wins else 0.0
        mean = round(summary.score_totals[seat] / games, 4) if summary.score_totals else 0.0
        table.add_row(str(seat + 1), name, f"{100 * rate:.1f}%", f"{mean:.2f}")
    console = Console()
    console.print(table)
    actions = round(summary.actions / games, 4)
    moves = round(summary.moves / games, 4)
    console.print(f"mean game length: {actions} actions ({moves} moves with chance)")


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay a game record, checking every move, and show how it ended."""
    with one_line_errors():
        rec = Record.loads(file.read_text(encoding="utf-8"))
        the_game = spieltisch.load_record(rec)
        try:
            replay(the_game, rec)  # every move checked, its index named if one is wrong
            played = GameTable.from_record(the_game, rec)
        except RecordError as error:
            fail(f"{file}: {error}")
        state = played.state
        winners = sorted(played.winners()) if played.over else []
        if as_json:
            print(
                json.dumps(
                    {
                        "game": rec.game,
                        "players": rec.players,
                        "terminal": played.over,
                        "scores": list(state.scores()),
                        "winners": winners,
                        "conceded": [seat for seat, _ in rec.conceded],
                        "actions": len(rec.moves),
                    }
                )
            )
            return
        names = (
            rec.seats
            if len(rec.seats) == rec.players
            else tuple(f"Player {p + 1}" for p in range(rec.players))
        )
        console = Console(highlight=False)
        drawer = drawer_for(the_game.info.id)
        console.print(drawer.table(state.view(None), TableInfo(tuple(names), ())))
        status = "finished" if played.over else "not finished"
        console.print(f"{len(rec.moves)} moves replayed; the game is {status}.")
        for seat, version in rec.conceded:
            console.print(f"{names[seat]} conceded after move {version}.")
        console.print(
            "scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores(), strict=True))
        )
        if played.over:
            console.print("winners: " + ", ".join(names[p] for p in winners))


@app.command()
def arena(
    game: Annotated[str, typer.Argument(help="Game id.")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    agents: Annotated[
        str, typer.Option(help="Agents to compare, e.g. ismcts,heuristic; " + AGENT_SPECS)
    ] = "random",
    games: Annotated[int, typer.Option(min=1, help="Games (rounded up to whole rotations).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Parallel worker processes.")] = 1,
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Write a PNG of the results here.")] = None,
    journal: Annotated[
        Path | None,
        typer.Option(
            help="Keep every finished game in this file (JSON lines); the same run given it "
            "again plays only the games it lacks."
        ),
    ] = None,
    engine: EngineOption = EngineChoice.auto,
) -> None:
    """Rate agents: seats rotated on the same deals, win rates with 95% intervals, Elo."""
    with one_line_errors():
        the_game = spieltisch.load(game, players, **parse_options(game, option or []))
        names = split_names(agents)
        if not names:
            fail("--agents names no agent")
        for name in set(names):
            make_agent(name, the_game, 0)
        if plot is not None:
            check_writable(plot, "--plot")
        tasks = arena_lab.schedule(the_game, names, games, seed)
        used = lab_native.resolve_engine(engine.value, lab_native.lineups_of(tasks))  # or refused
        with progress_reporter(f"{the_game.info.name} arena", len(tasks)) as progress:
            results = arena_lab.run(
                tasks, workers, progress=progress, journal=journal, engine=engine.value
            )
        summary = arena_lab.summarise(
            results, names, game=game, players=the_game.players, seed=seed
        )
        # The figures first, so that a failing plot cannot lose hours of games.
        if as_json:
            print(json.dumps({**summary.to_json(scores=False), "engine": used}), flush=True)
        else:
            _print_arena(summary)
            Console().print(f"played by the {used} engine", highlight=False)
        if plot is not None:
            from spieltisch.lab.plot import arena_plot  # noqa: PLC0415 - lazy: matplotlib is slow

            title = f"{the_game.info.name}, {the_game.players} players: {len(results)} games"
            arena_plot(summary, title, plot, players=the_game.players)
            if not as_json:
                Console().print(f"plot written to {plot}")


@contextmanager
def progress_reporter(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """Progress on standard error: a live bar in a terminal, else a line every 5%."""
    console = Console(stderr=True)
    if console.is_terminal:
        columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress("{task.description}", *columns, console=console, transient=True) as bar:
            task = bar.add_task(description, total=total)
            yield lambda done: bar.update(task, completed=done)
        return
    step = max(1, total // 20)
    started = time.perf_counter()

    def report(done: int) -> None:
        if done % step == 0 or done == total:
            elapsed = time.perf_counter() - started
            console.print(f"{description}: {done}/{total} games, {elapsed:.0f}s", highlight=False)

    yield report


def _print_arena(summary: ArenaSummary) -> None:
    table = Table(title=f"{summary.game}: {summary.games} games, seed {summary.seed}")
    for column in ("agent", "seats", "win rate", "95% interval", "mean score", "margin", "Elo"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in summary.agents:
        low, high = row.win_rate_ci95
        table.add_row(
            row.agent,
            str(row.seats_played),
            f"{100 * row.win_rate:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{row.mean_score:.2f}",
            f"{row.mean_margin:+.2f}",
            f"{row.elo:.0f}",
        )
    Console().print(table)


@app.command()
def agents(
    game: Annotated[str, typer.Argument(help="Game id.")],
    players: Annotated[
        int | None, typer.Option(help="Number of players (the order can differ by count).")
    ] = None,
) -> None:
    """List the agents a game offers, strongest first (for that many players)."""
    with one_line_errors():
        for name in agent_names(spieltisch.load(game, players)):
            print(name)


@app.command("verify")
def verify_command(
    file: Annotated[Path, typer.Argument(help="A record of an online table (JSON).")],
) -> None:
    """Check a record's dice: the seed was fixed before the first move, and every roll,
    shuffle and deal is the one that seed draws."""
    with one_line_errors():
        rec = Record.loads(file.read_text(encoding="utf-8"))
        try:
            checked = verify_dice(spieltisch.load_record(rec), rec)
        except RecordError as error:
            fail(f"{file}: the dice do not check out: {error}")
        console = Console(highlight=False)
        console.print(
            f"[green]✓[/] table {checked.table}: the revealed secret matches the commitment "
            f"{checked.commitment[:16]}…, shown before the first move"
        )
        console.print(f"[green]✓[/] seed {checked.seed} follows from the secret and the salts")
        console.print(
            f"[green]✓[/] all {checked.chance_steps} rolls, shuffles and deals of the "
            f"{checked.moves} moves are the ones that seed draws"
        )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL (default: SQLite under $SPIELTISCH_HOME)."),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the lobby in a browser once it is up.")
    ] = False,
    bot_workers: Annotated[int, typer.Option(min=1, max=64, help="Processes for bots.")] = 2,
    trust_proxy: Annotated[
        bool,
        typer.Option(help="Behind a reverse proxy: read client addresses from X-Forwarded-For."),
    ] = False,
    stall_ms: Annotated[
        float,
        typer.Option(min=0, help="Log where the event loop was when held this long (0: off)."),
    ] = 0.0,
    workers: Annotated[
        int,
        typer.Option(
            min=1, max=64, help="Server processes behind the one port (more than 1: PostgreSQL)."
        ),
    ] = 1,
    rp_id: Annotated[
        str,
        typer.Option(
            "--rp-id",
            envvar="SPIELTISCH_RP_ID",
            help="The host name passkeys belong to, such as spiel.example (default: the name "
            "each page was opened by).",
        ),
    ] = "",
    heavy_bots_for_all: Annotated[
        bool,
        typer.Option(
            help="Let hosts who are not signed in seat the heaviest bot levels too (2 s and 5 s "
            "a move, 2,000 iterations); by default they are for signed-in hosts."
        ),
    ] = False,
) -> None:
    """Start the server for online tables: people and bots at one table, in the browser."""
    with one_line_errors():
        try:
            from spieltisch.web.routes.serve import serve as run  # noqa: PLC0415 - lazy: web extra
        except ModuleNotFoundError as missing:
            fail(
                f"the server needs the web extra ({missing.name} is missing): "
                'pip install "spieltisch[web]"'
            )
        run(host, port, db or "", open_browser, bot_workers, trust_proxy=trust_proxy,
            stall_ms=stall_ms, workers=workers, rp_id=rp_id,
            heavy_bots_for_all=heavy_bots_for_all)  # fmt: skip


@app.command()
def backup(
    target: Annotated[Path, typer.Argument(help="The backup file to write (must not exist).")],
    db: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL (default: SQLite under $SPIELTISCH_HOME)."),
    ] = None,
) -> None:
    """Back up the server's database, safely while it runs (SQLite's online backup; for
    PostgreSQL, the pg_dump command to use)."""
    with one_line_errors():
        try:
            from spieltisch.web.store.backup import BackupError  # noqa: PLC0415 - lazy: web extra
            from spieltisch.web.store.backup import backup as make_backup  # noqa: PLC0415 - lazy: web extra
        except ModuleNotFoundError as missing:
            extra = 'pip install "spieltisch[web]"'
            fail(f"backups need the web extra ({missing.name} is missing): {extra}")
        try:
            print(make_backup(db or "", target))
        except BackupError as error:
            fail(str(error))


lab_app = typer.Typer(
    help="The balance lab: run experiment files, locally or on Ray, and write their reports.",
    no_args_is_help=True,
)
app.add_typer(lab_app, name="lab")


class Backend(StrEnum):
    """Where an experiment's games are played."""

    local = "local"
    ray = "ray"


BackendOption = Annotated[Backend, typer.Option(help="local (process pool) or ray.")]
AddressOption = Annotated[
    str | None, typer.Option(help="Ray cluster to join (default: start a local one).")
]
WorkersOption = Annotated[int, typer.Option(min=1, max=1024, help="Parallel workers.")]


def _run_folder(experiment_file: Path, out: Path | None) -> Path:
    """The folder a lab command writes to (made if missing): ``--out``, or beside the file."""
    folder = out or experiment_file.with_suffix("")
    if folder.exists() and not folder.is_dir():
        fail(f"--out {folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _keep_experiment(experiment_file: Path, folder: Path) -> None:
    """The experiment file as run, copied into its folder (a redraw reads it from there), and
    beside it the plug-in files it names by a relative path, as run."""
    text = experiment_file.read_text(encoding="utf-8")
    (folder / "experiment.toml").write_text(text, encoding="utf-8")
    named = tomllib.loads(text).get("plugins", [])
    for source in named if isinstance(named, list) else []:
        if isinstance(source, str) and source.endswith(".py") and not Path(source).is_absolute():
            copy = folder / source
            if copy.resolve() != (experiment_file.parent / source).resolve():
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes((experiment_file.parent / source).read_bytes())


@lab_app.command("run")
def lab_run(
    experiment_file: Annotated[Path, typer.Argument(help="The experiment, a TOML file.")],
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    workers: WorkersOption = 1,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for the journal and report (default: beside the file)."),
    ] = None,
    engine: FileEngineOption = None,
) -> None:
    """Play an experiment's grid (resuming from the folder's journal) and write its report."""
    with one_line_errors():
        experiment = lab_experiment.load_experiment(experiment_file)
        used = experiment.engine_used(engine.value if engine else None)
        folder = _run_folder(experiment_file, out)
        journal = folder / "journal.jsonl"
        if journal.exists():
            lab_experiment.saved_results(experiment, journal)  # refuses another run's journal
        _keep_experiment(experiment_file, folder)
        runner = _lab_runner(backend, workers, address)
        started = time.perf_counter()
        try:
            with lab_progress(experiment.name) as (progress, played):
                cells = lab_experiment.run_experiment(
                    experiment, runner, journal, progress, lab_native.play_of(used)
                )
        except KeyboardInterrupt:
            Console(stderr=True).print(
                f"interrupted: every finished game is in {journal}; run the same command again "
                "to go on where it stopped",
                highlight=False,
            )
            raise typer.Exit(130) from None
        seconds = time.perf_counter() - started
        rate = played[0] / seconds if seconds > 0 and played[0] else 0.0
        run_info = {
            "engine": used,
            "backend": backend.value,
            "workers": workers,
            "games_played": played[0],
            "seconds": round(seconds, 2),
            "games_per_second": round(rate, 1),
        }
        (folder / "run.json").write_text(json.dumps(run_info, indent=2) + "\n", encoding="utf-8")
        _lab_outputs(folder, experiment, cells)


def _lab_runner(backend: Backend, workers: int, address: str | None) -> lab_engine.Runner:
    """Where a lab command plays its games: a local pool, or Ray (the cluster extra)."""
    if backend is Backend.ray:
        try:
            from spieltisch.lab.runners.ray_runner import (  # noqa: PLC0415 - lazy: ray extra
                RayRunner,
            )
        except ModuleNotFoundError as missing:
            fail(
                f"the Ray backend needs the cluster extra ({missing.name} is missing): "
                'pip install "spieltisch[cluster]"'
            )
        return RayRunner(workers, address)
    if address:
        fail("--address is for the ray backend")
    return lab_engine.runner_for(workers)


@lab_app.command("tune")
def lab_tune(
    experiment_file: Annotated[
        Path, typer.Argument(help="The experiment, a TOML file with a [tune] table.")
    ],
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    workers: WorkersOption = 1,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for the journal and findings (default: beside the file)."),
    ] = None,
    engine: FileEngineOption = None,
) -> None:
    """Find the value of a rule parameter that brings a metric to a target, with its interval
    (resuming from the folder's journal): docs/lab/README.md, 'Searching a parameter'."""
    with one_line_errors():
        experiment = lab_experiment.load_experiment(experiment_file)
        if not experiment.tuning:
            fail(f"{experiment_file} has no [tune] table: name a parameter, a metric, a target")
        from spieltisch.lab import tune as lab_tune_module  # noqa: PLC0415 - lazy: the lab
        from spieltisch.lab import tune_report  # noqa: PLC0415 - lazy: matplotlib

        spec = lab_tune_module.tune_spec(experiment, dict(experiment.tuning))
        used = experiment.engine_used(engine.value if engine else None)
        folder = _run_folder(experiment_file, out)
        _keep_experiment(experiment_file, folder)
        runner = _lab_runner(backend, workers, address)
        console = Console(stderr=True)
        count = [0]

        def played(task: lab_engine.Task, result: lab_engine.GameResult) -> None:
            count[0] += 1
            if count[0] % 200 == 0:
                console.print(
                    f"lab tune: {count[0]} games played, now {task.players} players, "
                    f"{', '.join(f'{k}={v}' for k, v in task.options)}",
                    highlight=False,
                )

        try:
            answers = tune_report.run_tune(folder, experiment, spec, runner, played, used)
        except KeyboardInterrupt:
            console.print(
                f"interrupted: every finished game is in {folder / 'journal.jsonl'}; run the "
                "same command again to go on where it stopped",
                highlight=False,
            )
            raise typer.Exit(130) from None
        for answer in answers:
            print(lab_tune_module.describe(answer, spec) + ".")
        print(f"written to {folder / 'tune.md'}")


@lab_app.command("dataset")
def lab_dataset(
    game: Annotated[str, typer.Argument(help="Game id.")],
    agents: Annotated[
        str, typer.Option(help="One agent for every seat, or one per seat; " + AGENT_SPECS)
    ] = "random",
    games: Annotated[int, typer.Option(min=1, max=10_000_000, help="Games to play.")] = 100,
    out: Annotated[Path, typer.Option(help="Folder for decisions.parquet and dataset.json.")] = (
        Path("dataset")
    ),
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value.")] = None,
) -> None:
    """Play games and write every decision as a Parquet row: the seat's observation, the
    legal mask, the action, the agent's probabilities where it has them, the final returns
    (docs/rl/README.md, 'Datasets'; seats 0-based)."""
    with one_line_errors():
        the_game = spieltisch.load(game, players, **parse_options(game, option or []))
        names = split_names(agents)
        if not names:
            fail("--agents names no agent")
        if out.exists() and not out.is_dir():
            fail(f"--out {out} is a file, not a folder")
        try:
            from spieltisch.rl.dataset import write_dataset  # noqa: PLC0415 - lazy: data extra
        except ModuleNotFoundError as missing:
            fail(
                f"datasets need the data extra ({missing.name} is missing): "
                'pip install "spieltisch[data]"'
            )
        with progress_reporter(f"{the_game.info.name} dataset", games) as progress:
            summary = write_dataset(the_game, names, games, out, seed, progress)
        print(f"{summary.rows} decisions of {summary.games} games written to {summary.path}")


@lab_app.command("report")
def lab_report(
    folder: Annotated[Path, typer.Argument(help="An experiment's output folder.")],
) -> None:
    """Redraw an experiment's report, plots and CSV from its saved results."""
    with one_line_errors():
        if not (folder / "experiment.toml").is_file():
            fail(f"{folder} holds no experiment.toml: give the folder of a lab run")
        from spieltisch.lab import report as lab_report_module  # noqa: PLC0415 - lazy: matplotlib

        analysis = lab_report_module.redraw(folder)
        _print_findings(lab_report_module.findings(analysis), folder)


@lab_app.command("ladder")
def lab_ladder(
    game: Annotated[
        list[str] | None, typer.Option(help="Measure this game only (repeat for more).")
    ] = None,
    players: Annotated[
        list[int] | None, typer.Option(help="Only this number of players (repeat for more).")
    ] = None,
    level: Annotated[
        list[str] | None, typer.Option(help="Rate only these levels (repeat; default: all).")
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, help="Games per pairing of two levels.")
    ] = lab_ladder_module.GAMES,
    cap: Annotated[
        list[str] | None,
        typer.Option(help="LEVEL=N: pairings with this costly level play at most N games."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole measurement.")] = 0,
    bootstrap: Annotated[
        int, typer.Option(min=0, help="Bootstrap resamples for the intervals.")
    ] = lab_ladder_module.BOOTSTRAP,
    workers: Annotated[int, typer.Option(min=1, help="Parallel worker processes.")] = 1,
    out: Annotated[Path, typer.Option(help="Write the ladder (JSON) here.")] = Path("ladder.json"),
    journal: Annotated[
        Path | None,
        typer.Option(help="Keep every finished game here (JSON lines); a rerun resumes it."),
    ] = None,
    engine: EngineOption = EngineChoice.auto,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Fail when the check finds ratings that disagree with their games.",
        ),
    ] = False,
) -> None:
    """Measure the bot ladder: rated levels in pairings, a Plackett-Luce fit, and the check of
    each two levels side by side against their own games (docs/ladder.md)."""
    with one_line_errors():
        caps = _caps(cap or [])
        plans = lab_ladder_module.make_plans(game, players, games, caps, level)
        check_writable(out, "--out")
        command = _ladder_command(
            [f"--game {g}" for g in game or []]
            + [f"--players {p}" for p in players or []]
            + [f"--level {v}" for v in level or []],
            games,
            caps,
            seed,
            bootstrap,
        )
        total = sum(
            len(lab_ladder_module.pairing_tasks(spieltisch.load(p.game, p.players), q, 0))
            for p in plans
            for q in p.pairings
        )
        with progress_reporter("bot ladder", total) as progress:
            measured = lab_ladder_module.measure(
                plans, seed, workers, bootstrap, progress, journal, engine.value
            )
        ladder = lab_ladder_module.build_ladder(command, seed, plans, games, measured)
        out.write_text(ladder.to_json(), encoding="utf-8")
        print(lab_ladder_module.markdown_table(ladder))
        print(lab_ladder_module.check_table(ladder), end="")
        print(f"the ladder of {len(plans)} game and player counts written to {out}")
        for sentence in lab_ladder_module.check_warnings(ladder):
            typer.echo(f"warning: {sentence}", err=True)
        if strict and ladder.disagreements():
            fail("the check found ratings that disagree with their games (see above)")


def _caps(pairs: list[str]) -> dict[str, int]:
    """``--cap LEVEL=N`` options as a mapping."""
    caps: dict[str, int] = {}
    for pair in pairs:
        level, sep, count = pair.partition("=")
        if not sep or not count.isdigit() or int(count) < 1:
            fail(f"--cap takes LEVEL=N with N a positive number, not {pair!r}")
        caps[level] = int(count)
    return caps


def _ladder_command(
    chosen: list[str],
    games: int,
    caps: dict[str, int],
    seed: int,
    bootstrap: int,
) -> str:
    """The command that measures this ladder again (what the file records): what decides the
    numbers, nothing of the machine (no ``--out``, ``--journal`` or ``--workers``), so two runs
    write the same file wherever they write it."""
    words = ["spieltisch lab ladder", *chosen]
    words.append(f"--games {games}")
    words += [f"--cap {level}={count}" for level, count in sorted(caps.items())]
    words += [f"--seed {seed}", f"--bootstrap {bootstrap}"]
    return " ".join(words)


def _lab_outputs(
    folder: Path,
    experiment: lab_experiment.Experiment,
    cells: list[lab_experiment.CellResults],
) -> None:
    from spieltisch.lab import report as lab_report_module  # noqa: PLC0415 - lazy: matplotlib

    analysis = lab_report_module.write_outputs(folder, experiment, cells)
    _print_findings(lab_report_module.findings(analysis), folder)


def _print_findings(sentences: list[str], folder: Path) -> None:
    console = Console()
    for sentence in sentences:
        console.print(f"- {sentence}", highlight=False, soft_wrap=True)
    console.print(f"report written to {folder / 'report.md'}", highlight=False)


PROGRESS_SECONDS = 0.1
"""How often a lab run's live progress bar is redrawn (a native game takes microseconds)."""


@contextmanager
def lab_progress(
    name: str,
) -> Iterator[tuple[Callable[[lab_experiment.RunProgress], None], list[int]]]:
    """Progress of a lab run on standard error: cells done, games per second, time left (a
    live bar in a terminal, else a line every 5%). Also counts the games played this time."""
    console = Console(stderr=True)
    started = time.perf_counter()
    played = [0]
    first: list[int] = []

    def count(p: lab_experiment.RunProgress) -> None:
        if not first:
            first.append(p.games_done)
        played[0] = p.games_done - first[0]

    def words(p: lab_experiment.RunProgress) -> str:
        elapsed = time.perf_counter() - started
        rate = played[0] / elapsed if elapsed > 0 else 0.0
        left = (p.games_total - p.games_done) / rate if rate > 0 else math.inf
        when = "?" if math.isinf(left) else f"{left:.0f}s"
        return (
            f"{name}: cells {p.cells_done}/{p.cells_total}, games {p.games_done}/"
            f"{p.games_total}, {rate:.1f} games/s, {when} left"
        )

    if console.is_terminal:
        with Progress("{task.description}", BarColumn(), console=console, transient=True) as bar:
            task = bar.add_task(name, total=None)

            shown = [0.0]

            def live(p: lab_experiment.RunProgress) -> None:
                count(p)
                now = time.perf_counter()
                if now - shown[0] >= PROGRESS_SECONDS or p.games_done == p.games_total:
                    shown[0] = now
                    text = words(p)
                    bar.update(task, description=text, completed=p.games_done, total=p.games_total)

            yield live, played
        return
    marks: set[int] = set()

    def lines(p: lab_experiment.RunProgress) -> None:
        count(p)
        mark = 20 * p.games_done // max(p.games_total, 1)
        if mark not in marks:
            marks.add(mark)
            console.print(words(p), highlight=False, soft_wrap=True)

    yield lines, played


def main() -> None:
    """Entry point of the ``spieltisch`` console command."""
    app()
