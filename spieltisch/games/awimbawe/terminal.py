"""Awimbawé in the terminal: both players' piles as they lie (face-down cards as backs), the
hand, the trick, the last trick, blocked cards, crowns and hyenas taken, round wins and the heir
cards, and what the round has shown: the cards played and the lands a player has none of in
hand. Power choices are listed in plain words. Reads views only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.game import Move
from spieltisch.games.awimbawe.notation import (
    HIDDEN_PICK,
    Block,
    Card,
    Decline,
    Land,
    Lead,
    Play,
    Rhino,
    Stance,
    cards_text,
    parse_card,
)
from spieltisch.games.awimbawe.rules import Stage
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView
from spieltisch.terminal.render import Renderer, Table

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


def crowns_text(crowns: int) -> str:
    """Crowns as marks: ``♛♛`` for +2, ``✗`` for -1, ``·`` for none."""
    if crowns > 0:
        return "♛" * crowns
    return "✗" * -crowns if crowns else "·"


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


def crowns_summary(crowns: tuple[int, ...], table: Table) -> str:
    """Each player's crowns, by name."""
    return "crowns " + ", ".join(f"{table.names[p]} {c:+d}" for p, c in enumerate(crowns))


def who(view: AwimbaweView, seat: int, table: Table) -> str:
    """A seat's name, ``you`` for the viewer."""
    return "you" if seat == view.viewer else table.names[seat]


