"""Whether this installation carries the native core, and the extension module itself.

The native core is the Rust crate in ``native/``, built at install time into the extension
module ``spieltisch._native`` where a Rust toolchain is present (``SPIELTISCH_NATIVE``, see
the README). :func:`extension` imports it, or raises :class:`~spieltisch.core.errors.NativeError`
saying how to get it; :func:`status` says in one line which it is, for ``spieltisch --version``
and the lobby's footer.

For work on the native core, ``SPIELTISCH_NATIVE_LIB`` may name a freshly built library file
(``native/target/.../lib_native.so``) to load instead of the installed one.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from types import ModuleType

from spieltisch.core.errors import NativeError

LIBRARY_VARIABLE = "SPIELTISCH_NATIVE_LIB"
"""Names a built library file to load as ``spieltisch._native`` (for work on the crate)."""
MODULE = "spieltisch._native"

MISSING = (
    "the native core is not built in this installation: install Rust (https://rustup.rs) and "
    "reinstall spieltisch (README, 'The native core'); the Python engine serves meanwhile"
)


@functools.cache
def _load() -> ModuleType | None:
    path = os.environ.get(LIBRARY_VARIABLE)
    if path:
        spec = importlib.util.spec_from_file_location(MODULE, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = module
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(MODULE)
    except ImportError:
        return None


def available() -> bool:
    """Whether the native core is installed (and loads)."""
    return _load() is not None


def extension() -> ModuleType:
    """The extension module; :class:`NativeError` saying how to get it when it is missing."""
    module = _load()
    if module is None:
        raise NativeError(MISSING)
    return module


def games() -> tuple[str, ...]:
    """The ids of the games the installed native core plays (empty without one)."""
    module = _load()
    return () if module is None else tuple(module.GAMES)


def status() -> str:
    """One line: the native core's version and games, or that it is not built."""
    module = _load()
    if module is None:
        return "native core not built (pure Python engine)"
    return f"native core {module.VERSION} (Rust: {', '.join(module.GAMES)})"
