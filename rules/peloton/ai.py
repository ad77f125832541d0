"""The AI cyclist.

A leg race: every dial setting and the best few rides are played out two moves ahead through the
whole bunch (``ai_search`` on ``ai_sim``'s model of a move), the heuristics below breaking ties
and choosing which rides to play out.

The dial: never pay for speed the road will not let the cyclist use (a blocked road or a turning).
In a leg race, speed against energy at a point a hexagon: the +1 +2 +2 cycle, never the abrupt
+0 → +2 (3 energy) nor a headwind's extra point, until the moves left cannot spend what it holds
(then half price: energy is worth nothing after the line); early speed first, since the cyclist
ahead rides first on an open road. In an individual time trial, the card, the dial and the ride
that leave the best time a lone cyclist can still make on this course (``ai_trial``: a minute a
move, 5 s a strip past the line, 4 s a point left, the checkpoints' overdrawn points). A team
time trial prices energy by its scarcity, keeps the dial in tandem and the checkpoints'
reserves. The ride: as
far as it can without falling, then where the next move starts fastest (downhill, not uphill)
and right behind another cyclist (tandem, +1 next move).
A fall (riding into a turning too fast for its trail, R-PEL-OVERSPEED) is taken only when nothing
else is left, or when it carries the cyclist over the line (past the line it costs nothing more).
"""

from __future__ import annotations

import math
from dataclasses import replace

from rules.action import Action
from rules.peloton import ai_search, ai_sim, ai_trial
from rules.peloton.cards import card
from rules.peloton.course import TERRAINS, split
from rules.peloton.engine import Option, legal_actions, may_tandem, occupied, pending, reserve, rides
from rules.peloton.model import DIAL, RACING, Cyclist, State

SPENDABLE_PER_MOVE = 1.25  # the +1 +2 +2 cycle and its rest: 5 energy in 4 moves
RIDES_SEARCHED = 6  # the heuristic's best rides, each played out ahead
TANDEM_WORTH = 1.5  # half hexagons: ending behind a cyclist is worth most of a hexagon next move


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


def _moves_left(state: State, c: Cyclist) -> int:
    """About how many moves the cyclist has left: the road to the line at its usual pace."""
    pace = 4.5 if state.discipline == "leg" else 5.0
    return max(1, math.ceil(_hexagons_left(state, c.cell) / pace))


def _dial_score(state: State, o: Option, reach_of: _Reach) -> tuple[float, int]:
    """What a dial position is worth, in hexagons. Never pay for speed the road will not let the
    cyclist use. A leg race: the speed against its energy, a point a hexagon, so the +1 +2 +2 cycle
    and never the abrupt +2 (3 energy) nor a headwind's extra point, until there is more energy
    than the moves left can spend (then half price: nothing is worth keeping after the line); on a
    tie, the faster (ahead early, the cyclist rides first on an open road). A team time trial: the
    speed bought against energy priced by its scarcity, keeping the checkpoints' reserves. An
    individual time trial: the best time still to ride from where the dial lets it get
    (``ai_trial``)."""
    assert o.dial is not None
    c = reach_of.c
    reach = reach_of(o.dial.position, o.dial.kept)
    if reach == float("-inf"):
        return (-1000.0, 0)
    gain = (reach - reach_of(0)) / 2  # hexagons bought by the dial
    value = DIAL[o.dial.position]
    energy = c.energy + reserve(state)
    moves = _moves_left(state, c)
    if state.discipline == "leg":
        price = 1.0 if energy <= SPENDABLE_PER_MOVE * moves else 0.5
        score = value - price * o.dial.cost
    elif state.discipline == "ttt":
        # the team's pace: the speed it really buys, energy priced by how scarce it is (at most 4 s a
        # point), keeping the dial in tandem keeps the cycle going
        price = min(0.6, 0.9 * min(1.0, max(0.1, moves * 1.2 / energy))) if energy > 0 else 2.0
        score = gain + (0.5 if o.dial.kept else 0.0) - price * o.dial.cost
        if energy - o.dial.cost < _checkpoint_floor(state, c):
            score = gain - 3.0 * o.dial.cost - 10.0
    else:
        return (-_trial_time(state, c, reach, o.dial.position, c.energy - o.dial.cost), value)
    if o.dial.cost and gain <= 0:
        score -= 5.0  # never pay for speed the road will not let it use
    return (round(score, 6), value)


def _card_value(state: State, c: Cyclist, number: int) -> float:
    """A time-trial card, less its tenths of a second: its t plus the best time its energy lets a
    lone cyclist ride on this course (``ai_trial``), so a point that saves no move and carries
    the cyclist no further past the line is not paid 9 s for. A team time trial keeps to the
    middle cards: its time adds every card's t to its second rider's."""
    chosen = card(number)
    if state.discipline != "itt":
        return -abs(number - 7) * 10.0
    start = split(state.course.start_cells()[0])[0]
    energy = max(0, c.energy + chosen.energy)
    return -float(chosen.tenths + ai_trial.time_to_go(state.course, state.wind, start, 0, energy))


