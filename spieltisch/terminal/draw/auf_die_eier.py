"""Auf die Eier in the terminal: dice as coloured faces, the score sheet with the chicken
ladders, whose turn and which throw, and the last events. Layout and colour only: the words
come from the game's words and the catalogs, in the table's language. Reads views only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.chance import Counts
from spieltisch.core.words import ENGLISH, N_, Speech
from spieltisch.games.auf_die_eier.model import LADDER, Stage
from spieltisch.games.auf_die_eier.notation import Face
from spieltisch.games.auf_die_eier.view import EierView
from spieltisch.games.auf_die_eier.words import FACE_SYMBOL, NO_DICE_TEXT
from spieltisch.terminal.draw.base import Drawer, TableInfo, sentence

FACE_STYLE = {
    Face.WHOLE: "bold black on white",
    Face.CRACKED: "bold black on yellow",
    Face.ROTTEN: "bold white on green4",
    Face.POT: "bold white on blue",
    Face.PAN: "bold white on grey37",
    Face.CHICKEN: "bold white on red3",
}
FACE_WORDS = {
    Face.WHOLE: N_("whole egg"),
    Face.CRACKED: N_("cracked egg"),
    Face.ROTTEN: N_("rotten egg"),
    Face.POT: N_("pot"),
    Face.PAN: N_("frying pan"),
    Face.CHICKEN: N_("chicken"),
}
"""Each face's name (its :attr:`~Face.label`; English, said in the table's language)."""


def legend(speech: Speech = ENGLISH) -> str:
    """Each face's symbol and name, on one line: ``◯ W whole egg  ◐ C cracked egg ...``."""
    return "  ".join(f"{FACE_SYMBOL[f]} {speech.gettext(FACE_WORDS[f])}" for f in Face)


def dice_row(dice: Counts, speech: Speech = ENGLISH) -> Text:
    """The dice as coloured faces, e.g. ``[☠ R] [◐ C]``."""
    row = Text()
    for face in Face:
        for _ in range(dice[face]):
            row.append(f" {FACE_SYMBOL[face]} ", style=FACE_STYLE[face])
            row.append(" ")
    return row if row.plain else Text(speech.gettext(NO_DICE_TEXT), style="dim")


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
        _ = table._
        sheet = RichTable(expand=False, title=_("Score sheet"))
        sheet.add_column(_("player"))
        sheet.add_column(_("points"), justify="right")
        sheet.add_column(_("chicken ladder (needed next in [ ])"))
        shared = view.config.shared_chicken_ladder
        for seat, points in enumerate(view.scores):
            name = table.player(seat)
            if seat == view.player and view.stage is not Stage.OVER:
                name = Text("▶ ") + name
            ladder = ladder_text(view.crossed[0 if shared else seat])
            sheet.add_row(name, str(points), _("(shared, below)") if shared else ladder)
        parts: list[RenderableType] = [sheet]
        if shared:
            ladder = ladder_text(view.crossed[0])
            parts.append(sentence(_("Shared chicken ladder: {ladder}"), ladder=ladder))
        parts.append(self._turn(view, table))
        if table.events:
            parts.append(table.recent(table.events[-4:]))
        return Panel(Group(*parts), title="Auf die Eier", subtitle=self._status(view, table))

    def _status(self, view: EierView, table: TableInfo) -> str:
        if view.stage is Stage.OVER:
            return table._("game over")
        notes = []
        if view.tie_players:
            notes.append(table._("tie turns"))
        elif view.final_round:
            notes.append(table._("final round"))
        notes.append(table.turn_of(view.player))
        return " · ".join(notes)

    def _turn(self, view: EierView, table: TableInfo) -> RenderableType:
        _ = table._
        if view.stage is Stage.OVER:
            return Text(_("The game is over."))
        need = view.chicken_need[view.player]
        needed = str(need) if need is not None else _("none left")
        lines = Text()
        lines.append(
            _("Throw {n} of 3 done · chickens needed: {need}").format(n=view.rolls, need=needed)
        )
        lines.append("\n")
        lines.append_text(
            sentence(_("On the table: {dice}"), dice=dice_row(view.dice, table.speech))
        )
        lines.append(f"\n{legend(table.speech)}", style="dim")
        return lines


DRAWER = EierDrawer()
