"""Formula Dé Mini's engine: new_race, pending, legal_actions, apply, outcome.

A round: every car in race order (the car in front first; level cars by higher gear, then
who got there first) plays its turn: choose a gear (paying any over-rev), the die is
rolled, choose where to end the move (braking, blocking, overshooting, turbo, the pits),
then a slipstream if one is on; then collisions and engine checks. Cars in the pits roll
to leave instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.action import Action
from rules.errors import IllegalAction, NotYourTurn, RaceOver, WrongPhase
from rules.events import Event, event
from rules.formula_de_mini.gears import BLACK, dice, gear_die, legal_shifts
from rules.formula_de_mini.model import (
    BLOCKING_OUT,
    COLLISION_ON,
    ENGINE_LP,
    PIT_EXIT_MAX_GEAR,
    SLIPSTREAM_LP,
    TURBO_LP,
    Car,
    Moving,
    Setup,
    State,
)
from rules.formula_de_mini.moves import MoveOption, move_options, slipstream_options, start_path
from rules.formula_de_mini.path import Path
from rules.formula_de_mini.versions import ELIMINATION_LP, SPUN_COLLIDES
from rules.memo import by_state_identity
from rules.rng import Dice


@dataclass(frozen=True)
class Decision:
    player: str
    kind: str  # gear, move, slipstream, pit-exit
    car: str


@dataclass(frozen=True)
class Choice:
    action: Action
    option: MoveOption | None = None
    lp: int = 0  # LP this choice spends for sure (over-rev, braking, turbo, slipstream)


@dataclass(frozen=True)
class Outcome:
    finished: bool
    arrivals: tuple[str, ...]
    eliminated: tuple[str, ...]


def _black(state: State) -> tuple[int, State]:
    value, rolled = state.dice.roll_int(dice()[BLACK])
    return value, replace(state, dice=rolled)


def _log(state: State, type_: str, **data: object) -> State:
    return replace(state, events=(*state.events, event(state.turn, type_, **data)))


def _put(state: State, car: Car) -> State:
    return replace(state, cars=tuple(car if c.id == car.id else c for c in state.cars))


def new_race(
    setup: Setup, seed: int, script: dict[str, list[int | str]] | None = None, *, roll_grid: bool = True
) -> State:
    """The grid by the black die (lowest on pole, ties rolled again), then the first round.

    ``roll_grid=False`` (a mid-race start) seats the cars in seating order without rolling.
    """
    cars = [Car(f"{p.team}-{n + 1}", p.id, p.team, "") for p in setup.players for n in range(p.cars)]
    state = State(setup=setup, cars=tuple(cars), dice=Dice.new(seed, script))
    order: list[str] = []
    pending = [c.id for c in cars] if roll_grid else []
    if not roll_grid:
        order = [c.id for c in cars]
    while pending:
        rolls: dict[str, int] = {}
        for cid in pending:
            value, state = _black(state)
            rolls[cid] = value
            state = _log(state, "rolled", die="black", value=value, car=cid, reason="grid")
        groups: dict[int, list[str]] = {}
        for cid in pending:
            groups.setdefault(rolls[cid], []).append(cid)
        pending = []
        for value in sorted(groups):
            if len(groups[value]) == 1:
                order.append(groups[value][0])
            else:  # a tie: those cars roll again against each other, for these places
                tied = groups[value]
                sub = _grid_order(state, tied)
                state, ranked = sub
                order += ranked
    grid = setup.circuit.grid
    for slot, cid in enumerate(order):
        state = _put(state, replace(state.car(cid), cell=grid[slot]))
    if not roll_grid:
        return state  # the caller places the cars and starts the round
    state = _log(state, "grid", order=list(order))
    return _next(replace(state, queue=_race_order(state)))


def _grid_order(state: State, tied: list[str]) -> tuple[State, list[str]]:
    while True:
        rolls = {}
        for cid in tied:
            value, state = _black(state)
            rolls[cid] = value
            state = _log(state, "rolled", die="black", value=value, car=cid, reason="grid tie")
        if len(set(rolls.values())) == len(tied):
            return state, sorted(tied, key=lambda c: rolls[c])


def _progress(state: State, car: Car) -> tuple[int, int]:
    """How far round a car is: laps begun, then row (the straddling space is just past the line)."""
    return (car.lap, -1 if car.cell == state.setup.circuit.straddle else car.row)


def _race_order(state: State) -> tuple[str, ...]:
    playing = [c for c in state.cars if c.status in ("racing", "spun", "pits")]
    ordered = sorted(playing, key=lambda c: (_progress(state, c), c.gear, -c.stamp), reverse=True)
    return tuple(c.id for c in ordered)


def _next(state: State) -> State:
    """Automatic steps until a driver must decide (or the race is over)."""
    while not state.finished:
        if state.moving is not None:
            return state
        if not state.queue:
            if not any(c.status in ("racing", "spun", "pits") for c in state.cars):
                return _log(replace(state, finished=True), "finished")
            state = replace(state, turn=state.turn + 1)
            state = replace(state, queue=_race_order(state))
            continue
        car = state.car(state.queue[0])
        if car.status in ("finished", "eliminated"):
            state = replace(state, queue=state.queue[1:])
            continue
        state = _begin_turn(state, car)
    return state


def _begin_turn(state: State, car: Car) -> State:
    if car.status == "pits":
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=car.id, reason="pit exit", need=car.lp)
        if value >= car.lp:
            return replace(state, moving=Moving(car.id, "pit-exit", roll=value))
        return replace(state, queue=state.queue[1:])
    if not car.started:
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=car.id, reason="start")
        car = replace(car, started=True)
        if value <= 4:
            state = _log(_put(state, car), "stalled", car=car.id)
            return replace(state, queue=state.queue[1:])
        car = replace(car, gear=1)
        state = _put(state, car)
        if value >= 17:
            state = _log(state, "flying-start", car=car.id)
            return replace(state, moving=Moving(car.id, "move", roll=4))
        return _roll(state, car)
    return replace(state, moving=Moving(car.id, "gear"))


def _roll(state: State, car: Car) -> State:
    value, rolled = state.dice.roll_int(gear_die(car.gear))
    state = _log(replace(state, dice=rolled), "rolled", die=f"gear{car.gear}", value=value, car=car.id)
    return replace(state, moving=Moving(car.id, "move", roll=value))


def pending(state: State) -> Decision | None:
    if state.finished or state.moving is None:
        return None
    car = state.car(state.moving.car)
    return Decision(car.player, state.moving.step, car.id)


@by_state_identity  # asked again by apply() for the action the AI or the prompt just chose
def legal_actions(state: State, player: str) -> list[Choice]:
    decision = pending(state)
    if decision is None or decision.player != player:
        return []
    car = state.car(decision.car)
    moving = state.moving
    assert moving is not None
    if decision.kind == "gear":
        # "over-revving ... do[es] not apply in the pit lane" (rulings.md R-FDM-PIT-LANE)
        free = car.cell in state.setup.circuit.pit_cells
        gears = [
            s
            for s in legal_shifts(car.gear, shift_5_to_1=state.setup.options.shift_5_to_1)
            if free or s.over_rev <= car.lp
        ]  # over-revving is paid for, never on credit
        if car.status == "spun":
            gears = [s for s in gears if s.gear == 1] or [legal_shifts(1)[0]]
        return [Choice(Action(player, "gear", car=car.id, gear=s.gear), lp=0 if free else s.over_rev) for s in gears]
    if decision.kind == "pit-exit":
        return [Choice(Action(player, "pit", car=car.id, gear=g)) for g in range(1, PIT_EXIT_MAX_GEAR + 1)] + [
            Choice(Action(player, "pass", car=car.id))
        ]
    if decision.kind == "slipstream":
        path = _path_so_far(state, car, moving)
        choices = [
            Choice(
                Action(player, "slipstream", car=car.id, to=o.to, via=o.via, brake=o.brake or None),
                o,
                SLIPSTREAM_LP + o.brake,
            )
            for o in slipstream_options(state, car, path)
            if car.lp >= SLIPSTREAM_LP + o.brake  # rulings.md R-FDM-PAID
        ]
        return [*choices, Choice(Action(player, "pass", car=car.id))]
    options = move_options(state, car, moving.roll, turbo=car.lp >= TURBO_LP and not car.turbo_used)
    out = []
    for o in options:
        if o.brake and o.brake > car.lp and not o.pit:
            continue  # braking is paid for before moving
        out.append(
            Choice(
                Action(player, "drive", car=car.id, to=o.to, via=o.via, brake=o.brake or None, turbo=o.turbo),
                o,
                o.brake + (TURBO_LP if o.turbo else 0),
            )
        )
    return out


def _path_so_far(state: State, car: Car, moving: Moving) -> Path:
    """The path driven this turn (a slipstream continues it)."""
    return moving.trail if moving.trail is not None else start_path(state, car)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    before = len(state.events)
    if state.finished:
        raise RaceOver(f"the race is over; {action.text()!r} cannot be played")
    decision = pending(state)
    assert decision is not None
    if action.by != decision.player:
        raise NotYourTurn(f"it is {decision.player}'s turn ({decision.car}, {decision.kind}), not {action.by}'s")
    if action.car not in (None, decision.car):
        raise NotYourTurn(f"{decision.car} plays now, not {action.car}")
    choices = legal_actions(state, action.by)
    allowed = sorted({c.action.do for c in choices})
    if action.do not in allowed:
        raise WrongPhase(
            f"{action.do!r} is not allowed now ({decision.car}, {decision.kind}); allowed: {', '.join(allowed)}"
        )
    match = _match(choices, action)
    state = _resolve(state, match)
    return state, list(state.events[before:])


def _match(choices: list[Choice], action: Action) -> Choice:
    for c in choices:
        a = c.action
        if a.do != action.do or (a.gear != action.gear and action.do in ("gear", "pit")):
            continue
        if action.do in ("drive", "slipstream"):
            if a.to != action.to or (a.brake or 0) != (action.brake or 0) or a.turbo != action.turbo:
                continue
            if action.via and a.via != action.via:
                continue
        return c
    legal = ", ".join(sorted({c.action.to or str(c.action.gear) for c in choices if c.action.do == action.do}))
    raise IllegalAction(f"{action.text()!r} is not legal now; legal {action.do}: {legal or 'none'}")


def _resolve(state: State, choice: Choice) -> State:
    moving = state.moving
    assert moving is not None
    car = state.car(moving.car)
    action = choice.action
    if action.do == "gear":
        car = replace(
            car, gear=action.gear or 1, lp=car.lp - choice.lp, status="racing" if car.status == "spun" else car.status
        )
        state = _log(_put(state, car), "gear", car=car.id, gear=car.gear, over_rev=choice.lp)
        return _next(_roll(state, car))
    if action.do == "pit":
        car = replace(car, status="racing", lp=moving.roll, gear=action.gear or 1, pitted=True)
        state = _log(_put(state, car), "left-pits", car=car.id, lp=car.lp, gear=car.gear)
        if state.setup.options.pit_exit == "at-once":  # the race option: it drives off this turn (R-FDM-PIT)
            return _next(_roll(state, car))
        return _next(replace(state, moving=None, queue=state.queue[1:]))
    if action.do == "pass" and moving.step == "pit-exit":
        state = _log(state, "stays-in-pits", car=car.id)
        return _next(replace(state, moving=None, queue=state.queue[1:]))
    if action.do == "pass":  # no slipstream
        return _finish_move(state, car, moving, None)
    option = choice.option
    assert option is not None
    if action.do == "slipstream":
        car = replace(car, lp=car.lp - SLIPSTREAM_LP - option.brake)
        state = _log(_put(state, car), "slipstream", car=car.id, to=option.to, spaces=option.spaces, brake=option.brake)
        moving = replace(
            moving,
            path=option.path,
            slipstreams=moving.slipstreams + 1,
            trail=option.trail,
            braked=option.brake > 0,  # no braking into another slipstream
        )
        return _after_drive(state, car, moving, option)
    car = replace(car, lp=car.lp - option.brake, turbo_used=car.turbo_used or option.turbo)
    if option.turbo:
        car = replace(car, lp=car.lp - TURBO_LP)
    state = _log(
        _put(state, car),
        "drive",
        car=car.id,
        to=option.to,
        spaces=option.spaces,
        brake=option.brake,
        blocked=option.blocked,
        overshoot=option.overshoot,
        turbo=option.turbo,
    )
    moving = replace(moving, path=option.path, braked=option.brake > 0, trail=option.trail)
    return _after_drive(state, car, moving, option)


def _after_drive(state: State, car: Car, moving: Moving, option: MoveOption) -> State:
    state = replace(state, moving=moving)
    if not option.pit and not moving.braked and not option.blocked:
        probe = replace(state.car(car.id), cell=option.to)
        if slipstream_options(_put(state, probe), probe, _path_so_far(state, car, moving)):
            return replace(state, moving=replace(moving, step="slipstream"))
    return _finish_move(state, car, moving, option)


def _finish_move(state: State, car: Car, moving: Moving, option: MoveOption | None) -> State:
    """The car stops: pay blocking and overshoot, count stops, laps, pits, collisions, engine."""
    path = _path_so_far(state, car, moving)
    if option is None:
        option = MoveOption(
            path.cells[-1] if path.cells else car.cell,
            path.cells[:-1],
            len(path.cells),
            0,
            0,
            path.overshoot,
            path.crossings,
            False,
            path.skidding,
        )
    stamp = state.stamp + 1
    end = option.to
    circuit = state.setup.circuit
    lap = car.lap + option.crossings
    corner = circuit.corner_number(end)
    stops = car.stops if corner == car.corner and not option.crossings and not path.cells else 0
    if corner is not None and not option.skidding:
        stops = (car.stops if corner == car.corner else 0) + 1
    car = replace(car, cell=end, lap=lap, corner=corner, stops=stops if corner is not None else 0, stamp=stamp)
    state = _put(replace(state, stamp=stamp, moving=None), car)
    state = _pay_blocking(state, car, option)
    car = state.car(car.id)
    if car.status == "eliminated":
        return _next(replace(state, queue=state.queue[1:]))
    if option.overshoot:
        state = _overshoot(state, car, option.overshoot)
        car = state.car(car.id)
    if car.status != "eliminated" and option.pit:
        car = replace(car, status="pits")
        state = _log(_put(state, car), "pitted", car=car.id, at=end)
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=car.id, reason="pit exit", need=car.lp)
        if value >= car.lp:
            return replace(state, moving=Moving(car.id, "pit-exit", roll=value))
        return _next(replace(state, queue=state.queue[1:]))
    if car.status != "eliminated" and lap > state.setup.laps:
        car = replace(car, status="finished", finished_turn=state.turn)
        state = _log(_put(state, car), "finished-race", car=car.id, place=len(state.arrivals) + 1)
        state = replace(state, arrivals=(*state.arrivals, car.id))
    elif car.status != "eliminated":
        state = _put(state, car)
        state = _collisions(state, car)
        if _engine_pushed(state, car):
            state = _engine_damage(state)
    return _next(replace(state, queue=state.queue[1:]))


def _lose(state: State, car: Car, lp: int, why: str) -> State:
    """Take ``lp`` from a car; one that cannot pay is eliminated."""
    if lp <= 0:
        return state
    if car.lp < lp:
        car = replace(car, lp=0, status="eliminated")
        return _log(_put(state, car), "eliminated", car=car.id, reason=why)
    car = replace(car, lp=car.lp - lp)
    return _log(_put(state, car), "lost", car=car.id, lp=lp, reason=why)


def _pay_blocking(state: State, car: Car, option: MoveOption) -> State:
    if not option.blocked:
        return state
    if option.blocked >= BLOCKING_OUT or car.lp < option.blocked:
        state = _log(_put(state, replace(car, lp=0, status="eliminated")), "eliminated", car=car.id, reason="blocked")
        ahead = sorted(
            (
                c
                for c in state.cars
                if c.status in _on_track(state) and c.cell in state.setup.circuit.track.cells[option.to].successors
            ),
            key=lambda c: c.cell.split(".")[1],
        )
        if ahead:
            hit = ahead[0]
            if len(ahead) > 1:
                hit, state = _roll_for_hit(state, car, ahead)
            state = _lose(state, hit, 2, "hit by a blocked car")
        return state
    return _lose(state, car, option.blocked, "blocked")


def _roll_for_hit(state: State, car: Car, ahead: list[Car]) -> tuple[Car, State]:
    """The black die picks the car hit (rulings.md R-FDM-HIT): its faces split into equal
    ranges, one per car from the left lane; faces above the last whole range are rolled again."""
    span = len(dice()[BLACK].faces) // len(ahead)
    among = [c.id for c in ahead]
    while True:
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=car.id, reason="which car is hit", among=among)
        if value <= span * len(ahead):
            return ahead[(value - 1) // span], state


def _overshoot(state: State, car: Car, spaces: int) -> State:
    if spaces <= car.lp:
        return _lose(state, car, spaces, "overshot a corner")
    if spaces == car.lp + 1:  # rulings.md R-FDM-SPIN
        car = replace(car, lp=0, status="spun", gear=1)
        return _log(_put(state, car), "spun", car=car.id)
    return _lose(state, car, spaces, "overshot a corner")


def _on_track(state: State) -> tuple[str, ...]:
    """The statuses of the cars a car may collide with or hit: a spun-out car too (R-FDM-SPUN)."""
    return ("racing", "spun") if state.setup.rules.has(SPUN_COLLIDES) else ("racing",)


def _neighbours(state: State, car: Car) -> list[Car]:
    """Cars the mover stopped beside or behind (not in front of)."""
    circuit = state.setup.circuit
    if car.cell in circuit.pit_cells:
        return []
    cells = circuit.track.cells
    ahead = set(cells[car.cell].successors)
    row = car.row
    out = []
    for other in state.cars:
        if other.id == car.id or other.status not in _on_track(state) or other.cell in circuit.pit_cells:
            continue
        beside = abs(other.row - row) <= 0 and abs(int(other.cell.split(".")[1]) - int(car.cell.split(".")[1])) == 1
        if other.cell in ahead or beside:
            out.append(other)
    return out


def _collisions(state: State, mover: Car) -> State:
    others = _neighbours(state, mover)
    if not others:
        return state
    eliminated_by_me = 0
    for other in others:
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=other.id, reason="collision")
        if value <= COLLISION_ON:
            state = _lose(state, state.car(other.id), 1, f"collision with {mover.id}")
            eliminated_by_me += state.car(other.id).status == "eliminated"
    if eliminated_by_me and state.setup.rules.has(ELIMINATION_LP):
        # "causes the elimination of one or more other cars then their own car will automatically
        # lose an LP without rolling the black die" (R-FDM-ELIMINATES): one LP, no rolls
        return _lose(state, state.car(mover.id), 1, "eliminated another car")
    for other in others:  # the mover rolls last, once per car (before R-FDM-ELIMINATES: an LP per car eliminated)
        me = state.car(mover.id)
        if me.status == "eliminated":
            break
        if eliminated_by_me:
            eliminated_by_me -= 1
            state = _lose(state, me, 1, "eliminated another car")
            continue
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=mover.id, reason=f"collision with {other.id}")
        if value <= COLLISION_ON:
            state = _lose(state, me, 1, f"collision with {other.id}")
    return state


def _engine_pushed(state: State, car: Car) -> bool:
    if car.cell in state.setup.circuit.pit_cells:
        return False  # "engine damage [does] not apply in the pit lane"
    last = next(  # the car's last gear roll: read from the end, the log grows all race
        (
            e
            for e in reversed(state.events)
            if e.type == "rolled" and e.data.get("car") == car.id and str(e.data.get("die", "")).startswith("gear")
        ),
        None,
    )
    if last is None:
        return False
    return (last.data["die"], last.data["value"]) in (("gear4", 12), ("gear5", 20)) and last.turn == state.turn


def _engine_damage(state: State) -> State:
    pit_lane = state.setup.circuit.pit_cells
    for car in [c for c in state.cars if c.status == "racing" and c.gear >= 4 and c.cell not in pit_lane]:
        value, state = _black(state)
        state = _log(state, "rolled", die="black", value=value, car=car.id, reason="engine")
        if value <= COLLISION_ON:
            state = _lose(state, state.car(car.id), ENGINE_LP, "engine damage")
    return state


def outcome(state: State) -> Outcome:
    return Outcome(state.finished, state.arrivals, tuple(c.id for c in state.cars if c.status == "eliminated"))
