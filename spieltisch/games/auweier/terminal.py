"""Auweier in the terminal: the females in a row with every player's stack and total before
each in the player's colour, Weddings marked, egg stacks, the players' hands, piles and eggs,
the viewer's own hand and deck order, and whose go it is in which stage. Reads views only."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.errors import InvalidActionError
from spieltisch.core.game import Move
from spieltisch.games.auweier.notation import (
    CARD_NAME,
    CARD_TEXT,
    DECK_SIZE,
    HIDDEN_DECK_TEXT,
    HIDDEN_SHUFFLE_TEXT,
    WORM_VALUE,
    Arrange,
    Card,
    Colour,
    Pass,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Shuffled,
    ShuffleRest,
    Starter,
    Swap,
    cards_text,
    parse_move,
)
from spieltisch.games.auweier.rules import Stage, crow_prey
from spieltisch.games.auweier.view import AuweierView, FemaleView, PlayerView
from spieltisch.terminal.render import SEAT_COLOURS, Renderer, Table

CARD_STYLE = {
    Card.FALSE_WORM: "italic dim",
    Card.CROW: "bold white on grey23",
    Card.WEDDING: "bold magenta",
    Card.TWO_STAR: "underline",
    Card.FIVE_STAR: "underline",
}
WEDDING_MARK = "♥"
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
SETUP = frozenset({Stage.ORDER, Stage.SHUFFLE, Stage.SPREAD})
"""The stages in which the decks are set up."""
STAGE_TEXT = {
    Stage.ORDER: "arranging the decks",
    Stage.SHUFFLE: "shuffling a deck",
    Stage.SPREAD: "shuffling a deck",
    Stage.PLAY: "normal turn",
    Stage.WEDDINGS: "wedding phase · wedding stage (place a Wedding or pass)",
    Stage.WORMS: "wedding phase · worm stage (a worm, an exchange, or pass)",
    Stage.OVER: "game over",
}


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


def deck_text(info: PlayerView) -> str:
    """How far a player's deck setup has got, as far as the viewer may know."""
    if info.ready:
        return "ready"
    if info.pile_size is None:  # another player's deck
        return "setting up"
    return f"{info.pile_size} of {DECK_SIZE} placed"


def _count(size: int | None) -> str:
    return "?" if size is None else str(size)


def egg_text(female: Colour, eggs: int) -> str:
    """An egg card, e.g. ``R2`` for the red female's second egg."""
    return f"{female.letter}{eggs}"


