"""The turn of Leader 1 as data: its phases in order and the automatic steps between them.

B.1 breakaway riders ride, B.2 players break away, B.3 the pursuit, B.4 the peloton moves
(automatic, with C.3 punctures on the red face), B.5 dropped riders ride, B.6 the token
passes clockwise (automatic). ``advance`` runs automatic steps until someone must decide.
"""

from __future__ import annotations

from dataclasses import replace

from rules.leader1.dice import EVENTS, PELOTON
from rules.leader1.feed import draw
from rules.leader1.model import FEED_COLOUR, Event, Rider, State, event
from rules.leader1.moves import ride_options
from rules.leader1.order import classification, peloton_order
from rules.leader1.ride import replace_rider

PHASES = ("breakaways", "breaking-away", "pursuit", "dropped")


def riders_to_ride(state: State, *, ahead: bool) -> tuple[str, ...]:
    """Riders who ride now: ahead of the peloton (B.1) or behind it, punctured ones last (B.5, C.3).

    A rider the peloton left behind this turn waits: B.5 "As from the following turn, he
    will play after the peloton".
    """
    arrived = state.peloton_arrived_turn is not None
    if ahead and arrived:
        return ()
    ready: list[str] = []
    punctured: list[str] = []
    for r in classification(state):
        if r.status == "punctured":
            if not ahead and (r.punctured_turn or 0) < state.turn:
                punctured.append(r.id)  # C.3: plays last, after the peloton
        elif r.status in ("breakaway", "dropped") or (
            r.status == "fallen" and (r.skip_turn or 0) < state.turn  # C.2: skips one turn
        ):
            if r.status == "dropped" and (r.left_behind_turn or 0) >= state.turn:
                continue
            is_ahead = not arrived and (r.row or 0) > state.peloton
            if is_ahead == ahead:
                ready.append(r.id)
    return (*ready, *punctured)


def _breakaway_players(state: State) -> tuple[str, ...]:
    players = state.setup.players
    order = [players[(state.token + i) % len(players)].id for i in range(len(players))]
    in_peloton = {r.player for r in state.riders if r.status == "peloton"}
    return tuple(pid for pid in order if pid in in_peloton)


def _skip_stuck(state: State) -> State:
    """Drop from the queue riders with no legal square (a fully blocked road they cannot pay)."""
    while state.queue and state.phase in ("breakaways", "dropped"):
        rid = state.queue[0]
        if ride_options(state, rid):
            break
        state = replace(
            state,
            queue=state.queue[1:],
            events=(*state.events, event(state.turn, "stuck", rider=rid)),
        )
    return state


def advance(state: State) -> State:
    """Run automatic steps until a player must decide or the race is over."""
    while not state.finished:
        state = _skip_stuck(state)
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


def _behind_peloton(state: State, lane_hint: int | None = None) -> tuple[int, int]:
    """The first free square behind the peloton (B.5), its row and lane."""
    road = state.setup.road
    taken = {r.cell for r in state.riders if r.on_road}
    lanes = list(range(road.lanes))
    if lane_hint is not None:
        lanes.sort(key=lambda lane: abs(lane - lane_hint))
    row = state.peloton - 2
    while row > 0:
        for lane in lanes:
            if f"{row}.{lane}" not in taken:
                return row, lane
        row -= 1
    return 0, lanes[0]


def _place_behind(state: State, rider: Rider, status: str) -> State:
    row, lane = _behind_peloton(state, rider.lane)
    stamp = state.stamp + 1
    moved = replace(rider, status=status, row=row, lane=lane, slipstream=False, stamp=stamp)
    if status == "dropped":
        moved = replace(moved, left_behind_turn=state.turn)  # B.5: rides from the next turn
    return replace(replace_rider(state, moved), stamp=stamp)


