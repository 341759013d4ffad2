"""Auf die Nüsse! in words: move labels, event sentences, what the engine did by itself, the
state of play and the help text, as plain text (notation a player may type in backticks).

Every surface says the same things about the game; they read views only. The words speak the
viewer's language: the module's helpers take a ``speech`` (English unless given), the words
class passes its own. A nut card is named by a whole phrase with its article (``a walnut``,
``The W/H joker``), one msgid per phrase, so that a language with genders and cases can say
it right; the capitalised phrases begin a sentence as its subject. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import ENGLISH, N_, Speech, Words
from spieltisch.games.auf_die_nuesse.model import (
    NEED,
    STORE_SIZES,
    Ending,
    Event,
    EventKind,
    Stage,
    best_full_store,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.notation import (
    PLAIN,
    SLOT_LABELS,
    TWO_AREA,
    Card,
    Dice,
    Draw,
    Keep,
    Lay,
    Nut,
    Pass,
    Place,
    Put,
    RollAgain,
    Setup,
    Space,
    Steal,
    Stop,
    Take,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView

_MOVE_TYPES = (Dice, Draw, Setup, Place, RollAgain, Stop, Take, Pass, Steal, Put, Keep, Lay)

NUT_NAMES: dict[Nut, str] = {
    Nut.WALNUT: N_("walnut"),
    Nut.HAZELNUT: N_("hazelnut"),
    Nut.BEECHNUT: N_("beechnut"),
    Nut.ACORN: N_("acorn"),
}
"""Each kind of nut by name (translated where it is used)."""
A_NUT: dict[Nut, str] = {
    Nut.WALNUT: N_("a walnut"),
    Nut.HAZELNUT: N_("a hazelnut"),
    Nut.BEECHNUT: N_("a beechnut"),
    Nut.ACORN: N_("an acorn"),
}
THE_NUT: dict[Nut, str] = {
    Nut.WALNUT: N_("the walnut"),
    Nut.HAZELNUT: N_("the hazelnut"),
    Nut.BEECHNUT: N_("the beechnut"),
    Nut.ACORN: N_("the acorn"),
}
A_NUT_FIRST: dict[Nut, str] = {
    Nut.WALNUT: N_("A walnut"),
    Nut.HAZELNUT: N_("A hazelnut"),
    Nut.BEECHNUT: N_("A beechnut"),
    Nut.ACORN: N_("An acorn"),
}
"""A nut with its article as the subject at the start of a sentence."""
THE_NUT_FIRST: dict[Nut, str] = {
    Nut.WALNUT: N_("The walnut"),
    Nut.HAZELNUT: N_("The hazelnut"),
    Nut.BEECHNUT: N_("The beechnut"),
    Nut.ACORN: N_("The acorn"),
}
"""The nut as the subject at the start of a sentence."""
JOKER = N_("{letters} joker")
A_JOKER = N_("a {letters} joker")
THE_JOKER = N_("the {letters} joker")
A_JOKER_FIRST = N_("A {letters} joker")
THE_JOKER_FIRST = N_("The {letters} joker")
UPPER_SPACES: dict[Space, str] = {
    Space.LEFT_3: N_("3-left"),
    Space.RACCOON_3: N_("3-raccoon"),
    Space.RIGHT_3: N_("3-right"),
    Space.AREA_4: N_("4-area"),
}
"""The 3- and 4-area spaces by name; the 2-area spaces are named by their numbers."""


def _card(card: Card | None, plain: dict[Nut, str], joker: str, speech: Speech) -> str:
    """``card`` by one of the phrase sets: ``plain`` per kind of nut, ``joker`` for jokers."""
    if card is None:
        return "-"
    if card.is_joker:
        return speech.gettext(joker).format(letters=card.short)
    return speech.gettext(plain[card.kinds[0]])


def card_text(card: Card | None, *, speech: Speech = ENGLISH) -> str:
    """A card in a few letters: ``walnut``, ``W/H joker``; ``-`` for none."""
    return _card(card, NUT_NAMES, JOKER, speech)


def a_card(card: Card | None, *, speech: Speech = ENGLISH) -> str:
    """A card with its article: ``a walnut``, ``an acorn``, ``a W/H joker``."""
    return _card(card, A_NUT, A_JOKER, speech)


def the_card(card: Card | None, *, speech: Speech = ENGLISH) -> str:
    """A card with the definite article: ``the walnut``, ``the W/H joker``."""
    return _card(card, THE_NUT, THE_JOKER, speech)


def space_text(space: Space, *, speech: Speech = ENGLISH) -> str:
    """A board space by name: ``2-4`` (a 2-area space, by its start-track numbers),
    ``3-left``, ``4-area``."""
    if space in TWO_AREA:
        return space.label
    return speech.gettext(UPPER_SPACES[space])


def fail_text(view: NuesseView) -> str:
    """The exact chance that the next roll fits no free space, e.g. ``31/216 (14.4%)``."""
    chance = fail_chance(sum(1 << n for n in view.track))
    return f"{chance.numerator}/{chance.denominator} ≈ {float(chance):.1%}"


def event_text(event: Event, names: Sequence[str], *, speech: Speech = ENGLISH) -> str:
    """One thing the engine did by itself, in words (``names``: the seats' names)."""
    who = names[event.player]
    space = space_text(event.space, speech=speech) if event.space is not None else ""
    store = f"S{event.store + 1}" if event.store is not None else ""
    n = event.number if event.number is not None else 0
    kind = event.kind
    if kind is EventKind.FAILED:
        return speech.ngettext(
            "{who}'s roll fits no free space: {n} squirrel goes home.",
            "{who}'s roll fits no free space: {n} squirrels go home.",
            n,
        ).format(who=who, n=n)
    if kind is EventKind.PLACED:
        return speech.gettext("Only space {space} is free: {who}'s squirrel goes there.").format(
            space=n, who=who
        )
    if kind is EventKind.OUT_OF_SQUIRRELS:
        return speech.gettext("{who} has no squirrel left: the turn ends.").format(who=who)
    if kind is EventKind.MOVED_UP:
        return speech.ngettext(
            "{who} moves {n} squirrel up into the 2-area.",
            "{who} moves {n} squirrels up into the 2-area.",
            n,
        ).format(who=who, n=n)
    if kind is EventKind.COLLECTED:
        return speech.ngettext(
            "{who} collects on {space} ({n} squirrel back).",
            "{who} collects on {space} ({n} squirrels back).",
            n,
        ).format(who=who, space=space, n=n)
    if kind is EventKind.PUSHED:
        return speech.ngettext(
            "{n} of {who}'s squirrels is pushed up from {space}.",
            "{n} of {who}'s squirrels are pushed up from {space}.",
            n,
        ).format(n=n, who=who, space=space)
    if kind is EventKind.TOOK:
        card = the_card(event.card, speech=speech)
        return speech.gettext("{who} takes {card}.").format(who=who, card=card)
    if kind is EventKind.NO_NUT:
        return speech.gettext("No nut is left for {who} on {space}.").format(who=who, space=space)
    if kind is EventKind.STORED:
        card = the_card(event.card, speech=speech)
        return speech.gettext("{who} stores {card} in {store}.").format(
            who=who, card=card, store=store
        )
    if kind is EventKind.KEPT:
        card = the_card(event.card, speech=speech)
        return speech.gettext("{who} keeps {card}: no store fits it yet.").format(
            who=who, card=card
        )
    if kind is EventKind.BOXED:
        card = _card(event.card, THE_NUT_FIRST, THE_JOKER_FIRST, speech)
        return speech.gettext(
            "{card} fits none of {who}'s stores and goes back to the box."
        ).format(card=card, who=who)
    if kind is EventKind.FILLED:
        return speech.gettext("{who} fills {store} and turns it over.").format(who=who, store=store)
    if kind is EventKind.LAST_CARD:
        return speech.gettext("The draw pile is used up: the set-aside nuts are the pile now.")
    return speech.gettext("Every squirrel moves into the 4-area: each four buys one nut.")


def _or_list(items: Sequence[str], speech: Speech) -> str:
    """Items joined as a choice: ``A``, ``A or B``, ``A, B or C``."""
    if len(items) <= 1:
        return "".join(items)
    return speech.gettext("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])


def turn_sentence(view: NuesseView, names: Sequence[str], *, speech: Speech = ENGLISH) -> str:
    """What is going on now, in a sentence."""
    turn = names[view.player]
    actor = names[view.actor] if view.actor is not None else turn
    stage = view.stage
    if stage is Stage.PLACE:
        spaces = _or_list([str(n) for n in view.placements], speech)
        return speech.gettext("{player} puts a squirrel on space {spaces}.").format(
            player=turn, spaces=spaces
        )
    if stage is Stage.AGAIN:
        return speech.gettext("{player}: roll again (fails with chance {chance}) or stop.").format(
            player=turn, chance=fail_text(view)
        )
    if stage is Stage.ROLL:
        return speech.gettext("{player} rolls the dice.").format(player=turn)
    if stage is Stage.TAKE:
        assert view.space is not None
        space = space_text(view.space, speech=speech)
        if view.raccoon:
            text = speech.gettext("{player} collects on {space} and picks a nut (or takes none).")
        else:
            text = speech.gettext("{player} collects on {space} and picks a nut.")
        return text.format(player=actor, space=space)
    if stage is Stage.PUT:
        card = a_card(view.pending, speech=speech)
        if view.can_keep:
            text = speech.gettext("{player} must store {card} or keep it for later.")
        else:
            text = speech.gettext("{player} must store {card}.")
        return text.format(player=actor, card=card)
    if stage is Stage.STEAL:
        return speech.gettext("{player}'s raccoon may steal one nut from another player.").format(
            player=actor
        )
    if stage is Stage.SETUP:
        if view.config.optional_setup:
            text = speech.gettext(
                "Before the first turn, {player} may put a squirrel on the 2-area."
            )
        else:
            text = speech.gettext("Before the first turn, {player} puts a squirrel on the 2-area.")
        return text.format(player=actor)
    if stage is Stage.OVER:
        winners = sorted(view.winners)
        return speech.ngettext(
            "The game is over. Winner: {winners}.",
            "The game is over. Winners: {winners}.",
            len(winners),
        ).format(winners=", ".join(names[p] for p in winners))
    return speech.gettext("Nut cards are being laid out.")


def pile_sentence(view: NuesseView, *, speech: Speech = ENGLISH) -> str:
    """The draw pile and the set-aside nuts, and how near the end is."""
    if view.ending is Ending.NOT_YET:
        return speech.ngettext(
            "Draw pile: {n} card · set aside: {set_aside} (the game ends once the pile runs out)",
            "Draw pile: {n} cards · set aside: {set_aside} (the game ends once the pile runs out)",
            view.pile,
        ).format(n=view.pile, set_aside=view.set_aside)
    return speech.ngettext(
        "The end has come: {n} set-aside card left to draw.",
        "The end has come: {n} set-aside cards left to draw.",
        view.pile,
    ).format(n=view.pile)


class NuesseWords(Words[NuesseView]):
    """What is said about Auf die Nüsse! moves and events."""

    def move_label(self, view: NuesseView, move: Move) -> str:
        if isinstance(move, RollAgain):
            return self._("roll again (fails with chance {chance})").format(chance=fail_text(view))
        if isinstance(move, Stop):
            n = len(view.track)
            return self.ngettext(
                "stop: {n} squirrel moves up", "stop: {n} squirrels move up", n
            ).format(n=n)
        if isinstance(move, Place) and view.dice is not None:
            white = view.dice.white1 if move.space == view.dice.sums[0] else view.dice.white2
            return self._("place on {space} (green {green} + white {white})").format(
                space=move.space, green=view.dice.green, white=white
            )
        if isinstance(move, Take):
            card = the_card(view.face_up[move.slot], speech=self.speech)
            return self._("take {card} under {slot}").format(card=card, slot=move.slot.label)
        if isinstance(move, Pass):
            if view.stage is Stage.SETUP:
                return self._("place no more squirrels before the first turn")
            if view.stage is Stage.STEAL:
                return self._("steal nothing")
            return self._("take no nut")
        if isinstance(move, Put):
            store = f"S{move.store + 1}"
            label = self._("put {kind} in {store}").format(
                kind=self._(NUT_NAMES[move.kind]), store=store
            )
            if view.receiver is None:
                return label
            fill = view.stores[view.receiver][move.store].fill + 1
            return f"{label} ({fill}/{STORE_SIZES[move.store]})"
        if isinstance(move, Keep):
            return self._("keep the joker for later")
        if isinstance(move, Lay):
            return self._("lay {letters} joker as {kind} in {store}").format(
                letters=move.joker.short,
                kind=self._(NUT_NAMES[move.kind]),
                store=f"S{move.store + 1}",
            )
        if isinstance(move, Steal):
            kind = view.stores[move.victim][move.store].kind
            nut = self._(A_NUT[kind]) if kind is not None else self._("a nut")
            return self._("steal {nut} from {player}'s {store}").format(
                nut=nut, player=f"P{move.victim + 1}", store=f"S{move.store + 1}"
            )
        if isinstance(move, Setup):
            return self._("squirrel onto {space}").format(space=move.space.label)
        return str(move)

    def event(self, view: NuesseView, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        if isinstance(move, Hidden) or not isinstance(move, _MOVE_TYPES):
            return self._("{actor}: {move}").format(actor=actor, move=move)
        turn = names[view.player]
        if isinstance(move, Dice):
            first, second = move.sums
            return self._(
                "{player} rolls green {green}, white {white1} and {white2} ({first} or {second})."
            ).format(
                player=turn,
                green=move.green,
                white1=move.white1,
                white2=move.white2,
                first=first,
                second=second,
            )
        if isinstance(move, Draw):
            return self._draw(view, move, names)
        if isinstance(move, Steal) and move.victim < len(names):
            kind = view.stores[move.victim][move.store].kind
            nut = a_card(PLAIN[kind], speech=self.speech) if kind is not None else self._("a nut")
            return self._("{player}'s raccoon steals {nut} from {victim}'s {store}.").format(
                player=actor, nut=nut, victim=names[move.victim], store=f"S{move.store + 1}"
            )
        return self._("{actor}: {label}.").format(actor=actor, label=self.move_label(view, move))

    def _draw(self, view: NuesseView, draw: Draw, names: Sequence[str]) -> str:
        if view.stage is Stage.DEAL and view.receiver is not None:
            card = a_card(draw.card, speech=self.speech)
            return self._("{player} is dealt {card}.").format(
                player=names[view.receiver], card=card
            )
        card = _card(draw.card, A_NUT_FIRST, A_JOKER_FIRST, self.speech)
        if view.refill is None:
            return self._("{card} is laid face up under the row.").format(card=card)
        return self._("{card} is laid face up under {place}.").format(
            card=card, place=SLOT_LABELS[view.refill]
        )

    def aftermath(self, before: NuesseView, after: NuesseView, names: Sequence[str]) -> str | None:
        lines = [event_text(event, names, speech=self.speech) for event in after.events]
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            lines.append(self._game_over(after, names))
        return " ".join(lines) if lines else None

    def ending(self, view: NuesseView, names: Sequence[str]) -> str | None:
        return self._game_over(view, names) if view.stage is Stage.OVER else None

    def _game_over(self, view: NuesseView, names: Sequence[str]) -> str:
        """Why the game ended and who won, in one sentence."""
        winners = sorted(view.winners)
        top = max(view.scores[p] for p in winners)
        if len(winners) > 1:
            return self.ngettext(
                "The draw pile ran out and the last nuts are stored: {players} share the "
                "win with {n} point each.",
                "The draw pile ran out and the last nuts are stored: {players} share the "
                "win with {n} points each.",
                top,
            ).format(players=self.names_list([names[p] for p in winners]), n=top)
        values = view.config.store_values
        tied = [p for p, score in enumerate(view.scores) if score == top]
        if len(tied) > 1:
            best = best_full_store(view.stores[winners[0]], values)
            return self.ngettext(
                "The draw pile ran out and the last nuts are stored: {player} wins with "
                "{n} point and the most valuable full store ({value}).",
                "The draw pile ran out and the last nuts are stored: {player} wins with "
                "{n} points and the most valuable full store ({value}).",
                top,
            ).format(player=names[winners[0]], n=top, value=best)
        return self.ngettext(
            "The draw pile ran out and the last nuts are stored: {player} wins with {n} point.",
            "The draw pile ran out and the last nuts are stored: {player} wins with {n} points.",
            top,
        ).format(player=names[winners[0]], n=top)

    def many_moves(self, view: NuesseView, legal: Sequence[Move]) -> str:
        del view
        n = len(legal)
        return self.ngettext(
            "… {n} choice. Store a nut with `put walnut S3`, keep a joker with `keep`, "
            "lay a kept joker with `lay walnut/hazelnut as walnut S3`; `moves` lists "
            "it with its number.",
            "… {n} choices. Store a nut with `put walnut S3`, keep a joker with `keep`, "
            "lay a kept joker with `lay walnut/hazelnut as walnut S3`; `moves` lists "
            "every choice with its number.",
            n,
        ).format(n=n)

    def help(self) -> str:
        return "\n".join(
            (
                self._(
                    "`place 8`: a squirrel on start-track space 8 (green die + one white "
                    "die; `white 1` / `white 2` also work). `roll` rolls again, `stop` ends "
                    "the turn and moves your squirrels up."
                ),
                self._(
                    "`take 5-6`: the nut under 5-6. `put walnut S3` (or `put S3`) stores "
                    "the nut in hand; `keep` keeps a joker; `lay walnut/hazelnut as walnut "
                    "S3` lays a kept joker on your turn. `steal P2 S5`: the raccoon takes "
                    "a nut from store 5 of player 2; `pass` refuses a raccoon's nut or "
                    "theft. `setup 2-4`: a squirrel on the 2-area before the first turn "
                    "(with optional_setup, `pass` places no more)."
                ),
                self._(
                    "Spaces pay out with {two}, {three} and {four} squirrels of one player "
                    "in the 2-, 3- and 4-area."
                ).format(two=NEED[0], three=NEED[5], four=NEED[8]),
            )
        )


WORDS = NuesseWords()
