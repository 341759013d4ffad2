"""The import contracts (layers, forbidden libraries, independence, no circles) hold.

The contracts are declared in pyproject.toml and checked by import-linter; this test runs
the same check, so a broken arrow fails the suite as well as CI's ``lint-imports`` step.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "spieltisch"


def test_the_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], capture_output=True, text=True, cwd=PACKAGE.parent, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:]
    assert "broken" in done.stdout and "0 broken" in done.stdout


def test_no_function_level_or_type_checking_import_of_spieltisch() -> None:
    """A layered package needs no import inside a function or under TYPE_CHECKING to break
    a circle: every import of spieltisch sits at the top of its module, except a lazy one
    that keeps a heavy library (matplotlib, later ray or a web framework) from loading when
    the command starts, which says so with ``lazy:`` on its line."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import) and id(node) not in top:
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += (
                    [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
                )
                lazy = "lazy:" in lines[node.lineno - 1]
                if any(name.startswith("spieltisch") for name in names) and not lazy:
                    offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not offenders, offenders


WEB_ROOMS = {"routes", "tables", "people", "cluster", "store", "common", "static"}
"""The web surface's rooms (docs/web.md, "Where the code lives"); the contracts in
pyproject.toml say which may import which."""


def test_every_module_of_the_web_surface_lives_in_a_room() -> None:
    """A new web module goes into the room of its concern, where the rooms' contracts reach
    it: beside the rooms stand only the package's face and ``python -m``'s entry point."""
    web = PACKAGE / "web"
    loose = sorted(p.name for p in web.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    folders = {p.name for p in web.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert not loose, f"modules outside the rooms: {loose}"
    assert folders == WEB_ROOMS, f"rooms not in docs/web.md: {sorted(folders - WEB_ROOMS)}"


def test_the_web_rooms_contract_names_every_room() -> None:
    """The rooms' layers contract lists every Python room, so none escapes it."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (rooms,) = [c for c in contracts if c.get("containers") == ["spieltisch.web"]]
    layered = {name.strip() for layer in rooms["layers"] for name in layer.split("|")}
    assert layered == WEB_ROOMS - {"static"}