class AuweierRenderer(Renderer):
    """Draws Auweier views."""

    def table(self, view: object, table: Table) -> RenderableType:
        assert isinstance(view, AuweierView)
        parts: list[RenderableType] = [self._females(view, table), self._players(view, table)]
        parts.append(self._own(view))
        parts.append(self._status_line(view, table))
        if view.last is not None:
            parts.append(Text("Last mating: " + mating_text(view, table), style="dim"))
        events = [event for event in table.events if event]  # secret steps say nothing
        if events:
            parts.append(Text("Recent: " + " | ".join(events[-4:]), style="dim"))
        return Panel(Group(*parts), title="Auweier", subtitle=STAGE_TEXT[view.stage])

    def _females(self, view: AuweierView, table: Table) -> RichTable:
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

    def _players(self, view: AuweierView, table: Table) -> RichTable:
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
                [deck_text(info)] if ordering else [_count(info.hand_size), _count(info.pile_size)]
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

    def _status_line(self, view: AuweierView, table: Table) -> Text:
        who = table.player(view.player)
        if view.stage is Stage.OVER:
            reason = view.end.value if view.end is not None else "the game is over"
            winners = ", ".join(table.names[p] for p in sorted(view.winners))
            return Text(f"Game over: {reason}. Winner: {winners}.", style="bold")
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

    def move_label(self, view: object, move: Move) -> str:
        assert isinstance(view, AuweierView)
        if isinstance(move, Arrange) and len(move.cards) == 1:
            card = move.cards[0]
            left = view.my_hand[card]
            return f"{CARD_TEXT[card]} next ({CARD_NAME[card]}, {left} left)"
        if isinstance(move, ShuffleRest):
            left = sum(view.my_hand)
            if move.spread:
                return f"shuffle the {left} cards left, Weddings spread evenly"
            return f"shuffle the {left} cards left"
        if isinstance(move, Starter):
            return f"first-game hand {cards_text(move.hand())}, rest shuffled"
        if isinstance(move, PlayWorm):
            female = move.female
            mine = _total(view, female, view.player)
            after = mine + WORM_VALUE[move.card]
            return f"{CARD_TEXT[move.card]} → {female.label} ({mine}→{after})"
        if isinstance(move, PlayWedding):
            return f"Wedding → {move.female.label}"
        if isinstance(move, PlayCrow):
            top = _prey_text(view, move, "?")
            return f"Crow eats {move.owner.label}'s {top} at {move.female.label}"
        if isinstance(move, Swap):
            stack = view.females[move.female].stacks[view.player].cards
            out = CARD_TEXT[stack[move.place - 1]] if move.place <= len(stack) else "?"
            return f"swap {move.female.label} #{move.place}: {out} ↔ {CARD_TEXT[move.card]}"
        if isinstance(move, Pass):
            return "pass (final)"
        return str(move)

    def describe(self, view: object, move_text: str, table: Table, actor: str) -> str:
        assert isinstance(view, AuweierView)
        owner = table.names[view.player]
        if move_text == HIDDEN_DECK_TEXT:
            return ""  # one line per secret step would tell how the deck was built
        if move_text == HIDDEN_SHUFFLE_TEXT:
            if view.viewer != view.player:
                return ""  # nor would a line for the shuffle of another player's deck
            return f"{owner}'s cards are shuffled face down."
        try:
            move = parse_move(move_text)
        except InvalidActionError:
            return f"{actor}: {move_text}"
        return _describe(view, move, table, actor) or f"{actor}: {move_text}"

    def aftermath(self, before: object, after: object, table: Table) -> str | None:
        assert isinstance(before, AuweierView) and isinstance(after, AuweierView)
        lines = [
            f"{table.names[p]}'s deck is ready."
            for p, (was, now) in enumerate(zip(before.players, after.players, strict=True))
            if now.ready and not was.ready
        ]
        if after.last is not None and after.last is not before.last:
            lines.append("Mating: " + mating_text(after, table))
        if after.stage is Stage.WORMS and before.stage is Stage.WEDDINGS:
            takers = [table.names[p] for p, info in enumerate(after.players) if info.weddings]
            lines.append("The worm stage begins: " + ", ".join(takers) + " take part.")
        if before.stage is not Stage.PLAY and after.stage is Stage.PLAY and after.last is None:
            lines.append("Every deck is ready; each player takes six cards.")
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            reason = after.end.value if after.end is not None else "the game is over"
            scores = ", ".join(
                f"{table.names[p]} {info.score}" for p, info in enumerate(after.players)
            )
            lines.append(f"Game over ({reason}). Points: {scores}.")
        return " ".join(lines) or None

    def many_moves_hint(self, view: object, legal: Sequence[Move]) -> str:
        assert isinstance(view, AuweierView)
        if view.stage is Stage.ORDER:
            return (
                f"… {len(legal)} choices. Type [bold]deck 3[/] to place a 3 next, or several "
                "cards at once, up to your whole order: [bold]deck 1 K H 7 2* F ...[/] "
                "(the first six are your starting hand). [bold]deck shuffle[/] shuffles the "
                "rest, [bold]deck spread[/] shuffles them with the Weddings spread evenly, "
                "[bold]deck starter 1 2* 3[/] is the rulebook's first-game hand; "
                "[bold]moves[/] lists every choice."
            )
        return (
            f"… {len(legal)} choices. [bold]worm 3 R[/] (or [bold]3r[/]) plays a 3 before the "
            "red female, [bold]wedding R[/], [bold]crow B@R[/] eats Blue's top worm at red, "
            "[bold]swap R 4[/] exchanges your False Worm, [bold]pass[/] in a wedding phase; "
            "[bold]moves[/] lists every choice with its number."
        )

    def help(self) -> str:
        return (
            "Cards: worms [bold]1 2 2* 3 4 5* 6 7[/] (2* and 5* are crow-proof), [bold]F[/] "
            "the False Worm (worth 0), [bold]K[/] a Crow, [bold]H[/] a Wedding. Females and "
            "players by colour letter [bold]R B G Y[/].\n"
            "[bold]worm 3 R[/] / [bold]3r[/]: a worm before the red female · "
            "[bold]wedding R[/] / [bold]hr[/]: a Wedding (opening one only where your worm "
            "total is the highest alone) · [bold]crow B@R[/]: a Crow eats Blue's top worm "
            "before red · [bold]swap R#2 F[/]: your False Worm from hand replaces your card at "
            "place 2 (from the bottom) before red, [bold]swap R#2 4[/]: a 4 replaces your False "
            "Worm there ([bold]swap R 4[/] finds the place) · [bold]pass[/]: a final pass in "
            "a wedding phase.\nDeck: [bold]deck 3[/] places a 3 next (drawn earlier than the "
            "cards placed after it); [bold]deck 7 H K ...[/] places several, up to all 22; "
            "[bold]deck shuffle[/] / [bold]deck spread[/] / [bold]deck starter 1 2* 3[/]."
        )


