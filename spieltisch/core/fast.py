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

:class:`HashOnce` and :func:`hash_once` give a big value that search uses as a dictionary key
(a board of nested tuples and records) a hash worked out once per value: the same number the
dataclass's own ``__hash__`` gives, kept in a slot that equality, pickles, copies and JSON
never see.
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
    calls out by hand, so no game needs to. A state deriving from :class:`LegalCache` starts
    with its legal actions not yet worked out.
    """
    if names is None:
        names = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    setters = slot_setters(cls, *names)
    params = ", ".join(f"v{i}" for i in range(len(setters)))
    lines = [f"def build({params}):", "    value = new(cls)"]
    lines += [f"    set{i}(value, v{i})" for i in range(len(setters))]
    if issubclass(cls, LegalCache):
        lines.append("    set_legal(value, None)")
    lines.append("    return value")
    namespace: dict[str, Any] = {"new": new_instance, "cls": cls, "set_legal": remember_legal}
    namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
    exec("\n".join(lines), namespace)
    build: Callable[..., T] = namespace["build"]
    build.__doc__ = f"A {cls.__name__} built from its fields {', '.join(names)}, in order."
    return build


class LegalCache:
    """The one legal-action cache: a state class deriving from this (before ``State``, so
    that its :meth:`legal_actions` is the one found) works out its legal actions once, with
    its own :meth:`work_out_legal`, and keeps them in a slot that is no dataclass field (so
    equality, hashing and JSON ignore it). A transition that knows a new state's actions
    already hands them over with :func:`remember_legal`.
    """

    __slots__ = ("_legal",)
    _legal: tuple[Any, ...] | None

    def __post_init__(self) -> None:
        remember_legal(self, None)

    def work_out_legal(self) -> tuple[Any, ...]:
        """The legal actions, worked out from the state (called once per state)."""
        raise NotImplementedError

    def legal_actions(self) -> tuple[Any, ...]:
        """The legal actions, worked out the first time they are asked for."""
        try:
            legal = self._legal
        except AttributeError:  # a state rebuilt by pickle or copy, which skip the slot
            legal = None
        if legal is None:
            legal = self.work_out_legal()
            remember_legal(self, legal)
        return legal


class HashOnce:
    """A base giving a slotted frozen dataclass the slot in which :func:`hash_once` keeps its
    hash. The slot is no dataclass field, so equality, pickles (which a slotted dataclass
    writes from its fields) and JSON ignore it, and an unpickled or copied value works its
    hash out again when first asked."""

    __slots__ = ("_hash",)


H = TypeVar("H", bound=HashOnce)


def hash_once(cls: type[H]) -> type[H]:
    """Class decorator, above ``@dataclass(frozen=True, slots=True)`` on a :class:`HashOnce`
    class: its ``__hash__`` works out the dataclass's own hash (of the same fields, so the
    same number) the first time and then returns the kept one."""
    declared = dataclasses.fields(cls)  # type: ignore[arg-type]  # TypeError if no dataclass
    names = [f.name for f in declared if (f.compare if f.hash is None else f.hash)]
    values = "".join(f"self.{name}, " for name in names)
    lines = [
        "def __hash__(self):",
        "    try:",
        "        return self._hash",
        "    except AttributeError:",
        f"        value = hash(({values}))",
        "        keep(self, value)",
        "        return value",
    ]
    namespace: dict[str, Any] = {"keep": _keep_hash}
    exec("\n".join(lines), namespace)
    method = namespace["__hash__"]
    method.__qualname__ = f"{cls.__qualname__}.__hash__"
    method.__doc__ = "The dataclass's hash of the fields, worked out once and kept."
    type.__setattr__(cls, "__hash__", method)
    return cls


remember_legal: Callable[[Any, tuple[Any, ...] | None], None]
(remember_legal,) = slot_setters(LegalCache, "_legal")
"""Keep the legal actions of a state (``None``: not worked out yet) in its cache."""

_keep_hash: SlotSetter
(_keep_hash,) = slot_setters(HashOnce, "_hash")
