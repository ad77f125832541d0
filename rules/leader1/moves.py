"""Where a rider can ride and what each destination costs (B.1, B.2, B.5, C.1, C.2, C.4).

A move is a path of squares, one row forward per square, straight or diagonal. The first
squares of a move are free (base movement by rider type and starting terrain, plus a
descender's, sprinter's and slipstream square), the rest are paid from the table. The
path decides the consequences: occupied squares crossed on a blocked road (+1 each) and
fall squares in the paid part (a fall risk). The crack risk depends only on the rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.leader1.model import Rider, State
from rules.memo import by_state_identity
from rules.track import cell_id


@dataclass(frozen=True)
class RideOption:
    """One legal destination of a rider with every consequence spelled out."""

    rider: str
    to: str
    via: tuple[str, ...]  # the squares crossed before ``to``
    squares: int
    free: int
    paid: int
    crossings: int  # occupied squares crossed on a blocked road, +1 energy each
    cost: int  # energy paid if no risk goes wrong
    recovery: int  # C.4 energy regained for unused free squares
    slipstream: bool  # the free squares include a slipstream square
    crack: bool
    fall: bool
    worst_cost: int  # energy paid if every risk goes wrong; must be held before moving
    rejoins: bool  # a dropped rider reaching the peloton rejoins it
    finishes: bool
    breakaway: bool

    @property
    def risk_count(self) -> int:
        return int(self.crack) + int(self.fall)


def free_squares(state: State, rider: Rider, start_row: int, *, breakaway: bool) -> tuple[int, bool]:
    """Free squares of a move starting on ``start_row``, and whether slipstream is part of them."""
    road = state.setup.road
    terrain = road.terrain(start_row)
    free = state.setup.ruleset.free_squares[rider.kind][terrain]
    if rider.descender and terrain == "D":
        free += 1
    if rider.sprinter and road.in_sprint(start_row):
        free += 1
    slip = rider.slipstream and not breakaway
    return free + int(slip), slip


def occupant(state: State, cid: str, mover: str) -> Rider | None:
    for r in state.riders:
        if r.id != mover and r.on_road and r.cell == cid:
            return r
    return None


@dataclass(frozen=True)
class _Path:
    lane: int
    cells: tuple[str, ...]
    crossings: int
    fall_paid: bool


@by_state_identity  # the engine checks the rider can move (turn.py), then the AI or the prompt lists the same
def ride_options(
    state: State, rider_id: str, *, breakaway: bool = False, route: tuple[str, ...] | None = None
) -> list[RideOption]:
    """Every legal destination of ``rider_id`` now (``breakaway``: leaving the peloton).

    With ``route`` (the squares of one path, destination last) only that path is considered.
    """
    setup = state.setup
    road = setup.road
    rules = setup.ruleset
    rider = state.rider(rider_id)
    if breakaway:
        start_row = state.peloton
        starts = list(range(road.lanes))
    else:
        assert rider.row is not None and rider.lane is not None
        start_row = rider.row
        starts = [rider.lane]
    behind_peloton = not breakaway and start_row < state.peloton - 1 and state.peloton_arrived_turn is None
    free, slip = free_squares(state, rider, start_row, breakaway=breakaway)
    longest = free + rules.max_paying
    occupants = {r.cell: r for r in state.riders if r.on_road and r.id != rider_id}
    full_rows = {
        row
        for row in {int(c.split(".")[0]) for c in occupants if c is not None}
        if all(cell_id(row, lane) in occupants for lane in range(road.lanes))
    }

    options: list[RideOption] = []
    frontier = [_Path(lane, (), 0, False) for lane in starts]
    for step in range(1, longest + 1):
        row = start_row + step
        if row > road.last_row:
            break
        nxt: dict[tuple[int, int, bool], _Path] = {}
        for path in frontier:
            if breakaway and step == 1:
                lanes = [path.lane]  # the rider may start from any lane of the peloton's front
            else:
                current = cell_id(row - 1, path.lane)
                lanes = [int(s.split(".")[1]) for s in road.track.cells[current].successors]
            for lane in lanes:
                cid = cell_id(row, lane)
                if route is not None and (step > len(route) or route[step - 1] != cid):
                    continue
                other = occupants.get(cid)
                crossings = path.crossings
                if other is not None and other.status != "punctured":
                    if row not in full_rows:
                        continue
                    crossings += 1  # B.1 blocked road: cross it, paying 1 per occupied square
                fall_paid = path.fall_paid or (step > free and road.is_fall(cid))
                key = (lane, crossings, fall_paid)
                if key not in nxt:
                    nxt[key] = _Path(lane, (*path.cells, cid), crossings, fall_paid)
        frontier = list(nxt.values())
        if not frontier:
            break
        if (breakaway and step < rules.breakaway_min) or (route is not None and step != len(route)):
            continue
        rejoin_row = behind_peloton and row == state.peloton - 1
        for option in _destinations(state, rider, occupants, frontier, step, free, slip, breakaway, rejoin_row):
            options.append(option)
        if rejoin_row:
            break  # the peloton fills the road: a dropped rider cannot ride through it
    return options


def _destinations(
    state: State,
    rider: Rider,
    occupants: dict[str | None, Rider],
    paths: list[_Path],
    squares: int,
    free: int,
    slip: bool,
    breakaway: bool,
    rejoins: bool,
) -> list[RideOption]:
    setup = state.setup
    road = setup.road
    rules = setup.ruleset
    paid = max(0, squares - free)
    crack = _risks_crack(state, paths[0].cells, free) if paths else False
    by_cell: dict[str, list[_Path]] = {}
    for path in paths:
        cid = path.cells[-1]
        if cid in occupants and not rejoins:
            continue  # never stop on an occupied (or punctured rider's) square
        by_cell.setdefault(cid, []).append(path)
    result = []
    for cid, candidates in sorted(by_cell.items()):
        # cheapest first, then safest: the engine's default path (record format, "via")
        candidates.sort(key=lambda p: (p.crossings, p.fall_paid, p.cells))
        chosen = [candidates[0]]
        safer = [p for p in candidates if not p.fall_paid and p.crossings > candidates[0].crossings]
        if candidates[0].fall_paid and safer:
            chosen.append(safer[0])  # offered too: one more crossing may be worth no fall risk
        for path in chosen:
            cost = rules.paying_cost[paid] + path.crossings
            worst = cost * (rules.crack_factor if crack else 1) * (rules.fall_factor if path.fall_paid else 1)
            if worst > rider.energy:
                continue
            row = int(cid.split(".")[0])
            result.append(
                RideOption(
                    rider=rider.id,
                    to=cid,
                    via=path.cells[:-1],
                    squares=squares,
                    free=min(free, squares),
                    paid=paid,
                    crossings=path.crossings,
                    cost=cost,
                    recovery=max(0, free - squares),
                    slipstream=slip,
                    crack=crack,
                    fall=path.fall_paid,
                    worst_cost=worst,
                    rejoins=rejoins,
                    finishes=row >= road.finish,
                    breakaway=breakaway,
                )
            )
    return result


def _risks_crack(state: State, cells: tuple[str, ...], free: int) -> bool:
    """C.2 crack: more paid squares on a mountain pass than its category token allows.

    With two categories on one mountain the hardest one crossed applies (rulings.md R-CRACK-2CAT).
    """
    road = state.setup.road
    paid_mountain = 0
    limit: int | None = None
    for step, cid in enumerate(cells, start=1):
        row = int(cid.split(".")[0])
        if step > free and road.terrain(row) == "M":
            paid_mountain += 1
            category = road.category_at(row)
            if category is not None:
                limit = category if limit is None else min(limit, category)
    return limit is not None and paid_mountain > limit
