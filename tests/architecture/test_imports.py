"""The import contracts (layers, forbidden libraries, independence, no circles) hold.

The contracts are declared in pyproject.toml and checked by import-linter; this test runs
the same check, so a broken arrow fails the suite as well as CI's ``lint-imports`` step.
"""

from __future__ import annotations

import ast
import subprocess
import sys
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
