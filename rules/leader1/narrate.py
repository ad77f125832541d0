"""Short human sentences for Leader 1 events (the board's panel, the bot's turn summary).

Feed tile values are never told here except when a tile is eaten (then the value is public).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.events import whole
from rules.i18n import _, ngettext, pgettext
from rules.leader1 import family, words
from rules.leader1.model import Event


def name(rider: str) -> str:
    """A rider as players call it: ``yellow-rouleur`` is the yellow rouleur."""
    return words.rider_id(rider)


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
        if risk == "fall":
            return _(
                "{rider} risks a fall: rolled {value}, needed {need}", rider=rider, value=d["value"], need=d["need"]
            )
        return _("{rider} risks a crack: rolled {value}, needed {need}", rider=rider, value=d["value"], need=d["need"])
    if kind == "peloton":
        extras = [
            x
            for x, on in (
                (pgettext("peloton", "pursuit"), d.get("pursuit")),
                (pgettext("peloton", "empty"), d.get("empty")),
            )
            if on
        ]
        more = _(" ({details})", details=", ".join(extras)) if extras else ""
        return ngettext(
            "the peloton moves {n} square to row {to}{details}",
            "the peloton moves {n} squares to row {to}{details}",
            int(str(d["squares"])),
            to=d["to"],
            details=more,
        )
    if kind == "paid":
        return None
    return _told(kind, d, rider)


def _told(kind: str, d: Mapping[str, object], rider: str) -> str | None:
    """The line of an event that needs only its rider and data."""
    if kind == "cracked":
        return _("{rider} cracks and pays {cost}", rider=rider, cost=d.get("cost"))
    if kind == "fell":
        return _(
            "{rider} falls at {at}, pays {cost} and sits out a turn", rider=rider, at=d.get("at"), cost=d.get("cost")
        )
    if kind == "dropped":
        return _("{rider} is dropped ({reason})", rider=rider, reason=words.reason(d.get("reason")))
    if kind == "feed-empty":
        return _("the {colour} feed pile is empty: no tile for {rider}", colour=_pile(d.get("colour")), rider=rider)
    if kind == "ate":
        return _("{rider} eats a feed tile: +{value}", rider=rider, value=d.get("value"))
    plain = {
        "punctured": _("{rider} punctures", rider=rider),
        "caught": _("{rider} is caught by the peloton", rider=rider),
        "rejoined": _("{rider} gets back into the peloton", rider=rider),
        "fed": _("{rider} takes a feed tile", rider=rider),
        "bonus": _("{rider} takes the bonus time", rider=rider),
        "arrived": _("{rider} crosses the line", rider=rider),
        "eliminated": _("{rider} is eliminated", rider=rider),
        "stuck": _("{rider} is boxed in and cannot move", rider=rider),
    }
    if kind == "finished":
        return _("the race is over")
    return plain.get(kind)


def _pile(colour: object) -> str:
    """A feed pile's colour, as the feed-pile sentence says it."""
    piles = {
        "green": pgettext("feed pile", "green"),
        "yellow": pgettext("feed pile", "yellow"),
        "red": pgettext("feed pile", "red"),
    }
    return piles.get(str(colour), str(colour))


def summary(events: list[Event]) -> list[str]:
    """The lines worth telling for a run of events, with the peloton's roll folded in."""
    lines: list[str] = []
    paid_at: int | None = None
    paid: dict[int, int] = {}
    fed_at: int | None = None
    fed: list[str] = []
    for e in events:
        if e.type == "rolled" and e.data.get("die") == "peloton":
            lines.append(_("peloton die: {value}", value=words.face(e.data["value"])))
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
            ngettext(
                "{n} rider in the peloton pays {cost} energy",
                "{n} riders in the peloton pay {cost} energy",
                count,
                cost=cost,
            )
            for cost, count in sorted(paid.items())
        ]
        lines[paid_at:paid_at] = told
    if fed_at is not None:
        lines.insert(fed_at, _("feed zone: a tile each for {riders}", riders=", ".join(fed)))
    return lines
