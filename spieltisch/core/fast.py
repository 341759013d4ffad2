"""Building frozen dataclass values fast, for the hot paths of random playouts.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``;
setting the same slots through their descriptors takes about half the time, and building
states is most of what a random playout does. :func:`slot_setters` returns those descriptor
setters. A value built with them is an ordinary instance: equal to, and hashing like, one built
by calling the class. Use them only where profiling shows construction matters, and keep the
class's own constructor as the readable way to build the value everywhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SlotSetter = Callable[[Any, Any], None]

new_instance = object.__new__
"""An instance of a class with no field set yet (fill every slot before using it)."""


def slot_setters(cls: type, *names: str) -> tuple[SlotSetter, ...]:
    """The setters of the slots ``names`` of the slotted class ``cls``, in that order."""
    return tuple(cls.__dict__[name].__set__ for name in names)
