"""Auweier in the terminal: the females in a row with every player's stack and total before
each in the player's colour, Weddings marked, egg stacks, the players' hands, piles and eggs,
the viewer's own hand and deck order, and whose go it is in which stage. Reads views only;
layout and colour here, the words from the game's words."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.games.auweier.model import SETUP_STAGES, Stage
from spieltisch.games.auweier.notation import CARD_TEXT, DECK_SIZE, Card, Colour
from spieltisch.games.auweier.view import AuweierView, FemaleView
from spieltisch.games.auweier.words import (
    STAGE_TEXT,
    WORDS,
    count_text,
    deck_text,
    egg_text,
    mating_text,
)
from spieltisch.terminal.draw.base import SEAT_COLOURS, Drawer, TableInfo

CARD_STYLE = {
    Card.FALSE_WORM: "italic dim",
    Card.CROW: "bold white on grey23",
    Card.WEDDING: "bold magenta",
    Card.TWO_STAR: "underline",
    Card.FIVE_STAR: "underline",
}
WEDDING_MARK = "♥"
SETUP = frozenset(SETUP_STAGES)
"""The stages in which the decks are set up."""


def card_text(card: Card) -> Text:
    """One card in notation, styled by kind."""
    return Text(CARD_TEXT[card], style=CARD_STYLE.get(card, ""))


def cards_row(cards: Sequence[Card]) -> Text:
    """Cards separated by spaces, styled; ``-`` for none."""
    if not cards:
        return Text("-", style="dim")
    return Text(" ").join(card_text(card) for card in cards)


def counts_row(counts: Sequence[int]) -> Text:
    """A multiset of cards in notation order, styled; ``-`` for none."""
    return cards_row([Card(k) for k, n in enumerate(counts) for _ in range(n)])


def colour_word(colour: Colour, neutral: bool = False) -> Text:
    """A colour's name in that colour (the neutral female in white)."""
    word = f"{colour.label} (neutral)" if neutral else colour.label
    return Text(word, style=f"bold {SEAT_COLOURS[colour]}")


class AuweierDrawer(Drawer[AuweierView]):
    """Draws Auweier views."""

    def table(self, view: AuweierView, table: TableInfo) -> RenderableType:
        parts: list[RenderableType] = [self._females(view, table), self._players(view, table)]
        parts.append(self._own(view))
        parts.append(self._status_line(view, table))
        if view.last is not None:
            parts.append(Text("Last mating: " + mating_text(view, table.names), style="dim"))
        events = [event for event in table.events if event]  # secret steps say nothing
        if events:
            parts.append(Text("Recent: " + " | ".join(events[-4:]), style="dim"))
        return Panel(Group(*parts), title="Auweier", subtitle=STAGE_TEXT[view.stage])

    def _females(self, view: AuweierView, table: TableInfo) -> RichTable:
        grid = RichTable(title="The females (cards bottom first; ♥ a Wedding)", expand=False)
        grid.add_column("")
        for female in view.females:
            head = colour_word(female.colour, female.neutral)
            eggs = " ".join(str(e) for e in female.eggs_left) or "none"
            head.append(f"\neggs left: {eggs}", style="dim" if female.eggs_left else "red")
            if female.closed:
                head.append(" (closed)", style="red")
            grid.add_column(head, justify="left")
        for seat in range(view.config.players):
            cells = [stack_cell(female, seat, view.config.players) for female in view.females]
            grid.add_row(table.player(seat), *cells)
        return grid

    def _players(self, view: AuweierView, table: TableInfo) -> RichTable:
        grid = RichTable(expand=False, show_edge=False, box=None, padding=(0, 2))
        ordering = view.stage in SETUP
        sizes = ("deck",) if ordering else ("hand", "pile")
        for column in ("player", *sizes, "eggs", "points", ""):
            grid.add_column(column)
        for seat, info in enumerate(view.players):
            name = table.player(seat)
            if seat == view.player and view.stage is not Stage.OVER:
                name = Text("▶ ") + name
            if seat == view.start_player:
                name.append(" ★", style="yellow")
            eggs = " ".join(egg_text(e.female, e.eggs) for e in info.eggs) or "-"
            notes = []
            if any(info.shown):
                notes.append(Text("holds ") + counts_row(info.shown))
            if info.weddings:
                notes.append(Text("♥ " + " ".join(c.letter for c in info.weddings)))
            if info.passed and view.stage in {Stage.WEDDINGS, Stage.WORMS}:
                notes.append(Text("passed", style="dim"))
            cells = (
                [deck_text(info)]
                if ordering
                else [count_text(info.hand_size), count_text(info.pile_size)]
            )
            grid.add_row(name, *cells, eggs, str(info.score), Text("  ").join(notes))
        return grid

    def _own(self, view: AuweierView) -> RenderableType:
        if view.hand is None:
            return Text("(spectator: no hand shown)", style="dim")
        lines = Text()
        if view.stage in SETUP:
            lines.append("Your deck so far (drawn first → last): ")
            lines.append_text(cards_row(view.pile_known))
            if any(view.pile_unknown):
                lines.append("  then shuffled: ")
                lines.append_text(counts_row(view.pile_unknown))
            lines.append("\nStill to place: ")
            lines.append_text(counts_row(view.hand))
            lines.append("  (the first six placed are your starting hand)", style="dim")
            return lines
        lines.append("Your hand: ")
        lines.append_text(counts_row(view.hand))
        lines.append("\nYour pile (next first): ")
        lines.append_text(cards_row(view.pile_known))
        if any(view.pile_unknown):
            lines.append("  then shuffled: " if view.pile_known else "shuffled: ")
            lines.append_text(counts_row(view.pile_unknown))
        return lines

    def _status_line(self, view: AuweierView, table: TableInfo) -> Text:
        who = table.player(view.player)
        if view.stage is Stage.OVER:  # why it ended and who won, as the game's words say it
            return Text(WORDS.game_over(view, table.names), style="bold")
        line = Text()
        if view.stage is Stage.ORDER:
            line.append_text(who)
            placed = view.players[view.player].pile_size
            if placed is None:  # another player's deck: how far it has got is secret
                line.append(" sets up their deck.")
            else:
                line.append(f" arranges their deck ({placed} of {DECK_SIZE} cards placed).")
        elif view.stage in {Stage.SHUFFLE, Stage.SPREAD}:
            line.append("Shuffling the cards of ")
            line.append_text(who)
            line.append(".")
        elif view.stage is Stage.PLAY:
            line.append_text(who)
            line.append(" to play a card (normal turn).")
        else:
            stage = "wedding stage" if view.stage is Stage.WEDDINGS else "worm stage"
            line.append(f"Wedding phase, {stage}, opened by ")
            line.append_text(table.player(view.start_player))
            line.append(": ")
            line.append_text(who)
            line.append(" to go.")
        return line


def stack_cell(female: FemaleView, seat: int, players: int) -> Text:
    """One player's stack before one female, with the total and a ♥ for a Wedding."""
    stack = female.stacks[seat]
    style = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    cell = Text()
    if stack.wedding:
        cell.append(f"{WEDDING_MARK} ", style="bold magenta")
    if not stack.cards:
        cell.append("·", style="dim")
        return cell
    cell.append_text(cards_row(stack.cards))
    best = max(s.total for s in female.stacks)
    leads = stack.total == best and sum(s.total == best for s in female.stacks[:players]) == 1
    cell.append(f" = {stack.total}", style=f"bold {style}" + (" underline" if leads else ""))
    return cell


DRAWER = AuweierDrawer()
