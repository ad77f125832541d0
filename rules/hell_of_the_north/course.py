"""Hell of the North courses (Setup 1): the tile library, shipped stages, the setup checks,
random routes and inline test roads.

Start and finish are markers, not hexagons: the start line is before the first hexagon's
first row and the finish line after the last hexagon's last row (a run-out follows).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache

from rules.errors import InvalidSetup, MalformedRecord
from rules.hell_of_the_north.model import DATA, GAME_ID, Course
from rules.i18n import _
from rules.leader1 import stages
from rules.rng import below, seed_state
from rules.road import Mountain, Road, make_road, road_from_inline

MAX_WEATHER = 6  # the box holds 6 weather markers
MAX_BONUS = 2
MIN_HEXAGONS = 5
MAX_HEXAGONS = 20


@dataclass(frozen=True)
class Tile:
    id: str
    terrain: str
    milestone: int
    bend: float
    surface: str
    dark: tuple[str, ...]


Library = stages.Library[Tile]


@dataclass(frozen=True)
class StagePlan:
    """A route as the players lay it: hexagons in order and markers by hexagon index."""

    name: str
    title: str
    tiles: tuple[str, ...]
    mountains: tuple[tuple[int, int], ...]  # (hexagon, category 1-4) at the foot of each mountain
    feed: tuple[int, ...]
    bonus: tuple[int, ...]
    sprint: int | None  # the hexagon of the intermediate-sprint-start marker before the finish
    weather: tuple[int, ...]


@cache
def library() -> Library:
    return stages.load_library(
        DATA, lambda t: Tile(t["id"], t["terrain"], t["milestone"], float(t["bend"]), t["surface"], tuple(t["dark"]))
    )


def stage_names() -> list[str]:
    return stages.stage_names(DATA)


def load_stage(name: str) -> StagePlan:
    """A shipped stage by name."""
    hint = _("random-<hexagons, {least} to {most}>-<seed>", least=MIN_HEXAGONS, most=MAX_HEXAGONS)
    raw = json.loads(stages.stage_file(DATA, name, GAME_ID, hint).read_text(encoding="utf-8"))
    return StagePlan(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        tiles=tuple(raw["tiles"]),
        mountains=tuple((m[0], m[1]) for m in raw.get("mountains", [])),
        feed=tuple(raw.get("feed", [])),
        bonus=tuple(raw.get("bonus", [])),
        sprint=raw.get("sprint"),
        weather=tuple(raw.get("weather", [])),
    )


def feed_zones_for(hexagons: int) -> int:
    """Figure 6: 1 feed zone, or 2 on a long route (R-HOTN-FEED-COUNT: 2 from 13 hexagons)."""
    return 1 if hexagons <= 12 else 2


def check_plan(plan: StagePlan) -> None:
    """Setup 1's rules; raises InvalidSetup naming the broken rule."""
    lib = library()
    where = f"$.track ({plan.name})"
    unknown = [t for t in plan.tiles if t not in lib.tiles]
    if unknown:
        raise InvalidSetup(where, f"unknown hexagons {unknown}; the library has {', '.join(sorted(lib.tiles))}")
    n = len(plan.tiles)
    if not MIN_HEXAGONS <= n <= MAX_HEXAGONS:
        raise InvalidSetup(where, f"a route has {MIN_HEXAGONS} to {MAX_HEXAGONS} hexagons, got {n}")
    if len(set(plan.tiles)) != n:
        raise InvalidSetup(where, "each hexagon exists once in the box")
    tiles = [lib.tiles[t] for t in plan.tiles]
    categories = dict(plan.mountains)
    for i, tile in enumerate(tiles):
        foot = tile.terrain == "M" and (i == 0 or tiles[i - 1].terrain != "M")
        if foot and i not in categories:
            raise InvalidSetup(where, f"Setup 1.4: the mountain at hexagon {i} needs a category marker at its foot")
        if i in categories and not foot:
            raise InvalidSetup(where, f"Setup 1.4: one category marker a mountain, at its foot (hexagon {i})")
    for i, category in plan.mountains:
        if category not in (1, 2, 3, 4):
            raise InvalidSetup(where, f"Setup 1.4: categories are 1 to 4, got {category} at hexagon {i}")
    if len(plan.feed) != feed_zones_for(n) or any(not 0 < i < n for i in plan.feed):
        raise InvalidSetup(where, f"Setup 1.5: a route of {n} hexagons has {feed_zones_for(n)} feed zone(s)")
    # every route may be a multi-day stage; a one-day race takes the markers off (without_bonus)
    if not 1 <= len(plan.bonus) <= MAX_BONUS or any(not 1 < i < n for i in plan.bonus):
        raise InvalidSetup(where, "Setup 1.2: one or two time-bonus markers, with a hexagon before each")
    last_mountain = tiles[-1].terrain == "M"
    if last_mountain and plan.sprint is not None:
        raise InvalidSetup(where, "Setup 1.3: no intermediate sprint when the finish is on a mountain")
    if not last_mountain and plan.sprint not in (n - 1, n - 2):
        raise InvalidSetup(where, "Setup 1.3: an intermediate-sprint marker on one of the last two hexagons")
    if len(plan.weather) > MAX_WEATHER or len(set(plan.weather)) != len(plan.weather):
        raise InvalidSetup(where, "Weather: at most 6 markers, at most one a hexagon")
    if any(not 0 < i < n for i in plan.weather):
        raise InvalidSetup(where, "Weather: a marker needs a hexagon before it (R-HOTN-WEATHER-REVEAL)")


