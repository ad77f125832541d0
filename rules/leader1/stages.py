"""What laying a Leader 1 family route has in common: the tile library, shipped stages by name,
random-route names, and tiles laid end to end into rows, fall (dark) squares, bends and placements."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, Generic, Protocol, TypeVar

from rules.errors import UnknownTrack
from rules.i18n import _
from rules.resources import json_names
from rules.rng import below
from rules.road import TilePlacement
from rules.track import cell_id, parse_cell_id

# ASCII digits without leading zeros (str.isdigit() also takes other scripts' digits);
# a few digits more than the bounds so that random-99-1 is told the range of hexagons
RANDOM_NAME = re.compile(r"random-(0|[1-9][0-9]{0,2})-(0|[1-9][0-9]{0,15})", re.ASCII)
T = TypeVar("T")


@dataclass(frozen=True)
class Library(Generic[T]):
    """A game's box of hexagon tiles: rows a hexagon, lanes, the run-out after the finish, the tiles by id."""

    hex_rows: int
    lanes: int
    runout: int
    tiles: dict[str, T]


def load_library(data: Traversable, tile: Callable[[dict[str, Any]], T]) -> Library[T]:
    """The library in ``data``/tiles.json, each tile read by ``tile``."""
    raw = json.loads(data.joinpath("tiles.json").read_text(encoding="utf-8"))
    return Library(raw["hex_rows"], raw["lanes"], raw["runout"], {t["id"]: tile(t) for t in raw["tiles"]})


def stage_names(data: Traversable) -> list[str]:
    return json_names(data.joinpath("stages"))


def stage_file(data: Traversable, name: str, game_id: str, random_hint: str) -> Traversable:
    """A shipped stage's file; the name is user text, so it is looked up, never made into a path."""
    names = stage_names(data)
    if name not in names:
        shown = name if len(name) <= 40 else f"{name[:40]}..."
        raise UnknownTrack(
            "$.track",
            _(
                "no stage {stage}; shipped: {names}, or {random}",
                stage=repr(game_id + "/" + shown),
                names=", ".join(names),
                random=random_hint,
            ),
        )
    return data.joinpath("stages", f"{name}.json")


def shipped_or_random(name: str, shipped: Callable[[str], T], random: Callable[[int, int], T]) -> T:
    """A shipped stage by name, or ``random-<hexagons>-<seed>``."""
    match = RANDOM_NAME.fullmatch(name)
    if match:
        return random(int(match[1]), int(match[2]))
    return shipped(name)


class LaidTile(Protocol):
    @property
    def terrain(self) -> str: ...
    @property
    def milestone(self) -> int: ...
    @property
    def bend(self) -> float: ...


@dataclass(frozen=True)
class Laid:
    """Tiles laid end to end: the terrain of each row, the fall squares, bends and placements."""

    profile: str
    fall: frozenset[str]
    bends: list[tuple[int, int, float]]
    placements: list[TilePlacement]


def lay(tiles: Sequence[tuple[str, str, LaidTile, Sequence[str]]], hex_rows: int) -> Laid:
    """Lay (id, kind, tile, fall squares in the tile) end to end, ``hex_rows`` rows each."""
    profile = ""
    fall: set[str] = set()
    bends: list[tuple[int, int, float]] = []
    placements = []
    for tid, kind, tile, squares in tiles:
        first = len(profile)
        placements.append(TilePlacement(tid, kind, tile.terrain, first, hex_rows, tile.milestone))
        profile += tile.terrain * hex_rows
        if tile.bend:
            bends.append((first, hex_rows, tile.bend))
        for local in squares:
            row, lane = parse_cell_id(local)
            fall.add(cell_id(first + row, lane))
    return Laid(profile, frozenset(fall), bends, placements)


def draw_tile(pool: list[str], bend: Callable[[str], float], heading: float, rng: int) -> tuple[str, int]:
    """A tile drawn from ``pool`` keeping the road's heading within 60 degrees of the start where possible."""
    candidates = [t for t in pool if abs(heading + bend(t)) <= 60] or pool
    pick, rng = below(rng, len(candidates))
    return candidates[pick], rng
