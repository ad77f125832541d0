"""Each plan does what its words say, at every decision of AI races (docs/pace.md): Formula Dé Mini's
``drive``, ``drive-close`` and ``shift``, Peloton's ``dial`` and ``ride``. A plan picks among the
legal choices, never a risk its words do not name, and leaves to the player exactly what they do
not cover."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.cli.sim import simulate
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.menu import collision_risk
from rules.formula_de_mini.moves import MoveOption, kept_moves_by_roll, reachable
from rules.game import Choice, Decision, OrderKind
from rules.peloton.course import split
from rules.peloton.engine import Ride, dial_cost
from rules.peloton.model import DIAL
from rules.record import start_state
from rules.registry import find_game


def decisions(game_id: str, seed: int, players: int) -> Iterator[tuple[Any, Decision, list[Choice]]]:
    """Every decision of an AI race of ``game_id``: the state, the decision, its choices."""
    record, _ = simulate(game_id, players=players, seed=seed)
    game, state = start_state(record.with_actions(()))
    for action in record.actions:
        decision = game.rules.pending(state)
        yield state, decision, [c for c in game.rules.choices(state, decision.player) if not c.anytime]
        state = game.rules.apply(state, action)[0]


def kind(game_id: str, name: str) -> OrderKind:
    return next(k for k in find_game(game_id).pace.orders if k.name == name)


def test_a_driving_plan_takes_the_furthest_clean_end_within_its_braking_and_asks_when_there_is_none() -> None:
    drive, close, shift = (kind("formula-de-mini", n) for n in ("drive", "drive-close", "shift"))
    seen = {"drove": 0, "asked": 0, "shifted": 0}
    for seed in (1, 2):
        for state, decision, choices in decisions("formula-de-mini", seed, 4):
            piece = decision.piece or ""
            if decision.kind == "move" and state.car(piece).cell not in state.setup.circuit.pit_cells:
                for plan, collisions in ((drive, False), (close, True)):
                    for limit in (0, 2):
                        fit = [
                            c
                            for c in choices
                            if isinstance(o := c.shows, MoveOption)
                            and c.action.do == "drive"
                            and not (o.overshoot or o.blocked or o.pit or o.pit_lane or o.turbo or o.skidding)
                            and o.brake <= limit
                            and (collisions or not collision_risk(state, piece, o))
                        ]
                        taken = plan.decides(state, decision, choices, [(piece, limit)])
                        if not fit:
                            assert taken is None  # asked: nothing its words allow
                            seen["asked"] += 1
                            continue
                        assert taken in fit and not taken.risky
                        far = max((o.crossings, int(o.to.split(".")[0])) for o in (c.shows for c in fit))
                        assert (taken.shows.crossings, int(taken.shows.to.split(".")[0])) == far
                        seen["drove"] += 1
            if decision.kind == "gear" and state.car(piece).cell not in state.setup.circuit.pit_cells:
                taken = shift.decides(state, decision, choices, [(piece, 1)])
                assert taken is not None and "over-rev" not in taken.label
                car = state.car(piece)
                safe = []
                for c in choices:
                    if "over-rev" in c.label:
                        continue
                    rolls = sorted({int(f) for f in gear_die(c.action.gear).faces})
                    by_roll = kept_moves_by_roll(state, car, rolls, reachable(state, car, max(rolls)))
                    if all(
                        any(
                            m.path is not None
                            and not (m.overshoot or m.blocked or m.pit or m.pit_lane or m.path.skidding)
                            and m.brake <= 1
                            for m in moves
                        )
                        for moves in by_roll.values()
                    ):
                        safe.append(c.action.gear)
                if safe:
                    assert taken.action.gear == max(safe)
                    seen["shifted"] += 1
    assert all(n > 10 for n in seen.values()), seen


def test_a_dial_plan_clicks_on_in_the_cycle_and_a_ride_plan_never_falls() -> None:
    dial, ride = kind("peloton", "dial"), kind("peloton", "ride")
    seen = {"clicked": 0, "rested": 0, "rode": 0}
    for state, decision, choices in decisions("peloton", 3, 4):
        piece = decision.piece
        if piece is None:
            continue
        if decision.kind == "dial":
            cyclist = state.cyclist(piece)
            taken = dial.decides(state, decision, choices, [(piece, 3)])
            assert taken is not None and taken in choices
            click = (cyclist.dial + 1) % len(DIAL)
            cost = dial_cost(state, cyclist, click) if click else 0
            offered = any(c.action.get("dial") == click for c in choices)
            if click and offered and cost == DIAL[click] and cyclist.energy - cost >= 3:
                assert taken.action.get("dial") == click  # the next click of +1, +1, +2, +2
                seen["clicked"] += 1
            else:
                assert taken.action.get("dial") == 0  # else a rest, free
                seen["rested"] += 1
        if decision.kind == "ride":
            safe = [c for c in choices if isinstance(c.shows, Ride) and not c.shows.fell]
            taken = ride.decides(state, decision, choices, [(piece, 1)])
            if not safe:
                assert taken is None
                continue
            assert taken in safe
            far = max(split(str(c.action.get("to")))[0] for c in safe)
            assert far - split(str(taken.action.get("to")))[0] <= 2  # at most 1 hexagon short
            seen["rode"] += 1
    assert all(n > 10 for n in seen.values()), seen
