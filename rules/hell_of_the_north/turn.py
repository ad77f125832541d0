"""The turn of Hell of the North as data: the placing before the race, then five steps.

(1) breakaway riders ride, (2) teams break away in marker order 2nd, 3rd, 4th, 1st, (3)
peloton riders change part, (4) pursuit, then the peloton's move, its costs and the
punctures (automatic), (5) dropped riders ride. ``advance`` runs the automatic steps
until someone must decide.
"""

from __future__ import annotations

from dataclasses import replace

from rules.hell_of_the_north.model import (
    MAX_PURSUIT_STREAK,
    PELOTON,
    PELOTON_COST,
    ROULEUR_MOUNTAIN_EXTRA,
    TIME_BONUS,
    Event,
    Rider,
    State,
    event,
    face_value,
)
from rules.hell_of_the_north.moves import ride_options
from rules.hell_of_the_north.order import classification, peloton_order
from rules.hell_of_the_north.ride import add_events, replace_rider, reveal_weather
from rules.hell_of_the_north.versions import CAUGHT_PAYS, DROP_FED, EMPTY, FEED_CAUGHT
from rules.leader1 import family

STEPS = ("breakaways", "breaking-away", "positioning", "pursuit", "dropped")


def riders_to_ride(state: State, *, ahead: bool) -> tuple[str, ...]:
    """Riders who ride now: ahead of the peloton (step 1) or behind it, punctured ones last (step 5,
    "From the next turn"; Race conditions 3)."""
    return family.riders_to_ride(state, classification(state), ahead=ahead)


def placing_queue(state: State) -> tuple[str, ...]:
    unplaced = {r.player for r in state.riders if r.status == "peloton" and r.part is None}
    return tuple(p for p in state.order if p in unplaced)


def breakaway_candidates(state: State, player: str) -> list[Rider]:
    """Step 2: only riders in the front part of the peloton may break away."""
    return [
        r
        for r in state.riders
        if r.player == player and r.status == "peloton" and r.part == "front" and r.id not in state.drop_requests
    ]


def positioning_candidates(state: State, player: str) -> list[Rider]:
    return [
        r
        for r in state.riders
        if r.player == player and r.status == "peloton" and not r.moved_part and r.id not in state.drop_requests
    ]


def may_pursue(state: State, player: str) -> bool:
    """Step 4: a pursuit left, and not a third speed-up in a row (R-HOTN-STREAK)."""
    return state.pursuits_left(player) > 0 and dict(state.streak).get(player, 0) < MAX_PURSUIT_STREAK


def _breaking_away_queue(state: State) -> tuple[str, ...]:
    order = (*state.order[1:], *state.order[:1])  # 2nd, 3rd, 4th, then 1st
    return tuple(p for p in order if breakaway_candidates(state, p))


def _can_ride(state: State, rid: str) -> bool:
    """Riders who cannot pay for any way forward, boxed in or blocked, stay (R-HOTN-STUCK)."""
    return bool(ride_options(state, rid))


def advance(state: State) -> State:
    """Run automatic steps until a player must decide or the race is over."""
    while not state.finished:
        state = family.skip_stuck(state, _can_ride)
        if state.queue:
            return state
        if state.phase == "placing":
            state = replace(state, phase="breakaways", queue=riders_to_ride(state, ahead=True))
        elif state.phase == "breakaways":
            if state.peloton_arrived_turn is not None:
                state = replace(state, phase="dropped", queue=riders_to_ride(state, ahead=False))
            else:
                state = replace(state, phase="breaking-away", queue=_breaking_away_queue(state))
        elif state.phase == "breaking-away":
            players = {r.player for r in state.riders if r.status == "peloton"}
            state = replace(state, phase="positioning", queue=tuple(p for p in state.order if p in players))
        elif state.phase == "positioning":
            queue = tuple(p for p in state.order if may_pursue(state, p))
            state = replace(state, phase="pursuit", queue=queue)
            if not queue:
                state = after_pursuit(state, None)
        elif state.phase == "pursuit":
            state = after_pursuit(state, None)
        elif state.phase == "dropped":
            state = end_turn(state)
    return state


