"""A fast model of a leg race's moves, for the AI's search (``ai_search``): the engine's rules of
the road (II.2-II.6, IV.1-IV.2) on plain integers and lists, without events or checks.

The engine (``engine.py``) stays the judge of every real move; this model only predicts. It
keeps what decides where the bunch goes: the order of a move, basic speed by terrain, tandem
(not at the start, after a fall or uphill; with a side wind only crosswise against it), the
dial's clockwise positions and their cost (the abrupt +0 → +2, a leading cyclist's headwind
point), paths onto free hexagons without a swerve, the turnings' trails, the finish. It leaves
out what a prediction a few moves ahead can miss: where exactly a fall happens (a cyclist that
cannot make its basic speed stays where it is and lies down), bonus lines.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from rules.peloton.course import TERRAINS, Course, split
from rules.peloton.engine import WIND_FROM, reserve
from rules.peloton.model import DIAL, FINISHED, LYING, RACING, STANDING, START, State

# statuses as small integers
S_START, S_RACING, S_LYING, S_STANDING, S_FINISHED = 0, 1, 2, 3, 4
_STATUS = {START: S_START, RACING: S_RACING, LYING: S_LYING, STANDING: S_STANDING, FINISHED: S_FINISHED}
NO_LIMIT = 99
LEFT, STRAIGHT, RIGHT = 1, 2, 3
SWERVE = {LEFT, RIGHT}  # left then right, or right then left, in one move: a fall (II.1)


@dataclass(frozen=True)
class Road:
    """A course with its wind, read once: per strip ``s`` its basic speed, uphill, relative wind
    (``head``, ``tail``, ``left``, ``right``, ``none``), turning and the side of the next one."""

    course: Course
    width: int
    finish: int
    end: int
    basic: tuple[int, ...]
    uphill: tuple[bool, ...]
    wind: tuple[str, ...]
    turning: tuple[int, ...]  # index of the turning at s, -1 if none
    limits: tuple[tuple[int, ...], ...]  # [s][lane]: the safe speed of its trail
    crossroads: tuple[bool, ...]  # [turning index]
    inside_left: tuple[bool, ...]  # [s]: the next turning bends left (or there is none)
    ahead: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]  # [s][lane]: ``forward``


class Memory:
    """What the search has worked out on one road and wind, for the decisions after: the search
    rides the same moves again and again (the riders ahead of the searcher's cyclist ride the same
    way whatever it chooses, and the futures of its choices meet again). Bounded: each table is
    emptied when full, and only the last few roads keep theirs (``memory``)."""

    RIDES = 20_000  # a baseline's ride by ``Sim.move_key``: about 0.3 kB each
    MOVES = 4_000  # a whole move of the bunch by ``Sim.bunch`` before it: about 1.7 kB each

    def __init__(self) -> None:
        self.rides: dict[tuple[int, ...], tuple[int, int] | None] = {}
        self.moves: dict[tuple[object, ...], tuple[int, ...]] = {}


ROADS_REMEMBERED = 2  # the search's memory kept for this many roads (a bot process meets many)
_memories: list[tuple[Road, Memory]] = []
_memories_lock = threading.Lock()


def memory(r: Road) -> Memory:
    """The search's memory of road ``r``, the most recently used first; a road further back forgets."""
    with _memories_lock:
        for k, (known, kept) in enumerate(_memories):
            if known is r:
                if k:
                    _memories.insert(0, _memories.pop(k))
                return kept
        kept = Memory()
        _memories.insert(0, (r, kept))
        del _memories[ROADS_REMEMBERED:]
        return kept


def _relative(course: Course, wind: int, s: int) -> str:
    if wind == 0:
        return "none"
    d = (WIND_FROM[wind] - course.heading(s) + 180.0) % 360.0 - 180.0
    if abs(d) <= 30.0:
        return "head"
    if abs(d) >= 150.0:
        return "tail"
    return "left" if d > 0 else "right"


