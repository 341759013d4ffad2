"""Auf die Eier in words: move labels, event sentences, the score of a turn, help.

Plain text only (notation a player may type is set in backticks); every surface says these
the same way, in the language of the words' speech (English as written here). The face
symbols live here too, as the plain form of the dice in sentences; a surface may colour
them. Dice letters and move text (``reroll FFP``) are notation and stay as they are in every
language. Reads views only.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.chance import Counts
from spieltisch.core.game import Hidden, Move
from spieltisch.core.words import ENGLISH, N_, Speech, Words
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
NO_DICE_TEXT = N_("none")
"""What a row of dice says when there are none (English; translate it where it is used)."""


def dice_faces(dice: Counts, *, speech: Speech = ENGLISH) -> str:
    """The dice as face symbols, as a surface lays them out: ``" ☠ R   ◐ C  "``."""
    text = "".join(f" {FACE_SYMBOL[face]}  " * dice[face] for face in Face)
    return text or speech.gettext(NO_DICE_TEXT)


def score_text(result: TurnScore, *, speech: Speech = ENGLISH) -> str:
    """How a turn scored, in words."""
    parts = []
    if result.breakfast:
        if result.spoiled_breakfast:
            breakfast = speech.gettext("breakfast {points} (spoiled)")
        else:
            breakfast = speech.gettext("breakfast {points}")
        parts.append(breakfast.format(points=result.breakfast))
    if result.fried:
        good = result.fried - result.spoiled_fried
        if result.spoiled_fried:
            fried = speech.ngettext(
                "{n} fried eggs pair, {spoiled} spoiled = {points}",
                "{n} fried eggs pairs, {spoiled} spoiled = {points}",
                result.fried,
            )
        else:
            fried = speech.ngettext(
                "{n} fried eggs pair = {points}", "{n} fried eggs pairs = {points}", result.fried
            )
        parts.append(fried.format(n=result.fried, spoiled=result.spoiled_fried, points=5 * good))
    if result.chickens:
        parts.append(speech.gettext("chickens {points}").format(points=result.chickens))
    points = speech.ngettext("{n} point", "{n} points", result.points).format(n=result.points)
    if not parts:
        return points
    # TRANSLATORS: a turn's points, then what scored them, e.g. "21 points (chickens 15; ...)"
    return speech.gettext("{points} ({details})").format(points=points, details="; ".join(parts))


class EierWords(Words[EierView]):
    """What is said about Auf die Eier moves and events."""

    def move_label(self, view: EierView, move: Move) -> str:
        del view
        if isinstance(move, Stop):
            return self._("stop and score")
        if isinstance(move, Reroll):  # the dice by their letters, as the notation writes them
            dice = "".join(LETTERS[f] * n for f, n in enumerate(move.dice))
            return self._("reroll {dice}").format(dice=dice)
        return str(move)

    def event(self, view: EierView, move: Move | Hidden, names: Sequence[str], actor: str) -> str:
        turn = names[view.player]
        if isinstance(move, Roll) and view.stage is Stage.ROTTEN:
            rotten = sum(move.dice)
            return self.ngettext(
                "{thrower} re-rolls {player}'s Rotten Egg: {dice}",
                "{thrower} re-rolls {player}'s Rotten Eggs: {dice}",
                rotten,
            ).format(
                thrower=names[view.rotten_thrower],
                player=turn,
                dice=dice_faces(move.dice, speech=self.speech),
                n=rotten,
            )
        if isinstance(move, Roll):
            return self._("{player} throws: {dice}").format(
                player=turn, dice=dice_faces(move.dice, speech=self.speech)
            )
        if isinstance(move, Stop):
            return self._("{player} stops.").format(player=actor)
        if isinstance(move, Reroll):
            return self._("{player} re-rolls {dice}").format(
                player=actor, dice=dice_faces(move.dice, speech=self.speech)
            )
        return super().event(view, move, names, actor)

    def aftermath(self, before: EierView, after: EierView, names: Sequence[str]) -> str | None:
        lines = []
        if after.last is not None and after.last != before.last:  # never the same twice running
            lines.append(
                self._("{player} scores {score}.").format(
                    player=names[after.last.player],
                    score=score_text(after.last, speech=self.speech),
                )
            )
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            lines.append(self._game_over(after, names))
        return " ".join(lines) or None

    def ending(self, view: EierView, names: Sequence[str]) -> str | None:
        return self._game_over(view, names) if view.stage is Stage.OVER else None

    def _game_over(self, view: EierView, names: Sequence[str]) -> str:
        """Why the game ended and who won, in one sentence."""
        winners = sorted(view.winners)
        points = view.scores[winners[0]]
        winning = self.names_list([names[p] for p in winners])
        if view.tie_players:
            return self.ngettext(
                "Game over after the tie turns: {winners} wins with {points} points.",
                "Game over after the tie turns: {winners} share the win with {points} points each.",
                len(winners),
            ).format(winners=winning, points=points, n=len(winners))
        reached = [names[p] for p, score in enumerate(view.scores) if score >= view.goal]
        return self.ngettext(
            "Game over: the final round is played out after {reached} reached {goal} points, "
            "and {winner} wins with {points} points.",
            "Game over: the final round is played out after {reached} reached {goal} points, "
            "and {winner} wins with {points} points.",
            len(reached),
        ).format(
            reached=self.names_list(reached),
            goal=view.goal,
            winner=winning,
            points=points,
            n=len(reached),
        )

    def many_moves(self, view: EierView, legal: Sequence[Move]) -> str:
        del view
        return self.ngettext(
            "… {n} choice. Re-roll some dice with `reroll FFP` (throws those "
            "again) or `keep HHP` (keeps those, throws the other non-rotten dice); "
            "`stop` scores now; `moves` lists it with its number.",
            "… {n} choices. Re-roll some dice with `reroll FFP` (throws those "
            "again) or `keep HHP` (keeps those, throws the other non-rotten dice); "
            "`stop` scores now; `moves` lists every choice with its number.",
            len(legal),
        ).format(n=len(legal))

    def help(self) -> str:
        return self._(
            "Dice letters: W whole egg, C cracked egg, R rotten egg, P pot, F frying pan, "
            "H chicken.\n`stop` ends your throwing and scores; `reroll FFP` "
            "throws those dice again; `keep HHC` keeps those and throws all other "
            "non-rotten dice. Counts work too: `reroll 2F P`. Rotten Eggs stay set "
            "aside; after your last throw the player on your right re-rolls them."
        )


WORDS = EierWords()
