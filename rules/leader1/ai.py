"""A sensible Leader 1 player: manages energy, takes slipstream, rarely runs a risk it cannot afford.

Pure and deterministic: the same state always gives the same choice (its occasional
variety comes from the seeded RNG mixed with the turn, never from global random).
"""

from __future__ import annotations

from rules.action import Action
from rules.leader1.engine import Choice, legal_actions, pending
from rules.leader1.model import Rider, State
from rules.leader1.moves import RideOption
from rules.rng import below

LOW_ENERGY = 8


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now (an ``eat`` first when its rider runs low).

    The destinations (the costly part) are listed only when they can change the answer: a
    breakaway is considered on about one roll in five, so most breakaway phases pass at once.
    """
    eat = _eat_if_hungry(state, player)
    if eat is not None:
        return eat
    decision = pending(state)
    if decision is None or decision.player != player:
        raise ValueError(f"{player} has nothing to decide now")
    if decision.kind == "ride":
        return _best_ride(state, [c for c in legal_actions(state, player) if c.option is not None]).action
    if decision.kind == "pursuit":
        return Action(player, "pursue" if _wants_pursuit(state, player) else "pass")
    return _breakaway_or_pass(state, player)


def _eat_if_hungry(state: State, player: str) -> Action | None:
    """The first eat choice (engine order) whose rider runs low (or has finished), if any."""
    for rider in state.riders:
        mine = rider.player == player and rider.status != "eliminated" and rider.kept
        if mine and (rider.energy < LOW_ENERGY or rider.status == "finished"):
            return Action(player, "eat", rider=rider.id, tile=0)
    return None


def _turns_left(state: State, row: int) -> float:
    return max(1.0, (state.setup.road.finish - row) / 4.2)


def _score(state: State, rider: Rider, option: RideOption, wheels: frozenset[str] | None = None) -> float:
    """``wheels``: the squares of the other riders on the road (worked out here if not given)."""
    road = state.setup.road
    row = int(option.to.split(".")[0])
    start_row = state.peloton if option.breakaway else (rider.row or 0)
    budget = rider.energy / _turns_left(state, start_row)
    score = option.squares * 2.0 + option.recovery * 0.8
    overspend = max(0.0, option.cost - budget)
    score -= option.cost * 0.6 + overspend * 2.5
    if option.finishes:
        score += 40 + (row - road.finish) * 0.5
    if option.rejoins:
        score += 12
    if option.risk_count:
        if option.worst_cost > rider.energy * 0.5:
            score -= 30
        need = state.setup.ruleset.risk_threshold(rider.risks)
        failure = (need - 1) / 12
        score -= option.risk_count * (4 + 20 * failure)
    ahead = f"{row + 1}.{option.to.split('.')[1]}"
    if wheels is None:
        wheels = _wheels(state, rider.id)
    if ahead in wheels:
        score += 1.5  # a wheel to follow next turn
    return score


def _wheels(state: State, rider_id: str) -> frozenset[str]:
    return frozenset(r.cell for r in state.riders if r.id != rider_id and r.on_road and r.cell is not None)


def _best_ride(state: State, choices: list[Choice]) -> Choice:
    wheels: dict[str, frozenset[str]] = {}

    def key(choice: Choice) -> tuple[float, str]:
        assert choice.option is not None
        rider = state.rider(choice.option.rider)
        if rider.id not in wheels:
            wheels[rider.id] = _wheels(state, rider.id)
        return (_score(state, rider, choice.option, wheels[rider.id]), choice.action.to or "")

    return max(choices, key=key)


def _wants_pursuit(state: State, player: str) -> bool:
    mine_away = any(r.player == player and r.status == "breakaway" for r in state.riders)
    others_away = [r for r in state.riders if r.player != player and r.status == "breakaway"]
    mine_in = [r for r in state.riders if r.player == player and r.status == "peloton"]
    if mine_away or not others_away or not mine_in:
        return False
    lead = max((r.row or 0) for r in others_away) - state.peloton
    return lead >= 5 and min(r.energy for r in mine_in) > 10


def _breakaway_or_pass(state: State, player: str) -> Action:
    mine_away = sum(1 for r in state.riders if r.player == player and r.status == "breakaway")
    start = state.setup.road.energy
    salt = sum(ord(ch) * 31**i for i, ch in enumerate(player))  # stable across processes
    roll, _ = below(state.dice.state ^ (state.turn * 7919) ^ salt, 100)
    if mine_away != 0 or roll >= 22:
        return Action(player, "pass")
    options = [c for c in legal_actions(state, player) if c.action.do == "breakaway" and c.option is not None]
    if options:
        good = []
        for c in options:
            assert c.option is not None
            rider = state.rider(c.option.rider)
            if c.option.risk_count == 0 and c.option.cost <= max(3, rider.energy // 8) and rider.energy > start * 0.45:
                good.append(c)
        if good:
            return _best_ride(state, good).action
    # no drop on purpose: it pays the peloton's price like staying in, and only waits for a team mate (R-DROP)
    return Action(player, "pass")
