"""Turn frozen dataclass values into JSON-ready data and back again.

States, views and records of every game are frozen dataclasses built from ints, bools, strings,
enums, tuples, frozensets and nested dataclasses. :func:`to_jsonable` writes such a value as
plain JSON data; :func:`from_jsonable` rebuilds it from that data and the value's type hints, so
a game gets state serialisation without writing any code for it. Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeAlias, TypeVar

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
JSONObject: TypeAlias = "dict[str, JSON]"

T = TypeVar("T")

SKIP_FIELD = "codec_skip"
"""Field metadata key: a field marked ``{SKIP_FIELD: True}`` is left out of the JSON form."""


def to_jsonable(value: object) -> JSON:
    """Return ``value`` as JSON data (dicts, lists, strings, numbers, booleans, None).

    Enums become their value, tuples and lists become lists, frozensets become sorted lists,
    fractions become ``"p/q"`` strings and dataclasses become objects of their fields.
    """
    kind = type(value)
    if kind in _PLAIN or value is None:
        return value  # type: ignore[return-value]  # one of the plain JSON types
    writer = _WRITERS.get(kind)
    if writer is None:
        writer = _WRITERS[kind] = _writer(kind)
    return writer(value)


_PLAIN = frozenset({bool, int, float, str})

_Writer: TypeAlias = Callable[[Any], JSON]

_WRITERS: dict[type, _Writer] = {}
"""How each type met so far is written, decided once per type (a view is written on every
move, and its dataclasses' fields were looked up anew each time)."""


def _writer(kind: type) -> _Writer:
    """How to write a value of type ``kind``: what :func:`to_jsonable` says, in its order."""
    if issubclass(kind, bool | int | float | str):
        return _as_is  # a subclass such as an int enum is written as it is
    if issubclass(kind, enum.Enum):
        return _enum
    if issubclass(kind, Fraction):
        return str
    if issubclass(kind, tuple | list):
        return _sequence
    if issubclass(kind, frozenset | set):
        return _set
    if issubclass(kind, Mapping):
        return _mapping
    if dataclasses.is_dataclass(kind):
        names = tuple(
            field.name
            for field in dataclasses.fields(kind)
            if not field.metadata.get(SKIP_FIELD, False)
        )
        return functools.partial(_dataclass, names)
    return functools.partial(_unwritable, kind.__name__)


def _as_is(value: Any) -> JSON:
    return typing.cast(JSON, value)


def _enum(value: enum.Enum) -> JSON:
    return to_jsonable(value.value)


def _sequence(value: tuple[Any, ...] | list[Any]) -> JSON:
    return [to_jsonable(item) for item in value]


def _set(value: frozenset[Any] | set[Any]) -> JSON:
    return sorted((to_jsonable(item) for item in value), key=_sort_key)


def _mapping(value: Mapping[Any, Any]) -> JSON:
    return {str(key): to_jsonable(item) for key, item in value.items()}


def _dataclass(names: tuple[str, ...], value: object) -> JSON:
    return {name: to_jsonable(getattr(value, name)) for name in names}


def _unwritable(name: str, value: object) -> JSON:
    raise TypeError(f"cannot write {name} as JSON")


def _sort_key(item: JSON) -> str:
    return repr(item)


def from_jsonable(kind: type[T], data: JSON) -> T:
    """Rebuild a value of type ``kind`` from JSON data written by :func:`to_jsonable`.

    Raises :class:`ValueError` when the data does not fit the type.
    """
    return typing.cast(T, _decode(kind, data))


def _decode(kind: Any, data: JSON) -> Any:
    origin = typing.get_origin(kind)
    if origin is typing.Union or origin is types.UnionType:
        return _decode_union(typing.get_args(kind), data)
    if origin is tuple:
        return _decode_tuple(typing.get_args(kind), data)
    if origin is frozenset:
        (item,) = typing.get_args(kind)
        return frozenset(_decode(item, x) for x in _as_list(data))
    if origin is dict:
        _, item = typing.get_args(kind)
        return {str(k): _decode(item, v) for k, v in _as_dict(data).items()}
    if kind is type(None):
        if data is not None:
            raise ValueError(f"expected null, got {data!r}")
        return None
    if isinstance(kind, type):
        return _decode_class(kind, data)
    raise ValueError(f"cannot read type {kind!r}")


def _decode_union(options: tuple[Any, ...], data: JSON) -> Any:
    if data is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _decode(option, data)
        except (ValueError, TypeError) as error:
            errors.append(str(error))
    raise ValueError(f"{data!r} fits none of {options}: {'; '.join(errors)}")


def _decode_tuple(args: tuple[Any, ...], data: JSON) -> tuple[Any, ...]:
    items = _as_list(data)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(args[0], item) for item in items)
    if len(args) != len(items):
        raise ValueError(f"expected {len(args)} items, got {len(items)}")
    return tuple(_decode(arg, item) for arg, item in zip(args, items, strict=True))


def _decode_class(kind: type, data: JSON) -> Any:
    if issubclass(kind, enum.Enum):
        return kind(data)
    if kind is bool:
        if not isinstance(data, bool):
            raise ValueError(f"expected a boolean, got {data!r}")
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"expected an integer, got {data!r}")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise ValueError(f"expected a string, got {data!r}")
        return data
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"expected a number, got {data!r}")
        return float(data)
    if kind is Fraction:
        return Fraction(str(data))
    if dataclasses.is_dataclass(kind):
        return _decode_dataclass(kind, _as_dict(data))
    raise ValueError(f"cannot read type {kind.__name__}")


def _decode_dataclass(kind: type, data: dict[str, JSON]) -> Any:
    hints = _hints(kind)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        if field.metadata.get(SKIP_FIELD, False) or not field.init:
            continue
        if field.name not in data:
            raise ValueError(f"{kind.__name__}: missing field {field.name!r}")
        values[field.name] = _decode(hints[field.name], data[field.name])
    return kind(**values)


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _as_list(data: JSON) -> list[JSON]:
    if not isinstance(data, list):
        raise ValueError(f"expected a list, got {data!r}")
    return data


def _as_dict(data: JSON) -> dict[str, JSON]:
    if not isinstance(data, dict):
        raise ValueError(f"expected an object, got {data!r}")
    return data
