"""Formula Dé Mini's numbers for a race's table (``rules.race_table``): each car's laps, the life
points it lost (its "energy spent") and those it has left."""

from __future__ import annotations

from rules.formula_de_mini.model import START_LP, State
from rules.i18n import N_
from rules.race_table import Line, Numbers, Value

LAPS, LP_LOST, LP_LEFT = N_("laps"), N_("life points lost"), N_("life points left")


def car_numbers(start: State, now: State) -> Numbers:
    arrived = {cid: i for i, cid in enumerate(now.arrivals)}
    lines = []
    for car in sorted(now.cars, key=lambda c: arrived.get(c.id, len(arrived))):  # the finishers first
        first = next((c.lp for c in start.cars if c.id == car.id), START_LP)
        lines.append(Line(car.id, car.player, (Value(car.lap), Value(first - car.lp), Value(car.lp))))
    return Numbers((LAPS, LP_LOST, LP_LEFT), tuple(lines))
