"""Hell of the North's menu: each legal choice with its words (a ride's consequences, a part of the
peloton, a pursuit). Below the game (``game.py``) and its pace hooks (``pace.py``), which both read it."""

from __future__ import annotations

from rules.game import Choice
from rules.hell_of_the_north import engine
from rules.hell_of_the_north.model import State, risk_need
from rules.hell_of_the_north.moves import RideOption
from rules.i18n import _, ngettext
from rules.leader1 import game_kit, words


def piece_name(state: State | None, rider_id: str) -> str:
    return game_kit.piece_name(state, rider_id)


def option_text(o: RideOption, state: State) -> tuple[str, str]:
    """A menu label and description that spell out a ride's consequences."""
    middle = [_("wind {wind}", wind=f"{o.wind:+d}")] if o.wind else []
    risks = [k for k in ("crack", "fall") if getattr(o, k)]
    if risks:
        need = words.need(risk_need(state.rider(o.rider).risks))
        middle.append(
            _(
                "{risks} risk: needs {need} (worst cost {worst})",
                risks=words.risks(risks),
                need=need,
                worst=o.worst_cost,
            )
        )
    if o.cobbles:
        middle.append(_("cobbles: orange/blue 4 falls, red 4 punctures"))
    if o.heat:
        middle.append(_("heat: eats a kept tile"))
    label, detail = game_kit.ride_texts(o, middle, bool(risks) or o.cobbles)
    return label[:80], detail


def _choice(state: State, c: engine.Choice) -> Choice:
    a = c.action
    o = c.option
    rider = a.rider if isinstance(a.rider, str) else None
    name = piece_name(state, rider) if rider else ""
    if a.do in ("ride", "breakaway") and o is not None:
        return game_kit.ride_choice(a, o, *option_text(o, state), name=name)
    if a.do == "place":
        assert rider is not None
        r = state.rider(rider)
        front = a.part == "front"
        if state.phase == "placing":
            cost = _("pays 1 (2 for 5+) each peloton move; may break away") if front else _("pays 0 (1 for 5+)")
            return Choice(a, _("{rider}: {part}", rider=name, part=words.part(a.part)), cost, piece=rider)
        if front:
            label = _("{rider}: move up to the front", rider=name)
            detail = _("may break away next turn; pays 1 (2 for 5+); energy {energy}", energy=r.energy)
        else:
            label = _("{rider}: move back", rider=name)
            detail = _("pays 0 (1 for 5+); energy {energy}", energy=r.energy)
        return Choice(a, label[:80], detail, piece=rider)
    if a.do == "drop":
        detail = _("leaves the peloton before it moves (no cost), rides behind it from next turn")
        return Choice(a, _("{rider}: drop back", rider=name), detail, piece=rider)
    if a.do == "pursue":
        left = state.pursuits_left(a.by) - 1
        label = ngettext("Speed up (+1), {n} pursuit left", "Speed up (+1), {n} pursuits left", left)
        return Choice(a, label, _("your marker goes 1st; the peloton moves 1 more"))
    if a.do == "eat":
        return game_kit.eat_choice(state, a, name)
    if state.phase == "pursuit":
        return Choice(a, _("Pass (no speed-up)"), _("the peloton rolls its die alone"))
    return Choice(a, _("Pass"), "")


def choices(state: State, player: str) -> list[Choice]:
    return [_choice(state, c) for c in engine.legal_actions(state, player)]
