"""Where a rider can ride and what each destination costs (B.1, B.2, B.5, C.1, C.2, C.4).

The path search is the family's (``rules.leader1.paths``). The first squares of a move are
free (base movement by rider type and starting terrain, plus a descender's, sprinter's and
slipstream square), the rest are paid from the table. The path decides the consequences:
occupied squares crossed on a blocked road (+1 each) and fall squares in the paid part (a
fall risk). The crack risk depends only on the rows.
"""

from __future__ import annotations

from rules.leader1.model import Rider, State
from rules.leader1.paths import (
    Move,
    RideOption,
    cracks_by_length,
    destinations,
    free_squares,
    occupied_squares,
    search,
)
from rules.memo import by_state_identity

__all__ = ["RideOption", "chosen_ride", "ride_options", "rider_free_squares"]


def rider_free_squares(state: State, rider: Rider, start_row: int, *, breakaway: bool) -> tuple[int, bool]:
    """Free squares of a move starting on ``start_row``, and whether slipstream is part of them."""
    road = state.setup.road
    bonus = int(rider.descender and road.terrain(start_row) == "D") + int(rider.sprinter and road.in_sprint(start_row))
    return free_squares(state, rider, start_row, bonus=bonus, breakaway=breakaway)


@by_state_identity  # the engine checks the rider can move (turn.py), then the AI or the prompt lists the same
def ride_options(
    state: State,
    rider_id: str,
    *,
    breakaway: bool = False,
    route: tuple[str, ...] | None = None,
    most_cost: int | None = None,
) -> list[RideOption]:
    """Every legal destination of ``rider_id`` now (``breakaway``: leaving the peloton).

    With ``route`` (the squares of one path, destination last) only that path is considered.
    With ``most_cost``, the moves whose paid squares alone cost more are left out (the list
    is the full one cut after the longest move that may still cost that little: a paid
    move's cost is its table cost plus any crossings, never less).

    A rider with no square to ride to stands still (R-STUCK), unless the race's ``boxed_in``
    option is ``rides-through``: then, having no other option, it may ride through any occupied
    square at +1 each, as in Hell of the North (R-HOTN-BOXED-IN). Breaking away is never forced.
    """
    options = _ride_options(state, rider_id, breakaway=breakaway, route=route, most_cost=most_cost, boxed_in=False)
    if options or breakaway or state.setup.options.boxed_in != "rides-through":
        return options
    narrowed = route is not None or most_cost is not None
    if narrowed and _ride_options(state, rider_id, breakaway=False, route=None, most_cost=None, boxed_in=False):
        return options  # the rider has another option, so the named path may not go through
    return _ride_options(state, rider_id, breakaway=False, route=route, most_cost=most_cost, boxed_in=True)


def _ride_options(
    state: State,
    rider_id: str,
    *,
    breakaway: bool,
    route: tuple[str, ...] | None,
    most_cost: int | None,
    boxed_in: bool,
) -> list[RideOption]:
    road = state.setup.road
    rider = state.rider(rider_id)
    if breakaway:
        start_row = state.peloton
        starts = list(range(road.lanes))
    else:
        assert rider.row is not None and rider.lane is not None
        start_row = rider.row
        starts = [rider.lane]
    behind_peloton = not breakaway and start_row < state.peloton - 1 and state.peloton_arrived_turn is None
    free, slip = rider_free_squares(state, rider, start_row, breakaway=breakaway)

    def mark(fall_paid: bool, cid: str, row: int, paid: bool) -> bool:
        return fall_paid or (paid and road.is_fall(cid))

    options: list[RideOption] = []
    longest = free + _most_paid(state.setup.ruleset.paying_cost, most_cost)
    occupied = occupied_squares(state, rider_id)
    cracks = cracks_by_length(state, start_row, free, longest)
    for squares, row, paths in search(
        state,
        rider_id,
        start_row,
        starts,
        longest,
        False,
        mark,
        breakaway=breakaway,
        route=route,
        free=free,
        boxed_in=boxed_in,
    ):
        rejoins = behind_peloton and row == state.peloton - 1
        move = Move(squares, free, slip, cracks[squares], breakaway, rejoins)
        options += [o for o, _ in destinations(state, rider, paths, move, _no_other_risk, occupied)]
        if rejoins:
            break  # the peloton fills the road: a dropped rider cannot ride through it
    return options


def _no_other_risk(fall: bool) -> tuple[bool, bool]:
    return (fall, False)  # classic Leader 1 marks only a fall square in the paid part


def chosen_ride(
    state: State, rider_id: str, *, breakaway: bool = False, route: tuple[str, ...] | None = None
) -> list[RideOption]:
    """``ride_options`` as the engine asks it to check a chosen ride along ``route``.

    The rider's full listing for this state is usually remembered (the engine checked the
    rider can move, and the AI or the prompt listed it): the option with that very path is
    taken from it, as a search along the path alone gives the same option. Anything else
    (a breakaway, a path the listing does not hold) is searched as before.
    """
    if route and not breakaway:
        listed = [o for o in ride_options(state, rider_id) if o.to == route[-1] and o.via == route[:-1]]
        if listed:
            return listed
    return ride_options(state, rider_id, breakaway=breakaway, route=route)


def _most_paid(paying_cost: tuple[int, ...], most_cost: int | None) -> int:
    """The most paid squares a move costing at most ``most_cost`` may have (every longer one costs more)."""
    if most_cost is None:
        return len(paying_cost) - 1
    return max((paid for paid, cost in enumerate(paying_cost) if cost <= most_cost), default=0)
