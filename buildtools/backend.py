"""The build backend: setuptools', plus setuptools-rust when the native core is built (a Rust
toolchain is present and ``SPIELTISCH_NATIVE`` does not turn it off: see ``native_core.py``).

The version of setuptools-rust it builds with is the one the ``dev`` extra of
``pyproject.toml`` names, so the build's requirements come from the project's own files.
Without the native core this is setuptools as is.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import native_core  # buildtools/native_core.py: pip puts this folder on the path (backend-path)
from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook not defined here

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def build_requires() -> list[str]:
    """setuptools-rust as the dev extra pins it when the native core is built (not turned off,
    and ``cargo`` found); else nothing."""
    names = set()
    if native_core.mode() != native_core.OFF and native_core.cargo() is not None:
        names |= native_core.BUILD_REQUIRES
    dev = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["dev"]
    return [spec for spec in dev if _name(spec) in names]


def _name(spec: str) -> str:
    """The project name of a requirement such as ``numpy>=1.26,<3``."""
    return re.split(r"[;<>=!~\[ ]", spec, maxsplit=1)[0]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *build_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *build_requires()]
