"""A sensible Hell of the North team: manages energy, rides at the back of the peloton unless it
means to attack, pursues a dangerous breakaway, rarely runs a risk it cannot afford.

Pure and deterministic: its occasional variety comes from the race's seeded RNG state mixed
with the turn, never from global random.
"""

from __future__ import annotations

from rules.action import Action
from rules.hell_of_the_north.engine import Choice, legal_actions, pending
from rules.hell_of_the_north.model import MAX_CARRIED_ENERGY, Rider, State
from rules.hell_of_the_north.moves import RideOption, ride_options
from rules.hell_of_the_north.turn import breakaway_candidates
from rules.leader1 import ai_kit
from rules.leader1.actions import ride_action

FAILURE = (3 / 12, 9 / 12, 10 / 12)  # chance a 1st, 2nd, 3rd risk goes wrong on the die


def choose(state: State, player: str) -> Action:
    """The AI's action for ``player`` now (an ``eat`` first when a rider runs low)."""
    eat = ai_kit.eat_if_hungry(state, player)
    if eat is not None:
        return eat
    d = pending(state)
    if d is None or d.player != player:
        raise ValueError(f"{player} has nothing to decide now")
    if d.kind == "breakaway":  # its destinations are listed only if a breakaway is tried
        return ai_kit.breakaway_or_pass(
            state,
            player,
            breakaway_candidates(state, player),
            lambda rider, _most: ride_options(state, rider.id, breakaway=True),
            lambda good: best_ride(state, [Choice(ride_action(player, "breakaway", o), o) for o in good]).action,
            keep(state),
        )
    choices = legal_actions(state, player)
    if d.kind == "ride":
        return best_ride(state, [c for c in choices if c.option is not None]).action
    if d.kind == "place":
        return _place(state, choices)
    if d.kind == "position":
        return _position(state, player, choices)
    # pursuit
    return Action(player, "pursue" if ai_kit.wants_pursuit(state, player, lead=4) else "pass")


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
    """Tired riders go to the back (it costs less); a fresh attacker moves up, and so does any rider
    with energy for the final attack (only the front may break away)."""
    for c in choices:
        rid = c.action.rider
        if not isinstance(rid, str):
            continue
        rider = state.rider(rid)
        if c.action.do == "place" and c.action.part == "front" and ai_kit.attack_worth(state, rider, keep(state)):
            return c.action
        if c.action.do == "place" and c.action.part == "back" and rider.energy < 12:
            return c.action
        if c.action.do == "place" and c.action.part == "front" and rider.energy >= 20 and rider.kind != "rouleur":
            return c.action
    return Action(player, "pass")


def score(state: State, rider: Rider, option: RideOption, taken: frozenset[str] | None = None) -> float:
    start_row = state.peloton if option.start is None else int(option.start.split(".")[0])
    failure = FAILURE[min(rider.risks, 2)]
    risk = (int(option.crack) + int(option.fall)) * (4 + 20 * failure) + int(option.cobbles) * 6
    return ai_kit.ride_value(state, rider, option, start_row, risk, taken, keep(state))


def keep(state: State) -> int:
    """Energy worth keeping at the line: a multi-day race carries some to the next day."""
    return MAX_CARRIED_ENERGY if state.setup.options.multi_day else 0


def best_ride(state: State, choices: list[Choice]) -> Choice:
    taken = ai_kit.Wheels(state)

    def value(c: Choice) -> float:
        return score(state, state.rider(c.option.rider), c.option, taken(c.option.rider)) if c.option else 0.0

    return ai_kit.best(choices, value)


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