def build_course(plan: StagePlan) -> Course:
    """Lay the hexagons end to end: rows, terrain, surfaces, dark squares, bends, markers, energy."""
    check_plan(plan)
    lib = library()
    laid = stages.lay([(tid, "route", lib.tiles[tid], lib.tiles[tid].dark) for tid in plan.tiles], lib.hex_rows)
    profile, fall, bends, placements = laid.profile, laid.fall, laid.bends, laid.placements
    surface = "".join(lib.tiles[tid].surface for tid in plan.tiles)
    finish = len(profile)
    profile += "P" * lib.runout
    surface += "a" * lib.runout
    zones: list[tuple[int, int]] = []
    if plan.sprint is not None:
        zones.append((placements[plan.sprint].first_row, finish - 1))
    for b in plan.bonus:
        if placements[b].terrain != "M":  # Setup 1.3: none when the bonus is on a mountain
            zones.append((placements[b - 1].first_row, placements[b].first_row - 1))
    road = make_road(
        name=f"{GAME_ID}/{plan.name}",
        lanes=lib.lanes,
        profile=profile,
        surface=surface,
        finish=finish,
        sprint=zones[0][0] if plan.sprint is not None else None,
        feed=tuple(placements[i].first_row for i in plan.feed),
        mountains=tuple(Mountain(placements[i].first_row, c) for i, c in plan.mountains),
        bonus=tuple(placements[i].first_row for i in plan.bonus),
        energy=sum(p.milestone for p in placements),  # Setup 4 (R-HOTN-ENERGY)
        fall=fall,
        bends=bends,
        tiles=tuple(placements),
    )
    return Course(
        road=road,
        hex_rows=lib.hex_rows,
        sprint_zones=tuple(sorted(zones)),
        weather=tuple(sorted(placements[i].first_row for i in plan.weather)),
    )


