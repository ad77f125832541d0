"""The checks and actions every Leader 1 family engine shares: who may act, eating a kept
feed tile (any time), and matching a ride or breakaway to one of the legal options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar

from rules.action import Action
from rules.errors import IllegalAction, NotYourTurn, RaceOver, WrongPhase
from rules.events import Event, event
from rules.frozen import built
from rules.i18n import _, pgettext
from rules.leader1 import family, words
from rules.leader1.family import AnyFamilyState, FamilyState, R
from rules.leader1.paths import RideOption

S = TypeVar("S", bound=AnyFamilyState)


class _Option(Protocol):
    @property
    def to(self) -> str: ...


OptionT = TypeVar("OptionT", bound=_Option)
OptionT_co = TypeVar("OptionT_co", covariant=True)
RideOptionT = TypeVar("RideOptionT", bound=RideOption)


@dataclass(frozen=True)
class Decision:
    """Who must decide now, and what (the kinds are the game's: ``ride`` a given rider,
    ``breakaway``, ``pursuit``, ...)."""

    player: str
    phase: str
    kind: str
    rider: str | None = None


@dataclass(frozen=True)
class Choice(Generic[OptionT_co]):
    """A legal action with its consequences (a ride option for moves, else None)."""

    action: Action
    option: OptionT_co | None = None


Options = Callable[..., list[OptionT]]  # (state, rider id, *, breakaway, route) -> options


def apply(state: S, action: Action, decide: Callable[[S, Action], S]) -> tuple[S, list[Event]]:
    """Check that ``action`` may be played at all, then resolve it (``eat`` any time, else ``decide``)."""
    before = len(state.events)
    if state.finished:
        raise RaceOver(_("the race is over; {action} cannot be played", action=repr(action.text())))
    if state.setup.player(action.by) is None:
        players = ", ".join(p.id for p in state.setup.players)
        raise IllegalAction(
            _("unknown player {player}; the players are {players}", player=repr(action.by), players=players)
        )
    new = eat(state, action) if action.do == "eat" else decide(state, action)
    return new, list(new.events[before:])


def eat_actions(state: AnyFamilyState, player: str) -> list[Action]:
    """Eating any kept tile of any of ``player``'s riders still in the race."""
    return [
        Action(player, "eat", rider=r.id, tile=i)
        for r in state.riders
        if r.player == player and r.status != "eliminated"
        for i in range(len(r.kept))
    ]


def own_rider(state: FamilyState[R], action: Action) -> R:
    """The rider ``action`` names, which must be the acting player's."""
    rid = action.rider
    if not isinstance(rid, str) or not state.has_rider(rid):
        example = next((r.id for r in state.riders if r.player == action.by), "a rider id")
        raise IllegalAction(
            _(
                "{do} needs one of your riders such as {example}, got {got}",
                do=action.do,
                example=repr(example),
                got=repr(rid),
            )
        )
    rider = state.rider(rid)
    if rider.player != action.by:
        raise NotYourTurn(_("{rider} is not {player}'s rider", rider=rid, player=action.by))
    return rider


def eat(state: S, action: Action) -> S:
    """A kept feed tile eaten: its value is added to the rider's energy, and it is shown."""
    rider = own_rider(state, action)
    if rider.status == "eliminated":
        raise IllegalAction(_("{rider} is out of the race", rider=rider.id))
    tile = action.tile
    if not isinstance(tile, int) or not 0 <= tile < len(rider.kept):
        raise IllegalAction(
            _(
                "{rider} keeps {count} feed tile(s); tile must be 0 to {last}",
                rider=rider.id,
                count=len(rider.kept),
                last=len(rider.kept) - 1,
            )
            if rider.kept
            else _("{rider} keeps no feed tile", rider=rider.id)
        )
    value = rider.kept[tile]
    kept = rider.kept[:tile] + rider.kept[tile + 1 :]
    state = family.replace_rider(state, replace(rider, energy=rider.energy + value, kept=kept))
    return family.add_events(state, [event(state.turn, "ate", rider=rider.id, value=value)])


