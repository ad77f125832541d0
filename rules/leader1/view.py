"""The public view of a Leader 1 race: the JSON that `domestique replay` prints.

Kept feed tiles appear only as a count: their values are the owner's secret. So do the feed
piles: what is left in them would tell what was drawn.
"""

from __future__ import annotations

from rules.leader1 import family
from rules.leader1.engine import pending
from rules.leader1.model import State
from rules.leader1.order import arrival_order, classification


def public_view(state: State) -> dict[str, object]:
    decision = pending(state)
    riders = {r.id: family.rider_view(r) for r in state.riders}
    return {
        "game": "leader1",
        "turn": state.turn,
        "phase": state.phase,
        "to_act": decision.player if decision else None,
        "rider_to_act": decision.rider if decision else None,
        "riders": riders,
        "peloton": {"at": state.peloton, "leader": state.setup.players[state.token].id},
        "classification": [r.id for r in classification(state)],
        "arrived": [r.id for r in arrival_order(state)],
        "bonus": [{"row": row, "rider": rid} for row, rid in state.bonus_won],
        "piles": {colour: len(tiles) for colour, tiles in state.piles},
        "events": [e.to_json() for e in state.events],
    }
