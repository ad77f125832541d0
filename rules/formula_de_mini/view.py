"""The public view of a Formula Dé Mini race (the JSON `domestique replay` prints)."""

from __future__ import annotations

from rules.formula_de_mini.engine import pending
from rules.formula_de_mini.model import State


def public_view(state: State) -> dict[str, object]:
    decision = pending(state)
    return {
        "game": "formula-de-mini",
        "turn": state.turn,
        "phase": "finished" if state.finished else (decision.kind if decision else "automatic"),
        "to_act": decision.player if decision else None,
        "car_to_act": decision.car if decision else None,
        "cars": {
            c.id: {
                "at": c.cell,
                "gear": c.gear,
                "lp": c.lp,
                "lap": c.lap,
                "status": c.status,
                "player": c.player,
                "stops": c.stops,
                "turbo_used": c.turbo_used,
                "pitted": c.pitted,
            }
            for c in state.cars
        },
        "arrived": list(state.arrivals),
        "events": [e.to_json() for e in state.events],
    }
