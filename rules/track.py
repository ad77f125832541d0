"""The shared track graph: a road of cells in rows and lanes, with successors and polygons.

Every game is played on cells ``<row>.<lane>``: ``row`` counts from 0 at the start line
along the road, ``lane`` from 0 at the left edge in the direction of travel. A cell knows
its forward successors (straight and diagonal by default, listed explicitly where a
builder says otherwise), its attributes (terrain, surface, fall square, dotted square,
corner, pit lane... each game reads its own) and a polygon in track units for drawing.

Tracks are built from compact data by builders (``build_track``); they never change.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from rules.errors import MalformedRecord

Point = tuple[float, float]
MAX_SPAN = 6  # the most rows one space of a lane may span (a corner's inside lane)
CELL_ID = re.compile(r"^(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})$")  # bounded: int() of a long text fails


def cell_id(row: int, lane: int) -> str:
    return f"{row}.{lane}"


def whole_number(value: object, path: str, low: int, high: int) -> int:
    """An integer from ``low`` to ``high`` (not a bool, not 2.0), or MalformedRecord at ``path``."""
    if type(value) is not int or not low <= value <= high:
        raise MalformedRecord(path, f"expected a whole number from {low} to {high}, got {value!r}")
    return value


def parse_cell_id(text: object, path: str = "$") -> tuple[int, int]:
    """``"14.2"`` -> ``(14, 2)``; anything else is refused with its JSON path."""
    if not isinstance(text, str) or not CELL_ID.match(text):
        raise MalformedRecord(path, f"expected a cell id '<row>.<lane>' such as '14.2', got {text!r}")
    row, lane = text.split(".")
    return int(row), int(lane)


@dataclass(frozen=True)
class Cell:
    id: str
    row: int
    lane: int
    successors: tuple[str, ...]
    polygon: tuple[Point, ...]
    attrs: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @cached_property
    def centre(self) -> Point:
        """The polygon's mean point (worked out once: boards ask it for every cell, every board)."""
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @cached_property
    def lanes_ahead(self) -> tuple[tuple[int, str], ...]:
        """(lane, cell id on the next row) for each successor's lane, in the successors' order.

        For games that move one row a step (the Leader 1 family's path search asks it for
        every square of every path)."""
        lanes = (int(s.split(".")[1]) for s in self.successors)
        return tuple((lane, cell_id(self.row + 1, lane)) for lane in lanes)


@dataclass(frozen=True)
class Track:
    """A built road: immutable, shared by every race that runs on it."""

    name: str
    lanes: int
    row_count: int
    cells: Mapping[str, Cell]
    # per-row centre line and heading, for drawing riders beside the road and markers
    centres: tuple[Point, ...]
    headings: tuple[float, ...]

    def cell(self, row: int, lane: int) -> Cell | None:
        return self.cells.get(cell_id(row, lane))

    def row_cells(self, row: int) -> list[Cell]:
        return [c for lane in range(self.lanes) if (c := self.cell(row, lane)) is not None]

    def has(self, cid: str) -> bool:
        return cid in self.cells

    def side_point(self, row: int, lane: int, outside: float = 0.9) -> Point:
        """A point just off the road beside ``row`` on the side of ``lane`` (fallen riders)."""
        row = max(0, min(row, self.row_count - 1))
        cx, cy = self.centres[row]
        heading = self.headings[row]
        left = 1 if lane < self.lanes / 2 else -1
        offset = left * (self.lanes / 2 + outside)
        return (cx - math.sin(heading) * offset, cy + math.cos(heading) * offset)


def _turns(row_count: int, bends: Iterable[tuple[int, int, float]]) -> list[float]:
    """Turn in radians at each row; a bend ``(first_row, rows, degrees)`` spreads its turn evenly."""
    turns = [0.0] * row_count
    for first, rows, degrees in bends:
        for r in range(first, min(first + rows, row_count)):
            turns[r] += math.radians(degrees) / rows
    return turns


