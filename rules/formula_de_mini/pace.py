"""Formula Dé Mini's pace hooks: a car's gear decided ahead, "keep this gear", "no slipstream".

A car's gear is chosen before its die is rolled, from its own gear and life points only, so
it can be decided while the cars before it move; its move depends on the roll and is never
decided ahead. A gear decided ahead holds if the same gear is still offered at the same
cost (the label says any over-rev).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.formula_de_mini.model import Moving, State
from rules.game import Choice, Decision, Moment, OrderKind, PaceHooks

Orders = Sequence[tuple[str, int | None]]


def ahead(state: State, player: str) -> tuple[Decision, list[Choice]] | None:
    """The gear of the player's next car to play this round, as it stands now (not its turn yet)."""
    from rules.formula_de_mini.game import choices

    if state.finished or state.moving is None:
        return None
    waiting = [cid for cid in state.queue[1:] if state.car(cid).player == player]
    if not waiting or state.car(state.moving.car).player == player:
        return None
    car = state.car(waiting[0])
    if car.status != "racing" or not car.started:
        return None  # a start or a pit exit rolls the black die first
    mine = replace(state, moving=Moving(car.id, "gear"), queue=(car.id, *(c for c in state.queue if c != car.id)))
    return Decision(player, "gear", car.id, "buttons"), [c for c in choices(mine, player) if not c.anytime]


def same(before: Choice, now: Choice) -> bool:
    """The same action at the same cost: a gear's label carries its over-rev."""
    return before.action == now.action and before.label == now.label and before.detail == now.detail


def _keep(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    if decision.kind != "gear" or decision.piece not in {piece for piece, _ in orders}:
        return None
    gear = state.car(decision.piece).gear
    return next(
        (c for c in choices if c.action.do == "gear" and c.action.gear == gear and "over-rev" not in c.label), None
    )


def _no_slipstream(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    if decision.kind != "slipstream" or decision.piece not in {piece for piece, _ in orders}:
        return None
    return next((c for c in choices if c.action.do == "pass"), None)


def _last_laps(state: State, piece: str, number: int | None) -> bool:
    return state.has_car(piece) and state.car(piece).lap >= state.setup.laps - max(1, number or 1) + 1


def pieces(state: State, player: str) -> list[str]:
    return [p.id for p in state.cars if p.player == player and p.status not in ("eliminated", "finished")]


def hooks() -> PaceHooks:
    return PaceHooks(
        ahead=ahead,
        pieces=pieces,
        same=same,
        orders=(
            OrderKind("keep-gear", "keep this gear", _keep, settles=("gear",)),
            OrderKind("no-slipstream", "never take a slipstream", _no_slipstream, settles=("slipstream",)),
        ),
        moments=(Moment("last", "the last N laps", _last_laps, "N laps"),),
    )