class AwimbaweRenderer(Renderer):
    """Draws Awimbawé views."""

    def table(self, view: object, table: Table) -> RenderableType:
        if not isinstance(view, AwimbaweView):
            return super().table(view, table)
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
        return Panel(Group(*parts), title=title, subtitle=self._status(view, table))

    def _side(self, view: AwimbaweView, seat: int, table: Table) -> RenderableType:
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
        """What the play has shown of a hand: lands it holds none of, cards shown in it."""
        parts = []
        if side.void:
            parts.append("no " + " or ".join(land.value for land in side.void) + " in hand")
        for record in side.blind_voids:
            lands = " or ".join(land.value for land in record.lands)
            parts.append(f"no unblocked {lands} when {record.picks} card(s) were blocked blind")
        if side.shown:
            parts.append("shown in hand: " + cards_text(side.shown))
        return Text("known: " + "; ".join(parts), style="dim") if parts else None

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

    def _middle(self, view: AwimbaweView, table: Table) -> RenderableType:
        lines = Text()
        if view.trick:
            lines.append(f"Trick: {who(view, view.leader, table)} led ")
            lines.append_text(card_text(view.trick[0]))
            if len(view.trick) > 1:
                lines.append(f", {who(view, 1 - view.leader, table)} answered ")
                lines.append_text(card_text(view.trick[1]))
        elif view.stage is Stage.PLAY:
            lines.append(f"Trick: {who(view, view.leader, table)} to lead")
        if view.next_leader is not None:
            lines.append(f"\nA cheetah names {who(view, view.next_leader, table)} to lead next")
        last = view.last_trick
        if last is not None:
            lines.append("\nLast trick: ")
            lines.append_text(cards_row(last.cards))
            if last.stance is Stance.FLEE:
                lines.append(f"— the eagle fled: {who(view, last.leader, table)} took the led card")
            else:
                lines.append(f"— won by {who(view, last.winner, table)}")
        if view.played:
            lines.append(f"\nPlayed this round ({len(view.played)}): {cards_text(view.played)}")
        for result in view.results[-3:]:
            how = (
                f"{table.names[1 - result.winner]} took the fourth hyena"
                if result.fourth_hyena
                else crowns_summary(result.crowns, table)
            )
            lines.append(f"\nRound {result.number}: {table.names[result.winner]} won ({how})")
        return lines

    def _status(self, view: AwimbaweView, table: Table) -> str:
        if view.stage is Stage.OVER:
            return f"{table.names[view.winner or 0]} wins the match"
        if view.to_act is None:
            return "chance"
        name = table.names[view.to_act]
        doing = {
            Stage.PLAY: "to play a card",
            Stage.RHINOCEROS: "to use the rhinoceros",
            Stage.SNAKE: "to use the snake",
            Stage.CHEETAH: "to name the next leader",
            Stage.CHOOSE_LEADER: "to name who leads the next round",
        }.get(view.stage, "")
        return f"{name} {doing}"

    # --- menus and lines -----------------------------------------------------------------

    def move_label(self, view: object, move: Move) -> str:
        if not isinstance(view, AwimbaweView):
            return str(move)
        them = 1 - (view.to_act if view.to_act is not None else 0)
        if isinstance(move, Play):
            card = move.card
            text = f"{card} {card.name} {crowns_text(card.crowns)}"
            if move.stance is Stance.FIGHT:
                return f"{text}: fight (you take the trick)"
            if move.stance is Stance.FLEE:
                return f"{text}: flee (the leader takes the trick, the eagle goes to your pile)"
            return text
        if isinstance(move, Rhino):
            pile = view.sides[them].piles[move.source]
            top = pile[-1] if pile else None
            what = f"{top} {top.name}" if top is not None else "a face-down card"
            return (
                f"rhinoceros: move their pile {move.source + 1} top ({what}) "
                f"under their pile {move.dest + 1}"
            )
        if isinstance(move, Block):
            if move.pile is None:
                return "snake: block one of their hand cards, picked blind"
            pile = view.sides[them].piles[move.pile]
            top = pile[-1] if pile else None
            what = f"{top} {top.name}" if top is not None else "?"
            return f"snake: block their pile {move.pile + 1} top card ({what})"
        if isinstance(move, Decline):
            power = "rhinoceros" if view.stage is Stage.RHINOCEROS else "snake"
            return f"decline: do not use the {power}'s power"
        if isinstance(move, Lead):
            whom = "you lead" if move.me else "your opponent leads"
            if view.stage is Stage.CHOOSE_LEADER:
                return f"{whom} the first trick of round {view.round}"
            return f"{whom} the next trick"
        return str(move)

    def describe(self, view: object, move_text: str, table: Table, actor: str) -> str:
        if not isinstance(view, AwimbaweView):
            return f"{actor}: {move_text}"
        word, _, rest = move_text.partition(" ")
        seat = view.to_act if view.to_act is not None else view.power_of
        them = table.names[1 - seat] if seat is not None else "the opponent"
        if word == "deal":
            return f"The cards are dealt for round {view.round}."
        if word == "tiebreak":
            return (
                "The crowns on the face-up cards tie: chance picks "
                f"{table.names[int(rest)]} to lead."
            )
        if word == "pick":
            if move_text == HIDDEN_PICK:
                return f"The snake's blind pick blocks one of {them}'s hand cards."
            card = parse_card(rest)
            return f"The snake's blind pick blocks {them}'s {card} ({card.name})."
        if word == "play":
            code, _, stance = rest.partition(" ")
            card = parse_card(code)
            text = f"{actor} plays {card} ({card.name})"
            if stance == "fight":
                text += " and fights"
            elif stance == "flee":
                text += " and flees"
            return text + "."
        if word == "move":
            source, _, dest = rest.partition(" under ")
            return (
                f"{actor}'s rhinoceros moves the top card of {them}'s pile {source} "
                f"under pile {dest}."
            )
        if word == "block":
            if rest == "hand":
                return f"{actor}'s snake blocks one of {them}'s hand cards, picked blind."
            pile = view.sides[1 - seat].piles[int(rest) - 1] if seat is not None else ()
            top = pile[-1] if pile else None
            what = f" ({top} {top.name})" if top is not None else ""
            return f"{actor}'s snake blocks the top card of {them}'s pile {rest}{what}."
        if word == "decline":
            power = "rhinoceros" if view.stage is Stage.RHINOCEROS else "snake"
            return f"{actor} does not use the {power}'s power."
        if word == "lead":
            named = actor if rest == "me" else them
            if view.stage is Stage.CHOOSE_LEADER:
                return f"{actor} lost the round and names {named} to lead round {view.round}."
            return f"{actor}'s cheetah names {named} to lead the next trick."
        return f"{actor}: {move_text}"

    def aftermath(self, before: object, after: object, table: Table) -> str | None:
        if not isinstance(before, AwimbaweView) or not isinstance(after, AwimbaweView):
            return None
        lines: list[str] = []
        last = after.last_trick
        if last is not None and last != before.last_trick:
            cards = " and ".join(f"{c} {c.name}" for c in last.cards)
            if last.stance is Stance.FLEE:
                lines.append(
                    f"The eagle flees: {table.names[last.leader]} takes "
                    f"{last.cards[0]}, the eagle goes to "
                    f"{table.names[1 - last.leader]}'s pile."
                )
            else:
                lines.append(f"{table.names[last.winner]} wins the trick ({cards}).")
        if len(after.results) > len(before.results):
            result = after.results[-1]
            winner, loser = table.names[result.winner], table.names[1 - result.winner]
            if result.fourth_hyena:
                lines.append(f"{loser} took the fourth hyena: {winner} wins round {result.number}.")
            else:
                lines.append(
                    f"Round {result.number} to {winner} ({crowns_summary(result.crowns, table)})."
                )
            if after.stage is Stage.OVER:
                lines.append(f"{winner} wins two rounds and the match: long live the king!")
        return " ".join(lines) or None

    def help(self) -> str:
        return (
            "Cards: land letter and value, e.g. [bold]D5[/] desert snake, [bold]S9[/] eagle 9 "
            "(G grassland, D desert, M mountain, P plain, S sky; 1 mouse, 2 rhinoceros, "
            "3 cheetah, 4 hyena, 5 snake, 6 elephant, 7-10 eagles).\n"
            "[bold]play D5[/] (or just [bold]D5[/]) plays a card; an eagle played when you "
            "cannot follow needs [bold]play S9 fight[/] or [bold]play S9 flee[/].\n"
            "Powers: [bold]move 1 under 3[/] (rhinoceros, the opponent's piles), "
            "[bold]block 2[/] or [bold]block hand[/] (snake), [bold]decline[/]; "
            "[bold]lead me[/] / [bold]lead opponent[/] (cheetah, or after losing a round).\n"
            + POWERS
        )


RENDERER = AwimbaweRenderer()
