"""The terminal's tests: a lesson's test runs in its own spieltisch home, on a wide screen."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _learning_home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not request.module.__name__.rpartition(".")[2].startswith("test_learn"):
        return
    monkeypatch.setenv("SPIELTISCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
