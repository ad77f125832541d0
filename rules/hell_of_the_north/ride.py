"""Resolving one chosen ride: risks, costs, recovery, weather, slipstream, feed zones, bonus, arrival."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.hell_of_the_north.model import (
    COBBLE_SLIPSTREAM_CUT,
    PELOTON,
    TIME_BONUS,
    WEATHER_DIE,
    Event,
    Rider,
    State,
    cobble_result,
    event,
    risk_holds,
    risk_need,
)
from rules.hell_of_the_north.moves import RideOption, ride_options
from rules.leader1 import family
from rules.rng import Dice, Die


def replace_rider(state: State, rider: Rider) -> State:
    return family.replace_rider(state, rider)


def add_events(state: State, events: list[Event]) -> State:
    return family.add_events(state, events)


@dataclass(frozen=True)
class PelotonDieRisk:
    """Race conditions 2: risks are rolled on the peloton die (R-HOTN-RISK-4TH after the 3rd)."""

    die: str = "peloton"

    def roll(self, dice: Dice, risks: int) -> tuple[int | str, Dice]:
        return dice.roll(PELOTON)

    def holds(self, face: int | str, risks: int) -> bool:
        return risk_holds(face, risks)

    def need(self, risks: int) -> int | str:
        return risk_need(risks)


PELOTON_DIE_RISK = PelotonDieRisk()


def resolve_ride(state: State, option: RideOption) -> State:
    """Apply a legal ``option``: roll its risks, pay, and place the rider."""
    if state.setup.options.weather_reveal == "at-once":
        state, option = _weather_at_once(state, option)
    rider = state.rider(option.rider)
    turn = state.turn
    events: list[Event] = []
    start_row = state.peloton if option.start is None else int(option.start.split(".")[0])

    risked = family.roll_risks(state, rider, option.crack, option.fall, option.cost, PELOTON_DIE_RISK, events)
    dice, cost, risks, cracked, fell = risked.dice, risked.cost, risked.risks, risked.cracked, risked.fell
    punctured = False
    if option.cobbles and not fell:
        face, dice = dice.roll(PELOTON)
        result = cobble_result(face)
        events.append(event(turn, "rolled", die="peloton", value=face, rider=rider.id, risk="cobbles"))
        events.append(event(turn, "cobbles", rider=rider.id, result=result))
        fell = result == "fall"
        punctured = result == "puncture"
    energy = max(0, rider.energy - cost + option.recovery)  # below 0 only by weather turned mid-move
    dest_row = int(option.to.split(".")[0])
    stamp = state.stamp + 1
    events.append(family.ride_event(turn, option, option.start, cost, wind=option.wind))
    if cracked:
        events.append(event(turn, "cracked", rider=rider.id, cost=cost))

    kept, dice, piles = family.feed_rider(state, rider, dice, start_row, dest_row, events)
    if option.heat and kept:  # Weather, heat: show a kept tile and add it at once (R-HOTN-HEAT)
        value, kept = kept[0], kept[1:]
        energy += value
        events.append(event(turn, "heat", rider=rider.id, value=value))
    bonus_won, bonus_rows = family.bonus_rows_won(state, start_row, dest_row, rider.id)
    bonuses = rider.bonuses + TIME_BONUS * len(bonus_rows)
    events += [event(turn, "bonus", rider=rider.id, row=row) for row in bonus_rows]

    moved = replace(family.ridden(rider, option.to, energy, risks, kept, stamp), skip_turn=None, bonuses=bonuses)
    if option.finishes:
        moved = replace(moved, status="finished", arrived_turn=turn, part=None)
        events.append(event(turn, "arrived", rider=rider.id, at=option.to))
    elif fell:
        moved = replace(moved, status="fallen", skip_turn=turn + 1)
        events.append(event(turn, "fell", rider=rider.id, at=option.to, cost=cost))
    elif punctured:
        moved = replace(moved, status="punctured", punctured_turn=turn)
        events.append(event(turn, "punctured", rider=rider.id, at=option.to))
    elif option.rejoins:
        moved = replace(moved, status="peloton", part="back", row=None, lane=None)
        events.append(event(turn, "rejoined", rider=rider.id, part="back"))
    else:
        moved = replace(moved, status="breakaway" if dest_row > state.peloton else "dropped", part=None)
    state = replace(state, dice=dice, stamp=stamp, bonus_won=bonus_won, piles=piles)
    state = replace_rider(state, moved)
    if option.start is not None and not fell and not punctured:
        state = _give_slipstream(state, start_row, int(option.start.split(".")[1]), option.squares)
    if (fell or punctured) and not option.finishes:
        # Race conditions 1 and 3: the rider stays there, "So do the riders who were following them"
        state = family.lose_slipstream_behind(state, moved)  # (R-HOTN-PUNCTURE-SLIPSTREAM)
    state = add_events(state, events)
    return reveal_weather(state)


def _give_slipstream(state: State, start_row: int, lane: int, squares: int) -> State:
    """Race conditions 1: the rider exactly behind the mover's starting square gets a free square,
    unless the mover went 6+ (5+ from cobbles, 8+ from a downhill)."""
    course = state.setup.course
    if course.cobbled(start_row):
        cut = COBBLE_SLIPSTREAM_CUT
    else:
        cut = state.setup.ruleset.slipstream_cut[course.road.terrain(start_row)]
    return family.give_slipstream(state, start_row, lane, squares, cut)


def _weather_at_once(state: State, option: RideOption) -> tuple[State, RideOption]:
    """The race option ``weather_reveal: at-once`` (R-HOTN-WEATHER-REVEAL): a marker the ride turns
    face up acts on the rest of that very move, so the chosen path is costed again under it (its
    wind, rain and heat). A rider who cannot pay what the weather adds ends with 0 energy."""
    revealed = reveal_weather(state, also=int(option.to.split(".")[0]))
    if revealed.weather == state.weather:
        return state, option
    rider = revealed.rider(option.rider)
    unbounded = replace_rider(revealed, replace(rider, energy=max(rider.energy, 10**6)))  # costed, never refused
    path = (*option.via, option.to)
    listed = ride_options(unbounded, option.rider, breakaway=option.breakaway, route=path)
    again = [o for o in listed if o.to == option.to]
    return revealed, (again[0] if again else option)


def reveal_weather(state: State, also: int | None = None) -> State:
    """Weather: a face-down marker turns as soon as a rider or the peloton reaches the hexagon before it
    (``also``: a row a ride is reaching now, before it is placed there)."""
    course = state.setup.course
    rows = [state.peloton, *(r.row or 0 for r in state.riders if r.row is not None and r.racing)]
    reached = max([*rows, *([] if also is None else [also])])
    for hexagon, marker in state.weather:
        if marker is not None or reached < hexagon - course.hex_rows or not state.weather_pool:
            continue
        pool = tuple(sorted(state.weather_pool))
        face, dice = state.dice.roll(Die(WEATHER_DIE, pool))
        name = str(face)
        if name not in pool:
            name = pool[0]
        rest = list(state.weather_pool)
        rest.remove(name)
        weather = tuple((h, name if h == hexagon else m) for h, m in state.weather)
        state = replace(state, dice=dice, weather=weather, weather_pool=tuple(rest))
        state = add_events(state, [event(state.turn, "weather", row=hexagon, marker=name)])
    return state
