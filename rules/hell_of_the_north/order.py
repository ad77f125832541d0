"""Who comes first: classification order on the road and the order inside the peloton."""

from __future__ import annotations

from rules.hell_of_the_north.model import RIDER_TYPES, Rider, State


def marker_rank(state: State, player: str) -> int:
    return state.order.index(player) if player in state.order else len(state.order)


def peloton_order(state: State) -> list[Rider]:
    """Riders in the peloton: by support-rider marker (Setup 6), the front part before the back."""
    pool = [r for r in state.riders if r.status == "peloton"]
    return sorted(pool, key=lambda r: (marker_rank(state, r.player), r.part != "front", RIDER_TYPES.index(r.kind)))


def _road_key(rider: Rider) -> tuple[int, int]:
    assert rider.row is not None
    return (rider.row, rider.stamp)  # Figure 16: on the same row, whoever got there last is ahead


def classification(state: State) -> list[Rider]:
    """Every rider still racing, first to last: ahead of the peloton, in it, behind it."""
    on_board = [r for r in state.riders if r.racing and r.status != "peloton"]
    ahead = sorted((r for r in on_board if (r.row or 0) > state.peloton), key=_road_key, reverse=True)
    behind = sorted((r for r in on_board if (r.row or 0) <= state.peloton), key=_road_key, reverse=True)
    return [*ahead, *peloton_order(state), *behind]


def arrival_order(state: State) -> list[Rider]:
    """Finished riders: by turn of arrival, then furthest past the line, then latest there."""
    done = [r for r in state.riders if r.status == "finished"]
    return sorted(done, key=lambda r: (r.arrived_turn or 0, -(r.row or 0), -r.stamp))
