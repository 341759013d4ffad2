"""Auf die Nüsse! in the terminal: the board as it is laid out (4-area on top, then the 3-area,
the 2-area, the start track 2-12 and the face-up nuts below it, raccoon spaces in the middle
column), squirrels as the players' colour letters in their colours (so colour vision is not
needed), supplies and nut stores, the dice with the spaces they allow, and the chance that the
next roll fails. Reads views only; layout and colour here, the sentences from the game's
words, every word in the table's language."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.game import PlayerId
from spieltisch.core.words import ENGLISH, N_, Speech
from spieltisch.games.auf_die_nuesse.model import STORE_SIZES, Ending, Stage, Store
from spieltisch.games.auf_die_nuesse.notation import Dice, Space
from spieltisch.games.auf_die_nuesse.view import NuesseView
from spieltisch.games.auf_die_nuesse.words import card_text, pile_sentence, turn_sentence
from spieltisch.terminal.draw.base import SEAT_COLOURS, Drawer, TableInfo, seat_letter, sentence

TRACK = tuple(range(2, 13))
CELL = {n: 9 if n == 7 else 5 for n in TRACK}
"""Inner width of each start-track column; the raccoon column is wider."""
ROWS: tuple[tuple[tuple[Space | None, int, int, str], ...], ...] = (
    ((Space.AREA_4, 2, 12, N_("4-area: 4 squirrels take any nut")),),
    (
        (Space.LEFT_3, 2, 6, N_("3-area: nut 2-4 or 5-6")),
        (Space.RACCOON_3, 7, 7, N_("raccoon")),
        (Space.RIGHT_3, 8, 12, N_("3-area: nut 8-9 or 10-12")),
    ),
    (
        (Space.TWO_FOUR, 2, 4, "2-4"),
        (Space.FIVE_SIX, 5, 6, "5-6"),
        (Space.RACCOON_2, 7, 7, N_("raccoon")),
        (Space.EIGHT_NINE, 8, 9, "8-9"),
        (Space.TEN_TWELVE, 10, 12, "10-12"),
    ),
)
"""The areas from the top: each segment is (space, first and last track column, label: a
msgid, said in the table's language, or a space's notation)."""
NUT_COLUMNS = ((2, 4), (5, 6), (8, 9), (10, 12))
"""The track columns each face-up place lies under."""
GREEN_DIE = "bold white on green4"
WHITE_DIE = "bold black on white"


def colour(seat: PlayerId) -> str:
    """The seat's colour."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def span_width(first: int, last: int) -> int:
    """Inner width of a segment spanning track columns ``first`` to ``last``."""
    return sum(CELL[n] for n in range(first, last + 1)) + (last - first)


def squirrels(counts: Sequence[int], width: int) -> Text:
    """Each player's squirrels as their colour letter in their colour (``RR B``), or as
    ``3R`` when the letters do not fit: told apart without colour vision too."""
    text = Text()
    if sum(counts) + sum(1 for c in counts if c) - 1 <= width:
        for seat, count in enumerate(counts):
            if count:
                text.append(seat_letter(seat) * count, style=f"bold {colour(seat)}")
                text.append(" ")
    else:
        for seat, count in enumerate(counts):
            if count:
                text.append(f"{count}{seat_letter(seat)}", style=f"bold {colour(seat)}")
    text.rstrip()
    return text


def fit(text: Text, width: int) -> Text:
    """``text`` cut or padded to ``width`` cells."""
    text = text.copy()
    text.truncate(width, pad=True)
    return text


def board_text(view: NuesseView, speech: Speech = ENGLISH) -> Text:
    """The board, line by line, columns lined up with the start track."""
    total = span_width(2, 12)
    out = Text("┌" + "─" * total + "┐\n")
    for row in ROWS:
        labels, dots = Text("│"), Text("│")
        for space, first, last, label in row:
            width = span_width(first, last)
            paying = view.space is space and view.stage in {Stage.TAKE, Stage.STEAL, Stage.PUT}
            style = "bold reverse" if paying else "dim"
            said = speech.gettext(label)
            labels.append_text(fit(Text(f" {said}", style=style), width))
            labels.append("│")
            assert space is not None
            dots.append_text(fit(Text(" ") + squirrels(view.areas[space], width - 1), width))
            dots.append("│")
        out.append_text(labels + "\n")
        out.append_text(dots + "\n")
        out.append("├" + "─" * total + "┤\n")
    out.append_text(_track_line(view, numbers=True) + "\n")
    out.append_text(_track_line(view, numbers=False) + "\n")
    out.append("└" + "─" * total + "┘\n")
    out.append_text(_nut_line(view, speech))
    return out


def _track_line(view: NuesseView, *, numbers: bool) -> Text:
    line = Text("│")
    for n in TRACK:
        width = CELL[n]
        if numbers:
            style = "bold reverse" if n in view.placements else "bold"
            line.append_text(fit(Text(f"{n:^{width}}", style=style), width))
        elif n in view.track:
            mark = seat_letter(view.player)
            line.append(f"{mark:^{width}}", style=f"bold {colour(view.player)}")
        else:
            line.append(f"{'·':^{width}}", style="dim")
        line.append("│")
    return line


