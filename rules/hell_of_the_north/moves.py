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
from rules.hell_of_the_north.versions import BOXED_IN
from rules.leader1.paths import Move, destinations, risks_crack, search
from rules.leader1.paths import RideOption as FamilyOption
from rules.leader1.paths import free_squares as family_free_squares
from rules.track import cell_id


@dataclass(frozen=True)
class RideOption(FamilyOption):
    """A family ride option plus what only Hell of the North adds to it."""

    start: str | None = None  # the square the move starts from (None: breaking away from the peloton)
    cobbles: bool = False  # Race conditions 4: the roll that may fall or puncture, not marked as a risk
    wind: int = 0  # + headwind, - tailwind, already in ``cost``
    heat: bool = False

    @property
    def risk_count(self) -> int:
        return int(self.crack) + int(self.fall) + int(self.cobbles)


def free_squares(state: State, rider: Rider, start_row: int, *, breakaway: bool) -> tuple[int, bool]:
    """Free squares of a move starting on ``start_row`` and whether a slipstream square is one."""
    course = state.setup.course
    descent = rider.quality == "descent" and course.road.terrain(start_row) == "D"
    sprint = rider.quality == "sprint" and course.in_sprint(start_row)
    return family_free_squares(state, rider, start_row, bonus=int(descent) + int(sprint), breakaway=breakaway)


def start_square(state: State, rider: Rider) -> tuple[int, int]:
    """Where a rider's move starts; a fallen rider whose square is taken starts behind its occupant."""
    assert rider.row is not None and rider.lane is not None
    row, lane = rider.row, rider.lane
    if rider.status == "fallen":
        taken = {r.cell for r in state.riders if r.on_road and r.id != rider.id}
        while row > 0 and cell_id(row, lane) in taken:
            row -= 1  # R-HOTN-FALL-RESTART: "the square behind the rider occupying it"
    return row, lane


# the first dark square that counts ("a" asphalt, "c" cobbles), and the kinds of the later ones
Marks = tuple[str | None, frozenset[str]]


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
    """Every legal destination of ``rider_id`` now (``breakaway``: leaving the peloton's front part).

    A rider may not stay in place, nor pass through an occupied square "unless there is no other
    option": one with no square to ride to otherwise may ride through any occupied square, +1
    energy each as on a blocked road (R-HOTN-BOXED-IN). Breaking away is never forced."""
    options = _ride_options(state, rider_id, breakaway=breakaway, route=route, boxed_in=False)
    if options or breakaway or not state.setup.rules.has(BOXED_IN):  # before R-HOTN-BOXED-IN: stuck
        return options
    if route is not None and _ride_options(state, rider_id, breakaway=False, route=None, boxed_in=False):
        return options  # the rider has another option, so the named path may not go through
    return _ride_options(state, rider_id, breakaway=False, route=route, boxed_in=True)


def _ride_options(
    state: State, rider_id: str, *, breakaway: bool, route: tuple[str, ...] | None, boxed_in: bool
) -> list[RideOption]:
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
    every_rain = _wind(state, range(start_row, start_row + longest + 1))[2]

    def mark(marks: Marks, cid: str, row: int, paid: bool) -> Marks:
        kind = _counted(state, cid, row, paid=paid, rain=every_rain)
        if kind is None:
            return marks
        first, later = marks
        return (kind, later) if first is None else (first, later | {kind})

    def hazards(marks: Marks) -> tuple[bool, bool]:
        return _risks(rider, marks)

    climber_exception = breakaway and rider.kind == "climber" and road.terrain(start_row) == "M"
    options: list[RideOption] = []
    initial: Marks = (None, frozenset())
    for squares, row, paths in search(
        state,
        rider_id,
        start_row,
        starts,
        longest,
        initial,
        mark,
        breakaway=breakaway,
        route=route,
        free=free,
        boxed_in=boxed_in,
    ):
        rejoins = behind_peloton and row == state.peloton - 1
        crack = not climber_exception and risks_crack(state, paths[0].cells, free)
        head, tail, _, heat = _wind(state, range(start_row, start_row + squares + 1))
        wind = (0 if slip else head) - tail  # Weather: headwind only without a slipstream
        move = Move(squares, free, slip, crack, breakaway, rejoins, extra_cost=wind)
        for base, path in destinations(state, rider, paths, move, hazards):
            cobbles = hazards(path.marks)[1]
            options.append(
                RideOption(**vars(base), start=start, cobbles=cobbles, wind=wind, heat=heat and squares >= 6)
            )
        if rejoins:
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


def _risks(rider: Rider, marks: Marks) -> tuple[bool, bool]:
    """(fall risk, cobble roll) of a path; an attacker ignores the first dark square (Qualities)."""
    first, later = marks
    kinds = set(later)
    if rider.quality != "attack" and first is not None:
        kinds.add(first)
    return "a" in kinds, "c" in kinds
