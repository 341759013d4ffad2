"""An installation without the native core: the Python engine serves, and everything that
would use the native core says how to get it (these tests run with or without it)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import spieltisch
from spieltisch import native
from spieltisch.core.errors import NativeError
from spieltisch.native import build


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the extension were not installed."""
    monkeypatch.setattr(build, "_load", lambda: (None, build.MISSING))


@pytest.mark.usefixtures("without")
def test_without_it_every_entry_says_how_to_get_it() -> None:
    assert not native.available() and native.games() == ()
    assert native.status() == "native core not built (pure Python engine)"
    for attempt in (lambda: native.load("awimbawe"), lambda: native.Rng(1)):
        with pytest.raises(NativeError, match="install Rust"):
            attempt()


@pytest.mark.usefixtures("without")
def test_the_version_and_the_about_facts_say_it() -> None:
    facts = spieltisch.about()
    assert facts["native"] is False
    assert facts["native_core"] == "native core not built (pure Python engine)"


def test_an_installed_core_that_does_not_load_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken library file (another Python's, a damaged one): not "not built", and the
    version still prints."""

    def broken(name: str) -> None:
        raise ImportError("undefined symbol: PyInit__native")

    monkeypatch.delenv(build.LIBRARY_VARIABLE, raising=False)  # the installed module's path
    monkeypatch.setattr(importlib, "import_module", broken)
    build._load.cache_clear()
    try:
        assert not native.available()
        assert "does not load (undefined symbol" in native.status()
        with pytest.raises(NativeError, match="reinstall"):
            native.load("awimbawe")
        assert "does not load" in str(spieltisch.about()["native_core"])
    finally:
        monkeypatch.undo()
        build._load.cache_clear()


def test_with_it_the_status_names_its_version_and_games() -> None:
    if not native.available():
        pytest.skip("the native core is not built here")
    assert native.status() == (
        f"native core {build.extension().VERSION} (Rust: {', '.join(native.games())})"
    )


def test_a_named_library_file_is_loaded_in_its_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``SPIELTISCH_NATIVE_LIB`` (for work on the crate) names the file to load; one that is
    not a library fails loudly rather than falling back in silence."""
    monkeypatch.setenv(build.LIBRARY_VARIABLE, str(tmp_path / "lib_native.so"))
    build._load.cache_clear()
    try:
        with pytest.raises(ImportError):
            build.available()
    finally:
        monkeypatch.delenv(build.LIBRARY_VARIABLE)
        build._load.cache_clear()
