"""The turn of Leader 1 as data: its phases in order and the automatic steps between them.

B.1 breakaway riders ride, B.2 players break away, B.3 the pursuit, B.4 the peloton moves
(automatic, with C.3 punctures on the red face), B.5 dropped riders ride, B.6 the token
passes clockwise (automatic). ``advance`` runs automatic steps until someone must decide.
"""

from __future__ import annotations

from dataclasses import replace

from rules.leader1 import family
from rules.leader1.dice import EVENTS, PELOTON
from rules.leader1.model import Event, Rider, State, event
from rules.leader1.moves import ride_options
from rules.leader1.order import classification, peloton_order
from rules.leader1.ride import replace_rider
from rules.leader1.versions import FEED_CAUGHT, PELOTON_PASSES

PHASES = ("breakaways", "breaking-away", "pursuit", "dropped")


def riders_to_ride(state: State, *, ahead: bool) -> tuple[str, ...]:
    """Riders who ride now: ahead of the peloton (B.1) or behind it, punctured ones last (B.5, C.3).

    A rider the peloton left behind this turn waits: B.5 "As from the following turn, he
    will play after the peloton"; a fallen rider skips one turn (C.2).
    """
    return family.riders_to_ride(state, classification(state), ahead=ahead)


def _breakaway_players(state: State) -> tuple[str, ...]:
    players = state.setup.players
    order = [players[(state.token + i) % len(players)].id for i in range(len(players))]
    in_peloton = {r.player for r in state.riders if r.status == "peloton"}
    return tuple(pid for pid in order if pid in in_peloton)


def _can_ride(state: State, rid: str) -> bool:
    return bool(ride_options(state, rid))


def advance(state: State) -> State:
    """Run automatic steps until a player must decide or the race is over."""
    while not state.finished:
        state = family.skip_stuck(state, _can_ride)
        if state.queue or state.phase == "pursuit":
            return state
        if state.phase == "breakaways":
            if state.peloton_arrived_turn is not None:
                state = replace(state, phase="dropped", queue=riders_to_ride(state, ahead=False))
            else:
                state = replace(state, phase="breaking-away", queue=_breakaway_players(state))
        elif state.phase == "breaking-away":
            state = replace(state, phase="pursuit", queue=())
        elif state.phase == "dropped":
            if state.puncture_checks:  # C.3: once the riders left behind are placed too
                state = punctures(replace(state, puncture_checks=False))
            state = end_turn(state)
    return state


def after_pursuit(state: State, pursue: bool) -> State:
    state = move_peloton(replace(state, pursuit=pursue))
    return replace(state, phase="dropped", queue=riders_to_ride(state, ahead=False), pursuit=False)


def _place_behind(state: State, rider: Rider, status: str) -> State:
    return family.place_behind(state, rider, status, rider.lane)  # B.5: a rider left behind rides next turn


def _peloton_squares(face: int | str) -> int:
    return 4 if face == "red" else int(face)  # B.4: the red face moves 4