def _total(view: AuweierView, female: Colour, player: int) -> int:
    return view.females[female].stacks[player].total


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


def mating_text(view: AuweierView, table: Table) -> str:
    """What the last mating did, in words."""
    last = view.last
    if last is None:
        return ""
    won = [
        f"{table.names[a.player]} wins the {a.female.label} female's {ORDINAL[a.eggs]} egg"
        for a in last.awards
    ]
    cleared = ", ".join(f"{table.names[p]} at {f.label}" for f, p in last.cleared)
    return "; ".join(won or ["no egg"]) + (f"; cleared: {cleared}" if cleared else "") + "."


def _describe(view: AuweierView, move: object, table: Table, actor: str) -> str | None:
    if isinstance(move, Arrange):
        return f"{actor} places {cards_text(move.cards)} next in their deck."
    if isinstance(move, ShuffleRest | Starter):
        return f"{actor} arranges their deck: {move}."
    if isinstance(move, Shuffled):
        return f"{table.names[view.player]}'s cards are shuffled."
    if isinstance(move, PlayWorm):
        total = _total(view, move.female, view.player) + WORM_VALUE[move.card]
        return (
            f"{actor} plays {CARD_TEXT[move.card]} before the {move.female.label} female "
            f"(now {total})."
        )
    if isinstance(move, PlayWedding):
        if view.stage is Stage.PLAY:
            return (
                f"{actor} opens a wedding phase with a Wedding before the "
                f"{move.female.label} female!"
            )
        return f"{actor} places a Wedding before the {move.female.label} female."
    if isinstance(move, PlayCrow):
        top = _prey_text(view, move, "worm")
        owner = table.names[move.owner]
        return f"{actor}'s Crow eats {owner}'s {top} before the {move.female.label} female."
    if isinstance(move, Swap):
        stack = view.females[move.female].stacks[view.player].cards
        out = CARD_TEXT[stack[move.place - 1]] if move.place <= len(stack) else "?"
        return (
            f"{actor} exchanges their {out} before the {move.female.label} female for "
            f"{CARD_TEXT[move.card]} from hand."
        )
    if isinstance(move, Pass):
        return f"{actor} passes."
    return None


def _prey_text(view: AuweierView, move: PlayCrow, unknown: str) -> str:
    """The worm ``move``'s Crow would eat, in notation (``unknown`` if there is none)."""
    stack = view.females[move.female].stacks[move.owner].cards
    prey = crow_prey(stack, view.config.crow_digs)
    return CARD_TEXT[stack[prey]] if prey is not None else unknown


RENDERER = AuweierRenderer()
