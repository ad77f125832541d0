"""The replay output of a Peloton race: nothing hidden."""

from __future__ import annotations

from rules.peloton import time_bonuses, timing
from rules.peloton.engine import pending
from rules.peloton.model import DIAL, State
from rules.peloton.standings import classifications


def cyclist_view(state: State, cid: str) -> dict[str, object]:
    c = state.cyclist(cid)
    out: dict[str, object] = {
        "player": c.player,
        "team": c.team,
        "at": c.cell,
        "dial": c.dial,
        "acceleration": DIAL[c.dial],
        "energy": c.energy,
        "status": c.status,
        "tandem": c.id in state.tandem,
    }
    if c.card is not None:
        out["card"] = c.card
    if c.start_round != 1:
        out["start_round"] = c.start_round
    if c.finish_round is not None:
        out["finish_round"] = c.finish_round
        out["past"] = c.past
        if state.discipline == "leg":
            rel, total = timing.relative(state, c), timing.leg_total(state, c)
            out["time"] = timing.gap(rel) if rel is not None else None
            out["group_time"] = timing.hours(total) if total is not None else None
            if time_bonuses.on(state):  # the race option (R-PEL-BONUS-POINTS): the leg's time less the bonuses
                out["time_bonus"] = time_bonuses.seconds(state, c)
                out["leg_time"] = timing.hours(time_bonuses.leg_time(state, c) or 0)
        elif state.discipline == "itt":
            t = timing.individual(state, c)
            out["time"] = timing.clock(t) if t is not None else None
    return out


def public_view(state: State) -> dict[str, object]:
    d = pending(state)
    view: dict[str, object] = {
        "game": "peloton",
        "discipline": state.discipline,
        "course": state.course.name,
        "round": state.round,
        "phase": state.phase,
        "wind": state.wind,
        "to_act": d.player if d else None,
        "decision": d.kind if d else None,
        "cyclist_to_act": d.cyclist if d else None,
        "order": list(state.queue),
        "cyclists": {c.id: cyclist_view(state, c.id) for c in state.cyclists},
        "arrived": list(state.arrivals),
        "classifications": classifications(state),
        "events": [e.to_json() for e in state.events],
    }
    if state.discipline == "ttt":
        teams = {c.team for c in state.cyclists}
        view["team_times"] = {
            t: (timing.clock(v) if (v := timing.team(state, t)) is not None else None) for t in sorted(teams)
        }
    return view
