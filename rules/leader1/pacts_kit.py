"""The pacts the Leader 1 family shares (Leader 1 and Hell of the North, docs/alliances.md): **no
chase**, read from the peloton's pursuit, and **relay**, read from the slipstream behind a rider.
Each game hands in what its edition does differently: how a ride is matched and what length of move
cuts the slipstream behind it (the engine's own functions, never a copy of them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rules.action import Action
from rules.game import Decision
from rules.i18n import _
from rules.leader1.family import AnyFamilyState
from rules.pacts import Names, Pact, Verdict

S = TypeVar("S", bound=AnyFamilyState)
PieceName = Callable[[AnyFamilyState | None, str], str]
# (state, the rider who rides, the action) -> the state as the engine leaves the riders behind the
# mover's starting square after that ride: with a slipstream given, or not
SlipstreamAfter = Callable[[S, str, Action], S]


def allies_away(state: AnyFamilyState, pact: Pact, player: str) -> list[tuple[str, str]]:
    """(ally, rider) for each of the player's allies' riders ahead of the peloton (away in a breakaway)."""
    allies = pact.allies_of(player)
    return [(r.player, r.id) for r in state.riders if r.player in allies and r.status == "breakaway"]


def no_chase(piece_name: PieceName) -> Callable[[S, Decision, Pact, Action, Names], Verdict | None]:
    """The member deciding the peloton's pursuit does not pursue while an ally's rider is away."""

    def judge(state: S, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
        if decision.kind != "pursuit" or action.do not in ("pursue", "pass"):
            return None
        away = allies_away(state, pact, decision.player)
        if not away:
            return None
        ally, rider = away[0]
        words = {"player": names(decision.player), "ally": names(ally), "rider": piece_name(state, rider)}
        if action.do == "pursue":
            return Verdict(False, ally, _("{player} pursued while {ally}'s {rider} was away", **words))
        return Verdict(True, ally, _("{player} let {ally}'s {rider} stay away", **words))

    return judge


def relay(
    piece_name: PieceName, slipstream_after: SlipstreamAfter[S]
) -> Callable[[S, Decision, Pact, Action, Names], Verdict | None]:
    """A member's rider with an ally's rider right behind it rides short enough that the ally keeps the
    slipstream (the engine says whether the ride gives it)."""

    def judge(state: S, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
        if decision.kind != "ride" or decision.piece is None or action.do != "ride":
            return None
        rider = state.rider(decision.piece)
        if rider.row is None or not rider.on_road:
            return None
        behind = f"{rider.row - 1}.{rider.lane}"
        allies = pact.allies_of(decision.player)
        follower = next(
            (
                r
                for r in state.riders
                if r.cell == behind and r.player in allies and r.status in ("breakaway", "dropped")
            ),
            None,
        )
        if follower is None:
            return None
        after = slipstream_after(state, rider.id, action)
        words = {
            "player": names(decision.player),
            "rider": piece_name(state, rider.id),
            "ally": names(follower.player),
            "follower": piece_name(state, follower.id),
        }
        ally = follower.player
        if after.rider(follower.id).slipstream:
            return Verdict(True, ally, _("{player}'s {rider} kept {ally}'s {follower} in its slipstream", **words))
        return Verdict(False, ally, _("{player}'s {rider} rode away from {ally}'s {follower}", **words))

    return judge


def peloton_row(state: AnyFamilyState) -> int:
    """How far the race has come: the peloton's front row."""
    return state.peloton
