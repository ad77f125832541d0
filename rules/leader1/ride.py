"""Resolving one chosen ride: risks, costs, recovery, slipstream, feed zones, bonus, arrival."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.leader1 import family
from rules.leader1.dice import EVENTS
from rules.leader1.model import Event, Rider, State, event
from rules.leader1.moves import RideOption
from rules.leader1.ruleset import Ruleset
from rules.leader1.versions import FEED_ONCE
from rules.rng import Dice


def replace_rider(state: State, rider: Rider) -> State:
    return family.replace_rider(state, rider)


@dataclass(frozen=True)
class EventsDieRisk:
    """C.2: the events die, and the result needed grows with the risks already run."""

    rules: Ruleset
    die: str = "events"

    def roll(self, dice: Dice, risks: int) -> tuple[int | str, Dice]:
        return dice.roll_int(EVENTS)

    def holds(self, face: int | str, risks: int) -> bool:
        return isinstance(face, int) and face >= self.rules.risk_threshold(risks)

    def need(self, risks: int) -> int | str:
        return self.rules.risk_threshold(risks)


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

    risked = family.roll_risks(state, rider, option.crack, option.fall, option.cost, EventsDieRisk(rules), events)
    dice, cost, risks, cracked, fell = risked.dice, risked.cost, risked.risks, risked.cracked, risked.fell
    energy = rider.energy - cost + option.recovery
    dest_row = int(option.to.split(".")[0])
    stamp = state.stamp + 1
    events.append(family.ride_event(turn, option, start_cell, cost))
    if cracked:
        events.append(event(turn, "cracked", rider=rider.id, cost=cost))

    once = setup.rules.has(FEED_ONCE)  # one tile per token (R-FEED-TILES)
    kept, dice, piles = family.feed_rider(state, rider, dice, start_row, dest_row, events, once)
    bonus_won, bonus_rows = family.bonus_rows_won(state, start_row, dest_row, rider.id)
    events += [event(turn, "bonus", rider=rider.id, row=row) for row in bonus_rows]

    moved = family.ridden(rider, option.to, energy, risks, kept, stamp)
    if once:
        moved = replace(moved, fed_at=family.fed_rows(rider, road.feed, start_row, dest_row))
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
    if start_cell is not None and not fell:  # C.1 slipstream for the rider right behind
        cut = setup.ruleset.slipstream_cut[road.terrain(start_row)]
        state = family.give_slipstream(state, start_row, rider.lane or 0, option.squares, cut)
    return replace(state, events=state.events + tuple(events))