def _trial_time(state: State, c: Cyclist, s: float, position: int, energy: int) -> float:
    """An individual time trial: the time still to ride (tenths) once this move ends on strip ``s``
    with the dial at ``position`` and ``energy`` left (``ai_trial``)."""
    course = state.course
    end = int(s)
    old = split(c.cell)[0] if c.cell is not None else end
    left = ai_trial.after_checkpoints(course, old, end, energy)
    if end > course.finish:
        return float(ai_trial.finish_time(course, end, left))
    return float(ai_trial.MINUTE + ai_trial.time_to_go(course, state.wind, end, position, left))


def _mover_rank(state: State, cid: str) -> int:
    """A team time trial moves the cyclist furthest ahead first, so the others can follow it."""
    return state.queue.index(cid) if cid in state.queue else 99


def _ride_score(state: State, o: Option) -> tuple[int, int, float, int]:
    """Safe first, then across the line now (a move later is a minute), then the furthest with the
    next move's start (terrain, tandem) counted (an individual time trial: the best time still to
    ride from there), then the middle of the road."""
    assert o.ride is not None
    c = state.cyclist(str(o.action.get("cyclist")))
    s, lane = split(o.ride.to)
    value = float(s)
    if s <= state.course.finish:
        value += 2 * TERRAINS[state.course.terrain_at(s)]  # the basic speed of the next move starts here
        taken = occupied(state)
        taken.pop(c.cell or "", None)
        taken[o.ride.to] = c.id
        after = replace(c, cell=o.ride.to, status=RACING)
        probe = replace(state, cyclists=tuple(after if x.id == c.id else x for x in state.cyclists))
        if may_tandem(probe, after, taken):
            value += TANDEM_WORTH
    crosses = int(s > state.course.finish)
    safe = 0 if o.ride.fell and not crosses else 1  # past the line a fall costs nothing more
    if state.discipline == "itt" and not o.ride.fell:
        value = -_trial_time(state, c, float(s), c.dial, c.energy)
    return (safe, crosses, value, -abs(lane - state.course.width // 2))


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now."""
    d = pending(state)
    options = legal_actions(state, player)
    if d is None or not options:
        raise ValueError(f"{player} has nothing to decide")
    if d.kind == "card":
        rider = state.cyclist(d.cyclist or "")
        return max(options, key=lambda o: (_card_value(state, rider, o.card or 7), -(o.card or 0))).action
    if state.discipline == "leg" and d.cyclist is not None:
        return _searched(state, player, d.kind, d.cyclist, options)
    if d.kind == "dial":
        first = min({str(o.action.get("cyclist")) for o in options}, key=lambda cid: _mover_rank(state, cid))
        options = [o for o in options if o.action.get("cyclist") == first]  # the team's front cyclist first
        reach = _Reach(state, state.cyclist(first))
        return max(
            options,
            key=lambda o: (
                _dial_score(state, o, reach),
                -(o.dial.cost if o.dial else 0),
                -o.dial.position if o.dial else 0,
            ),
        ).action
    return max(options, key=lambda o: _ride_score(state, o)).action


def _searched(state: State, player: str, kind: str, cid: str, options: list[Option]) -> Action:
    """A leg race: each choice played out a few moves ahead with every cyclist as the baseline
    rides (``ai_search``), the best for the player's leading cyclist against the best rival;
    ties go to the heuristic's order."""
    sim = ai_sim.from_state(state)
    i = [c.id for c in state.cyclists].index(cid)
    if kind == "dial":
        c = state.cyclist(cid)
        reach = _Reach(state, c)
        if c.energy + reserve(state) - 3 < SPENDABLE_PER_MOVE * _moves_left(state, c):
            # energy short, or short once 3 are paid: never 3 for a move (the abrupt +0 -> +2,
            # +1 into a headwind)
            options = [o for o in options if o.dial is not None and o.dial.cost < 3] or options
        # never pay for speed the road will not let it use this move
        useful = [o for o in options if o.dial is not None and (not o.dial.cost or reach(o.dial.position) > reach(0))]
        options = useful or options

        def dial_key(o: Option) -> tuple[float, tuple[float, int], int, int]:
            assert o.dial is not None
            searched = ai_search.after_dial(sim, i, o.dial.position, o.dial.cost, player)
            return (round(searched, 6), _dial_score(state, o, reach), -o.dial.cost, -o.dial.position)

        return max(options, key=dial_key).action
    safe = [o for o in options if o.ride is not None and not o.ride.fell] or options
    safe = sorted(safe, key=lambda o: _ride_score(state, o), reverse=True)[:RIDES_SEARCHED]

    def ride_key(o: Option) -> tuple[float, tuple[int, int, float, int]]:
        assert o.ride is not None
        searched = ai_search.after_ride(sim, i, split(o.ride.to), player) if not o.ride.fell else -1e9
        return (round(searched, 6), _ride_score(state, o))

    return max(safe, key=ride_key).action
