"""Shared cases of the RL tests: every game at every player count it takes."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
CASES = (
    ("auf-die-eier", 2),
    ("auf-die-eier", 3),
    ("auf-die-eier", 4),
    ("auf-die-eier", 5),
    ("auf-die-eier", 6),
    ("auf-die-nuesse", 2),
    ("auf-die-nuesse", 3),
    ("auf-die-nuesse", 4),
    ("auweier", 2),
    ("auweier", 3),
    ("auweier", 4),
    ("awimbawe", 2),
)
"""Every game with every player count it allows (checked against the games in a test)."""


def engine_name(name: str, native: bool) -> str:
    """The OpenSpiel game name ``name`` with the engine chosen: as it is for the native one
    (the default where the core is built), with ``native=False`` for the Python one."""
    if native:
        return name
    if name.endswith(")"):
        return name[:-1] + ",native=False)"
    return name + "(native=False)"


@pytest.fixture(params=["native", "python"])
def openspiel_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test of the OpenSpiel games once per engine: every ``pyspiel.load_game`` of the
    test loads its game on that engine (the native run is skipped where the core is not
    built)."""
    pyspiel = pytest.importorskip("pyspiel")
    engine = str(request.param)
    if engine == "native":
        from tests.native.agreement import require_native

        require_native()
    else:
        load_game = pyspiel.load_game
        monkeypatch.setattr(pyspiel, "load_game", lambda name: load_game(engine_name(name, False)))
    return engine
