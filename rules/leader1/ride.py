"""Resolving one chosen ride: risks, costs, recovery, slipstream, feed zones, bonus, arrival."""

from __future__ import annotations

from dataclasses import replace

from rules.leader1.dice import EVENTS
from rules.leader1.feed import draw
from rules.leader1.model import FEED_COLOUR, Event, Rider, State, event
from rules.leader1.moves import RideOption


def replace_rider(state: State, rider: Rider) -> State:
    return replace(state, riders=tuple(rider if r.id == rider.id else r for r in state.riders))


def resolve_ride(state: State, option: RideOption) -> State:
    """Apply a legal ``option``: roll its risks, pay, and place the rider."""
    setup = state.setup
    road = setup.road
    rules = setup.ruleset
    rider = state.rider(option.rider)
    turn = state.turn
    events: list[Event] = []
    start_row = state.peloton if option.breakaway else rider.row
    assert start_row is not None
    start_cell = None if option.breakaway else rider.cell
    dice = state.dice

    risks = rider.risks
    cost = option.cost
    cracked = fell = False
    for kind in ("crack", "fall"):
        if not getattr(option, kind):
            continue
        need = rules.risk_threshold(risks)
        roll, dice = dice.roll_int(EVENTS)
        risks += 1
        ok = roll >= need
        events.append(event(turn, "rolled", die="events", value=roll, rider=rider.id, risk=kind, need=need))
        if not ok and kind == "crack":
            cracked = True
            cost *= rules.crack_factor
        elif not ok:
            fell = True
            cost *= rules.fall_factor
    energy = rider.energy - cost + option.recovery
    dest_row, dest_lane = (int(x) for x in option.to.split("."))
    stamp = state.stamp + 1
    events.append(
        event(
            turn,
            "breakaway" if option.breakaway else "rode",
            rider=rider.id,
            **{"from": start_cell},
            to=option.to,
            squares=option.squares,
            free=option.free,
            paid=option.paid,
            cost=cost,
            recovered=option.recovery,
            crossings=option.crossings,
            slipstream=option.slipstream,
        )
    )
    if cracked:
        events.append(event(turn, "cracked", rider=rider.id, cost=cost))

    kept = list(rider.kept)
    piles = state.piles
    for row in road.feed:
        if start_row < row <= dest_row:
            colour = FEED_COLOUR[rider.kind]
            value, dice, piles = draw(dice, piles, colour)
            if value is None:  # the pile has run out
                events.append(event(turn, "feed-empty", rider=rider.id, colour=colour))
                continue
            kept.append(value)
            events.append(event(turn, "fed", rider=rider.id, kept=len(kept)))
    bonus_won = state.bonus_won
    for row in road.bonus:
        if start_row < row <= dest_row and all(won != row for won, _ in bonus_won):
            bonus_won = (*bonus_won, (row, rider.id))
            events.append(event(turn, "bonus", rider=rider.id, row=row))

    moved = replace(
        rider,
        energy=energy,
        risks=risks,
        kept=tuple(kept),
        slipstream=False,
        stamp=stamp,
        row=dest_row,
        lane=dest_lane,
        punctured_turn=None,
        left_behind_turn=None,
    )
    if option.rejoins:
        moved = replace(moved, status="peloton", row=None, lane=None)
        events.append(event(turn, "rejoined", rider=rider.id))
    elif option.finishes:
        moved = replace(moved, status="finished", arrived_turn=turn)
        events.append(event(turn, "arrived", rider=rider.id, at=option.to))
    elif fell:
        moved = replace(moved, status="fallen", skip_turn=turn + 1)
        events.append(event(turn, "fell", rider=rider.id, at=option.to, cost=cost))
    else:
        moved = replace(moved, status="breakaway" if dest_row > state.peloton else "dropped")
    state = replace(state, dice=dice, stamp=stamp, bonus_won=bonus_won, piles=piles)
    state = replace_rider(state, moved)
    if start_cell is not None and not fell:
        state = _give_slipstream(state, rider, start_row, option.squares)
    return replace(state, events=state.events + tuple(events))


def _give_slipstream(state: State, front: Rider, start_row: int, squares: int) -> State:
    """C.1: the rider exactly behind the mover's starting square gets a free square."""
    cut = state.setup.ruleset.slipstream_cut[state.setup.road.terrain(start_row)]
    if squares >= cut:
        return state
    behind = f"{start_row - 1}.{front.lane}"
    for r in state.riders:
        if r.cell == behind and r.status in ("breakaway", "dropped"):
            return replace_rider(state, replace(r, slipstream=True))
    return state
