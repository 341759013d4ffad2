"""Awimbawé in the terminal: both players' piles as they lie (face-down cards as backs), the
hand, the trick, the last trick, blocked cards, crowns and hyenas taken, round wins and the heir
cards, and what the round has shown: the cards played and the lands a player has none of in
hand. Layout and colour only: what is said comes from the game's words and the catalogs, in the
table's language. Reads views only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.words import ENGLISH, N_, Speech
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.notation import Animal, Card, Land, Stance, cards_text
from spieltisch.games.awimbawe.view import AwimbaweView, Heir, SideView
from spieltisch.games.awimbawe.words import (
    crowns_text,
    known_text,
    result_text,
    status_text,
    who,
)
from spieltisch.terminal.draw.base import Drawer, TableInfo, sentence

LAND_STYLE = {
    Land.GRASSLAND: "bold black on green3",
    Land.DESERT: "bold black on yellow3",
    Land.MOUNTAIN: "bold white on grey50",
    Land.PLAIN: "bold white on dark_orange3",
    Land.SKY: "bold white on blue",
}
ANIMAL_WORDS = {
    Animal.MOUSE: N_("mouse"),
    Animal.RHINOCEROS: N_("rhinoceros"),
    Animal.CHEETAH: N_("cheetah"),
    Animal.HYENA: N_("hyena"),
    Animal.SNAKE: N_("snake"),
    Animal.ELEPHANT: N_("elephant"),
    Animal.EAGLE: N_("eagle"),
}
"""Each animal's name on a card chip (English, said in the table's language)."""
BACK_STYLE = "white on grey23"


def card_text(card: Card, *, blocked: bool = False, speech: Speech = ENGLISH) -> Text:
    """A card as a coloured chip: code, animal and crowns; a blocked card is marked ⊘."""
    animal = speech.gettext(ANIMAL_WORDS[Animal.EAGLE if card.is_eagle else card.animal])
    label = f" {card} {animal} {crowns_text(card.crowns)} "
    style = LAND_STYLE[card.land] + (" strike" if blocked else "")
    text = Text(label, style=style)
    if blocked:
        text.append("⊘", style="bold red")
    return text


def cards_row(
    cards: tuple[Card, ...], blocked: tuple[Card, ...] = (), speech: Speech = ENGLISH
) -> Text:
    """Cards side by side."""
    row = Text()
    for card in cards:
        row.append_text(card_text(card, blocked=card in blocked, speech=speech))
        row.append(" ")
    return row if row.plain else Text(speech.gettext("none"), style="dim")


def back_text(speech: Speech = ENGLISH) -> Text:
    """A face-down card."""
    # TRANSLATORS: a card lying face down, shown by its back
    return Text(" ▒▒ " + speech.gettext("back") + "  ", style=BACK_STYLE)


class AwimbaweDrawer(Drawer[AwimbaweView]):
    """Draws Awimbawé views."""

    score_label = N_("rounds won")

    def table(self, view: AwimbaweView, table: TableInfo) -> RenderableType:
        me = view.viewer if view.viewer is not None else 0
        order = [1 - me, me]
        parts: list[RenderableType] = [self._side(view, order[0], table)]
        parts.append(Rule(style="dim"))
        parts.append(self._middle(view, table))
        parts.append(Rule(style="dim"))
        parts.append(self._side(view, order[1], table))
        if table.events:
            parts.append(table.recent(table.events[-4:]))
        title = "Awimbawé · " + table._("round {number}").format(number=view.round)
        status = status_text(view, table.names, speech=table.speech)
        return Panel(Group(*parts), title=title, subtitle=status)

    def _side(self, view: AwimbaweView, seat: int, table: TableInfo) -> RenderableType:
        _ = table._
        side = view.sides[seat]
        head = Text()
        head.append_text(table.player(seat))
        if seat == view.viewer:
            head.append(" (" + _("you") + ")")
        heir = _("gold") + " ★" if side.heir is Heir.GOLD else _("silver")
        head.append(
            " · " + _("heir card {heir} · rounds won {wins}").format(heir=heir, wins=side.wins)
        )
        if view.round_leader == seat and view.stage is not Stage.OVER:
            head.append(" · " + _("led this round"), style="dim")
        lands = view.config.lands  # one hyena, and one pile a side, per land
        scored = _("scoring pile {n} cards · crowns {crowns} · hyenas {hyenas}/{all}").format(
            n=side.scoring_pile, crowns=f"{side.crowns:+d}", hyenas=side.hyenas, all=lands
        )
        score = Text(scored, style="bold red" if 1 < lands <= side.hyenas + 1 else "")
        lines: list[RenderableType] = [
            head,
            self._piles(side.piles[:lands], side, table.speech),
            self._hand(side, table.speech),
            score,
        ]
        known = self._known(side, table.speech)
        if known is not None:
            lines.append(known)
        return Group(*lines)

    def _known(self, side: SideView, speech: Speech) -> Text | None:
        """What the play has shown of a hand, dimmed."""
        known = known_text(side, speech=speech)
        return Text(known, style="dim") if known is not None else None

    def _piles(
        self, piles: tuple[tuple[Card | None, ...], ...], side: SideView, speech: Speech
    ) -> RenderableType:
        """The ``piles`` in play (one a land) of ``side``."""
        _ = speech.gettext
        grid = RichTable(box=None, show_header=True, padding=(0, 1), expand=False)
        height = max((len(p) for p in piles), default=0)
        for number in range(1, len(piles) + 1):
            grid.add_column(_("pile {number}").format(number=number), justify="left")
        if height == 0:
            return Text(_("piles: all empty"), style="dim")
        for row in range(height):  # the top cards line up on the last row
            cells: list[RenderableType] = []
            for pile in piles:
                index = row - (height - len(pile))
                if index < 0:
                    cells.append(Text(""))
                    continue
                card = pile[index]
                if card is None:
                    cells.append(back_text(speech))
                else:
                    cells.append(card_text(card, blocked=card in side.blocked, speech=speech))
            grid.add_row(*cells)
        said = _("piles (the top card, on the last row, is playable):")
        return Group(Text(said, style="dim"), grid)

    def _hand(self, side: SideView, speech: Speech) -> Text:
        _ = speech.gettext
        if side.hand is not None:
            return sentence(_("hand: {cards}"), cards=cards_row(side.hand, side.blocked, speech))
        text = Text(_("hand: {n} cards, face down").format(n=side.hand_size))
        if side.blocked_unseen:
            blind = _("{n} blocked, picked blind").format(n=side.blocked_unseen)
            text.append(f" ({blind})", style="red")
        return text

    def _middle(self, view: AwimbaweView, table: TableInfo) -> RenderableType:
        _, names, speech = table._, table.names, table.speech

        def name(seat: int) -> str:
            return who(view, seat, names, speech=speech)

        lines = Text()
        if view.trick:
            led = card_text(view.trick[0], speech=speech)
            lines.append_text(
                sentence(_("Trick: {leader} led {card}"), leader=name(view.leader), card=led)
            )
            if len(view.trick) > 1:
                answer = card_text(view.trick[1], speech=speech)
                lines.append(", ")
                answered = _("{player} answered {card}")
                lines.append_text(sentence(answered, player=name(1 - view.leader), card=answer))
        elif view.stage is Stage.PLAY:
            lines.append(_("Trick: {leader} to lead").format(leader=name(view.leader)))
        if view.next_leader is not None:
            cheetah = _("A cheetah names {player} to lead next").format(
                player=name(view.next_leader)
            )
            lines.append(f"\n{cheetah}")
        last = view.last_trick
        if last is not None:
            lines.append("\n")
            lines.append_text(
                sentence(_("Last trick: {cards}"), cards=cards_row(last.cards, speech=speech))
            )
            if last.stance is Stance.FLEE:
                fled = _("the eagle fled: {player} took the led card").format(
                    player=name(last.leader)
                )
                lines.append(f"— {fled}")
            else:
                lines.append("— " + _("won by {player}").format(player=name(last.winner)))
        if view.played:
            played = _("Played this round ({n}): {cards}")
            lines.append("\n" + played.format(n=len(view.played), cards=cards_text(view.played)))
        for result in view.results[-3:]:
            lines.append("\n" + result_text(result, names, speech=speech, lands=view.config.lands))
        return lines


DRAWER = AwimbaweDrawer()
