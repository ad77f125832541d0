"""Turn timers as people say them: presets (1 hour … 7 days) or a custom value like ``90m``,
``36h`` or ``2d``; and durations written back in words."""

from __future__ import annotations

import re

from bot.service.common import TIMER_MAX, TIMER_MIN, Refusal

PRESETS: tuple[tuple[str, int], ...] = (
    ("1 hour", 3600),
    ("12 hours", 12 * 3600),
    ("24 hours", 24 * 3600),
    ("48 hours", 48 * 3600),
    ("7 days", 7 * 24 * 3600),
)
UNITS = {"m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_DURATION = re.compile(r"^\s*(\d{1,6})\s*([a-z]*?)s?\s*$")


def parse_duration(text: str) -> int:
    """Seconds for ``text``: a preset's name, or a number with m/h/d (a bare number is minutes)."""
    for name, seconds in PRESETS:
        if text.strip().lower() == name:
            return seconds
    match = _DURATION.match(text.lower())
    unit = UNITS.get(match.group(2) or "m") if match else None
    if match is None or unit is None:
        raise Refusal(f"{text[:30]!r} is not a duration: pick one from the list, or write e.g. 90m, 36h or 2d.")
    seconds = int(match.group(1)) * unit
    if not TIMER_MIN <= seconds <= TIMER_MAX:
        raise Refusal("The turn timer goes from 1 minute to 7 days.")
    return seconds


def in_words(seconds: int) -> str:
    """``86400`` -> ``24 hours``; ``5400`` -> ``90 minutes``; ``604800`` -> ``7 days``."""
    for size, word in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds % size == 0 and seconds >= size and not (word == "day" and seconds < 2 * 86400):
            count = seconds // size
            return f"{count} {word}" + ("s" if count != 1 else "")
    return f"{seconds} seconds"


def duration(seconds: float) -> str:
    """``2 h 05 min``, ``12 min``, ``40 s``."""
    seconds = max(0, int(seconds))
    if seconds >= 86400:
        return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"
