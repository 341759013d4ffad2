"""Auf die Eier in the terminal: dice as coloured faces, the score sheet with the chicken
ladders, whose turn and which throw, and the last events. Layout and colour only: the words
come from the game's words. Reads views only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.chance import Counts
from spieltisch.games.auf_die_eier.model import LADDER, Stage
from spieltisch.games.auf_die_eier.notation import Face
from spieltisch.games.auf_die_eier.view import EierView
from spieltisch.games.auf_die_eier.words import FACE_SYMBOL, LEGEND, NO_DICE_TEXT
from spieltisch.terminal.draw.base import Drawer, TableInfo

FACE_STYLE = {
    Face.WHOLE: "bold black on white",
    Face.CRACKED: "bold black on yellow",
    Face.ROTTEN: "bold white on green4",
    Face.POT: "bold white on blue",
    Face.PAN: "bold white on grey37",
    Face.CHICKEN: "bold white on red3",
}


def dice_row(dice: Counts) -> Text:
    """The dice as coloured faces, e.g. ``[☠ R] [◐ C]``."""
    row = Text()
    for face in Face:
        for _ in range(dice[face]):
            row.append(f" {FACE_SYMBOL[face]} ", style=FACE_STYLE[face])
            row.append(" ")
    return row if row.plain else Text(NO_DICE_TEXT, style="dim")


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


class EierDrawer(Drawer[EierView]):
    """Draws Auf die Eier views."""

    def table(self, view: EierView, table: TableInfo) -> RenderableType:
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
        parts.append(self._turn(view))
        if table.events:
            parts.append(Text("Recent: " + " | ".join(table.events[-4:]), style="dim"))
        return Panel(Group(*parts), title="Auf die Eier", subtitle=self._status(view, table))

    def _status(self, view: EierView, table: TableInfo) -> str:
        if view.stage is Stage.OVER:
            return "game over"
        notes = []
        if view.tie_players:
            notes.append("tie turns")
        elif view.final_round:
            notes.append("final round")
        notes.append(f"{table.names[view.player]}'s turn")
        return " · ".join(notes)

    def _turn(self, view: EierView) -> RenderableType:
        if view.stage is Stage.OVER:
            return Text("The game is over.")
        need = view.chicken_need[view.player]
        lines = Text()
        lines.append(f"Throw {view.rolls} of 3 done · ")
        lines.append(f"chickens needed: {need if need is not None else 'none left'}\n")
        lines.append("On the table: ")
        lines.append_text(dice_row(view.dice))
        lines.append(f"\n{LEGEND}", style="dim")
        return lines


DRAWER = EierDrawer()
