"""The table session: one game being played, under every surface (see :mod:`.table`)."""

from spieltisch.session.play import play_out
from spieltisch.session.steps import Steps
from spieltisch.session.table import Event, StaleVersionError, Table
from spieltisch.session.verify import Verified, verify

__all__ = ["Event", "StaleVersionError", "Steps", "Table", "Verified", "play_out", "verify"]
