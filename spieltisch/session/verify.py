"""Checking a record's dice: that nobody, the server included, could have steered them.

A record of an online table carries the proof of :mod:`spieltisch.core.fair`. Verifying it is
checking the revealed secret against the commitment shown before the first move, the seed
against the secret and the seats' salts, and then replaying the record at a table, which draws
every chance step from that seed and refuses the record at the first roll, shuffle or deal that
is not the seed's draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from spieltisch.core import fair
from spieltisch.core.errors import RecordError
from spieltisch.core.game import Game
from spieltisch.core.record import Record
from spieltisch.session.table import Table


@dataclass(frozen=True, slots=True)
class Verified:
    """A record whose dice check out."""

    table: str
    commitment: str
    seed: int
    moves: int
    chance_steps: int
    finished: bool


def verify(game: Game, record: Record) -> Verified:
    """Check the dice of ``record``; :class:`RecordError` (with the move's index, for a chance
    step) says what does not check out."""
    proof = record.fair
    if proof is None:
        raise RecordError("the record carries no fair-dice proof (it was not played online)")
    if record.dictated:
        raise RecordError("the record has dictated chance steps, which no seed drew")
    seed = record.seed
    if seed is None:
        raise RecordError("the record names no seed")
    fair.check(proof, seed)
    table = Table.from_record(game, record)
    chance = sum(1 for v in range(table.version) if table.state_at(v).is_chance())
    return Verified(proof.table, proof.commitment, seed, table.version, chance, table.over)
