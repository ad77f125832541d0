"""Short human sentences for Hell of the North events (the bot's turn summary, the board's panel).

Feed tile values are never told here except when a tile is eaten or shown for the heat.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.events import whole
from rules.hell_of_the_north.model import Event
from rules.leader1 import family

WEATHER_WORDS = {
    "rain": "rain (dark squares risk a fall even in the free part)",
    "heat": "heat (a move of 6+ squares eats a kept feed tile)",
    "headwind-1": "headwind 1 (+1 energy without slipstream)",
    "headwind-2": "headwind 2 (+2 energy without slipstream)",
    "tailwind-1": "tailwind 1 (-1 energy)",
    "tailwind-2": "tailwind 2 (-2 energy)",
}


def name(rider: str) -> str:
    return rider.replace("-", " ")


def describe(e: Event, who: Callable[[str], str] = str) -> str | None:
    """One short line for an event, or None for events too small to tell on their own.

    ``who`` names a player as people know them (their display name, not their seat id)."""
    d = e.data
    rider = name(str(d.get("rider", "")))
    kind = e.type
    marker = str(d.get("marker"))
    if kind in ("rode", "breakaway"):
        return family.ride_line(kind, d, rider, [f"wind {whole(d['wind']):+d}"] if d.get("wind") else [])
    if kind == "rolled":
        risk = d.get("risk")
        if risk in ("crack", "fall"):
            return f"{rider} risks a {risk}: rolled {d['value']}, needed {d['need']}"
        if risk == "cobbles":
            return f"{rider} on the cobbles rolls {str(d['value']).replace('-', ' ')}"
        if risk is None:
            return f"peloton die: {str(d['value']).replace('-', ' ')}"
        return None
    texts = {
        "cracked": f"{rider} cracks and pays {d.get('cost')}",
        "fell": f"{rider} falls at {d.get('at')}, pays {d.get('cost')} and misses a turn",
        "punctured": f"{rider} punctures",
        "caught": f"{rider} is caught by the peloton ({d.get('part')} part)",
        "rejoined": f"{rider} rejoins the peloton at the back",
        "arrived": f"{rider} crosses the finish line",
        "dropped": f"{rider} is dropped ({d.get('reason')})",
        "drops": f"{rider} will drop back from the peloton",
        "placed": f"{rider} goes to the {d.get('part')} of the peloton",
        "pursued": f"{who(str(d.get('player')))} speeds the peloton up ({d.get('left')} pursuits left)",
        "peloton": f"the peloton moves {d.get('squares')} squares to row {d.get('to')}",
        "paid": None,
        "fed": f"{rider} takes a feed tile" + (" (form of the day)" if d.get("form") else ""),
        "ate": f"{rider} eats a feed tile worth {d.get('value')}",
        "heat": f"{rider} suffers in the heat and eats a feed tile worth {d.get('value')}",
        "bonus": f"{rider} takes the time bonus",
        "weather": f"weather turned up on row {d.get('row')}: {WEATHER_WORDS.get(marker, marker)}",
        "cobbles": None if d.get("result") == "safe" else f"{rider} on the cobbles: {d.get('result')}",
        "stuck": f"{rider} is boxed in and cannot move",
        "eliminated": f"{rider} is out of the race ({d.get('reason')})",
        "feed-empty": f"{rider} finds the feed pile empty",
        "finished": "the race is over",
    }
    return texts.get(kind)


def summary(events: list[Event], who: Callable[[str], str] = str) -> list[str]:
    return [line for e in events if (line := describe(e, who))]
