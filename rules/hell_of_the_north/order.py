"""Who comes first: classification order on the road and the order inside the peloton."""

from __future__ import annotations

from rules.hell_of_the_north.model import RIDER_TYPES, Rider, State
from rules.leader1 import family


def marker_rank(state: State, player: str) -> int:
    return state.order.index(player) if player in state.order else len(state.order)


def peloton_order(state: State) -> list[Rider]:
    """Riders in the peloton: by support-rider marker (Setup 6), the front part before the back."""
    pool = [r for r in state.riders if r.status == "peloton"]
    return sorted(pool, key=lambda r: (marker_rank(state, r.player), r.part != "front", RIDER_TYPES.index(r.kind)))


def peloton_arrival_order(state: State) -> list[Rider]:
    """Riders crossing the line in the peloton: the front part before the back, each part in marker
    order (rulings.md R-HOTN-PELOTON-ARRIVES: the part is where a rider is)."""
    pool = [r for r in state.riders if r.status == "peloton"]
    return sorted(pool, key=lambda r: (r.part != "front", marker_rank(state, r.player), RIDER_TYPES.index(r.kind)))


def classification(state: State) -> list[Rider]:
    """Every rider still racing, first to last: ahead of the peloton, in it, behind it (Figure 16)."""
    return family.classification(state, peloton_order(state))


def arrival_order(state: State) -> list[Rider]:
    """Finished riders: by turn of arrival, then furthest past the line, then latest there."""
    return family.arrival_order(state)