def move_peloton(state: State) -> State:
    """B.4: roll, move the peloton, absorb, charge, leave behind; a red face calls C.3's punctures."""
    setup = state.setup
    road = setup.road
    turn = state.turn
    events: list[Event] = []
    # the race option ``drop``: a rider dropped on purpose rides the move in the peloton and pays
    # (R-DROP, "pays"), or leaves before it moves, as in Hell of the North (R-HOTN-DROP, "leaves")
    leaving = state.drop_requests if setup.options.drop == "leaves" else ()
    first_rider = setup.options.peloton_bonus == "first-rider"  # R-BONUS-PELOTON's option

    def riding(now: State) -> list[Rider]:
        return [r for r in peloton_order(now) if r.id not in leaving]

    state, moved = family.roll_peloton(state, PELOTON, _peloton_squares, events, leaving=leaving)
    face, squares, old, new = moved.face, moved.squares, moved.old, moved.new
    red = face == "red"
    feed_caught = setup.rules.has(FEED_CAUGHT)
    if not feed_caught:  # before R-FEED-CAUGHT: the peloton fed those in it before it caught anybody
        state = family.peloton_passes(state, riding(state), old, new, events, bonus_to_first=first_rider)

    # B.1 reintegration: level with or overtaken by the peloton
    caught_at: dict[str, int] = {}
    catches: list[Event] = []
    for r in state.riders:
        if r.status == "breakaway" and (r.row or 0) <= new:
            caught_at[r.id] = r.row or 0
            state = replace_rider(state, replace(r, status="peloton", row=None, lane=None, slipstream=False))
            catches.append(event(turn, "caught", rider=r.id))
    # feed zones and bonus tokens passed by the peloton (C.4, D.2; R-BONUS-PELOTON): a rider it
    # absorbed before a feed token passes the token inside it (R-FEED-CAUGHT)
    if feed_caught:
        state = family.peloton_passes(state, riding(state), old, new, events, caught_at, bonus_to_first=first_rider)
    events += catches
    # a fallen or punctured rider stays on its square (C.2, C.3); only one on the squares the
    # peloton lands on goes behind it (rulings.md R-PELOTON-PASSES; before it, every one at or
    # behind the peloton's front row went behind it)
    reached = new - 1 if setup.rules.has(PELOTON_PASSES) else None
    for r in state.riders:
        if r.status in ("fallen", "punctured") and (reached is None or (r.row or 0) >= reached) and (r.row or 0) <= new:
            state = _place_behind(state, r, r.status)
    # B.4 "*Riders in the peloton at the beginning of the movement" pay: those dropped on
    # purpose too (rulings.md R-DROP), unless they left first (``drop: leaves``); who cannot pay
    # is left behind (B.5)
    price = setup.ruleset.peloton_cost.get(min(squares, max(setup.ruleset.peloton_cost, default=0)), 0)
    if squares >= 5 and price:
        for r in riding(state):
            if r.energy >= price:
                state = replace_rider(state, replace(r, energy=r.energy - price))
                events.append(event(turn, "paid", rider=r.id, cost=price))
            else:
                state = _place_behind(state, state.rider(r.id), "dropped")
                events.append(event(turn, "dropped", rider=r.id, reason="cannot pay"))
    state = family.drop_chosen(state, lambda s, rid, status: _place_behind(s, s.rider(rid), status), events)
    for rid in leaving:  # it goes along the road to its square, past any feed zone on the way (C.4)
        dropped = state.rider(rid)
        if dropped.status == "dropped" and dropped.row is not None:
            state = family.feed_peloton(state, [dropped], old, dropped.row, events)
    if new >= road.finish and state.peloton_arrived_turn is None:
        state = _peloton_arrives(state, events)
    return replace(state, events=state.events + tuple(events), puncture_checks=red)


def _peloton_arrives(state: State, events: list[Event]) -> State:
    return family.peloton_arrives(state, peloton_order(state), events)


def punctures(state: State) -> State:
    """C.3: every rider on the road or in the peloton rolls the events die in classification order.

    Called at the end of the turn of a red face, once the riders left behind have moved
    (rulings.md R-PUNCTURE).
    """
    turn = state.turn
    for r in classification(state):
        if r.status not in ("breakaway", "peloton", "dropped"):
            continue
        roll, dice = state.dice.roll_int(EVENTS)
        state = replace(
            state,
            dice=dice,
            events=(
                *state.events,
                event(turn, "rolled", die="events", value=roll, rider=r.id, risk="puncture"),
            ),
        )
        if roll != state.setup.ruleset.puncture_on:
            continue
        current = state.rider(r.id)
        if current.status == "peloton":
            state = _place_behind(state, current, "punctured")
        else:
            state = replace_rider(state, replace(current, status="punctured", slipstream=False))
        punctured = replace(state.rider(r.id), punctured_turn=turn, slipstream=False)
        state = replace_rider(state, punctured)
        state = family.lose_slipstream_behind(state, punctured)
        state = replace(state, events=(*state.events, event(turn, "punctured", rider=r.id, at=punctured.cell)))
    return state


def end_turn(state: State) -> State:
    """B.6 the token passes clockwise; eliminations (D); the next turn or the end of the race."""
    setup = state.setup
    turn = state.turn
    events: list[Event] = []
    riders = []
    limit = setup.options.elimination_turns
    for r in state.riders:
        if r.slipstream:
            r = replace(r, slipstream=False)
        if (
            setup.options.elimination
            and r.racing
            and state.peloton_arrived_turn is not None
            and turn >= state.peloton_arrived_turn + limit
        ):
            r = replace(r, status="eliminated")
            events.append(event(turn, "eliminated", rider=r.id, reason="too far behind the peloton"))
        riders.append(r)
    token = (state.token + 1) % len(setup.players)
    state = replace(state, riders=tuple(riders), token=token, events=state.events + tuple(events))
    if not any(r.racing for r in state.riders):
        return replace(state, phase="finished", queue=(), events=(*state.events, event(turn, "finished")))
    state = replace(state, turn=turn + 1, phase="breakaways")
    return replace(state, queue=riders_to_ride(state, ahead=True))
