"""A sensible Formula Dé Mini driver: picks the highest gear it can afford before a corner,
brakes rather than overshoots, takes slipstreams (braked ones to stop inside a corner), and
makes its pit stop when its LP are worth topping up."""

from __future__ import annotations

from rules.action import Action
from rules.formula_de_mini.engine import Choice, legal_actions, pending
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.model import Car, State
from rules.formula_de_mini.moves import Move, MoveOption, in_pit_window, kept_moves_by_roll, reachable

LAP_LP = 8  # about what a lap costs the AI at most (it spends 1 to 9 on a canyon or island lap)
PIT_MARGIN = 4
PIT_LEAVE_AT = 12


def wants_pit(state: State, car: Car) -> bool:
    """A stop is worth it when the laps still to drive may cost more LP than the car has left.

    The stop costs the rest of that move and at least a turn at the stand; it gives back the
    exit roll (the AI waits for ``PIT_LEAVE_AT`` or more). In the default 2-lap race that is
    12 LP or fewer coming round the first time. On the last lap the line is just past the
    stands: never worth it.
    """
    if car.pitted or not in_pit_window(car) or car.lap >= state.setup.laps:
        return False
    return car.lp <= PIT_MARGIN + LAP_LP * (state.setup.laps - car.lap)


def _move_score(state: State, car: Car, o: MoveOption | Move) -> float:
    in_pit_lane = car.cell in state.setup.circuit.pit_cells
    if o.pit:  # a car already waiting in the pit lane goes on to its stand
        return 100.0 if in_pit_lane or wants_pit(state, car) else -100.0
    if o.pit_lane and not in_pit_lane:  # into the pit lane, short of the stand: worth it only to stop
        return 90.0 + o.spaces * 0.1 if wants_pit(state, car) else -100.0
    cost = o.brake + o.blocked + o.overshoot + (3 if o.turbo else 0)
    if o.overshoot > car.lp or o.blocked >= 7 or o.blocked > car.lp:
        return -1000.0
    return o.spaces * 1.0 - cost * 2.5 + o.crossings * 2


def _slipstream_score(state: State, choice: Choice) -> float:
    """Spaces gained against LP spent; a stop inside a corner is worth braking a slipstream for."""
    o = choice.option
    assert o is not None
    in_corner = state.setup.circuit.track.cells[o.to].attrs.get("corner") is not None
    return o.spaces - choice.lp * 2.5 + (4.0 if in_corner and not o.skidding else 0.0)


def _expected_cost(state: State, car: Car, gear: int, scores: dict[int, float]) -> float:
    """The roll's best move score averaged over the gear's die; ``scores`` holds each roll's
    best (neither the moves nor their scores depend on the gear)."""
    faces = [int(f) for f in gear_die(gear).faces]
    total = 0.0
    for roll in sorted(set(faces)):
        total += scores[roll] * faces.count(roll) / len(faces)
    return total


def _roll_scores(state: State, car: Car, gears: list[int]) -> dict[int, float]:
    """Each roll of the ``gears``' dice: its best move's score (one search, the paths sorted out once)."""
    rolls = sorted({int(f) for gear in gears for f in gear_die(gear).faces})
    reached = reachable(state, car, max(rolls))
    return {
        roll: max((_move_score(state, car, m) for m in moves), default=-1000.0)
        for roll, moves in kept_moves_by_roll(state, car, rolls, reached).items()
    }


def choose(state: State, player: str) -> Action:
    decision = pending(state)
    if decision is None or decision.player != player:
        raise ValueError(f"{player} has nothing to decide now")
    car = state.car(decision.car)
    choices = legal_actions(state, player)
    if decision.kind == "gear":
        # where the car can get does not depend on its gear: one search serves every gear and roll
        scores = _roll_scores(state, car, [c.action.gear or 1 for c in choices])

        def gear_value(c: Choice) -> tuple[float, int]:
            cost = _expected_cost(state, car, c.action.gear or 1, scores)
            return (cost - c.lp * 2.5, c.action.gear or 0)

        return max(choices, key=gear_value).action
    if decision.kind == "pit-exit":
        roll = state.moving.roll if state.moving else 0
        if roll >= PIT_LEAVE_AT:
            return next(c.action for c in choices if c.action.do == "pit" and c.action.gear == 3)
        return next(c.action for c in choices if c.action.do == "pass")
    if decision.kind == "slipstream":
        takes = [c for c in choices if c.option is not None and c.option.overshoot == 0 and car.lp > c.lp + 3]
        scored = [(_slipstream_score(state, c), c.action.to or "", c) for c in takes]
        best = max(scored, key=lambda t: (t[0], t[1]), default=None)
        if best is not None and best[0] > 0:
            return best[2].action
        return next(c.action for c in choices if c.action.do == "pass")
    moves = [c for c in choices if c.option is not None]
    return max(
        moves,
        key=lambda c: (
            _move_score(state, car, c.option) if c.option else -1e9,
            c.action.to or "",
            -(c.action.brake or 0),
        ),
    ).action