def after_pursuit(state: State, pursuer: str | None) -> State:
    """Step 4: the pursuing team's marker goes 1st and spends a pursuit; then the peloton moves."""
    streak = tuple((p, dict(state.streak).get(p, 0) + 1 if p == pursuer else 0) for p in state.order)
    if pursuer is not None:
        left = state.pursuits_left(pursuer) - 1
        pursuits = tuple((p, left if p == pursuer else n) for p, n in state.pursuits)
        order = (pursuer, *(p for p in state.order if p != pursuer))
        state = replace(state, order=order, pursuits=pursuits)
        state = add_events(state, [event(state.turn, "pursued", player=pursuer, left=left)])
    state = move_peloton(replace(state, streak=streak, pursuit=pursuer is not None))
    return replace(state, phase="dropped", queue=riders_to_ride(state, ahead=False), pursuit=False)


def place_behind(state: State, rider: Rider, status: str) -> State:
    """Behind the peloton, out of its parts; a punctured rider plays last from the next turn."""
    hint = rider.lane if rider.lane is not None else state.setup.road.lanes // 2
    punctured_turn = state.turn if status == "punctured" else rider.punctured_turn
    return family.place_behind(state, replace(rider, part=None, punctured_turn=punctured_turn), status, hint)


def peloton_price(state: State, rider: Rider, squares: int, start_row: int) -> int:
    """Step 4: 3-4 squares cost the back 0 and the front 1; 5+ the back 1 and the front 2;
    a rouleur pays 1 more when the move starts on a mountain."""
    base = PELOTON_COST[rider.part or "back"][0 if squares <= 4 else 1]
    extra = ROULEUR_MOUNTAIN_EXTRA if rider.kind == "rouleur" and state.setup.road.terrain(start_row) == "M" else 0
    return base + extra


def move_peloton(state: State) -> State:
    """Step 4: roll, move, catch, feed, charge by part, drop; a red 4 calls the punctures."""
    setup = state.setup
    road = setup.road
    turn = state.turn
    events: list[Event] = []
    played = setup.rules  # the rules version (rulings changed since the first: rules/hell_of_the_north/versions.py)
    # a rider dropping back by choice leaves before the peloton moves (R-HOTN-DROP, R-HOTN-EMPTY)
    leaving = state.drop_requests if played.has(EMPTY) else ()
    state, moved = family.roll_peloton(state, PELOTON, face_value, events, leaving=leaving)
    face, squares, old, new = moved.face, moved.squares, moved.old, moved.new
    riding_at_start = [r for r in peloton_order(state) if r.id not in state.drop_requests]
    first_rider = setup.options.peloton_bonus == "first-rider"  # R-HOTN-BONUS-PELOTON's option
    if not played.has(FEED_CAUGHT):  # before R-HOTN-FEED-CAUGHT: fed before the catch
        state = _passes(state, riding_at_start, old, new, events, {}, first_rider)
    # Caught by the peloton: drawn level -> the front part, passed -> the back part
    caught_at: dict[str, int] = {}
    catches: list[Event] = []
    for r in state.riders:
        if r.status == "breakaway" and (r.row or 0) <= new:
            part = "front" if r.row == new else "back"
            caught_at[r.id] = r.row or 0
            state = replace_rider(state, replace(r, status="peloton", part=part, row=None, lane=None, slipstream=False))
            catches.append(event(turn, "caught", rider=r.id, part=part))
    # feed zones and time bonuses the peloton passes (R-HOTN-BONUS-PELOTON): a rider it caught
    # before a feed marker passes the marker in the peloton (R-HOTN-FEED-CAUGHT)
    if played.has(FEED_CAUGHT):
        riding = [r for r in peloton_order(state) if r.id not in state.drop_requests]
        state = _passes(state, riding, old, new, events, caught_at, first_rider)
    events += catches
    for r in state.riders:
        if r.status in ("fallen", "punctured") and (r.row or 0) >= new - 1 and (r.row or 0) <= new:
            state = place_behind(state, r, r.status)  # R-HOTN-PELOTON-PASSES
    # "When the peloton has finished moving, every rider in the peloton must pay": those it has
    # just caught too, each by the part it joined (R-HOTN-CAUGHT-PAYS)
    # (before that ruling only those in it when it started moving paid)
    paying = (
        [r for r in peloton_order(state) if r.id not in state.drop_requests]
        if played.has(CAUGHT_PAYS)
        else riding_at_start
    )
    for r in paying:
        current = state.rider(r.id)
        price = peloton_price(state, current, squares, old)
        if current.energy >= price:
            if price:
                state = replace_rider(state, replace(current, energy=current.energy - price))
                events.append(event(turn, "paid", rider=r.id, cost=price, part=current.part))
        else:
            state = place_behind(state, current, "dropped")
            events.append(event(turn, "dropped", rider=r.id, reason="cannot pay"))
    dropping = state.drop_requests
    state = family.drop_chosen(state, lambda s, rid, status: place_behind(s, s.rider(rid), status), events)
    if played.has(DROP_FED):  # "whether in a breakaway or in the peloton, the player may draw" (R-HOTN-DROP)
        for rid in dropping:
            dropped = state.rider(rid)
            if dropped.status == "dropped" and dropped.row is not None:
                state = family.feed_peloton(state, [dropped], old, dropped.row, events)
    if new >= road.finish and state.peloton_arrived_turn is None:
        state = _peloton_arrives(state, events)
    state = add_events(state, events)
    if face == "red-4":
        state = punctures(state)
    return reveal_weather(state)


