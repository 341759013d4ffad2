"""Auweier's words: move labels, event sentences, what a move brought about, and help.

Plain text (notation a player may type in backticks), read from views only; each surface's
drawer lays the table out and takes its text pieces (stage names, egg cards, deck progress,
the last mating) from here. Everything is said in the language of the words' speech (English
as written here); card codes, colour letters and move text (``worm 3 R``) are notation and stay
as they are in every language. A colour is said through a phrase of its own for each use
(``before the red female``, ``at red``, ``red's``), so that a language may decline it.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import ENGLISH, N_, Speech, Words
from spieltisch.games.auweier.model import End, Stage, crow_prey
from spieltisch.games.auweier.notation import (
    CARD_TEXT,
    DECK_SIZE,
    HIDDEN_DECK_TEXT,
    HIDDEN_SHUFFLE_TEXT,
    Arrange,
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
)
from spieltisch.games.auweier.view import AuweierView, PlayerView

ORDINAL = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
"""A female's egg by its number (English; translate it where it is used)."""
CARD_WORDS = (
    N_("worm 1"),
    N_("worm 2"),
    N_("worm 2* (crow-proof)"),
    N_("worm 3"),
    N_("worm 4"),
    N_("worm 5* (crow-proof)"),
    N_("worm 6"),
    N_("worm 7"),
    N_("False Worm"),
    N_("Crow"),
    N_("Wedding"),
)
"""Each card in words, by :class:`~spieltisch.games.auweier.notation.Card` (English, the same
as ``Card.label``; translate it where it is used)."""
COLOUR_WORDS = (N_("red"), N_("blue"), N_("green"), N_("yellow"))
"""Each colour alone, as ``Colour.label`` (a label's ``3 → red``)."""
BEFORE_FEMALE = (
    # TRANSLATORS: where a card is played or lies: "Ann plays 3 before the red female"
    N_("before the red female"),
    N_("before the blue female"),
    N_("before the green female"),
    N_("before the yellow female"),
)
"""Where a card is played or lies, by the female's colour."""
FEMALE_OF = (
    # TRANSLATORS: whose egg it is: "Ann wins the red female's 1st egg"
    N_("the red female's"),
    N_("the blue female's"),
    N_("the green female's"),
    N_("the yellow female's"),
)
"""A female as the owner of an egg, by her colour."""
# TRANSLATORS: a female as a place in short labels: "Crow eats blue's 7 at red", "Ann at red"
AT_FEMALE = (N_("at red"), N_("at blue"), N_("at green"), N_("at yellow"))
"""A female as a place in a label or a list, by her colour."""
# TRANSLATORS: a player named by their colour, as the owner of a worm: "Crow eats blue's 7"
PLAYER_OF = (N_("red's"), N_("blue's"), N_("green's"), N_("yellow's"))
"""A player as the owner of a worm, by their colour (in a move's label)."""
STAGE_TEXT = {
    Stage.ORDER: N_("arranging the decks"),
    Stage.SHUFFLE: N_("shuffling a deck"),
    Stage.SPREAD: N_("shuffling a deck"),
    Stage.PLAY: N_("normal turn"),
    Stage.WEDDINGS: N_("wedding phase · wedding stage (place a Wedding or pass)"),
    Stage.WORMS: N_("wedding phase · worm stage (a worm, an exchange, or pass)"),
    Stage.OVER: N_("game over"),
}
"""Each stage in a few words (the terminal's table subtitle; English, translate it where it
is used)."""


def deck_text(info: PlayerView, *, speech: Speech = ENGLISH, total: int = DECK_SIZE) -> str:
    """How far a player's deck setup has got, as far as the viewer may know (of a deck of
    ``total`` cards)."""
    if info.ready:
        return speech.gettext("ready")
    if info.pile_size is None:  # another player's deck
        return speech.gettext("setting up")
    return speech.gettext("{n} of {total} placed").format(n=info.pile_size, total=total)


def count_text(size: int | None) -> str:
    """A hand or pile size, ``?`` where it is secret."""
    return "?" if size is None else str(size)


def egg_text(female: Colour, eggs: int) -> str:
    """An egg card, e.g. ``R2`` for the red female's second egg (notation)."""
    return f"{female.letter}{eggs}"


