"""Multi-day races (Notes 2): the general classification in turns behind, bonuses, elimination, carry-over."""

from __future__ import annotations

from dataclasses import dataclass

from rules.hell_of_the_north.model import (
    GC_ELIMINATION,
    MAX_CARRIED_ENERGY,
    MAX_CARRIED_PURSUITS,
    STAGE_WIN_BONUS,
    State,
)
from rules.hell_of_the_north.order import arrival_order


@dataclass(frozen=True)
class StageLine:
    rider: str
    player: str
    turns: int  # turns behind the stage winner less its stage and time bonuses: -2 or less for the winner (R-HOTN-GC)
    won: int  # the stage bonus: 2 for the winner, 1 for the second
    bonuses: int
    energy: int
    eliminated: bool


def stage_result(state: State) -> list[StageLine]:
    """Each rider's turns behind the stage winner, after the stage bonuses and the time bonuses."""
    arrived = arrival_order(state)
    first = arrived[0].arrived_turn or 0 if arrived else 0
    lines = []
    for rank, r in enumerate(arrived):
        won = STAGE_WIN_BONUS[rank] if rank < len(STAGE_WIN_BONUS) else 0
        delay = (r.arrived_turn or 0) - first
        lines.append(StageLine(r.id, r.player, delay - won - r.bonuses, won, r.bonuses, r.energy, False))
    for r in state.riders:
        if r.status == "eliminated":
            lines.append(StageLine(r.id, r.player, 0, 0, 0, r.energy, True))
    return lines


def general_classification(
    previous: dict[str, int], eliminated: set[str], lines: list[StageLine]
) -> tuple[list[tuple[str, int]], set[str]]:
    """Total turns by rider, leader first; riders more than 22 turns behind the leader are out."""
    totals = dict(previous)
    out = set(eliminated)
    for line in lines:
        if line.eliminated:
            out.add(line.rider)
        else:
            totals[line.rider] = totals.get(line.rider, 0) + line.turns
    racing = {rid: t for rid, t in totals.items() if rid not in out}
    if racing:
        leader = min(racing.values())
        out |= {rid for rid, t in racing.items() if t - leader > GC_ELIMINATION}
    ordered = sorted(totals.items(), key=lambda item: (item[0] in out, item[1], item[0]))
    return ordered, out


def carried_energy(energy: int) -> int:
    return max(0, min(energy, MAX_CARRIED_ENERGY))


def carried_pursuits(left: int) -> int:
    return max(0, min(left, MAX_CARRIED_PURSUITS))
