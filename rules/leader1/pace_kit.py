"""What the Leader 1 family's standing orders share (Leader 1 and Hell of the North): passing a
step, and the peloton's pursuit orders (docs/pace.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rules.game import Choice, Decision
from rules.leader1.family import AnyFamilyState

Orders = Sequence[tuple[str, int | None]]
NUMBER = re.compile(r"[+-]?\d+")


def same_consequences(before: Choice, now: Choice) -> bool:
    """Does a choice made ahead still mean the same thing now: the same action with the same numbers
    in its consequences (cost, free and paid squares, risks' rolls, energy). Only the numbers count,
    not the words around them: the choice may have been made in another language than it is read in
    now (a player's own for the private reply, the server's for the channel), and each language orders
    its words its own way."""
    return before.action == now.action and _numbers(before.detail) == _numbers(now.detail)


def _numbers(text: str) -> list[str]:
    return sorted(NUMBER.findall(text))


def pass_choice(choices: Sequence[Choice]) -> Choice | None:
    return next((c for c in choices if c.action.do == "pass"), None)


def rival_gap(state: AnyFamilyState, player: str) -> int | None:
    """Rows from the peloton's front to the first rival rider of the breakaway (0: no rival ahead), or
    None while one of the player's own riders is away: the peloton never chases its own rider."""
    if any(r.player == player and r.status == "breakaway" for r in state.riders):
        return None
    rows = [r.row for r in state.riders if r.player != player and r.status == "breakaway" and r.row is not None]
    return max(rows) - state.peloton if rows else 0


def rider_row(state: AnyFamilyState, piece: str) -> int:
    """Where a piece is on the road: its row, or the peloton's for a rider in it (0: not racing)."""
    if not state.has_rider(piece):
        return 0
    rider = state.rider(piece)
    return rider.row if rider.row is not None else state.peloton


def never_pursue(state: object, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    return pass_choice(choices) if decision.kind == "pursuit" else None


def pursue_over(state: AnyFamilyState, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    """Pursue when a rival's breakaway is more than the order's N ahead; never after one's own rider."""
    if decision.kind != "pursuit":
        return None
    limit = min((n for _, n in orders if n is not None), default=0)
    gap = rival_gap(state, decision.player)
    if gap is not None and gap > limit:
        return next((c for c in choices if c.action.do == "pursue"), None)
    return pass_choice(choices)
