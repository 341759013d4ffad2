"""Views as plain text, for the RL adapters' renderings and observation strings.

:func:`plain` turns a view into nested dicts and lists of plain values (cards, dice and moves
by their notation, enums by their value); :func:`lines` lays that out as indented
``key: value`` lines; :func:`compact` gives one canonical line (for OpenSpiel's strings);
:func:`show` prints a rendering in the terminal (the environments' ``human`` render mode).
"""

from __future__ import annotations

import dataclasses
import enum
import json

from rich.console import Console
from rich.panel import Panel


def plain(value: object) -> object:
    """``value`` as plain data: values with notation of their own (a card, dice, a move) by
    their ``str``, enums by their value, records field by field, sets sorted."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if "__str__" in type(value).__dict__:
            return str(value)
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return [plain(item) for item in sorted(value, key=str)]
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    return value


def compact(value: object) -> str:
    """``value`` as one canonical line of JSON."""
    return json.dumps(plain(value), separators=(",", ":"), ensure_ascii=False, default=str)


def lines(data: object, indent: str = "") -> list[str]:
    """Plain data (see :func:`plain`) as indented ``key: value`` lines."""
    out: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if _nested(value):
                out.append(f"{indent}{key}:")
                out.extend(lines(value, indent + "  "))
            else:
                out.append(f"{indent}{key}: {_flat(value)}")
    elif isinstance(data, list):
        for item in data:
            if _nested(item):
                out.append(f"{indent}-")
                out.extend(lines(item, indent + "  "))
            else:
                out.append(f"{indent}- {_flat(item)}")
    else:
        out.append(f"{indent}{_flat(data)}")
    return out


def _nested(value: object) -> bool:
    """Whether ``value`` holds a record anywhere (then it takes lines of its own)."""
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(_nested(item) for item in value)


def _flat(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join(_flat(item) for item in value) + "]"
    if value is None:
        return "-"
    return str(value)


def show(text: str, title: str = "") -> None:
    """Print a rendering to the terminal (the ``human`` render mode): in a rich panel, the
    text as it is (no markup read from it)."""
    Console(highlight=False).print(Panel(text, title=title or None, expand=False), markup=False)
