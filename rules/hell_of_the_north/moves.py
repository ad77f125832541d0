"""Where a rider can ride and what each destination costs (Game turn 1 and 2, Race conditions).

A move is a path of squares, one row forward per square, straight or diagonal. The first
squares are free (the rider's type on the starting terrain, plus descent or sprint, plus a
slipstream square), the rest are paid from the table. The path decides the consequences:
occupied squares crossed on a blocked road (+1 each), dark squares in the paid part (a fall
risk, or on cobbles the cobble roll), and in rain dark squares anywhere in the move; the
rows decide the crack risk and the wind.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.hell_of_the_north.model import Rider, State
from rules.track import cell_id


@dataclass(frozen=True)
class RideOption:
    """One legal destination of a rider with every consequence spelled out."""

    rider: str
    to: str
    via: tuple[str, ...]
    start: str | None  # the square the move starts from (None: breaking away from the peloton)
    squares: int
    free: int
    paid: int
    crossings: int
    cost: int  # energy paid if no risk goes wrong (wind included)
    recovery: int
    slipstream: bool
    crack: bool
    fall: bool
    cobbles: bool  # Race conditions 4: the roll that may fall or puncture, not marked as a risk
    wind: int  # + headwind, - tailwind, already in ``cost``
    heat: bool
    worst_cost: int
    rejoins: bool
    finishes: bool
    breakaway: bool

    @property
    def risk_count(self) -> int:
        return int(self.crack) + int(self.fall) + int(self.cobbles)


def free_squares(state: State, rider: Rider, start_row: int, *, breakaway: bool) -> tuple[int, bool]:
    """Free squares of a move starting on ``start_row`` and whether a slipstream square is one."""
    course = state.setup.course
    terrain = course.road.terrain(start_row)
    free = state.setup.ruleset.free_squares[rider.kind][terrain]
    if rider.quality == "descent" and terrain == "D":
        free += 1
    if rider.quality == "sprint" and course.in_sprint(start_row):
        free += 1
    slip = rider.slipstream and not breakaway
    return free + int(slip), slip


def start_square(state: State, rider: Rider) -> tuple[int, int]:
    """Where a rider's move starts; a fallen rider whose square is taken starts behind its occupant."""
    assert rider.row is not None and rider.lane is not None
    row, lane = rider.row, rider.lane
    if rider.status == "fallen":
        taken = {r.cell for r in state.riders if r.on_road and r.id != rider.id}
        while row > 0 and cell_id(row, lane) in taken:
            row -= 1  # R-HOTN-FALL-RESTART: "the square behind the rider occupying it"
    return row, lane


@dataclass(frozen=True)
class _Path:
    lane: int
    cells: tuple[str, ...]
    crossings: int
    first_dark: str | None  # "a" asphalt or "c" cobbles: the first dark square that counts
    later_dark: frozenset[str]  # the kinds of the counted dark squares after the first


def _wind(state: State, rows: range) -> tuple[int, int, bool, bool]:
    """Headwind and tailwind on the hexagons a move touches, and whether rain or heat is there."""
    course = state.setup.course
    head = tail = 0
    rain = heat = False
    for hexagon in sorted({course.hexagon(r) for r in rows}):
        marker = state.weather_at(hexagon)
        if marker is None:
            continue
        if marker.startswith("headwind-"):
            head += int(marker.rsplit("-", 1)[1])
        elif marker.startswith("tailwind-"):
            tail += int(marker.rsplit("-", 1)[1])
        elif marker == "rain":
            rain = True
        elif marker == "heat":
            heat = True
    return head, tail, rain, heat


def ride_options(
    state: State, rider_id: str, *, breakaway: bool = False, route: tuple[str, ...] | None = None
) -> list[RideOption]:
    """Every legal destination of ``rider_id`` now (``breakaway``: leaving the peloton's front part)."""
    setup = state.setup
    course = setup.course
    road = course.road
    rules = setup.ruleset
    rider = state.rider(rider_id)
    if breakaway:
        start_row = state.peloton
        starts = list(range(road.lanes))
        start: str | None = None
    else:
        start_row, lane0 = start_square(state, rider)
        starts = [lane0]
        start = cell_id(start_row, lane0)
    behind_peloton = not breakaway and start_row < state.peloton - 1 and state.peloton_arrived_turn is None
    free, slip = free_squares(state, rider, start_row, breakaway=breakaway)
    longest = free + rules.max_paying
    occupants = {r.cell: r for r in state.riders if r.on_road and r.id != rider_id}
    full_rows = {
        row
        for row in {int(c.split(".")[0]) for c in occupants if c is not None}
        if all(cell_id(row, lane) in occupants for lane in range(road.lanes))
    }
    every_rain = _wind(state, range(start_row, start_row + longest + 1))[2]

    options: list[RideOption] = []
    frontier = [_Path(lane, (), 0, None, frozenset()) for lane in starts]
    for step in range(1, longest + 1):
        row = start_row + step
        if row > road.last_row:
            break
        nxt: dict[tuple[int, int, str | None, frozenset[str]], _Path] = {}
        for path in frontier:
            if breakaway and step == 1:
                lanes = [path.lane]
            else:
                current = cell_id(row - 1, path.lane)
                lanes = [int(s.split(".")[1]) for s in road.track.cells[current].successors]
            for lane in lanes:
                cid = cell_id(row, lane)
                if route is not None and (step > len(route) or route[step - 1] != cid):
                    continue
                other = occupants.get(cid)
                crossings = path.crossings
                if other is not None and other.status != "punctured":
                    if row not in full_rows:
                        continue  # only a road blocked across its width may be ridden through
                    crossings += 1
                first, later = path.first_dark, path.later_dark
                kind = _counted(state, cid, row, paid=step > free, rain=every_rain)
                if kind is not None:
                    if first is None:
                        first = kind
                    else:
                        later = later | {kind}
                key = (lane, crossings, first, later)
                if key not in nxt:
                    nxt[key] = _Path(lane, (*path.cells, cid), crossings, first, later)
        frontier = list(nxt.values())
        if not frontier:
            break
        if (breakaway and step < rules.breakaway_min) or (route is not None and step != len(route)):
            continue
        rejoin_row = behind_peloton and row == state.peloton - 1
        options += _destinations(state, rider, frontier, step, free, slip, breakaway, rejoin_row, start, start_row)
        if rejoin_row:
            break  # the peloton fills the road: a dropped rider cannot ride through it
    return options


