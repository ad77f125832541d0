"""A board of several roads and a course marked out on it (rulings R-PEL-COURSE).

The physical board is a landscape with a network of roads; before a race the players mark one
course on it with signs. A board (``data/peloton/boards/<name>.json``) lists its roads (each a
length in hexagons with its bends) and the junctions where two roads meet (turnings and
crossroads). A course on a board gives its ``route``, a list of legs ``{"road", "from", "to"}``
joined at junctions, and its ``signs`` by hexagon from the start line. ``route_segments`` turns
that into the segments of the course format (docs/peloton-courses.md), refusing a route that
leaves the roads, jumps between roads where no junction is, or has no room for its start area
and run-out.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from rules.errors import MalformedRecord, UnknownTrack
from rules.peloton.segments import Segment
from rules.resources import game_data, json_file, json_names

BOARDS = game_data("peloton").joinpath("boards")
RUN_OUT = 16  # hexagons past the finish line (course.RUN_OUT)
SIGN_KEYS = ("terrain", "bonus", "checkpoint")
# each sign's values, checked here so that a bad one is named where it was written (signs, not segments)
SIGN_VALUES: dict[str, tuple[object, ...]] = {
    "terrain": ("level", "up", "down"),
    "bonus": ("speed", "uphill"),
    "checkpoint": (True, False),
}


@dataclass(frozen=True)
class Bend:
    at: int  # the road hexagon where its connecting hexagons begin
    hexagons: int
    angle: int  # +60 left, -60 right, riding the road forwards


@dataclass(frozen=True)
class Road:
    name: str
    hexagons: int
    bends: tuple[Bend, ...]


@dataclass(frozen=True)
class Junction:
    roads: tuple[str, str]
    at: tuple[int, int]
    angle: int  # the second road's forward heading minus the first's: ±60 or ±120 (positive: left)
    hexagons: int  # connecting hexagons of each 60° turning


@dataclass(frozen=True)
class Board:
    name: str
    width: int
    roads: dict[str, Road]
    junctions: tuple[Junction, ...]

    def junction(self, a: str, a_at: int, b: str, b_at: int) -> tuple[Junction, bool] | None:
        """The junction joining road ``a`` at ``a_at`` to road ``b`` at ``b_at``, and whether it is listed b to a."""
        for j in self.junctions:
            if j.roads == (a, b) and j.at == (a_at, b_at):
                return j, False
            if j.roads == (b, a) and j.at == (b_at, a_at):
                return j, True
        return None


def _int(raw: Mapping[str, object], key: str, low: int, high: int, path: str, default: int | None = None) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise MalformedRecord(f"{path}.{key}", f"expected a whole number from {low} to {high}, got {value!r}")
    return value


def _keys(raw: Mapping[str, object], allowed: tuple[str, ...], path: str) -> None:
    for key in raw:
        if key not in allowed:
            raise MalformedRecord(f"{path}.{key}", f"unknown field; allowed: {', '.join(allowed)}")


def parse_board(data: object, path: str = "$.board") -> Board:
    if not isinstance(data, dict):
        raise MalformedRecord(path, "a board is an object with roads and junctions")
    _keys(data, ("name", "about", "width", "roads", "junctions"), path)
    width = _int(data, "width", 2, 6, path, 3)
    raw_roads = data.get("roads")
    if not isinstance(raw_roads, dict) or not 1 <= len(raw_roads) <= 40:
        raise MalformedRecord(f"{path}.roads", "expected 1 to 40 roads by name")
    roads: dict[str, Road] = {}
    for name, spec in raw_roads.items():
        where = f"{path}.roads.{name}"
        if not re.fullmatch(r"[a-z0-9-]{1,24}", name) or not isinstance(spec, dict):
            raise MalformedRecord(where, "a road is named in lower case and is an object with hexagons and bends")
        _keys(spec, ("hexagons", "bends"), where)
        length = _int(spec, "hexagons", 1, 400, where)
        bends: list[Bend] = []
        for i, b in enumerate(spec.get("bends", [])):
            bw = f"{where}.bends[{i}]"
            if not isinstance(b, dict):
                raise MalformedRecord(bw, "expected a bend object")
            _keys(b, ("at", "turn", "hexagons"), bw)
            if b.get("turn") not in ("left", "right"):
                raise MalformedRecord(f"{bw}.turn", "expected left or right")
            n = _int(b, "hexagons", 1, 6, bw, 2)
            at = _int(b, "at", 1, length - n - 1, bw)
            if bends and at < bends[-1].at + bends[-1].hexagons:
                raise MalformedRecord(f"{bw}.at", "bends are listed along the road and do not overlap")
            bends.append(Bend(at, n, 60 if b["turn"] == "left" else -60))
        roads[name] = Road(name, length, tuple(bends))
    junctions: list[Junction] = []
    for i, j in enumerate(data.get("junctions", [])):
        jw = f"{path}.junctions[{i}]"
        if not isinstance(j, dict):
            raise MalformedRecord(jw, "expected a junction object")
        _keys(j, ("roads", "at", "angle", "hexagons"), jw)
        pair, where_at = j.get("roads"), j.get("at")
        if not (isinstance(pair, list) and len(pair) == 2 and all(r in roads for r in pair) and pair[0] != pair[1]):
            raise MalformedRecord(f"{jw}.roads", f"expected two different roads of {', '.join(roads)}")
        if not (isinstance(where_at, list) and len(where_at) == 2 and all(type(x) is int for x in where_at)):
            raise MalformedRecord(f"{jw}.at", "expected the hexagon of each road where they meet")
        spots: list[int] = where_at
        for k in range(2):
            if not 0 <= spots[k] <= roads[pair[k]].hexagons or _in_bend(roads[pair[k]], spots[k]):
                raise MalformedRecord(f"{jw}.at[{k}]", f"not a straight hexagon of road {pair[k]}")
        if j.get("angle") not in (60, -60, 120, -120):
            raise MalformedRecord(f"{jw}.angle", "expected 60 or 120 (left) or -60 or -120 (right)")
        n = _int(j, "hexagons", 1, 6, jw, 2)
        junctions.append(Junction((pair[0], pair[1]), (spots[0], spots[1]), j["angle"], n))
    return Board(str(data.get("name", "board"))[:40], width, roads, tuple(junctions))


def _in_bend(road: Road, at: int) -> bool:
    return any(b.at < at < b.at + b.hexagons for b in road.bends)


def load_board(name: object, path: str) -> Board:
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9-]{1,40}", name):
        raise UnknownTrack(path, f"expected a board name; boards: {', '.join(board_names())}")
    file = json_file(BOARDS, name)
    if file is None:
        raise UnknownTrack(path, f"unknown board {name!r}; boards: {', '.join(board_names())}")
    return parse_board(json.loads(file.read_text(encoding="utf-8")), f"board {name}")


def board_names() -> list[str]:
    return json_names(BOARDS)


def _normal(angle: int) -> int:
    angle %= 360
    return angle - 360 if angle > 180 else angle


def _leg_pieces(road: Road, start: int, end: int) -> list[Segment]:
    """A leg's straight runs and bends in riding order (a bend ridden backwards turns the other way)."""
    forward = end > start
    pieces: list[Segment] = []
    pos = start
    bends = sorted(road.bends, key=lambda b: b.at, reverse=not forward)
    for b in bends:
        first, last = (b.at, b.at + b.hexagons) if forward else (b.at + b.hexagons, b.at)
        inside = start <= first and last <= end if forward else end <= last and first <= start
        if not inside:
            continue
        if first != pos:
            pieces.append({"hexagons": abs(first - pos)})
        turn = b.angle if forward else -b.angle
        pieces.append({"turn": "left" if turn > 0 else "right", "hexagons": b.hexagons})
        pos = last
    if pos != end:
        pieces.append({"hexagons": abs(end - pos)})
    return pieces


