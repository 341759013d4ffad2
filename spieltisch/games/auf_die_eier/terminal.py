"""Auf die Eier in the terminal: dice as coloured faces, the score sheet with the chicken
ladders, whose turn and which throw, and the last events. Reads views only."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.chance import Counts
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier.notation import LETTERS, Face, Reroll, Stop, parse_dice
from spieltisch.games.auf_die_eier.rules import LADDER, Stage, TurnScore
from spieltisch.games.auf_die_eier.view import EierView
from spieltisch.terminal.render import Renderer, Table

FACE_STYLE = {
    Face.WHOLE: "bold black on white",
    Face.CRACKED: "bold black on yellow",
    Face.ROTTEN: "bold white on green4",
    Face.POT: "bold white on blue",
    Face.PAN: "bold white on grey37",
    Face.CHICKEN: "bold white on red3",
}
FACE_SYMBOL = {
    Face.WHOLE: "◯ W",
    Face.CRACKED: "◐ C",
    Face.ROTTEN: "☠ R",
    Face.POT: "⊔ P",
    Face.PAN: "⊖ F",
    Face.CHICKEN: "♣ H",
}
LEGEND = "  ".join(f"{FACE_SYMBOL[f]} {f.label}" for f in Face)


def dice_row(dice: Counts) -> Text:
    """The dice as coloured faces, e.g. ``[☠ R] [◐ C]``."""
    row = Text()
    for face in Face:
        for _ in range(dice[face]):
            row.append(f" {FACE_SYMBOL[face]} ", style=FACE_STYLE[face])
            row.append(" ")
    return row if row.plain else Text("none", style="dim")


def ladder_text(crossed: int) -> Text:
    """A chicken ladder: crossed entries struck through, the one needed next marked."""
    text = Text()
    for index, need in enumerate(LADDER):
        if index < crossed:
            text.append(f"{need}", style="strike dim")
        elif index == crossed:
            text.append(f"[{need}]", style="bold red")
        else:
            text.append(f"{need}")
        text.append(" ")
    return text


def score_text(result: TurnScore) -> str:
    """How a turn scored, in words."""
    parts = []
    if result.breakfast:
        spoiled = " (spoiled)" if result.spoiled_breakfast else ""
        parts.append(f"breakfast {result.breakfast}{spoiled}")
    if result.fried:
        good = result.fried - result.spoiled_fried
        spoiled = f", {result.spoiled_fried} spoiled" if result.spoiled_fried else ""
        parts.append(f"{result.fried} fried eggs pair(s){spoiled} = {5 * good}")
    if result.chickens:
        parts.append(f"chickens {result.chickens}")
    return f"{result.points} points" + (f" ({'; '.join(parts)})" if parts else "")


class EierRenderer(Renderer):
    """Draws Auf die Eier views."""

    def table(self, view: object, table: Table) -> RenderableType:
        assert isinstance(view, EierView)
        sheet = RichTable(expand=False, title="Score sheet")
        sheet.add_column("player")
        sheet.add_column("points", justify="right")
        sheet.add_column("chicken ladder (needed next in [ ])")
        shared = view.config.shared_chicken_ladder
        for seat, points in enumerate(view.scores):
            name = table.player(seat)
            if seat == view.player and view.stage is not Stage.OVER:
                name = Text("▶ ") + name
            ladder = ladder_text(view.crossed[0 if shared else seat])
            sheet.add_row(name, str(points), "(shared, below)" if shared else ladder)
        parts: list[RenderableType] = [sheet]
        if shared:
            parts.append(Text("Shared chicken ladder: ") + ladder_text(view.crossed[0]))
        parts.append(self._turn(view, table))
        if table.events:
            parts.append(Text("Recent: " + " | ".join(table.events[-4:]), style="dim"))
        return Panel(Group(*parts), title="Auf die Eier", subtitle=self._status(view, table))

    def _status(self, view: EierView, table: Table) -> str:
        if view.stage is Stage.OVER:
            return "game over"
        notes = []
        if view.tie_players:
            notes.append("tie turns")
        elif view.final_round:
            notes.append("final round")
        notes.append(f"{table.names[view.player]}'s turn")
        return " · ".join(notes)

    def _turn(self, view: EierView, table: Table) -> RenderableType:
        if view.stage is Stage.OVER:
            return Text("The game is over.")
        need = view.chicken_need[view.player]
        lines = Text()
        lines.append(f"Throw {view.rolls} of 3 done · ")
        lines.append(f"chickens needed: {need if need is not None else 'none left'}\n")
        lines.append("On the table: ")
        lines.append_text(dice_row(view.dice))
        lines.append(f"\n{LEGEND}", style="dim")
        del table
        return lines

    def move_label(self, view: object, move: Move) -> str:
        del view
        if isinstance(move, Stop):
            return "stop and score"
        if isinstance(move, Reroll):
            return f"reroll {''.join(LETTERS[f] * n for f, n in enumerate(move.dice))}"
        return str(move)

    def describe(self, view: object, move_text: str, table: Table, actor: str) -> str:
        assert isinstance(view, EierView)
        turn = table.names[view.player]
        word, _, rest = move_text.partition(" ")
        if word == "roll" and view.stage is Stage.ROTTEN:
            thrower = table.names[view.rotten_thrower]
            return f"{thrower} re-rolls {turn}'s Rotten Eggs: {dice_row(parse_dice(rest)).plain}"
        if word == "roll":
            return f"{turn} throws: {dice_row(parse_dice(rest)).plain}"
        if word == "stop":
            return f"{actor} stops."
        return f"{actor} re-rolls {dice_row(parse_dice(rest)).plain}"

    def aftermath(self, before: object, after: object, table: Table) -> str | None:
        assert isinstance(before, EierView) and isinstance(after, EierView)
        if after.last is None or after.last is before.last:
            return None
        return f"{table.names[after.last.player]} scores {score_text(after.last)}."

    def many_moves_hint(self, view: object, legal: Sequence[Move]) -> str:
        del view
        return (
            f"… {len(legal)} choices. Re-roll some dice with [bold]reroll FFP[/] (throws those "
            "again) or [bold]keep HHP[/] (keeps those, throws the other non-rotten dice); "
            "[bold]stop[/] scores now; [bold]moves[/] lists every choice with its number."
        )

    def help(self) -> str:
        return (
            "Dice letters: W whole egg, C cracked egg, R rotten egg, P pot, F frying pan, "
            "H chicken.\n[bold]stop[/] ends your throwing and scores; [bold]reroll FFP[/] "
            "throws those dice again; [bold]keep HHC[/] keeps those and throws all other "
            "non-rotten dice. Counts work too: [bold]reroll 2F P[/]. Rotten Eggs stay set "
            "aside; after your last throw the player on your right re-rolls them."
        )


RENDERER = EierRenderer()
