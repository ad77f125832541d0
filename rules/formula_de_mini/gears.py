"""The gearbox (basic rule 1) and over-revving (event 5): which gears a car may select, at what cost.

Up one gear at a time; down by as many gears as wanted as long as at most three are skipped,
paying 1 LP per gear skipped. The book contradicts itself on 5th to 1st (rulings.md R-FDM-5-TO-1):
by default it is allowed (three gears skipped, 3 LP, as the over-rev table's own example says);
the option ``shift_5_to_1 = false`` follows the sentence that forbids it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from rules.resources import game_data
from rules.rng import Die

DATA = game_data("formula_de_mini").joinpath("dice.json")
GEARS = (1, 2, 3, 4, 5)
MAX_SKIPPED = 3


@cache
def dice() -> dict[str, Die]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    return {name: Die(name, tuple(faces)) for name, faces in raw["dice"].items()}


def gear_die(gear: int) -> Die:
    return dice()[f"gear{gear}"]


BLACK = "black"


@dataclass(frozen=True)
class Shift:
    gear: int
    over_rev: int  # LP lost for the gears skipped


def gears_skipped(current: int, target: int) -> int:
    """Gears jumped over when shifting down from ``current`` to ``target`` (5th to 3rd skips one)."""
    return max(0, current - target - 1)


def legal_shifts(current: int, *, shift_5_to_1: bool = True) -> list[Shift]:
    """Every gear a car in ``current`` may select for its next move, with its over-rev cost."""
    shifts = []
    for target in GEARS:
        if target > current + 1:
            continue  # up one gear at a time
        skipped = gears_skipped(current, target)
        if skipped > MAX_SKIPPED or (current == 5 and target == 1 and not shift_5_to_1):
            continue
        shifts.append(Shift(target, skipped))
    return shifts
