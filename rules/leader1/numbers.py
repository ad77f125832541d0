"""Leader 1's and Hell of the North's numbers for a race's table (``rules.race_table``): the energy
each rider spent (its energy at the start, plus the feed tiles it ate, less what it has now), the
energy left and the risks it took."""

from __future__ import annotations

from collections.abc import Sequence

from rules.leader1.family import AnyFamilyState, FamilyRider
from rules.leader1.model import State
from rules.leader1.order import arrival_order, classification
from rules.race_table import ENERGY_LEFT, ENERGY_SPENT, RISKS, Line, Numbers, Value


def _eaten(state: AnyFamilyState, rider: str) -> int:
    return sum(
        int(str(e.data.get("value", 0))) for e in state.events if e.type == "ate" and e.data.get("rider") == rider
    )


def family_numbers(start: AnyFamilyState, now: AnyFamilyState, order: Sequence[FamilyRider]) -> Numbers:
    """The riders' numbers, in ``order`` (the game's: those who arrived, then the others, first to last)."""
    lines = []
    for rider in order:
        first = next((r for r in start.riders if r.id == rider.id), rider)
        spent = first.energy + _eaten(now, rider.id) - rider.energy
        lines.append(Line(rider.id, rider.player, (Value(spent), Value(rider.energy), Value(rider.risks))))
    return Numbers((ENERGY_SPENT, ENERGY_LEFT, RISKS), tuple(lines))


def leader1_numbers(start: State, now: State) -> Numbers:
    return family_numbers(start, now, [*arrival_order(now), *classification(now)])
