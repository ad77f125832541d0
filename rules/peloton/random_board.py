"""Random courses marked out on a board of roads (rulings R-PEL-RANDOM-BOARD).

``random-<board>-[leg-|itt-|ttt-]<hexagons>[-s<seed>]`` is always the same course: a route from a
start on one of the board's roads through its junctions to a finish, exactly ``<hexagons>`` long,
that never rides a hexagon twice (its start area and run-out included) nor passes a crossroads
twice, with signs placed as the standalone builder (``course.random_course_data``) places them:
stretches of 4 to 11 hexagons of level, uphill or downhill road, an uphill bonus at the top of a
leg race's first climb, a speed bonus midway, a time trial's checkpoints at its midway or thirds.

The builder lists every route the board allows (roads and junction hexagons in the board's order),
keeps those that can be made the asked length, prefers those that turn at a junction and take
every junction the way the board lists it (so the course lies exactly on the drawn map), and draws
one of them and its start with the seed; a board that has none is refused with a message that
says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rules.errors import UnknownTrack
from rules.i18n import _
from rules.peloton.board import RUN_OUT, Board, Junction, _in_bend, _normal, board_names, load_board, route_segments
from rules.peloton.segments import Segment, Sign
from rules.rng import below

NAME = re.compile(r"^random-([a-z][a-z0-9-]*?)-(?:(leg|itt|ttt)-)?([1-9][0-9]{0,2})(?:-s([0-9]{1,12}))?$")
MIN_END = 4  # hexagons from the start line to the first junction, and from the last junction to the finish
MAX_LEGS = 8  # legs of a route: enough to cross a board several times
MAX_ROUTES = 20000  # routes listed before the search stops (a board of 40 roads could have millions)
TERRAINS = ("level", "level", "level", "up", "up", "down")  # as course.random_course_data draws them

Leg = tuple[str, int, int]  # road, from, to (hexagons of the road)


@dataclass(frozen=True)
class Skeleton:
    """A route whose first ``from`` and last ``to`` are still free: the roads, the junction hexagons."""

    first: tuple[str, int]  # the first road and its direction (+1 forwards, -1 backwards)
    legs: tuple[Leg, ...]  # the legs between junctions, fixed (the first and last legs' ends are free)
    last: tuple[str, int, int]  # the last road, the hexagon it is entered at, its direction
    middle: int  # hexagons of the fixed legs and of every junction's connecting hexagons
    exit: int  # the hexagon where the first road is left (== last[1] when there is one road)


def is_board_name(name: str) -> bool:
    m = NAME.match(name)
    return m is not None and m[1] in board_names()


def board_course_data(name: str) -> dict[str, object]:
    """The course data (a board, a route and signs) of a random board course name."""
    m = NAME.match(name)
    boards = board_names()
    if m is None or m[1] not in boards:
        raise UnknownTrack(
            "$.track",
            _(
                "{name}: a random course is random-<hexagons>, random-itt-<hexagons> or, on a board, "
                "random-<board>-<hexagons> (boards: {boards})",
                name=repr(name[:40]),
                boards=", ".join(boards),
            ),
        )
    board = load_board(m[1], "$.track")
    discipline = m[2] or "leg"
    length = int(m[3])
    if not 10 <= length <= 300:
        raise UnknownTrack("$.track", _("{name}: a random course has 10 to 300 hexagons", name=repr(name[:40])))
    strips = 8 if discipline == "leg" else 2
    rng = int(m[4] or length * 7919)
    route, rng = _route(board, length, strips, rng)
    if route is None:
        raise UnknownTrack(
            "$.track",
            _(
                "{name}: the {board} board has no course of {length} hexagons (its roads cannot be ridden that far "
                "from a start with {strips} strips behind it and {run_out} hexagons after the finish without riding "
                "a hexagon twice); try fewer hexagons",
                name=repr(name[:40]),
                board=board.name,
                length=length,
                strips=strips,
                run_out=RUN_OUT,
            ),
        )
    data: dict[str, object] = {
        "name": name,
        "discipline": discipline,
        "board": board.name,
        "route": [{"road": r, "from": a, "to": b} for r, a, b in route],
    }
    pieces = route_segments({**data, "signs": []}, "$.track")[1]
    data["signs"] = _signs(pieces, length, discipline, rng)
    return data


# -- the route -----------------------------------------------------------------------------------


def _spots(board: Board, road: str) -> list[tuple[int, str, int]]:
    """The junctions on ``road``: its hexagon, the other road, that road's hexagon."""
    out = []
    for j in board.junctions:
        for k in (0, 1):
            if j.roads[k] == road:
                out.append((j.at[k], j.roads[1 - k], j.at[1 - k]))
    return sorted(out)


