"""Caches for what is drawn once per road: keyed by content, bounded, safe across threads.

A state loaded from the database or replayed from a record carries a new ``Road`` object
every time, so a cache keyed by ``id()`` never hits (and an id can be reused by another
road once the first is freed). The keys here are tuples of the data the drawing reads:
equal roads share an entry, different roads never do (a dict compares keys by equality
after the hash, so a hash collision cannot mix two roads up).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from rules.track import Track

V = TypeVar("V")


class LruCache(Generic[V]):
    """A bounded least-recently-used map; ``get`` builds a missing value outside the lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        # Drawing takes milliseconds: two threads missing at once both draw the same picture,
        # and the first one stored wins, so every caller gets the same object afterwards.
        value = make()
        with self._lock:
            stored = self._data.setdefault(key, value)
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
            return stored

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


def _frozen(value: Any) -> Hashable:
    """A hashable copy of cell attributes (dicts, lists and sets nested in plain data)."""
    if isinstance(value, dict) or hasattr(value, "items"):
        if not value:
            return ()
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(_frozen(v) for v in value))  # type: ignore[type-var]
    return value  # type: ignore[no-any-return]


def track_key(track: Track) -> Hashable:
    """Everything about a track's geometry that a picture of it depends on."""
    cells = tuple((c.id, c.row, c.lane, c.polygon, c.successors, _frozen(c.attrs)) for c in track.cells.values())
    return (track.name, track.lanes, track.row_count, track.centres, track.headings, cells)
