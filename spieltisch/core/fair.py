"""Dice anyone can verify: a table's seed, committed to before the first move.

A server that deals must not be able to steer its dice, and must be seen not to. So it draws a
secret (256 random bits) when a table is made and shows every seat only its *commitment*, the
SHA-256 of the secret and the table's id. Each person who sits down adds a *salt* of their own,
which the server cannot foresee. When the game starts, the seed is the hash of the secret, the
table id and the salts in seat order; every roll, shuffle and deal is then drawn from that seed.
At the end the server reveals the secret. Anyone can then check that the secret matches the
commitment shown before the first move, that the seed follows from it and the salts, and that
every chance step in the record is the one the seed draws: see :func:`check`.

Pure: hashing only (the secret is drawn by the server, never here).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from spieltisch.core.errors import RecordError

SCHEME = "spieltisch-fair-dice-v1"
MAX_SALT = 64


def commitment(table: str, secret: str) -> str:
    """What a server shows before the first move: SHA-256 of the scheme, table id and secret."""
    return hashlib.sha256(f"{SCHEME}:commit:{table}:{secret}".encode()).hexdigest()


def seed_of(table: str, secret: str, salts: Sequence[str]) -> int:
    """The table's seed (62 bits) from the secret, the table id and the seats' salts."""
    text = ":".join([SCHEME, "seed", table, secret, *salts])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


def check_salt(salt: object) -> str:
    """A seat's salt: hexadecimal text of at most :data:`MAX_SALT` characters ('' if none)."""
    if salt is None:
        return ""
    if (
        not isinstance(salt, str)
        or len(salt) > MAX_SALT
        or any(c not in "0123456789abcdef" for c in salt)
    ):
        raise ValueError(f"a salt is at most {MAX_SALT} lowercase hexadecimal digits")
    return salt


@dataclass(frozen=True, slots=True)
class FairDice:
    """What a finished table reveals so that its dice can be checked."""

    table: str
    commitment: str
    secret: str
    salts: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """As a record stores it."""
        return {
            "scheme": SCHEME,
            "table": self.table,
            "commitment": self.commitment,
            "secret": self.secret,
            "salts": list(self.salts),
        }

    @classmethod
    def from_json(cls, data: object) -> FairDice:
        """Read it from a record; :class:`RecordError` if it is malformed."""
        if not isinstance(data, dict) or data.get("scheme") != SCHEME:
            raise RecordError(f"the fair-dice proof must use the scheme {SCHEME}")
        texts = [data.get("table"), data.get("commitment"), data.get("secret")]
        salts = data.get("salts")
        if not all(isinstance(t, str) and 0 < len(t) <= 128 for t in texts):
            raise RecordError("the fair-dice proof needs its table, commitment and secret")
        if not isinstance(salts, list) or not all(isinstance(s, str) for s in salts):
            raise RecordError("the fair-dice proof's salts must be a list of texts")
        table, promised, secret = (str(t) for t in texts)
        return cls(table, promised, secret, tuple(salts))


def check(proof: FairDice, seed: int | None) -> None:
    """Refuse (with :class:`RecordError`) a proof whose secret does not match its commitment,
    or whose seed is not the record's. (That every chance step is the seed's draw is checked by
    replaying the record at a table.)"""
    if commitment(proof.table, proof.secret) != proof.commitment:
        raise RecordError("the revealed secret does not match the commitment shown before play")
    if seed != seed_of(proof.table, proof.secret, proof.salts):
        raise RecordError("the record's seed is not the one the secret and the salts give")
