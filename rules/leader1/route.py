"""Leader 1 routes built from hexagon tiles (A.1): the tile library, stages, checks, random routes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rules.errors import InvalidSetup
from rules.i18n import _
from rules.leader1 import stages
from rules.pickling import pickle_by_name, shared_by_name
from rules.resources import game_data
from rules.rng import below, seed_state
from rules.road import Mountain, Road, make_road

DATA = game_data("leader1")


@dataclass(frozen=True)
class Tile:
    id: str
    kind: str  # start, route, arrival
    terrain: str
    milestone: int
    bend: float = 0.0
    fall: tuple[str, ...] = ()


Library = stages.Library[Tile]


@dataclass(frozen=True)
class StagePlan:
    """A route as the players lay it: tiles in order and tokens by tile index."""

    name: str
    title: str
    tiles: tuple[str, ...]
    mountains: tuple[tuple[int, int], ...]  # (tile index, category)
    feed: tuple[int, ...]  # tile indexes
    bonus: tuple[int, ...] = ()


@cache
def library() -> Library:
    return stages.load_library(
        DATA,
        lambda t: Tile(
            t["id"], t["kind"], t["terrain"], t["milestone"], float(t.get("bend", 0)), tuple(t.get("fall", ()))
        ),
    )


def stage_names() -> list[str]:
    return stages.stage_names(DATA)


def load_stage(name: str) -> StagePlan:
    """A shipped stage by name."""
    hint = _("random-<hexagons, {least} to {most}>-<seed, up to 16 digits>", least=5, most=MAX_RANDOM_HEXAGONS)
    return plan_from_json(json.loads(stages.stage_file(DATA, name, "leader1", hint).read_text(encoding="utf-8")))


def plan_from_json(raw: dict[str, Any]) -> StagePlan:
    return StagePlan(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        tiles=tuple(raw["tiles"]),
        mountains=tuple((m["tile"], m["category"]) for m in raw.get("mountains", [])),
        feed=tuple(raw.get("feed", [])),
        bonus=tuple(raw.get("bonus", [])),
    )


def feed_zones_for(hexagons: int) -> int:
    """A.1.4: 1 feed zone for ~10 hexagons, 2 for ~15, 3 for ~20 (rulings.md R-FEED-COUNT)."""
    return 1 if hexagons <= 12 else 2 if hexagons <= 17 else 3


def check_plan(plan: StagePlan) -> None:
    """The A.1 configuration rules; raises InvalidSetup naming the broken rule."""
    lib = library()
    where = f"$.track ({plan.name})"
    unknown = [t for t in plan.tiles if t not in lib.tiles]
    if unknown:
        raise InvalidSetup(where, f"unknown tiles {unknown}; the library has {', '.join(sorted(lib.tiles))}")
    tiles = [lib.tiles[t] for t in plan.tiles]
    if len(tiles) < 3 or tiles[0].kind != "start" or tiles[-1].kind != "arrival":
        raise InvalidSetup(where, "A.1.1: a route starts with a start hexagon and ends with an arrival hexagon")
    if any(t.kind != "route" for t in tiles[1:-1]):
        raise InvalidSetup(where, "A.1.1: start and arrival hexagons only at the ends")
    repeated = {t for t in plan.tiles[1:-1] if plan.tiles.count(t) > 1}
    if repeated:
        raise InvalidSetup(where, f"each hexagon exists once in the box; repeated: {sorted(repeated)}")
    categories = dict(plan.mountains)
    for i, tile in enumerate(tiles):
        climbing = tile.terrain == "M"
        starts_pass = climbing and (i == 0 or tiles[i - 1].terrain != "M")
        if starts_pass and (i == 0 or tiles[i - 1].terrain != "R"):
            raise InvalidSetup(where, f"A.1.2: the mountain pass at hexagon {i} needs a ground rise before it")
        if starts_pass and i not in categories:
            raise InvalidSetup(where, f"A.1.3: the mountain pass at hexagon {i} needs a category token")
        if i in categories and not climbing:
            raise InvalidSetup(where, f"A.1.3: a category token at hexagon {i}, which is not a mountain pass")
    for i, category in plan.mountains:
        if category not in (1, 2, 3):
            raise InvalidSetup(where, f"A.1.3: categories are 1, 2 or 3, got {category} at hexagon {i}")
    wanted = feed_zones_for(len(tiles))
    if len(plan.feed) != wanted:
        raise InvalidSetup(
            where, f"A.1.4: a route of {len(tiles)} hexagons has {wanted} feed zone(s), got {len(plan.feed)}"
        )
    for i in (*plan.feed, *plan.bonus):
        if not 0 < i < len(tiles) - 1:
            raise InvalidSetup(where, f"tokens go on route hexagons, not on hexagon {i}")


def build_road(plan: StagePlan) -> Road:
    """Lay the tiles end to end: rows, terrain, fall squares, bends, tokens and energy."""
    check_plan(plan)
    lib = library()
    laid = stages.lay(
        [(tid, lib.tiles[tid].kind, lib.tiles[tid], lib.tiles[tid].fall) for tid in plan.tiles], lib.hex_rows
    )
    profile, fall, bends, placements = laid.profile, laid.fall, laid.bends, laid.placements
    finish = len(profile)
    arrival = placements[-1]
    profile += "P" * lib.runout
    return make_road(
        name=f"leader1/{plan.name}",
        lanes=lib.lanes,
        profile=profile,
        surface=None,
        finish=finish,
        sprint=None if arrival.terrain == "M" else arrival.first_row,
        feed=tuple(placements[i].first_row for i in plan.feed),
        mountains=tuple(Mountain(placements[i].first_row, c) for i, c in plan.mountains),
        bonus=tuple(placements[i].first_row for i in plan.bonus),
        energy=sum(p.milestone for p in placements),
        fall=fall,
        bends=bends,
        tiles=tuple(placements),
    )


MAX_RANDOM_HEXAGONS = 20


def random_plan(hexagons: int, seed: int) -> StagePlan:
    """A random valid route of ``hexagons`` hexagons (start and arrival included)."""
    if not 5 <= hexagons <= MAX_RANDOM_HEXAGONS:
        raise InvalidSetup(
            "$.track",
            _(
                "a random route has {least} to {most} hexagons, got {count}",
                least=5,
                most=MAX_RANDOM_HEXAGONS,
                count=hexagons,
            ),
        )
    rng = seed_state(seed)
    while True:  # a walk can run out of tiles of the terrain it needs: walk again (rarely)
        tiles, rng = _random_walk(hexagons, rng)
        if tiles is not None:
            break
    lib = library()
    mountains = []
    for i in range(1, len(tiles) - 1):
        if lib.tiles[tiles[i]].terrain == "M" and lib.tiles[tiles[i - 1]].terrain != "M":
            category, rng = below(rng, 3)
            mountains.append((i, category + 1))
    route_hexes = list(range(1, len(tiles) - 1))
    wanted = feed_zones_for(len(tiles))
    feed = [route_hexes[(k + 1) * len(route_hexes) // (wanted + 1)] for k in range(wanted)]
    bonus = [route_hexes[len(route_hexes) // 2 - 1]]
    return StagePlan(
        f"random-{hexagons}-{seed}",
        f"Random route ({hexagons} hexagons, seed {seed})",
        tuple(tiles),
        tuple(mountains),
        tuple(sorted(set(feed))),
        tuple(bonus),
    )


NEXT_TERRAIN = {"P": "PR", "R": "RMP", "M": "MDD", "D": "DPR"}


def _random_walk(hexagons: int, rng: int) -> tuple[list[str] | None, int]:
    """Terrains follow one another as roads do (a ground rise before every pass); tiles are drawn
    without repeats, keeping the road's heading within 60 degrees of the start where possible."""
    lib = library()
    pool = {ter: sorted(t.id for t in lib.tiles.values() if t.kind == "route" and t.terrain == ter) for ter in "PRMD"}
    tiles = ["start"]
    heading = 0.0
    previous = "P"
    for _step in range(hexagons - 2):
        choices = [c for c in NEXT_TERRAIN[previous] if pool[c]]
        if not choices:
            return None, rng
        pick, rng = below(rng, len(choices))
        terrain = choices[pick]
        tid, rng = stages.draw_tile(pool[terrain], lambda t: lib.tiles[t].bend, heading, rng)
        pool[terrain].remove(tid)
        heading += lib.tiles[tid].bend
        tiles.append(tid)
        previous = terrain
    tiles.append("arrival")
    return tiles, rng


@shared_by_name
@lru_cache(maxsize=32)
def road_for(name: str) -> Road:
    """A shipped stage (``first-race``) or a random one (``random-<hexagons>-<seed>``).

    The road is frozen and a function of its name: races on the same stage share one (their
    boards hit the same cached pictures), and loading a race does not rebuild it.
    """
    return stages.shipped_or_random(
        name, lambda n: build_road(load_stage(n)), lambda h, s: build_road(random_plan(h, s))
    )


pickle_by_name(Road)  # a state pickles its road as road_for(name) (rules/pickling.py)
