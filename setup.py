"""The native core: where a Rust toolchain is present, ``pip install .`` builds the crate in
``native/`` into ``spieltisch._native`` (``SPIELTISCH_NATIVE``: ``buildtools/native_core.py``);
everything else is pure Python, and without Rust that is all the install holds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "buildtools"))  # run as setup.py too
import native_core

setup(rust_extensions=native_core.extensions(sys.argv))
