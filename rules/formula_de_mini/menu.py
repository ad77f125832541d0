"""Formula Dé Mini's menu: each legal choice with its words (gear and die, spaces, LP, risks) and the
cars' names. Below the game (``game.py``) and its pace hooks (``pace.py``), which both read it."""

from __future__ import annotations

from dataclasses import replace

from rules.formula_de_mini import engine
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.model import State
from rules.formula_de_mini.moves import MoveOption
from rules.game import Choice
from rules.i18n import _, current, pgettext
from rules.memo import by_state_identity


def collision_risk(state: State, car_id: str, o: MoveOption) -> list[str]:
    """Cars the move would stop beside or behind, by name (each rolls the black die, then the mover)."""
    if o.pit:
        return []
    probe = replace(state.car(car_id), cell=o.to)
    return [piece_name_of(c.id) for c in engine._neighbours(state, probe)]


def gear_name(gear: int) -> str:
    """A gear as players say it: ``2nd`` (the English of ``GEAR_NAMES``)."""
    names = {
        1: pgettext("gear", "1st"),
        2: pgettext("gear", "2nd"),
        3: pgettext("gear", "3rd"),
        4: pgettext("gear", "4th"),
        5: pgettext("gear", "5th"),
    }
    return names.get(gear, str(gear))


def option_text(o: MoveOption, risk: list[str] | None = None) -> tuple[str, str]:
    cost = o.brake + o.overshoot + o.blocked + (3 if o.turbo else 0)
    if o.overshoot:
        label = _("{to} · {spaces} sp · -{cost} LP · OVERSHOOT", to=o.to, spaces=o.spaces, cost=cost)
    elif cost:
        label = _("{to} · {spaces} sp · -{cost} LP", to=o.to, spaces=o.spaces, cost=cost)
    else:
        label = _("{to} · {spaces} sp · no LP", to=o.to, spaces=o.spaces)
    parts = []
    if o.brake:
        parts.append(_("brake {n}", n=o.brake))
    if o.blocked:
        parts.append(_("blocked {n} (out)", n=o.blocked) if o.blocked >= 7 else _("blocked {n}", n=o.blocked))
    if o.overshoot:
        parts.append(_("overshoot {n}", n=o.overshoot))
    if o.turbo:
        parts.append(_("turbo (3 LP, once a race)"))
    if o.pit:
        parts.append(_("into your pit stand"))
    if o.pit_lane:
        parts.append(_("waits in the pit lane, short of the stand"))
    if o.crossings:
        parts.append(_("crosses the line"))
    if risk:
        parts.append(_("collision check with {vehicles}", vehicles=", ".join(risk)))
    return label[:100], ("; ".join(parts) or _("a clean move"))[:100]


def die_range(gear: int) -> str:
    faces = [int(f) for f in gear_die(gear).faces]
    return f"{min(faces)}–{max(faces)}"


def _choice(state: State, c: engine.Choice) -> Choice:
    a = c.action
    if a.do == "gear":
        gear, faces = gear_name(a.gear or 1), die_range(a.gear or 1)
        if c.lp:
            label = _("{gear} · {faces} (over-rev {lp} LP)", gear=gear, faces=faces, lp=c.lp)
        else:
            label = _("{gear} · {faces}", gear=gear, faces=faces)
        return Choice(a, label, "", piece=a.car)
    if a.do in ("drive", "slipstream") and c.option is not None:
        label, detail = option_text(c.option, collision_risk(state, a.car or "", c.option))
        if a.do == "slipstream":
            label = _("Slipstream to {to} ({lp} LP)", to=c.option.to, lp=c.lp)
        risky = bool(c.option.overshoot or c.option.blocked)
        return Choice(a, label, detail, piece=a.car, target=a.to, short=str(a.to), risky=risky, shows=c.option)
    if a.do == "pit":
        return Choice(a, _("Leave the pits in {gear}", gear=gear_name(a.gear or 1)), "", piece=a.car)
    pending = engine.pending(state)
    label = _("No slipstream") if pending is not None and pending.kind == "slipstream" else _("Stay in the pits")
    return Choice(a, label, "", piece=a.car)


@by_state_identity  # in the language asked for: a label is text (rules.i18n)
def _choices_in(state: State, player: str, language: str) -> list[Choice]:
    return [_choice(state, c) for c in engine.legal_actions(state, player)]


def choices(state: State, player: str) -> list[Choice]:
    return _choices_in(state, player, current())


def _colour(team: str) -> str:
    """A team's colour as the adjective of a car (Czech: neuter, ``červené auto``)."""
    colours = {
        "red": pgettext("car", "red"),
        "blue": pgettext("car", "blue"),
        "green": pgettext("car", "green"),
        "yellow": pgettext("car", "yellow"),
    }
    return colours.get(team, team)


def piece_name_of(car_id: str) -> str:
    """A car as players call it: ``blue-1`` is the blue car 1."""
    team, _sep, number = car_id.partition("-")
    return _("{colour} car {number}", colour=_colour(team), number=number) if number else car_id
