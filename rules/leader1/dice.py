"""Leader 1's dice as data (data/leader1/dice.json)."""

from __future__ import annotations

import json
from functools import cache

from rules.resources import game_data
from rules.rng import Die

DATA = game_data("leader1").joinpath("dice.json")


@cache
def dice() -> dict[str, Die]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    return {name: Die(name, tuple(faces)) for name, faces in raw["dice"].items()}


PELOTON = dice()["peloton"]
EVENTS = dice()["events"]
