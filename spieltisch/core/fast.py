"""Building immutable values fast, for the hot paths of playouts and search.

:func:`value` is the one way the games declare the values built on every move (states and
their parts, views, actions): a class decorator that mypy reads as a frozen dataclass (every
field read-only, any assignment an error under ``mypy --strict``), which at run time makes a
slotted dataclass whose generated ``__init__`` sets each field with a plain attribute store.
A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` instead and costs three
to four times as much, and building states is most of what a random playout does. Equality,
hashing (the same numbers), ``repr``, ``dataclasses.fields/replace/asdict``, the codec, copies
and pickles (fields only, in the same form as a frozen dataclass's) are those of the frozen
dataclass it replaces. Immutability is kept by the type checker: nothing assigns to a
value's fields once it is built (derived fields are set in its ``__post_init__`` or handed
to a :func:`builder`, caches outside the fields through :func:`slot_setters`).

:func:`builder` returns a function that builds an instance from its fields in order without
``__init__`` (and without ``__post_init__``), for a caller that already has a derived field
at hand; for a :func:`value` class given its init fields it is the class itself.

:class:`LegalCache` is the one legal-action cache: a state class that lists its actions
through it works them out once per state.

:class:`KeyEnum` is the enum the games key their tables by: its members hash in C, by identity,
where :class:`enum.Enum`'s hash is a Python function (of the member's name) run at every
dictionary or set lookup.

:class:`HashOnce` and :func:`hash_once` give a big value that search uses as a dictionary key
(a board of nested tuples and records) a hash worked out once per value: the same number the
dataclass's own ``__hash__`` gives, kept in a slot that equality, pickles, copies and JSON
never see.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, dataclass_transform, overload

from spieltisch.core.game import State

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
    fields, in order) without ``__init__``: no defaults, no checks, no ``__post_init__``.

    The function is generated once with one store per field (a plain attribute store for a
    :func:`value` class, a slot setter for a frozen dataclass), as fast as writing the
    stores out by hand, so no game needs to. A state deriving from :class:`LegalCache` starts
    with its legal actions not yet worked out. For a :func:`value` class whose ``__init__``
    is :func:`value`'s own, with no ``__post_init__`` of its own, and ``names`` its init
    fields, the class is as fast and is what is returned.
    """
    init_names = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    if names is None:
        names = init_names
    plain = cls.__dict__.get(_PLAIN_INIT, False)
    post = getattr(cls, "__post_init__", None)
    if plain and list(names) == init_names and post in (None, LegalCache.__post_init__):
        return cls
    setters = slot_setters(cls, *names)
    params = ", ".join(f"v{i}" for i in range(len(setters)))
    lines = [f"def build({params}):", "    value = new(cls)"]
    frozen: bool = cls.__dict__["__dataclass_params__"].frozen
    if plain or not frozen:
        lines += [f"    value.{name} = v{i}" for i, name in enumerate(names)]
    else:
        lines += [f"    set{i}(value, v{i})" for i in range(len(setters))]
    if issubclass(cls, LegalCache):
        lines.append("    set_legal(value, None)")
    lines.append("    return value")
    namespace: dict[str, Any] = {"new": cls.__new__, "cls": cls, "set_legal": remember_legal}
    namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
    exec("\n".join(lines), namespace)
    build: Callable[..., T] = namespace["build"]
    build.__doc__ = f"A {cls.__name__} built from its fields {', '.join(names)}, in order."
    return build


_PLAIN_INIT = "__value_plain_init__"
"""Set on a :func:`value` class whose ``__init__`` is :func:`value`'s own plain one."""


@overload
def value(cls: type[T], /) -> type[T]: ...


