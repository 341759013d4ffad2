"""Auweier's words: move labels, event sentences, what a move brought about, and help.

Plain text (notation a player may type in backticks), read from views only; each surface's
drawer lays the table out and takes its text pieces (stage names, egg cards, deck progress,
the last mating) from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import Words
from spieltisch.games.auweier.model import Stage, crow_prey
from spieltisch.games.auweier.notation import (
    CARD_NAME,
    CARD_TEXT,
    DECK_SIZE,
    HIDDEN_DECK_TEXT,
    HIDDEN_SHUFFLE_TEXT,
    WORM_VALUE,
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

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
STAGE_TEXT = {
    Stage.ORDER: "arranging the decks",
    Stage.SHUFFLE: "shuffling a deck",
    Stage.SPREAD: "shuffling a deck",
    Stage.PLAY: "normal turn",
    Stage.WEDDINGS: "wedding phase · wedding stage (place a Wedding or pass)",
    Stage.WORMS: "wedding phase · worm stage (a worm, an exchange, or pass)",
    Stage.OVER: "game over",
}
"""Each stage in a few words (the terminal's table subtitle)."""


def deck_text(info: PlayerView) -> str:
    """How far a player's deck setup has got, as far as the viewer may know."""
    if info.ready:
        return "ready"
    if info.pile_size is None:  # another player's deck
        return "setting up"
    return f"{info.pile_size} of {DECK_SIZE} placed"


def count_text(size: int | None) -> str:
    """A hand or pile size, ``?`` where it is secret."""
    return "?" if size is None else str(size)


def egg_text(female: Colour, eggs: int) -> str:
    """An egg card, e.g. ``R2`` for the red female's second egg."""
    return f"{female.letter}{eggs}"


def mating_text(view: AuweierView, names: Sequence[str]) -> str:
    """What the last mating did, in words."""
    last = view.last
    if last is None:
        return ""
    won = [
        f"{names[a.player]} wins the {a.female.label} female's {ORDINAL[a.eggs]} egg"
        for a in last.awards
    ]
    cleared = ", ".join(f"{names[p]} at {f.label}" for f, p in last.cleared)
    return "; ".join(won or ["no egg"]) + (f"; cleared: {cleared}" if cleared else "") + "."


class AuweierWords(Words[AuweierView]):
    """What is said about Auweier moves and events."""

    def move_label(self, view: AuweierView, move: Move) -> str:
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
            owner, female = move.owner, move.female
            letters = f"{owner.letter}@{female.letter}"
            return f"Crow eats {owner.label}'s {top} at {female.label} ({letters})"
        if isinstance(move, Swap):
            stack = view.females[move.female].stacks[view.player].cards
            out = CARD_TEXT[stack[move.place - 1]] if move.place <= len(stack) else "?"
            return f"swap {move.female.label} #{move.place}: {out} ↔ {CARD_TEXT[move.card]}"
        if isinstance(move, Pass):
            return "pass (final)"
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
                return f"{names[view.player]}'s cards are shuffled face down."
            return f"{actor}: {move}"
        return _describe(view, move, names, actor) or f"{actor}: {move}"

    def aftermath(
        self, before: AuweierView, after: AuweierView, names: Sequence[str]
    ) -> str | None:
        lines = [
            f"{names[p]}'s deck is ready."
            for p, (was, now) in enumerate(zip(before.players, after.players, strict=True))
            if now.ready and not was.ready
        ]
        if after.last is not None and after.last is not before.last:
            lines.append("Mating: " + mating_text(after, names))
        if after.stage is Stage.WORMS and before.stage is Stage.WEDDINGS:
            takers = [names[p] for p, info in enumerate(after.players) if info.weddings]
            lines.append("The worm stage begins: " + ", ".join(takers) + " take part.")
        if before.stage is not Stage.PLAY and after.stage is Stage.PLAY and after.last is None:
            lines.append("Every deck is ready; each player takes six cards.")
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            reason = after.end.value if after.end is not None else "the game is over"
            scores = ", ".join(f"{names[p]} {info.score}" for p, info in enumerate(after.players))
            lines.append(f"Game over ({reason}). Points: {scores}.")
        return " ".join(lines) or None

    def many_moves(self, view: AuweierView, legal: Sequence[Move]) -> str:
        if view.stage is Stage.ORDER:
            return (
                f"… {len(legal)} choices. Type `deck 3` to place a 3 next, or several "
                "cards at once, up to your whole order: `deck 1 K H 7 2* F ...` "
                "(the first six are your starting hand). `deck shuffle` shuffles the "
                "rest, `deck spread` shuffles them with the Weddings spread evenly, "
                "`deck starter 1 2* 3` is the rulebook's first-game hand; "
                "`moves` lists every choice."
            )
        return (
            f"… {len(legal)} choices. `worm 3 R` (or `3r`) plays a 3 before the "
            "red female, `wedding R`, `crow B@R` eats Blue's top worm at red, "
            "`swap R 4` exchanges your False Worm, `pass` in a wedding phase; "
            "`moves` lists every choice with its number."
        )

    def help(self) -> str:
        return (
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


def _total(view: AuweierView, female: Colour, player: int) -> int:
    return view.females[female].stacks[player].total


def _describe(view: AuweierView, move: Move, names: Sequence[str], actor: str) -> str | None:
    if isinstance(move, Arrange):
        return f"{actor} places {cards_text(move.cards)} next in their deck."
    if isinstance(move, ShuffleRest | Starter):
        return f"{actor} arranges their deck: {move}."
    if isinstance(move, Shuffled):
        return f"{names[view.player]}'s cards are shuffled."
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
        owner = names[move.owner]
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


WORDS = AuweierWords()
