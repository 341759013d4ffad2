"""Auf die Nüsse! in the terminal: the board as it is laid out (4-area on top, then the 3-area,
the 2-area, the start track 2-12 and the face-up nuts below it, raccoon spaces in the middle
column), squirrels as dots in the players' colours, supplies and nut stores, the dice with the
spaces they allow, and the chance that the next roll fails. Reads views only."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Move, PlayerId
from spieltisch.games.auf_die_nuesse.notation import (
    PLAIN,
    SLOT_LABELS,
    Card,
    Dice,
    Draw,
    Keep,
    Lay,
    Pass,
    Place,
    Put,
    RollAgain,
    Setup,
    Space,
    Steal,
    Stop,
    Take,
    parse_move,
)
from spieltisch.games.auf_die_nuesse.rules import (
    NEED,
    STORE_SIZES,
    STORE_VALUES,
    Ending,
    Event,
    EventKind,
    Stage,
    Store,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView
from spieltisch.terminal.render import SEAT_COLOURS, Renderer, Table

TRACK = tuple(range(2, 13))
CELL = {n: 9 if n == 7 else 5 for n in TRACK}
"""Inner width of each start-track column; the raccoon column is wider."""
ROWS: tuple[tuple[tuple[Space | None, int, int, str], ...], ...] = (
    ((Space.AREA_4, 2, 12, "4-area: 4 squirrels take any nut"),),
    (
        (Space.LEFT_3, 2, 6, "3-area: nut 2-4 or 5-6"),
        (Space.RACCOON_3, 7, 7, "raccoon"),
        (Space.RIGHT_3, 8, 12, "3-area: nut 8-9 or 10-12"),
    ),
    (
        (Space.TWO_FOUR, 2, 4, "2-4"),
        (Space.FIVE_SIX, 5, 6, "5-6"),
        (Space.RACCOON_2, 7, 7, "raccoon"),
        (Space.EIGHT_NINE, 8, 9, "8-9"),
        (Space.TEN_TWELVE, 10, 12, "10-12"),
    ),
)
"""The areas from the top: each segment is (space, first and last track column, label)."""
NUT_COLUMNS = ((2, 4), (5, 6), (8, 9), (10, 12))
"""The track columns each face-up place lies under."""
GREEN_DIE = "bold white on green4"
WHITE_DIE = "bold black on white"


def colour(seat: PlayerId) -> str:
    """The seat's colour."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def card_text(card: Card | None) -> str:
    """A card in a few letters: ``walnut``, ``W/H joker``; ``-`` for none."""
    if card is None:
        return "-"
    return f"{card.short} joker" if card.is_joker else card.value


def a_card(card: Card | None) -> str:
    """A card with its article: ``a walnut``, ``an acorn``, ``a W/H joker``."""
    text = card_text(card)
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}"


def span_width(first: int, last: int) -> int:
    """Inner width of a segment spanning track columns ``first`` to ``last``."""
    return sum(CELL[n] for n in range(first, last + 1)) + (last - first)


def squirrels(counts: Sequence[int], width: int) -> Text:
    """Each player's squirrels as coloured dots, or as ``3●`` when the dots do not fit."""
    text = Text()
    if sum(counts) + sum(1 for c in counts if c) - 1 <= width:
        for seat, count in enumerate(counts):
            if count:
                text.append("●" * count, style=f"bold {colour(seat)}")
                text.append(" ")
    else:
        for seat, count in enumerate(counts):
            if count:
                text.append(f"{count}●", style=f"bold {colour(seat)}")
    text.rstrip()
    return text


def fit(text: Text, width: int) -> Text:
    """``text`` cut or padded to ``width`` cells."""
    text = text.copy()
    text.truncate(width, pad=True)
    return text


def board_text(view: NuesseView) -> Text:
    """The board, line by line, columns lined up with the start track."""
    total = span_width(2, 12)
    out = Text("┌" + "─" * total + "┐\n")
    for row in ROWS:
        labels, dots = Text("│"), Text("│")
        for space, first, last, label in row:
            width = span_width(first, last)
            paying = view.space is space and view.stage in {Stage.TAKE, Stage.STEAL, Stage.PUT}
            style = "bold reverse" if paying else "dim"
            labels.append_text(fit(Text(f" {label}", style=style), width))
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
    out.append_text(_nut_line(view))
    return out