def move_peloton(state: State) -> State:
    """B.4: roll, move the peloton, absorb, charge, leave behind; a red face calls C.3's punctures."""
    setup = state.setup
    road = setup.road
    turn = state.turn
    face, dice = state.dice.roll(PELOTON)
    events: list[Event] = [event(turn, "rolled", die="peloton", value=face)]
    red = face == "red"
    squares = 4 if red else int(face)
    empty = not any(r.status == "peloton" for r in state.riders)
    squares += int(state.pursuit) + int(empty)
    old = state.peloton
    new = min(old + squares, road.last_row)
    events.append(event(turn, "peloton", squares=squares, to=new, pursuit=state.pursuit, empty=empty))
    state = replace(state, dice=dice, peloton=new)

    # feed zones and bonus tokens passed by the peloton (C.4, D.2)
    for row in road.feed:
        if old < row <= new:
            for r in peloton_order(state):
                colour = FEED_COLOUR[r.kind]
                value, dice, piles = draw(state.dice, state.piles, colour)
                state = replace(state, dice=dice, piles=piles)
                if value is None:
                    events.append(event(turn, "feed-empty", rider=r.id, colour=colour))
                    continue
                state = replace_rider(state, replace(r, kept=(*r.kept, value)))
                events.append(event(turn, "fed", rider=r.id, kept=len(r.kept) + 1))

    for row in road.bonus:
        if old < row <= new and all(won != row for won, _ in state.bonus_won):
            state = replace(state, bonus_won=(*state.bonus_won, (row, "peloton")))  # R-BONUS-PELOTON
    # B.1 reintegration: level with or overtaken by the peloton
    for r in state.riders:
        if r.status == "breakaway" and (r.row or 0) <= new:
            state = replace_rider(state, replace(r, status="peloton", row=None, lane=None, slipstream=False))
            events.append(event(turn, "caught", rider=r.id))
    for r in state.riders:
        if r.status in ("fallen", "punctured") and (r.row or 0) <= new:
            state = _place_behind(state, r, r.status)  # rulings.md R-PELOTON-PASSES
    # B.4 "*Riders in the peloton at the beginning of the movement" pay: those dropped on
    # purpose too (rulings.md R-DROP); who cannot pay is left behind (B.5)
    price = setup.ruleset.peloton_cost.get(min(squares, max(setup.ruleset.peloton_cost, default=0)), 0)
    if squares >= 5 and price:
        for r in peloton_order(state):
            if r.energy >= price:
                state = replace_rider(state, replace(r, energy=r.energy - price))
                events.append(event(turn, "paid", rider=r.id, cost=price))
            else:
                state = _place_behind(state, state.rider(r.id), "dropped")
                events.append(event(turn, "dropped", rider=r.id, reason="cannot pay"))
    for rid in state.drop_requests:
        r = state.rider(rid)
        if r.status == "peloton":
            state = _place_behind(state, r, "dropped")
            events.append(event(turn, "dropped", rider=rid, reason="chosen"))
    state = replace(state, drop_requests=())
    if new >= road.finish and state.peloton_arrived_turn is None:
        state = _peloton_arrives(state, events)
    return replace(state, events=state.events + tuple(events), puncture_checks=red)


def _peloton_arrives(state: State, events: list[Event]) -> State:
    turn = state.turn
    ordered = peloton_order(state)
    stamp = state.stamp + len(ordered)
    for i, r in enumerate(ordered):
        arrived = replace(r, status="finished", arrived_turn=turn, row=state.peloton, lane=None, stamp=stamp - i)
        state = replace_rider(state, arrived)
        events.append(event(turn, "arrived", rider=r.id, at="peloton"))
    for r in state.riders:  # dropped behind the line but already past it
        if r.on_road and (r.row or 0) >= state.setup.road.finish:
            state = replace_rider(state, replace(r, status="finished", arrived_turn=turn))
            events.append(event(turn, "arrived", rider=r.id, at=r.cell))
    return replace(state, stamp=stamp, peloton_arrived_turn=turn)


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
        state = _lose_slipstream_behind(state, punctured)
        state = replace(state, events=(*state.events, event(turn, "punctured", rider=r.id, at=punctured.cell)))
    return state


def _lose_slipstream_behind(state: State, rider: Rider) -> State:
    behind = f"{(rider.row or 0) - 1}.{rider.lane}"
    for r in state.riders:
        if r.cell == behind and r.slipstream:
            state = replace_rider(state, replace(r, slipstream=False))
    return state


def end_turn(state: State) -> State:
    """B.6 the token passes clockwise; eliminations (D); the next turn or the end of the race."""
    setup = state.setup
    turn = state.turn
    events: list[Event] = []
    riders = []
    limit = setup.options.elimination_turns
    for r in state.riders:
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
