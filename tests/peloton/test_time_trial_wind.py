"""R-PEL-HEADWIND in time trials: "The cyclists gain no advantage from riding tandem in a
time-trial!" (V). Headwind costs "a lone cyclist or a leading cyclist" 1 more point for
acceleration (IV.1): in an individual time trial every cyclist is lone; in a team time trial only
a team-mate it follows shelters it, never a rival."""

from __future__ import annotations

from typing import Any

from rules.peloton.engine import build, dial_options
from rules.peloton.model import State

# wind 2 blows from the east, the road heads east: a headwind all along
ITT = {"discipline": "itt", "width": 3, "segments": [{"hexagons": 40, "terrain": "level"}]}
TTT = {"discipline": "ttt", "width": 3, "segments": [{"hexagons": 40, "terrain": "level"}]}
LEG = {"discipline": "leg", "width": 3, "segments": [{"hexagons": 40, "terrain": "level"}]}


def _race(track: dict[str, Any], cyclists: dict[str, dict[str, Any]], per_team: int) -> State:
    players = [{"id": f"p{i}", "team": ("grey", "red")[i], "cyclists": per_team} for i in range(2)]
    return build(
        {
            "track": track,
            "players": players,
            "options": {"wind": 2, "cards": False},
            "start": {"round": 9, "cyclists": cyclists},
        }
    )


def _plus_one(state: State, cid: str) -> int:
    return {o.position: o.cost for o in dial_options(state, state.cyclist(cid))}[1]


def test_an_individual_time_trial_rider_behind_one_it_caught_pays_the_headwind() -> None:
    s = _race(ITT, {"1": {"at": "40.0", "energy": 10}, "4": {"at": "38.0", "energy": 10}}, per_team=1)
    assert _plus_one(s, "1") == 2  # the leading cyclist
    assert _plus_one(s, "4") == 2  # straight behind no. 1, but on its own in a time trial


def test_a_team_time_trial_rider_is_sheltered_by_a_team_mate_only() -> None:
    cyclists = {
        "1": {"at": "40.0", "energy": 10},
        "2": {"at": "38.0", "energy": 10},  # straight behind its team-mate no. 1
        "4": {"at": "40.2", "energy": 10},
        "5": {"at": "38.2", "energy": 10},  # straight behind its team-mate no. 4
    }
    s = _race(TTT, cyclists, per_team=2)
    assert _plus_one(s, "2") == 1 and _plus_one(s, "5") == 1
    assert _plus_one(s, "1") == 2 and _plus_one(s, "4") == 2
    # behind a rival's cyclist: no. 4 (red) right behind no. 1 (grey) gains nothing
    s = _race(TTT, {"1": {"at": "40.0", "energy": 10}, "4": {"at": "38.0", "energy": 10}}, per_team=2)
    assert _plus_one(s, "4") == 2


def test_a_leg_race_still_shelters_behind_anybody() -> None:
    s = _race(LEG, {"1": {"at": "40.0", "energy": 10}, "4": {"at": "38.0", "energy": 10}}, per_team=1)
    assert _plus_one(s, "1") == 2 and _plus_one(s, "4") == 1
