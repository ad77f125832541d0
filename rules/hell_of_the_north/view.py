"""The public view of a Hell of the North race: the JSON that `domestique replay` prints.

Kept feed tiles appear only as a count, face-down weather markers as ``hidden``.
"""

from __future__ import annotations

from rules.hell_of_the_north.engine import pending
from rules.hell_of_the_north.model import GAME_ID, State
from rules.hell_of_the_north.order import arrival_order, classification
from rules.leader1 import family


def public_view(state: State) -> dict[str, object]:
    decision = pending(state)
    riders = {r.id: {**family.rider_view(r), "part": r.part, "quality": r.quality} for r in state.riders}
    return {
        "game": GAME_ID,
        "turn": state.turn,
        "phase": state.phase,
        "to_act": decision.player if decision else None,
        "rider_to_act": decision.rider if decision else None,
        "riders": riders,
        "peloton": {"at": state.peloton, "order": list(state.order)},
        "pursuits": dict(state.pursuits),
        "weather": {str(row): marker or "hidden" for row, marker in state.weather},
        "classification": [r.id for r in classification(state)],
        "arrived": [r.id for r in arrival_order(state)],
        "bonus": [{"row": row, "rider": rid} for row, rid in state.bonus_won],
        "events": [e.to_json() for e in state.events],
    }
