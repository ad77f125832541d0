"""A sensible Leader 1 player: manages energy, takes slipstream, rarely runs a risk it cannot afford.

Pure and deterministic: the same state always gives the same choice (its occasional
variety comes from the seeded RNG mixed with the turn, never from global random).

It reads the ride options themselves (``moves.ride_options``, what ``legal_actions`` wraps
in choices) and builds only the action it plays: the same answer as choosing among the
legal actions, without an action built for every destination.
"""

from __future__ import annotations

from rules.action import Action
from rules.leader1 import ai_kit
from rules.leader1.actions import ride_action
from rules.leader1.engine import breakaway_candidates, pending
from rules.leader1.model import Rider, State
from rules.leader1.moves import RideOption, ride_options
from rules.leader1.stage import CARRY_CAP


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now (an ``eat`` first when its rider runs low)."""
    eat = ai_kit.eat_if_hungry(state, player)
    if eat is not None:
        return eat
    decision = pending(state)
    if decision is None or decision.player != player:
        raise ValueError(f"{player} has nothing to decide now")
    if decision.kind == "ride":
        assert decision.rider is not None
        return ride_action(player, "ride", _best(state, ride_options(state, decision.rider)))
    if decision.kind == "pursuit":
        pursue = ai_kit.wants_pursuit(state, player, lead=5, energy=10)
        return Action(player, "pursue" if pursue else "pass")
    # no drop on purpose: it pays the peloton's price like staying in, and only waits for a team mate (R-DROP)
    return ai_kit.breakaway_or_pass(
        state,
        player,
        breakaway_candidates(state, player),
        lambda rider, most: ride_options(state, rider.id, breakaway=True, most_cost=most),
        lambda good: ride_action(player, "breakaway", _best(state, good)),
        keep(state),
    )


def keep(state: State) -> int:
    """Energy worth keeping at the line: a stage race carries up to 15 to the next stage (D.3)."""
    return CARRY_CAP if state.setup.options.stage_race else 0


def _score(state: State, rider: Rider, option: RideOption, taken: frozenset[str]) -> float:
    start_row = state.peloton if option.breakaway else (rider.row or 0)
    failure = (state.setup.ruleset.risk_threshold(rider.risks) - 1) / 12  # C.2 on the events die
    risk = option.risk_count * (4 + 20 * failure)
    return ai_kit.ride_value(state, rider, option, start_row, risk, taken, keep(state))


def _best(state: State, options: list[RideOption]) -> RideOption:
    """The best-scoring option; on a tie, the furthest square by its id (as among the choices)."""
    taken = ai_kit.Wheels(state)
    return max(options, key=lambda o: (_score(state, state.rider(o.rider), o, taken(o.rider)), o.to))
