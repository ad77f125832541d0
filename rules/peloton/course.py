"""Peloton's roads: hexagons in indented crosswise strips, built from a course's compact data.

A road of ``width`` lanes is a band of hexagons. A cell is ``<s>.<lane>``: ``s`` counts half
hexagons along the road (a straight step advances 2, a crosswise step 1 and changes lane by
one), so ``s`` and ``lane`` have the same parity and the strips across the road zigzag
(rulings R-PEL-GEOMETRY). Lane 0 is the left edge in the direction of travel. Turnings bend the
band by 60° to the left or right; their cells carry the speed limit of their trail (4, 5, 7 from
the inside lane out, R-PEL-TRAILS). Signs (terrain, bonus lines, checkpoints, finish) are
positions in ``s``. The course format is docs/peloton-courses.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from rules.errors import MalformedRecord, UnknownTrack
from rules.i18n import _
from rules.peloton.board import route_segments
from rules.peloton.random_board import board_course_data
from rules.peloton.segments import Segment
from rules.resources import game_data, json_file, json_names
from rules.rng import below

DATA = game_data("peloton")
TERRAINS = {"level": 3, "up": 2, "down": 4}  # basic speed by terrain (II.3a)
TRAIL_LIMITS = (4, 5, 7)  # the safe speed of a turning's lanes from the inside out (IV.2)
DISCIPLINES = ("leg", "itt", "ttt")
RUN_OUT = 16  # hexagons of road past the finish line ("leave sufficient space behind it")
CELL = re.compile(r"^(0|[1-9][0-9]{0,4})\.([0-9])$")
Point = tuple[float, float]


@dataclass(frozen=True)
class Turning:
    first: int  # s of the turning's first strip
    last: int  # s of its last strip (inclusive)
    side: str  # "left" or "right"
    crossroads: bool = False

    def limit(self, lane: int, width: int) -> int:
        """The safe speed on ``lane``: the inside lane is the tightest trail."""
        from_inside = lane if self.side == "left" else width - 1 - lane
        return TRAIL_LIMITS[min(from_inside, len(TRAIL_LIMITS) - 1)]


@dataclass(frozen=True)
class Bonus:
    at: int  # s of the line: crossed by reaching s > at
    kind: str  # "speed" (violet) or "uphill" (green)


@dataclass(frozen=True)
class Course:
    name: str
    discipline: str
    width: int
    hexagons: int  # from the start line to the finish line
    start: int  # s of the start line: cells with s < start are the start area
    finish: int  # s of the finish line: a cyclist has finished once s > finish
    end: int  # last s of the road (the run-out)
    terrain: tuple[tuple[int, str], ...]  # (from s, terrain), ascending
    turnings: tuple[Turning, ...]
    bonuses: tuple[Bonus, ...]
    checkpoints: tuple[int, ...]  # s of the time-trial energy checkpoints
    energy: int
    constant: int  # minutes added to every time (III, V)
    wind: int  # 0 none, 1-4 (the wind card's direction)
    board: str = ""  # the board of roads the course is marked on ("" if written as segments)
    route: tuple[tuple[str, int, int], ...] = ()  # its legs (road, from, to) on that board

    def has(self, cell: str) -> bool:
        m = CELL.match(cell)
        if not m:
            return False
        s, lane = int(m[1]), int(m[2])
        return 0 <= s <= self.end and lane < self.width and (s - lane) % 2 == 0

    def terrain_at(self, s: int) -> str:
        current = "level"
        for first, kind in self.terrain:
            if s >= first:
                current = kind
        return current

    def turning_at(self, s: int) -> Turning | None:
        return next((t for t in self.turnings if t.first <= s <= t.last), None)

    def next_turning(self, s: int) -> Turning | None:
        return next((t for t in self.turnings if t.last >= s), None)

    def forward(self, cell: str) -> list[tuple[str, str]]:
        """The 2-3 forward neighbours of ``cell`` with their direction: ``left``, ``straight``, ``right``."""
        s, lane = split(cell)
        out = []
        if lane > 0 and s + 1 <= self.end:
            out.append(("left", make(s + 1, lane - 1)))
        if s + 2 <= self.end:
            out.append(("straight", make(s + 2, lane)))
        if lane < self.width - 1 and s + 1 <= self.end:
            out.append(("right", make(s + 1, lane + 1)))
        return out

    def ahead(self, cell: str) -> str | None:
        s, lane = split(cell)
        return make(s + 2, lane) if s + 2 <= self.end else None

    def crosswise_ahead(self, cell: str, side: str) -> str | None:
        s, lane = split(cell)
        lane += -1 if side == "left" else 1
        return make(s + 1, lane) if 0 <= lane < self.width and s + 1 <= self.end else None

    def cells(self) -> list[str]:
        return [make(s, lane) for s in range(self.end + 1) for lane in range(self.width) if (s - lane) % 2 == 0]

    def start_cells(self) -> list[str]:
        """The start area from the line backwards: front strip first, left lane first in a strip."""
        cells = [make(s, lane) for s in range(self.start) for lane in range(self.width) if (s - lane) % 2 == 0]
        return sorted(cells, key=lambda c: (-split(c)[0], split(c)[1]))

    def heading(self, s: float) -> float:
        """The road's heading in degrees (0 = east, counter-clockwise) at ``s``."""
        angle = 0.0
        for t in self.turnings:
            span = t.last - t.first + 2
            sign = 60.0 if t.side == "left" else -60.0
            if s >= t.last + 1:
                angle += sign
            elif s > t.first - 1:
                angle += sign * (s - t.first + 1) / span
        return angle

    def centreline(self) -> list[Point]:
        """The centre of the road at every s (half-hexagon steps of 0.5 hexagon)."""
        points = [(0.0, 0.0)]
        for s in range(1, self.end + 1):
            a = math.radians(self.heading(s - 0.5))
            x, y = points[-1]
            points.append((x + 0.5 * math.cos(a), y + 0.5 * math.sin(a)))
        return points


