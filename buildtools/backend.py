"""The build backend: setuptools', plus mypy (for mypyc) and numpy when the compiled build is
asked for, and setuptools-rust when the native core is built (a Rust toolchain is present).

``SPIELTISCH_COMPILE=1`` (or ``auto``) ``pip install .`` builds with mypyc (see ``setup.py``
and ``compiling.py``); the versions of mypy and numpy it builds with are the ones the ``dev``
extra of ``pyproject.toml`` names, so the build's requirements come from the project's own
files. Without either this is setuptools as is.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import compiling  # buildtools/compiling.py: pip puts this folder on the path (backend-path)
import native_core  # buildtools/native_core.py
from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook not defined here

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


COMPILE_REQUIRES = {"mypy", "numpy"}
"""mypy for mypyc; numpy, which the RL encoders it compiles are type-checked against."""


def compile_requires() -> list[str]:
    """:data:`COMPILE_REQUIRES` as the dev extra pins them, when the compiled build is asked
    for, and setuptools-rust when the native core is built; else nothing."""
    names = set()
    if compiling.mode() != compiling.OFF:
        names |= COMPILE_REQUIRES
    if native_core.mode() != compiling.OFF and native_core.cargo() is not None:
        names |= native_core.BUILD_REQUIRES
    dev = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["dev"]
    return [spec for spec in dev if _name(spec) in names]


def _name(spec: str) -> str:
    """The project name of a requirement such as ``numpy>=1.26,<3``."""
    return re.split(r"[;<>=!~\[ ]", spec, maxsplit=1)[0]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *compile_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *compile_requires()]
