"""Leader 1's dice as data (data/leader1/dice.json)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from rules.rng import Die

DATA = Path(__file__).resolve().parents[2] / "data" / "leader1" / "dice.json"


@cache
def dice() -> dict[str, Die]:
    raw = json.loads(DATA.read_text())
    return {name: Die(name, tuple(faces)) for name, faces in raw["dice"].items()}


PELOTON = dice()["peloton"]
EVENTS = dice()["events"]
