"""Turn timers as people say them: presets (1 hour … 7 days) or a custom value like ``90m``,
``36h`` or ``2d``; and durations written back in words."""

from __future__ import annotations

import re

from bot.service.common import TIMER_MAX, TIMER_MIN, Refusal
from rules.i18n import N_, _, ngettext

PRESETS: tuple[tuple[str, int], ...] = (  # the name is the value commands take; shown as _(name)
    (N_("1 hour"), 3600),
    (N_("12 hours"), 12 * 3600),
    (N_("24 hours"), 24 * 3600),
    (N_("48 hours"), 48 * 3600),
    (N_("7 days"), 7 * 24 * 3600),
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
        raise Refusal(
            _("{typed} is not a duration: pick one from the list, or write e.g. 90m, 36h or 2d.", typed=repr(text[:30]))
        )
    seconds = int(match.group(1)) * unit
    if not TIMER_MIN <= seconds <= TIMER_MAX:
        raise Refusal(_("The turn timer goes from 1 minute to 7 days."))
    return seconds


def in_words(seconds: int) -> str:
    """``86400`` -> ``24 hours``; ``5400`` -> ``90 minutes``; ``604800`` -> ``7 days``."""
    if seconds % 86400 == 0 and seconds >= 2 * 86400:
        return ngettext("{n} day", "{n} days", seconds // 86400)
    if seconds % 3600 == 0 and seconds >= 3600:
        return ngettext("{n} hour", "{n} hours", seconds // 3600)
    if seconds % 60 == 0 and seconds >= 60:
        return ngettext("{n} minute", "{n} minutes", seconds // 60)
    return ngettext("{n} second", "{n} seconds", seconds)


def duration(seconds: float) -> str:
    """``2 h 05 min``, ``12 min``, ``40 s``."""
    seconds = max(0, int(seconds))
    if seconds >= 86400:
        return _("{days} d {hours} h", days=seconds // 86400, hours=seconds % 86400 // 3600)
    if seconds >= 3600:
        return _("{hours} h {minutes} min", hours=seconds // 3600, minutes=f"{seconds % 3600 // 60:02d}")
    if seconds >= 60:
        return _("{minutes} min", minutes=seconds // 60)
    return _("{seconds} s", seconds=seconds)
