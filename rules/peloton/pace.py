"""Peloton's pace hooks: a dial plan and a ride plan for each cyclist (docs/pace.md).

At the table a rider's dial is worked in a rhythm the player says once: one click a move,
+1, +1, +2, +2, then a rest at +0 (II.4, II.5: six energy in five moves, never the abrupt
+0 to +2 that costs three). ``dial`` is that rhythm, keeping N energy for the finish: a click
that would cost more than its value (a headwind in front, IV.1) or eat into the N is a rest.
``ride`` turns any dial into a stop: the furthest hexagon the cyclist reaches without falling,
or one behind another cyclist (tandem next move) at most N hexagons shorter. A ride plan never
takes a fall: when every ride falls (a turning too fast, a road closed in front), the player
is asked, and their answer keeps the plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from rules.game import Choice, Decision, Moment, OrderKind, PaceHooks
from rules.i18n import N_
from rules.peloton.course import split
from rules.peloton.engine import Ride, dial_cost, may_tandem, occupied
from rules.peloton.model import DIAL, FINISHED, State

Orders = Sequence[tuple[str, int | None]]


def _numbers(orders: Orders) -> dict[str, int]:
    return {piece: n or 0 for piece, n in orders}


def _dial(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    """The next click of the cycle when it costs its value and leaves N energy; else a rest at +0.
    In a team time trial, the dial of the team's front cyclist (the one that moves first)."""
    if decision.kind != "dial":
        return None
    keep = _numbers(orders)
    movers = [cid for cid in state.queue if any(c.piece == cid for c in choices)]
    cid = decision.piece or (movers[0] if movers else None)
    if cid is None or cid not in keep:
        return None
    mine = [c for c in choices if c.piece == cid and not c.action.get("keep")]
    cyclist = state.cyclist(cid)
    rest = next((c for c in mine if c.action.get("dial") == 0), None)
    click = (cyclist.dial + 1) % len(DIAL)
    nxt = next((c for c in mine if c.action.get("dial") == click), None)
    if nxt is not None and click:
        cost = dial_cost(state, cyclist, click)
        if cost == DIAL[click] and cyclist.energy - cost >= keep[cid]:
            return nxt
    return rest


def _behind(state: State, cid: str, to: str) -> bool:
    """Would the cyclist, stopped on ``to``, ride tandem next move (behind another cyclist)?"""
    c = state.cyclist(cid)
    taken = occupied(state)
    taken.pop(c.cell or "", None)
    taken[to] = c.id
    after = replace(c, cell=to, status="racing")
    probe = replace(state, cyclists=tuple(after if x.id == c.id else x for x in state.cyclists))
    return may_tandem(probe, after, taken)


def _ride(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    """The furthest safe stop, or one behind a cyclist at most N hexagons shorter (the furthest such)."""
    keep = _numbers(orders)
    if decision.kind != "ride" or decision.piece not in keep:
        return None
    safe = [c for c in choices if isinstance(c.shows, Ride) and not c.shows.fell and not c.risky]
    if not safe:
        return None
    far = max(split(str(c.action.get("to")))[0] for c in safe)
    if far > state.course.finish:
        return max(safe, key=lambda c: split(str(c.action.get("to")))[0])  # over the line: as far as it goes
    sheltered = [
        c
        for c in safe
        if far - split(str(c.action.get("to")))[0] <= 2 * keep[decision.piece]
        and _behind(state, decision.piece, str(c.action.get("to")))
    ]
    pool = sheltered or safe
    return max(pool, key=lambda c: (split(str(c.action.get("to")))[0], -split(str(c.action.get("to")))[1]))


def _last(state: State, piece: str, number: int | None) -> bool:
    c = next((x for x in state.cyclists if x.id == piece), None)
    if c is None or c.cell is None:
        return False
    return state.course.finish - split(c.cell)[0] <= 2 * max(1, number or 1)


def same(before: Choice, now: Choice) -> bool:
    """The same action with the same consequences. A choice's words were written in its reader's
    language and may be read again in another, so its consequences are compared by their numbers
    (speed, energy, hexagons), never by its words."""
    return before.action == now.action and _terms(before) == _terms(now)


def _terms(choice: Choice) -> list[str]:
    return sorted(re.findall(r"\d+", f"{choice.label} {choice.detail}"))


def pieces(state: State, player: str) -> list[str]:
    return [c.id for c in state.cyclists if c.player == player and c.status != FINISHED]


def hooks() -> PaceHooks[State]:
    return PaceHooks(
        pieces=pieces,
        same=same,
        orders=(
            OrderKind(
                "dial",
                N_("one click a move: +1 +1 +2 +2 then rest; rest too if a click costs extra or leaves under N energy"),
                _dial,
                N_("N energy kept"),
                ("dial",),
            ),
            OrderKind(
                "ride",
                N_("ride to the furthest hexagon without falling, or behind a cyclist at most N hexagons shorter"),
                _ride,
                N_(N_("N hexagons")),
                ("ride",),
                plan=True,
            ),
        ),
        moments=(Moment("last", N_("the last N hexagons"), _last, N_("N hexagons")),),
    )
