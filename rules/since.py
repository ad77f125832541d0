"""What happened since a player last decided, in one short line, from the events' words.

The default of ``Narration.since``: it reads the event words Leader 1's family, Formula Dé Mini and
Peloton share (a piece in ``rider``, ``car`` or ``cyclist``; a move's ``to``; a fall, a crack, a pit
stop ...). A game whose events say other words gives its own line. It tells only what the channel
was told anyway (moves, falls, punctures), never a kept feed tile or a weather marker still face
down."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from rules.events import Event
from rules.i18n import N_, _

PIECE_KEYS = ("rider", "car", "cyclist")
MOVES = frozenset({"rode", "drive", "ride", "slipstream", "breakaway"})
# what befell a piece, in a word or two (an event type not listed here is not told)
BEFELL = {
    "fell": N_("fell"),
    "cracked": N_("cracked"),
    "punctured": N_("punctured"),
    "eliminated": N_("out of the race"),
    "dropped": N_("dropped"),
    "caught": N_("caught by the peloton"),
    "pitted": N_("pitted"),
    "stalled": N_("stalled"),
    "finished-race": N_("crossed the finish line"),
    "arrived": N_("crossed the finish line"),
}


def shared_line(events: Sequence[Event], name: Callable[[str], str]) -> str:
    """Each piece that moved or met something in ``events``, in the order they first did, and
    the peloton: ``yellow rouleur broke away to 6.2, caught by the peloton; the peloton to row 7``.
    ``name`` gives a piece's name as players know it."""
    told: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()  # piece -> (what: "move" or an event type, words)
    peloton = None
    for e in events:
        piece = next((str(e.data[k]) for k in PIECE_KEYS if e.data.get(k) is not None), None)
        if e.type == "peloton" and e.data.get("to") is not None:
            peloton = _("the peloton to row {row}", row=e.data["to"])
            continue
        if piece is None:
            continue
        words = told.setdefault(piece, [])
        if e.type in MOVES and e.data.get("to") is not None:
            where = e.data["to"]
            words[:] = [w for w in words if w[0] != "move"]
            moved = (
                _("broke away to {place_name}", place_name=where)
                if e.type == "breakaway"
                else _("to {place_name}", place_name=where)
            )
            words.append(("move", moved))
        elif e.type in BEFELL and _(BEFELL[e.type]) not in (w[1] for w in words):
            words.append((e.type, _(BEFELL[e.type])))
    parts = [
        _("{piece_name} {what}", piece_name=name(p), what=", ".join(w[1] for w in ws)) for p, ws in told.items() if ws
    ]
    if peloton:
        parts.append(peloton)
    return "; ".join(parts)
