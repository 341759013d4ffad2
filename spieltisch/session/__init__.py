"""The table session: one game being played, under every surface (see :mod:`.table`)."""

from spieltisch.session.play import play_out
from spieltisch.session.table import Event, StaleVersionError, Table

__all__ = ["Event", "StaleVersionError", "Table", "play_out"]
