"""Hell of the North's engine: new_race, pending, legal_actions, apply, outcome (design.md contract)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rules.action import Action
from rules.errors import IllegalAction
from rules.hell_of_the_north.model import PARTS, Event, Rider, State, event
from rules.hell_of_the_north.moves import RideOption, ride_options
from rules.hell_of_the_north.ride import add_events, replace_rider, resolve_ride
from rules.hell_of_the_north.turn import (
    advance,
    after_pursuit,
    breakaway_candidates,
    placing_queue,
    positioning_candidates,
    riders_to_ride,
)
from rules.i18n import _, pgettext
from rules.leader1 import actions, words

Decision = actions.Decision
Choice = actions.Choice[RideOption]  # a legal action, with its ride option for moves


KINDS = {
    "placing": "place",
    "breakaways": "ride",
    "dropped": "ride",
    "breaking-away": "breakaway",
    "positioning": "position",
    "pursuit": "pursuit",
}
ALLOWED = {
    "place": ("place",),
    "ride": ("ride",),
    "breakaway": ("breakaway", "pass"),
    "position": ("place", "drop", "pass"),
    "pursuit": ("pursue", "pass"),
}


def start(state: State) -> State:
    """A built state at its first decision: the placing, or a mid-race turn."""
    if state.phase == "placing":
        return advance(replace(state, queue=placing_queue(state)))
    return advance(replace(state, queue=riders_to_ride(state, ahead=True)))


def pending(state: State) -> Decision | None:
    if state.finished or not state.queue:
        return None
    kind = KINDS[state.phase]
    if kind == "ride":
        rider = state.rider(state.queue[0])
        return Decision(rider.player, state.phase, kind, rider.id)
    return Decision(state.queue[0], state.phase, kind)


def legal_actions(state: State, player: str) -> list[Choice]:
    """Every legal choice of ``player`` now, with its consequences."""
    return actions.legal_choices(state, player, pending, ride_options, _team_choices)


def _team_choices(state: State, d: Decision) -> list[Choice]:
    """A team's decision: placing its riders, breaking away, moving inside the peloton, pursuing."""
    player = d.player
    choices: list[Choice] = []
    if d.kind == "place":
        for r in state.riders:
            if r.player == player and r.status == "peloton" and r.part is None:
                choices += [Choice(Action(player, "place", rider=r.id, part=p)) for p in PARTS]
    elif d.kind == "breakaway":
        for r in breakaway_candidates(state, player):
            choices += actions.ride_choices(player, "breakaway", ride_options(state, r.id, breakaway=True))
        choices.append(Choice(Action(player, "pass")))
    elif d.kind == "position":
        for r in positioning_candidates(state, player):
            if r.part == "back":
                choices.append(Choice(Action(player, "place", rider=r.id, part="front")))
                choices.append(Choice(Action(player, "drop", rider=r.id)))
            else:
                choices.append(Choice(Action(player, "place", rider=r.id, part="back")))
        choices.append(Choice(Action(player, "pass")))
    else:
        choices += [Choice(Action(player, "pursue")), Choice(Action(player, "pass"))]
    return choices


def describe_allowed(state: State) -> str:
    return actions.describe_allowed(
        pending(state),
        lambda d: _(
            "{player} may {actions} ({phase})",
            player=d.player,
            actions=pgettext("alternatives", " or ").join(ALLOWED[d.kind]),
            phase=words.phase(d.phase),
        ),
    )


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check and resolve ``action``; returns the new state and what happened."""
    return actions.apply(state, action, _decide)


def _own_rider(state: State, action: Action) -> Rider:
    return actions.own_rider(state, action)


def _decide(state: State, action: Action) -> State:
    d = pending(state)
    assert d is not None
    actions.check_decider(action, d.player, d.phase, ALLOWED[d.kind], describe_allowed(state))
    if d.kind == "pursuit":
        if action.do == "pursue":
            return advance(after_pursuit(state, action.by))
        return advance(replace(state, queue=state.queue[1:]))
    if action.do == "pass":
        return advance(replace(state, queue=state.queue[1:]))
    if d.kind == "place":
        return _place(state, action, setup=True)
    if d.kind == "position":
        if action.do == "drop":
            rider = _own_rider(state, action)
            if rider not in positioning_candidates(state, action.by) or rider.part != "back":
                raise IllegalAction(
                    _("{rider} cannot drop back: only a rider at the back of the peloton may", rider=rider.id)
                )
            state = replace(state, drop_requests=(*state.drop_requests, rider.id))
            state = replace_rider(state, replace(rider, moved_part=True))
            state = add_events(state, [event(state.turn, "drops", rider=rider.id)])
            return _next_if_done(state, action.by, positioning_candidates)
        return _place(state, action, setup=False)
    if d.kind == "breakaway":
        rider = _own_rider(state, action)
        if rider not in breakaway_candidates(state, action.by):
            raise IllegalAction(
                _("{rider} cannot break away: only riders in the front part of the peloton may", rider=rider.id)
            )
        option = _match(state, rider.id, action, breakaway=True)
        return _next_if_done(resolve_ride(state, option), action.by, breakaway_candidates)
    assert d.rider is not None
    return actions.ride_in_turn(state, d.rider, action, ride_options, resolve_ride, advance)


def _place(state: State, action: Action, *, setup: bool) -> State:
    rider = _own_rider(state, action)
    part = action.part
    if part not in PARTS:
        raise IllegalAction(_("part must be front or back, got {part}", part=repr(part)))
    if setup:
        if rider.status != "peloton" or rider.part is not None:
            raise IllegalAction(_("{rider} is already placed", rider=rider.id))
        state = replace_rider(state, replace(rider, part=str(part)))
        state = add_events(state, [event(state.turn, "placed", rider=rider.id, part=part)])
        unplaced = any(r.player == action.by and r.part is None and r.status == "peloton" for r in state.riders)
        queue = state.queue if unplaced else state.queue[1:]
        return advance(replace(state, queue=queue))
    if rider not in positioning_candidates(state, action.by) or rider.part == part:
        raise IllegalAction(_("{rider} cannot move to the {part} part now", rider=rider.id, part=words.part(part)))
    state = replace_rider(state, replace(rider, part=str(part), moved_part=True))
    state = add_events(state, [event(state.turn, "placed", rider=rider.id, part=part)])
    return _next_if_done(state, action.by, positioning_candidates)


def _next_if_done(state: State, player: str, candidates: Callable[[State, str], list[Rider]]) -> State:
    return actions.next_if_done(state, player, candidates, advance)


def _match(state: State, rider_id: str, action: Action, *, breakaway: bool) -> RideOption:
    return actions.match(state, rider_id, action, ride_options, breakaway=breakaway)
