"""The build: pure Python, plus the native core where cargo is found, built with
setuptools-rust as pyproject's dev extra pins it (buildtools/backend.py); without cargo the
install says so and goes on in pure Python, unless ``SPIELTISCH_NATIVE=1`` asked for it
(buildtools/native_core.py, setup.py)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILDTOOLS = ROOT / "buildtools"


def _load(name: str) -> ModuleType:
    """A module of ``buildtools/`` (which pip puts on the build's path), loaded by path."""
    if str(BUILDTOOLS) not in sys.path:
        sys.path.append(str(BUILDTOOLS))  # backend.py imports native_core.py beside it
    spec = importlib.util.spec_from_file_location(
        f"spieltisch_build_{name}", BUILDTOOLS / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("flag", [None, "auto", "1"])
def test_the_native_core_asks_for_setuptools_rust_as_pinned_where_cargo_is(
    monkeypatch: pytest.MonkeyPatch, flag: str | None
) -> None:
    backend = _load("backend")
    native_core = sys.modules["native_core"]
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "dev"
    ]
    pin = next(spec for spec in dev if spec.startswith("setuptools-rust"))
    if flag is None:
        monkeypatch.delenv("SPIELTISCH_NATIVE", raising=False)
    else:
        monkeypatch.setenv("SPIELTISCH_NATIVE", flag)
    monkeypatch.setattr(native_core, "cargo", lambda: "/opt/rust/bin/cargo")
    assert backend.build_requires() == [pin]
    monkeypatch.setattr(native_core, "cargo", lambda: None)
    assert backend.build_requires() == []


def test_without_cargo_the_native_core_is_left_out_unless_asked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    native_core = _load("native_core")
    monkeypatch.setattr(native_core, "cargo", lambda: None)
    building = ["setup.py", "bdist_wheel"]
    monkeypatch.setenv("SPIELTISCH_NATIVE", "1")
    with pytest.raises(SystemExit, match=r"no Rust toolchain \(cargo\) is installed"):
        native_core.extensions(building)
    monkeypatch.setenv("SPIELTISCH_NATIVE", "auto")
    assert native_core.extensions(building) == []
    assert "installing without the native core" in capsys.readouterr().err
    monkeypatch.setenv("SPIELTISCH_NATIVE", "0")
    assert native_core.extensions(building) == []
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("SPIELTISCH_NATIVE", "perhaps")
    with pytest.raises(SystemExit, match="not understood"):
        native_core.extensions(building)


@pytest.mark.parametrize(("flag", "optional"), [("auto", True), ("1", False)])
def test_the_native_core_is_built_in_release_mode_with_its_python_face(
    monkeypatch: pytest.MonkeyPatch, flag: str, optional: bool
) -> None:
    """A failing Rust build stops the install only where the native core was asked for."""
    native_core = _load("native_core")
    monkeypatch.setattr(native_core, "cargo", lambda: shutil.which("true"))
    monkeypatch.setenv("SPIELTISCH_NATIVE", flag)
    assert native_core.extensions(["setup.py", "egg_info"]) == []  # metadata: nothing built
    (extension,) = native_core.extensions(["setup.py", "bdist_wheel"])
    assert extension.name == "spieltisch._native"
    assert list(extension.features) == ["python"] and extension.debug is False
    assert extension.optional is optional
    assert Path(extension.path) == Path("native/Cargo.toml")


@pytest.mark.parametrize("flag", ["0", "no", "false"])
def test_pure_build_asks_for_nothing_more(monkeypatch: pytest.MonkeyPatch, flag: str) -> None:
    backend = _load("backend")
    native_core = sys.modules["native_core"]
    monkeypatch.setattr(native_core, "cargo", lambda: "/opt/rust/bin/cargo")
    monkeypatch.setenv("SPIELTISCH_NATIVE", flag)
    assert backend.build_requires() == []


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("setuptools-rust>=1.9,<2", "setuptools-rust"),
        ("numpy>=1.26,<3", "numpy"),
        ("rich[jupyter]==13", "rich"),
    ],
)
def test_requirement_names(spec: str, name: str) -> None:
    assert _load("backend")._name(spec) == name


def test_reading_the_metadata_never_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip runs setup.py for the metadata before the build's requirements are there: no
    extension, and no failure even where ``SPIELTISCH_NATIVE=1`` cannot be met."""
    native_core = _load("native_core")
    monkeypatch.setattr(native_core, "cargo", lambda: None)
    monkeypatch.setenv("SPIELTISCH_NATIVE", "1")
    for command in ("egg_info", "dist_info", "sdist"):
        assert native_core.extensions(["setup.py", command]) == []


def _source_copy(tmp_path: Path) -> Path:
    """What pip builds from (the sdist's files), in a folder of its own: a build writes
    ``build/`` and ``*.egg-info`` where it runs."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(BUILDTOOLS, tree / "buildtools", ignore=shutil.ignore_patterns("__pycache__"))
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    shutil.copytree(ROOT / "spieltisch", tree / "spieltisch", ignore=ignore)
    return tree


def _pip_wheel(
    tree: Path, tmp_path: Path, more: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``pip wheel`` of ``tree``, no isolation, no downloads; ``more``: further environment
    (the native core is not built unless it says so)."""
    env = {**os.environ, "SPIELTISCH_NATIVE": "0", **(more or {})}
    command = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
    command += ["--no-index", "-w", str(tmp_path / "wheels"), str(tree)]
    return subprocess.run(
        command, check=False, env=env, capture_output=True, text=True, timeout=600
    )


def test_pip_install_without_rust_says_so_and_installs_pure_python(tmp_path: Path) -> None:
    """The README's install on a machine without Rust: the native core's crate is there, cargo
    is not (hidden from the path and from home); the wheel is pure Python and the build says
    why. With ``SPIELTISCH_NATIVE=1`` the same install fails with the reason."""
    tree = _source_copy(tmp_path)
    shutil.copytree(ROOT / "native" / "src", tree / "native" / "src")
    shutil.copy(ROOT / "native" / "Cargo.toml", tree / "native" / "Cargo.toml")
    path = os.pathsep.join(
        d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "cargo").exists()
    )
    no_rust = {"PATH": path, "HOME": str(tmp_path)}
    built = _pip_wheel(tree, tmp_path, {**no_rust, "SPIELTISCH_NATIVE": "auto"})
    assert built.returncode == 0, built.stdout + built.stderr
    assert "filename=spieltisch-0.1.0-py3-none-any.whl" in built.stdout
    asked = _pip_wheel(tree, tmp_path, {**no_rust, "SPIELTISCH_NATIVE": "1"})
    assert asked.returncode != 0
    assert "no Rust toolchain (cargo) is installed" in asked.stdout + asked.stderr


def test_no_extension_module_shadows_a_source_file() -> None:
    """Python imports an extension before a ``.py`` of the same name: a leftover of the removed
    mypyc build (``spieltisch/core/game.cpython-311-...so`` beside ``game.py``) would run old
    rules in place of the sources. The native core is the one extension, and has no source."""
    shadows = []
    for path in (ROOT / "spieltisch").rglob("*.so"):
        stem = path.name.split(".", 1)[0]
        if (path.parent / f"{stem}.py").exists():
            shadows.append(path.relative_to(ROOT).as_posix())
    assert not shadows, f"delete these leftovers of a compiled build: {shadows}"
