"""Formula Dé Mini's pace hooks: a car's gear decided ahead, standing orders, and a driving plan.

A car's gear is chosen before its die is rolled, from its own gear and life points only, so
it can be decided while the cars before it move; its move depends on the roll and is never
decided ahead. A gear decided ahead holds if the same gear is still offered at the same
cost (the label says any over-rev).

A driving plan is how a player at the table says "I'll take whatever the die gives, as far as
it goes without paying": orders that turn any roll into a move by rules the player picks
(``drive``: the furthest clean end, braking at most N LP; ``drive-close``: the same, collision
checks accepted), a gear plan (``shift``: the highest gear in which every roll of its die has
a clean end braking at most N LP) and ``slipstream`` (take one costing at most N LP). A plan
never takes a risk the player did not name: an overshoot, a blocked move, a pit stop, the
turbo, a collision check under ``drive``. When no move fits, the player is asked, and their
answer keeps the plan (docs/pace.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from rules.action import Action
from rules.formula_de_mini.engine import legal_actions
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.menu import choices, collision_risk
from rules.formula_de_mini.model import SLIPSTREAM_LP, Car, Moving, State
from rules.formula_de_mini.moves import MoveOption, kept_moves_by_roll, reachable
from rules.game import Choice, Decision, Moment, OrderKind, PaceHooks
from rules.i18n import N_

Orders = Sequence[tuple[str, int | None]]


def ahead(state: State, player: str) -> tuple[Decision, list[Choice]] | None:
    """The gear of the player's next car to play this round, as it stands now (not its turn yet)."""
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
    """The same action at the same cost: a gear's label carries its over-rev. The label was written in
    its reader's language and may be read again in another, so the cost is compared by its numbers
    (the gear, its die, the LP), never by its words."""
    return before.action == now.action and _numbers(before) == _numbers(now)


def _numbers(choice: Choice) -> list[str]:
    return sorted(re.findall(r"\d+", f"{choice.label} {choice.detail}"))


def _over_revs(state: State, player: str, action: Action) -> bool:
    """Would this gear cost LP (over-revving)? Asked of the engine, not read from a label."""
    return any(c.action == action and c.lp for c in legal_actions(state, player))