def _counted(state: State, cid: str, row: int, *, paid: bool, rain: bool) -> str | None:
    """Whether a square counts toward a fall (``a``) or the cobble roll (``c``), or not at all."""
    course = state.setup.course
    cobbled = course.cobbled(row)
    dark = course.dark(cid)
    rainy = state.weather_at(row) == "rain" and rain
    if dark and (paid or rainy):
        return "c" if cobbled else "a"
    if paid and cobbled and state.setup.options.cobble_risk == "all":
        return "c"
    return None


def _risks(rider: Rider, path: _Path) -> tuple[bool, bool]:
    """(fall risk, cobble roll) of a path; an attacker ignores the first dark square (Qualities)."""
    kinds = set(path.later_dark)
    if rider.quality != "attack" and path.first_dark is not None:
        kinds.add(path.first_dark)
    return "a" in kinds, "c" in kinds


def _destinations(
    state: State,
    rider: Rider,
    paths: list[_Path],
    squares: int,
    free: int,
    slip: bool,
    breakaway: bool,
    rejoins: bool,
    start: str | None,
    start_row: int,
) -> list[RideOption]:
    setup = state.setup
    road = setup.road
    rules = setup.ruleset
    paid = max(0, squares - free)
    climber_exception = breakaway and rider.kind == "climber" and road.terrain(start_row) == "M"
    crack = bool(paths) and not climber_exception and _risks_crack(state, paths[0].cells, free)
    head, tail, _, heat_here = _wind(state, range(start_row, start_row + squares + 1))
    wind = (0 if slip else head) - tail  # Weather: headwind only without a slipstream
    by_cell: dict[str, list[_Path]] = {}
    occupied = {r.cell for r in state.riders if r.on_road and r.id != rider.id}
    for path in paths:
        cid = path.cells[-1]
        if cid in occupied and not rejoins:
            continue  # never stop on an occupied (or punctured rider's) square
        by_cell.setdefault(cid, []).append(path)
    result = []
    for cid, candidates in sorted(by_cell.items()):
        candidates.sort(key=lambda p: (p.crossings, sum(_risks(rider, p)), p.cells))
        chosen = [candidates[0]]
        safer = [p for p in candidates if sum(_risks(rider, p)) < sum(_risks(rider, candidates[0]))]
        if safer:
            chosen.append(safer[0])
        for path in chosen:
            fall, cobbles = _risks(rider, path)
            cost = max(0, rules.paying_cost[paid] + path.crossings + wind)
            worst = cost * (rules.crack_factor if crack else 1)
            if worst > rider.energy:
                continue
            row = int(cid.split(".")[0])
            result.append(
                RideOption(
                    rider=rider.id,
                    to=cid,
                    via=path.cells[:-1],
                    start=start,
                    squares=squares,
                    free=min(free, squares),
                    paid=paid,
                    crossings=path.crossings,
                    cost=cost,
                    recovery=max(0, free - squares),
                    slipstream=slip,
                    crack=crack,
                    fall=fall,
                    cobbles=cobbles,
                    wind=wind,
                    heat=heat_here and squares >= 6,
                    worst_cost=worst,
                    rejoins=rejoins,
                    finishes=row >= road.finish,
                    breakaway=breakaway,
                )
            )
    return result


def _risks_crack(state: State, cells: tuple[str, ...], free: int) -> bool:
    """Crack: more paid squares on a mountain than its category marker allows."""
    road = state.setup.road
    paid_mountain = 0
    limit: int | None = None
    for step, cid in enumerate(cells, start=1):
        row = int(cid.split(".")[0])
        if step > free and road.terrain(row) == "M":
            paid_mountain += 1
            category = road.category_at(row)
            if category is not None:
                limit = category if limit is None else min(limit, category)
    return limit is not None and paid_mountain > limit
