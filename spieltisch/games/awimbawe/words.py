"""Awimbawé in words: move labels, event sentences, what a trick or round brought, the help.

Plain text for every surface, read from views only; notation a player may type is set in
backticks. Also the small text pieces a surface draws with: crowns as marks, a seat's name as
the viewer says it, what the play has shown of a hand, whose turn it is. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import Words
from spieltisch.games.awimbawe.model import RoundResult, Stage
from spieltisch.games.awimbawe.notation import (
    HIDDEN_PICK,
    Block,
    Deal,
    DealShown,
    Decline,
    Lead,
    Pick,
    Play,
    Rhino,
    Stance,
    TieBreak,
    cards_text,
)
from spieltisch.games.awimbawe.view import AwimbaweView, SideView

POWERS = (
    "mouse: beats the elephant of its land · rhinoceros: moves a top card of the opponent "
    "under another of their piles · cheetah: names the next leader · hyena: the fourth one "
    "loses the round · snake: blocks an opponent's card · elephant: no power · eagles: "
    "must be played when you cannot follow; flee or fight"
)
HELP = (
    "Cards: land letter and value, e.g. `D5` desert snake, `S9` eagle 9 "
    "(G grassland, D desert, M mountain, P plain, S sky; 1 mouse, 2 rhinoceros, "
    "3 cheetah, 4 hyena, 5 snake, 6 elephant, 7-10 eagles).\n"
    "`play D5` (or just `D5`) plays a card; an eagle played when you "
    "cannot follow needs `play S9 fight` or `play S9 flee`.\n"
    "Powers: `move 1 under 3` (rhinoceros, the opponent's piles), "
    "`block 2` or `block hand` (snake), `decline`; "
    "`lead me` / `lead opponent` (cheetah, or after losing a round).\n" + POWERS
)
_DOING = {
    Stage.PLAY: "to play a card",
    Stage.RHINOCEROS: "to use the rhinoceros",
    Stage.SNAKE: "to use the snake",
    Stage.CHEETAH: "to name the next leader",
    Stage.CHOOSE_LEADER: "to name who leads the next round",
}


def crowns_text(crowns: int) -> str:
    """Crowns as marks: ``♛♛`` for +2, ``✗`` for -1, ``·`` for none."""
    if crowns > 0:
        return "♛" * crowns
    return "✗" * -crowns if crowns else "·"


def crowns_summary(crowns: tuple[int, ...], names: Sequence[str]) -> str:
    """Each player's crowns, by name."""
    return "crowns " + ", ".join(f"{names[p]} {c:+d}" for p, c in enumerate(crowns))


def who(view: AwimbaweView, seat: int, names: Sequence[str]) -> str:
    """A seat's name, ``you`` for the viewer."""
    return "you" if seat == view.viewer else names[seat]


def known_text(side: SideView) -> str | None:
    """What the play has shown of a hand: lands it holds none of, cards shown in it."""
    parts = []
    if side.void:
        parts.append("no " + " or ".join(land.value for land in side.void) + " in hand")
    for record in side.blind_voids:
        lands = " or ".join(land.value for land in record.lands)
        parts.append(f"no unblocked {lands} when {record.picks} card(s) were blocked blind")
    if side.shown:
        parts.append("shown in hand: " + cards_text(side.shown))
    return "known: " + "; ".join(parts) if parts else None


def result_text(result: RoundResult, names: Sequence[str]) -> str:
    """A finished round, in one line."""
    how = (
        f"{names[1 - result.winner]} took the fourth hyena"
        if result.fourth_hyena
        else crowns_summary(result.crowns, names)
    )
    return f"Round {result.number}: {names[result.winner]} won ({how})"


def status_text(view: AwimbaweView, names: Sequence[str]) -> str:
    """Who is to do what now (or who won the match)."""
    if view.stage is Stage.OVER:
        return f"{names[view.winner or 0]} wins the match"
    if view.to_act is None:
        return "chance"
    return f"{names[view.to_act]} {_DOING.get(view.stage, '')}"


