"""The opt-in compiled build: ``SPIELTISCH_COMPILE=1 pip install .`` compiles the hot modules.

Without ``SPIELTISCH_COMPILE`` this installs pure Python. With ``1``, mypyc (from mypy, which
the build backend in ``buildtools/`` adds to the build's requirements with numpy) compiles the
rules core, the four games, the search agent, the table session and the RL observation
encoders to C extensions next to their ``.py`` files (Python imports an extension before a
source file of the same name); if it cannot (no C compiler, a type error, a failing compiler)
the install fails with the reason. With ``auto`` it falls back to pure Python instead and says
so. What is compiled, and the rest of the rules: ``buildtools/compiling.py``.

Independently, where a Rust toolchain is present, the native core (the crate in ``native/``)
is built into ``spieltisch._native`` (``SPIELTISCH_NATIVE``: ``buildtools/native_core.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent / "buildtools"))  # run as setup.py too
import compiling

import native_core


class CompiledBuildExt(build_ext):
    """Builds the extensions; if the C compiler fails, stops the build with the reason, or
    under ``auto`` removes what it built and leaves the pure Python modules."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []
            compiling.fail(compiling.mode(), f"compiling the C extensions failed ({error})")


setup(
    ext_modules=compiling.extensions(sys.argv),
    rust_extensions=native_core.extensions(sys.argv),
    cmdclass={"build_ext": CompiledBuildExt},
)
