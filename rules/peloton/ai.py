"""The AI cyclist: spreads its energy over the course, sprints near the line, rides as far as it can
without falling, and prefers a hexagon behind another cyclist when it reaches no further."""

from __future__ import annotations

from rules.action import Action
from rules.peloton.course import split
from rules.peloton.engine import Option, legal_actions, pending
from rules.peloton.model import DIAL, State


def _hexagons_left(state: State, cell: str | None) -> int:
    if cell is None:
        return state.course.hexagons
    return max(0, (state.course.finish - split(cell)[0]) // 2)


def _dial_score(state: State, o: Option) -> float:
    assert o.dial is not None
    c = state.cyclist(str(o.action.get("cyclist")))
    left = _hexagons_left(state, c.cell)
    energy_after = c.energy - o.dial.cost
    value = DIAL[o.dial.position]
    if o.dial.kept:
        return 10.0
    if state.discipline == "leg":
        sprint = left <= 14
        budget = c.energy * 10 >= left + 30 or sprint  # keep a reserve for the finish
        wanted = value if budget else -value
        return wanted - 0.4 * o.dial.cost + (0.5 if energy_after >= 0 else -5)
    marks = [m for m in state.course.checkpoints if c.cell is None or m > split(c.cell)[0]]
    parts = len(state.course.checkpoints) + 1
    done = parts - len(marks)
    threshold = state.course.energy * (parts - done) // parts if marks else 0
    if energy_after < threshold:
        return -value - o.dial.cost
    return value * 2 - o.dial.cost * 0.5


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now."""
    d = pending(state)
    options = legal_actions(state, player)
    if d is None or not options:
        raise ValueError(f"{player} has nothing to decide")
    if d.kind == "card":
        return min(options, key=lambda o: (abs((o.card or 7) - 7), o.card or 0)).action
    if d.kind == "dial":
        return max(options, key=lambda o: _dial_score(state, o)).action

    def ride_score(o: Option) -> tuple[int, int, int]:
        assert o.ride is not None
        s, lane = split(o.ride.to)
        return (0 if o.ride.fell else 1, s, -abs(lane - state.course.width // 2))

    return max(options, key=ride_score).action
