"""Check an installed compiled build: every module the build compiles is there as a C
extension in its own package folder, and is the one Python imports.

    VENV/bin/python scripts/check_compiled.py [--in-place]

Run it with the interpreter of the environment to check, from anywhere but the project root
(so that the installed package is the one imported, not the source tree; ``--in-place``: the
build in the source tree, by an editable install, is the one to check). The modules expected
are the build's own list (``buildtools/compiling.py``). A module whose package needs an extra
that is not installed (the RL encoders under ``spieltisch.rl`` without ``[rl]``) is checked
by where its extension lies instead of by importing it. Exits non-zero with what is wrong.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUP_LIBRARY = "native__mypyc"
"""The build's shared library (``spieltisch/native__mypyc...``): the one extension that is no
module of the source."""


def _build_list() -> list[str]:
    """The modules the compiled build compiles (numpy is always in its build environment)."""
    spec = importlib.util.spec_from_file_location("compiling", ROOT / "buildtools/compiling.py")
    assert spec is not None and spec.loader is not None
    compiling = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compiling)
    names: list[str] = [compiling.module_name(p) for p in compiling.compiled_paths(numpy=True)]
    return names


NATIVE_CORE = "_native"
"""The native core's extension module, ``spieltisch._native`` (no ``.py`` beside it)."""


def _stray_extensions(package: Path) -> list[str]:
    """Extensions in the installed package that are neither a module's (beside its ``.py``)
    nor the build's shared library nor the native core (``spieltisch._native``, Rust):
    misplaced ones, such as a nested ``spieltisch/spieltisch``."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    stray = []
    for path in package.rglob("*"):
        stem = next((path.name[: -len(s)] for s in suffixes if path.name.endswith(s)), None)
        if stem is None:
            continue
        is_group = path.parent == package and stem.startswith((GROUP_LIBRARY, NATIVE_CORE))
        if not is_group and not (path.parent / f"{stem}.py").is_file():
            stray.append(str(path))
    return stray


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--in-place", action="store_true", help="the source tree's own build")
    in_place = parser.parse_args().in_place
    import spieltisch  # noqa: PLC0415 - only after the script knows where it runs

    problems = []
    package = Path(spieltisch.__file__).parent
    if (package == ROOT / "spieltisch") != in_place:
        problems.append(f"spieltisch was imported from {package}: not the build to check")
    expected = set(_build_list())
    installed = set(spieltisch.compiled_modules())
    problems += [f"{name}: not compiled (no extension beside its source)"
                 for name in sorted(expected - installed)]  # fmt: skip
    problems += [f"{name}: compiled, but not in the build's list"
                 for name in sorted(installed - expected)]  # fmt: skip
    problems += [f"extension outside its package folder: {path}"
                 for path in _stray_extensions(package)]  # fmt: skip
    imported = skipped = 0
    for name in sorted(expected & installed):
        try:
            module = importlib.import_module(name)
        except ImportError as error:  # an extra this environment does not have
            print(f"not imported (its extension lies beside its source): {name}: {error}")
            skipped += 1
            continue
        origin = module.__spec__.origin if module.__spec__ else None
        if not origin or not origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            problems.append(f"{name}: imported from {origin}, not from its extension")
        imported += 1
    about = spieltisch.about()
    if about["compiled"] is not True:
        problems.append(f"spieltisch.about() says {about['build']!r}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        raise SystemExit(1)
    print(
        f"compiled build checked: {len(expected)} modules compiled, {imported} imported from "
        f"their extensions, {skipped} left unimported; {about['build']}"
    )


if __name__ == "__main__":
    main()
