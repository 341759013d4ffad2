"""Auf die Eier in words: move labels, event sentences, the score of a turn, help.

Plain text only (notation a player may type is set in backticks); every surface says these
the same way. The face symbols live here too, as the plain form of the dice in sentences;
a surface may colour them. Reads views only.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.chance import Counts
from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import Words
from spieltisch.games.auf_die_eier.model import Stage, TurnScore
from spieltisch.games.auf_die_eier.notation import LETTERS, Face, Reroll, Roll, Stop
from spieltisch.games.auf_die_eier.view import EierView

FACE_SYMBOL = {
    Face.WHOLE: "◯ W",
    Face.CRACKED: "◐ C",
    Face.ROTTEN: "☠ R",
    Face.POT: "⊔ P",
    Face.PAN: "⊖ F",
    Face.CHICKEN: "♣ H",
}
LEGEND = "  ".join(f"{FACE_SYMBOL[f]} {f.label}" for f in Face)
NO_DICE_TEXT = "none"
"""What a row of dice says when there are none."""


def dice_faces(dice: Counts) -> str:
    """The dice as face symbols, as a surface lays them out: ``" ☠ R   ◐ C  "``."""
    text = "".join(f" {FACE_SYMBOL[face]}  " * dice[face] for face in Face)
    return text or NO_DICE_TEXT


def score_text(result: TurnScore) -> str:
    """How a turn scored, in words."""
    parts = []
    if result.breakfast:
        spoiled = " (spoiled)" if result.spoiled_breakfast else ""
        parts.append(f"breakfast {result.breakfast}{spoiled}")
    if result.fried:
        good = result.fried - result.spoiled_fried
        spoiled = f", {result.spoiled_fried} spoiled" if result.spoiled_fried else ""
        parts.append(f"{result.fried} fried eggs pair(s){spoiled} = {5 * good}")
    if result.chickens:
        parts.append(f"chickens {result.chickens}")
    return f"{result.points} points" + (f" ({'; '.join(parts)})" if parts else "")


class EierWords(Words[EierView]):
    """What is said about Auf die Eier moves and events."""

    def move_label(self, view: EierView, move: Move) -> str:
        del view
        if isinstance(move, Stop):
            return "stop and score"
        if isinstance(move, Reroll):
            return f"reroll {''.join(LETTERS[f] * n for f, n in enumerate(move.dice))}"
        return str(move)

    def event(self, view: EierView, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        turn = names[view.player]
        if isinstance(move, Roll) and view.stage is Stage.ROTTEN:
            thrower = names[view.rotten_thrower]
            return f"{thrower} re-rolls {turn}'s Rotten Eggs: {dice_faces(move.dice)}"
        if isinstance(move, Roll):
            return f"{turn} throws: {dice_faces(move.dice)}"
        if isinstance(move, Stop):
            return f"{actor} stops."
        if isinstance(move, Reroll):
            return f"{actor} re-rolls {dice_faces(move.dice)}"
        return super().event(view, move, names, actor)

    def aftermath(self, before: EierView, after: EierView, names: Sequence[str]) -> str | None:
        if after.last is None or after.last == before.last:  # one player never scores twice running
            return None
        return f"{names[after.last.player]} scores {score_text(after.last)}."

    def many_moves(self, view: EierView, legal: Sequence[Move]) -> str:
        del view
        return (
            f"… {len(legal)} choices. Re-roll some dice with `reroll FFP` (throws those "
            "again) or `keep HHP` (keeps those, throws the other non-rotten dice); "
            "`stop` scores now; `moves` lists every choice with its number."
        )

    def help(self) -> str:
        return (
            "Dice letters: W whole egg, C cracked egg, R rotten egg, P pot, F frying pan, "
            "H chicken.\n`stop` ends your throwing and scores; `reroll FFP` "
            "throws those dice again; `keep HHC` keeps those and throws all other "
            "non-rotten dice. Counts work too: `reroll 2F P`. Rotten Eggs stay set "
            "aside; after your last throw the player on your right re-rolls them."
        )


WORDS = EierWords()
