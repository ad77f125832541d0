"""Formula Dé Mini's pacts (docs/alliances.md): **no block** (event 4, blocking) and **tow** (event 9,
slipstreaming), read with the engine's own moves: where an ally's car could go with the member's car
at the end of its move, and whether a slipstream would be behind it."""

from __future__ import annotations

from dataclasses import replace

from rules.action import Action
from rules.formula_de_mini import engine
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.menu import piece_name_of
from rules.formula_de_mini.model import SLIPSTREAM_MIN_GEAR, Car, State
from rules.formula_de_mini.moves import kept_moves, occupied, reachable, slipstream_target
from rules.game import Decision
from rules.i18n import N_, _
from rules.pacts import Names, Pact, PactKind, Pacts, Verdict

MOVES = ("drive", "slipstream")


def _moving(state: State, decision: Decision, action: Action) -> tuple[Car, str] | None:
    """The member's car and the space the move ends on, for a move (None for anything else)."""
    if decision.kind not in ("move", "slipstream") or action.do not in MOVES or decision.piece is None:
        return None
    choice = engine._match(engine.legal_actions(state, decision.player), action)
    if choice.option is None or choice.option.pit or choice.option.pit_lane:
        return None
    return state.car(decision.piece), choice.option.to


def _allies_behind(state: State, pact: Pact, player: str, car: Car) -> list[Car]:
    allies = pact.allies_of(player)
    ahead = engine._progress(state, car)
    return [c for c in state.cars if c.player in allies and c.status == "racing" and engine._progress(state, c) < ahead]


def _reach(car: Car) -> int:
    """The most spaces ``car``'s die can give in its gear (first gear on the grid)."""
    return max(face for face in gear_die(max(1, car.gear)).faces if isinstance(face, int))


def _blocked(state: State, car: Car, spaces: int) -> int:
    """Spaces ``car`` could not drive on a roll of ``spaces`` (event 4), as the engine counts them."""
    return min((m.blocked for m in kept_moves(state, state.car(car.id), spaces)), default=0)


def _words(state: State, player: str, car: Car, ally: Car, names: Names) -> dict[str, str]:
    return {
        "player": names(player),
        "car": piece_name_of(car.id),
        "ally": names(ally.player),
        "other": piece_name_of(ally.id),
    }


def no_block(state: State, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
    """The member's car does not end its move where an ally's car behind would be blocked on its
    best roll, more than it would be were the member's car not there."""
    found = _moving(state, decision, action)
    if found is None:
        return None
    car, to = found
    allies = _allies_behind(state, pact, decision.player, car)
    if not allies:
        return None
    there = engine._put(state, replace(car, cell=to))
    away = engine._put(state, replace(car, status="finished"))
    for ally in allies:
        spaces = _reach(ally)
        if _blocked(there, ally, spaces) > _blocked(away, ally, spaces):
            words = _words(state, decision.player, car, ally, names)
            return Verdict(False, ally.player, _("{player}'s {car} boxed in {ally}'s {other}", **words))
    words = _words(state, decision.player, car, allies[0], names)
    return Verdict(True, allies[0].player, _("{player}'s {car} left {ally}'s {other} a free road", **words))


def tow(state: State, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
    """The member's car ends its move where an ally's car behind, fast enough for a slipstream, can reach
    the space right behind it and take the slipstream."""
    found = _moving(state, decision, action)
    if found is None:
        return None
    car, to = found
    if car.gear < SLIPSTREAM_MIN_GEAR:
        return None
    allies = [a for a in _allies_behind(state, pact, decision.player, car) if a.gear >= car.gear]
    if not allies:
        return None
    there = engine._put(state, replace(car, cell=to))
    for ally in allies:
        taken = occupied(there, ally.id)
        ends = {p.cells[-1] for paths in reachable(there, ally, _reach(ally)).values() for p in paths if not p.pit}
        if any(end not in taken and slipstream_target(there, ally, end) == car.id for end in ends):
            words = _words(state, decision.player, car, ally, names)
            return Verdict(True, ally.player, _("{player}'s {car} left its slipstream to {ally}'s {other}", **words))
    words = _words(state, decision.player, car, allies[0], names)
    return Verdict(False, allies[0].player, _("{player}'s {car} left {ally}'s {other} no slipstream", **words))


PACTS: Pacts[State] = Pacts(
    kinds=(
        PactKind(
            "no-block",
            N_("no block"),
            "4",
            N_("A member's car does not end its move where it blocks an ally's car behind it."),
            no_block,
        ),
        PactKind(
            "tow",
            N_("tow"),
            "9",
            N_("A member's car ends its move where an ally's car behind can take its slipstream, when it can."),
            tow,
        ),
    ),
)