def build_track(
    name: str,
    lanes: int,
    row_attrs: Sequence[Mapping[str, object]],
    *,
    bends: Iterable[tuple[int, int, float]] = (),
    cell_attrs: Mapping[str, Mapping[str, object]] | None = None,
    successors: Mapping[str, tuple[str, ...]] | None = None,
    spaces: Mapping[int, Sequence[int]] | None = None,
    closed: bool = False,
) -> Track:
    """Build a road of ``len(row_attrs)`` rows and ``lanes`` lanes.

    By default every lane has a space on every row; ``spaces`` gives, per lane, the rows where
    it has one (a corner's inside lane is shorter than its outside lane; a pit lane runs
    along part of the track only). A space spans the rows up to its lane's next space. Moves
    go to the next space of the same lane or of a lane beside it, unless ``successors`` lists
    a cell's successors explicitly. ``closed`` joins the last row to the first (a circuit).
    ``bends`` curve the drawing; ``cell_attrs`` adds attributes to single cells.
    """
    row_count = len(row_attrs)
    turns = _turns(row_count, bends)
    # boundaries between rows: point on the centre line and heading there
    points: list[Point] = [(0.0, 0.0)]
    headings: list[float] = [0.0]
    centres: list[Point] = []
    row_headings: list[float] = []
    for r in range(row_count):
        h0 = headings[-1]
        mid = h0 + turns[r] / 2
        x, y = points[-1]
        centres.append((x + math.cos(mid) * 0.5, y + math.sin(mid) * 0.5))
        row_headings.append(mid)
        points.append((x + math.cos(mid), y + math.sin(mid)))
        headings.append(h0 + turns[r])

    # the road's lane edges at every boundary: ``edges[b][k]`` is ``lanes / 2 - k`` to the left
    # of the centre line (left of the direction of travel is +90 degrees); a lane's polygon
    # reads its left (k = lane) and right (k = lane + 1) edges
    offsets = [lanes / 2 - k for k in range(lanes + 1)]
    edges: list[list[Point]] = []
    for (x, y), h in zip(points, headings, strict=True):
        sin, cos = math.sin(h), math.cos(h)
        edges.append([(x - sin * offset, y + cos * offset) for offset in offsets])

    lane_rows = {
        lane: sorted(spaces[lane]) if spaces is not None and lane in spaces else list(range(row_count))
        for lane in range(lanes)
    }

    def next_space(lane: int, row: int) -> str | None:
        rows = lane_rows[lane]
        after = bisect.bisect_right(rows, row)  # the rows are sorted: the first one past ``row``
        if after < len(rows):
            return cell_id(rows[after], lane)
        if closed and lane_rows[lane] and lane_rows[lane][0] < row:
            return cell_id(lane_rows[lane][0], lane)
        return None

    extra = cell_attrs or {}
    explicit = successors or {}
    cells: dict[str, Cell] = {}
    ids = [[cell_id(r, lane) for lane in range(lanes)] for r in range(row_count)]
    for lane in range(lanes):
        rows = lane_rows[lane]
        for i, r in enumerate(rows):
            cid = ids[r][lane]
            end = rows[i + 1] if i + 1 < len(rows) else (row_count if closed or not spaces else r + 1)
            if end - r > MAX_SPAN:
                end = r + 1  # a lane that stops (a pit lane) does not stretch over the gap
            end = min(max(end, r + 1), row_count)
            # start-left, start-right, along the right edge, back along the left edge
            polygon = (
                edges[r][lane],
                *(edges[b][lane + 1] for b in range(r, end + 1)),
                *(edges[b][lane] for b in range(end, r, -1)),
            )
            if cid in explicit:
                succ = explicit[cid]
            elif spaces is None and r + 1 < row_count:  # every lane on every row: the next row's
                succ = tuple(ids[r + 1][lane + d] for d in (0, -1, 1) if 0 <= lane + d < lanes)
            else:
                succ = tuple(
                    n for d in (0, -1, 1) if 0 <= lane + d < lanes and (n := next_space(lane + d, r)) is not None
                )
            attrs = {**row_attrs[r], **extra.get(cid, {})}
            cells[cid] = Cell(cid, r, lane, succ, polygon, MappingProxyType(attrs))
    return Track(
        name=name,
        lanes=lanes,
        row_count=row_count,
        cells=MappingProxyType(cells),
        centres=tuple(centres),
        headings=tuple(row_headings),
    )
