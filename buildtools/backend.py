"""The build backend: setuptools', plus mypy (for mypyc) when the compiled build is asked for.

``SPIELTISCH_COMPILE=1 pip install .`` builds with mypyc (see ``setup.py``); the version of
mypy it builds with is the one the ``dev`` extra of ``pyproject.toml`` names, so the build's
requirements come from the project's own files. Without the variable this is setuptools as is.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook not defined here

COMPILE_FLAG = "SPIELTISCH_COMPILE"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def compile_requires() -> list[str]:
    """mypy as the dev extra pins it, when the compiled build is asked for; else nothing."""
    if os.environ.get(COMPILE_FLAG, "") not in {"1", "true", "yes"}:
        return []
    dev = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["dev"]
    return [spec for spec in dev if spec.split(">")[0].split("=")[0].strip() == "mypy"]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *compile_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *compile_requires()]
