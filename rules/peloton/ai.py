"""The AI cyclist.

The dial: each position is judged by what it buys — how much further the cyclist can really get
with it (a blocked road or a turning makes acceleration worthless) — against its energy, priced
by how scarce energy is for the rest of the course. Energy that cannot all be spent before the
line is nearly free (the sprint); otherwise it avoids the dear ways to accelerate (the abrupt
+0 → +2 that costs 3, a headwind's extra point) and prefers the +1, +1, +2, +2 cycle. Time trials
keep their checkpoint reserves. The ride: as far as it can, and a hexagon right behind another
cyclist (tandem, +1 next move) is worth most of a hexagon. A fall (riding into a turning too fast
for its trail, R-PEL-OVERSPEED) is priced at the two moves it costs: lying out the next move and
riding the basic speed only in the one after; a fall is never further than a safe ride by that
much, so the AI takes one only when nothing else is left, or when it carries it over the line.
"""

from __future__ import annotations

from dataclasses import replace

from rules.action import Action
from rules.peloton.course import split
from rules.peloton.engine import Option, legal_actions, may_tandem, occupied, pending, rides
from rules.peloton.model import DIAL, RACING, Cyclist, State

CYCLE_ENERGY_PER_MOVE = 1.2  # +1 +1 +2 +2 then a rest: 6 energy in 5 moves
TANDEM_WORTH = 1.5  # half hexagons: ending behind a cyclist is worth most of a hexagon next move
FALL_PRICE = 16.0  # half hexagons: a fall lies out the next move and rides only the basic speed in the one after


def _hexagons_left(state: State, cell: str | None) -> int:
    if cell is None:
        return state.course.hexagons
    return max(0, (state.course.finish - split(cell)[0]) // 2)


def _reach(state: State, c: Cyclist, position: int, kept: bool = False) -> float:
    """How far (half hexagons) the cyclist gets at best with the dial at ``position``; -inf if it must fall."""
    moved = replace(c, dial=position)
    probe = replace(state, acting=c.id, kept=kept, cyclists=tuple(moved if x.id == c.id else x for x in state.cyclists))
    ends = [split(r.to)[0] for r in rides(probe, moved) if not r.fell]
    return float(max(ends)) if ends else float("-inf")


def _energy_price(state: State, c: Cyclist, energy: int) -> float:
    """What a point of energy is worth in hexagons: just under one while the cyclist has more chances
    to accelerate than energy (so +1 for 1 is taken, the abrupt +2 for 3 and a headwind's +1 for 2
    are not), less when it cannot all be spent before the line."""
    left = _hexagons_left(state, c.cell)
    moves_left = left / 4.5
    capacity = moves_left * CYCLE_ENERGY_PER_MOVE
    if energy <= 0:
        return 2.0
    return 0.9 * min(1.0, max(0.1, capacity / energy))


def _checkpoint_floor(state: State, c: Cyclist) -> int:
    """Energy the time trial's next checkpoint expects the cyclist to still have."""
    marks = [m for m in state.course.checkpoints if c.cell is None or m > split(c.cell)[0]]
    if not marks:
        return 0
    parts = len(state.course.checkpoints) + 1
    done = parts - len(marks)
    return state.course.energy * (parts - done) // parts


class _Reach:
    """``_reach`` for one cyclist, worked out once per dial value (positions 1 and 2 are both +1)."""

    def __init__(self, state: State, c: Cyclist) -> None:
        self.state, self.c = state, c
        self.known: dict[tuple[int, bool], float] = {}

    def __call__(self, position: int, kept: bool = False) -> float:
        key = (DIAL[position], kept)
        if key not in self.known:
            self.known[key] = _reach(self.state, self.c, position, kept)
        return self.known[key]


def _dial_score(state: State, o: Option, reach_of: _Reach) -> float:
    assert o.dial is not None
    c = reach_of.c
    reach = reach_of(o.dial.position, o.dial.kept)
    if reach == float("-inf"):
        return -1000.0
    gain = (reach - reach_of(0)) / 2  # hexagons bought by the dial
    if o.dial.kept:
        gain += 0.5  # keeping the dial in tandem keeps the cycle going
    energy_after = c.energy - o.dial.cost
    if state.discipline != "leg" and energy_after < _checkpoint_floor(state, c):
        return gain - 3.0 * o.dial.cost - 10.0
    price = _energy_price(state, c, c.energy)
    if state.discipline == "leg" and _rival_just_ahead(state, c):
        price *= 0.5  # get past before the rivals close the road (nobody passes a full strip)
    if state.discipline != "leg":
        price = min(price, 0.6)  # energy left at a time trial's end is only worth 4 s a point
    score = gain - price * o.dial.cost
    if o.dial.cost and gain <= 0:
        score -= 5.0  # never pay for speed the road will not let it use
    return score


def _rival_just_ahead(state: State, c: Cyclist) -> bool:
    """Another team's cyclist up to six hexagons ahead: the road may close in front of this one."""
    if c.cell is None:
        return False
    s = split(c.cell)[0]
    return any(
        x.team != c.team and x.on_road and x.cell is not None and 0 < split(x.cell)[0] - s <= 12 for x in state.cyclists
    )


def _mover_rank(state: State, cid: str) -> int:
    """A team time trial moves the cyclist furthest ahead first, so the others can follow it."""
    return state.queue.index(cid) if cid in state.queue else 99


def _ride_score(state: State, o: Option) -> tuple[float, int]:
    assert o.ride is not None
    c = state.cyclist(str(o.action.get("cyclist")))
    s, lane = split(o.ride.to)
    value = float(s)
    if s <= state.course.finish:
        taken = occupied(state)
        taken.pop(c.cell or "", None)
        taken[o.ride.to] = c.id
        after = replace(c, cell=o.ride.to, status=RACING)
        probe = replace(state, cyclists=tuple(after if x.id == c.id else x for x in state.cyclists))
        if may_tandem(probe, after, taken):
            value += TANDEM_WORTH
        if o.ride.fell:
            value -= FALL_PRICE  # past the line a fall costs nothing more: the cyclist has finished
    return (value, -abs(lane - state.course.width // 2))


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now."""
    d = pending(state)
    options = legal_actions(state, player)
    if d is None or not options:
        raise ValueError(f"{player} has nothing to decide")
    if d.kind == "card":
        return min(options, key=lambda o: (abs((o.card or 7) - 7), o.card or 0)).action
    if d.kind == "dial":
        first = min({str(o.action.get("cyclist")) for o in options}, key=lambda cid: _mover_rank(state, cid))
        options = [o for o in options if o.action.get("cyclist") == first]  # the team's front cyclist first
        reach = _Reach(state, state.cyclist(first))
        return max(
            options,
            key=lambda o: (
                _dial_score(state, o, reach),
                -(o.dial.cost if o.dial else 0),
                -DIAL[o.dial.position] if o.dial else 0,
            ),
        ).action
    return max(options, key=lambda o: _ride_score(state, o)).action