def route_segments(data: Mapping[str, object], path: str) -> tuple[int, list[Segment]]:
    """The board's width and the segments of the course marked on it by ``route`` and ``signs``."""
    board = load_board(data.get("board"), f"{path}.board")
    route = data.get("route")
    if not isinstance(route, list) or not 1 <= len(route) <= 40:
        raise MalformedRecord(f"{path}.route", "expected a list of 1 to 40 legs {road, from, to}")
    pieces: list[Segment] = []
    previous: tuple[str, int, bool] | None = None  # road, where the last leg ended, ridden backwards
    for i, leg in enumerate(route):
        where = f"{path}.route[{i}]"
        if not isinstance(leg, dict):
            raise MalformedRecord(where, "expected a leg {road, from, to}")
        _keys(leg, ("road", "from", "to"), where)
        road = board.roads.get(str(leg.get("road")))
        if road is None:
            raise MalformedRecord(f"{where}.road", f"no such road on board {board.name}: {', '.join(board.roads)}")
        start = _int(leg, "from", 0, road.hexagons, where)
        end = _int(leg, "to", 0, road.hexagons, where)
        if start == end:
            raise MalformedRecord(f"{where}.to", "a leg rides at least one hexagon")
        for key, at in (("from", start), ("to", end)):
            if _in_bend(road, at):
                raise MalformedRecord(f"{where}.{key}", f"hexagon {at} of road {road.name} is inside a bend")
        backwards = end < start
        if previous is None:
            room = road.hexagons - start if backwards else start
            if room < _int(data, "start_strips", 1, 24, path, 8 if data.get("discipline", "leg") == "leg" else 2):
                raise MalformedRecord(f"{where}.from", "the start area behind the line must lie on the road")
        else:
            pieces += _junction_pieces(board, previous, (road.name, start, backwards), where)
        pieces += _leg_pieces(road, start, end)
        previous = (road.name, end, backwards)
    assert previous is not None
    last_road, last_at, last_back = previous
    if (last_at if last_back else board.roads[last_road].hexagons - last_at) < RUN_OUT:
        where = f"{path}.route[{len(route) - 1}].to"
        raise MalformedRecord(where, f"{RUN_OUT} hexagons of road must follow the finish")
    return board.width, _with_signs(pieces, data.get("signs", []), f"{path}.signs")


