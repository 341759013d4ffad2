"""Building immutable values fast, for the hot paths of playouts and search.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``;
setting the same slots through their descriptors takes about half the time, and building
states is most of what a random playout does. :func:`builder` returns a function that builds
an instance of a slotted frozen dataclass from its fields in order that way; the value is an
ordinary instance, equal to, and hashing like, one built by calling the class. Every game
builds its states with one, and keeps the class's own constructor as the readable way to
build a value everywhere else.

:class:`LegalCache` is the one legal-action cache: a state class that lists its actions
through it works them out once per state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

SlotSetter = Callable[[Any, Any], None]

new_instance = object.__new__
"""An instance of a class with no field set yet (fill every slot before using it)."""


def slot_setters(cls: type, *names: str) -> tuple[SlotSetter, ...]:
    """The setters of the slots ``names`` of the slotted class ``cls`` (or a base), in order."""
    setters = []
    for name in names:
        for klass in cls.__mro__:
            if name in klass.__dict__:
                setters.append(klass.__dict__[name].__set__)
                break
        else:
            raise AttributeError(f"{cls.__name__} has no slot {name!r}")
    return tuple(setters)


def builder(cls: type[T], names: Sequence[str] | None = None) -> Callable[..., T]:
    """A function building a ``cls`` from the values of ``names`` (by default its init
    fields, in order) through slot setters, without ``__init__``: no defaults, no checks.

    The function is generated once with one setter call per field, as fast as writing the
    calls out by hand, so no game needs to.
    """
    if names is None:
        names = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    setters = slot_setters(cls, *names)
    params = ", ".join(f"v{i}" for i in range(len(setters)))
    lines = [f"def build({params}):", "    value = new(cls)"]
    lines += [f"    set{i}(value, v{i})" for i in range(len(setters))]
    lines.append("    return value")
    namespace: dict[str, Any] = {"new": new_instance, "cls": cls}
    namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
    exec("\n".join(lines), namespace)
    build: Callable[..., T] = namespace["build"]
    build.__doc__ = f"A {cls.__name__} built from its fields {', '.join(names)}, in order."
    return build


class LegalCache:
    """A base slot keeping a state's legal actions once worked out (not part of its value:
    it is no dataclass field, so equality, hashing and JSON ignore it).

    A state class deriving from this lists its actions with :meth:`cached_legal`; a state
    built anew (by its constructor, a :func:`builder` or from JSON) starts without them.
    """

    __slots__ = ("_legal",)
    _legal: tuple[Any, ...]

    def cached_legal(self, work_out: Callable[[Any], tuple[Any, ...]]) -> tuple[Any, ...]:
        """The legal actions, worked out by ``work_out(self)`` the first time only."""
        try:
            return self._legal
        except AttributeError:
            legal = work_out(self)
            _SET_LEGAL(self, legal)
            return legal

    def remember_legal(self, legal: tuple[Any, ...]) -> None:
        """Keep ``legal`` as this state's legal actions, when the caller knows them."""
        _SET_LEGAL(self, legal)


(_SET_LEGAL,) = slot_setters(LegalCache, "_legal")
