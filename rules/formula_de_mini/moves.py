"""Where a car can end its move, and what each end costs (basic rules 1-2, events 2-4, 8, 9).

A move is a path of spaces along the circuit's successors. Paths never cross another car.
On straights a move changes lane at most once (2 lanes) or twice (3 lanes) and never goes
back to a lane it left unless it passed a car there. In corners the arrows are the
successors. Leaving a corner without its stops is overshooting: every further space costs
1 LP, in the same lane, and a corner reached while skidding gives no stop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from rules.formula_de_mini.model import SLIPSTREAM_MIN_GEAR, SLIPSTREAM_SPACES, Car, State
from rules.formula_de_mini.path import Path  # also read here by snapshots pickled before path.py
from rules.memo import Recent


@dataclass(frozen=True)
class MoveOption:
    to: str
    via: tuple[str, ...]
    spaces: int
    brake: int  # LP spent braking
    blocked: int  # spaces the car could not drive because of cars ahead
    overshoot: int
    crossings: int
    pit: bool  # ends at the car's pit stand
    skidding: bool  # still skidding at the end (no stop counted in a corner reached)
    turbo: bool = False
    trail: Path | None = field(default=None, compare=False, repr=False)
    pit_lane: bool = False  # ends on a pit-lane space other than the car's stand (free, no stop)

    @property
    def path(self) -> tuple[str, ...]:
        return (*self.via, self.to)


def occupied(state: State, mover: str) -> set[str]:
    return {c.cell for c in state.cars if c.id != mover and c.status in ("racing", "spun", "pits")}


@cache
def _row_lane(cid: str) -> tuple[int, int]:
    """A cell id's row and lane (``"12.2"``), parsed once: path search asks millions of times a race."""
    row, lane = cid.split(".")[:2]
    return int(row), int(lane)


def _lane(cid: str) -> int:
    return _row_lane(cid)[1]


def _row(cid: str) -> int:
    return _row_lane(cid)[0]


def start_path(state: State, car: Car) -> Path:
    return Path(
        (), 0, (), car.corner, car.stops, 0, False, 0, car.status == "pits" or car.cell in state.setup.circuit.pit_cells
    )


def extend(
    state: State, car: Car, path: Path, here: str, nxt: str, taken: set[str], *, slipstream: bool = False
) -> Path | None:
    """``path`` one space further, to ``nxt``; None where the rules forbid it."""
    circuit = state.setup.circuit
    cells = circuit.track.cells
    if nxt in taken or nxt not in cells[here].successors:
        return None
    here_row, here_lane = _row_lane(here)
    nxt_row, nxt_lane = _row_lane(nxt)
    into_pit = nxt_lane == circuit.lanes  # the pit lane is numbered after the track's lanes
    if into_pit and not path.pit and (car.pitted or not in_pit_window(car)):
        return None  # once a race, after the 1st or 2nd lap (rulings.md R-FDM-PIT-WINDOW)
    here_corner = circuit.corner_number(here)
    next_corner = circuit.corner_number(nxt)
    changes, left = path.changes, path.left
    if nxt_lane != here_lane and not into_pit and not path.pit:
        if path.skidding:
            return None  # no lane change while skidding
        if here_corner is None and next_corner is None and not slipstream:
            changes += 1
            if changes > (1 if circuit.lanes == 2 else 2):
                return None
        for lane, row in left if not slipstream else ():  # a slipstream's return is a pass
            if lane == nxt_lane:
                passed = any(_lane(t) == lane and row < _row(t) < nxt_row for t in taken)
                if not passed:
                    return None  # no zigzag except to pass
        left = (*left, (here_lane, here_row))
    corner, stops, overshoot, skidding = path.corner, path.stops, path.overshoot, path.skidding
    if skidding:
        overshoot += 1
    if here_corner is not None and next_corner != here_corner:
        required = next(c.stops for c in circuit.corners if c.id == here_corner)
        if corner == here_corner and stops < required and not skidding:
            skidding, overshoot = True, overshoot + 1
    if next_corner != corner:
        corner, stops = next_corner, 0
    # the line is crossed onto the straddling square, or going back to a lower row (a new lap)
    crosses = nxt == circuit.straddle or (nxt_row < here_row and here != circuit.straddle)
    crossings = path.crossings + int(crosses)
    return Path((*path.cells, nxt), changes, left, corner, stops, overshoot, skidding, crossings, path.pit or into_pit)


def in_pit_window(car: Car) -> bool:
    """*"The pit stop can be made after the 1st or 2nd lap"*: coming round the 1st or 2nd time."""
    return 1 <= car.lap <= 2


