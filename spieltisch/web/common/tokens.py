"""Secret tokens: seat and host links carry them; the database keeps only their hashes.

A token has 256 random bits, so a plain SHA-256 of it is enough to store (nobody can guess
one to hash); it is compared in constant time. Tokens travel in a link's fragment or a
message body, never in a query string, and are never logged. A seat's token is derived from
the host's token (an HMAC of the table, a nonce and the seat), so the host, and only the
host, can be shown every seat's link again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
MAX_TOKEN_LENGTH = 100


def new_token() -> str:
    """A fresh secret token (256 random bits, URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: object, stored: str | None) -> bool:
    """True when ``token`` is the one whose hash is ``stored`` (in constant time)."""
    if stored is None or not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return False
    return hmac.compare_digest(token_hash(token), stored)


def new_table_id() -> str:
    """A table's public id (not a secret: it names the table to watch)."""
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    """A table's seed, drawn by the server (62 bits, so every database stores it)."""
    return secrets.randbits(62)


def new_origin(table_id: str) -> str:
    """What a new seat token is derived from (its table and a fresh nonce)."""
    return f"{table_id}.{secrets.token_hex(6)}"


def derive_token(host_token: str, origin: str, seat: int) -> str:
    """The seat token the host's token gives for ``seat`` under ``origin``: so the host page
    can show every seat's link again, while the database keeps only hashes."""
    mac = hmac.new(host_token.encode(), f"seat:{origin}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()
