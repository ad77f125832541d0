"""The path search every Leader 1 family game shares: where a move can go, square by square.

A move is a path of squares, one row forward per square, straight or diagonal. A road
blocked across its width may be ridden through at +1 energy per occupied square; a rider
never stops on an occupied square. What a square means for the risks differs by game: each
game passes ``mark``, which folds a square into the path's hazard marks, and ``hazards``,
which reads (fall, other risk) from them. Paths to one square that end with the same marks
are the same move; the cheapest is the default, and a safer dearer one is offered too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from rules.frozen import built
from rules.leader1.family import AnyFamilyState, FamilyRider
from rules.leader1.ride_option import RideOption as RideOption  # what the search finds, named here too
from rules.track import cell_id

M = TypeVar("M", bound=Hashable)


class Path(NamedTuple, Generic[M]):
    """A way a move may go so far (a named tuple: a listing makes ~80 of them a decision)."""

    lane: int
    cells: tuple[str, ...]
    crossings: int  # occupied squares crossed on a blocked road, +1 energy each
    marks: M  # what the squares crossed mean for the risks (the game's own)


Mark = Callable[[M, str, int, bool], M]  # (marks so far, square, step, paid) -> marks


def search(
    state: AnyFamilyState,
    rider_id: str,
    start_row: int,
    starts: list[int],
    longest: int,
    initial: M,
    mark: Mark[M],
    *,
    breakaway: bool,
    route: tuple[str, ...] | None,
    free: int,
    boxed_in: bool = False,
) -> Iterator[tuple[int, int, list[Path[M]]]]:
    """(squares, row, paths) for each length a move may stop at, shortest first.

    A breakaway starts from any lane of the peloton's front row and must go ``breakaway_min``
    squares; with ``route`` (one path's squares, destination last) only that path counts.
    ``boxed_in``: the rider has no other option, so any occupied square may be ridden through
    (Hell of the North's R-HOTN-BOXED-IN), not only those of a row taken across its width.
    """
    road = state.setup.road
    rules = state.setup.ruleset
    cells = road.track.cells
    occupants = {r.cell: r for r in state.riders if r.on_road and r.id != rider_id}
    full_rows = {
        row
        for row in {int(c.split(".")[0]) for c in occupants if c is not None}
        if all(cell_id(row, lane) in occupants for lane in range(road.lanes))
    }
    frontier: list[Path[M]] = [Path(lane, (), 0, initial) for lane in starts]
    for step in range(1, longest + 1):
        row = start_row + step
        if row > road.last_row:
            return
        full = row in full_rows
        paid = step > free
        wanted = None if route is None else (route[step - 1] if step <= len(route) else "")
        nxt: dict[tuple[int, int, M], Path[M]] = {}
        for path in frontier:
            if breakaway and step == 1:
                ahead: tuple[tuple[int, str], ...] = ((path.lane, cell_id(row, path.lane)),)
            else:
                ahead = cells[path.cells[-1] if path.cells else cell_id(row - 1, path.lane)].lanes_ahead
            for lane, cid in ahead:
                if wanted is not None and wanted != cid:
                    continue
                other = occupants.get(cid)
                crossings = path.crossings
                if other is not None and other.status != "punctured":
                    if not full and not boxed_in:
                        continue  # only a road blocked across its width may be ridden through
                    crossings += 1
                marks = mark(path.marks, cid, row, paid)
                key = (lane, crossings, marks)
                if key not in nxt:
                    nxt[key] = Path(lane, (*path.cells, cid), crossings, marks)
        frontier = list(nxt.values())
        if not frontier:
            return
        if (breakaway and step < rules.breakaway_min) or (route is not None and step != len(route)):
            continue
        yield step, row, frontier


@dataclass(frozen=True)
class Move:
    """What one length of move is worth, whatever path it takes."""

    squares: int
    free: int
    slipstream: bool
    crack: bool
    breakaway: bool
    rejoins: bool
    extra_cost: int = 0  # added to the paid cost (wind), never below 0 in all


def destinations(
    state: AnyFamilyState,
    rider: FamilyRider,
    paths: list[Path[M]],
    move: Move,
    hazards: Callable[[M], tuple[bool, bool]],
    occupied: frozenset[str | None] | None = None,
) -> list[tuple[RideOption, Path[M]]]:
    """The options of one length of move: per square, the cheapest path, and a safer one if dearer.

    ``hazards`` reads (fall, other risk) from a path's marks (a pure function: it is read
    once a path); a fall multiplies the worst cost by the ruleset's fall factor, a crack by
    its crack factor. ``occupied``: ``occupied_squares(state, rider.id)``, if the caller
    already has it (it is the same for every length of a move).
    """
    setup = state.setup
    road = setup.road
    rules = setup.ruleset
    paid = max(0, move.squares - move.free)
    if occupied is None:
        occupied = occupied_squares(state, rider.id)
    by_cell: dict[str, list[Path[M]]] = {}
    for path in paths:
        cid = path.cells[-1]
        if cid in occupied and not move.rejoins:
            continue  # never stop on an occupied (or punctured rider's) square
        by_cell.setdefault(cid, []).append(path)

    factor = rules.crack_factor if move.crack else 1
    paid_cost = rules.paying_cost[paid] + move.extra_cost
    result = []
    for cid, candidates in sorted(by_cell.items()):
        # cheapest first, then safest: the engine's default path (record format, "via")
        if len(candidates) == 1:
            chosen = [(candidates[0], hazards(candidates[0].marks)[0])]
        else:
            ranked = sorted(
                (((p.crossings, sum(h := hazards(p.marks)), p.cells), h[0], p) for p in candidates), key=lambda r: r[0]
            )
            first = ranked[0]
            chosen = [(first[2], first[1])]
            safer = next((r for r in ranked if r[0][1] < first[0][1]), None)
            if safer is not None:
                chosen.append((safer[2], safer[1]))  # offered too: one more crossing may be worth less risk
        row = int(cid.split(".")[0])
        for path, fall in chosen:
            cost = max(0, paid_cost + path.crossings)
            worst = cost * factor * (rules.fall_factor if fall else 1)
            if worst > rider.energy:
                continue
            option = built(  # RideOption(...) field by field, in one step: ~45 a breakaway decision
                RideOption,
                {
                    "rider": rider.id,
                    "to": cid,
                    "via": path.cells[:-1],
                    "squares": move.squares,
                    "free": min(move.free, move.squares),
                    "paid": paid,
                    "crossings": path.crossings,
                    "cost": cost,
                    "recovery": max(0, move.free - move.squares),
                    "slipstream": move.slipstream,
                    "crack": move.crack,
                    "fall": fall,
                    "worst_cost": worst,
                    "rejoins": move.rejoins,
                    "finishes": row >= road.finish,
                    "breakaway": move.breakaway,
                },
            )
            result.append((option, path))
    return result


def occupied_squares(state: AnyFamilyState, rider_id: str) -> frozenset[str | None]:
    """The squares of the riders on the road other than ``rider_id`` (a move never stops there)."""
    return frozenset(r.cell for r in state.riders if r.on_road and r.id != rider_id)


def risks_crack(state: AnyFamilyState, cells: tuple[str, ...], free: int) -> bool:
    """Crack: more paid squares on a mountain pass than its category allows.

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


def cracks_by_length(state: AnyFamilyState, start_row: int, free: int, longest: int) -> list[bool]:
    """``risks_crack`` of a move of 0 to ``longest`` squares from ``start_row`` (index: squares),
    worked out in one pass: a path's crack depends only on its rows, one a square."""
    road = state.setup.road
    result = [False]
    paid_mountain = 0
    limit: int | None = None
    for step in range(1, longest + 1):
        row = start_row + step
        if step > free and road.terrain(row) == "M":
            paid_mountain += 1
            category = road.category_at(row)
            if category is not None:
                limit = category if limit is None else min(limit, category)
        result.append(limit is not None and paid_mountain > limit)
    return result


def free_squares(
    state: AnyFamilyState, rider: FamilyRider, start_row: int, *, bonus: int, breakaway: bool
) -> tuple[int, bool]:
    """Free squares of a move starting on ``start_row`` (type and terrain, plus ``bonus`` from a
    quality), and whether a slipstream square is one of them (never when breaking away)."""
    terrain = state.setup.road.terrain(start_row)
    free = state.setup.ruleset.free_squares[rider.kind][terrain] + bonus
    slip = rider.slipstream and not breakaway
    return free + int(slip), slip