def _key(path: Path) -> tuple[object, ...]:
    return (path.cells[-1], path.changes, path.left, path.corner, path.overshoot, path.skidding, path.crossings)


def reachable(
    state: State, car: Car, longest: int, *, start: str | None = None, first: Path | None = None
) -> dict[int, list[Path]]:
    """Every distinct path of 1..``longest`` spaces from the car's square (or ``start``).

    The lists are shared with a cache: read them, do not change them. The paths of each
    length do not depend on ``longest``, so a search that went further serves a shorter one:
    the AI searches 20 spaces to choose a gear, then the move it rolls reads the same paths.
    """
    taken = occupied(state, car.id)
    stand = state.setup.circuit.stands[_team_index(state, car)]
    key = None
    if start is None and first is None:
        # everything the search reads, bar the circuit (compared by identity)
        key = (frozenset(taken), car.cell, car.status, car.corner, car.stops, car.pitted, car.lap, stand)
        known: tuple[int, dict[int, list[Path]]] | None = _REACHED.get(key, state.setup.circuit)
        if known is not None and known[0] >= longest:
            return {n: paths for n, paths in known[1].items() if n <= longest}
    by_length = _search(state, car, longest, taken, stand, start or car.cell, first or start_path(state, car))
    if key is not None:
        _REACHED.put(key, state.setup.circuit, (longest, by_length))
    return dict(by_length)


_REACHED: Recent[tuple[int, dict[int, list[Path]]]] = Recent(64)


def _search(
    state: State, car: Car, longest: int, taken: set[str], stand: str, begin: str, first: Path
) -> dict[int, list[Path]]:
    frontier: list[tuple[str, Path]] = [(begin, first)]
    by_length: dict[int, list[Path]] = {}
    for length in range(1, longest + 1):
        seen: dict[tuple[object, ...], Path] = {}
        for here, path in frontier:
            if path.cells and path.cells[-1] == stand and path.pit and car.status != "pits":
                continue  # a car that reached its stand stops there
            for nxt in state.setup.circuit.track.cells[here].successors:
                grown = extend(state, car, path, here, nxt, taken)
                if grown is not None:
                    seen.setdefault(_key(grown), grown)
        if not seen:
            break
        by_length[length] = list(seen.values())
        frontier = [(p.cells[-1], p) for p in seen.values()]
    return by_length


def _team_index(state: State, car: Car) -> int:
    teams = list(dict.fromkeys(p.team for p in state.setup.players))
    return teams.index(car.team)


def move_options(
    state: State, car: Car, spaces: int, *, turbo: bool = False, reached: dict[int, list[Path]] | None = None
) -> list[MoveOption]:
    """Every end of a move of ``spaces`` (the die), braking included; blocked moves stop short.

    ``reached`` is ``reachable(state, car, n)`` for some ``n >= spaces`` (``n > spaces`` with
    ``turbo``), computed once for several rolls: the paths of each length do not depend on
    how long the search goes on, so its first ``spaces`` lengths are this roll's.
    """
    kept = kept_moves(state, car, spaces, turbo=turbo, reached=reached)
    options = [
        MoveOption(car.cell, (), 0, 0, d.blocked, 0, 0, False, False)
        if d.path is None
        else _option(d.path, d.spaces, d.brake, d.blocked, pit=d.pit, turbo=d.turbo, pit_lane=d.pit_lane)
        for d in kept
    ]
    return sorted(options, key=lambda o: (o.spaces, o.to, o.brake, o.turbo))


class Move(NamedTuple):
    """A move option's facts before it is built (``move_options`` builds one per kept move)."""

    path: Path | None  # None: the car stays put (boxed in)
    spaces: int
    brake: int
    blocked: int
    pit: bool
    turbo: bool
    pit_lane: bool

    @property
    def overshoot(self) -> int:
        return 0 if self.path is None else self.path.overshoot

    @property
    def crossings(self) -> int:
        return 0 if self.path is None else self.path.crossings


