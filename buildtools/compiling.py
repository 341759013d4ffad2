"""What the opt-in compiled build compiles, and whether it may fall back to pure Python.

``SPIELTISCH_COMPILE`` says what the user asked for (:func:`mode`):

- unset, empty, ``0``, ``no``, ``false``: pure Python, nothing compiled;
- ``1``, ``yes``, ``true``: compiled, or no install at all. Without a C compiler or mypyc, or
  when mypyc or the C compiler fails, the build stops with the reason (pip prints it);
- ``auto``: compiled if it can be, else pure Python; the fallback is said on the terminal pip
  runs in (pip shows a build's own output only with ``-v`` or when it fails) and in the wheel's
  name, which pip prints (``py3-none-any``, not ``cp311-...``).

``setup.py`` reads this module (as do the build backend, CI's check of an installed build and
the tests), so the list of compiled modules is written once: :func:`compiled_paths`.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path

COMPILE_FLAG = "SPIELTISCH_COMPILE"
ROOT = Path(__file__).resolve().parent.parent

OFF, ON, AUTO = "off", "on", "auto"
_MODES = {"": OFF, "0": OFF, "no": OFF, "false": OFF, "1": ON, "yes": ON, "true": ON}

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
GROUP = "spieltisch.native"
"""The shared library holding every compiled module's code (``spieltisch/native__mypyc...``);
each module keeps a small extension of its own beside its ``.py`` file."""

BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""setup.py commands that build extensions; the rest (``egg_info``, ``dist_info``, ``sdist``:
what pip runs to read the metadata) never compile."""


class CompileError(Exception):
    """Compiling was asked for and cannot be done; the message says why."""


def mode() -> str:
    """What ``SPIELTISCH_COMPILE`` asks for: :data:`OFF`, :data:`ON` or :data:`AUTO`."""
    raw = os.environ.get(COMPILE_FLAG, "").strip().lower()
    if raw == AUTO:
        return AUTO
    if raw not in _MODES:
        raise CompileError(
            f"{COMPILE_FLAG}={raw!r} is not understood: use 1 (compile, or fail), auto "
            "(compile if possible, else pure Python) or leave it unset (pure Python)"
        )
    return _MODES[raw]


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


def compiled_paths(numpy: bool | None = None) -> list[str]:
    """The source files mypyc compiles, relative to the project, in a stable order
    (``numpy``: whether numpy is at hand, by default whether it can be imported)."""
    if numpy is None:
        numpy = importlib.util.find_spec("numpy") is not None
    paths = set(COMPILED_FILES)
    for package in COMPILED:
        if package in NEEDS_NUMPY and not numpy:
            continue
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if path.name not in LEFT_OUT_NAMES and relative not in LEFT_OUT:
                paths.add(relative)
    return sorted(paths)


def module_name(path: str) -> str:
    """``spieltisch/core/game.py`` -> ``spieltisch.core.game``."""
    return path.removesuffix(".py").replace("/", ".")


def have_compiler() -> bool:
    """Whether the C compiler Python was built with (or ``$CC``) is on the path."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0]) is not None


def building(argv: list[str]) -> bool:
    """Whether the setup.py command line ``argv`` builds extensions."""
    return any(arg in BUILD_COMMANDS for arg in argv[1:])


def mypyc_extensions() -> list[object]:
    """mypyc's extension modules for :func:`compiled_paths`; :class:`CompileError` with the
    reason if mypyc or a compiler is missing or mypyc fails (a type error, say)."""
    if not have_compiler():
        raise CompileError("no C compiler found (install gcc, or set CC)")
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - lazy: only this build needs it
    except ImportError as error:
        raise CompileError(f"mypyc is not installed (it comes with mypy): {error}") from None
    numpy = importlib.util.find_spec("numpy") is not None
    if not numpy:
        say("numpy is not installed: the RL encoders stay interpreted")
    paths = compiled_paths(numpy)
    say(f"compiling {len(paths)} modules with mypyc")
    level = os.environ.get("MYPYC_OPT_LEVEL", "3")  # 0 builds fastest, to try a change
    options = [
        "--config-file=",  # not pyproject's: it reads COMPILED_BUILD as always false
        "--always-true",
        "COMPILED_BUILD",  # mypyc reads core.fast's compiled branch (value as a dataclass)
        # Modules that are not compiled are only read for their types: their own imports
        # (gymnasium, fastapi: extras the build need not have) are not the build's concern.
        "--follow-imports=silent",
    ]
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypycify takes paths relative to the project
    try:
        return list(
            mypycify([*options, *paths], opt_level=level, debug_level="0", group_name=GROUP)
        )
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        raise CompileError(f"mypyc failed ({error!r}); its messages are above") from None
    finally:
        os.chdir(cwd)


def extensions(argv: list[str]) -> list[object]:
    """The extension modules setup.py builds for the command line ``argv``: none unless asked
    for and building; :class:`SystemExit` with the reason when compiling was asked for
    (``1``) and cannot be done; none, said on the terminal, under ``auto``."""
    try:
        asked = mode()
    except CompileError as error:
        raise SystemExit(f"spieltisch build: {error}") from None
    if asked == OFF or not building(argv):
        return []
    try:
        return mypyc_extensions()
    except CompileError as error:
        fail(asked, str(error))
        return []


def fail(asked: str, reason: str) -> None:
    """Compiling failed for ``reason``: stop the build (asked for with ``1``) or fall back to
    pure Python and say so (``auto``)."""
    if asked == AUTO:
        say_on_terminal(f"{reason}: installing pure Python ({COMPILE_FLAG}=auto)")
        return
    raise SystemExit(
        f"spieltisch build: {reason}.\nThe compiled build was asked for ({COMPILE_FLAG}=1); "
        f"set {COMPILE_FLAG}=auto to fall back to pure Python instead, or leave it unset."
    )
