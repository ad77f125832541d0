"""Building a frozen dataclass's value quickly, where thousands are built a decision.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
(its own ``__setattr__`` refuses): 2 µs for a ride option's sixteen fields, and a Leader 1
breakaway phase lists ~45 of them a decision. ``built`` fills the instance's ``__dict__`` in
one step instead. The value is the same one: equality, hashing, ``repr``, pickling and
``dataclasses.replace`` read the fields, and the class stays frozen afterwards.

Only for a dataclass without ``__slots__``, ``__post_init__`` or default factories, given
every field (``tests/test_frozen.py`` checks the classes that use it).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def built(cls: type[T], fields: dict[str, Any]) -> T:
    """``cls(**fields)`` for a frozen dataclass, without its per-field ``__init__``."""
    value = object.__new__(cls)
    value.__dict__.update(fields)
    return value
