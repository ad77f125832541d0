"""Bounded backoff for timer jobs that fail: a race's deadline or a league's stage whose handling
raised is retried later and later (30 s, 1 min, 2 min … at most an hour), alone, while every
other race and league goes on."""

from __future__ import annotations

FIRST_DELAY, MAX_DELAY = 30.0, 3600.0


class Backoff:
    def __init__(self) -> None:
        self._failing: dict[object, tuple[int, float]] = {}  # key -> (failures in a row, retry at)

    def ready(self, key: object, now: float) -> bool:
        entry = self._failing.get(key)
        return entry is None or now >= entry[1]

    def failed(self, key: object, now: float) -> float:
        """Note a failure; the delay before the next try."""
        count = self._failing.get(key, (0, 0.0))[0] + 1
        delay: float = min(MAX_DELAY, FIRST_DELAY * 2.0 ** (count - 1))
        self._failing[key] = (count, now + delay)
        return delay

    def succeeded(self, key: object) -> None:
        self._failing.pop(key, None)

    def not_before(self, key: object, when: float) -> float:
        """``when``, or later if ``key`` is waiting to be retried."""
        entry = self._failing.get(key)
        return when if entry is None else max(when, entry[1])