@lru_cache(maxsize=64)
def road(course: Course, wind: int) -> Road:
    n = course.end + 1
    turnings = course.turnings
    index = []
    limits = []
    for s in range(n):
        t = course.turning_at(s)
        index.append(turnings.index(t) if t is not None else -1)
        limits.append(tuple(t.limit(lane, course.width) if t is not None else NO_LIMIT for lane in range(course.width)))
    inside_left = []
    for s in range(n):
        nxt = course.next_turning(s)
        inside_left.append(nxt is None or nxt.side == "left")
    ahead = tuple(
        tuple(tuple(_forward(course.end, course.width, s, lane)) for lane in range(course.width)) for s in range(n)
    )
    return Road(
        course,
        course.width,
        course.finish,
        course.end,
        tuple(TERRAINS[course.terrain_at(s)] for s in range(n)),
        tuple(course.terrain_at(s) == "up" for s in range(n)),
        tuple(_relative(course, wind, s) for s in range(n)),
        tuple(index),
        tuple(limits),
        tuple(t.crossroads for t in turnings),
        tuple(inside_left),
        ahead,
    )


def _forward(end: int, width: int, s: int, lane: int) -> list[tuple[int, int, int]]:
    out = []
    if lane > 0 and s + 1 <= end:
        out.append((LEFT, s + 1, lane - 1))
    if s + 2 <= end:
        out.append((STRAIGHT, s + 2, lane))
    if lane < width - 1 and s + 1 <= end:
        out.append((RIGHT, s + 1, lane + 1))
    return out


def forward(r: Road, s: int, lane: int) -> tuple[tuple[int, int, int], ...]:
    """The 2-3 forward neighbours: (direction, s, lane)."""
    return r.ahead[s][lane]


def tandem_cells(r: Road, s: int, lane: int) -> list[tuple[int, int]]:
    """The hexagons directly in front (only the crosswise one against a side wind)."""
    w = r.wind[s]
    if w == "left":
        return [(s + 1, lane - 1)] if lane > 0 and s + 1 <= r.end else []
    if w == "right":
        return [(s + 1, lane + 1)] if lane < r.width - 1 and s + 1 <= r.end else []
    return [(x, y) for _, x, y in forward(r, s, lane)]


