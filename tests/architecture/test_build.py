"""The compiled build: its requirements come from pyproject's own pins (buildtools/backend.py),
and a compile that cannot be done fails the install with the reason unless the user asked for
``SPIELTISCH_COMPILE=auto`` (buildtools/compiling.py, setup.py). The native core: built where
cargo is found, with setuptools-rust as pinned; without cargo the install says so and goes on
in pure Python, unless ``SPIELTISCH_NATIVE=1`` asked for it (buildtools/native_core.py)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILDTOOLS = ROOT / "buildtools"


def _load(name: str) -> ModuleType:
    """A module of ``buildtools/`` (which pip puts on the build's path), loaded by path."""
    if str(BUILDTOOLS) not in sys.path:
        sys.path.append(str(BUILDTOOLS))  # backend.py imports compiling.py beside it
    spec = importlib.util.spec_from_file_location(
        f"spieltisch_build_{name}", BUILDTOOLS / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("flag", ["1", "auto"])
def test_compiled_build_asks_for_mypy_and_numpy_as_pinned(
    monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    backend = _load("backend")
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "dev"
    ]
    pins = {spec.split(">")[0]: spec for spec in dev}
    monkeypatch.setenv("SPIELTISCH_COMPILE", flag)
    monkeypatch.setenv("SPIELTISCH_NATIVE", "0")
    assert sorted(backend.compile_requires()) == sorted([pins["mypy"], pins["numpy"]])


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
    monkeypatch.delenv("SPIELTISCH_COMPILE", raising=False)
    if flag is None:
        monkeypatch.delenv("SPIELTISCH_NATIVE", raising=False)
    else:
        monkeypatch.setenv("SPIELTISCH_NATIVE", flag)
    monkeypatch.setattr(native_core, "cargo", lambda: "/opt/rust/bin/cargo")
    assert backend.compile_requires() == [pin]
    monkeypatch.setattr(native_core, "cargo", lambda: None)
    assert backend.compile_requires() == []


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


@pytest.mark.parametrize("flag", [None, "", "0"])
def test_pure_build_asks_for_nothing_more(
    monkeypatch: pytest.MonkeyPatch, flag: str | None
) -> None:
    backend = _load("backend")
    monkeypatch.setenv("SPIELTISCH_NATIVE", "0")
    if flag is None:
        monkeypatch.delenv("SPIELTISCH_COMPILE", raising=False)
    else:
        monkeypatch.setenv("SPIELTISCH_COMPILE", flag)
    assert backend.compile_requires() == []


@pytest.mark.parametrize(
    ("spec", "name"),
    [("numpy>=1.26,<3", "numpy"), ("mypy>=1.10,<2.5", "mypy"), ("rich[jupyter]==13", "rich")],
)
def test_requirement_names(spec: str, name: str) -> None:
    assert _load("backend")._name(spec) == name


def test_an_unknown_setting_stops_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    compiling = _load("compiling")
    monkeypatch.setenv("SPIELTISCH_COMPILE", "maybe")
    with pytest.raises(SystemExit, match="not understood"):
        compiling.extensions(["setup.py", "bdist_wheel"])


def test_reading_the_metadata_never_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip runs setup.py for the metadata before the build's requirements are there."""
    compiling = _load("compiling")
    monkeypatch.setenv("SPIELTISCH_COMPILE", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # as if mypy were not installed
    for command in ("egg_info", "dist_info", "sdist"):
        assert compiling.extensions(["setup.py", command]) == []


def test_without_mypyc_the_build_stops_unless_auto(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    compiling = _load("compiling")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # an import of it raises ImportError
    monkeypatch.setenv("SPIELTISCH_COMPILE", "1")
    with pytest.raises(SystemExit, match=r"(?s)mypyc is not installed.*SPIELTISCH_COMPILE=auto"):
        compiling.extensions(["setup.py", "bdist_wheel"])
    monkeypatch.setenv("SPIELTISCH_COMPILE", "auto")
    assert compiling.extensions(["setup.py", "bdist_wheel"]) == []
    assert "mypyc is not installed" in capsys.readouterr().err


def test_the_compiled_modules_are_the_packages_less_what_is_left_out() -> None:
    compiling = _load("compiling")
    modules = [compiling.module_name(p) for p in compiling.compiled_paths(numpy=True)]
    assert "spieltisch.core.game" in modules
    assert "spieltisch.agents.ismcts" in modules
    assert "spieltisch.rl.encode.base" in modules
    assert "spieltisch.core.errors" not in modules
    assert not [m for m in modules if m.endswith(("__init__", ".words"))]
    without_numpy = compiling.compiled_paths(numpy=False)
    assert not [p for p in without_numpy if p.startswith("spieltisch/rl/")]


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
    tree: Path, tmp_path: Path, flag: str, more: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``pip wheel`` of ``tree`` with ``SPIELTISCH_COMPILE=flag``, mypyc hidden from it (a
    package of that name on the path that refuses to import), no isolation, no downloads;
    ``more``: further environment (the native core is not built unless it says so)."""
    hide = tmp_path / "hide"
    (hide / "mypyc").mkdir(parents=True, exist_ok=True)
    (hide / "mypyc" / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    env = {**os.environ, "SPIELTISCH_COMPILE": flag, "PYTHONPATH": str(hide)}
    env.update({"SPIELTISCH_NATIVE": "0", **(more or {})})
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
    no_rust = {"PATH": path, "HOME": str(tmp_path), "SPIELTISCH_COMPILE": "0"}
    built = _pip_wheel(tree, tmp_path, "0", {**no_rust, "SPIELTISCH_NATIVE": "auto"})
    assert built.returncode == 0, built.stdout + built.stderr
    assert "filename=spieltisch-0.1.0-py3-none-any.whl" in built.stdout
    asked = _pip_wheel(tree, tmp_path, "0", {**no_rust, "SPIELTISCH_NATIVE": "1"})
    assert asked.returncode != 0
    assert "no Rust toolchain (cargo) is installed" in asked.stdout + asked.stderr


def test_pip_install_fails_loudly_without_mypyc_unless_auto(tmp_path: Path) -> None:
    """The README's install, with mypy missing: pip fails and prints the reason; under
    ``auto`` it builds a pure wheel, and its name (which pip prints) says so."""
    tree = _source_copy(tmp_path)
    asked = _pip_wheel(tree, tmp_path, "1")
    assert asked.returncode != 0
    output = asked.stdout + asked.stderr
    assert "spieltisch build: mypyc is not installed" in output
    assert "SPIELTISCH_COMPILE=auto" in output
    assert not list((tmp_path / "wheels").glob("*.whl"))
    fallback = _pip_wheel(tree, tmp_path, "auto")
    assert fallback.returncode == 0, fallback.stdout + fallback.stderr
    assert "filename=spieltisch-0.1.0-py3-none-any.whl" in fallback.stdout


SNIPPET = """
from __future__ import annotations

from dataclasses import field

from spieltisch.core.fast import HashOnce, LegalCache, hash_once, value
from spieltisch.core.game import option


@value
class Plain:
    a: int
    b: tuple[int, ...] = ()


@hash_once
@value
class Kept(HashOnce):
    dice: tuple[int, ...]


@value
class Derived:
    items: tuple[int, ...]
    total: int = field(init=False, repr=False, compare=False)
    bits: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.items))
        object.__setattr__(self, "bits", len(self.items))


@value(eq=False)
class Same:
    name: str


@value
class Cached(LegalCache):
    turn: int

    def work_out_legal(self) -> tuple[int, ...]:
        return (self.turn,)


@value
class Options:
    players: int
    fast: bool = option(False, "a default made by a call: left to value")
"""


def test_written_methods_behave_as_value_generates_them() -> None:
    """The ``__init__``, ``__eq__`` and ``__hash__`` the compiled build writes into value
    classes, run as Python here: the same values, equality and hash numbers as ``value``'s."""
    compiling = _load("compiling")
    written, count = compiling.with_written_inits(SNIPPET)
    assert count == 5  # all but Options
    assert written.count("def __init__") == 5
    assert "@hash_once" not in written  # mypyc would make a class under it interpreted
    old: dict[str, object] = {}
    new: dict[str, object] = {}
    exec(compile(SNIPPET, "<snippet>", "exec"), old)
    exec(compile(written, "<written>", "exec"), new)
    cases: list[tuple[str, tuple[object, ...]]] = [
        ("Plain", (1,)),
        ("Plain", (1, (2, 3))),
        ("Kept", ((0, 1, 2),)),
        ("Derived", ((4, 5),)),
        ("Cached", (3,)),
        ("Options", (2,)),
    ]
    for name, args in cases:
        a, b = old[name](*args), new[name](*args)  # type: ignore[operator]
        assert repr(a) == repr(b)
        assert hash(a) == hash(b)
        assert b == new[name](*args)  # type: ignore[operator]
        assert b != new["Plain"](9)  # type: ignore[operator]
        assert a.__getstate__() == b.__getstate__()
    derived = new["Derived"]((4, 5))  # type: ignore[operator]
    assert (derived.total, derived.bits) == (9, 2)
    assert new["Derived"]((4, 5)) == derived  # type: ignore[operator]
    assert new["Cached"](3).legal_actions() == (3,)  # type: ignore[operator]
    same = new["Same"]("x")  # type: ignore[operator]
    assert same != new["Same"]("x")  # type: ignore[operator]  # identity, as eq=False keeps
    kept = new["Kept"]((1, 2))  # type: ignore[operator]
    assert kept._hash == compiling.UNHASHED  # nothing worked out before it is asked for
    assert hash(kept) == hash(((1, 2),)) == kept._hash
    kept_class = new["Kept"]
    assert isinstance(kept_class, type)
    making: Any = kept_class  # a native HashOnce base (compiled build) refuses object.__new__
    copy = making.__new__(kept_class)  # as a pickle or a copy makes it: no __init__
    object.__setattr__(copy, "dice", (1, 2))
    assert hash(copy) == hash(kept) == copy._hash


def test_every_compiled_module_takes_its_written_methods() -> None:
    compiling = _load("compiling")
    total = 0
    for path in compiling.compiled_paths(numpy=True):
        written, count = compiling.with_written_inits((ROOT / path).read_text())
        compile(written, path, "exec")
        total += count
    assert total >= 65  # the states, their parts, the moves and the views


FINAL_SNIPPET = '''"""A module."""
from __future__ import annotations

import functools
from typing import TypeVar

T = TypeVar("T")
Counts = tuple[int, ...]
LIMIT = 3
_PLAY = "play"
TABLE: dict[str, int] = {
    "a": 1,
}
_cached = functools.cache(len)
moved = 1
moved = 2
ALIAS = int
RISK = (0.0, 1.0)
HALF = 0.5
SHARES = ((1, HALF),)
counter = 0
__all__ = ["LIMIT"]


def bump(size: ALIAS) -> Counts:
    global counter
    counter += 1
    return (LIMIT,)
'''


def test_module_constants_are_marked_final_and_nothing_else() -> None:
    """mypyc keeps a ``Final`` module-level name in a C static instead of looking it up by
    string at every use; only names bound once, named as constants are, and never used as a
    type are marked."""
    compiling = _load("compiling")
    written, count = compiling.with_final_constants(FINAL_SNIPPET)
    final = compiling.FINAL_ALIAS
    assert count == 5
    for name in ("LIMIT", "_PLAY", "_cached", "HALF"):
        assert f"\n{name}: {final} = " in written
    assert f"\nTABLE: {final}[dict[str, int]] = {{" in written
    for kept in ("T = TypeVar", "Counts = tuple", "moved = 1", "ALIAS = int", "counter = 0"):
        assert f"\n{kept}" in written  # a type, rebound, used as a type, or counted up
    for kept in ("RISK = (0.0", "SHARES = ((1, HALF"):
        assert f"\n{kept}" in written  # floats in a tuple: mypyc would read it as never set
    assert "__all__ = [" in written
    assert written.index(f"import Final as {final}") < written.index("T = TypeVar")
    assert written.index("from __future__") < written.index(f"import Final as {final}")
    namespace: dict[str, object] = {}
    exec(compile(written, "<written>", "exec"), namespace)
    assert namespace["TABLE"] == {"a": 1} and namespace["LIMIT"] == 3


def test_every_compiled_module_takes_its_final_constants() -> None:
    compiling = _load("compiling")
    total = 0
    for path in compiling.compiled_paths(numpy=True):
        written, _ = compiling.with_written_inits((ROOT / path).read_text())
        written, count = compiling.with_final_constants(written)
        compile(written, path, "exec")
        total += count
    assert total >= 300  # enum members the rules alias, tables, cached constructors
