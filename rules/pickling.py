"""How frozen race values pickle: read-only mappings, and setups shared by name.

A state is pickled for snapshots and to send it to a board worker process. Two rules:

* ``MappingProxyType`` (the read-only maps of frozen values) pickles as a copy of its dict
  and comes back read-only.
* A setup part loaded by name (a shipped road, a circuit) is shared by every race that uses
  it and pickles as its loader and name, not as its hundreds of cells: the other side
  loads it from its own cache (the same object for every state it receives), so a state
  sent to a worker is a few KB and the worker's drawing caches recognise the road at once.
"""

from __future__ import annotations

import copyreg
import threading
import weakref
from collections.abc import Callable
from functools import partial, wraps
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")


def _read_only(data: dict[object, object]) -> MappingProxyType[object, object]:
    return MappingProxyType(data)


copyreg.pickle(MappingProxyType, lambda m: (_read_only, (dict(m),)))

_origins: dict[int, tuple[weakref.ref[object], Callable[[str], object], tuple[str]]] = {}
_lock = threading.Lock()


def shared_by_name(loader: Callable[[str], T]) -> Callable[[str], T]:
    """Mark what ``loader`` (a cached, pure function of a name) returns as pickled by that name.

    ``loader`` must be importable under its own name (pickle stores a reference to it).
    """

    @wraps(loader)
    def load(name: str) -> T:
        value = loader(name)
        key = id(value)
        with _lock:
            known = _origins.get(key)
            if known is None or known[0]() is not value:
                _origins[key] = (weakref.ref(value, partial(_forget, key)), load, (name,))
        return value

    return load


def _forget(key: int, _: object = None) -> None:
    with _lock:
        entry = _origins.get(key)
        if entry is not None and entry[0]() is None:
            del _origins[key]


def reduce_shared(value: object) -> str | tuple[Any, ...]:  # what object.__reduce_ex__ returns
    """``copyreg`` reducer: a loaded value as (loader, name); anything else as pickle would."""
    with _lock:
        known = _origins.get(id(value))
    if known is not None and known[0]() is value:
        return known[1], known[2]
    return object.__reduce_ex__(value, 4)  # the plain reduction (this reducer is not asked again)


def pickle_by_name(cls: type[object]) -> None:
    """Instances of ``cls`` loaded through a ``shared_by_name`` loader pickle by name."""
    copyreg.pickle(cls, reduce_shared)
