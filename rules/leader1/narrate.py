"""Short human sentences for Leader 1 events (the board's panel, the bot's turn summary).

Feed tile values are never told here except when a tile is eaten (then the value is public).
"""

from __future__ import annotations

from rules.events import whole
from rules.leader1 import family
from rules.leader1.model import Event


def name(rider: str) -> str:
    """A rider as players call it: ``yellow-rouleur`` is the yellow rouleur."""
    return rider.replace("-", " ")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(event: Event) -> str | None:
    """One short line for an event, or None for events too small to tell on their own."""
    d = event.data
    rider = name(str(d.get("rider", "")))
    kind = event.type
    if kind in ("rode", "breakaway"):
        return family.ride_line(kind, d, rider)
    if kind == "rolled":
        if d.get("die") == "peloton":
            return None
        risk = d.get("risk")
        if risk == "puncture":
            return None
        return f"{rider} risks a {risk}: rolled {d['value']}, needed {d['need']}"
    texts = {
        "cracked": f"{rider} cracks and pays {d.get('cost')}",
        "fell": f"{rider} falls at {d.get('at')}, pays {d.get('cost')} and sits out a turn",
        "punctured": f"{rider} punctures",
        "caught": f"{rider} is caught by the peloton",
        "rejoined": f"{rider} gets back into the peloton",
        "dropped": f"{rider} is dropped ({d.get('reason')})",
        "fed": f"{rider} takes a feed tile",
        "feed-empty": f"the {d.get('colour')} feed pile is empty: no tile for {rider}",
        "ate": f"{rider} eats a feed tile: +{d.get('value')}",
        "bonus": f"{rider} takes the bonus time",
        "arrived": f"{rider} crosses the line",
        "eliminated": f"{rider} is eliminated",
        "stuck": f"{rider} is boxed in and cannot move",
        "finished": "the race is over",
    }
    if kind == "peloton":
        extras = [x for x, on in (("pursuit", d.get("pursuit")), ("empty", d.get("empty"))) if on]
        more = f" ({', '.join(extras)})" if extras else ""
        return f"the peloton moves {d['squares']} squares to row {d['to']}{more}"
    if kind == "paid":
        return None
    return texts.get(kind)


def summary(events: list[Event]) -> list[str]:
    """The lines worth telling for a run of events, with the peloton's roll folded in."""
    lines: list[str] = []
    paid_at: int | None = None
    paid: dict[int, int] = {}
    fed_at: int | None = None
    fed: list[str] = []
    for e in events:
        if e.type == "rolled" and e.data.get("die") == "peloton":
            lines.append(f"peloton die: {e.data['value']}")
        elif e.type == "fed":
            fed_at = len(lines) if fed_at is None else fed_at
            fed.append(name(str(e.data["rider"])))
        elif e.type == "paid":
            paid_at = len(lines) if paid_at is None else paid_at
            paid[whole(e.data["cost"])] = paid.get(whole(e.data["cost"]), 0) + 1
        elif text := describe(e):
            lines.append(text)
    if paid_at is not None:
        told = [
            f"{plural(count, 'rider')} in the peloton {'pays' if count == 1 else 'pay'} {cost} energy"
            for cost, count in sorted(paid.items())
        ]
        lines[paid_at:paid_at] = told
    if fed_at is not None:
        lines.insert(fed_at, "feed zone: a tile each for " + ", ".join(fed))
    return lines