def match(
    state: AnyFamilyState, rider_id: str, action: Action, options: Options[OptionT], *, breakaway: bool
) -> OptionT:
    """The legal option ``action`` names (by its destination, and its path if given), or why none is."""
    to = action.to
    if not isinstance(to, str):
        raise IllegalAction(_("{do} needs a destination 'to' such as '14.2'", do=action.do))
    if not state.setup.road.track.has(to):
        raise IllegalAction(_("{square} is not a square of this road", square=repr(to)))
    via = action.via
    route = (*via, to) if isinstance(via, tuple) and via else None
    found = [o for o in options(state, rider_id, breakaway=breakaway, route=route) if o.to == to]
    if not found:
        every = options(state, rider_id, breakaway=breakaway)
        squares = sorted({o.to for o in every}, key=lambda c: tuple(int(x) for x in c.split(".")))
        listing = ", ".join(squares[:12]) + (" ..." if len(squares) > 12 else "")
        listing = listing or pgettext("legal squares", "none")
        if route:
            raise IllegalAction(
                _(
                    "{rider} cannot reach {to} by that path now; legal squares: {listing}",
                    rider=rider_id,
                    to=to,
                    listing=listing,
                )
            )
        raise IllegalAction(
            _("{rider} cannot reach {to} now; legal squares: {listing}", rider=rider_id, to=to, listing=listing)
        )
    return found[0]


def ride_action(player: str, do: str, option: RideOption) -> Action:
    """The action that plays ``option`` (``ride`` or ``breakaway``), with its path."""
    via = option.via
    if via:
        return Action.of(player, do, (("rider", option.rider), ("to", option.to), ("via", via)))
    return Action.of(player, do, (("rider", option.rider), ("to", option.to)))


def ride_choices(player: str, do: str, options: Sequence[RideOptionT]) -> list[Choice[RideOptionT]]:
    """A choice for each option (``ride`` or ``breakaway``), with its action and the option."""
    # Choice(...) in one step (``rules.frozen``): a Leader 1 breakaway phase lists ~45 a decision
    return [built(Choice, {"action": ride_action(player, do, o), "option": o}) for o in options]


def legal_choices(
    state: S,
    player: str,
    pending: Callable[[S], Decision | None],
    options: Callable[[S, str], Sequence[RideOptionT]],
    others: Callable[[S, Decision], list[Choice[RideOptionT]]],
) -> list[Choice[RideOptionT]]:
    """Every legal choice of ``player`` now, with its consequences: when the pending decision is
    theirs, a rider's ride ``options`` or what ``others`` lists for the other kinds; then eating."""
    if state.finished:
        return []
    choices: list[Choice[RideOptionT]] = []
    decision = pending(state)
    if decision is not None and decision.player == player:
        if decision.kind == "ride":
            assert decision.rider is not None
            choices = ride_choices(player, "ride", options(state, decision.rider))
        else:
            choices = others(state, decision)
    return choices + [Choice(a) for a in eat_actions(state, player)]


def describe_allowed(decision: Decision | None, others: Callable[[Decision], str]) -> str:
    """What may be played now, for an error message: the rider who must ride, or ``others(decision)``."""
    if decision is None:
        return _("the race is over")
    if decision.kind == "ride":
        return _(
            "{player} must ride {rider} ({phase})",
            player=decision.player,
            rider=decision.rider,
            phase=words.phase(decision.phase),
        )
    return others(decision)


def check_decider(action: Action, player: str, phase: str, allowed: tuple[str, ...], now: str) -> None:
    """``action`` must be by the ``player`` who decides now and one of the ``allowed`` kinds."""
    if action.by != player:
        raise NotYourTurn(_("it is not {player}'s turn: {now}", player=action.by, now=now))
    if action.do not in allowed:
        raise WrongPhase(
            _(
                "{do} is not allowed in the {phase} phase; allowed: {allowed} ({now})",
                do=repr(action.do),
                phase=words.phase(phase),
                allowed=", ".join(allowed),
                now=now,
            )
        )


def ride_in_turn(
    state: S,
    rider_id: str,
    action: Action,
    options: Options[OptionT],
    resolve: Callable[[S, OptionT], S],
    advance: Callable[[S], S],
) -> S:
    """The rider whose turn it is rides the option ``action`` names; the queue moves on."""
    if action.rider != rider_id:
        raise NotYourTurn(_("{rider} must ride now, not {other}", rider=rider_id, other=action.rider))
    option = match(state, rider_id, action, options, breakaway=False)
    return advance(replace(resolve(state, option), queue=state.queue[1:]))


def next_if_done(
    state: S, player: str, candidates: Callable[[S, str], Sequence[object]], advance: Callable[[S], S]
) -> S:
    """After one of a player's moves in a team step: the next player once nothing is left to decide."""
    if not candidates(state, player):
        state = replace(state, queue=state.queue[1:])
    return advance(state)
