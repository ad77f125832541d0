"""C.4 feed-zone tiles: three finite face-down piles, one per colour, drawn without replacement.

A race has its own piles (``State.piles``). A draw takes a tile uniformly at random from what
is left of the pile, with the race's seeded dice: that is drawing the top tile of a pile
shuffled by the seed, without ever storing an order that could be read ahead. The draw is a
roll of a die named ``feed-<colour>`` whose faces are the tiles left, so a record's ``dice``
script can name the values drawn (each must still be in the pile).
"""

from __future__ import annotations

import json
from functools import cache

from rules.errors import MalformedRecord
from rules.resources import game_data
from rules.rng import Dice, Die

DATA = game_data("leader1").joinpath("feed-tiles.json")
COLOURS = ("green", "yellow", "red")

Piles = tuple[tuple[str, tuple[int, ...]], ...]


@cache
def full_piles() -> Piles:
    """The 36 tiles of data/leader1/feed-tiles.json, by colour, each pile sorted."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))["piles"]
    return tuple((colour, tuple(sorted(int(v) for v in raw[colour]))) for colour in COLOURS)


def die_name(colour: str) -> str:
    return f"feed-{colour}"


def pile(piles: Piles, colour: str) -> tuple[int, ...]:
    return dict(piles)[colour]


def without(piles: Piles, colour: str, value: int) -> Piles:
    """``piles`` with one tile of ``value`` taken from the ``colour`` pile."""
    tiles = pile(piles, colour)
    if value not in tiles:
        raise MalformedRecord(
            f"$.dice.{die_name(colour)}",
            f"no feed tile of value {value} is left in the {colour} pile (left: {list(tiles) or 'none'})",
        )
    index = tiles.index(value)
    rest = tiles[:index] + tiles[index + 1 :]
    return tuple((c, rest if c == colour else t) for c, t in piles)


def draw(dice: Dice, piles: Piles, colour: str) -> tuple[int | None, Dice, Piles]:
    """One tile from the ``colour`` pile: its value (None when the pile is empty), dice, piles."""
    tiles = pile(piles, colour)
    if not tiles:
        return None, dice, piles
    value, dice = dice.roll_int(Die(die_name(colour), tiles))
    return value, dice, without(piles, colour, value)


def check_script(name: str, values: list[int | str]) -> None:
    """A ``dice`` script for a pile may only name tiles that the full pile holds."""
    colour = name.removeprefix("feed-")
    tiles = list(pile(full_piles(), colour))
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v not in tiles:
            raise MalformedRecord(
                f"$.dice.{name}[{i}]",
                f"{v!r} is not a tile left in the {colour} pile (12 tiles: {sorted(set(pile(full_piles(), colour)))})",
            )
        tiles.remove(v)