def _track_line(view: NuesseView, *, numbers: bool) -> Text:
    line = Text("│")
    for n in TRACK:
        width = CELL[n]
        if numbers:
            style = "bold reverse" if n in view.placements else "bold"
            line.append_text(fit(Text(f"{n:^{width}}", style=style), width))
        elif n in view.track:
            line.append(f"{'●':^{width}}", style=f"bold {colour(view.player)}")
        else:
            line.append(f"{'·':^{width}}", style="dim")
        line.append("│")
    return line


def _nut_line(view: NuesseView) -> Text:
    line = Text(" ")
    column = 2
    for slot, (first, last) in enumerate(NUT_COLUMNS):
        if first > column:  # the raccoon column has no nut under it
            line.append(" " * (span_width(column, first - 1) + 1))
        card = view.face_up[slot]
        style = "bold reverse" if slot in view.offer else "bold"
        line.append_text(fit(Text(card_text(card), style=style), span_width(first, last)))
        line.append(" ")
        column = last + 1
    return line


def store_text(store: Store) -> Text:
    """One store's fill: ``W2`` (two walnuts), ``W1+J`` (and a joker), ``·`` empty, ``full``."""
    if store.full:
        return Text("full", style="bold green")
    if store.kind is None:
        return Text("·", style="dim")
    jokers = "" if not store.jokers else "+J" if store.jokers == 1 else f"+{store.jokers}J"
    return Text(f"{store.kind.value[0].upper()}{store.nuts}{jokers}")


def players_table(view: NuesseView, table: Table) -> RichTable:
    """Supply, stores (headed by size and value), kept jokers and points of every player."""
    grid = RichTable(expand=False, box=None, pad_edge=False, padding=(0, 1, 0, 0))
    grid.add_column("player")
    grid.add_column("sup", justify="right")
    for index, size in enumerate(STORE_SIZES):
        grid.add_column(f"S{index + 1}\n{size}:{STORE_VALUES[index]}", justify="center")
    grid.add_column("kept")
    grid.add_column("pts", justify="right")
    for seat, stores in enumerate(view.stores):
        name = table.player(seat)
        if seat == view.player and view.stage is not Stage.OVER:
            name = Text("▶ ") + name
        jokers = ",".join(card.short for card in view.jokers[seat]) or "-"
        cells = [store_text(store) for store in stores]
        grid.add_row(name, str(view.supply[seat]), *cells, jokers, str(view.scores[seat]))
    return grid


def dice_text(dice: Dice) -> Text:
    """The three dice, the green one first."""
    text = Text("green ")
    text.append(f" {dice.green} ", style=GREEN_DIE)
    text.append("  white ")
    text.append(f" {dice.white1} ", style=WHITE_DIE)
    text.append(" ")
    text.append(f" {dice.white2} ", style=WHITE_DIE)
    return text


def fail_text(view: NuesseView) -> str:
    """The exact chance that the next roll fits no free space, e.g. ``31/216 (14.4%)``."""
    chance = fail_chance(sum(1 << n for n in view.track))
    return f"{chance.numerator}/{chance.denominator} ≈ {float(chance):.1%}"


def turn_text(view: NuesseView, table: Table) -> Text:
    """What is going on now, in a line or two."""
    turn = table.names[view.player]
    actor = table.names[view.actor] if view.actor is not None else turn
    line = Text()
    if view.dice is not None and view.stage in {Stage.PLACE, Stage.AGAIN}:
        line.append_text(dice_text(view.dice))
        first, second = view.dice.sums
        line.append(f"   green + white: {first} or {second}\n")
    stage = view.stage
    if stage is Stage.PLACE:
        spaces = " or ".join(str(n) for n in view.placements)
        line.append(f"{turn} puts a squirrel on space {spaces}.")
    elif stage is Stage.AGAIN:
        line.append(f"{turn}: roll again (fails with chance {fail_text(view)}) or stop.")
    elif stage is Stage.ROLL:
        line.append(f"{turn} rolls the dice.")
    elif stage is Stage.TAKE:
        assert view.space is not None
        refuse = " (or takes none)" if view.raccoon else ""
        line.append(f"{actor} collects on {view.space.label} and picks a nut{refuse}.")
    elif stage is Stage.PUT:
        keep = " or keep it for later" if view.can_keep else ""
        line.append(f"{actor} must store {a_card(view.pending)}{keep}.")
    elif stage is Stage.STEAL:
        line.append(f"{actor}'s raccoon may steal one nut from another player.")
    elif stage is Stage.SETUP:
        if view.config.optional_setup:
            line.append(f"Before the first turn, {actor} may put a squirrel on the 2-area.")
        else:
            line.append(f"Before the first turn, {actor} puts a squirrel on the 2-area.")
    elif stage is Stage.OVER:
        names = ", ".join(table.names[p] for p in sorted(view.winners))
        line.append(f"The game is over. Winner: {names}.")
    else:
        line.append("Nut cards are being laid out.")
    return line