def _nut_line(view: NuesseView, speech: Speech) -> Text:
    line = Text(" ")
    column = 2
    for slot, (first, last) in enumerate(NUT_COLUMNS):
        if first > column:  # the raccoon column has no nut under it
            line.append(" " * (span_width(column, first - 1) + 1))
        card = view.face_up[slot]
        style = "bold reverse" if slot in view.offer else "bold"
        line.append_text(
            fit(Text(card_text(card, speech=speech), style=style), span_width(first, last))
        )
        line.append(" ")
        column = last + 1
    return line


def store_text(store: Store, speech: Speech = ENGLISH) -> Text:
    """One store's fill: ``W2`` (two walnuts), ``W1+J`` (and a joker), ``J=W`` (a joker alone,
    standing for walnuts), ``·`` empty, ``full`` (in the language of ``speech``)."""
    if store.full:
        return Text(speech.gettext("full"), style="bold green")
    if store.kind is None:
        return Text("·", style="dim")
    kind = store.kind.value[0].upper()
    jokers = "J" if store.jokers == 1 else f"{store.jokers}J"
    if not store.nuts:
        return Text(f"{jokers}={kind}")
    return Text(f"{kind}{store.nuts}" + (f"+{jokers}" if store.jokers else ""))


def players_table(view: NuesseView, table: TableInfo) -> RichTable:
    """Supply, stores (headed by size and value), kept jokers and points of every player."""
    grid = RichTable(expand=False, box=None, pad_edge=False, padding=(0, 1, 0, 0))
    _ = table._
    grid.add_column(_("player"))
    # TRANSLATORS: a narrow column head, short for "supply" (the squirrels not yet on the board)
    grid.add_column(_("sup"), justify="right")
    values = view.config.store_values  # the table's own store values (option store_table)
    for index, size in enumerate(STORE_SIZES):
        grid.add_column(f"S{index + 1}\n{size}:{values[index]}", justify="center")
    # TRANSLATORS: a narrow column head: the jokers a player keeps for later
    grid.add_column(_("kept"))
    # TRANSLATORS: a narrow column head, short for "points"
    grid.add_column(_("pts"), justify="right")
    for seat, stores in enumerate(view.stores):
        name = table.player(seat)
        if seat == view.player and view.stage is not Stage.OVER:
            name = Text("▶ ") + name
        jokers = ",".join(card.short for card in view.jokers[seat]) or "-"
        cells = [store_text(store, table.speech) for store in stores]
        grid.add_row(name, str(view.supply[seat]), *cells, jokers, str(view.scores[seat]))
    return grid


def dice_text(dice: Dice, speech: Speech = ENGLISH) -> Text:
    """The three dice, the green one first."""
    text = Text(speech.gettext("green") + " ")
    text.append(f" {dice.green} ", style=GREEN_DIE)
    # TRANSLATORS: the colour of the two white dice, before them
    text.append("  " + speech.gettext("white") + " ")
    text.append(f" {dice.white1} ", style=WHITE_DIE)
    text.append(" ")
    text.append(f" {dice.white2} ", style=WHITE_DIE)
    return text


def turn_text(view: NuesseView, table: TableInfo) -> Text:
    """What is going on now, in a line or two: the dice, then what happens next."""
    line = Text()
    if view.dice is not None and view.stage in {Stage.PLACE, Stage.AGAIN}:
        line.append_text(dice_text(view.dice, table.speech))
        first, second = view.dice.sums
        sums = table._("green + white: {first} or {second}").format(first=first, second=second)
        line.append(f"   {sums}\n")
    line.append(turn_sentence(view, table.names, speech=table.speech))
    return line


def pile_text(view: NuesseView, table: TableInfo) -> Text:
    """The draw pile, the set-aside nuts, how near the end is, and where David sits."""
    style = "dim" if view.ending is Ending.NOT_YET else "bold"
    text = Text(pile_sentence(view, speech=table.speech), style=style)
    if view.david is not None:
        david = table._("David the raccoon sits with {player}: nothing can be stolen from them.")
        text.append("\n")
        text.append_text(sentence(david, player=table.player(view.david)))
    return text


class NuesseDrawer(Drawer[NuesseView]):
    """Draws Auf die Nüsse! views."""

    def table(self, view: NuesseView, table: TableInfo) -> RenderableType:
        parts: list[RenderableType] = [
            board_text(view, table.speech),
            pile_text(view, table),
            players_table(view, table),
            turn_text(view, table),
        ]
        if table.events:
            parts.append(table.recent(table.events[-4:]))
        status = table._("game over") if view.stage is Stage.OVER else table.turn_of(view.player)
        return Panel(Group(*parts), title="Auf die Nüsse!", subtitle=status, expand=False)


DRAWER = NuesseDrawer()
