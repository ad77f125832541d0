"""A sensible Hell of the North team: manages energy, rides at the back of the peloton unless it
means to attack, pursues a dangerous breakaway, rarely runs a risk it cannot afford.

Pure and deterministic: its occasional variety comes from the race's seeded RNG state mixed
with the turn, never from global random.
"""

from __future__ import annotations

from rules.action import Action
from rules.hell_of_the_north.engine import Choice, legal_actions, pending
from rules.hell_of_the_north.model import Rider, State
from rules.hell_of_the_north.moves import RideOption
from rules.rng import below

LOW_ENERGY = 8
FAILURE = (3 / 12, 9 / 12, 10 / 12)  # chance a 1st, 2nd, 3rd risk goes wrong on the die


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now (an ``eat`` first when a rider runs low)."""
    choices = legal_actions(state, player)
    for c in choices:
        rid = c.action.rider
        if c.action.do == "eat" and isinstance(rid, str):
            rider = state.rider(rid)
            if rider.energy < LOW_ENERGY or rider.status == "finished":
                return c.action
    d = pending(state)
    if d is None or d.player != player:
        raise ValueError(f"{player} has nothing to decide now")
    if d.kind == "ride":
        return best_ride(state, [c for c in choices if c.option is not None]).action
    if d.kind == "place":
        return _place(state, choices)
    if d.kind == "position":
        return _position(state, player, choices)
    if d.kind == "pursuit":
        return Action(player, "pursue" if _wants_pursuit(state, player) else "pass")
    return _breakaway_or_pass(state, player, choices)


def _roll(state: State, player: str, n: int) -> int:
    salt = sum(ord(ch) * 31**i for i, ch in enumerate(player))
    value, _ = below(state.dice.state ^ (state.turn * 7919) ^ salt, n)
    return value


def _place(state: State, choices: list[Choice]) -> Action:
    """Leaders and climbers start at the front (they may attack), rouleurs at the back."""
    for c in choices:
        rid = c.action.rider
        if c.action.do == "place" and isinstance(rid, str):
            kind = state.rider(rid).kind
            wanted = "back" if kind == "rouleur" else "front"
            if c.action.part == wanted:
                return c.action
    return choices[0].action


def _position(state: State, player: str, choices: list[Choice]) -> Action:
    """Tired riders go to the back (it costs less); a fresh attacker moves up."""
    for c in choices:
        rid = c.action.rider
        if not isinstance(rid, str):
            continue
        rider = state.rider(rid)
        if c.action.do == "place" and c.action.part == "back" and rider.energy < 12:
            return c.action
        if c.action.do == "place" and c.action.part == "front" and rider.energy >= 20 and rider.kind != "rouleur":
            return c.action
    return Action(player, "pass")


def _turns_left(state: State, row: int) -> float:
    return max(1.0, (state.setup.road.finish - row) / 4.2)


def score(state: State, rider: Rider, option: RideOption) -> float:
    road = state.setup.road
    row = int(option.to.split(".")[0])
    start_row = state.peloton if option.start is None else int(option.start.split(".")[0])
    budget = rider.energy / _turns_left(state, start_row)
    value = option.squares * 2.0 + option.recovery * 0.8
    value -= option.cost * 0.6 + max(0.0, option.cost - budget) * 2.5
    if option.finishes:
        value += 40 + (row - road.finish) * 0.5
    if option.rejoins:
        value += 12
    if option.risk_count:
        if option.worst_cost > rider.energy * 0.5:
            value -= 30
        failure = FAILURE[min(rider.risks, 2)]
        value -= (int(option.crack) + int(option.fall)) * (4 + 20 * failure) + int(option.cobbles) * 6
    ahead = f"{row + 1}.{option.to.split('.')[1]}"
    if any(r.cell == ahead and r.on_road for r in state.riders if r.id != rider.id):
        value += 1.5  # a wheel to follow next turn
    return value


def best_ride(state: State, choices: list[Choice]) -> Choice:
    def key(choice: Choice) -> tuple[float, str]:
        assert choice.option is not None
        return (score(state, state.rider(choice.option.rider), choice.option), choice.action.to or "")

    return max(choices, key=key)


def _wants_pursuit(state: State, player: str) -> bool:
    mine_away = any(r.player == player and r.status == "breakaway" for r in state.riders)
    others_away = [r for r in state.riders if r.player != player and r.status == "breakaway"]
    mine_in = [r for r in state.riders if r.player == player and r.status == "peloton"]
    if mine_away or not others_away or not mine_in:
        return False
    lead = max((r.row or 0) for r in others_away) - state.peloton
    return lead >= 4


def _breakaway_or_pass(state: State, player: str, choices: list[Choice]) -> Action:
    mine_away = sum(1 for r in state.riders if r.player == player and r.status == "breakaway")
    options = [c for c in choices if c.action.do == "breakaway" and c.option is not None]
    start = state.setup.road.energy
    if mine_away == 0 and options and _roll(state, player, 100) < 22:
        good = []
        for c in options:
            assert c.option is not None
            rider = state.rider(c.option.rider)
            if c.option.risk_count == 0 and c.option.cost <= max(3, rider.energy // 8) and rider.energy > start * 0.45:
                good.append(c)
        if good:
            return best_ride(state, good).action
    return Action(player, "pass")


def cautious(state: State, player: str) -> Action:
    """For a player who did not answer in time: no risk, no breakaway."""
    action = choose(state, player)
    if action.do not in ("ride", "breakaway"):
        return action
    if action.do == "breakaway":
        return Action(player, "pass")
    legal = legal_actions(state, player)
    safe = [c for c in legal if c.option is not None and not c.option.risk_count and c.action.do == "ride"]
    chosen = next((c for c in legal if c.action == action), None)
    if chosen is None or chosen.option is None or not chosen.option.risk_count or not safe:
        return action
    return best_ride(state, safe).action