def _keep(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    if decision.kind != "gear" or decision.piece not in {piece for piece, _ in orders}:
        return None
    gear = state.car(decision.piece).gear
    return next(
        (
            c
            for c in choices
            if c.action.do == "gear" and c.action.gear == gear and not _over_revs(state, decision.player, c.action)
        ),
        None,
    )


def _no_slipstream(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    if decision.kind != "slipstream" or decision.piece not in {piece for piece, _ in orders}:
        return None
    return next((c for c in choices if c.action.do == "pass"), None)


def _limit(decision: Decision, orders: Orders) -> int | None:
    """The order's N for the decision's car (None: the car has no such order)."""
    return next((n or 0 for piece, n in orders if piece == decision.piece), None)


def _clean(o: MoveOption) -> bool:
    """A move with nothing to fear: no overshoot, not blocked, not into the pits, no turbo."""
    return not (o.overshoot or o.blocked or o.pit or o.pit_lane or o.turbo or o.skidding)


def _progress(o: MoveOption) -> tuple[int, int, int]:
    """How far along the circuit a move ends: laps, then row (the inside lane of a corner is ahead
    of the outside one for the same spaces), then the fewest LP."""
    return (o.crossings, int(o.to.split(".")[0]), -o.brake)


def _drive(close: bool) -> Callable[[State, Decision, Sequence[Choice], Orders], Choice | None]:
    def decides(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
        limit = _limit(decision, orders)
        if decision.kind != "move" or limit is None or decision.piece is None:
            return None
        car = state.car(decision.piece)
        if car.cell in state.setup.circuit.pit_cells:
            return None  # in the pit lane: the stop is the player's call
        fit = [
            c
            for c in choices
            if isinstance(c.shows, MoveOption)
            and c.action.do == "drive"
            and _clean(c.shows)
            and c.shows.brake <= limit
            and (close or not collision_risk(state, decision.piece, c.shows))
        ]
        best = max(fit, key=lambda c: _progress(c.shows), default=None)  # type: ignore[arg-type]
        return best

    return decides


def _clean_rolls(state: State, car: Car, gear: int, limit: int) -> float:
    """The share of the gear's die faces with a clean end braking at most ``limit`` LP (cars where they are now)."""
    faces = [int(f) for f in gear_die(gear).faces]
    rolls = sorted(set(faces))
    reached = reachable(state, car, max(rolls))
    clean = {
        roll
        for roll, moves in kept_moves_by_roll(state, car, rolls, reached).items()
        if any(
            m.path is not None
            and not (m.overshoot or m.blocked or m.pit or m.pit_lane or m.path.skidding)
            and m.brake <= limit
            for m in moves
        )
    }
    return sum(1 for f in faces if f in clean) / len(faces)


def _shift(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    """The highest gear (no over-rev) in which every roll has a clean end braking at most N LP; else
    the one in which most rolls do (the lower on a tie): the move itself is asked if it has none."""
    limit = _limit(decision, orders)
    if decision.kind != "gear" or limit is None or decision.piece is None:
        return None
    car = state.car(decision.piece)
    if car.cell in state.setup.circuit.pit_cells:
        return None
    gears = [c for c in choices if c.action.do == "gear" and not _over_revs(state, decision.player, c.action)]
    scored = [(_clean_rolls(state, car, c.action.gear or 1, limit), c.action.gear or 1, c) for c in gears]
    full = [t for t in scored if t[0] == 1.0]
    if full:
        return max(full, key=lambda t: t[1])[2]
    best = max(scored, key=lambda t: (t[0], -t[1]), default=None)
    return best[2] if best is not None else None


def _slipstream(state: State, decision: Decision, choices: Sequence[Choice], orders: Orders) -> Choice | None:
    limit = _limit(decision, orders)
    if decision.kind != "slipstream" or limit is None or decision.piece is None:
        return None
    fit = [
        c
        for c in choices
        if isinstance(c.shows, MoveOption)
        and _clean(c.shows)
        and SLIPSTREAM_LP + c.shows.brake <= limit
        and not collision_risk(state, decision.piece, c.shows)
    ]
    best = max(fit, key=lambda c: _progress(c.shows), default=None)  # type: ignore[arg-type]
    return best or next((c for c in choices if c.action.do == "pass"), None)


def _last_laps(state: State, piece: str, number: int | None) -> bool:
    return state.has_car(piece) and state.car(piece).lap >= state.setup.laps - max(1, number or 1) + 1


def pieces(state: State, player: str) -> list[str]:
    return [p.id for p in state.cars if p.player == player and p.status not in ("eliminated", "finished")]


def hooks() -> PaceHooks[State]:
    return PaceHooks(
        ahead=ahead,
        pieces=pieces,
        same=same,
        orders=(
            OrderKind("keep-gear", N_("keep this gear"), _keep, settles=("gear",)),
            OrderKind("no-slipstream", N_("never take a slipstream"), _no_slipstream, settles=("slipstream",)),
            OrderKind(
                "drive",
                N_("each roll: the furthest end with no overshoot, block or collision check, braking at most N LP"),
                _drive(close=False),
                N_("N LP of braking"),
                ("move",),
                plan=True,
            ),
            OrderKind(
                "drive-close",
                N_(
                    "each roll: the furthest end, no overshoot or block, collision checks accepted, "
                    "braking at most N LP"
                ),
                _drive(close=True),
                N_("N LP of braking"),
                ("move",),
                plan=True,
            ),
            OrderKind(
                "shift",
                N_("the highest gear whose every roll has a clean end braking at most N LP (else where most do)"),
                _shift,
                N_("N LP of braking"),
                ("gear",),
                plan=True,
            ),
            OrderKind(
                "slipstream",
                N_("take the furthest clean slipstream costing at most N LP, else none"),
                _slipstream,
                N_("N LP"),
                ("slipstream",),
            ),
        ),
        moments=(Moment("last", N_("the last N laps"), _last_laps, N_("N laps")),),
    )
