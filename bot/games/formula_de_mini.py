"""Formula Dé Mini in the bot: seats (one or two cars, a livery each), gear buttons with their
over-rev cost, the automatic roll, end squares with every consequence, slipstreams, pits."""

from __future__ import annotations

from typing import Any

from bot.games.base import own_colour
from bot.views_model import ChoiceView
from renderer.circuit_board import render_circuit
from rules.action import Action
from rules.formula_de_mini import ai
from rules.formula_de_mini.engine import Choice, legal_actions, pending
from rules.formula_de_mini.model import TEAMS, State
from rules.formula_de_mini.moves import MoveOption
from rules.leader1.model import Event

GEAR_NAMES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}


def collision_risk(state: State, car_id: str, o: MoveOption) -> list[str]:
    """Cars the move would stop beside or behind (each rolls the black die, then the mover)."""
    from dataclasses import replace

    from rules.formula_de_mini.engine import _neighbours

    if o.pit:
        return []
    probe = replace(state.car(car_id), cell=o.to)
    return [c.id for c in _neighbours(state, probe)]


def option_text(o: MoveOption, risk: list[str] | None = None) -> tuple[str, str]:
    cost = o.brake + o.overshoot + o.blocked + (3 if o.turbo else 0)
    label = f"{o.to} · {o.spaces} sp · " + (f"-{cost} LP" if cost else "no LP")
    parts = []
    if o.brake:
        parts.append(f"brake {o.brake}")
    if o.blocked:
        parts.append(f"blocked {o.blocked}" + (" (out)" if o.blocked >= 7 else ""))
    if o.overshoot:
        parts.append(f"overshoot {o.overshoot}")
        label += " · OVERSHOOT"
    if o.turbo:
        parts.append("turbo (3 LP, once a race)")
    if o.pit:
        parts.append("into your pit stand")
    if o.crossings:
        parts.append("crosses the line")
    if risk:
        parts.append(f"collision check with {', '.join(risk)}")
    return label[:100], ("; ".join(parts) or "a clean move")[:100]


