"""Leader 1's engine: new_race, pending, legal_actions, apply, outcome (design.md contract)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.action import Action
from rules.errors import IllegalAction
from rules.i18n import _
from rules.leader1 import actions, player_record, words
from rules.leader1.feed import Piles, full_piles
from rules.leader1.model import Event, Rider, Setup, State
from rules.leader1.moves import RideOption, chosen_ride, ride_options
from rules.leader1.order import arrival_order
from rules.leader1.ride import resolve_ride
from rules.leader1.turn import advance, after_pursuit, riders_to_ride
from rules.rng import Dice

Decision = actions.Decision
Choice = actions.Choice[RideOption]  # a legal action, with its ride option for moves


@dataclass(frozen=True)
class Outcome:
    finished: bool
    arrivals: tuple[str, ...]
    arrived_turn: dict[str, int]
    eliminated: tuple[str, ...]


def starting_riders(setup: Setup) -> tuple[Rider, ...]:
    """A.3: every rider in the peloton with the route's energy (plus any carried, D.3)."""
    return player_record.starting_riders(
        setup.players,
        setup.road.energy,
        Rider,
        lambda p, kind: {"sprinter": kind == p.sprinter, "descender": kind == p.descender},
    )


def new_race(
    setup: Setup,
    seed: int,
    dice_script: dict[str, list[int | str]] | None = None,
    *,
    riders: tuple[Rider, ...] | None = None,
    turn: int = 1,
    peloton: int = 1,
    token: int = 0,
    piles: Piles | None = None,
) -> State:
    """A race at its start (or at a mid-race start), advanced to its first decision."""
    if riders is None:
        riders = starting_riders(setup)
    state = State(
        setup=setup,
        riders=riders,
        dice=Dice.new(seed, dice_script),
        turn=turn,
        peloton=peloton,
        token=token,
        phase="breakaways",
        piles=full_piles() if piles is None else piles,
    )
    return advance(replace(state, queue=riders_to_ride(state, ahead=True)))


def pending(state: State) -> Decision | None:
    if state.finished:
        return None
    if state.phase in ("breakaways", "dropped"):
        rider = state.rider(state.queue[0])
        return Decision(rider.player, state.phase, "ride", rider.id)
    if state.phase == "breaking-away":
        return Decision(state.queue[0], state.phase, "breakaway")
    return Decision(state.setup.players[state.token].id, state.phase, "pursuit")


def breakaway_candidates(state: State, player: str) -> list[Rider]:
    """``player``'s riders who may still break away, drop or stay this breakaway phase."""
    return [r for r in state.riders if r.player == player and r.status == "peloton" and r.id not in state.drop_requests]


def legal_actions(state: State, player: str) -> list[Choice]:
    """Every legal choice of ``player`` now, with its consequences."""
    return actions.legal_choices(state, player, pending, ride_options, _team_choices)


def _team_choices(state: State, decision: Decision) -> list[Choice]:
    """The breaking-away phase: each rider's breakaways and drop, then pass; the token's pursuit."""
    player = decision.player
    if decision.kind == "pursuit":
        return [Choice(Action(player, "pursue")), Choice(Action(player, "pass"))]
    choices: list[Choice] = []
    for r in breakaway_candidates(state, player):
        choices += actions.ride_choices(player, "breakaway", ride_options(state, r.id, breakaway=True))
        choices.append(Choice(Action(player, "drop", rider=r.id)))
    return [*choices, Choice(Action(player, "pass"))]


def _describe_allowed(state: State) -> str:
    return actions.describe_allowed(
        pending(state),
        lambda d: (
            _("{player} may break away, drop a rider or pass", player=d.player)
            if d.kind == "breakaway"
            else _("{player} (peloton token) may pursue or pass", player=d.player)
        ),
    )


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check and resolve ``action``; returns the new state and what happened."""
    return actions.apply(state, action, _decide)


def _decide(state: State, action: Action) -> State:
    decision = pending(state)
    assert decision is not None
    allowed = {"ride": ("ride",), "breakaway": ("breakaway", "drop", "pass"), "pursuit": ("pursue", "pass")}
    actions.check_decider(action, decision.player, decision.phase, allowed[decision.kind], _describe_allowed(state))
    if decision.kind == "pursuit":
        return advance(after_pursuit(state, action.do == "pursue"))
    if action.do == "pass":
        return advance(replace(state, queue=state.queue[1:]))
    if action.do == "drop":
        rider = _own_peloton_rider(state, action)
        state = replace(state, drop_requests=(*state.drop_requests, rider.id))
        return _after_breakaway_step(state, action.by)
    if action.do == "breakaway":
        rider = _own_peloton_rider(state, action)
        option = _match(state, rider.id, action, breakaway=True)
        return _after_breakaway_step(resolve_ride(state, option), action.by)
    assert decision.rider is not None
    return actions.ride_in_turn(state, decision.rider, action, chosen_ride, resolve_ride, advance)


def _after_breakaway_step(state: State, player: str) -> State:
    return actions.next_if_done(state, player, breakaway_candidates, advance)  # nothing left: the next player


def _own_peloton_rider(state: State, action: Action) -> Rider:
    rider = actions.own_rider(state, action)
    if rider.status != "peloton" or rider.id in state.drop_requests:
        raise IllegalAction(
            _("{rider} is not in the peloton (status {status})", rider=rider.id, status=words.status(rider.status))
        )
    return rider


def _match(state: State, rider_id: str, action: Action, *, breakaway: bool) -> RideOption:
    return actions.match(state, rider_id, action, ride_options, breakaway=breakaway)


def outcome(state: State) -> Outcome:
    arrived = arrival_order(state)
    return Outcome(
        finished=state.finished,
        arrivals=tuple(r.id for r in arrived),
        arrived_turn={r.id: r.arrived_turn or 0 for r in arrived},
        eliminated=tuple(r.id for r in state.riders if r.status == "eliminated"),
    )
