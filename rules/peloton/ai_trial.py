"""An individual time trial worked out to the line: the fewest moves and the best time a lone
cyclist can still make from a strip of the course, with its dial and energy (V).

The course is known in advance in a time trial and nobody rides tandem, so a cyclist alone on
the road is a good model: each move it rides its basic speed (the terrain where the move starts,
+1 unless against the wind) plus the dial, two strips a hexagon. The time counts a minute a move,
5 s a strip past the line and 4 s a point of energy left (V), and the checkpoints' overdrawn
points (V). Turnings and other cyclists are left out here: the move at hand is judged by the
engine's own reach, only the moves after it by this table.
"""

from __future__ import annotations

from functools import lru_cache

from rules.peloton.course import TERRAINS, Course
from rules.peloton.engine import WIND_FROM
from rules.peloton.model import DIAL

MINUTE = 600  # tenths of a second
STRIP = 50  # 5 s a half hexagon past the line
POINT_LEFT = 40  # 4 s a point of energy left at the line
NEVER = 10**9


def _next_positions(position: int) -> list[int]:
    """Where the dial may go from ``position``: clockwise, never through +0 (II.4)."""
    return [0, 1, 2, 3, 4] if position == 0 else [*range(position + 1, 5), 0]


def _head(course: Course, wind: int, s: int) -> bool:
    if wind == 0:
        return False
    d = (WIND_FROM[wind] - course.heading(s) + 180.0) % 360.0 - 180.0
    return abs(d) <= 30.0


def dial_cost(course: Course, wind: int, s: int, position: int, to: int) -> int:
    """What setting the dial from ``position`` to ``to`` costs a lone cyclist at strip ``s`` (II.5, IV.1)."""
    value = DIAL[to]
    if value == 0:
        return 0
    return value + (1 if position == 0 and value == 2 else 0) + (1 if _head(course, wind, s) else 0)


def _basic(course: Course, wind: int, s: int) -> int:
    return TERRAINS[course.terrain_at(s)] + (0 if _head(course, wind, s) else 1)


def after_checkpoints(course: Course, old_s: int, new_s: int, energy: int) -> int:
    """Energy after the checkpoints crossed between ``old_s`` and ``new_s`` (V: a point more for each overdrawn)."""
    parts = len(course.checkpoints) + 1
    for k, at in enumerate(course.checkpoints, start=1):
        if old_s <= at < new_s:
            threshold = course.energy * (parts - k) // parts
            energy = max(0, energy - max(0, threshold - energy))
    return energy


def finish_time(course: Course, new_s: int, energy: int) -> int:
    """A finishing move's part of the time: its minute, less the strips past the line and the energy left."""
    return MINUTE - STRIP * (new_s - course.finish) - POINT_LEFT * energy


@lru_cache(maxsize=200_000)  # bounded: a bot process meets many courses
def time_to_go(course: Course, wind: int, s: int, position: int, energy: int) -> int:
    """The best time (tenths) still to ride from strip ``s`` with the dial at ``position`` and ``energy``."""
    if s > course.finish:
        return -POINT_LEFT * energy
    best = NEVER
    for to in _next_positions(position):
        cost = dial_cost(course, wind, s, position, to)
        if cost > energy:
            continue
        new_s = min(course.end, s + 2 * (_basic(course, wind, s) + DIAL[to]))
        left = after_checkpoints(course, s, new_s, energy - cost)
        if new_s > course.finish:
            best = min(best, finish_time(course, new_s, left))
        else:
            best = min(best, MINUTE + time_to_go(course, wind, new_s, to, left))
    return best