def _turn(board: Board, road: str, at: int, step: int, other: str, other_at: int, out_step: int) -> int | None:
    """Connecting hexagons of turning from ``road`` (ridden ``step``) onto ``other`` (ridden
    ``out_step``), as course format's junction rule counts them; None where the route may not go."""
    found = board.junction(road, at, other, other_at)
    if found is None:
        return None
    j, flipped = found
    angle = -j.angle if flipped else j.angle
    turn = _normal(angle + 180 * (out_step < 0) - 180 * (step < 0))
    if turn not in (60, -60, 120, -120):
        return None
    return j.hexagons * abs(turn) // 60


def _skeletons(board: Board, length: int) -> Iterator[Skeleton]:
    """Every route of the board (up to MAX_ROUTES), roads and junctions in the board's order."""
    count = 0

    def onward(sk: Skeleton, seen: tuple[Leg, ...]) -> Iterator[Skeleton]:
        nonlocal count
        if count >= MAX_ROUTES:
            return
        count += 1
        yield sk
        road, at, step = sk.last
        if len(sk.legs) + 2 >= MAX_LEGS:
            return
        for spot, other, other_at in _spots(board, road):
            leg = (road, at, spot)
            middle = sk.middle + abs(spot - at)
            if (spot - at) * step <= 0 or middle >= length or _overlaps(leg, seen):
                continue
            for out_step in (1, -1):
                hexagons = _turn(board, road, spot, step, other, other_at, out_step)
                if hexagons is not None and _rideable(board, other, other_at, out_step):
                    nxt = Skeleton(sk.first, (*sk.legs, leg), (other, other_at, out_step), middle + hexagons, sk.exit)
                    yield from onward(nxt, (*seen, leg))

    for name, road in board.roads.items():
        for step in (1, -1):
            for spot, other, other_at in _spots(board, name):
                if (spot if step > 0 else road.hexagons - spot) < 2:
                    continue
                for out_step in (1, -1):
                    hexagons = _turn(board, name, spot, step, other, other_at, out_step)
                    if hexagons is not None and _rideable(board, other, other_at, out_step):
                        sk = Skeleton((name, step), (), (other, other_at, out_step), hexagons, spot)
                        yield from onward(sk, ((name, spot - step, spot),))
            yield Skeleton((name, step), (), (name, 0 if step > 0 else road.hexagons, step), 0, -1)


def _overlaps(leg: Leg, seen: tuple[Leg, ...]) -> bool:
    road, a, b = leg
    lo, hi = min(a, b), max(a, b)
    return any(r == road and lo <= max(x, y) and min(x, y) <= hi for r, x, y in seen)


def _rideable(board: Board, road: str, at: int, step: int) -> bool:
    return 0 <= at + step <= board.roads[road].hexagons


def _concrete(board: Board, sk: Skeleton, length: int, strips: int, start: int) -> list[Leg] | None:
    """The route of ``sk`` whose first leg starts at ``start``, if it can be exactly ``length`` long."""
    name, step = sk.first
    road = board.roads[name]
    if _in_bend(road, start) or not 0 <= start - step * strips <= road.hexagons:
        return None
    if sk.exit < 0:  # one road from start to finish
        legs = [(name, start, start + step * length)]
    else:
        first = (sk.exit - start) * step
        rest = length - first - sk.middle
        last_road, at, last_step = sk.last
        if first < MIN_END or rest < MIN_END:
            return None
        legs = [(name, start, sk.exit), *sk.legs, (last_road, at, at + last_step * rest)]
    last_name, last_from, finish = legs[-1]
    last_step = 1 if finish > last_from else -1
    far = finish + last_step * RUN_OUT
    if not 0 <= far <= board.roads[last_name].hexagons or _in_bend(board.roads[last_name], finish):
        return None
    stretches = [(r, min(a, b), max(a, b)) for r, a, b in legs]
    stretches[0] = (name, min(start - step * strips, legs[0][2]), max(start - step * strips, legs[0][2]))
    stretches[-1] = (last_name, min(stretches[-1][1], far), max(stretches[-1][2], far))
    if len(legs) == 1:
        stretches = [(name, min(start - step * strips, far), max(start - step * strips, far))]
    for i, (r, lo, hi) in enumerate(stretches):
        if any(r == r2 and lo <= hi2 and lo2 <= hi for r2, lo2, hi2 in stretches[i + 1 :]):
            return None  # a hexagon ridden twice
    for j in board.junctions:  # a crossroads is one place: the course passes it once, or turns there
        near = [i for i, (r, lo, hi) in enumerate(stretches) for k in (0, 1) if r == j.roads[k] and lo <= j.at[k] <= hi]
        if len(set(near)) > 1 and not (len(near) == 2 and abs(near[0] - near[1]) == 1 and _turns_at(legs, near, j)):
            return None
    return legs


