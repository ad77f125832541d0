"""Time bonuses in a leg race, when the race option ``time_bonuses`` is ``on`` (rulings
R-PEL-BONUS-POINTS): seconds off a cyclist's leg time for its places at the finish and at the bonus lines."""

from __future__ import annotations

from rules.peloton import timing
from rules.peloton.model import Cyclist, State
from rules.peloton.standings import finish_order
from rules.peloton.variants import TIME_BONUSES

FINISH_SECONDS = (10, 6, 4)  # the first three at the finish of a leg
LINE_SECONDS = (3, 2, 1)  # the first three across a bonus line, speed or uphill


def on(state: State) -> bool:
    return state.discipline == "leg" and TIME_BONUSES.of_record(state.setup.options) == "on"


def seconds(state: State, c: Cyclist) -> int:
    """The seconds a cyclist's time bonuses take off its leg time (0 without the option)."""
    if not on(state):
        return 0
    total = 0
    for index in range(len(state.course.bonuses)):
        crossed = [cid for i, cid in state.crossings if i == index]
        if c.id in crossed[: len(LINE_SECONDS)]:
            total += LINE_SECONDS[crossed.index(c.id)]
    order = finish_order(state)
    if c.id in order[: len(FINISH_SECONDS)]:
        total += FINISH_SECONDS[order.index(c.id)]
    return total


def leg_time(state: State, c: Cyclist) -> int | None:
    """A leg's time as the results and the league count it, in seconds: the group time plus the
    course's constant (4:19:25), less the cyclist's time bonuses."""
    total = timing.leg_total(state, c)
    return None if total is None else total - seconds(state, c)
