"""Hell of the North's pace hooks: what Leader 1 has, for its own steps (docs/pace.md).

A team's steps inside the peloton (step 2, breaking away; step 3, moving between the front and
back parts or dropping back; step 4, pursuing) are taken in the support markers' order, so a
player may decide them ahead while the teams before them decide. Rides depend on where the
others end and are never decided ahead. Standing orders settle the routine ones: stay in the
peloton (no breakaway), start in (and hold) its part (no move inside the peloton, no drop), never pursue,
pursue when the breakaway is more than N squares ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rules.game import Choice, Decision, Moment, OrderKind, PaceHooks
from rules.hell_of_the_north.menu import choices
from rules.hell_of_the_north.model import State
from rules.i18n import N_
from rules.leader1.pace_kit import Orders, never_pursue, pass_choice, pursue_over, rider_row, same_consequences

Decides = Callable[[State, Decision, Sequence[Choice], Orders], Choice | None]
LOOK = 6  # rows ahead of a rider (a hexagon) within which a named moment counts as reached
TEAM_PHASES = {"breaking-away": "breakaway", "positioning": "position", "pursuit": "pursuit"}


def ahead(state: State, player: str) -> tuple[Decision, list[Choice]] | None:
    """The player's team step of this phase, as it stands now, while teams before them decide."""
    kind = TEAM_PHASES.get(state.phase)
    if state.finished or kind is None or player not in state.queue[1:]:
        return None
    mine = replace(state, queue=(player, *(p for p in state.queue if p != player)))
    options = [c for c in choices(mine, player) if not c.anytime]
    return Decision(player, kind, None, "buttons" if kind == "pursuit" else "two-step"), options


def _all_ordered(kind: str) -> Decides:
    def decides(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
        """Pass the team step when every rider it could move has this order."""
        if decision.kind != kind:
            return None
        ordered = {piece for piece, _ in orders}
        mine = {c.piece for c in choices if c.piece is not None and not c.anytime}
        return pass_choice(choices) if mine <= ordered else None

    return decides


def _start(part: str) -> Decides:
    def decides(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
        """Before the start: put an ordered rider still to place in ``part`` of the peloton."""
        if decision.kind != "place" or state.phase != "placing":
            return None
        ordered = {piece for piece, _ in orders}
        return next((c for c in choices if c.piece in ordered and c.action.part == part), None)

    return decides


def _last(state: State, piece: str, number: int | None) -> bool:
    course = state.setup.course
    hexagons = max(1, number or 1)
    return rider_row(state, piece) >= course.road.finish - course.hex_rows * hexagons


def _cobbles(state: State, piece: str, number: int | None) -> bool:
    row = rider_row(state, piece)
    return any(state.setup.course.cobbled(r) for r in range(row, row + LOOK))


def _sprint(state: State, piece: str, number: int | None) -> bool:
    row = rider_row(state, piece)
    return any(state.setup.course.in_sprint(r) for r in range(row, row + LOOK))


def pieces(state: State, player: str) -> list[str]:
    return [r.id for r in state.riders if r.player == player and r.status not in ("eliminated", "finished")]


def hooks() -> PaceHooks[State]:
    return PaceHooks(
        ahead=ahead,
        same=same_consequences,
        pieces=pieces,
        orders=(
            OrderKind("start-front", N_("start in the front part of the peloton"), _start("front"), settles=("place",)),
            OrderKind("start-back", N_("start in the back part of the peloton"), _start("back"), settles=("place",)),
            OrderKind(
                "stay", N_("stay in the peloton (no breakaway)"), _all_ordered("breakaway"), settles=("breakaway",)
            ),
            OrderKind(
                "hold",
                N_("hold its part of the peloton (no move to the front or back, no drop)"),
                _all_ordered("position"),
                settles=("position",),
            ),
            OrderKind("never-pursue", N_("never speed the peloton up"), never_pursue, settles=("pursuit",)),
            OrderKind(
                "pursue-over",
                N_("speed the peloton up when a rival is more than N squares ahead (never while one of yours is away)"),
                pursue_over,
                N_("N squares"),
                ("pursuit",),
            ),
        ),
        moments=(
            Moment("last", N_("the last N hexagons"), _last, N_("N hexagons")),
            Moment("cobbles", N_("a cobbled sector ahead"), _cobbles),
            Moment("sprint", N_("a sprint zone ahead"), _sprint),
        ),
    )
