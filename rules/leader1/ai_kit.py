"""What the Leader 1 family's AIs share: eating when low, a seeded bit of variety, valuing a
ride, the odd breakaway and the pursuit of a dangerous one. Each game's AI passes what its
edition makes different (the chance a risk goes wrong, how far ahead is dangerous)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from rules.action import Action
from rules.leader1.family import AnyFamilyState, FamilyRider
from rules.leader1.paths import RideOption
from rules.rng import below

LOW_ENERGY = 8
SPEND_PER_SQUARE = 1.5  # what a rider attacking all the way can spend on a square of road
ATTACK_PER_SQUARE = 1.0  # energy per square still to ride that makes a final attack worth it


class _Choice(Protocol):
    @property
    def action(self) -> Action: ...
    @property
    def option(self) -> RideOption | None: ...


C = TypeVar("C", bound=_Choice)
OptionT = TypeVar("OptionT", bound=RideOption)


def eat_if_hungry(state: AnyFamilyState, player: str) -> Action | None:
    """Eat a kept tile for a rider running low (or one who has finished: it is worth nothing later).

    The engine's first eat of such a rider (``eat_actions`` order: riders in order, tile 0
    first); asked before anything costly, and no eat is built for the riders who need none.
    """
    if state.finished:
        return None  # nothing is legal then, an eat neither
    for rider in state.riders:
        if rider.player != player or rider.status == "eliminated" or not rider.kept:
            continue
        if rider.energy < LOW_ENERGY or rider.status == "finished":
            return Action(player, "eat", rider=rider.id, tile=0)
    return None


def seeded_roll(state: AnyFamilyState, player: str, n: int) -> int:
    """0 to n-1 from the race's seeded dice, the turn and the player: variety that replays the same."""
    salt = sum(ord(ch) * 31**i for i, ch in enumerate(player))  # stable across processes
    value, _ = below(state.dice.state ^ (state.turn * 7919) ^ salt, n)
    return value


def wheels(state: AnyFamilyState, rider_id: str) -> frozenset[str]:
    """The squares of the riders on the road other than ``rider_id``: wheels to follow."""
    return frozenset(r.cell for r in state.riders if r.id != rider_id and r.on_road and r.cell is not None)


def ride_value(
    state: AnyFamilyState,
    rider: FamilyRider,
    option: RideOption,
    start_row: int,
    risk: float,
    taken: frozenset[str] | None = None,
    keep: int = 0,
) -> float:
    """How good a ride is: squares and energy back against cost over the turns left, the line,
    rejoining, a wheel to follow; ``risk`` is what the option's risks cost in value, ``keep`` the
    energy a league stage carries to the next one (worth keeping).

    ``taken``: ``wheels(state, rider.id)``, worked out here if not given (a caller scoring
    many options of one rider passes it once)."""
    road = state.setup.road
    row_text, lane_text = option.to.split(".")
    row = int(row_text)
    to_go = max(1.0, road.finish - start_row)
    budget = rider.energy / max(1.0, to_go / 4.2)
    # energy is worth less once more is left than the rest of the stage can use: nothing after the line
    price = 0.6 * min(1.0, to_go * SPEND_PER_SQUARE / max(1, rider.energy - keep))
    value = option.squares * 2.0 + option.recovery * price * 1.3
    value -= option.cost * price + max(0.0, option.cost - budget) * 2.5
    if option.finishes:
        value += 40 + (row - road.finish) * 0.5
    if option.rejoins:
        value += 12
    if option.risk_count:
        if option.worst_cost > rider.energy * 0.5:
            value -= 30
        value -= risk
    if taken is None:
        taken = wheels(state, rider.id)
    if f"{row + 1}.{lane_text}" in taken:
        value += 1.5  # a wheel to follow next turn
    return value


def best(choices: Sequence[C], value: Callable[[C], float]) -> C:
    return max(choices, key=lambda c: (value(c), c.action.to or ""))


class Wheels:
    """``wheels(state, rider_id)`` for one state, worked out once per rider (an AI scores
    dozens of options of the same rider)."""

    def __init__(self, state: AnyFamilyState) -> None:
        self._state = state
        self._by_rider: dict[str, frozenset[str]] = {}

    def __call__(self, rider_id: str) -> frozenset[str]:
        taken = self._by_rider.get(rider_id)
        if taken is None:
            taken = self._by_rider[rider_id] = wheels(self._state, rider_id)
        return taken


def wants_pursuit(state: AnyFamilyState, player: str, lead: int, energy: int | None = None) -> bool:
    """Chase when others are ``lead`` squares or more ahead, none of ours is, and ours in the
    peloton all have more than ``energy`` (if given)."""
    mine_away = any(r.player == player and r.status == "breakaway" for r in state.riders)
    others_away = [r for r in state.riders if r.player != player and r.status == "breakaway"]
    mine_in = [r for r in state.riders if r.player == player and r.status == "peloton"]
    if mine_away or not others_away or not mine_in:
        return False
    ahead = max((r.row or 0) for r in others_away) - state.peloton
    return ahead >= lead and (energy is None or min(r.energy for r in mine_in) > energy)


def attack_worth(state: AnyFamilyState, rider: FamilyRider, keep: int = 0) -> bool:
    """The final attack: late in the stage, a rider who holds more energy than the peloton's ride
    to the line would ever let it spend goes (energy is worth nothing after the line of a single
    stage; ``keep`` is what a stage of a league carries to the next one)."""
    to_go = state.setup.road.finish - state.peloton
    return to_go > 0 and rider.energy - keep >= ATTACK_PER_SQUARE * to_go + 4


def breakaway_or_pass(
    state: AnyFamilyState,
    player: str,
    candidates: Sequence[FamilyRider],
    listing: Callable[[FamilyRider, int], Sequence[OptionT]],
    pick: Callable[[list[OptionT]], Action],
    keep: int = 0,
) -> Action:
    """A rider whose energy the rest of the stage would not use makes the final attack; otherwise,
    now and then (22 in 100), a rider with energy to spare goes on a cheap, safe breakaway.

    ``listing(rider, most)`` gives one of the ``candidates``' breakaway options in the
    engine's order, at least every one costing ``most`` energy or less (it may leave out
    dearer ones); ``pick`` chooses among the good ones. Listing is the costly part, so it is
    asked only when its answer counts: no rider of ours already away, the roll says try,
    and the rider has the energy to spare.
    """
    attackers = [r for r in candidates if attack_worth(state, r, keep)]
    if attackers:
        late: list[OptionT] = []
        for rider in attackers:
            late += [o for o in listing(rider, rider.energy) if o.worst_cost <= rider.energy]
        if late:
            return pick(late)
    if any(r.player == player and r.status == "breakaway" for r in state.riders):
        return Action(player, "pass")
    if seeded_roll(state, player, 100) >= 22:
        return Action(player, "pass")
    start = state.setup.road.energy
    good: list[OptionT] = []
    for rider in candidates:
        if rider.energy <= start * 0.45:
            continue
        most = max(3, rider.energy // 8)
        good += [o for o in listing(rider, most) if o.risk_count == 0 and o.cost <= most]
    if good:
        return pick(good)
    return Action(player, "pass")