def random_plan(hexagons: int, seed: int) -> StagePlan:
    """A random route honouring Setup 1: any road type before a mountain, one category marker
    at each mountain's foot, feed zones spread out, a bonus, sprint markers and two weather markers."""
    if not MIN_HEXAGONS <= hexagons <= MAX_HEXAGONS:
        raise InvalidSetup(
            "$.track",
            _(
                "a random route has {least} to {most} hexagons, got {count}",
                least=MIN_HEXAGONS,
                most=MAX_HEXAGONS,
                count=hexagons,
            ),
        )
    lib = library()
    rng = seed_state(seed)
    pool = sorted(lib.tiles)
    tiles: list[str] = []
    heading = 0.0
    for _step in range(hexagons):
        tid, rng = stages.draw_tile(pool, lambda t: lib.tiles[t].bend, heading, rng)
        pool.remove(tid)
        tiles.append(tid)
        heading += lib.tiles[tid].bend
    terrain = [lib.tiles[t].terrain for t in tiles]
    mountains = []
    for i in range(hexagons):
        if terrain[i] == "M" and (i == 0 or terrain[i - 1] != "M"):
            category, rng = below(rng, 4)
            mountains.append((i, category + 1))
    wanted = feed_zones_for(hexagons)
    feed = sorted({max(1, (k + 1) * hexagons // (wanted + 1)) for k in range(wanted)})
    bonus = [hexagons // 2] if hexagons // 2 > 1 else []
    sprint = None if terrain[-1] == "M" else hexagons - 1
    weather: list[int] = []
    for _marker in range(2):
        where, rng = below(rng, hexagons - 1)
        if where + 1 not in weather:
            weather.append(where + 1)
    return StagePlan(
        f"random-{hexagons}-{seed}",
        f"Random route ({hexagons} hexagons, seed {seed})",
        tuple(tiles),
        tuple(mountains),
        tuple(feed),
        tuple(bonus),
        sprint,
        tuple(sorted(weather)),
    )


def course_for(name: str) -> Course:
    """A shipped stage (``roubaix``) or a random one (``random-<hexagons>-<seed>``)."""
    return stages.shipped_or_random(
        name, lambda n: build_course(load_stage(n)), lambda h, s: build_course(random_plan(h, s))
    )


INLINE_EXTRA = ("sprint_zones", "weather", "hex_rows")


def course_from_inline(data: object, path: str = "$.track") -> Course:
    """A test road: ``leader1``'s inline object plus sprint zones, weather hexagons and hexagon size."""
    if not isinstance(data, dict):
        raise MalformedRecord(path, f"expected a track name '{GAME_ID}/<stage>' or an inline track object")
    base = {k: v for k, v in data.items() if k not in INLINE_EXTRA}
    road: Road = road_from_inline(base, path)
    hex_rows = data.get("hex_rows", 6)
    if type(hex_rows) is not int or not 1 <= hex_rows <= 60:
        raise MalformedRecord(f"{path}.hex_rows", "expected rows a hexagon, 1 to 60")
    rows = len(road.profile)
    zones: list[tuple[int, int]] = []
    raw_zones = data.get("sprint_zones", [])
    if not isinstance(raw_zones, list):
        raise MalformedRecord(f"{path}.sprint_zones", "expected a list of [first row, last row]")
    for i, z in enumerate(raw_zones):
        if not isinstance(z, list) or len(z) != 2 or any(type(v) is not int for v in z) or not 0 <= z[0] <= z[1] < rows:
            raise MalformedRecord(f"{path}.sprint_zones[{i}]", "expected [first row, last row] on this road")
        zones.append((z[0], z[1]))
    if road.sprint is not None:
        zones.append((road.sprint, road.finish - 1))
    raw_weather = data.get("weather", [])
    if not isinstance(raw_weather, list) or len(raw_weather) > MAX_WEATHER:
        raise MalformedRecord(f"{path}.weather", "expected at most 6 hexagon first rows")
    weather = []
    for i, w in enumerate(raw_weather):
        if type(w) is not int or not 0 < w < rows or w % hex_rows:
            raise MalformedRecord(
                f"{path}.weather[{i}]", f"expected the first row of a hexagon (a multiple of {hex_rows})"
            )
        weather.append(w)
    if len(set(weather)) != len(weather):
        raise MalformedRecord(f"{path}.weather", "at most one weather marker a hexagon")
    return Course(road=road, hex_rows=hex_rows, sprint_zones=tuple(sorted(zones)), weather=tuple(sorted(weather)))


def without_bonus(course: Course) -> Course:
    """A one-day race has no time bonus, and so no sprint zone before one (Setup 1.2)."""
    if not course.road.bonus:
        return course
    bonus_rows = set(course.road.bonus)
    zones = tuple(z for z in course.sprint_zones if z[1] + 1 not in bonus_rows)
    return replace(course, road=replace(course.road, bonus=()), sprint_zones=zones)


def parse_track(raw: object) -> tuple[Course, str]:
    if isinstance(raw, str):
        game, _, name = raw.partition("/")
        if game != GAME_ID or not name:
            raise MalformedRecord("$.track", f"expected '{GAME_ID}/<stage>' or an inline track, got {raw!r}")
        return course_for(name), raw
    return course_from_inline(raw), "inline"