def _turns_at(legs: list[Leg], near: list[int], j: Junction) -> bool:
    """Whether the two legs ``near`` meet at the junction: the first ends where the second begins."""
    a, b = sorted(near)
    ends = {(legs[a][0], legs[a][2]), (legs[b][0], legs[b][1])}
    return ends == {(j.roads[0], j.at[0]), (j.roads[1], j.at[1])}


def _route(board: Board, length: int, strips: int, rng: int) -> tuple[list[Leg] | None, int]:
    """A route of exactly ``length`` hexagons drawn with the seed: the route first, then its start."""
    found: list[tuple[Skeleton, list[int]]] = []
    for sk in _skeletons(board, length):
        if sk.middle >= length:
            continue
        road = board.roads[sk.first[0]]
        starts = [s for s in range(road.hexagons + 1) if _concrete(board, sk, length, strips, s) is not None]
        if starts:
            found.append((sk, starts))
    if not found:
        return None, rng
    turning = [f for f in found if f[0].exit >= 0] or found  # a route that turns somewhere, if one can
    drawn = [f for f in turning if _as_drawn(board, f[0])] or turning  # and then one the map shows exactly
    pick, rng = below(rng, len(drawn))
    sk, starts = drawn[pick]
    pick, rng = below(rng, len(starts))
    return _concrete(board, sk, length, strips, starts[pick]), rng


def _as_drawn(board: Board, sk: Skeleton) -> bool:
    """Whether the route takes every junction the way the board lists it: from its first road ridden
    forwards onto its second ridden forwards, or the same way back. Taken so, a junction's connecting
    hexagons are where the board's map has them (R-PEL-MAP); taken any other way, the course format
    turns through other connecting hexagons and the roads beyond sit a few hexagons off the map."""
    name, step = sk.first
    came = (name, sk.exit, step)
    for road, start, end in (*sk.legs, (sk.last[0], sk.last[1], sk.last[1] + sk.last[2])):
        going = 1 if end > start else -1
        found = board.junction(came[0], came[1], road, start)
        if found is None or not (came[2] == going == (-1 if found[1] else 1)):
            return False
        came = (road, end, going)
    return True


# -- the signs -----------------------------------------------------------------------------------


def _signs(pieces: list[Segment], length: int, discipline: str, rng: int) -> list[Sign]:
    """Terrain in stretches of 4 to 11 hexagons along the straight parts, an uphill bonus at the top
    of a leg race's first climb, a speed bonus midway, a time trial's checkpoints."""
    signs: dict[int, Sign] = {}
    turnings: set[int] = set()
    at = 0
    uphill = False
    for p in pieces:
        n = int(p["hexagons"])
        if "turn" in p:
            turnings.update(range(at + 1, at + n))
            at += n
            continue
        end = at + n
        while at < end:
            size, rng = below(rng, 8)
            size = min(end - at, size + 4)
            pick, rng = below(rng, len(TERRAINS))
            terrain = TERRAINS[pick]
            signs[at] = {"terrain": terrain}
            at += size
            if terrain == "up" and discipline == "leg" and not uphill and at < end:
                signs[at] = {"terrain": "down", "bonus": "uphill"}  # the top of the first climb
                uphill = True
                at += 1
    if discipline == "leg":
        middle = min(
            (s for s in signs if "bonus" not in signs[s]), key=lambda s: (abs(s - length // 2), s), default=None
        )
        if middle is not None:
            signs[middle]["bonus"] = "speed"
    if discipline == "itt" and length >= 40:
        parts = 2 if length < 63 else 3
        for k in range(1, parts):
            mark = length * k // parts
            while mark in turnings:
                mark += 1
            signs.setdefault(mark, {})["checkpoint"] = True
    out: list[Sign] = []
    current = ""
    for at in sorted(s for s in signs if s < length):  # a terrain sign that changes nothing is left out
        sign = signs[at].copy()
        if sign.get("terrain") == current:
            del sign["terrain"]
        current = sign.get("terrain", current)
        if sign:
            out.append({"at": at, **sign})
    return out
