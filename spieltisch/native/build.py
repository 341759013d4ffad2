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
def _load() -> tuple[ModuleType | None, str]:
    """The extension module, or None and why it is missing."""
    path = os.environ.get(LIBRARY_VARIABLE)
    if path:
        return _load_file(path), ""
    try:
        return importlib.import_module(MODULE), ""
    except ModuleNotFoundError as missing:
        if missing.name != MODULE:
            raise
        return None, MISSING
    except ImportError as broken:  # there, but it does not load: say so, not "not built"
        return None, f"the native core is installed but does not load ({broken}): reinstall"


def _load_file(path: str) -> ModuleType:
    """The library file ``path`` loaded as the extension; :class:`ImportError` if it is no
    loadable extension (a wrong path must not fall back in silence)."""
    spec = importlib.util.spec_from_file_location(MODULE, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{LIBRARY_VARIABLE}={path} is not an extension module file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[MODULE]
        raise
    return module


def available() -> bool:
    """Whether the native core is installed (and loads)."""
    module, _ = _load()
    return module is not None


def extension() -> ModuleType:
    """The extension module; :class:`NativeError` saying how to get it when it is missing
    (or what is wrong with it, when it is there and does not load)."""
    module, reason = _load()
    if module is None:
        raise NativeError(reason)
    return module


def games() -> tuple[str, ...]:
    """The ids of the games the installed native core plays (empty without one)."""
    module, _ = _load()
    return () if module is None else tuple(module.GAMES)


def status() -> str:
    """One line: the native core's version and games, or that it is not built (or does not
    load)."""
    module, reason = _load()
    if module is None:
        built = reason == MISSING
        return "native core not built (pure Python engine)" if built else reason
    return f"native core {module.VERSION} (Rust: {', '.join(module.GAMES)})"
