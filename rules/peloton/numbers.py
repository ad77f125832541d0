"""Peloton's numbers for a race's table (``rules.race_table``): each cyclist's time (relative in a
leg race, absolute in a time trial, the team's in a team time trial), its points and mountains
points, and its energy left."""

from __future__ import annotations

from rules.game import Outcome
from rules.i18n import N_
from rules.peloton import timing
from rules.peloton.model import Cyclist, State
from rules.peloton.standings import classifications, time_of
from rules.race_table import ENERGY_LEFT, Line, Numbers, Value

TIME, POINTS, MOUNTAINS = N_("time"), N_("points"), N_("mountains")


def _time(state: State, c: Cyclist) -> Value:
    tenths = time_of(state, c)
    if tenths is None:
        return Value(None, "–")
    return Value(tenths, timing.gap(tenths) if state.discipline == "leg" else timing.clock(tenths))


def peloton_numbers(start: State, now: State, outcome: Outcome) -> Numbers:
    """``outcome``: the race's outcome now (the game's own), whose placings give the order."""
    table = classifications(now)
    order = [now.cyclist(p.piece) for p in outcome.placings]  # the finishers first
    lines = tuple(
        Line(
            c.id,
            c.player,
            (
                _time(now, c),
                Value(table["points"].get(c.id, 0)),
                Value(table["mountains"].get(c.id, 0)),
                Value(c.energy),
            ),
        )
        for c in order
    )
    return Numbers((TIME, POINTS, MOUNTAINS, ENERGY_LEFT), lines, frozenset({TIME}))