def pile_text(view: NuesseView, table: Table) -> Text:
    """The draw pile, the set-aside nuts, how near the end is, and where David sits."""
    if view.ending is Ending.NOT_YET:
        text = Text(
            f"Draw pile: {view.pile} cards · set aside: {view.set_aside} "
            "(the game ends once the pile runs out)",
            style="dim",
        )
    else:
        text = Text(f"The end has come: {view.pile} set-aside cards left to draw.", style="bold")
    if view.david is not None:
        text.append("\nDavid the raccoon sits with ")
        text.append_text(table.player(view.david))
        text.append(": nothing can be stolen from them.")
    return text


class NuesseRenderer(Renderer):
    """Draws Auf die Nüsse! views."""

    def table(self, view: object, table: Table) -> RenderableType:
        assert isinstance(view, NuesseView)
        parts: list[RenderableType] = [
            board_text(view),
            pile_text(view, table),
            players_table(view, table),
            turn_text(view, table),
        ]
        if table.events:
            parts.append(Text("Recent: " + " | ".join(table.events[-4:]), style="dim"))
        status = "game over" if view.stage is Stage.OVER else f"{table.names[view.player]}'s turn"
        return Panel(Group(*parts), title="Auf die Nüsse!", subtitle=status, expand=False)

    def move_label(self, view: object, move: Move) -> str:
        assert isinstance(view, NuesseView)
        if isinstance(move, RollAgain):
            return f"roll again (fails with chance {fail_text(view)})"
        if isinstance(move, Stop):
            return f"stop: {len(view.track)} squirrel(s) move up"
        if isinstance(move, Place) and view.dice is not None:
            white = view.dice.white1 if move.space == view.dice.sums[0] else view.dice.white2
            return f"place on {move.space} (green {view.dice.green} + white {white})"
        if isinstance(move, Take):
            return f"take the {card_text(view.face_up[move.slot])} under {move.slot.label}"
        if isinstance(move, Pass):
            if view.stage is Stage.SETUP:
                return "place no more squirrels before the first turn"
            return "steal nothing" if view.stage is Stage.STEAL else "take no nut"
        if isinstance(move, Put):
            label = f"put {move.kind.value} in S{move.store + 1}"
            if view.receiver is None:
                return label
            store = view.stores[view.receiver][move.store]
            return f"{label} ({store.fill + 1}/{STORE_SIZES[move.store]})"
        if isinstance(move, Keep):
            return "keep the joker for later"
        if isinstance(move, Lay):
            return f"lay {move.joker.short} joker as {move.kind.value} in S{move.store + 1}"
        if isinstance(move, Steal):
            store = view.stores[move.victim][move.store]
            kind = store.kind.value if store.kind is not None else "nut"
            return f"steal a {kind} from P{move.victim + 1}'s S{move.store + 1}"
        if isinstance(move, Setup):
            return f"squirrel onto {move.space.label}"
        return str(move)

    def describe(self, view: object, move_text: str, table: Table, actor: str) -> str:
        assert isinstance(view, NuesseView)
        try:
            move = parse_move(move_text)
        except SpieltischError:
            return f"{actor}: {move_text}"
        turn = table.names[view.player]
        if isinstance(move, Dice):
            first, second = move.sums
            return (
                f"{turn} rolls green {move.green}, white {move.white1} and {move.white2} "
                f"({first} or {second})."
            )
        if isinstance(move, Draw):
            return self._draw(view, move, table)
        if isinstance(move, Steal) and move.victim < len(table.names):
            kind = view.stores[move.victim][move.store].kind
            nut = a_card(PLAIN[kind]) if kind is not None else "a nut"
            victim = table.names[move.victim]
            return f"{actor}'s raccoon steals {nut} from {victim}'s S{move.store + 1}."
        return f"{actor}: {self.move_label(view, move)}."

    def _draw(self, view: NuesseView, draw: Draw, table: Table) -> str:
        card = a_card(draw.card)
        if view.stage is Stage.DEAL and view.receiver is not None:
            return f"{table.names[view.receiver]} is dealt {card}."
        place = SLOT_LABELS[view.refill] if view.refill is not None else "the row"
        return f"{card[0].upper()}{card[1:]} is laid face up under {place}."

    def aftermath(self, before: object, after: object, table: Table) -> str | None:
        assert isinstance(after, NuesseView)
        del before
        lines = [event_text(event, table) for event in after.events]
        return " ".join(lines) if lines else None

    def many_moves_hint(self, view: object, legal: Sequence[Move]) -> str:
        del view
        return (
            f"… {len(legal)} choices. Store a nut with [bold]put walnut S3[/], keep a joker "
            "with [bold]keep[/], lay a kept joker with [bold]lay walnut/hazelnut as walnut "
            "S3[/]; [bold]moves[/] lists every choice with its number."
        )

    def help(self) -> str:
        return (
            "[bold]place 8[/]: a squirrel on start-track space 8 (green die + one white die; "
            "[bold]white 1[/] / [bold]white 2[/] also work). [bold]roll[/] rolls again, "
            "[bold]stop[/] ends the turn and moves your squirrels up.\n"
            "[bold]take 5-6[/]: the nut under 5-6. [bold]put walnut S3[/] (or [bold]put S3[/]) "
            "stores the nut in hand; [bold]keep[/] keeps a joker; [bold]lay walnut/hazelnut as "
            "walnut S3[/] lays a kept joker on your turn. [bold]steal P2 S5[/]: the raccoon "
            "takes a nut from store 5 of player 2; [bold]pass[/] refuses a raccoon's nut or "
            "theft. [bold]setup 2-4[/]: a squirrel on the 2-area before the first turn (with "
            "optional_setup, [bold]pass[/] places no more).\n"
            f"Spaces pay out with {NEED[0]}, {NEED[5]} and {NEED[8]} squirrels of one player "
            "in the 2-, 3- and 4-area."
        )


