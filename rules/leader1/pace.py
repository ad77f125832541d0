"""Leader 1's pace hooks: deciding ahead in the breaking-away phase, standing orders, moments.

A player may decide ahead their breakaway decision (while others before them in the phase
decide) and the peloton token's pursuit; ride decisions depend on where others end, so they
are never decided ahead. Standing orders settle the routine decisions: stay in the peloton,
never pursue, pursue when the breakaway is more than N squares ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.game import Choice, Decision, Moment, OrderKind, PaceHooks
from rules.i18n import N_
from rules.leader1.menu import choices
from rules.leader1.model import State
from rules.leader1.pace_kit import Orders, never_pursue, pass_choice, pursue_over, rider_row, same_consequences

LOOK = 6  # squares ahead of a rider within which a named moment counts as reached


def ahead(state: State, player: str) -> tuple[Decision, list[Choice]] | None:
    """The player's breakaway or pursuit decision of this turn, as it stands now (not theirs yet)."""
    if state.finished or state.phase != "breaking-away" or not state.queue:
        return None
    if player in state.queue[1:]:
        mine = replace(state, queue=(player, *(p for p in state.queue if p != player)))
        options = [c for c in choices(mine, player) if not c.anytime]
        return Decision(player, "breakaway", None, "two-step"), options
    holder = state.setup.players[state.token].id
    if holder == player and state.queue[0] != player:
        options = [c for c in choices(replace(state, phase="pursuit", queue=()), player) if not c.anytime]
        return Decision(player, "pursuit", None, "buttons"), options
    return None


def _stay(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    """Pass the breakaway decision when every peloton rider of the player has this order."""
    if decision.kind != "breakaway":
        return None
    ordered = {piece for piece, _ in orders}
    mine = {c.piece for c in choices if c.piece is not None and not c.anytime}
    return pass_choice(choices) if mine <= ordered else None


def _last(state: State, piece: str, number: int | None) -> bool:
    road = state.setup.road
    hexes = max(1, number or 1)
    if len(road.tiles) >= hexes:
        return rider_row(state, piece) >= road.tiles[-hexes].first_row
    return rider_row(state, piece) >= road.finish - 8 * hexes


def _mountain(state: State, piece: str, number: int | None) -> bool:
    row = rider_row(state, piece)
    return any(state.setup.road.terrain(r) == "M" for r in range(row, row + LOOK))


def _feed(state: State, piece: str, number: int | None) -> bool:
    row = rider_row(state, piece)
    return any(row <= f < row + LOOK for f in state.setup.road.feed)


def pieces(state: State, player: str) -> list[str]:
    return [p.id for p in state.riders if p.player == player and p.status not in ("eliminated", "finished")]


def hooks() -> PaceHooks[State]:
    return PaceHooks(
        ahead=ahead,
        same=same_consequences,
        pieces=pieces,
        orders=(
            OrderKind("stay", N_("stay in the peloton (no breakaway, no drop)"), _stay, settles=("breakaway",)),
            OrderKind("never-pursue", N_("never pursue with the peloton token"), never_pursue, settles=("pursuit",)),
            OrderKind(
                "pursue-over",
                N_("pursue when a rival breakaway is more than N squares ahead (never while one of yours is away)"),
                pursue_over,
                N_("N squares"),
                ("pursuit",),
            ),
        ),
        moments=(
            Moment("last", N_("the last N hexagons"), _last, N_("N hexagons")),
            Moment("mountain", N_("a mountain pass ahead"), _mountain),
            Moment("feed", N_("a feed zone ahead"), _feed),
        ),
    )