class AwimbaweWords(Words[AwimbaweView]):
    """What is said about Awimbawé moves and events."""

    def move_label(self, view: AwimbaweView, move: Move) -> str:
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
            return f"decline: do not use the {_power(view)}'s power"
        if isinstance(move, Lead):
            whom = "you lead" if move.me else "your opponent leads"
            if view.stage is Stage.CHOOSE_LEADER:
                return f"{whom} the first trick of round {view.round}"
            return f"{whom} the next trick"
        return str(move)

    def event(
        self, view: AwimbaweView, move: Move | Hidden, names: Sequence[str], actor: str
    ) -> str:
        seat = view.to_act if view.to_act is not None else view.power_of
        them = names[1 - seat] if seat is not None else "the opponent"
        dealt = isinstance(move, Hidden) and isinstance(move.shown, DealShown)
        if dealt or isinstance(move, Deal):
            return f"The cards are dealt for round {view.round}."
        if isinstance(move, TieBreak):
            return (
                f"The crowns on the face-up cards tie: chance picks {names[move.player]} to lead."
            )
        if isinstance(move, Hidden) and move.text == HIDDEN_PICK:
            return f"The snake's blind pick blocks one of {them}'s hand cards."
        if isinstance(move, Pick):
            card = move.card
            return f"The snake's blind pick blocks {them}'s {card} ({card.name})."
        if isinstance(move, Play):
            card = move.card
            text = f"{actor} plays {card} ({card.name})"
            if move.stance is Stance.FIGHT:
                text += " and fights"
            elif move.stance is Stance.FLEE:
                text += " and flees"
            return text + "."
        if isinstance(move, Rhino):
            return (
                f"{actor}'s rhinoceros moves the top card of {them}'s pile {move.source + 1} "
                f"under pile {move.dest + 1}."
            )
        if isinstance(move, Block):
            if move.pile is None:
                return f"{actor}'s snake blocks one of {them}'s hand cards, picked blind."
            pile = view.sides[1 - seat].piles[move.pile] if seat is not None else ()
            top = pile[-1] if pile else None
            what = f" ({top} {top.name})" if top is not None else ""
            return f"{actor}'s snake blocks the top card of {them}'s pile {move.pile + 1}{what}."
        if isinstance(move, Decline):
            return f"{actor} does not use the {_power(view)}'s power."
        if isinstance(move, Lead):
            named = actor if move.me else them
            if view.stage is Stage.CHOOSE_LEADER:
                return f"{actor} lost the round and names {named} to lead round {view.round}."
            return f"{actor}'s cheetah names {named} to lead the next trick."
        return f"{actor}: {move}"

    def aftermath(
        self, before: AwimbaweView, after: AwimbaweView, names: Sequence[str]
    ) -> str | None:
        lines: list[str] = []
        last = after.last_trick
        if last is not None and last != before.last_trick:
            cards = " and ".join(f"{c} {c.name}" for c in last.cards)
            if last.stance is Stance.FLEE:
                lines.append(
                    f"The eagle flees: {names[last.leader]} takes "
                    f"{last.cards[0]}, the eagle goes to "
                    f"{names[1 - last.leader]}'s pile."
                )
            else:
                lines.append(f"{names[last.winner]} wins the trick ({cards}).")
        if len(after.results) > len(before.results):
            result = after.results[-1]
            winner, loser = names[result.winner], names[1 - result.winner]
            if result.fourth_hyena:
                lines.append(f"{loser} took the fourth hyena: {winner} wins round {result.number}.")
            else:
                lines.append(
                    f"Round {result.number} to {winner} ({crowns_summary(result.crowns, names)})."
                )
            if after.stage is Stage.OVER:
                lines.append(f"{winner} wins two rounds and the match: long live the king!")
        return " ".join(lines) or None

    def help(self) -> str:
        return HELP


def _power(view: AwimbaweView) -> str:
    """The power a ``decline`` leaves unused."""
    return "rhinoceros" if view.stage is Stage.RHINOCEROS else "snake"


WORDS = AwimbaweWords()

__all__ = [
    "HELP",
    "POWERS",
    "WORDS",
    "AwimbaweWords",
    "crowns_summary",
    "crowns_text",
    "known_text",
    "result_text",
    "status_text",
    "who",
]