def make(s: int, lane: int) -> str:
    return f"{s}.{lane}"


def split(cell: str) -> tuple[int, int]:
    s, _, lane = cell.partition(".")
    return int(s), int(lane)


def _int(data: Mapping[str, object], key: str, low: int, high: int, default: int, path: str) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise MalformedRecord(f"{path}.{key}", f"expected a whole number from {low} to {high}, got {value!r}")
    return value


DEFAULTS = {"leg": (20, 260), "itt": (0, 0), "ttt": (20, 95)}  # energy, constant (minutes)


def build_course(data: object, path: str = "$.track") -> Course:
    """A course from its data (docs/peloton-courses.md); anything malformed names its JSON path."""
    if not isinstance(data, dict):
        raise MalformedRecord(path, "a course is an object with width and segments")
    allowed = {"name", "discipline", "width", "start_strips", "energy", "constant", "wind", "segments", "about"}
    if "board" in data:  # a course marked out on a board of roads (rules/peloton/board.py)
        allowed = (allowed - {"segments", "width"}) | {"board", "route", "signs"}
    for key in data:
        if key not in allowed:
            raise MalformedRecord(f"{path}.{key}", f"unknown course field; allowed: {', '.join(sorted(allowed))}")
    board = ""
    route: tuple[tuple[str, int, int], ...] = ()
    if "board" in data:
        width, marked = route_segments(data, path)
        board = str(data["board"])
        route = tuple((str(leg["road"]), int(leg["from"]), int(leg["to"])) for leg in data["route"])
        data = {k: v for k, v in data.items() if k not in ("board", "route", "signs")}
        data.update(width=width, segments=marked)
    discipline = data.get("discipline", "leg")
    if discipline not in DISCIPLINES:
        raise MalformedRecord(f"{path}.discipline", f"expected one of {', '.join(DISCIPLINES)}, got {discipline!r}")
    width = _int(data, "width", 2, 6, 3, path)
    strips = _int(data, "start_strips", 1, 24, 8 if discipline == "leg" else 2, path)
    segments = data.get("segments")
    if not isinstance(segments, list) or not segments or len(segments) > 200:
        raise MalformedRecord(f"{path}.segments", "expected a list of 1 to 200 segments")
    start = 2 * strips
    s = start
    terrain: list[tuple[int, str]] = [(0, "level")]
    turnings: list[Turning] = []
    bonuses: list[Bonus] = []
    checkpoints: list[int] = []
    for i, seg in enumerate(segments):
        where = f"{path}.segments[{i}]"
        if not isinstance(seg, dict):
            raise MalformedRecord(where, "expected a segment object")
        for key in seg:
            if key not in ("hexagons", "terrain", "turn", "crossroads", "bonus", "checkpoint"):
                raise MalformedRecord(f"{where}.{key}", "unknown segment field")
        n = _int(seg, "hexagons", 1, 400, 2 if "turn" in seg else 1, where)
        kind = seg.get("terrain")
        if kind is not None:
            if not isinstance(kind, str) or kind not in TERRAINS:  # a list or an object is no dict key
                raise MalformedRecord(f"{where}.terrain", f"expected level, up or down, got {kind!r}")
            terrain.append((s, kind))
        if seg.get("bonus") is not None:
            if seg["bonus"] not in ("speed", "uphill"):
                raise MalformedRecord(f"{where}.bonus", "expected speed or uphill")
            bonuses.append(Bonus(s, seg["bonus"]))
        if seg.get("checkpoint"):
            checkpoints.append(s)
        if "turn" in seg:
            if seg["turn"] not in ("left", "right"):
                raise MalformedRecord(f"{where}.turn", "expected left or right")
            turnings.append(Turning(s, s + 2 * n - 1, seg["turn"], bool(seg.get("crossroads"))))
        s += 2 * n
    hexagons = (s - start) // 2
    energy_default, constant_default = DEFAULTS[discipline]
    if discipline == "itt":
        energy_default = 5 * max(1, round(hexagons / 25))
        constant_default = 30 * max(1, round(hexagons / 25))
    return Course(
        name=str(data.get("name", "inline"))[:40],
        discipline=discipline,
        width=width,
        hexagons=hexagons,
        start=start,
        finish=s,
        end=s + 2 * RUN_OUT,
        terrain=tuple(terrain),
        turnings=tuple(turnings),
        bonuses=tuple(bonuses),
        checkpoints=tuple(checkpoints),
        energy=_int(data, "energy", 0, 40, energy_default, path),
        constant=_int(data, "constant", 0, 6000, constant_default, path),
        wind=_int(data, "wind", 0, 4, 0, path),
        board=board,
        route=route,
    )


