"""Auf die Nüsse! in words: move labels, event sentences, what the engine did by itself, the
state of play and the help text, as plain text (notation a player may type in backticks).

Every surface says the same things about the game; they read views only. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import Words
from spieltisch.games.auf_die_nuesse.model import (
    NEED,
    STORE_SIZES,
    Ending,
    Event,
    EventKind,
    Stage,
    fail_chance,
)
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
    Steal,
    Stop,
    Take,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView

_MOVE_TYPES = (Dice, Draw, Setup, Place, RollAgain, Stop, Take, Pass, Steal, Put, Keep, Lay)


def card_text(card: Card | None) -> str:
    """A card in a few letters: ``walnut``, ``W/H joker``; ``-`` for none."""
    if card is None:
        return "-"
    return f"{card.short} joker" if card.is_joker else card.value


def a_card(card: Card | None) -> str:
    """A card with its article: ``a walnut``, ``an acorn``, ``a W/H joker``."""
    text = card_text(card)
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}"


def fail_text(view: NuesseView) -> str:
    """The exact chance that the next roll fits no free space, e.g. ``31/216 (14.4%)``."""
    chance = fail_chance(sum(1 << n for n in view.track))
    return f"{chance.numerator}/{chance.denominator} ≈ {float(chance):.1%}"


def event_text(event: Event, names: Sequence[str]) -> str:
    """One thing the engine did by itself, in words (``names``: the seats' names)."""
    who = names[event.player]
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


def turn_sentence(view: NuesseView, names: Sequence[str]) -> str:
    """What is going on now, in a sentence."""
    turn = names[view.player]
    actor = names[view.actor] if view.actor is not None else turn
    stage = view.stage
    if stage is Stage.PLACE:
        spaces = " or ".join(str(n) for n in view.placements)
        return f"{turn} puts a squirrel on space {spaces}."
    if stage is Stage.AGAIN:
        return f"{turn}: roll again (fails with chance {fail_text(view)}) or stop."
    if stage is Stage.ROLL:
        return f"{turn} rolls the dice."
    if stage is Stage.TAKE:
        assert view.space is not None
        refuse = " (or takes none)" if view.raccoon else ""
        return f"{actor} collects on {view.space.label} and picks a nut{refuse}."
    if stage is Stage.PUT:
        keep = " or keep it for later" if view.can_keep else ""
        return f"{actor} must store {a_card(view.pending)}{keep}."
    if stage is Stage.STEAL:
        return f"{actor}'s raccoon may steal one nut from another player."
    if stage is Stage.SETUP:
        if view.config.optional_setup:
            return f"Before the first turn, {actor} may put a squirrel on the 2-area."
        return f"Before the first turn, {actor} puts a squirrel on the 2-area."
    if stage is Stage.OVER:
        winners = ", ".join(names[p] for p in sorted(view.winners))
        return f"The game is over. Winner: {winners}."
    return "Nut cards are being laid out."


def pile_sentence(view: NuesseView) -> str:
    """The draw pile and the set-aside nuts, and how near the end is."""
    if view.ending is Ending.NOT_YET:
        return (
            f"Draw pile: {view.pile} cards · set aside: {view.set_aside} "
            "(the game ends once the pile runs out)"
        )
    return f"The end has come: {view.pile} set-aside cards left to draw."


class NuesseWords(Words[NuesseView]):
    """What is said about Auf die Nüsse! moves and events."""

    def move_label(self, view: NuesseView, move: Move) -> str:
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

    def event(self, view: NuesseView, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        if isinstance(move, Hidden) or not isinstance(move, _MOVE_TYPES):
            return f"{actor}: {move}"
        turn = names[view.player]
        if isinstance(move, Dice):
            first, second = move.sums
            return (
                f"{turn} rolls green {move.green}, white {move.white1} and {move.white2} "
                f"({first} or {second})."
            )
        if isinstance(move, Draw):
            return _draw(view, move, names)
        if isinstance(move, Steal) and move.victim < len(names):
            kind = view.stores[move.victim][move.store].kind
            nut = a_card(PLAIN[kind]) if kind is not None else "a nut"
            victim = names[move.victim]
            return f"{actor}'s raccoon steals {nut} from {victim}'s S{move.store + 1}."
        return f"{actor}: {self.move_label(view, move)}."

    def aftermath(self, before: NuesseView, after: NuesseView, names: Sequence[str]) -> str | None:
        del before
        lines = [event_text(event, names) for event in after.events]
        return " ".join(lines) if lines else None

    def many_moves(self, view: NuesseView, legal: Sequence[Move]) -> str:
        del view
        return (
            f"… {len(legal)} choices. Store a nut with `put walnut S3`, keep a joker "
            "with `keep`, lay a kept joker with `lay walnut/hazelnut as walnut "
            "S3`; `moves` lists every choice with its number."
        )

    def help(self) -> str:
        return (
            "`place 8`: a squirrel on start-track space 8 (green die + one white die; "
            "`white 1` / `white 2` also work). `roll` rolls again, "
            "`stop` ends the turn and moves your squirrels up.\n"
            "`take 5-6`: the nut under 5-6. `put walnut S3` (or `put S3`) "
            "stores the nut in hand; `keep` keeps a joker; `lay walnut/hazelnut as "
            "walnut S3` lays a kept joker on your turn. `steal P2 S5`: the raccoon "
            "takes a nut from store 5 of player 2; `pass` refuses a raccoon's nut or "
            "theft. `setup 2-4`: a squirrel on the 2-area before the first turn (with "
            "optional_setup, `pass` places no more).\n"
            f"Spaces pay out with {NEED[0]}, {NEED[5]} and {NEED[8]} squirrels of one player "
            "in the 2-, 3- and 4-area."
        )


def _draw(view: NuesseView, draw: Draw, names: Sequence[str]) -> str:
    card = a_card(draw.card)
    if view.stage is Stage.DEAL and view.receiver is not None:
        return f"{names[view.receiver]} is dealt {card}."
    place = SLOT_LABELS[view.refill] if view.refill is not None else "the row"
    return f"{card[0].upper()}{card[1:]} is laid face up under {place}."


WORDS = NuesseWords()
