"""D. Stage races: a stage's result and the general classification on the GC hexagon.

Each rider's token moves on a ring of squares: +2 for the stage winner, +1 per bonus
time, minus one per turn of delay to the winner. A rider lapped by the leader on the
ring, or who ends a stage more than 3 turns after the peloton, is eliminated. Ties go
to the rider with more energy left. Energy left over is carried to the next stage, at
most 15 points.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.leader1.model import State
from rules.leader1.order import arrival_order

WIN_BONUS = 2
BONUS_TIME = 1
CARRY_CAP = 15


@dataclass(frozen=True)
class StageLine:
    rider: str
    player: str
    arrived_turn: int | None  # None: did not finish (eliminated during the stage)
    delay: int  # turns behind the stage winner
    won: bool
    bonuses: int
    energy: int
    eliminated: bool


@dataclass(frozen=True)
class Standing:
    rider: str
    player: str
    position: int  # squares moved on the GC hexagon since the first stage (can be negative)
    energy: int
    eliminated: bool = False


def stage_result(state: State) -> tuple[StageLine, ...]:
    """The result of a finished stage, in arrival order (eliminated riders last)."""
    arrived = arrival_order(state)
    winner_turn = arrived[0].arrived_turn if arrived else None
    bonuses: dict[str, int] = {}
    for _, rid in state.bonus_won:
        bonuses[rid] = bonuses.get(rid, 0) + 1
    lines = [
        StageLine(
            r.id,
            r.player,
            r.arrived_turn,
            (r.arrived_turn or 0) - (winner_turn or 0),
            i == 0,
            bonuses.get(r.id, 0),
            r.energy,
            False,
        )
        for i, r in enumerate(arrived)
    ]
    lines += [
        StageLine(r.id, r.player, None, 0, False, bonuses.get(r.id, 0), r.energy, True)
        for r in state.riders
        if r.status == "eliminated"
    ]
    return tuple(lines)


def general_classification(
    previous: tuple[Standing, ...], stage: tuple[StageLine, ...], ring: int
) -> tuple[Standing, ...]:
    """The GC after ``stage``, leader first; riders lapped on the ring are eliminated."""
    before = {s.rider: s for s in previous}
    standings = []
    for line in stage:
        old = before.get(line.rider, Standing(line.rider, line.player, 0, line.energy))
        if old.eliminated:
            continue
        move = WIN_BONUS * line.won + BONUS_TIME * line.bonuses - line.delay
        standings.append(replace(old, position=old.position + move, energy=line.energy, eliminated=line.eliminated))
    standings += [s for s in previous if s.eliminated or s.rider not in {line.rider for line in stage}]
    leader = max((s.position for s in standings if not s.eliminated), default=0)
    standings = [
        replace(s, eliminated=True) if not s.eliminated and leader - s.position >= ring else s for s in standings
    ]
    return tuple(sorted(standings, key=lambda s: (s.eliminated, -s.position, -s.energy, s.rider)))


def moves_to_elimination(standings: tuple[Standing, ...], rider: str, ring: int) -> int:
    """How many more squares behind the leader ``rider`` can fall before being lapped."""
    leader = max(s.position for s in standings if not s.eliminated)
    me = next(s for s in standings if s.rider == rider)
    return ring - (leader - me.position)


def carried_energy(remaining: int) -> int:
    """D.3: energy carried to the next stage, never more than 15."""
    return min(max(remaining, 0), CARRY_CAP)
