"""Awimbawé in the terminal: both players' piles as they lie (face-down cards as backs), the
hand, the trick, the last trick, blocked cards, crowns and hyenas taken, round wins and the heir
cards, and what the round has shown: the cards played and the lands a player has none of in
hand. Layout and colour only: what is said comes from the game's words. Reads views only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.notation import Card, Land, Stance, cards_text
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView
from spieltisch.games.awimbawe.words import (
    crowns_text,
    known_text,
    result_text,
    status_text,
    who,
)
from spieltisch.terminal.draw.base import Drawer, TableInfo

LAND_STYLE = {
    Land.GRASSLAND: "bold black on green3",
    Land.DESERT: "bold black on yellow3",
    Land.MOUNTAIN: "bold white on grey50",
    Land.PLAIN: "bold white on dark_orange3",
    Land.SKY: "bold white on blue",
}
BACK = Text(" ▒▒ back  ", style="white on grey23")
POWERS = (
    "mouse: beats the elephant of its land · rhinoceros: moves a top card of the opponent "
    "under another of their piles · cheetah: names the next leader · hyena: the fourth one "
    "loses the round · snake: blocks an opponent's card · elephant: no power · eagles: "
    "must be played when you cannot follow; flee or fight"
)


def card_text(card: Card, *, blocked: bool = False) -> Text:
    """A card as a coloured chip: code, animal and crowns; a blocked card is marked ⊘."""
    animal = "eagle" if card.is_eagle else card.animal.value
    label = f" {card} {animal} {crowns_text(card.crowns)} "
    style = LAND_STYLE[card.land] + (" strike" if blocked else "")
    text = Text(label, style=style)
    if blocked:
        text.append("⊘", style="bold red")
    return text


def cards_row(cards: tuple[Card, ...], blocked: tuple[Card, ...] = ()) -> Text:
    """Cards side by side."""
    row = Text()
    for card in cards:
        row.append_text(card_text(card, blocked=card in blocked))
        row.append(" ")
    return row if row.plain else Text("none", style="dim")


class AwimbaweDrawer(Drawer[AwimbaweView]):
    """Draws Awimbawé views."""

    score_label = "rounds won"

    def table(self, view: AwimbaweView, table: TableInfo) -> RenderableType:
        me = view.viewer if view.viewer is not None else 0
        order = [1 - me, me]
        parts: list[RenderableType] = [self._side(view, order[0], table)]
        parts.append(Rule(style="dim"))
        parts.append(self._middle(view, table))
        parts.append(Rule(style="dim"))
        parts.append(self._side(view, order[1], table))
        if table.events:
            parts.append(Text("Recent: " + " | ".join(table.events[-4:]), style="dim"))
        title = f"Awimbawé · round {view.round}"
        return Panel(Group(*parts), title=title, subtitle=status_text(view, table.names))

    def _side(self, view: AwimbaweView, seat: int, table: TableInfo) -> RenderableType:
        side = view.sides[seat]
        head = Text()
        head.append_text(table.player(seat))
        if seat == view.viewer:
            head.append(" (you)")
        heir = "gold ★" if side.heir is Heir.GOLD else "silver"
        head.append(f" · heir card {heir} · rounds won {side.wins}")
        if view.round_leader == seat and view.stage is not Stage.OVER:
            head.append(" · led this round", style="dim")
        score = Text(
            f"scoring pile {side.scoring_pile} cards · crowns {side.crowns:+d} · "
            f"hyenas {side.hyenas}/4",
            style="bold red" if side.hyenas >= 3 else "",
        )
        lines: list[RenderableType] = [head, self._piles(side), self._hand(side), score]
        known = self._known(side)
        if known is not None:
            lines.append(known)
        return Group(*lines)

    def _known(self, side: SideView) -> Text | None:
        """What the play has shown of a hand, dimmed."""
        known = known_text(side)
        return Text(known, style="dim") if known is not None else None

    def _piles(self, side: SideView) -> RenderableType:
        grid = RichTable(box=None, show_header=True, padding=(0, 1), expand=False)
        height = max((len(p) for p in side.piles), default=0)
        for number in range(1, len(side.piles) + 1):
            grid.add_column(f"pile {number}", justify="left")
        if height == 0:
            return Text("piles: all empty", style="dim")
        for row in range(height):  # the top cards line up on the last row
            cells: list[RenderableType] = []
            for pile in side.piles:
                index = row - (height - len(pile))
                if index < 0:
                    cells.append(Text(""))
                    continue
                card = pile[index]
                if card is None:
                    cells.append(BACK)
                else:
                    cells.append(card_text(card, blocked=card in side.blocked))
            grid.add_row(*cells)
        return Group(Text("piles (the top card, on the last row, is playable):", style="dim"), grid)

    def _hand(self, side: SideView) -> Text:
        if side.hand is not None:
            return Text("hand: ") + cards_row(side.hand, side.blocked)
        text = Text(f"hand: {side.hand_size} cards, face down")
        if side.blocked_unseen:
            text.append(f" ({side.blocked_unseen} blocked, picked blind)", style="red")
        return text

    def _middle(self, view: AwimbaweView, table: TableInfo) -> RenderableType:
        names = table.names
        lines = Text()
        if view.trick:
            lines.append(f"Trick: {who(view, view.leader, names)} led ")
            lines.append_text(card_text(view.trick[0]))
            if len(view.trick) > 1:
                lines.append(f", {who(view, 1 - view.leader, names)} answered ")
                lines.append_text(card_text(view.trick[1]))
        elif view.stage is Stage.PLAY:
            lines.append(f"Trick: {who(view, view.leader, names)} to lead")
        if view.next_leader is not None:
            lines.append(f"\nA cheetah names {who(view, view.next_leader, names)} to lead next")
        last = view.last_trick
        if last is not None:
            lines.append("\nLast trick: ")
            lines.append_text(cards_row(last.cards))
            if last.stance is Stance.FLEE:
                lines.append(f"— the eagle fled: {who(view, last.leader, names)} took the led card")
            else:
                lines.append(f"— won by {who(view, last.winner, names)}")
        if view.played:
            lines.append(f"\nPlayed this round ({len(view.played)}): {cards_text(view.played)}")
        for result in view.results[-3:]:
            lines.append("\n" + result_text(result, names))
        return lines


DRAWER = AwimbaweDrawer()