class FormulaDeMiniAdapter:
    id = "formula-de-mini"
    max_riders = 2
    piece = "car"
    teams = TEAMS

    def probe_players(self) -> list[dict[str, Any]]:
        return [{"id": "a", "team": "red"}, {"id": "b", "team": "blue"}]

    def seat(self, seats: list[dict[str, Any]], riders: int, team: str | None) -> tuple[str, list[str]]:
        return own_colour(seats, TEAMS, team), [str(n + 1) for n in range(min(max(riders, 1), 2))]

    def players(self, lobby: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"id": s["player"], "name": s["name"][:32], "team": s["team"], "cars": len(s.get("kinds") or ["1"])}
            for s in lobby["seats"]
        ]

    def check_lobby(self, lobby: dict[str, Any]) -> str | None:
        cars = sum(len(s.get("kinds") or ["1"]) for s in lobby["seats"])
        if not 2 <= cars <= 8:
            return f"A race has 2 to 8 cars; there are {cars}. Add AI drivers or invite friends."
        return None

    def choice_views(self, state: State, player: str) -> tuple[str, str | None, list[ChoiceView]]:
        decision = pending(state)
        assert decision is not None and decision.player == player
        views = [v for i, c in enumerate(legal_actions(state, player)) if (v := self._view(state, i, c)) is not None]
        kind = "ride" if decision.kind in ("move", "slipstream") else "buttons"
        return kind, decision.car, views

    def _view(self, state: State, index: int, choice: Choice) -> ChoiceView | None:
        a = choice.action
        if a.do == "gear":
            cost = f" (over-rev {choice.lp} LP)" if choice.lp else ""
            return ChoiceView(index, "gear", f"{GEAR_NAMES[a.gear or 1]} gear{cost}", "", a.car)
        if a.do in ("drive", "slipstream") and choice.option is not None:
            label, description = option_text(choice.option, collision_risk(state, a.car or "", choice.option))
            if a.do == "slipstream":
                label = f"Slipstream to {choice.option.to} (1 LP)"
            risky = bool(choice.option.overshoot or choice.option.blocked)
            return ChoiceView(index, "ride", label, description, a.car, risky, a.to)
        if a.do == "pit":
            return ChoiceView(index, "pit", f"Leave the pits in {GEAR_NAMES[a.gear or 1]}", "", a.car)
        if a.do == "pass":
            return ChoiceView(index, "pass", "No slipstream" if choice.option is None else "Pass", "", a.car)
        return None

    def ask(self, state: State, who: str) -> str:
        decision = pending(state)
        assert decision is not None
        moving = state.moving
        texts = {
            "gear": f"{who}, choose a gear for **{decision.car}** (round {state.turn}).",
            "move": f"{who}, **{decision.car}** rolled {moving.roll if moving else '?'}: choose where to stop.",
            "slipstream": f"{who}, **{decision.car}** is right behind a car: slipstream (+3 spaces, 1 LP)?",
            "pit-exit": f"{who}, **{decision.car}** may leave the pits with {moving.roll if moving else '?'} LP.",
        }
        return texts[decision.kind]

    def highlight(self, state: State) -> str | None:
        decision = pending(state)
        return decision.car if decision is not None and decision.kind in ("move", "slipstream") else None

    def ai_action(self, state: State, player: str, *, safe: bool) -> Action:
        return ai.choose(state, player)

    def board(self, state: State, *, highlight_rider: str | None, title: str, alliances: list[str]) -> bytes:
        highlight = None
        if highlight_rider is not None:
            decision = pending(state)
            if decision is not None:
                highlight = [c.option for c in legal_actions(state, decision.player) if c.option is not None]
        return render_circuit(state, highlight=highlight, title=title)

    def turn_summary(self, state: State, events: list[Event]) -> list[str]:
        return [line for e in events if (line := describe(e))]

    def announcements(self, events: list[Event]) -> list[str]:
        return []

    def status_lines(self, state: State) -> list[str]:
        return [
            f"{c.id} ({c.player}): {c.status} at {c.cell}, lap {c.lap}, gear {c.gear}, {c.lp} LP" for c in state.cars
        ]

    def hidden_draws(self, before: State, after: State, events: list[Event]) -> list[tuple[str, str]]:
        return []

    def hand(self, state: State, player: str) -> list[str]:
        return [
            f"{c.id}: {c.lp} LP, gear {c.gear}, turbo {'used' if c.turbo_used else 'available'}, "
            f"pit stop {'made' if c.pitted else 'to come'}"
            for c in state.cars
            if c.player == player
        ]

    def export_leaks(self, state: State, requester: str | None) -> bool:
        return False  # nothing is hidden in Formula Dé Mini

    def result_lines(self, state: State) -> list[str]:
        lines = [f"{rank}. {cid}" for rank, cid in enumerate(state.arrivals, start=1)]
        return lines + [f"— {c.id} eliminated" for c in state.cars if c.status == "eliminated"]

    def rider_choices(self, state: State, player: str) -> list[str]:
        return [c.id for c in state.cars if c.player == player and c.status not in ("finished", "eliminated")]


def describe(e: Event) -> str | None:
    d = e.data
    car = d.get("car", "")
    texts = {
        "drive": f"{car} drives {d.get('spaces')} to {d.get('to')}"
        + "".join(f", {k} {d[k]}" for k in ("brake", "blocked", "overshoot") if d.get(k))
        + (", turbo" if d.get("turbo") else ""),
        "gear": f"{car} in {GEAR_NAMES.get(int(d.get('gear', 1)), '?')}"
        + (f" (over-rev {d['over_rev']} LP)" if d.get("over_rev") else ""),
        "slipstream": f"{car} slipstreams to {d.get('to')}",
        "lost": f"{car} loses {d.get('lp')} LP ({d.get('reason')})",
        "eliminated": f"{car} is out ({d.get('reason')})",
        "spun": f"{car} spins out",
        "stalled": f"{car} stalls on the grid",
        "flying-start": f"{car} makes a flying start",
        "pitted": f"{car} pits",
        "left-pits": f"{car} leaves the pits with {d.get('lp')} LP",
        "finished-race": f"{car} finishes, place {d.get('place')}",
    }
    if e.type == "rolled" and str(d.get("die", "")).startswith("gear"):
        return f"{car} rolls {d.get('value')}"
    return texts.get(e.type)


FORMULA_DE_MINI = FormulaDeMiniAdapter()