def kept_moves(
    state: State, car: Car, spaces: int, *, turbo: bool = False, reached: dict[int, list[Path]] | None = None
) -> list[Move]:
    """The moves ``move_options`` turns into options (in no particular order), not built: for
    an AI that only scores them, roll after roll."""
    circuit = state.setup.circuit
    stand = circuit.stands[_team_index(state, car)]
    paths = reachable(state, car, spaces) if reached is None else {n: p for n, p in reached.items() if n <= spaces}
    drafts: list[_Draft] = []  # plain tuples: a Move is made only for the cheapest path to each end
    pit_ends = [p for length in paths for p in paths[length] if p.cells[-1] == stand and p.pit]
    for p in pit_ends:  # unused movement is ignored in the pits
        drafts.append((p, len(p.cells), 0, 0, True, False, False))
    in_pit_lane = car.cell in circuit.pit_cells
    lengths = [n for n in paths if any(not p.pit or in_pit_lane for p in paths[n])]
    furthest = max(lengths, default=0)
    blocked = spaces - furthest if furthest < spaces else 0
    taken = occupied(state, car.id)
    pit_cells = circuit.pit_cells
    for length, found in sorted(paths.items()):
        brake = 0 if in_pit_lane else (furthest - length if blocked else spaces - length)
        stopped = 0 if in_pit_lane else blocked
        for p in found:
            end = p.cells[-1]
            if end in taken or (end == stand and p.pit and not car.pitted):
                continue  # the stand itself is the pit stop, above
            if end in pit_cells:
                # R-FDM-PIT-LANE: "The rules for braking, blocking ... do not apply in the pit
                # lane": a move may end on any free pit-lane space it reaches, at no cost
                drafts.append((p, length, 0, 0, False, False, True))
            elif length <= furthest and (not p.pit or in_pit_lane):
                drafts.append((p, length, brake, stopped, False, False, False))
    if furthest == 0 and not pit_ends:  # boxed in: the car stays and is blocked for the whole roll
        drafts.append((None, 0, 0, 0 if in_pit_lane else spaces, False, False, False))
    if turbo and not car.turbo_used:
        extra = (reachable(state, car, spaces + 1) if reached is None else reached).get(spaces + 1, [])
        drafts += [(p, spaces + 1, 0, 0, False, True, False) for p in extra if not p.pit]
    return _kept(drafts, car.cell)


def kept_moves_by_roll(
    state: State, car: Car, rolls: Iterable[int], reached: dict[int, list[Path]]
) -> dict[int, list[Move]]:
    """``kept_moves(state, car, roll, reached=reached)`` for each of ``rolls`` (no turbo), the
    same moves in another order, with the paths sorted out once rather than once a roll.

    A roll only decides which lengths count (up to the roll), how far the car gets and what
    it brakes or is blocked: which path is kept per end square (and per length, where the
    length sets the price) does not depend on it. ``reached`` is ``reachable`` for the
    longest roll or further.
    """
    circuit = state.setup.circuit
    stand = circuit.stands[_team_index(state, car)]
    in_pit_lane = car.cell in circuit.pit_cells
    taken = occupied(state, car.id)
    # per length: the cheapest path onto the stand, and per end square onto a pit-lane space
    # or any other space (cheapest: least overshoot, then by its squares, as _kept sorts)
    stops: dict[int, Path] = {}
    pit_lane: dict[int, dict[str, Path]] = {}
    others: dict[int, dict[str, Path]] = {}
    for length, found in reached.items():
        for p in found:
            end = p.cells[-1]
            if end == stand and p.pit:
                if length not in stops or _cheaper(p, stops[length]):
                    stops[length] = p
                if not car.pitted:
                    continue  # the stand itself is the pit stop
            if end in taken:
                continue
            if end in circuit.pit_cells:
                kept = pit_lane.setdefault(length, {})
            elif not p.pit or in_pit_lane:
                kept = others.setdefault(length, {})
            else:
                continue
            if end not in kept or _cheaper(p, kept[end]):
                kept[end] = p
    ahead = sorted(n for n, found in reached.items() if any(not p.pit or in_pit_lane for p in found))
    by_roll: dict[int, list[Move]] = {}
    for roll in rolls:
        furthest = max((n for n in ahead if n <= roll), default=0)
        blocked = roll - furthest if furthest < roll else 0
        moves: list[Move] = []
        stop = _cheapest(p for n, p in stops.items() if n <= roll)
        if stop is not None:
            moves.append(Move(stop, len(stop.cells), 0, 0, True, False, False))
        # a path of n spaces has n squares: its length is len(p.cells)
        moves += [Move(p, len(p.cells), 0, 0, False, False, True) for p in _cheapest_per_end(pit_lane, roll)]
        if in_pit_lane:  # no braking, no blocking: one price per end square
            moves += [Move(p, len(p.cells), 0, 0, False, False, False) for p in _cheapest_per_end(others, roll)]
        else:
            for length, kept in others.items():
                if length <= roll:
                    brake = furthest - length if blocked else roll - length
                    moves += [Move(p, length, brake, blocked, False, False, False) for p in kept.values()]
        if furthest == 0 and stop is None:  # boxed in: the car stays and is blocked for the whole roll
            moves.append(Move(None, 0, 0, 0 if in_pit_lane else roll, False, False, False))
        by_roll[roll] = moves
    return by_roll


