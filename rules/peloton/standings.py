"""A race's classifications: the finish order by time, points (speed bonus lines and the finish)
and mountains (uphill bonus lines), with the points scales of rulings R-PEL-BONUS-POINTS."""

from __future__ import annotations

from typing import TypedDict

from rules.peloton import timing
from rules.peloton.model import Cyclist, State

LINE_POINTS = (5, 3, 1)  # first three across a bonus line
FINISH_POINTS = (15, 12, 10, 8, 6, 5, 4, 3, 2, 1)  # first ten at the finish of a leg


def time_of(state: State, c: Cyclist) -> int | None:
    """The time that ranks a cyclist (tenths): relative in a leg race, absolute in a time trial."""
    if state.discipline == "leg":
        return timing.relative(state, c)
    if state.discipline == "itt":
        return timing.individual(state, c)
    return timing.team(state, c.team)


def finish_order(state: State) -> list[str]:
    """Finishers by time, then by the order they crossed the line."""
    done = [c for c in state.cyclists if c.finish_round is not None]
    arrivals = list(state.arrivals)
    return [
        c.id
        for c in sorted(done, key=lambda c: (time_of(state, c) or 0, arrivals.index(c.id) if c.id in arrivals else 99))
    ]


class Classifications(TypedDict):
    """The finish order and the points and mountains classifications (cyclist -> points)."""

    finish: list[str]
    points: dict[str, int]
    mountains: dict[str, int]


def classifications(state: State) -> Classifications:
    points: dict[str, int] = {}
    mountains: dict[str, int] = {}
    for index, kind in enumerate(b.kind for b in state.course.bonuses):
        crossed = [cid for i, cid in state.crossings if i == index]
        table = points if kind == "speed" else mountains
        for place, cid in enumerate(crossed[: len(LINE_POINTS)]):
            table[cid] = table.get(cid, 0) + LINE_POINTS[place]
    if state.discipline == "leg":
        for place, cid in enumerate(finish_order(state)[: len(FINISH_POINTS)]):
            points[cid] = points.get(cid, 0) + FINISH_POINTS[place]
    return {"finish": finish_order(state), "points": points, "mountains": mountains}
