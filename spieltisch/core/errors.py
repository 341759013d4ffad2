"""Typed errors of the rules core.

Every error a caller can provoke with bad input is one of these, all subclasses of
:class:`SpieltischError`. Engines raise them at the boundary (parsing, applying, loading) and
never change a state when they do. Nothing here reads or prints anything.
"""

from __future__ import annotations


class SpieltischError(Exception):
    """Base class of every error spieltisch raises on purpose."""


class InvalidActionError(SpieltischError, ValueError):
    """A text or value is not an action or chance outcome of this game at all (malformed)."""


class IllegalActionError(SpieltischError, ValueError):
    """A well-formed action that the rules forbid in the current state.

    ``rule`` names the rule that forbids it, in words a player recognises; ``action`` is the
    canonical text of the refused action.
    """

    def __init__(self, action: str, rule: str, detail: str = "") -> None:
        self.action = action
        self.rule = rule
        self.detail = detail
        message = f"illegal action {action!r}: {rule}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class OptionError(SpieltischError, ValueError):
    """An unknown game option, a value of the wrong type, or an unsupported player count."""


class UnknownGameError(SpieltischError, KeyError):
    """No game is registered under this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class GameNotImplementedError(SpieltischError, NotImplementedError):
    """The game id is reserved, but its rules are not implemented yet."""


class NotEnumerableError(SpieltischError):
    """A chance event has too many outcomes to list; sample it instead."""


class NativeError(SpieltischError, RuntimeError):
    """The native core (``spieltisch.native``) is not installed, or failed inside: a panic of
    its Rust code arrives as this error, naming the game, never as a crash."""


class RecordError(SpieltischError, ValueError):
    """A game record is malformed, or one of its moves is illegal when replayed.

    ``index`` is the 0-based position of the bad move in the record's move list, or ``None``
    when the record as a whole is malformed (bad JSON, unknown game, wrong format version).
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        self.reason = reason
        self.index = index
        where = f"move {index}: " if index is not None else ""
        super().__init__(f"{where}{reason}")
