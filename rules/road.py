"""A cycling road: the track graph plus what Leader 1 and Hell of the North read from it.

Terrain per row (``P`` plain, ``R`` ground rise, ``M`` mountain pass, ``D`` downhill),
optional surface per row (``a`` asphalt, ``d`` damaged asphalt, ``c`` cobbles), fall
squares, mountain-category tokens, feed-zone tokens, bonus-time tokens, the sprint area,
the finish, and the hexagon tiles the road was built from (for drawing and energy).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rules.errors import MalformedRecord
from rules.track import Track, build_track, cell_id, parse_cell_id

TERRAINS = {"P": "plain", "R": "ground rise", "M": "mountain pass", "D": "downhill"}
SURFACES = {"a": "asphalt", "d": "damaged asphalt", "c": "cobbles"}


@dataclass(frozen=True)
class Mountain:
    row: int
    category: int


@dataclass(frozen=True)
class TilePlacement:
    """One hexagon of a route: which tile, where it starts and how many rows it spans."""

    tile: str
    kind: str  # "start", "route" or "arrival"
    terrain: str
    first_row: int
    rows: int
    milestone: int


@dataclass(frozen=True)
class Road:
    name: str
    track: Track
    profile: str
    surface: str | None
    finish: int
    sprint: int | None
    feed: tuple[int, ...]
    mountains: tuple[Mountain, ...]
    bonus: tuple[int, ...]
    energy: int
    fall: frozenset[str]
    dotted: frozenset[str]
    tiles: tuple[TilePlacement, ...] = ()

    @property
    def lanes(self) -> int:
        return self.track.lanes

    @property
    def last_row(self) -> int:
        return self.track.row_count - 1

    def terrain(self, row: int) -> str:
        return self.profile[min(max(row, 0), len(self.profile) - 1)]

    def is_fall(self, cid: str) -> bool:
        return cid in self.fall

    def category_at(self, row: int) -> int | None:
        """The mountain category in force on a mountain-pass row (the last token at or before it)."""
        if self.terrain(row) != "M":
            return None
        if 0 <= row < len(self._categories):
            return self._categories[row]
        return self._category_at(row)

    @cached_property
    def _categories(self) -> tuple[int | None, ...]:
        """``category_at`` of every row, worked out once per road (ride options ask it per square)."""
        return tuple(self._category_at(row) for row in range(len(self.profile)))

    def _category_at(self, row: int) -> int | None:
        if self.terrain(row) != "M":
            return None
        category: int | None = None
        for mountain in self.mountains:
            if mountain.row <= row and all(self.terrain(r) == "M" for r in range(mountain.row, row + 1)):
                category = mountain.category
        return category

    def in_sprint(self, row: int) -> bool:
        return self.sprint is not None and self.sprint <= row < self.finish


INLINE_FIELDS = {
    "lanes",
    "profile",
    "finish",
    "fall",
    "mountains",
    "feed",
    "sprint",
    "energy",
    "bends",
    "bonus",
    "surface",
    "name",
}


MAX_INLINE_ROWS = 1000  # a test road; the longest shipped stage has under 200 rows


def _int(value: object, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedRecord(path, f"expected a whole number from {low} to {high}, got {value!r}")
    return value


def _rows(value: object, path: str, rows: int) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise MalformedRecord(path, f"expected a list of row numbers, got {value!r}")
    return tuple(_int(v, f"{path}[{i}]", 0, rows - 1) for i, v in enumerate(value))


def road_from_inline(data: object, path: str = "$.track") -> Road:
    """Build a straight (or bent) test road from the record format's inline track object."""
    if not isinstance(data, dict):
        raise MalformedRecord(path, "expected a track name 'game/name' or an inline track object")
    for key in data:
        if key not in INLINE_FIELDS:
            raise MalformedRecord(f"{path}.{key}", f"unknown field; allowed: {', '.join(sorted(INLINE_FIELDS))}")
    for key in ("lanes", "profile", "finish"):
        if key not in data:
            raise MalformedRecord(f"{path}.{key}", "missing (an inline track needs lanes, profile and finish)")
    lanes = _int(data["lanes"], f"{path}.lanes", 1, 6)
    profile = data["profile"]
    if not isinstance(profile, str) or not profile or any(ch not in TERRAINS for ch in profile):
        raise MalformedRecord(f"{path}.profile", "expected a string of P, R, M and D, one letter per row")
    if len(profile) > MAX_INLINE_ROWS:
        raise MalformedRecord(f"{path}.profile", f"an inline road has at most {MAX_INLINE_ROWS} rows")
    rows = len(profile)
    finish = _int(data["finish"], f"{path}.finish", 1, rows - 1)
    surface = data.get("surface")
    if surface is not None and (
        not isinstance(surface, str) or len(surface) != rows or any(ch not in SURFACES for ch in surface)
    ):
        raise MalformedRecord(f"{path}.surface", f"expected {rows} letters of a, d and c (one per row)")
    fall: set[str] = set()
    raw_fall = data.get("fall", [])
    if not isinstance(raw_fall, list):
        raise MalformedRecord(f"{path}.fall", "expected a list of cell ids")
    for i, cid in enumerate(raw_fall):
        row, lane = parse_cell_id(cid, f"{path}.fall[{i}]")
        if row >= rows or lane >= lanes:
            raise MalformedRecord(f"{path}.fall[{i}]", f"cell {cid} is not on this {rows}x{lanes} road")
        fall.add(cid)
    mountains = []
    raw_mountains = data.get("mountains", [])
    if not isinstance(raw_mountains, list):
        raise MalformedRecord(f"{path}.mountains", "expected a list of {row, category}")
    for i, m in enumerate(raw_mountains):
        mp = f"{path}.mountains[{i}]"
        if not isinstance(m, dict) or set(m) != {"row", "category"}:
            raise MalformedRecord(mp, 'expected {"row": n, "category": 1-3}')
        mountains.append(
            Mountain(_int(m["row"], f"{mp}.row", 0, rows - 1), _int(m["category"], f"{mp}.category", 1, 4))
        )
    sprint = data.get("sprint")
    if sprint is not None:
        sprint = _int(sprint, f"{path}.sprint", 0, finish)
    if profile[finish] == "M":
        sprint = None  # A.3: no sprint area when the arrival is on a mountain pass
    energy_value = data.get("energy")
    # no milestones on an inline road: one milestone of 5 per 6 rows (docs/actions.md)
    energy = 5 * -(-rows // 6) if energy_value is None else _int(energy_value, f"{path}.energy", 0, 999)
    bends = []
    raw_bends = data.get("bends", [])
    if not isinstance(raw_bends, list) or len(raw_bends) > rows:
        raise MalformedRecord(f"{path}.bends", f"expected a list of at most {rows} bends")
    for i, b in enumerate(raw_bends):
        bp = f"{path}.bends[{i}]"
        if not isinstance(b, dict) or set(b) != {"row", "rows", "turn"}:
            raise MalformedRecord(bp, 'expected {"row": first row, "rows": n, "turn": degrees (left +)}')
        turn = b["turn"]
        if not isinstance(turn, (int, float)) or isinstance(turn, bool) or abs(turn) > 180:
            raise MalformedRecord(f"{bp}.turn", "expected degrees from -180 to 180")
        bends.append((_int(b["row"], f"{bp}.row", 0, rows - 1), _int(b["rows"], f"{bp}.rows", 1, rows), float(turn)))
    name = data.get("name", "inline")
    if not isinstance(name, str):
        raise MalformedRecord(f"{path}.name", "expected a string")
    return make_road(
        name=name,
        lanes=lanes,
        profile=profile,
        surface=surface,
        finish=finish,
        sprint=sprint,
        feed=_rows(data.get("feed", []), f"{path}.feed", rows),
        mountains=tuple(mountains),
        bonus=_rows(data.get("bonus", []), f"{path}.bonus", rows),
        energy=energy,
        fall=frozenset(fall),
        bends=bends,
    )


def make_road(
    *,
    name: str,
    lanes: int,
    profile: str,
    surface: str | None,
    finish: int,
    sprint: int | None,
    feed: tuple[int, ...],
    mountains: tuple[Mountain, ...],
    bonus: tuple[int, ...],
    energy: int,
    fall: frozenset[str],
    bends: list[tuple[int, int, float]],
    tiles: tuple[TilePlacement, ...] = (),
) -> Road:
    """Assemble a road; the dotted peloton squares follow the inside lane of bends, else the middle."""
    rows = len(profile)
    row_attrs: list[dict[str, object]] = []
    for r in range(rows):
        attrs: dict[str, object] = {"terrain": profile[r]}
        if surface is not None:
            attrs["surface"] = surface[r]
        row_attrs.append(attrs)
    cell_attrs = {cid: {"fall": True} for cid in fall}
    track = build_track(name, lanes, row_attrs, bends=bends, cell_attrs=cell_attrs)
    dotted = set()
    turning = [0.0] * rows
    for first, count, degrees in bends:
        for r in range(first, min(first + count, rows)):
            turning[r] += degrees
    for r in range(rows):
        lane = lanes // 2 if turning[r] == 0 else (0 if turning[r] > 0 else lanes - 1)
        dotted.add(cell_id(r, lane))
    return Road(
        name=name,
        track=track,
        profile=profile,
        surface=surface,
        finish=finish,
        sprint=sprint,
        feed=feed,
        mountains=mountains,
        bonus=bonus,
        energy=energy,
        fall=fall,
        dotted=frozenset(dotted),
        tiles=tiles,
    )
