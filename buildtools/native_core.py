"""Whether the install builds the native core (the Rust crate in ``native/``), and how.

``SPIELTISCH_NATIVE`` says what the user asked for (:func:`mode`):

- unset, empty or ``auto``: built where a Rust toolchain (``cargo``) is found, else pure
  Python, said on the terminal pip runs in and by ``spieltisch --version`` and the lobby;
  a failing Rust build is then a warning, and the install goes on in pure Python;
- ``1``, ``yes``, ``true``: built, or no install at all (no ``cargo``, or a failing build,
  stops the install with the reason);
- ``0``, ``no``, ``false``: not built.

The extension is ``spieltisch._native``, built by setuptools-rust (which the build backend
adds to the build's requirements, as the ``dev`` extra pins it) in release mode with the
crate's ``python`` feature.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

NATIVE_FLAG = "SPIELTISCH_NATIVE"
ROOT = Path(__file__).resolve().parent.parent
CRATE = ROOT / "native" / "Cargo.toml"
OFF, ON, AUTO = "off", "on", "auto"
_MODES = {"": AUTO, "auto": AUTO, "1": ON, "yes": ON, "true": ON, "0": OFF, "no": OFF}
_MODES["false"] = OFF
BUILD_REQUIRES = {"setuptools-rust"}
"""What building the native core needs beside setuptools (pinned by the dev extra)."""

BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""setup.py commands that build extensions; the rest (``egg_info``, ``dist_info``, ``sdist``:
what pip runs to read the metadata) never build the native core."""


class BuildError(Exception):
    """The native core was asked for and cannot be built; the message says why."""


def say(message: str) -> None:
    """Tell the person building: on standard error (pip shows it with ``-v`` or on failure)."""
    print(f"spieltisch build: {message}", file=sys.stderr, flush=True)


def say_on_terminal(message: str) -> None:
    """Tell the person building even where pip hides the build's output: on standard error
    and, where the build runs under a terminal, on that terminal."""
    say(message)
    try:
        with open("/dev/tty", "w", encoding="utf-8") as terminal:
            terminal.write(f"\nspieltisch build: {message}\n")
    except OSError:  # no terminal (CI, a service): the wheel's name says it
        pass


def building(argv: list[str]) -> bool:
    """Whether the setup.py command line ``argv`` builds extensions."""
    return any(arg in BUILD_COMMANDS for arg in argv[1:])


def mode() -> str:
    """What ``SPIELTISCH_NATIVE`` asks for: :data:`AUTO` (the default), :data:`ON`, :data:`OFF`."""
    raw = os.environ.get(NATIVE_FLAG, "").strip().lower()
    if raw not in _MODES:
        raise BuildError(
            f"{NATIVE_FLAG}={raw!r} is not understood: use 1 (build the native core, or "
            "fail), 0 (do not build it) or leave it unset (build it where Rust is installed)"
        )
    return _MODES[raw]


def cargo() -> str | None:
    """The Rust toolchain's ``cargo``: on the path, or where rustup puts it."""
    found = shutil.which("cargo")
    if found is None:
        candidate = Path.home() / ".cargo" / "bin" / "cargo"
        found = str(candidate) if candidate.is_file() else None
    return found


def wanted() -> bool:
    """Whether this install builds the native core; :class:`BuildError` when it must and
    cannot (``SPIELTISCH_NATIVE=1`` without a Rust toolchain)."""
    asked = mode()
    if asked == OFF:
        return False
    if not CRATE.is_file():
        if asked == ON:
            raise BuildError(f"{NATIVE_FLAG}=1 asks for the native core, but {CRATE} is missing")
        return False
    if cargo() is None:
        if asked == ON:
            raise BuildError(
                f"{NATIVE_FLAG}=1 asks for the native core, but no Rust toolchain (cargo) is "
                "installed: install it from https://rustup.rs or unset the variable"
            )
        say_on_terminal(
            "no Rust toolchain (cargo) found: installing without the native core (the pure "
            "Python engine serves; install Rust and reinstall to get it)"
        )
        return False
    return True


def extensions(argv: list[str]) -> list[Any]:
    """The native core's extension for setuptools-rust when setup.py's command line ``argv``
    builds, or none (see :func:`wanted`); :class:`SystemExit` with the reason when the native
    core was asked for and cannot be built."""
    try:
        if not building(argv) or not wanted():
            return []
    except BuildError as error:
        raise SystemExit(f"spieltisch build: {error}") from None
    from setuptools_rust import (  # noqa: PLC0415 - the build's requirement only when wanted
        Binding,
        RustExtension,
    )

    tool = cargo()
    if tool is not None and shutil.which("cargo") is None:  # rustup's, not on the path
        os.environ["PATH"] = f"{Path(tool).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    say_on_terminal("building the native core (Rust, release mode: a minute or two)")
    return [
        RustExtension(
            "spieltisch._native",
            path=str(CRATE.relative_to(ROOT)),
            binding=Binding.PyO3,
            features=["python"],
            debug=False,
            optional=mode() == AUTO,
        )
    ]