def mating_text(view: AuweierView, names: Sequence[str], *, speech: Speech = ENGLISH) -> str:
    """What the last mating did, in words."""
    last = view.last
    if last is None:
        return ""
    parts = [
        # TRANSLATORS: {female} is e.g. "the red female's", {ordinal} e.g. "1st"
        speech.gettext("{who} wins {female} {ordinal} egg").format(
            who=names[a.player],
            female=speech.gettext(FEMALE_OF[a.female]),
            ordinal=speech.gettext(ORDINAL[a.eggs]),
        )
        for a in last.awards
    ] or [speech.gettext("no egg")]
    if last.cleared:
        stacks = ", ".join(f"{names[p]} {speech.gettext(AT_FEMALE[f])}" for f, p in last.cleared)
        # TRANSLATORS: the stacks discarded with their Weddings, e.g. "Ann at red, Bob at blue"
        parts.append(speech.gettext("cleared: {stacks}").format(stacks=stacks))
    return "; ".join(parts) + "."


class AuweierWords(Words[AuweierView]):
    """What is said about Auweier moves and events."""

    def move_label(self, view: AuweierView, move: Move) -> str:
        if isinstance(move, Arrange) and len(move.cards) == 1:
            card = move.cards[0]
            return self._("{card} next ({name}, {left} left)").format(
                card=CARD_TEXT[card], name=self._(CARD_WORDS[card]), left=view.my_hand[card]
            )
        if isinstance(move, ShuffleRest):
            left = sum(view.my_hand)  # a shuffle needs at least two cards
            if move.spread:
                return self._("shuffle the {n} cards left, Weddings spread evenly").format(n=left)
            return self._("shuffle the {n} cards left").format(n=left)
        if isinstance(move, Starter):
            return self._("first-game hand {cards}, rest shuffled").format(
                cards=cards_text(move.hand())
            )
        if isinstance(move, PlayWorm):
            mine = _total(view, move.female, view.player)
            # TRANSLATORS: a worm card before a female, and the player's total there before → after
            return self._("{card} → {female} ({total}→{after})").format(
                card=CARD_TEXT[move.card],
                female=self._(COLOUR_WORDS[move.female]),
                total=mine,
                after=mine + view.config.worm_values[move.card],
            )
        if isinstance(move, PlayWedding):
            return self._("Wedding → {female}").format(female=self._(COLOUR_WORDS[move.female]))
        if isinstance(move, PlayCrow):
            owner, female = move.owner, move.female
            # TRANSLATORS: {owner} is e.g. "blue's", {at_female} e.g. "at red"; {letters} notation
            return self._("Crow eats {owner} {top} {at_female} ({letters})").format(
                owner=self._(PLAYER_OF[owner]),
                top=_prey_text(view, move) or "?",
                at_female=self._(AT_FEMALE[female]),
                letters=f"{owner.letter}@{female.letter}",
            )
        if isinstance(move, Swap):
            # TRANSLATORS: a False Worm exchange: the card at place {place} of the player's stack
            # before the {female} female goes back to the hand for {card}
            return self._("swap {female} #{place}: {out} ↔ {card}").format(
                female=self._(COLOUR_WORDS[move.female]),
                place=move.place,
                out=_swapped_out(view, move),
                card=CARD_TEXT[move.card],
            )
        if isinstance(move, Pass):
            return self._("pass (final)")
        return str(move)

    def event(
        self, view: AuweierView, move: Move | Hidden, names: Sequence[str], actor: str
    ) -> str:
        if isinstance(move, Hidden):
            if move.text == HIDDEN_DECK_TEXT:
                return ""  # one line per secret step would tell how the deck was built
            if move.text == HIDDEN_SHUFFLE_TEXT:
                if view.viewer != view.player:
                    return ""  # nor would a line for the shuffle of another player's deck
                return self._("{name}'s cards are shuffled face down.").format(
                    name=names[view.player]
                )
            return self._("{actor}: {move}").format(actor=actor, move=move)
        described = self._describe(view, move, names, actor)
        return described or self._("{actor}: {move}").format(actor=actor, move=move)

    def aftermath(
        self, before: AuweierView, after: AuweierView, names: Sequence[str]
    ) -> str | None:
        lines = [
            self._("{name}'s deck is ready.").format(name=names[p])
            for p, (was, now) in enumerate(zip(before.players, after.players, strict=True))
            if now.ready and not was.ready
        ]
        if after.last is not None and after.last is not before.last:
            what = mating_text(after, names, speech=self.speech)
            lines.append(self._("Mating: {what}").format(what=what))
        if after.stage is Stage.WORMS and before.stage is Stage.WEDDINGS:
            takers = [names[p] for p, info in enumerate(after.players) if info.weddings]
            lines.append(
                self.ngettext(
                    "The worm stage begins: {names} takes part.",
                    "The worm stage begins: {names} take part.",
                    len(takers),
                ).format(names=", ".join(takers), n=len(takers))
            )
        if before.stage is not Stage.PLAY and after.stage is Stage.PLAY and after.last is None:
            lines.append(self._("Every deck is ready; each player takes six cards."))
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            lines.append(self.game_over(after, names))
        return " ".join(lines) or None

    def ending(self, view: AuweierView, names: Sequence[str]) -> str | None:
        return self.game_over(view, names) if view.stage is Stage.OVER else None

    def game_over(self, view: AuweierView, names: Sequence[str]) -> str:
        """Why the game ended, who won, and everyone's points (``view`` from the end)."""
        scores = ", ".join(f"{names[p]} {info.score}" for p, info in enumerate(view.players))
        sentences = [
            self._end_reason(view, names),
            self._winners(view, names),
            self._("Points: {scores}.").format(scores=scores),
        ]
        return " ".join(sentence for sentence in sentences if sentence)

    def _end_reason(self, view: AuweierView, names: Sequence[str]) -> str:
        """Why the game ended, in plain words."""
        if view.end is End.LAST_EGG:
            return self._("Game over: the last egg was won.")
        if view.end is End.NO_PLAY:
            name = names[view.player]  # at the end: the player who was due to play
            if view.players[view.player].hand_size == 0:
                return self._("Game over: {name} had no cards left to play.").format(name=name)
            return self._("Game over: {name} could not play any of their cards.").format(name=name)
        if view.end is End.NOBODY_CAN_PLAY:
            return self._("Game over: nobody could play any of their cards.")
        return self._("Game over.")

    def _winners(self, view: AuweierView, names: Sequence[str]) -> str:
        """Who won, with how many points (nothing if the view names no winner)."""
        winners = sorted(view.winners)
        if not winners:
            return ""
        points = view.players[winners[0]].score
        who = self.names_list([names[p] for p in winners])
        if len(winners) == 1:
            text = self.ngettext(
                "{winners} wins with {n} point.", "{winners} wins with {n} points.", points
            )
        else:
            text = self.ngettext(
                "{winners} share the win with {n} point each.",
                "{winners} share the win with {n} points each.",
                points,
            )
        return text.format(winners=who, n=points)

    def many_moves(self, view: AuweierView, legal: Sequence[Move]) -> str:
        # always very many moves, so never one choice
        if view.stage is Stage.ORDER:
            return self._(
                "… {n} choices. Type `deck 3` to place a 3 next, or several "
                "cards at once, up to your whole order: `deck 1 K H 7 2* F ...` "
                "(the first six are your starting hand). `deck shuffle` shuffles the "
                "rest, `deck spread` shuffles them with the Weddings spread evenly, "
                "`deck starter 1 2* 3` is the rulebook's first-game hand; "
                "`moves` lists every choice."
            ).format(n=len(legal))
        return self._(
            "… {n} choices. `worm 3 R` (or `3r`) plays a 3 before the "
            "red female, `wedding R`, `crow B@R` eats Blue's top worm at red, "
            "`swap R 4` exchanges your False Worm, `pass` in a wedding phase; "
            "`moves` lists every choice with its number."
        ).format(n=len(legal))

    def help(self) -> str:
        return self._(
            "Cards: worms `1 2 2* 3 4 5* 6 7` (2* and 5* are crow-proof), `F` "
            "the False Worm (worth 0), `K` a Crow, `H` a Wedding. Females and "
            "players by colour letter `R B G Y`.\n"
            "`worm 3 R` / `3r`: a worm before the red female · "
            "`wedding R` / `hr`: a Wedding (opening one only where your worm "
            "total is the highest alone) · `crow B@R`: a Crow eats Blue's top worm "
            "before red · `swap R#2 F`: your False Worm from hand replaces your card at "
            "place 2 (from the bottom) before red, `swap R#2 4`: a 4 replaces your False "
            "Worm there (`swap R 4` finds the place) · `pass`: a final pass in "
            "a wedding phase.\nDeck: `deck 3` places a 3 next (drawn earlier than the "
            "cards placed after it); `deck 7 H K ...` places several, up to all 22; "
            "`deck shuffle` / `deck spread` / `deck starter 1 2* 3`."
        )

    def _describe(
        self, view: AuweierView, move: Move, names: Sequence[str], actor: str
    ) -> str | None:
        """The sentence for a move everyone (or its own player) sees as it is."""
        if isinstance(move, Arrange):
            return self._("{actor} places {cards} next in their deck.").format(
                actor=actor, cards=cards_text(move.cards)
            )
        if isinstance(move, ShuffleRest | Starter):
            return self._("{actor} arranges their deck: {move}.").format(actor=actor, move=move)
        if isinstance(move, Shuffled):
            return self._("{name}'s cards are shuffled.").format(name=names[view.player])
        if isinstance(move, PlayWorm):
            total = _total(view, move.female, view.player) + view.config.worm_values[move.card]
            # TRANSLATORS: {before_female} is e.g. "before the red female"; {card} notation
            return self._("{actor} plays {card} {before_female} (now {total}).").format(
                actor=actor,
                card=CARD_TEXT[move.card],
                before_female=self._(BEFORE_FEMALE[move.female]),
                total=total,
            )
        if isinstance(move, PlayWedding):
            before_female = self._(BEFORE_FEMALE[move.female])
            if view.stage is Stage.PLAY:
                return self._(
                    "{actor} opens a wedding phase with a Wedding {before_female}!"
                ).format(actor=actor, before_female=before_female)
            return self._("{actor} places a Wedding {before_female}.").format(
                actor=actor, before_female=before_female
            )
        if isinstance(move, PlayCrow):
            top = _prey_text(view, move)
            before_female = self._(BEFORE_FEMALE[move.female])
            owner = names[move.owner]
            if top is None:
                return self._("{actor}'s Crow eats {owner}'s worm {before_female}.").format(
                    actor=actor, owner=owner, before_female=before_female
                )
            # TRANSLATORS: {top} is the eaten worm in notation, e.g. "7"
            return self._("{actor}'s Crow eats {owner}'s {top} {before_female}.").format(
                actor=actor, owner=owner, top=top, before_female=before_female
            )
        if isinstance(move, Swap):
            # TRANSLATORS: {out} and {card} are cards in notation, e.g. "F" and "4"
            return self._(
                "{actor} exchanges their {out} {before_female} for {card} from hand."
            ).format(
                actor=actor,
                out=_swapped_out(view, move),
                before_female=self._(BEFORE_FEMALE[move.female]),
                card=CARD_TEXT[move.card],
            )
        if isinstance(move, Pass):
            return self._("{actor} passes.").format(actor=actor)
        return None


def _total(view: AuweierView, female: Colour, player: int) -> int:
    return view.females[female].stacks[player].total


def _swapped_out(view: AuweierView, move: Swap) -> str:
    """The card ``move`` takes back to the hand, in notation (``?`` if there is none)."""
    stack = view.females[move.female].stacks[view.player].cards
    return CARD_TEXT[stack[move.place - 1]] if move.place <= len(stack) else "?"


def _prey_text(view: AuweierView, move: PlayCrow) -> str | None:
    """The worm ``move``'s Crow would eat, in notation (``None`` if there is none)."""
    stack = view.females[move.female].stacks[move.owner].cards
    prey = crow_prey(stack, view.config.crow_digs)
    return CARD_TEXT[stack[prey]] if prey is not None else None


WORDS = AuweierWords()
