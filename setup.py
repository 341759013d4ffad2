"""The opt-in compiled build: ``SPIELTISCH_COMPILE=1 pip install .`` compiles the hot modules.

Without ``SPIELTISCH_COMPILE=1`` this installs pure Python, as before. With it, mypyc (from
mypy, which the build backend in ``buildtools/`` adds to the build's requirements with numpy)
compiles the rules core, the four games, the search agent, the table session and the RL
observation encoders to C extensions next to their ``.py`` files; Python imports an extension
before a source file of the same name. Without a C compiler, or when mypyc or the C compiler
fails, the build says so and installs pure Python.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILE_FLAG = "SPIELTISCH_COMPILE"
HERE = Path(__file__).resolve().parent

COMPILED = ["spieltisch/core", "spieltisch/games", "spieltisch/session", "spieltisch/rl/encode"]
"""Packages compiled whole, less the files in :data:`LEFT_OUT` and the package inits."""
NEEDS_NUMPY = {"spieltisch/rl/encode"}
"""Packages mypyc can only type-check with numpy at hand (the build backend asks for it)."""
COMPILED_FILES = ["spieltisch/agents/ismcts.py"]
LEFT_OUT = {"spieltisch/core/errors.py", "spieltisch/core/kit.py"}
"""Left interpreted: the exceptions (a compiled class takes one built-in base) and the kits
(generic slotted dataclasses, which mypyc cannot build)."""
LEFT_OUT_NAMES = {"__init__.py", "words.py"}
"""Package inits and the games' words (plain text for people: nothing hot)."""


def say(message: str) -> None:
    print(f"spieltisch build: {message}", file=sys.stderr, flush=True)


def compiled_paths() -> list[str]:
    """The source files mypyc compiles, relative to this directory, in a stable order."""
    paths = set(COMPILED_FILES)
    numpy = importlib.util.find_spec("numpy") is not None
    for package in COMPILED:
        if package in NEEDS_NUMPY and not numpy:
            say(f"numpy is not installed: {package} stays interpreted")
            continue
        for path in (HERE / package).rglob("*.py"):
            relative = path.relative_to(HERE).as_posix()
            if path.name not in LEFT_OUT_NAMES and relative not in LEFT_OUT:
                paths.add(relative)
    return sorted(paths)


def have_compiler() -> bool:
    """Whether the C compiler Python was built with (or ``$CC``) is on the path."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0]) is not None


def extensions() -> list[Any]:
    """mypyc's extension modules, or none: pure Python unless asked for and possible."""
    if os.environ.get(COMPILE_FLAG, "") not in {"1", "true", "yes"}:
        return []
    if not have_compiler():
        say("no C compiler found: installing pure Python")
        return []
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - lazy: only the compiled build needs it
    except ImportError:
        say("mypyc is not installed (it comes with mypy): installing pure Python")
        return []
    paths = compiled_paths()
    say(f"compiling {len(paths)} modules with mypyc")
    os.chdir(HERE)  # mypycify takes paths relative to the project
    try:
        level = os.environ.get("MYPYC_OPT_LEVEL", "3")  # 0 builds fastest, to try a change
        # The shared library sits in the package (not beside it), so an editable install finds it.
        # mypyc reads core.fast's compiled branch (value as the dataclass it makes native).
        options = ["--config-file=", "--always-true", "COMPILED_BUILD"]  # not always false
        return list(
            mypycify(
                [*options, *paths], opt_level=level, debug_level="0", group_name="spieltisch.native"
            )
        )
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        say(f"mypyc failed ({error!r}): installing pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Builds the extensions if it can; if the C compiler fails, removes what it built and
    leaves the pure Python modules, which are installed either way."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            say(f"compiling the C extensions failed ({error}): installing pure Python")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
