"""Refusals: a request the server will not carry out, with its reason in the page's language.

Every room refuses with :class:`RefusedError` (a msgid of the catalogs and its placeholders, an
HTTP status, the table's version where there is one, the engine's error behind it); the routes
turn it into an HTTP error and the sockets into an ``error`` message, each in the asker's
language.
"""

from __future__ import annotations

from collections.abc import Mapping

from spieltisch.core.errors import IllegalActionError, SpieltischError
from spieltisch.locale import SOURCE, translation

WORDED = frozenset({"status"})
"""The placeholders of a refusal whose values are msgids too (said in the page's language)."""


class RefusedError(Exception):
    """A request the server will not carry out, with the reason to show.

    ``reason`` is an English msgid of the catalogs, its placeholders filled from ``params``
    (Babel extracts a literal ``reason``); ``cause`` is the engine's error behind it, if any.
    :meth:`said` gives the reason in a page's language.
    """

    def __init__(
        self, reason: str, status: int = 400, version: int | None = None,
        cause: SpieltischError | None = None, *, params: Mapping[str, object] | None = None,
    ) -> None:  # fmt: skip
        self.msgid = reason
        self.params = dict(params or {})
        self.reason = reason.format(**self.params) if self.params else reason
        super().__init__(self.reason)
        self.status = status
        self.version = version
        self.cause = cause

    def said(self, language: str) -> str:
        """The reason in ``language``: the rule the engine named, translated (with its detail
        if that is a fixed text; a detail worked out from the position, in English only, is
        left out), or the server's own reason."""
        if language == SOURCE:
            return self.reason
        speech = translation(language)
        error = self.cause
        if not isinstance(error, IllegalActionError):
            text = speech.gettext(self.msgid)
            said = {k: speech.gettext(str(v)) if k in WORDED else v for k, v in self.params.items()}
            return text.format(**said) if said else text
        text = speech.gettext("illegal move {move}: {rule}").format(
            move=repr(error.action), rule=speech.gettext(error.rule)
        )
        detail = speech.gettext(error.detail) if error.detail else ""
        return f"{text} ({detail})" if detail and detail != error.detail else text

    @classmethod
    def of(cls, error: SpieltischError, status: int, version: int) -> RefusedError:
        """The engine's refusal of a move, with its reason."""
        return cls(str(error), status, version, error)
