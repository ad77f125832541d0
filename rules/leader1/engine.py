"""Leader 1's engine: new_race, pending, legal_actions, apply, outcome (design.md contract)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.action import Action
from rules.errors import IllegalAction, NotYourTurn, RaceOver, WrongPhase
from rules.leader1.feed import Piles, full_piles
from rules.leader1.model import Event, Rider, Setup, State, event
from rules.leader1.moves import RideOption, ride_options
from rules.leader1.order import arrival_order
from rules.leader1.ride import replace_rider, resolve_ride
from rules.leader1.turn import advance, after_pursuit, riders_to_ride
from rules.rng import Dice


@dataclass(frozen=True)
class Decision:
    """Who must decide now, and what: ``ride`` a given rider, ``breakaway`` or ``pursuit``."""

    player: str
    phase: str
    kind: str
    rider: str | None = None


@dataclass(frozen=True)
class Choice:
    """A legal action with its consequences (a ride option for moves, else None)."""

    action: Action
    option: RideOption | None = None


@dataclass(frozen=True)
class Outcome:
    finished: bool
    arrivals: tuple[str, ...]
    arrived_turn: dict[str, int]
    eliminated: tuple[str, ...]


def starting_riders(setup: Setup) -> tuple[Rider, ...]:
    """A.3: every rider in the peloton with the route's energy (plus any carried, D.3)."""
    return tuple(
        Rider(
            id=rid,
            player=p.id,
            kind=kind,
            energy=setup.road.energy + dict(p.carry).get(kind, 0),
            sprinter=kind == p.sprinter,
            descender=kind == p.descender,
        )
        for p in setup.players
        for rid, kind in zip(p.rider_ids(), p.riders, strict=True)
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


def _eat_choices(state: State, player: str) -> list[Choice]:
    return [
        Choice(Action(player, "eat", rider=r.id, tile=i))
        for r in state.riders
        if r.player == player and r.status != "eliminated"
        for i in range(len(r.kept))
    ]


def _breakaway_candidates(state: State, player: str) -> list[Rider]:
    return [r for r in state.riders if r.player == player and r.status == "peloton" and r.id not in state.drop_requests]


def legal_actions(state: State, player: str) -> list[Choice]:
    """Every legal choice of ``player`` now, with its consequences."""
    if state.finished:
        return []
    choices: list[Choice] = []
    decision = pending(state)
    if decision is not None and decision.player == player:
        if decision.kind == "ride":
            assert decision.rider is not None
            choices += [
                Choice(Action(player, "ride", rider=o.rider, to=o.to, via=o.via), o)
                for o in ride_options(state, decision.rider)
            ]
        elif decision.kind == "breakaway":
            for r in _breakaway_candidates(state, player):
                choices += [
                    Choice(Action(player, "breakaway", rider=o.rider, to=o.to, via=o.via), o)
                    for o in ride_options(state, r.id, breakaway=True)
                ]
                choices.append(Choice(Action(player, "drop", rider=r.id)))
            choices.append(Choice(Action(player, "pass")))
        else:
            choices += [Choice(Action(player, "pursue")), Choice(Action(player, "pass"))]
    return choices + _eat_choices(state, player)


def _describe_allowed(state: State) -> str:
    decision = pending(state)
    if decision is None:
        return "the race is over"
    if decision.kind == "ride":
        return f"{decision.player} must ride {decision.rider} ({decision.phase})"
    if decision.kind == "breakaway":
        return f"{decision.player} may break away, drop a rider or pass"
    return f"{decision.player} (peloton token) may pursue or pass"


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check and resolve ``action``; returns the new state and what happened."""
    before = len(state.events)
    if state.finished:
        raise RaceOver(f"the race is over; {action.text()!r} cannot be played")
    if state.setup.player(action.by) is None:
        players = ", ".join(p.id for p in state.setup.players)
        raise IllegalAction(f"unknown player {action.by!r}; the players are {players}")
    new = _eat(state, action) if action.do == "eat" else _decide(state, action)
    return new, list(new.events[before:])


def _eat(state: State, action: Action) -> State:
    if action.rider is None or not state.has_rider(action.rider):
        raise IllegalAction(f"eat needs one of your riders, got {action.rider!r}")
    rider = state.rider(action.rider)
    if rider.player != action.by:
        raise NotYourTurn(f"{action.rider} is not {action.by}'s rider")
    if rider.status == "eliminated":
        raise IllegalAction(f"{rider.id} is eliminated")
    if action.tile is None or not 0 <= action.tile < len(rider.kept):
        raise IllegalAction(
            f"{rider.id} keeps {len(rider.kept)} feed tile(s); tile must be 0 to {len(rider.kept) - 1}"
            if rider.kept
            else f"{rider.id} keeps no feed tile"
        )
    value = rider.kept[action.tile]
    kept = rider.kept[: action.tile] + rider.kept[action.tile + 1 :]
    state = replace_rider(state, replace(rider, energy=rider.energy + value, kept=kept))
    return replace(state, events=(*state.events, event(state.turn, "ate", rider=rider.id, value=value)))


def _decide(state: State, action: Action) -> State:
    decision = pending(state)
    assert decision is not None
    if action.by != decision.player:
        raise NotYourTurn(f"it is not {action.by}'s turn: {_describe_allowed(state)}")
    allowed = {"ride": ("ride",), "breakaway": ("breakaway", "drop", "pass"), "pursuit": ("pursue", "pass")}
    if action.do not in allowed[decision.kind]:
        raise WrongPhase(
            f"{action.do!r} is not allowed in the {decision.phase} phase; "
            f"allowed: {', '.join(allowed[decision.kind])} ({_describe_allowed(state)})"
        )
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
    if action.rider != decision.rider:
        raise NotYourTurn(f"{decision.rider} must ride now, not {action.rider}")
    option = _match(state, decision.rider, action, breakaway=False)
    return advance(replace(resolve_ride(state, option), queue=state.queue[1:]))


def _after_breakaway_step(state: State, player: str) -> State:
    if not _breakaway_candidates(state, player):
        state = replace(state, queue=state.queue[1:])  # nothing left to decide: skip to the next
    return advance(state)


def _own_peloton_rider(state: State, action: Action) -> Rider:
    if action.rider is None or not state.has_rider(action.rider):
        raise IllegalAction(f"{action.do} needs a rider id such as 'yellow-rouleur', got {action.rider!r}")
    rider = state.rider(action.rider)
    if rider.player != action.by:
        raise NotYourTurn(f"{rider.id} is not {action.by}'s rider")
    if rider.status != "peloton" or rider.id in state.drop_requests:
        raise IllegalAction(f"{rider.id} is not in the peloton (status {rider.status})")
    return rider


def _match(state: State, rider_id: str, action: Action, *, breakaway: bool) -> RideOption:
    if action.to is None:
        raise IllegalAction(f"{action.do} needs a destination 'to' such as '14.2'")
    if not state.setup.road.track.has(action.to):
        raise IllegalAction(f"{action.to!r} is not a square of this road")
    route = (*action.via, action.to) if action.via else None
    # the usual case: the action is one of the options just listed for the prompt or the AI
    # (remembered for this state); the one search along ``route`` gives that same option
    listed = ride_options(state, rider_id, breakaway=breakaway)
    options = [o for o in listed if o.to == action.to and (route is None or o.via == action.via)]
    if not options and route is not None:
        options = [o for o in ride_options(state, rider_id, breakaway=breakaway, route=route) if o.to == action.to]
    if not options:
        every = ride_options(state, rider_id, breakaway=breakaway)
        squares = sorted({o.to for o in every}, key=lambda c: tuple(int(x) for x in c.split(".")))
        reason = "by that path " if route else ""
        listing = ", ".join(squares[:12]) + (" ..." if len(squares) > 12 else "")
        raise IllegalAction(f"{rider_id} cannot reach {action.to} {reason}now; legal squares: {listing or 'none'}")
    return options[0]


def outcome(state: State) -> Outcome:
    arrived = arrival_order(state)
    return Outcome(
        finished=state.finished,
        arrivals=tuple(r.id for r in arrived),
        arrived_turn={r.id: r.arrived_turn or 0 for r in arrived},
        eliminated=tuple(r.id for r in state.riders if r.status == "eliminated"),
    )
