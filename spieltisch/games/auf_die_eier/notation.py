"""Auf die Eier: dice faces, moves and their text form.

Dice are identical, so a set of dice is written as counts per face in the fixed face order
whole egg, cracked egg, rotten egg, pot, frying pan, chicken, and as text by one letter per die
in that order: ``W C R P F H``. The moves:

* ``roll RRCFFFPPH``: a chance outcome, the faces the thrown dice show;
* ``reroll FFP``: the player throws these dice again and keeps the rest;
* ``stop``: the player ends the rolling and scores.

Parsing also takes lower case, spaces and counts (``reroll 2F P``); the state's parser adds
``keep ...`` as the complement of a re-roll. The action table gives every player action its
id. Pure: no I/O.
"""

from __future__ import annotations

import enum
import functools
import re

from spieltisch.core.chance import Counts, compositions
from spieltisch.core.fast import HashOnce, hash_once, value
from spieltisch.core.game import ActionTable, check_length, invalid


class Face(enum.IntEnum):
    """The six faces of a die, in notation order."""

    WHOLE = 0
    CRACKED = 1
    ROTTEN = 2
    POT = 3
    PAN = 4
    CHICKEN = 5

    @property
    def letter(self) -> str:
        """The face's one-letter notation."""
        return LETTERS[self]

    @property
    def label(self) -> str:
        """The face's name in plain words."""
        return _LABELS[self]


LETTERS = "WCRPFH"
_LABELS = ("whole egg", "cracked egg", "rotten egg", "pot", "frying pan", "chicken")
FACES = len(Face)
NUM_DICE = 9
"""The dice of the rulebook's game (the ``dice`` parameter's default)."""
MAX_DICE = 10
"""The most dice the ``dice`` parameter allows (its upper bound)."""
NO_DICE: Counts = (0,) * FACES
_TOKEN = re.compile(r"(\d*)([A-Z])")
MAX_COUNT_DIGITS = 2
"""A count before a dice letter has at most this many digits."""


def dice_text(dice: Counts) -> str:
    """The dice as letters in face order, e.g. ``RRCPPFFFH``; ``-`` for no dice."""
    return "".join(LETTERS[f] * n for f, n in enumerate(dice)) or "-"


def parse_dice(text: str, move_text: str | None = None) -> Counts:
    """Read dice letters with optional counts (``"RRC"``, ``"2R C"``, ``"2r1c"``).

    ``move_text`` is the whole move the letters came from, quoted in the error message.
    """
    check_length(move_text or text)
    check_length(text)
    compact = text.replace(" ", "").replace(",", "").upper()
    if compact in {"", "-"}:
        return NO_DICE
    counts = [0] * FACES
    position = 0
    # One token at a time from where the last ended: a bad token ends the reading at once,
    # so the reader is linear in the text's length.
    while (match := _TOKEN.match(compact, position)) is not None:
        digits, letter = match.group(1), match.group(2)
        if letter not in LETTERS or len(digits) > MAX_COUNT_DIGITS or not digits.isascii():
            break
        counts[LETTERS.index(letter)] += int(digits or 1)
        position = match.end()
    if position != len(compact):
        raise invalid(
            move_text or text,
            f"dice letters from {LETTERS} (W whole, C cracked, R rotten, P pot, F pan, H chicken)",
        )
    return tuple(counts)


@hash_once
@value
class Roll(HashOnce):
    """Chance outcome: the faces shown by the dice just thrown (its hash worked out once)."""

    dice: Counts

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"

    def __repr__(self) -> str:
        return f"Roll.of({dice_text(self.dice)!r})"

    @classmethod
    def of(cls, letters: str) -> Roll:
        """The roll showing ``letters``, e.g. ``Roll.of("RRCFFFPPH")``."""
        return cls(parse_dice(letters))


@hash_once
@value
class Reroll(HashOnce):
    """Player action: throw these dice again; the other dice stay set aside. Its hash is
    worked out once: search keys its tree by the moves, and the action table interns them."""

    dice: Counts

    def __str__(self) -> str:
        return f"reroll {dice_text(self.dice)}"

    def __repr__(self) -> str:
        return f"Reroll.of({dice_text(self.dice)!r})"

    @classmethod
    def of(cls, letters: str) -> Reroll:
        """The re-roll of ``letters``, e.g. ``Reroll.of("FFP")``."""
        return cls(parse_dice(letters))


@value
class Stop:
    """Player action: stop rolling and score the dice."""

    def __str__(self) -> str:
        return "stop"

    def __repr__(self) -> str:
        return "Stop()"


STOP = Stop()
Action = Reroll | Stop
Move = Roll | Reroll | Stop


def parse_move(text: str) -> Move:
    """Read a move in canonical text or a documented alias (not ``keep``: see the state)."""
    check_length(text)
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    if word == "stop" and not rest.strip():
        return STOP
    if word in {"reroll", "r"}:
        return Reroll(parse_dice(rest, text))
    if word == "roll":
        return Roll(parse_dice(rest, text))
    raise invalid(text, "'stop', 'reroll <dice>', 'keep <dice>' or 'roll <dice>'")


@functools.cache
def reroll_table(dice: int = NUM_DICE) -> tuple[Reroll, ...]:
    """Every re-roll of 1 to ``dice`` non-rotten dice: fewest dice first, then W before C, P, F,
    H. A game with fewer dice has a prefix of a game with more, so a re-roll's id is the same
    whatever the number of dice in play."""
    table = []
    for total in range(1, dice + 1):
        for five in reversed(compositions(total, FACES - 1)):
            table.append(Reroll((five[0], five[1], 0, five[2], five[3], five[4])))
    return tuple(table)


@functools.cache
def reroll_ids() -> dict[Reroll, int]:
    """Action id of each re-roll of up to :data:`MAX_DICE` dice: 1 + its position in
    :func:`reroll_table` (0 is ``stop``)."""
    return {reroll: index + 1 for index, reroll in enumerate(reroll_table(MAX_DICE))}


@functools.cache
def action_table(dice: int = NUM_DICE) -> ActionTable[Action]:
    """Every player action by id with ``dice`` in play: ``stop`` is 0, then
    :func:`reroll_table` in its order."""
    return ActionTable((STOP, *reroll_table(dice)), "Auf die Eier")