@overload
def value(*, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def value(
    cls: type[T] | None = None, /, *, eq: bool = True
) -> type[T] | Callable[[type[T]], type[T]]:
    """Class decorator for an immutable value: to mypy a frozen dataclass, at run time a
    slotted dataclass with a plain ``__init__`` (see the module docstring).

    ``eq=False`` keeps the class's own equality and hash (identity, or its own methods), as
    for ``dataclass(frozen=True, eq=False)``. With ``eq`` the hash is the dataclass's hash of
    the compared fields unless the class defines ``__hash__`` itself (:func:`hash_once`, above
    ``value``, replaces it afterwards). A class whose fields all take plain positional values
    (no ``default_factory``, ``init=False`` or keyword-only fields) gets an ``__init__`` that
    stores them and then calls ``__post_init__`` if it has one; a :class:`LegalCache` state's
    is inlined as an empty cache.
    """

    def wrap(klass: type[T]) -> type[T]:
        return _make_value(klass, eq)

    return wrap if cls is None else wrap(cls)


def _make_value(klass: type[T], eq: bool) -> type[T]:
    own = set(klass.__dict__)  # before ``dataclass`` adds its methods to ``klass``
    explicit_hash = "__hash__" in own and not (
        klass.__dict__["__hash__"] is None and "__eq__" in own
    )
    made = dataclasses.dataclass(klass, slots=True, eq=eq, unsafe_hash=eq and not explicit_hash)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    names = [f.name for f in fields]
    if "__getstate__" not in own:
        _generate(
            made,
            "__getstate__",
            ["def __getstate__(self):", f"    return [{', '.join(f'self.{n}' for n in names)}]"],
        )
    if "__setstate__" not in own:
        lines = ["def __setstate__(self, state):"]
        lines += [f"    self.{n} = state[{i}]" for i, n in enumerate(names)] or ["    pass"]
        _generate(made, "__setstate__", lines)
    simple = all(
        f.init and not f.kw_only and f.default_factory is dataclasses.MISSING for f in fields
    )
    if simple and "__init__" not in own:
        defaults = {
            f"_d_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING
        }
        params = "".join(
            f", {f.name}" + (f"=_d_{f.name}" if f.default is not dataclasses.MISSING else "")
            for f in fields
        )
        lines = [f"def __init__(self{params}):"]
        lines += [f"    self.{name} = {name}" for name in names]
        post = getattr(made, "__post_init__", None)
        if post is LegalCache.__post_init__:
            lines.append("    self._legal = None")
        elif post is not None:
            lines.append("    self.__post_init__()")
        lines.append("    pass")  # a value without fields
        _generate(made, "__init__", lines, defaults)
        setattr(made, _PLAIN_INIT, True)
    return made


def _generate(
    cls: type, name: str, lines: list[str], namespace: dict[str, Any] | None = None
) -> None:
    """Compile the method ``name`` of ``cls`` from ``lines`` and set it on the class."""
    namespace = dict(namespace or {})
    exec("\n".join(lines), namespace)
    method = namespace[name]
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, method)


class LegalCache(State):
    """The one legal-action cache: a state class deriving from this (a ``State``) works out its
    legal actions once, with its own :meth:`work_out_legal`, and keeps them in a slot that is
    no dataclass field (so equality, hashing and JSON ignore it). A transition that knows a new
    state's actions already hands them over with :func:`remember_legal`.
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


class KeyEnum(enum.Enum):
    """An enum whose members hash by identity, which is what their equality already is (an
    enum member equals only itself). The numbers differ from :class:`enum.Enum`'s, which hash
    the name and so change from process to process with string hashing anyway: nothing may
    depend on them, and iteration over a ``dict`` keeps its insertion order."""

    __hash__ = object.__hash__


class HashOnce:
    """A base giving a slotted frozen dataclass the slot in which :func:`hash_once` keeps its
    hash. The slot is no dataclass field, so equality, pickles (which a slotted dataclass
    writes from its fields) and JSON ignore it, and an unpickled or copied value works its
    hash out again when first asked."""

    __slots__ = ("_hash",)
    _hash: int


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