def event_text(event: Event, table: Table) -> str:
    """One thing the engine did by itself, in words."""
    who = table.names[event.player]
    space = event.space.label if event.space is not None else ""
    card = card_text(event.card)
    store = f"S{event.store + 1}" if event.store is not None else ""
    texts = {
        EventKind.FAILED: f"{who}'s roll fits no free space: {event.number} squirrel(s) go home.",
        EventKind.PLACED: f"Only space {event.number} is free: {who}'s squirrel goes there.",
        EventKind.OUT_OF_SQUIRRELS: f"{who} has no squirrel left: the turn ends.",
        EventKind.MOVED_UP: f"{who} moves {event.number} squirrel(s) up into the 2-area.",
        EventKind.COLLECTED: f"{who} collects on {space} ({event.number} squirrels back).",
        EventKind.PUSHED: f"{event.number} of {who}'s squirrels are pushed up from {space}.",
        EventKind.TOOK: f"{who} takes the {card}.",
        EventKind.NO_NUT: f"No nut is left for {who} on {space}.",
        EventKind.STORED: f"{who} stores the {card} in {store}.",
        EventKind.KEPT: f"{who} keeps the {card}: no store fits it yet.",
        EventKind.BOXED: f"The {card} fits none of {who}'s stores and goes back to the box.",
        EventKind.FILLED: f"{who} fills {store} and turns it over.",
        EventKind.LAST_CARD: "The draw pile is used up: the set-aside nuts are the pile now.",
        EventKind.ALL_UP: "Every squirrel moves into the 4-area: each four buys one nut.",
    }
    return texts[event.kind]


RENDERER = NuesseRenderer()
