"""Auweier in the terminal: the females in a row with every player's stack and total before
each in the player's colour, Weddings marked, egg stacks, the players' hands, piles and eggs,
the viewer's own hand and deck order, and whose go it is in which stage. Reads views only;
layout and colour here, the words from the game's words and the catalogs, in the table's
language."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.words import ENGLISH, Speech
from spieltisch.games.auweier.model import SETUP_STAGES, Stage
from spieltisch.games.auweier.notation import CARD_TEXT, Card, Colour
from spieltisch.games.auweier.view import AuweierView, FemaleView
from spieltisch.games.auweier.words import (
    COLOUR_WORDS,
    STAGE_TEXT,
    WORDS,
    count_text,
    deck_text,
    egg_text,
    mating_text,
)
from spieltisch.terminal.draw.base import SEAT_COLOURS, Drawer, TableInfo, sentence

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


def colour_word(colour: Colour, neutral: bool = False, speech: Speech = ENGLISH) -> Text:
    """A colour's name in that colour, in the language of ``speech``."""
    word = speech.gettext(COLOUR_WORDS[colour])
    if neutral:
        word = speech.gettext("{colour} (neutral)").format(colour=word)
    return Text(word, style=f"bold {SEAT_COLOURS[colour]}")


class AuweierDrawer(Drawer[AuweierView]):
    """Draws Auweier views."""

    def table(self, view: AuweierView, table: TableInfo) -> RenderableType:
        parts: list[RenderableType] = [self._females(view, table), self._players(view, table)]
        parts.append(self._own(view, table))
        parts.append(self._status_line(view, table))
        if view.last is not None:
            mating = mating_text(view, table.names, speech=table.speech)
            parts.append(Text(table._("Last mating: {mating}").format(mating=mating), style="dim"))
        events = [event for event in table.events if event]  # secret steps say nothing
        if events:
            parts.append(table.recent(events[-4:]))
        subtitle = table._(STAGE_TEXT[view.stage])
        return Panel(Group(*parts), title="Auweier", subtitle=subtitle)

    def _females(self, view: AuweierView, table: TableInfo) -> RichTable:
        _ = table._
        grid = RichTable(title=_("The females (cards bottom first; ♥ a Wedding)"), expand=False)
        grid.add_column("")
        for female in view.females:
            head = colour_word(female.colour, female.neutral, table.speech)
            eggs = " ".join(str(e) for e in female.eggs_left) or _("none")
            left = _("eggs left: {eggs}").format(eggs=eggs)
            head.append(f"\n{left}", style="dim" if female.eggs_left else "red")
            if female.closed:
                head.append(" (" + _("closed") + ")", style="red")
            grid.add_column(head, justify="left")
        for seat in range(view.config.players):
            cells = [stack_cell(female, seat, view.config.players) for female in view.females]
            grid.add_row(table.player(seat), *cells)
        return grid

    def _players(self, view: AuweierView, table: TableInfo) -> RichTable:
        grid = RichTable(expand=False, show_edge=False, box=None, padding=(0, 2))
        ordering = view.stage in SETUP
        _ = table._
        sizes = (_("deck"),) if ordering else (_("hand"), _("pile"))
        for column in (_("player"), *sizes, _("eggs"), _("points"), ""):
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
                # TRANSLATORS: the cards a player is known to hold in hand
                notes.append(sentence(_("holds {cards}"), cards=counts_row(info.shown)))
            if info.weddings:
                notes.append(Text("♥ " + " ".join(c.letter for c in info.weddings)))
            if info.passed and view.stage in {Stage.WEDDINGS, Stage.WORMS}:
                notes.append(Text(_("passed"), style="dim"))
            cells = (
                [deck_text(info, speech=table.speech, total=view.config.deck_cards)]
                if ordering
                else [count_text(info.hand_size), count_text(info.pile_size)]
            )
            grid.add_row(name, *cells, eggs, str(info.score), Text("  ").join(notes))
        return grid

    def _own(self, view: AuweierView, table: TableInfo) -> RenderableType:
        _ = table._
        if view.hand is None:
            return Text(_("(spectator: no hand shown)"), style="dim")
        lines = Text()
        unknown = counts_row(view.pile_unknown)
        if view.stage in SETUP:
            known = cards_row(view.pile_known)
            lines.append_text(
                sentence(_("Your deck so far (drawn first → last): {cards}"), cards=known)
            )
            if any(view.pile_unknown):
                lines.append("  ")
                lines.append_text(sentence(_("then shuffled: {cards}"), cards=unknown))
            lines.append("\n")
            lines.append_text(sentence(_("Still to place: {cards}"), cards=counts_row(view.hand)))
            lines.append("  " + _("(the first six placed are your starting hand)"), style="dim")
            return lines
        lines.append_text(sentence(_("Your hand: {cards}"), cards=counts_row(view.hand)))
        lines.append("\n")
        lines.append_text(
            sentence(_("Your pile (next first): {cards}"), cards=cards_row(view.pile_known))
        )
        if any(view.pile_unknown):
            if view.pile_known:
                lines.append("  ")
                lines.append_text(sentence(_("then shuffled: {cards}"), cards=unknown))
            else:
                lines.append_text(sentence(_("shuffled: {cards}"), cards=unknown))
        return lines

    def _status_line(self, view: AuweierView, table: TableInfo) -> Text:
        _ = table._
        who = table.player(view.player)
        if view.stage is Stage.OVER:  # why it ended and who won, as the game's words say it
            words = WORDS.speaking(table.speech)
            return Text(words.game_over(view, table.names), style="bold")
        if view.stage is Stage.ORDER:
            placed = view.players[view.player].pile_size
            if placed is None:  # another player's deck: how far it has got is secret
                return sentence(_("{player} sets up their deck."), player=who)
            arranges = _("{player} arranges their deck ({n} of {total} cards placed).")
            return sentence(
                arranges.format(player="{player}", n=placed, total=view.config.deck_cards),
                player=who,
            )
        if view.stage in {Stage.SHUFFLE, Stage.SPREAD}:
            return sentence(_("Shuffling the cards of {player}."), player=who)
        if view.stage is Stage.PLAY:
            return sentence(_("{player} to play a card (normal turn)."), player=who)
        stage = _("wedding stage") if view.stage is Stage.WEDDINGS else _("worm stage")
        phase = _("Wedding phase, {stage}, opened by {opener}: {player} to go.")
        opener = table.player(view.start_player)
        return sentence(phase, stage=stage, opener=opener, player=who)


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