def _junction_pieces(
    board: Board, came: tuple[str, int, bool], going: tuple[str, int, bool], where: str
) -> list[Segment]:
    road_in, at_in, back_in = came
    road_out, at_out, back_out = going
    found = board.junction(road_in, at_in, road_out, at_out)
    if found is None:
        raise MalformedRecord(
            f"{where}.from", f"no junction joins road {road_in} at {at_in} to road {road_out} at {at_out}"
        )
    j, flipped = found
    angle = -j.angle if flipped else j.angle
    turn = _normal(angle + 180 * back_out - 180 * back_in)
    if turn not in (60, -60, 120, -120):
        raise MalformedRecord(f"{where}.road", "the route turns at a junction (60° or 120°), never straight or back")
    length = board.roads[road_in].hexagons
    crossroads = at_in > 0 if back_in else at_in < length  # the road it leaves goes straight on
    side = "left" if turn > 0 else "right"
    one: Segment = {"turn": side, "hexagons": j.hexagons}
    if crossroads:
        one["crossroads"] = True
    return [one] * (abs(turn) // 60)


def _with_signs(pieces: list[Segment], signs: object, path: str) -> list[Segment]:
    """Split the straight runs where a sign stands and put the sign on the segment it starts."""
    if not isinstance(signs, list) or len(signs) > 100:
        raise MalformedRecord(path, "expected a list of signs {at, terrain | bonus | checkpoint}")
    total = sum(int(p["hexagons"]) for p in pieces)
    marks: dict[int, Segment] = {}
    for i, sign in enumerate(signs):
        where = f"{path}[{i}]"
        if not isinstance(sign, dict):
            raise MalformedRecord(where, "expected a sign object")
        _keys(sign, ("at", *SIGN_KEYS), where)
        for key, allowed in SIGN_VALUES.items():
            if key in sign and not any(type(sign[key]) is type(v) and sign[key] == v for v in allowed):
                shown = " or ".join(json.dumps(v) for v in allowed)
                raise MalformedRecord(f"{where}.{key}", f"expected {shown}, got {json.dumps(sign[key])[:40]}")
        at = _int(sign, "at", 0, total - 1, where)
        _mark(marks.setdefault(at, {}), sign)
    out: list[Segment] = []
    at = 0
    for p in pieces:
        n = int(p["hexagons"])
        inside = [m for m in marks if at < m < at + n]
        if "turn" in p and inside:
            raise MalformedRecord(path, f"a sign at hexagon {inside[0]} stands inside a turning")
        cuts = [at, *sorted(inside), at + n]
        for a, b in itertools.pairwise(cuts):
            first: Segment = p if a == at else {"hexagons": 0}
            out.append({**first, "hexagons": b - a, **marks.get(a, Segment())})
        at += n
    return out


def _mark(mark: Segment, sign: Mapping[str, object]) -> None:
    """A checked sign's values (``SIGN_VALUES``) on the segment it starts, in the sign's order."""
    for key, value in sign.items():
        if key == "terrain":
            mark["terrain"] = str(value)
        elif key == "bonus":
            mark["bonus"] = str(value)
        elif key == "checkpoint":
            mark["checkpoint"] = bool(value)


def route_offsets(board: Board, route: tuple[tuple[str, int, int], ...]) -> list[int]:
    """Where each leg of a (valid) route begins, in hexagons from the start line."""
    offsets: list[int] = []
    at = 0
    previous: tuple[str, int, bool] | None = None
    for road, start, end in route:
        going = (road, start, end < start)
        if previous is not None:
            at += sum(int(p["hexagons"]) for p in _junction_pieces(board, previous, going, "$"))
        offsets.append(at)
        at += abs(end - start)
        previous = (road, end, end < start)
    return offsets
