"""Who comes first: classification order on the road and the order inside the peloton."""

from __future__ import annotations

from rules.leader1 import family
from rules.leader1.model import RIDER_TYPES, Rider, State


def peloton_order(state: State, riders: list[Rider] | None = None) -> list[Rider]:
    """C.3: the peloton token holder's riders first (rouleur, leader, climber), then clockwise."""
    pool = [r for r in (riders if riders is not None else state.riders) if r.status == "peloton"]
    players = [p.id for p in state.setup.players]
    seat = {pid: (i - state.token) % len(players) for i, pid in enumerate(players)}
    return sorted(pool, key=lambda r: (seat[r.player], RIDER_TYPES.index(r.kind)))


def classification(state: State) -> list[Rider]:
    """Every rider still racing, first to last: ahead of the peloton, in it, behind it (B.1 "reach")."""
    return family.classification(state, peloton_order(state))


def arrival_order(state: State) -> list[Rider]:
    """Finished riders: by turn of arrival, then furthest past the line, then latest there."""
    return family.arrival_order(state)
