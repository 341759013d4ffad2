"""Awimbawé in words: move labels, event sentences, what a trick or round brought, the help.

Plain text for every surface, read from views only; notation a player may type is set in
backticks. Also the small text pieces a surface draws with: crowns as marks, a seat's name as
the viewer says it, what the play has shown of a hand, whose turn it is. Pure: no I/O.

Every word goes through a :class:`~spieltisch.core.words.Speech`: the words class speaks its
own (``self.speech``), and the helpers below take one as ``speech`` (English unless given).
Card codes (``D5``), pile numbers and move text are notation and stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import ENGLISH, N_, Speech, Words
from spieltisch.games.awimbawe.model import RoundResult, Stage
from spieltisch.games.awimbawe.notation import (
    HIDDEN_PICK,
    LANDS_IN_PLAY,
    Animal,
    Block,
    Card,
    Deal,
    DealShown,
    Decline,
    Land,
    Lead,
    Pick,
    Play,
    Rhino,
    Stance,
    TieBreak,
    cards_text,
)
from spieltisch.games.awimbawe.view import AwimbaweView, SideView

POWERS = N_(
    "mouse: beats the elephant of its land · rhinoceros: moves a top card of the opponent "
    "under another of their piles · cheetah: names the next leader · hyena: the fourth one "
    "loses the round · snake: blocks an opponent's card · elephant: no power · eagles: "
    "must be played when you cannot follow; flee or fight"
)
_HELP_CARDS = N_(
    "Cards: land letter and value, e.g. `D5` desert snake, `S9` eagle 9 "
    "(G grassland, D desert, M mountain, P plain, S sky; 1 mouse, 2 rhinoceros, "
    "3 cheetah, 4 hyena, 5 snake, 6 elephant, 7-10 eagles)."
)
_HELP_PLAY = N_(
    "`play D5` (or just `D5`) plays a card; an eagle played when you "
    "cannot follow needs `play S9 fight` or `play S9 flee`."
)
_HELP_POWERS = N_(
    "Powers: `move 1 under 3` (rhinoceros, the opponent's piles), "
    "`block 2` or `block hand` (snake), `decline`; "
    "`lead me` / `lead opponent` (cheetah, or after losing a round)."
)
_HELP_LINES = (_HELP_CARDS, _HELP_PLAY, _HELP_POWERS, POWERS)
HELP = "\n".join(_HELP_LINES)
"""The help in English (:meth:`AwimbaweWords.help` gives it in the words' language)."""
_DOING = {
    Stage.PLAY: N_("{name} to play a card"),
    Stage.RHINOCEROS: N_("{name} to use the rhinoceros"),
    Stage.SNAKE: N_("{name} to use the snake"),
    Stage.CHEETAH: N_("{name} to name the next leader"),
    Stage.CHOOSE_LEADER: N_("{name} to name who leads the next round"),
}
_LANDS = {
    Land.GRASSLAND: N_("grassland"),
    Land.DESERT: N_("desert"),
    Land.MOUNTAIN: N_("mountain"),
    Land.PLAIN: N_("plain"),
    Land.SKY: N_("sky"),
}
_ANIMALS = {
    Animal.MOUSE: N_("mouse"),
    Animal.RHINOCEROS: N_("rhinoceros"),
    Animal.CHEETAH: N_("cheetah"),
    Animal.HYENA: N_("hyena"),
    Animal.SNAKE: N_("snake"),
    Animal.ELEPHANT: N_("elephant"),
}
_LAND_ANIMALS = {
    Land.GRASSLAND: N_("grassland {animal}"),
    Land.DESERT: N_("desert {animal}"),
    Land.MOUNTAIN: N_("mountain {animal}"),
    Land.PLAIN: N_("plain {animal}"),
}
"""A land animal's card in words, by its land (``{animal}`` is the animal's name)."""


def card_name(card: Card, *, speech: Speech = ENGLISH) -> str:
    """The card in words, as :attr:`Card.name` says it in English: ``desert snake``,
    ``eagle 9``."""
    if card.land is Land.SKY:
        return speech.gettext("eagle {value}").format(value=card.value)
    animal = speech.gettext(_ANIMALS[card.animal])
    return speech.gettext(_LAND_ANIMALS[card.land]).format(animal=animal)


def crowns_text(crowns: int) -> str:
    """Crowns as marks: ``♛♛`` for +2, ``✗`` for -1, ``·`` for none."""
    if crowns > 0:
        return "♛" * crowns
    return "✗" * -crowns if crowns else "·"


def crowns_summary(
    crowns: tuple[int, ...], names: Sequence[str], *, speech: Speech = ENGLISH
) -> str:
    """Each player's crowns, by name."""
    return speech.gettext("crowns {scores}").format(scores=_scores(crowns, names))


def _scores(crowns: tuple[int, ...], names: Sequence[str]) -> str:
    """Each player's name and crowns: ``Anne +26, Guillaume +19``."""
    return ", ".join(f"{names[p]} {c:+d}" for p, c in enumerate(crowns))


def who(view: AwimbaweView, seat: int, names: Sequence[str], *, speech: Speech = ENGLISH) -> str:
    """A seat's name, ``you`` for the viewer."""
    return speech.gettext("you") if seat == view.viewer else names[seat]


def _lands_text(lands: Sequence[Land], speech: Speech) -> str:
    """Lands as alternatives: ``desert or sky``."""
    words = [speech.gettext(_LANDS[land]) for land in lands]
    text = words[0] if words else ""
    for word in words[1:]:
        text = speech.gettext("{left} or {right}").format(left=text, right=word)
    return text


def known_text(side: SideView, *, speech: Speech = ENGLISH) -> str | None:
    """What the play has shown of a hand: lands it holds none of, cards shown in it."""
    parts = []
    if side.void:
        lands = _lands_text(side.void, speech)
        parts.append(speech.gettext("no {lands} in hand").format(lands=lands))
    for record in side.blind_voids:
        lands = _lands_text(record.lands, speech)
        parts.append(
            speech.ngettext(
                "no unblocked {lands} when {n} card was blocked blind",
                "no unblocked {lands} when {n} cards were blocked blind",
                record.picks,
            ).format(lands=lands, n=record.picks)
        )
    if side.shown:
        parts.append(speech.gettext("shown in hand: {cards}").format(cards=cards_text(side.shown)))
    if not parts:
        return None
    return speech.gettext("known: {facts}").format(facts="; ".join(parts))


def result_text(
    result: RoundResult,
    names: Sequence[str],
    *,
    speech: Speech = ENGLISH,
    lands: int = LANDS_IN_PLAY,
) -> str:
    """A finished round, in one line (``lands``: the match's, which says how many hyenas
    there are to take)."""
    winner = names[result.winner]
    if result.fourth_hyena:
        message = (
            N_("Round {number}: {winner} won ({loser} took the fourth hyena)")
            if lands == LANDS_IN_PLAY
            else N_("Round {number}: {winner} won ({loser} took every hyena)")
        )
        return speech.gettext(message).format(
            number=result.number, winner=winner, loser=names[1 - result.winner]
        )
    return speech.gettext("Round {number}: {winner} won ({crowns})").format(
        number=result.number,
        winner=winner,
        crowns=crowns_summary(result.crowns, names, speech=speech),
    )


def status_text(view: AwimbaweView, names: Sequence[str], *, speech: Speech = ENGLISH) -> str:
    """Who is to do what now (or who won the match)."""
    if view.stage is Stage.OVER:
        return speech.gettext("{name} wins the match").format(name=names[view.winner or 0])
    if view.to_act is None:
        return speech.gettext("chance")
    name = names[view.to_act]
    doing = _DOING.get(view.stage)
    return speech.gettext(doing).format(name=name) if doing is not None else f"{name} "


class AwimbaweWords(Words[AwimbaweView]):
    """What is said about Awimbawé moves and events."""

    def _card(self, card: Card) -> str:
        """The card's code and name: ``D5 desert snake``."""
        return f"{card} {card_name(card, speech=self.speech)}"

    def move_label(self, view: AwimbaweView, move: Move) -> str:
        them = 1 - (view.to_act if view.to_act is not None else 0)
        if isinstance(move, Play):
            card = move.card
            text = f"{self._card(card)} {crowns_text(card.crowns)}"
            if move.stance is Stance.FIGHT:
                return self._("{card}: fight (you take the trick)").format(card=text)
            if move.stance is Stance.FLEE:
                return self._(
                    "{card}: flee (the leader takes the trick, the eagle goes to your pile)"
                ).format(card=text)
            return text
        if isinstance(move, Rhino):
            pile = view.sides[them].piles[move.source]
            top = pile[-1] if pile else None
            what = self._card(top) if top is not None else self._("a face-down card")
            return self._(
                "rhinoceros: move their pile {source} top ({card}) under their pile {dest}"
            ).format(source=move.source + 1, card=what, dest=move.dest + 1)
        if isinstance(move, Block):
            if move.pile is None:
                return self._("snake: block one of their hand cards, picked blind")
            pile = view.sides[them].piles[move.pile]
            top = pile[-1] if pile else None
            what = self._card(top) if top is not None else "?"
            return self._("snake: block their pile {pile} top card ({card})").format(
                pile=move.pile + 1, card=what
            )
        if isinstance(move, Decline):
            if _rhino_power(view):
                return self._("decline: do not use the rhinoceros's power")
            return self._("decline: do not use the snake's power")
        if isinstance(move, Lead):
            if view.stage is Stage.CHOOSE_LEADER:
                if move.me:
                    text = self._("you lead the first trick of round {round}")
                else:
                    text = self._("your opponent leads the first trick of round {round}")
                return text.format(round=view.round)
            if move.me:
                return self._("you lead the next trick")
            return self._("your opponent leads the next trick")
        return str(move)

    def event(
        self, view: AwimbaweView, move: Move | Hidden, names: Sequence[str], actor: str
    ) -> str:
        seat = view.to_act if view.to_act is not None else view.power_of
        them = names[1 - seat] if seat is not None else self._("the opponent")
        dealt = isinstance(move, Hidden) and isinstance(move.shown, DealShown)
        if dealt or isinstance(move, Deal):
            return self._("The cards are dealt for round {round}.").format(round=view.round)
        if isinstance(move, TieBreak):
            return self._(
                "The crowns on the face-up cards tie: chance picks {name} to lead."
            ).format(name=names[move.player])
        if isinstance(move, Hidden) and move.text == HIDDEN_PICK:
            return self._("The snake's blind pick blocks one of {them}'s hand cards.").format(
                them=them
            )
        if isinstance(move, Pick):
            card = move.card
            return self._("The snake's blind pick blocks {them}'s {card} ({name}).").format(
                them=them, card=card, name=card_name(card, speech=self.speech)
            )
        if isinstance(move, Play):
            card = move.card
            if move.stance is Stance.FIGHT:
                text = self._("{actor} plays {card} ({name}) and fights.")
            elif move.stance is Stance.FLEE:
                text = self._("{actor} plays {card} ({name}) and flees.")
            else:
                text = self._("{actor} plays {card} ({name}).")
            return text.format(actor=actor, card=card, name=card_name(card, speech=self.speech))
        if isinstance(move, Rhino):
            return self._(
                "{actor}'s rhinoceros moves the top card of {them}'s pile {source} "
                "under pile {dest}."
            ).format(actor=actor, them=them, source=move.source + 1, dest=move.dest + 1)
        if isinstance(move, Block):
            if move.pile is None:
                return self._(
                    "{actor}'s snake blocks one of {them}'s hand cards, picked blind."
                ).format(actor=actor, them=them)
            pile = view.sides[1 - seat].piles[move.pile] if seat is not None else ()
            top = pile[-1] if pile else None
            if top is None:
                return self._(
                    "{actor}'s snake blocks the top card of {them}'s pile {pile}."
                ).format(actor=actor, them=them, pile=move.pile + 1)
            return self._(
                "{actor}'s snake blocks the top card of {them}'s pile {pile} ({card})."
            ).format(actor=actor, them=them, pile=move.pile + 1, card=self._card(top))
        if isinstance(move, Decline):
            if _rhino_power(view):
                return self._("{actor} does not use the rhinoceros's power.").format(actor=actor)
            return self._("{actor} does not use the snake's power.").format(actor=actor)
        if isinstance(move, Lead):
            named = actor if move.me else them
            if view.stage is Stage.CHOOSE_LEADER:
                return self._(
                    "{actor} lost the round and names {named} to lead round {round}."
                ).format(actor=actor, named=named, round=view.round)
            return self._("{actor}'s cheetah names {named} to lead the next trick.").format(
                actor=actor, named=named
            )
        return self._("{actor}: {move}").format(actor=actor, move=move)

    def aftermath(
        self, before: AwimbaweView, after: AwimbaweView, names: Sequence[str]
    ) -> str | None:
        lines: list[str] = []
        last = after.last_trick
        if last is not None and last != before.last_trick:
            if last.stance is Stance.FLEE:
                lines.append(
                    self._(
                        "The eagle flees: {leader} takes {card}, the eagle goes to "
                        "{follower}'s pile."
                    ).format(
                        leader=names[last.leader],
                        card=last.cards[0],
                        follower=names[1 - last.leader],
                    )
                )
            else:
                cards = self.names_list([self._card(c) for c in last.cards])
                lines.append(
                    self._("{winner} wins the trick ({cards}).").format(
                        winner=names[last.winner], cards=cards
                    )
                )
        if len(after.results) > len(before.results):
            result = after.results[-1]
            winner, loser = names[result.winner], names[1 - result.winner]
            if result.fourth_hyena:
                took = (
                    N_("{loser} took the fourth hyena: {winner} wins round {number}.")
                    if after.config.lands == LANDS_IN_PLAY
                    else N_("{loser} took every hyena: {winner} wins round {number}.")
                )
                lines.append(self._(took).format(loser=loser, winner=winner, number=result.number))
            else:
                crowns = crowns_summary(result.crowns, names, speech=self.speech)
                lines.append(
                    self._("Round {number} to {winner} ({crowns}).").format(
                        number=result.number, winner=winner, crowns=crowns
                    )
                )
            if after.stage is Stage.OVER:
                rounds = after.config.rounds_to_win
                lines.append(
                    self.ngettext(
                        "{winner} wins {rounds} round and the match: long live the king!",
                        "{winner} wins {rounds} rounds and the match: long live the king!",
                        rounds,
                    ).format(winner=winner, rounds=rounds)
                )
        return " ".join(lines) or None

    def ending(self, view: AwimbaweView, names: Sequence[str]) -> str | None:
        """Who won the match, and how the deciding round was won."""
        if view.stage is not Stage.OVER or view.winner is None or not view.results:
            return None
        last = view.results[-1]
        winner, loser = names[view.winner], names[1 - view.winner]
        rounds = view.config.rounds_to_win
        if last.fourth_hyena and view.config.lands == LANDS_IN_PLAY:
            said = self.ngettext(
                "{winner} wins {rounds} round and the match, the last because {loser} took the "
                "fourth hyena.",
                "{winner} wins {rounds} rounds and the match, the last because {loser} took the "
                "fourth hyena.",
                rounds,
            )
        elif last.fourth_hyena:
            said = self.ngettext(
                "{winner} wins {rounds} round and the match, the last because {loser} took "
                "every hyena.",
                "{winner} wins {rounds} rounds and the match, the last because {loser} took "
                "every hyena.",
                rounds,
            )
        else:
            said = self.ngettext(
                "{winner} wins {rounds} round and the match, the last on crowns: {scores}.",
                "{winner} wins {rounds} rounds and the match, the last on crowns: {scores}.",
                rounds,
            )
        return said.format(
            winner=winner, loser=loser, rounds=rounds, scores=_scores(last.crowns, names)
        )

    def help(self) -> str:
        return "\n".join(self._(line) for line in _HELP_LINES)


def _rhino_power(view: AwimbaweView) -> bool:
    """True when a ``decline`` leaves the rhinoceros's power unused (else the snake's)."""
    return view.stage is Stage.RHINOCEROS


WORDS = AwimbaweWords()

__all__ = [
    "HELP",
    "POWERS",
    "WORDS",
    "AwimbaweWords",
    "card_name",
    "crowns_summary",
    "crowns_text",
    "known_text",
    "result_text",
    "status_text",
    "who",
]
