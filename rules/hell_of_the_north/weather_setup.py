"""Race conditions 5 (Weather): the players decide how many markers lie face down beside the route,
and where (option ``weather``, R-HOTN-WEATHER-COUNT).

The route's own weather hexagons are taken first, then hexagons spread over the rest of the route,
each drawn with the ``weather-hexagon`` die: the draws are in the dice history, so a record replays
the placement from its seed, or from its ``dice`` script when a running race is exported.
"""

from __future__ import annotations

from rules.errors import InvalidSetup, MalformedRecord
from rules.hell_of_the_north.course import MAX_WEATHER
from rules.hell_of_the_north.model import WEATHER_PLACE_DIE, Course
from rules.rng import Dice, Die


def legal_hexagons(course: Course) -> tuple[int, ...]:
    """The first rows of the hexagons a marker may lie beside: every hexagon with one before it
    (R-HOTN-WEATHER-REVEAL), none past the finish."""
    return tuple(range(course.hex_rows, course.road.finish, course.hex_rows))


def place_weather(course: Course, count: int, dice: Dice) -> tuple[tuple[int, ...], Dice]:
    """``count`` hexagons (first rows, sorted), one marker each: the route's own first, then the rest."""
    legal = legal_hexagons(course)
    if not 0 <= count <= MAX_WEATHER:
        raise InvalidSetup("$.options.weather", f"the box has {MAX_WEATHER} weather markers: choose 0 to {MAX_WEATHER}")
    if count > len(legal):
        raise InvalidSetup(
            "$.options.weather",
            f"this route has {len(legal)} hexagons with one before them, and a hexagon holds one weather "
            f"marker: at most {len(legal)} markers",
        )
    own = [row for row in course.weather if row in legal]
    chosen: list[int] = []
    for pool in (own, [row for row in legal if row not in own]):
        while len(chosen) < count and pool:
            face, dice = dice.roll(Die(WEATHER_PLACE_DIE, tuple(pool)))
            if type(face) is not int or face not in pool:
                raise MalformedRecord(
                    f"$.dice.{WEATHER_PLACE_DIE}",
                    f"{face!r} is not a hexagon left for a weather marker (first rows: {', '.join(map(str, pool))})",
                )
            pool.remove(face)
            chosen.append(face)
    return tuple(sorted(chosen)), dice
