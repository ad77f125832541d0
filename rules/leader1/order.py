"""Who comes first: classification order on the road and the order inside the peloton."""

from __future__ import annotations

from rules.leader1.model import RIDER_TYPES, Rider, State


def peloton_order(state: State, riders: list[Rider] | None = None) -> list[Rider]:
    """C.3: the peloton token holder's riders first (rouleur, leader, climber), then clockwise."""
    pool = [r for r in (riders if riders is not None else state.riders) if r.status == "peloton"]
    players = [p.id for p in state.setup.players]
    seat = {pid: (i - state.token) % len(players) for i, pid in enumerate(players)}
    return sorted(pool, key=lambda r: (seat[r.player], RIDER_TYPES.index(r.kind)))


def _road_key(rider: Rider) -> tuple[int, int]:
    assert rider.row is not None
    return (rider.row, rider.stamp)  # B.1: on the same row, whoever got there last is ahead


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
