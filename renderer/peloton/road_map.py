"""The board of roads around a Peloton course: the hexagons of every road not ridden, placed in the
course's own coordinates so the painter can draw them, faded, behind the course (issue 16: "the
board is a drawn map of the course's roads around the riders").

Each road of the board is laid out on its own (its bends as in the course format), then placed:
a road the route rides is placed where the course rides it, so its unridden parts (the road going
on past a crossroads, the stretch behind the start) continue the course exactly; any other road
is placed from a placed road through a junction, its connecting hexagons turning from the first
road's forward heading to the second's (rulings R-PEL-MAP). A road is placed from the first of its
junctions in the board's list that reaches it; a junction the route does not take is drawn only
where its connecting hexagons meet the road they join (``board_gaps`` checks that a board's loops
close; a course that turns the other way round at a junction can still leave one apart).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from renderer.camera import View
from renderer.palette import RGB
from renderer.peloton.geometry import Geometry
from rules.peloton.board import Board, Junction, Road, load_board, route_offsets
from rules.peloton.course import RUN_OUT, Course, Turning, make

Point = tuple[float, float]
MEETS = 1.25  # hexagons: a junction's connecting hexagons are drawn when they end this close to the road
Box = tuple[int, int, int, int]
Hexagon = tuple[Point, tuple[Point, ...]]  # centre and corners, in the course's hexagon units


@dataclass(frozen=True)
class Placement:
    """A rigid map from a road's own coordinates to the course's: turn by ``angle`` degrees, then shift."""

    angle: float
    dx: float
    dy: float

    def __call__(self, p: Point) -> Point:
        a = math.radians(self.angle)
        return (p[0] * math.cos(a) - p[1] * math.sin(a) + self.dx, p[0] * math.sin(a) + p[1] * math.cos(a) + self.dy)


def _strip(name: str, width: int, length: int, turnings: tuple[Turning, ...]) -> Course:
    """A bare road as a course (start and finish at its ends) so that it has a geometry."""
    return Course(
        name=name,
        discipline="leg",
        width=width,
        hexagons=length,
        start=0,
        finish=2 * length,
        end=2 * length,
        terrain=((0, "level"),),
        turnings=turnings,
        bonuses=(),
        checkpoints=(),
        energy=0,
        constant=0,
        wind=0,
    )


def road_course(road: Road, width: int) -> Course:
    turnings = tuple(
        Turning(2 * b.at, 2 * (b.at + b.hexagons) - 1, "left" if b.angle > 0 else "right") for b in road.bends
    )
    return _strip(road.name, width, road.hexagons, turnings)


def arc_course(junction: Junction, width: int) -> Course:
    """A junction's connecting hexagons, ridden from the first road's forward heading to the second's."""
    side = "left" if junction.angle > 0 else "right"
    n = junction.hexagons
    turnings = tuple(Turning(2 * n * k, 2 * n * (k + 1) - 1, side) for k in range(abs(junction.angle) // 60))
    return _strip("junction", width, n * len(turnings), turnings)


def straight_heading(road: Road, at: int) -> float:
    """The road's own heading at its hexagon ``at`` (a junction's hexagon: never inside a bend)."""
    return float(sum(b.angle for b in road.bends if b.at + b.hexagons <= at))


def _placement(local: Point, local_heading: float, point: Point, heading: float) -> Placement:
    """The placement that puts ``local`` on ``point`` and turns ``local_heading`` to ``heading``."""
    angle = heading - local_heading
    turned = Placement(angle, 0.0, 0.0)(local)
    return Placement(angle, point[0] - turned[0], point[1] - turned[1])


def _registered(local: tuple[Point, Point], world: tuple[Point, Point]) -> Placement:
    """The placement that carries the two ``local`` points onto the two ``world`` points."""
    a = math.degrees(math.atan2(local[1][1] - local[0][1], local[1][0] - local[0][0]))
    b = math.degrees(math.atan2(world[1][1] - world[0][1], world[1][0] - world[0][0]))
    return _placement(local[0], a, world[0], b)


def _hexagons(geo: Geometry, place: Placement, keep: Iterable[int] | None = None) -> Iterator[Hexagon]:
    course = geo.course
    for s in range(course.end + 1) if keep is None else keep:
        for lane in range(course.width):
            if (s - lane) % 2 == 0:
                cell = make(s, lane)
                centre = place(geo.centre(s, lane))
                yield centre, tuple(place(p) for p in geo.hexagon(cell, 0.97))


def board_map(course: Course) -> tuple[Hexagon, ...]:
    """The hexagons of the board's roads that the course does not ride (none for a course without a board)."""
    if not course.board or not course.route:
        return ()
    return _board_map(course)


def _mid(geo: Geometry, s: int) -> Point:
    return geo.centre(s, (geo.course.width - 1) / 2)


@dataclass(frozen=True)
class Layout:
    """Every road of a course's board placed in the course's coordinates."""

    board: Board
    roads: dict[str, Geometry]  # each road in its own coordinates
    placed: dict[str, Placement]
    ridden: dict[str, list[tuple[int, int]]]  # the stretches the course draws, in each road's own steps
    used: set[int]  # the junctions (by index) the route turns at


def layout(course: Course) -> Layout:
    """The board's roads placed around the course (docstring of the module)."""
    board = load_board(course.board, "$.track.board")
    roads = {name: Geometry(road_course(road, board.width)) for name, road in board.roads.items()}
    placed, ridden, used = _route_roads(board, course, roads)
    _spread(board, roads, placed)
    return Layout(board, roads, placed, ridden, used)


@lru_cache(maxsize=16)
def _board_map(course: Course) -> tuple[Hexagon, ...]:
    lay = layout(course)
    board, roads, placed, ridden, used = lay.board, lay.roads, lay.placed, lay.ridden, lay.used
    out: list[Hexagon] = []
    for name, geo in roads.items():
        if name in placed:
            spans = ridden.get(name, [])
            keep = [s for s in range(geo.course.end + 1) if not any(lo <= s <= hi for lo, hi in spans)]
            out.extend(_hexagons(geo, placed[name], keep))
    for k, j in enumerate(board.junctions):
        if k not in used and all(r in placed for r in j.roads) and _meets(lay, j):
            arc = Geometry(arc_course(j, board.width))
            out.extend(_hexagons(arc, _arc_from(board, roads, placed, j, arc), range(1, arc.course.end)))
    return tuple(out)


def _gap(lay: Layout, j: Junction) -> tuple[float, float]:
    """How far (hexagons) and how much turned (degrees) the junction's connecting hexagons, drawn from
    its first road, end from its second road's hexagon."""
    b = j.roads[1]
    point, heading = _arc_end(lay.board, lay.roads, lay.placed, j)
    there = lay.placed[b](_mid(lay.roads[b], 2 * j.at[1]))
    turned = (heading - lay.placed[b].angle - straight_heading(lay.board.roads[b], j.at[1])) % 360
    return math.dist(point, there), min(turned, 360 - turned)


def _meets(lay: Layout, j: Junction) -> bool:
    """Whether a junction the route does not take joins its roads where they are drawn. A route that
    takes a junction the other way round than its first road's forwards (R-PEL-MAP) places the roads
    a few hexagons from where the board's own layout has them; such a connection is left out."""
    far, turned = _gap(lay, j)
    return far < MEETS and turned < 1.0


def _arc_from(
    board: Board, roads: dict[str, Geometry], placed: dict[str, Placement], j: Junction, arc: Geometry
) -> Placement:
    """The junction's connecting hexagons placed from its first road's hexagon, heading that road's way."""
    a = j.roads[0]
    heading = placed[a].angle + straight_heading(board.roads[a], j.at[0])
    return _placement(_mid(arc, 0), 0.0, placed[a](_mid(roads[a], 2 * j.at[0])), heading)


def _route_roads(
    board: Board, course: Course, roads: dict[str, Geometry]
) -> tuple[dict[str, Placement], dict[str, list[tuple[int, int]]], set[int]]:
    """The roads the route rides, placed where the course rides them; the stretches of each that the
    course draws (start area and run-out included), in the road's own half-hexagon steps; the
    junctions the route turns at."""
    course_geo = Geometry(course)
    placed: dict[str, Placement] = {}
    ridden: dict[str, list[tuple[int, int]]] = {}
    used: set[int] = set()
    route = course.route
    for i, ((name, first, last), offset) in enumerate(zip(route, route_offsets(board, route), strict=True)):
        s = course.start + 2 * offset
        step = -1 if last < first else 1
        local = (_mid(roads[name], 2 * first), _mid(roads[name], 2 * first + 2 * step))
        placed.setdefault(name, _registered(local, (_mid(course_geo, s), _mid(course_geo, s + 2))))
        behind = course.start if i == 0 else 0
        ahead = 2 * RUN_OUT if i == len(route) - 1 else 0
        ends = (2 * first - step * behind, 2 * last + step * ahead)
        ridden.setdefault(name, []).append((min(ends), max(ends)))
        if i:
            found = board.junction(route[i - 1][0], route[i - 1][2], name, first)
            if found is not None:
                used.add(board.junctions.index(found[0]))
    return placed, ridden, used


def _joining(board: Board, placed: dict[str, Placement]) -> Iterator[Junction]:
    """Junctions joining a placed road to one not yet placed, in the board's order, until none is left
    (the caller places the other road of each before asking for the next)."""
    growing = True
    while growing:
        growing = False
        for j in board.junctions:
            if (j.roads[0] in placed) != (j.roads[1] in placed):
                yield j
                growing = True


def _spread(board: Board, roads: dict[str, Geometry], placed: dict[str, Placement]) -> None:
    """Place every road not yet placed from a placed one, through the first junction that joins them."""
    for j in _joining(board, placed):  # the other roads, each from the first junction that reaches it
        a, b = j.roads
        arc = Geometry(arc_course(j, board.width))
        if a in placed:
            arc_place = _arc_from(board, roads, placed, j, arc)
            heading = arc_place.angle + j.angle
            placed[b] = _placement(
                _mid(roads[b], 2 * j.at[1]),
                straight_heading(board.roads[b], j.at[1]),
                arc_place(_mid(arc, arc.course.end)),
                heading,
            )
        else:
            heading = placed[b].angle + straight_heading(board.roads[b], j.at[1]) - j.angle
            arc_place = _placement(
                _mid(arc, arc.course.end), float(j.angle), placed[b](_mid(roads[b], 2 * j.at[1])), heading + j.angle
            )
            placed[a] = _placement(
                _mid(roads[a], 2 * j.at[0]), straight_heading(board.roads[a], j.at[0]), arc_place(_mid(arc, 0)), heading
            )


def _arc_end(
    board: Board, roads: dict[str, Geometry], placed: dict[str, Placement], j: Junction
) -> tuple[Point, float]:
    """Where a junction's connecting hexagons end, and heading which way, drawn from its first road."""
    arc = Geometry(arc_course(j, board.width))
    place = _arc_from(board, roads, placed, j, arc)
    return place(_mid(arc, arc.course.end)), place.angle + j.angle


def board_gaps(board: Board) -> list[tuple[float, float]]:
    """For each junction of a board laid out from its first road: how far (hexagons) and how much
    turned (degrees) its connecting hexagons end from the second road's hexagon. A board whose loops
    of roads close has every gap near zero."""
    roads = {name: Geometry(road_course(road, board.width)) for name, road in board.roads.items()}
    placed = {next(iter(board.roads)): Placement(0.0, 0.0, 0.0)}
    _spread(board, roads, placed)
    lay = Layout(board, roads, placed, {}, set())
    return [_gap(lay, j) for j in board.junctions]


MAP_ROAD: RGB = (223, 226, 216)  # the board's other roads: a shade darker than the landscape, lighter than the course
MAP_EDGE: RGB = (204, 208, 198)


def draw_map(draw: ImageDraw.ImageDraw, course: Course, view: View, box: Box, drawn: tuple[int, int]) -> int:
    """The board's roads around the course inside ``box``, faded and unlabelled, under the course;
    the course's own hexagons outside ``drawn`` (half-hexagon steps) are drawn the same way. Nothing for
    a course without a board. Returns how many hexagons were drawn."""
    if not course.board:
        return 0
    margin = view.scale
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    count = 0
    for centre, corners in (*board_map(course), *_course_beyond(course, drawn)):
        x, y = view.px(centre)
        if x0 <= x <= x1 and y0 <= y <= y1:
            draw.polygon([view.px(p) for p in corners], fill=MAP_ROAD, outline=MAP_EDGE)
            count += 1
    return count


def _course_beyond(course: Course, drawn: tuple[int, int]) -> Iterator[Hexagon]:
    first, last = drawn
    return (hexagon for s, hexagon in _course_hexagons(course) if not first <= s <= last)


@lru_cache(maxsize=16)
def _course_hexagons(course: Course) -> tuple[tuple[int, Hexagon], ...]:
    """Every hexagon of the course with its half-hexagon step, computed once per course."""
    geo = Geometry(course)
    still = Placement(0.0, 0.0, 0.0)
    return tuple((s, hexagon) for s in range(course.end + 1) for hexagon in _hexagons(geo, still, (s,)))