def _passes(
    state: State,
    riding: list[Rider],
    old: int,
    new: int,
    events: list[Event],
    caught_at: dict[str, int],
    first_rider: bool,
) -> State:
    """Feed markers and time bonuses the peloton passes; a bonus given to its first rider
    (``peloton_bonus: first-rider``) takes a turn off its time as a rider's own would (Notes 2)."""
    before = len(events)
    state = family.peloton_passes(state, riding, old, new, events, caught_at, bonus_to_first=first_rider)
    for e in events[before:]:
        if e.type == "bonus":
            winner = state.rider(str(e.data["rider"]))
            state = replace_rider(state, replace(winner, bonuses=winner.bonuses + TIME_BONUS))
    return state


def _peloton_arrives(state: State, events: list[Event]) -> State:
    state = family.peloton_arrives(state, peloton_order(state), events)
    riders = tuple(replace(r, part=None) if r.status == "finished" else r for r in state.riders)
    return replace(state, riders=riders)


def punctures(state: State) -> State:
    """Race conditions 3: after the peloton's move on a red 4, every rider rolls, first to last;
    riders in the peloton in marker order. A red 4 punctures."""
    turn = state.turn
    for r in classification(state):
        if r.status not in ("breakaway", "peloton", "dropped"):
            continue
        face, dice = state.dice.roll(PELOTON)
        state = replace(state, dice=dice)
        state = add_events(state, [event(turn, "rolled", die="peloton", value=face, rider=r.id, risk="puncture")])
        if face != "red-4":
            continue
        current = state.rider(r.id)
        if current.status == "peloton":
            state = place_behind(state, current, "punctured")
        else:
            state = replace_rider(state, replace(current, status="punctured", slipstream=False, punctured_turn=turn))
        punctured = state.rider(r.id)
        state = family.lose_slipstream_behind(state, punctured)
        state = add_events(state, [event(turn, "punctured", rider=r.id, at=punctured.cell)])
    return state


def end_turn(state: State) -> State:
    """The next turn; riders still out long after the winner are out of the race (R-HOTN-LATE)."""
    setup = state.setup
    turn = state.turn
    events: list[Event] = []
    first = min((r.arrived_turn for r in state.riders if r.arrived_turn is not None), default=None)
    riders = []
    for r in state.riders:
        r = replace(r, slipstream=False, moved_part=False)
        if r.racing and first is not None and turn >= first + setup.options.late_turns:
            r = replace(r, status="eliminated", part=None)
            events.append(event(turn, "eliminated", rider=r.id, reason="too long after the winner"))
        riders.append(r)
    state = add_events(replace(state, riders=tuple(riders)), events)
    if not any(r.racing for r in state.riders):
        return replace(state, phase="finished", queue=(), events=(*state.events, event(turn, "finished")))
    state = replace(state, turn=turn + 1, phase="breakaways")
    return replace(state, queue=riders_to_ride(state, ahead=True))
