"""Hell of the North's numbers for a race's table (``rules.race_table``): as Leader 1's (energy
spent, energy left, risks taken), in this game's order."""

from __future__ import annotations

from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.order import arrival_order, classification
from rules.leader1.numbers import family_numbers
from rules.race_table import Numbers


def hell_numbers(start: State, now: State) -> Numbers:
    return family_numbers(start, now, [*arrival_order(now), *classification(now)])