class Sim:
    """A leg race in plain lists, indexed like ``State.cyclists``; ``copy`` is cheap."""

    __slots__ = (
        "acting",
        "dial",
        "energy",
        "fround",
        "lane",
        "memory",
        "past",
        "queue",
        "r",
        "round",
        "s",
        "sheltered",
        "status",
        "tandem",
        "team",
    )

    def __init__(self, r: Road) -> None:
        self.r = r
        self.memory = memory(r)
        self.s: list[int] = []
        self.lane: list[int] = []
        self.dial: list[int] = []
        self.energy: list[int] = []
        self.status: list[int] = []
        self.fround: list[int] = []  # the move it finished in, 0 while racing
        self.past: list[int] = []
        self.round = 0
        self.queue: list[int] = []  # still to move this round, in order
        self.tandem: set[int] = set()
        self.sheltered: set[int] = set()
        self.acting = -1  # its dial is set: it rides next
        self.team: tuple[str, ...] = ()

    def copy(self) -> Sim:
        o = Sim.__new__(Sim)
        o.r, o.memory, o.round, o.acting, o.team = self.r, self.memory, self.round, self.acting, self.team
        o.s, o.lane, o.dial, o.energy = self.s[:], self.lane[:], self.dial[:], self.energy[:]
        o.status, o.fround, o.past, o.queue = self.status[:], self.fround[:], self.past[:], self.queue[:]
        o.tandem, o.sheltered = set(self.tandem), set(self.sheltered)
        return o

    def between_moves(self) -> bool:
        """Every cyclist on the road has ridden this move, and the race goes on."""
        return self.acting < 0 and not self.queue and any(x != S_FINISHED for x in self.status)

    def bunch(self) -> tuple[int, ...]:
        """Between two moves, all that decides the next, in one flat tuple: the move, every
        cyclist's place, dial, energy and state, and who rode tandem and sheltered."""
        tandem = sum(1 << i for i in self.tandem)
        sheltered = sum(1 << i for i in self.sheltered)
        return (
            self.round,
            tandem,
            sheltered,
            *self.s,
            *self.lane,
            *self.dial,
            *self.energy,
            *self.status,
            *self.fround,
            *self.past,
        )

    def restore(self, bunch: tuple[int, ...]) -> None:
        """Back to a ``bunch`` taken between two moves."""
        n = len(self.s)
        self.round, tandem, sheltered = bunch[:3]
        rows = [list(bunch[3 + k * n : 3 + (k + 1) * n]) for k in range(7)]
        self.s, self.lane, self.dial, self.energy, self.status, self.fround, self.past = rows
        self.tandem = {i for i in range(n) if tandem >> i & 1}
        self.sheltered = {i for i in range(n) if sheltered >> i & 1}
        self.queue, self.acting = [], -1

    # ------------------------------------------------------------ reading the road

    def taken(self) -> set[tuple[int, int]]:
        return {
            (self.s[i], self.lane[i])
            for i in range(len(self.s))
            if self.status[i] != S_FINISHED or self.fround[i] == self.round
        }

    def dial_case(self, i: int) -> tuple[bool, int, int, bool]:
        """All that ``dial_options`` reads: down (lying or standing), the dial, energy, a headwind to pay."""
        down = self.status[i] in (S_LYING, S_STANDING)
        return down, self.dial[i], self.energy[i], self.r.wind[self.s[i]] == "head" and i not in self.sheltered

    def dial_options(self, i: int) -> list[tuple[int, int]]:
        """(position, cost) the dial may go to, clockwise, never through +0 (II.4, II.5, IV.1)."""
        if self.status[i] in (S_LYING, S_STANDING):
            return [(0, 0)]
        d = self.dial[i]
        positions = (0, 1, 2, 3, 4) if d == 0 else (*range(d + 1, 5), 0)
        head = self.r.wind[self.s[i]] == "head" and i not in self.sheltered
        out = []
        for p in positions:
            v = DIAL[p]
            cost = 0 if v == 0 else v + (1 if d == 0 and v == 2 else 0) + (1 if head else 0)
            if cost <= self.energy[i]:
                out.append((p, cost))
        return out

    def speed_range(self, i: int) -> tuple[int, int]:
        basic = self.r.basic[self.s[i]]
        if self.status[i] == S_STANDING:
            return basic, basic
        return basic, basic + (1 if i in self.tandem else 0) + DIAL[self.dial[i]]

    def move_key(self, i: int) -> tuple[int, ...]:
        """All that decides the ends of cyclist ``i``'s move, in one flat tuple: where it starts,
        its speeds and the hexagons taken ahead of it as far as it can get (in order)."""
        low, high = self.speed_range(i)
        s0 = self.s[i]
        far = s0 + 2 * high  # a walk never gets past this strip: hexagons taken beyond it do not matter
        rnd = self.round
        ahead = sorted(
            s * 64 + lane
            for s, lane, status, fround in zip(self.s, self.lane, self.status, self.fround, strict=True)
            if s0 < s <= far and (status != S_FINISHED or fround == rnd)  # as ``taken``
        )
        return (s0, self.lane[i], low, high, *ahead)

    def ends(self, i: int) -> dict[tuple[int, int], int]:
        """Safe end hexagons this move -> the fewest hexagons that reach it (the engine's ``rides``)."""
        r = self.r
        low, high = self.speed_range(i)
        taken = self.taken()
        s0 = self.s[i]
        far = s0 + 2 * high
        out: dict[tuple[int, int], int] = {}
        reach = range(s0 + 1, min(r.end, far) + 1)
        if high <= 4 or all(r.turning[s] < 0 for s in reach):
            # no trail to keep: one walk gives every speed's ends
            self._walk(i, high, 0, taken, low, out)
        else:
            for speed in range(low, high + 1):
                self._walk(i, speed, speed, taken, speed, out)
        return out

    def _walk(
        self, i: int, steps: int, speed: int, taken: set[tuple[int, int]], low: int, out: dict[tuple[int, int], int]
    ) -> None:
        """Walk ``steps`` hexagons onto free ones without a swerve, on trails safe at ``speed`` (0:
        none to keep); the ends of the walks of ``low`` hexagons and more go to ``out``."""
        r = self.r
        start_turn = r.turning[self.s[i]]
        ahead = r.ahead
        layer = {(self.s[i], self.lane[i], 0)}
        for step in range(1, steps + 1):
            nxt = set()
            for s, lane, last in layer:
                for direction, s2, l2 in ahead[s][lane]:
                    if (s2, l2) in taken or {last, direction} == SWERVE:
                        continue
                    if speed > 4:
                        t = r.turning[s2]
                        if t >= 0 and speed > r.limits[s2][l2] and not (r.crossroads[t] and start_turn == t):
                            continue
                    nxt.add((s2, l2, direction))
            layer = nxt
            if not layer:
                return
            if step >= low:
                for s, lane, _ in layer:
                    out.setdefault((s, lane), step)

    # ------------------------------------------------------------ moving

    def new_round(self) -> None:
        self.round += 1
        r = self.r
        taken = self.taken()
        on = [i for i in range(len(self.s)) if self.status[i] != S_FINISHED]

        def key(i: int) -> tuple[int, int]:
            lane = self.lane[i]
            return (-self.s[i], lane if r.inside_left[self.s[i]] else r.width - 1 - lane)

        self.queue = sorted(on, key=key)
        self.tandem, self.sheltered = set(), set()
        for i in on:
            front = any(c in taken for c in tandem_cells(r, self.s[i], self.lane[i]))
            if front:
                self.sheltered.add(i)
                if self.status[i] == S_RACING and not r.uphill[self.s[i]]:
                    self.tandem.add(i)
        self.acting = -1

    def stand_up(self) -> None:
        """The cyclists lying down at the head of the queue stand up: their turn (``next_mover``)."""
        while self.acting < 0 and self.queue and self.status[self.queue[0]] == S_LYING:
            self.status[self.queue.pop(0)] = S_STANDING

    def next_mover(self) -> int:
        """The cyclist to decide next (its dial, or its ride once ``acting``); -1 when the race is over.
        Cyclists lying down stand up on their turn."""
        while True:
            if self.acting >= 0:
                return self.acting
            if not self.queue:
                if all(x == S_FINISHED for x in self.status):
                    return -1
                self.new_round()
                continue
            i = self.queue[0]
            if self.status[i] == S_LYING:
                self.status[i] = S_STANDING
                self.queue.pop(0)
                continue
            return i

    def set_dial(self, i: int, position: int, cost: int) -> None:
        self.dial[i] = position
        self.energy[i] -= cost
        self.acting = i

    def ride(self, i: int, to: tuple[int, int] | None) -> None:
        """End the move on ``to`` (None: it cannot make its basic speed and falls where it is)."""
        if to is None:
            self.status[i], self.dial[i] = S_LYING, 0
        else:
            self.s[i], self.lane[i] = to
            self.status[i] = S_RACING
            if to[0] > self.r.finish:
                self.status[i], self.fround[i], self.past[i] = S_FINISHED, self.round, to[0] - self.r.finish
        if self.queue and self.queue[0] == i:
            self.queue.pop(0)
        self.acting = -1


def from_state(state: State) -> Sim:
    """The model of a leg race's present state (every cyclist on the road or finished); energy a
    stage race lets a cyclist borrow from the next leg (II.5) counts as its own."""
    r = road(state.course, state.wind)
    borrow = reserve(state)
    sim = Sim(r)
    ids = [c.id for c in state.cyclists]
    for c in state.cyclists:
        s, lane = split(c.cell) if c.cell is not None else (0, 0)
        sim.s.append(s)
        sim.lane.append(lane)
        sim.dial.append(c.dial)
        sim.energy.append(c.energy + borrow)
        sim.status.append(_STATUS.get(c.status, S_START))
        sim.fround.append(c.finish_round or 0)
        sim.past.append(c.past)
    sim.team = tuple(c.player for c in state.cyclists)
    sim.round = state.round
    sim.queue = [ids.index(x) for x in state.queue]
    sim.tandem = {ids.index(x) for x in state.tandem}
    sim.sheltered = {ids.index(x) for x in state.sheltered}
    sim.acting = ids.index(state.acting) if state.acting is not None else -1
    return sim
