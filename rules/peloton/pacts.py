"""Peloton's pacts (docs/alliances.md): **share the pace** (II.3b, riding tandem) and **no attack**
(II.3c, acceleration), read at the dial with the engine's own speeds and tandem."""

from __future__ import annotations

from rules.action import Action
from rules.game import Decision
from rules.i18n import N_, _
from rules.pacts import Names, Pact, PactKind, Pacts, Verdict
from rules.peloton.course import split
from rules.peloton.engine import DialOption, basic_speed, dial_options, tandem_cells
from rules.peloton.model import Cyclist, State
from rules.peloton.words import piece_name


def _dial(state: State, decision: Decision, action: Action) -> tuple[Cyclist, DialOption] | None:
    """The member's cyclist and the dial it is set to, at a dial decision (None for anything else)."""
    cid = action.get("cyclist")
    if decision.kind != "dial" or action.do != "dial" or not isinstance(cid, str):
        return None
    cyclist = state.cyclist(cid)
    keep = bool(action.get("keep"))
    option = next(
        (o for o in dial_options(state, cyclist) if o.position == action.get("dial") and o.kept == keep), None
    )
    return None if option is None or cyclist.cell is None else (cyclist, option)


def _words(player: str, cyclist: Cyclist, ally: Cyclist, names: Names) -> dict[str, str]:
    return {
        "player": names(player),
        "cyclist": piece_name(None, cyclist.id),
        "ally": names(ally.player),
        "other": piece_name(None, ally.id),
    }


def share_the_pace(state: State, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
    """A member's cyclist with an ally's cyclist riding tandem right behind it, still to move, sets a pace
    the ally holds for free: no faster than the ally's basic speed plus the tandem's hexagon."""
    found = _dial(state, decision, action)
    if found is None:
        return None
    cyclist, option = found
    allies = pact.allies_of(decision.player)
    follower = next(
        (
            c
            for c in state.cyclists
            if c.player in allies
            and c.cell is not None
            and c.id in state.tandem
            and c.id in state.queue
            and cyclist.cell in tandem_cells(state, c.cell)
        ),
        None,
    )
    if follower is None:
        return None
    mine = basic_speed(state, cyclist) + (1 if cyclist.id in state.tandem else 0) + option.value
    held = basic_speed(state, follower) + 1
    words = _words(decision.player, cyclist, follower, names)
    if mine <= held:
        return Verdict(True, follower.player, _("{player}'s {cyclist} set a pace {ally}'s {other} could hold", **words))
    return Verdict(False, follower.player, _("{player}'s {cyclist} rode away from {ally}'s {other}", **words))


GROUP = 4  # half-hexagons either way: a cyclist within two hexagons of another rides in its group


def no_attack(state: State, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
    """A member's cyclist in the same group as an ally's cyclist (within two hexagons, ahead or behind)
    does not accelerate: no acceleration, no attack on the ally's group."""
    found = _dial(state, decision, action)
    if found is None:
        return None
    cyclist, option = found
    assert cyclist.cell is not None
    here = split(cyclist.cell)[0]
    allies = pact.allies_of(decision.player)
    near = [
        c
        for c in state.cyclists
        if c.player in allies and c.on_road and c.cell is not None and abs(split(c.cell)[0] - here) <= GROUP
    ]
    if not near:
        return None
    words = _words(decision.player, cyclist, near[0], names)
    if option.value == 0:
        return Verdict(True, near[0].player, _("{player}'s {cyclist} stayed in {ally}'s {other}'s group", **words))
    return Verdict(False, near[0].player, _("{player}'s {cyclist} attacked {ally}'s {other}'s group", **words))


PACTS: Pacts[State] = Pacts(
    kinds=(
        PactKind(
            "share-the-pace",
            N_("share the pace"),
            "II.3b",
            N_("A member's cyclist with an ally's in tandem behind it rides no faster than the ally can for free."),
            share_the_pace,
        ),
        PactKind(
            "no-attack",
            N_("no attack"),
            "II.3c",
            N_("A member's cyclist within two hexagons of an ally's does not accelerate away from its group."),
            no_attack,
        ),
    ),
)
