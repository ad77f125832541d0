"""A leg race searched ahead: each of the AI's choices played out to the end of the move and two
more with every cyclist riding as the baseline does (``ai_sim``), and judged by the player's
leading cyclist against the best rival there.

A leg race has no dice and no hidden information: the bunch's next moves follow from where it
is, so a model of how the others ride is all the search needs. Everyone is assumed to ride the
plain way (the dial +1, +2, +2, rest; the ride as far as it goes, the furthest along first),
the searcher's own other cyclists too; a dial setting is also played against rivals that
sprint (the biggest acceleration they can pay for), and the worse future counts. A cyclist's
standing at the horizon is its road (half hexagons) plus the energy it can still spend before
the line, a point for a half hexagon: energy is worth less than road already ridden (a point
buys a hexagon only when the road is open), and nothing once the moves left cannot spend it.
A finisher ranks by its move and how far past the line it got.
"""

from __future__ import annotations

from rules.peloton.ai_sim import Memory, Sim
from rules.peloton.model import DIAL

# the searched futures ask the same few questions again and again: the answers, by what decides them
_GREEDY_DIALS: dict[tuple[bool, int, int, bool], tuple[int, int]] = {}
_SPRINT_DIALS: dict[tuple[bool, int, int, bool], tuple[int, int]] = {}
_UNKNOWN = (-1, -1)


def greedy_dial(sim: Sim, i: int) -> tuple[int, int]:
    """The baseline's dial: the most value for the least energy, then the more value, then the
    first position (+1, +2, +2, rest)."""
    case = sim.dial_case(i)
    chosen = _GREEDY_DIALS.get(case, _UNKNOWN)
    if chosen == _UNKNOWN:
        options = sim.dial_options(i)
        best = max(range(len(options)), key=lambda k: (DIAL[options[k][0]] - options[k][1], DIAL[options[k][0]], -k))
        chosen = _GREEDY_DIALS[case] = options[best]
    return chosen


def greedy_end(sim: Sim, i: int) -> tuple[int, int] | None:
    """The baseline's ride: the most hexagons, then the furthest along, then the left lane."""
    known = sim.memory.rides
    key = sim.move_key(i)
    if key in known:
        return known[key]
    ends = sim.ends(i)
    best = max(ends, key=lambda e: (ends[e] + e[0] / 1000, -e[0], -e[1])) if ends else None
    if len(known) >= Memory.RIDES:
        known.clear()
    known[key] = best
    return best


def sprint_dial(sim: Sim, i: int) -> tuple[int, int]:
    """A rival that sprints: the biggest acceleration it can pay for, the cheapest on a tie."""
    case = sim.dial_case(i)
    chosen = _SPRINT_DIALS.get(case, _UNKNOWN)
    if chosen == _UNKNOWN:
        chosen = _SPRINT_DIALS[case] = max(sim.dial_options(i), key=lambda o: (DIAL[o[0]], -o[1]))
    return chosen


def play_greedy(sim: Sim, rounds: int, sprinters: str = "") -> None:
    """Everyone rides as the baseline does to the end of this move and ``rounds`` more, or the
    race's end; the cyclists not of player ``sprinters`` (if given) set the dial as sprinters."""
    stop = sim.round + rounds
    known = sim.memory.moves
    riding: tuple[object, ...] | None = None  # the bunch before the move being ridden, to remember
    while True:
        sim.stand_up()
        if riding is not None and sim.acting < 0 and not sim.queue:
            if len(known) >= Memory.MOVES:
                known.clear()
            known[riding] = sim.bunch()
            riding = None
        if sim.between_moves() and sim.round >= stop:
            return  # the horizon: the next move would not be ridden
        if sim.between_moves():
            # the same bunch rides the same next move: the searched choices' futures meet again
            before = (sprinters, sim.team, sim.bunch())
            after = known.get(before)
            if after is not None:
                sim.restore(after)
                continue
            riding = before
        i = sim.next_mover()
        if i < 0 or sim.round > stop:
            return
        if sim.acting < 0:
            p, cost = sprint_dial(sim, i) if sprinters and sim.team[i] != sprinters else greedy_dial(sim, i)
            sim.set_dial(i, p, cost)
        sim.ride(i, greedy_end(sim, i))


HORIZON = 2  # moves searched past the present one
ENERGY_WORTH = 1.0  # half hexagons a point of energy is worth while the moves left can spend it


SECOND = 0.2  # of the gap from the player's best cyclist back to its second
AHEAD = 0.5  # half hexagons for each rival ahead of the player's best cyclist


def _progress(sim: Sim, i: int) -> float:
    """How far along a cyclist is, in half hexagons, counting the energy it can still spend."""
    if sim.fround[i]:
        return 100_000.0 - 1000.0 * sim.fround[i] + sim.past[i]
    left = max(1.0, (sim.r.finish - sim.s[i]) / 9.0)  # moves left at 4.5 hexagons a move
    spendable = min(float(sim.energy[i]), 1.25 * left + 2.0)
    return sim.s[i] + ENERGY_WORTH * spendable


def value(sim: Sim, player: str) -> float:
    """The player's best cyclist against the best rival's, a little of how many are ahead of it,
    and a little of how far its second cyclist is behind it (a second chance)."""
    own = sorted((_progress(sim, i) for i in range(len(sim.s)) if sim.team[i] == player), reverse=True)
    rivals = [_progress(sim, i) for i in range(len(sim.s)) if sim.team[i] != player]
    mine = own[0]
    ahead = sum(1 for x in rivals if x > mine)
    second = SECOND * (own[1] - mine) if len(own) > 1 else 0.0
    return mine - max(rivals, default=0.0) - AHEAD * ahead + second  # a race alone: its own road


def after_dial(sim: Sim, i: int, position: int, cost: int, player: str) -> float:
    """The player's standing a few moves on if cyclist ``i`` sets its dial to ``position`` now:
    the worse of two futures, the rivals riding the plain +1, +2, +2 cycle or sprinting (the
    biggest acceleration they can pay for). Judged against the cycle alone, holding the pace
    at the front looks good (the rivals behind are held up too), until a sprinter rides past."""
    worst = float("inf")
    for sprinters in ("", player):
        probe = sim.copy()
        probe.set_dial(i, position, cost)
        probe.ride(i, greedy_end(probe, i))
        play_greedy(probe, HORIZON, sprinters)
        worst = min(worst, value(probe, player))
    return worst


def after_ride(sim: Sim, i: int, to: tuple[int, int], player: str) -> float:
    """The player's standing a few moves on if cyclist ``i`` ends its move on ``to`` now (the
    rivals riding the plain cycle: a ride's choices differ in place, rarely in pace)."""
    probe = sim.copy()
    probe.ride(i, to)
    play_greedy(probe, HORIZON)
    return value(probe, player)