def course_names() -> list[str]:
    return json_names(DATA)


def load_course(name: str) -> Course:
    """A shipped course (``leg-bohemia``), or a random one (``random-120``, ``random-itt-50``...), or a
    random one marked on a board (``random-bohemia-120``)."""
    if name.startswith("random-") and not RANDOM.match(name):
        return _random_board_course(name)
    if name.startswith("random-"):
        return build_course(random_course_data(name), "$.track")
    file = json_file(DATA, name)
    if file is None:
        raise UnknownTrack(
            "$.track",
            _("unknown course {name}; courses: {courses}", name=repr(name[:40]), courses=", ".join(course_names())),
        )
    return build_course(json.loads(file.read_text(encoding="utf-8")), "$.track")


@lru_cache(maxsize=64)
def _random_board_course(name: str) -> Course:
    """A random course on a board (rules/peloton/random_board.py): built once per name, it takes a
    search of the board's routes."""
    return build_course(board_course_data(name), "$.track")


RANDOM = re.compile(r"^random-(?:(leg|itt|ttt)-)?([1-9][0-9]{0,2})(?:-s([0-9]{1,12}))?$")


def random_course_data(name: str) -> dict[str, object]:
    """The random course builder: ``random-[discipline-]<hexagons>[-s<seed>]`` is always the same course."""
    m = RANDOM.match(name)
    if not m:
        raise UnknownTrack(
            "$.track", _("{name}: a random course is random-<hexagons> or random-itt-<hexagons>", name=repr(name[:40]))
        )
    discipline = m[1] or "leg"
    length = int(m[2])
    if not 10 <= length <= 300:
        raise UnknownTrack("$.track", _("{name}: a random course has 10 to 300 hexagons", name=repr(name[:40])))
    rng = int(m[3] or length * 7919)
    segments: list[Segment] = []
    left = length
    last_turn = ""
    while left > 0:
        pick, rng = below(rng, 10)
        if pick < 2 and left > 6 and segments:
            side_pick, rng = below(rng, 2)
            side = "left" if side_pick else "right"
            if side == last_turn:  # keep the course from curling into a circle
                side = "right" if side == "left" else "left"
            last_turn = side
            segments.append({"turn": side, "hexagons": 2})
            left -= 2
            continue
        n, rng = below(rng, 8)
        n = min(left, n + 4)
        terrain_pick, rng = below(rng, 6)
        terrain = ("level", "level", "level", "up", "up", "down")[terrain_pick]
        if terrain == "up" and discipline == "leg" and not any(x.get("bonus") == "uphill" for x in segments):
            segments.append({"hexagons": n, "terrain": terrain})
            segments.append({"hexagons": 1, "terrain": "down", "bonus": "uphill"})
            left -= 1
        else:
            segments.append({"hexagons": n, "terrain": terrain})
        left -= n
    if discipline == "leg" and len(segments) > 2:
        segments[len(segments) // 2] = {**segments[len(segments) // 2], "bonus": "speed"}
    if discipline == "itt" and length >= 40:
        parts = 2 if length < 63 else 3
        _checkpoints(segments, length, parts)
    width = 2 if discipline == "itt" else 3
    return {"name": name, "discipline": discipline, "width": width, "segments": segments}


def _checkpoints(segments: list[Segment], length: int, parts: int) -> None:
    """Mark the time trial's midway (or thirds) on the segments, splitting one where needed."""
    marks = [length * k // parts for k in range(1, parts)]
    out: list[Segment] = []
    at = 0
    for seg in segments:
        n = seg.get("hexagons", 2 if "turn" in seg else 1)
        cut = next((m for m in marks if at < m < at + n and "turn" not in seg), None)
        if cut is not None:
            out.append({**seg, "hexagons": cut - at})
            rest = seg.copy()
            rest.pop("bonus", None)
            out.append({**rest, "hexagons": at + n - cut, "checkpoint": True})
            marks.remove(cut)
        else:
            if at in marks and "turn" not in seg:
                seg = {**seg, "checkpoint": True}
                marks.remove(at)
            out.append(seg)
        at += n
    segments[:] = out
