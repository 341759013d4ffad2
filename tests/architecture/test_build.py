"""The compiled build's requirements come from pyproject's own pins (buildtools/backend.py)."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "spieltisch_backend", ROOT / "buildtools/backend.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("spieltisch_backend", module)
    spec.loader.exec_module(module)
    return module


def test_compiled_build_asks_for_mypy_and_numpy_as_pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "dev"
    ]
    pins = {spec.split(">")[0]: spec for spec in dev}
    monkeypatch.setenv("SPIELTISCH_COMPILE", "1")
    assert sorted(backend.compile_requires()) == sorted([pins["mypy"], pins["numpy"]])


def test_pure_build_asks_for_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    monkeypatch.delenv("SPIELTISCH_COMPILE", raising=False)
    assert backend.compile_requires() == []


@pytest.mark.parametrize(
    ("spec", "name"),
    [("numpy>=1.26,<3", "numpy"), ("mypy>=1.10,<2.5", "mypy"), ("rich[jupyter]==13", "rich")],
)
def test_requirement_names(spec: str, name: str) -> None:
    assert _backend()._name(spec) == name