def _cheaper(p: Path, than: Path) -> bool:
    return (p.overshoot, p.cells[:-1]) < (than.overshoot, than.cells[:-1])


def _cheapest(paths: Iterable[Path]) -> Path | None:
    best: Path | None = None
    for p in paths:
        if best is None or _cheaper(p, best):
            best = p
    return best


def _cheapest_per_end(by_length: dict[int, dict[str, Path]], roll: int) -> list[Path]:
    best: dict[str, Path] = {}
    for length, kept in by_length.items():
        if length <= roll:
            for end, p in kept.items():
                if end not in best or _cheaper(p, best[end]):
                    best[end] = p
    return list(best.values())


# a move not made yet: Move's fields as a plain tuple (made thousands of times a decision)
_Draft = tuple[Path | None, int, int, int, bool, bool, bool]


def _draft_order(d: _Draft) -> tuple[int, tuple[str, ...]]:
    return (0, ()) if d[0] is None else (d[0].overshoot, d[0].cells[:-1])


def _kept(drafts: list[_Draft], here: str) -> list[Move]:
    """``_best_per_end`` of the drafts: per end square and price, the cheapest path (least overshoot)."""
    best: dict[tuple[object, ...], _Draft] = {}
    for d in sorted(drafts, key=_draft_order):
        p, _, brake, blocked, pit, turbo, pit_lane = d
        best.setdefault((here if p is None else p.cells[-1], brake, blocked, turbo, pit, pit_lane), d)
    return [Move._make(d) for d in best.values()]


def _option(
    p: Path, spaces: int, brake: int, blocked: int, *, pit: bool = False, turbo: bool = False, pit_lane: bool = False
) -> MoveOption:
    return MoveOption(
        p.cells[-1],
        p.cells[:-1],
        spaces,
        brake,
        blocked,
        p.overshoot,
        p.crossings,
        pit,
        p.skidding,
        turbo,
        trail=p,
        pit_lane=pit_lane,
    )


def _best_per_end(options: list[MoveOption]) -> list[MoveOption]:
    """One option per end square and price: the cheapest path there (least overshoot)."""
    best: dict[tuple[object, ...], MoveOption] = {}
    for o in sorted(options, key=lambda o: (o.overshoot, o.via)):
        best.setdefault((o.to, o.brake, o.blocked, o.turbo, o.pit, o.pit_lane), o)
    return sorted(best.values(), key=lambda o: (o.spaces, o.to, o.brake, o.turbo))


def slipstream_target(state: State, car: Car, cell: str) -> str | None:
    """The car directly in front of ``cell`` whose slipstream ``car`` may take, if any."""
    circuit = state.setup.circuit
    lane = _lane(cell)
    ahead = [s for s in circuit.track.cells[cell].successors if _lane(s) == lane]
    if not ahead or car.gear < SLIPSTREAM_MIN_GEAR:
        return None
    front = next((c for c in state.cars if c.cell == ahead[0] and c.status == "racing" and c.id != car.id), None)
    if front is None or front.gear < SLIPSTREAM_MIN_GEAR or car.gear < front.gear:
        return None
    return front.id


def slipstream_options(state: State, car: Car, path: Path) -> list[MoveOption]:
    """The three manoeuvres of a slipstream (3 more spaces), from the end of ``path``.

    *"A slipstream always results in an additional movement of 3 spaces. However, the driver
    can use LPs to move less (by Braking)"*: the first one or two spaces of a manoeuvre are
    offered too, with ``brake`` 2 or 1.
    """
    here = path.cells[-1] if path.cells else car.cell
    if path.pit or slipstream_target(state, car, here) is None:
        return []
    taken = occupied(state, car.id)
    circuit = state.setup.circuit
    origin = _lane(here)
    results: list[MoveOption] = []
    frontier = [(here, path, 0)]
    for step in range(SLIPSTREAM_SPACES):
        nxt_frontier = []
        for cell, p, outs in frontier:
            for nxt in circuit.track.cells[cell].successors:
                offset = _lane(nxt) - origin
                in_corner = circuit.track.cells[cell].attrs.get("corner") is not None
                if step == 0 and offset == 0 and not in_corner:
                    continue  # the car in front is there: pull out
                if abs(offset) > (1 if circuit.lanes == 2 else 2):
                    continue
                grown = extend(state, car, p, cell, nxt, taken, slipstream=True)
                if grown is not None:
                    nxt_frontier.append((nxt, grown, outs))
        frontier = nxt_frontier
        for _, p, _ in frontier:  # braking shortens the manoeuvre by a space per LP
            results.append(_option(p, len(p.cells) - len(path.cells), SLIPSTREAM_SPACES - step - 1, 0))
    return _best_per_end(results)
