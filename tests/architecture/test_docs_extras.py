"""What the docs say an install adds is what pyproject's extras install (issue 27: the README
said ``spieltisch[rl]`` adds OpenSpiel environments, which only ``[openspiel]`` brings)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = {"PettingZoo": "pettingzoo", "Gymnasium": "gymnasium", "OpenSpiel": "open_spiel"}
"""Library names as the docs write them, and the distribution each extra must name."""
_INSTALL = re.compile(r'`pip install "spieltisch\[([a-z,]+)\]"` adds ([^.;(]*)')


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _distributions(extras: list[str]) -> set[str]:
    """The distributions ``extras`` install, nested extras followed."""
    table, found = _extras(), set()
    for extra in extras:
        for spec in table[extra]:
            name = re.split(r"[<>=\[ ]", spec, maxsplit=1)[0]
            if name == "spieltisch":
                found |= _distributions(spec.split("[")[1].rstrip("]").split(","))
            else:
                found.add(name.lower().replace("-", "_"))
    return found


@pytest.mark.parametrize("doc", ["README.md", "docs/rl/README.md"])
def test_every_install_line_installs_the_libraries_it_names(doc: str) -> None:
    text = " ".join((ROOT / doc).read_text().split())
    claims = _INSTALL.findall(text)
    assert claims or doc != "README.md", "the README names no research install"
    for extras, says in claims:
        installed = _distributions(extras.split(","))
        for library, distribution in LIBRARIES.items():
            if library in says:
                assert distribution in installed, f"{doc}: [{extras}] does not install {library}"


def test_the_check_catches_the_old_readme_line() -> None:
    extras, says = _INSTALL.findall(
        '`pip install "spieltisch[rl]"` adds PettingZoo, Gymnasium and OpenSpiel environments'
    )[0]
    assert "open_spiel" not in _distributions(extras.split(",")) and "OpenSpiel" in says
