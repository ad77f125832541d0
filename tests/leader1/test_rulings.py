"""Leader 1 rulings that no other test reached (docs/rulings.md R-DROP-PLACE, R-PELOTON-DIE,
R-CRACK-NO-TOKEN, R-INLINE-ENERGY)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules.errors import MalformedRecord
from rules.leader1.dice import PELOTON
from rules.leader1.game import GAME
from rules.leader1.model import State
from rules.leader1.moves import ride_options
from rules.leader1.versions import VERSIONS
from rules.record import parse_record
from rules.road import road_from_inline
from tests.leader1.helpers import inline, play, record

DICE = Path(__file__).parents[2] / "data" / "leader1" / "dice.json"
PLAIN = inline("P" * 40, 36)


def _peloton_moves_5_from_7(riders: dict[str, dict[str, Any]], *first: dict[str, Any]) -> State:
    """Turn 3, peloton on row 7: ``first`` actions, then everyone passes and the peloton moves 5 to row 12."""
    passes = [{"by": "ann", "do": "pass"}, {"by": "bob", "do": "pass"}, {"by": "ann", "do": "pass"}]
    start = {"turn": 3, "peloton": {"at": 7, "leader": "ann"}, "riders": riders}
    data = record(PLAIN, start=start, dice={"peloton": [5]}, actions=[*first, *passes]).to_json()
    state = play(parse_record({**data, "rules": VERSIONS.newest.name}))  # R-PELOTON-PASSES in force
    assert state.peloton == 12
    return state


def test_a_rider_out_of_the_peloton_takes_the_first_free_square_behind_it_from_lane_0() -> None:
    # R-DROP-PLACE: a rider leaving the peloton has no lane of its own; the row behind the peloton's
    # back row is 10, and its lane 0 comes first (Hell of the North starts from the middle lane)
    drop = {"by": "ann", "do": "drop", "rider": "yellow-leader"}
    assert _peloton_moves_5_from_7({}, drop).rider("yellow-leader").cell == "10.0"
    taken = {"blue-climber": {"status": "punctured", "at": "10.0"}}  # the peloton passes it: it stays
    assert _peloton_moves_5_from_7(taken, drop).rider("yellow-leader").cell == "10.1"


def test_a_punctured_rider_the_peloton_lands_on_goes_behind_it_in_the_lane_nearest_its_own() -> None:
    # R-DROP-PLACE, R-PELOTON-PASSES: on the peloton's new front row, lane 2 -> row 10, lane 2
    state = _peloton_moves_5_from_7({"blue-climber": {"status": "punctured", "at": "12.2"}})
    assert state.rider("blue-climber").cell == "10.2"


def test_the_peloton_die_has_four_3s_four_4s_three_5s_and_a_red_face_that_moves_4() -> None:
    # R-PELOTON-DIE: the faces the data file gives are the die's, and the red face moves the peloton 4
    faces = json.loads(DICE.read_text(encoding="utf-8"))["dice"]["peloton"]
    assert Counter(PELOTON.faces) == Counter(faces) == Counter({3: 4, 4: 4, 5: 3, "red": 1})
    start = {"turn": 3, "peloton": {"at": 7, "leader": "ann"}}
    passes = [{"by": "ann", "do": "pass"}, {"by": "bob", "do": "pass"}, {"by": "ann", "do": "pass"}]
    state = play(record(PLAIN, start=start, dice={"peloton": ["red"], "events": [12] * 6}, actions=passes))
    assert state.peloton == 7 + 4


def test_a_pass_row_with_no_category_token_carries_no_crack_limit() -> None:
    # R-CRACK-NO-TOKEN: the same mountain with a category-1 token cracks a long paid climb; without one it never does
    start = {"turn": 3, "peloton": {"at": 5, "leader": "ann"}, "riders": {"yellow-climber": {"at": "11.1"}}}
    with_token = inline("P" * 10 + "M" * 30, 36, mountains=[{"row": 10, "category": 1}])
    without = inline("P" * 10 + "M" * 30, 36)
    cracked = {o.to for o in ride_options(play(record(with_token, start=start)), "yellow-climber") if o.crack}
    assert "17.1" in cracked
    assert not any(o.crack for o in ride_options(play(record(without, start=start)), "yellow-climber"))


def test_an_inline_road_without_energy_gives_5_per_6_rows() -> None:
    # R-INLINE-ENERGY: no milestones on an inline road; 5 energy for every 6 rows (a part row counts)
    for rows in (36, 37, 40):
        track = {"lanes": 3, "profile": "P" * rows, "finish": rows - 4}
        energy = 5 * ((rows + 5) // 6)
        assert road_from_inline(track).energy == energy
        assert {r.energy for r in play(record(track)).riders} == {energy}


def test_bunch_finish_takes_token_or_energy_and_refuses_anything_else() -> None:
    # R-PELOTON-ARRIVES's race option: offered in the lobby, kept in the record, a bad value refused in a line
    option = next(o for o in GAME.race_options if o.name == "bunch_finish")
    assert option.values == ("token", "energy") and option.value(" Energy ") == "energy"
    with pytest.raises(ValueError, match=r"^bunch finish: one of in peloton order, most energy left first\.$"):
        option.value("sprint")
    assert play(record(PLAIN, options={"bunch_finish": "energy"})).setup.options.bunch_finish == "energy"
    assert play(record(PLAIN)).setup.options.bunch_finish == "token"
    refused = r"^\$\.options\.bunch_finish: expected one of token, energy, got .sprint.$"
    with pytest.raises(MalformedRecord, match=refused):
        play(record(PLAIN, options={"bunch_finish": "sprint"}))
