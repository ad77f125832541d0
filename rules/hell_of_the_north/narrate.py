"""Short human sentences for Hell of the North events (the bot's turn summary, the board's panel).

Feed tile values are never told here except when a tile is eaten or shown for the heat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.events import whole
from rules.hell_of_the_north.model import Event
from rules.i18n import N_, _, ngettext
from rules.leader1 import family, words

WEATHER_WORDS = {
    "rain": N_("rain (dark squares risk a fall even in the free part)"),
    "heat": N_("heat (a move of 6+ squares eats a kept feed tile)"),
    "headwind-1": N_("headwind 1 (+1 energy without slipstream)"),
    "headwind-2": N_("headwind 2 (+2 energy without slipstream)"),
    "tailwind-1": N_("tailwind 1 (-1 energy)"),
    "tailwind-2": N_("tailwind 2 (-2 energy)"),
}  # marked for the catalogs: shown through ``weather_words``


def weather_words(marker: object) -> str:
    """A weather marker in words, in the language of the moment."""
    text = WEATHER_WORDS.get(str(marker))
    return _(text) if text else str(marker)


def name(rider: str) -> str:
    return words.rider_id(rider)


def describe(e: Event, who: Callable[[str], str] = str) -> str | None:
    """One short line for an event, or None for events too small to tell on their own.

    ``who`` names a player as people know them (their display name, not their seat id)."""
    d = e.data
    rider = name(str(d.get("rider", "")))
    kind = e.type
    if kind in ("rode", "breakaway"):
        wind = [_("wind {wind}", wind=f"{whole(d['wind']):+d}")] if d.get("wind") else []
        return family.ride_line(kind, d, rider, wind)
    if kind == "rolled":
        return _rolled(d, rider)
    if kind == "pursued":
        return _(
            "{player} speeds the peloton up ({left} pursuits left)",
            player=who(str(d.get("player"))),
            left=d.get("left"),
        )
    if kind in ("paid", "finished") or (kind == "cobbles" and d.get("result") == "safe"):
        return _("the race is over") if kind == "finished" else None
    return _told(kind, d, rider)


def _rolled(d: Any, rider: str) -> str | None:
    risk = d.get("risk")
    value, need = words.face(d.get("value")), words.need(d.get("need"))
    if risk == "crack":
        return _("{rider} risks a crack: rolled {value}, needed {need}", rider=rider, value=value, need=need)
    if risk == "fall":
        return _("{rider} risks a fall: rolled {value}, needed {need}", rider=rider, value=value, need=need)
    if risk == "cobbles":
        return _("{rider} on the cobbles rolls {value}", rider=rider, value=value)
    if risk is None:
        return _("peloton die: {value}", value=value)
    return None


def _told(kind: str, d: Any, rider: str) -> str | None:
    """The line of an event that needs only its rider and data."""
    if kind == "fed":
        if d.get("form"):
            return _("{rider} takes a feed tile (form of the day)", rider=rider)
        return _("{rider} takes a feed tile", rider=rider)
    texts = {
        "cracked": lambda: _("{rider} cracks and pays {cost}", rider=rider, cost=d.get("cost")),
        "fell": lambda: _(
            "{rider} falls at {at}, pays {cost} and misses a turn", rider=rider, at=d.get("at"), cost=d.get("cost")
        ),
        "punctured": lambda: _("{rider} punctures", rider=rider),
        "caught": lambda: _(
            "{rider} is caught by the peloton ({part} part)", rider=rider, part=words.part(d.get("part"))
        ),
        "rejoined": lambda: _("{rider} rejoins the peloton at the back", rider=rider),
        "arrived": lambda: _("{rider} crosses the finish line", rider=rider),
        "dropped": lambda: _("{rider} is dropped ({reason})", rider=rider, reason=words.reason(d.get("reason"))),
        "drops": lambda: _("{rider} will drop back from the peloton", rider=rider),
        "placed": lambda: _("{rider} goes to the {part} of the peloton", rider=rider, part=words.part(d.get("part"))),
        "peloton": lambda: ngettext(
            "the peloton moves {n} square to row {to}",
            "the peloton moves {n} squares to row {to}",
            int(d.get("squares") or 0),
            to=d.get("to"),
        ),
        "ate": lambda: _("{rider} eats a feed tile worth {value}", rider=rider, value=d.get("value")),
        "heat": lambda: _(
            "{rider} suffers in the heat and eats a feed tile worth {value}", rider=rider, value=d.get("value")
        ),
        "bonus": lambda: _("{rider} takes the time bonus", rider=rider),
        "weather": lambda: _(
            "weather turned up on row {row}: {weather}", row=d.get("row"), weather=weather_words(d.get("marker"))
        ),
        "cobbles": lambda: _("{rider} on the cobbles: {result}", rider=rider, result=words.cobbles(d.get("result"))),
        "stuck": lambda: _("{rider} is boxed in and cannot move", rider=rider),
        "eliminated": lambda: _(
            "{rider} is out of the race ({reason})", rider=rider, reason=words.reason(d.get("reason"))
        ),
        "feed-empty": lambda: _("{rider} finds the feed pile empty", rider=rider),
    }
    told = texts.get(kind)
    return told() if told else None


def summary(events: list[Event], who: Callable[[str], str] = str) -> list[str]:
    return [line for e in events if (line := describe(e, who))]
