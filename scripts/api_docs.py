"""Build the API reference from the docstrings with pdoc.

    python scripts/api_docs.py [--out docs/api/html]

Every module of the package is rendered (a package's ``__all__`` would hide its submodules
from pdoc's own walk, so the modules are listed here, the web's Alembic migrations left out),
docstrings read as reStructuredText (``:class:`` and ``:func:`` references become links).
A warning while importing or rendering fails the build (but for an annotation pdoc cannot
evaluate, shown as written), so CI (``.ci/run``) catches a module that no longer imports.
The output is not committed: ``docs/api.md`` says how to build and open it.
"""

from __future__ import annotations

import argparse
import os
import pkgutil
import warnings
from pathlib import Path

import pdoc.doc
import pdoc.render

import spieltisch

os.environ.setdefault("PDOC_ALLOW_EXEC", "1")  # matplotlib asks fc-list for fonts on import
os.environ.setdefault("MPLBACKEND", "Agg")

SKIPPED = ("spieltisch.web.store.migrations",)
"""Modules not rendered (and not imported): the database migrations run by Alembic."""


def modules() -> list[str]:
    """Every module of the package, in a stable order, less :data:`SKIPPED`."""
    names = ["spieltisch"]
    for info in pkgutil.walk_packages(spieltisch.__path__, "spieltisch."):
        if not info.name.startswith(SKIPPED) and not info.name.endswith("__main__"):
            names.append(info.name)
    return sorted(names)


def build(out: Path) -> int:
    """Render the reference into ``out`` (one page per module, an index and the search
    index, as ``pdoc.pdoc`` writes them); the number of modules rendered."""
    pdoc.render.configure(docformat="restructuredtext", search=True, show_source=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # An annotation pdoc cannot evaluate at run time (``array.array[float]`` on 3.11) is
        # shown as written; that is no reason to fail.
        warnings.filterwarnings("default", message="Error parsing type annotation")
        documented = {name: pdoc.doc.Module.from_name(name) for name in modules()}
        for name, module in documented.items():
            page = out / (name.replace(".", "/") + ".html")
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(pdoc.render.html_module(module, documented), encoding="utf-8")
        (out / "index.html").write_text(pdoc.render.html_index(documented), encoding="utf-8")
        (out / "search.js").write_text(pdoc.render.search_index(documented), encoding="utf-8")
    return len(documented)


def main() -> None:
    """Build, and say where."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/api/html"))
    args = parser.parse_args()
    count = build(args.out)
    print(f"API reference of {count} modules written to {args.out / 'index.html'}")


if __name__ == "__main__":
    main()
