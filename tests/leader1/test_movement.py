"""B.1, B.2, C.1, C.2, C.4: where riders may go and what it costs."""

from __future__ import annotations

import pytest

from rules.action import Action
from rules.errors import IllegalAction, NotYourTurn, WrongPhase
from rules.leader1 import apply, legal_actions, pending
from rules.leader1.moves import ride_options
from tests.leader1.helpers import THREE, act, inline, pass_until_ride, play, record

PLAIN = inline("P" * 40, 36)


def at_turn(riders: dict[str, dict[str, object]], track: object = PLAIN, peloton: int = 5, **kw: object):
    return play(record(track, start={"turn": 3, "peloton": {"at": peloton, "leader": "ann"}, "riders": riders}, **kw))


def squares(state, rider: str) -> set[str]:
    return {o.to for o in ride_options(state, rider)}


def test_moves_are_straight_or_diagonal_never_still_or_sideways() -> None:
    state = at_turn({"yellow-rouleur": {"at": "10.0"}})
    reachable = squares(state, "yellow-rouleur")
    assert "10.1" not in reachable and "10.0" not in reachable  # no sideways move, no standing still
    assert "11.0" in reachable and "11.1" in reachable and "11.2" not in reachable  # one lane per square
    assert "12.2" in reachable
    assert min(int(c.split(".")[0]) for c in reachable) == 11


def test_the_longest_move_is_free_squares_plus_six_paid() -> None:
    state = at_turn({"yellow-rouleur": {"at": "10.1"}})
    rows = {int(c.split(".")[0]) for c in squares(state, "yellow-rouleur")}
    assert max(rows) == 10 + 3 + 6


def test_a_rider_cannot_stop_on_or_pass_through_an_occupied_square() -> None:
    state = at_turn({"yellow-rouleur": {"at": "10.1"}, "blue-rouleur": {"at": "12.1"}, "blue-leader": {"at": "11.1"}})
    # blue riders are ahead and move first; act for them so the yellow rouleur is on move
    state = act(state, "bob ride rider=blue-rouleur to=13.1")
    state = act(state, "bob ride rider=blue-leader to=12.1")
    options = {o.to: o for o in ride_options(state, "yellow-rouleur")}
    assert "12.1" not in options and "13.1" not in options
    assert all("12.1" not in o.via for o in options.values())
    assert options["14.1"].crossings == 0  # around the riders, not through them


def test_blocked_road_is_crossed_paying_one_per_occupied_square() -> None:
    state = at_turn(
        {
            "yellow-rouleur": {"at": "9.1"},
            "blue-rouleur": {"at": "10.0"},
            "blue-leader": {"at": "10.1"},
            "blue-climber": {"at": "10.2"},
        }
    )
    # the blue riders are ahead: move them one square so the road is blocked at row 11
    for rid, to in (("blue-rouleur", "11.0"), ("blue-leader", "11.1"), ("blue-climber", "11.2")):
        state = act(state, f"bob ride rider={rid} to={to}")
    options = {o.to: o for o in ride_options(state, "yellow-rouleur")}
    assert not any(to.startswith("11.") for to in options)
    assert options["12.1"].crossings == 1 and options["12.1"].cost == 1


def test_breakaway_needs_four_squares_ahead_of_the_peloton_front() -> None:
    state = play(record(PLAIN))
    choices = legal_actions(state, "ann")
    rows = {int(c.action.to.split(".")[0]) for c in choices if c.action.do == "breakaway"}
    assert min(rows) == 1 + 4
    with pytest.raises(IllegalAction, match=r"cannot reach 4\.1"):
        apply(state, Action("ann", "breakaway", rider="yellow-rouleur", to="4.1"))


def test_breakaway_uses_the_free_squares_of_the_terrain_at_the_peloton_front() -> None:
    track = inline("P" * 4 + "M" * 36, 36, mountains=[{"row": 4, "category": 3}])
    state = play(record(track, start={"turn": 2, "peloton": {"at": 5, "leader": "ann"}}))
    options = {(c.option.rider, c.option.to): c.option for c in legal_actions(state, "ann") if c.option}
    assert options[("yellow-climber", "9.1")].free == 3 and options[("yellow-climber", "9.1")].cost == 1
    assert options[("yellow-rouleur", "9.1")].free == 1 and options[("yellow-rouleur", "9.1")].cost == 5


def ann_with(quality: str, kind: str) -> list[dict[str, object]]:
    """Ann (yellow) with one rider given a quality, against Bob (blue) without."""
    return [
        {"id": "ann", "team": "yellow", "riders": ["rouleur", "leader", "climber"], quality: kind},
        {"id": "bob", "team": "blue", "riders": ["rouleur", "leader", "climber"]},
    ]


def test_descender_has_an_extra_free_square_on_downhill_only() -> None:
    state = at_turn(
        {"yellow-rouleur": {"at": "12.0"}, "blue-rouleur": {"at": "12.2"}},
        inline("P" * 10 + "D" * 30, 36),
        seating=ann_with("descender", "rouleur"),
    )
    yellow = {o.to: o for o in ride_options(state, "yellow-rouleur")}
    blue = {o.to: o for o in ride_options(state, "blue-rouleur")}
    assert yellow["17.0"].free == 5 and yellow["17.0"].cost == 0
    assert blue["17.2"].free == 4 and blue["17.2"].cost == 1


def test_sprinter_has_an_extra_free_square_in_the_sprint_area() -> None:
    state = at_turn(
        {"yellow-leader": {"at": "21.0"}, "blue-leader": {"at": "21.2"}, "yellow-climber": {"at": "15.1"}},
        inline("P" * 40, 30, sprint=20),
        seating=ann_with("sprinter", "leader"),
    )
    assert {o.to: o for o in ride_options(state, "yellow-leader")}["24.0"].free == 3
    assert {o.to: o for o in ride_options(state, "blue-leader")}["24.2"].free == 2


def test_no_sprint_area_when_the_arrival_is_on_a_mountain_pass() -> None:
    from rules.road import road_from_inline

    assert road_from_inline(inline("P" * 30 + "M" * 10, 34, sprint=25)).sprint is None
    assert road_from_inline(inline("P" * 40, 34, sprint=25)).sprint == 25


def test_crack_risk_counts_only_paid_squares_on_the_mountain_against_its_category() -> None:
    track = inline("P" * 10 + "M" * 30, 36, mountains=[{"row": 10, "category": 1}])
    state = at_turn({"yellow-climber": {"at": "11.1"}}, track)
    options = {o.to: o for o in ride_options(state, "yellow-climber")}
    assert not options["15.1"].crack  # 3 free + 1 paid: within category 1
    assert options["16.1"].crack and options["16.1"].worst_cost == 3 * 3


def test_two_categories_on_one_mountain_the_hardest_crossed_applies() -> None:
    track = inline("P" * 10 + "M" * 30, 36, mountains=[{"row": 10, "category": 3}, {"row": 16, "category": 1}])
    state = at_turn({"yellow-rouleur": {"at": "12.1"}}, track)
    options = {o.to: o for o in ride_options(state, "yellow-rouleur")}
    assert not options["15.1"].crack  # 1 free + 2 paid, all under category 3
    assert options["17.1"].crack  # 4 paid, some under category 1


def test_only_one_fall_risk_per_move_and_none_in_the_free_part() -> None:
    track = inline("P" * 40, 36, fall=["12.1", "13.1", "14.1", "15.1", "16.1"])
    state = at_turn({"yellow-rouleur": {"at": "10.1"}}, track)
    route = ("11.1", "12.1", "13.1", "14.1", "15.1", "16.1")
    free_only = ride_options(state, "yellow-rouleur", route=route[:3])[0]
    assert not free_only.fall
    paid = ride_options(state, "yellow-rouleur", route=route)[0]
    assert paid.fall and paid.risk_count == 1 and paid.worst_cost == 2 * paid.cost


def test_the_default_path_avoids_fall_squares_and_a_via_can_choose_one() -> None:
    track = inline("P" * 40, 36, fall=["15.1"])
    state = at_turn({"yellow-rouleur": {"at": "10.1"}}, track)
    straight = {o.to: o for o in ride_options(state, "yellow-rouleur")}["16.1"]
    assert not straight.fall and "15.1" not in straight.via
    via = ("11.1", "12.1", "13.1", "14.1", "15.1")
    new = act(state, "ann ride rider=yellow-rouleur to=16.1 via=" + ",".join(via))
    assert any(e.type == "rolled" and e.data.get("risk") == "fall" for e in new.events)


def test_risk_thresholds_rise_5_8_11() -> None:
    track = inline("P" * 10 + "M" * 30, 36, mountains=[{"row": 10, "category": 1}])
    for risks, need in ((0, 5), (1, 8), (2, 11), (5, 11)):
        state = at_turn({"yellow-rouleur": {"at": "11.1", "risks": risks}}, track, dice={"events": [need]})
        new = act(state, "ann ride rider=yellow-rouleur to=15.1")
        rolled = next(e for e in new.events if e.type == "rolled" and e.data.get("risk") == "crack")
        assert rolled.data["need"] == need
        assert new.rider("yellow-rouleur").energy == 40 - 5  # the roll met the need: normal price


def test_only_the_rider_to_move_may_ride_and_only_its_owner() -> None:
    state = at_turn({"yellow-rouleur": {"at": "12.1"}, "blue-rouleur": {"at": "10.1"}}, seating=THREE[:2])
    with pytest.raises(NotYourTurn):
        apply(state, Action("bob", "ride", rider="blue-rouleur", to="11.1"))
    with pytest.raises(NotYourTurn):
        apply(state, Action("ann", "ride", rider="blue-rouleur", to="11.1"))
    with pytest.raises(WrongPhase, match="allowed: ride"):
        apply(state, Action("ann", "pursue"))
    assert pending(state).rider == "yellow-rouleur"


def test_slipstream_needs_the_rider_exactly_behind() -> None:
    state = at_turn({"yellow-leader": {"at": "12.1"}, "blue-rouleur": {"at": "11.0"}, "blue-leader": {"at": "11.1"}})
    state = act(state, "ann ride rider=yellow-leader to=14.1")
    assert state.rider("blue-leader").slipstream
    assert not state.rider("blue-rouleur").slipstream  # diagonal behind is not behind


def test_slipstream_is_cut_by_a_move_of_six_from_a_plain() -> None:
    state = at_turn({"yellow-leader": {"at": "12.1"}, "blue-leader": {"at": "11.1"}})
    state = act(state, "ann ride rider=yellow-leader to=18.1")
    assert not state.rider("blue-leader").slipstream
    state2 = at_turn({"yellow-leader": {"at": "12.1"}, "blue-leader": {"at": "11.1"}})
    state2 = act(state2, "ann ride rider=yellow-leader to=17.1")
    assert state2.rider("blue-leader").slipstream


def test_slipstream_is_lost_when_the_front_rider_falls() -> None:
    track = inline("P" * 40, 36, fall=["16.0", "16.1", "16.2"])
    state = at_turn({"yellow-leader": {"at": "12.1"}, "blue-leader": {"at": "11.1"}}, track, dice={"events": [1]})
    state = act(state, "ann ride rider=yellow-leader to=17.1")
    assert state.rider("yellow-leader").status == "fallen"
    assert not state.rider("blue-leader").slipstream


def test_a_fallen_rider_skips_a_turn_then_rides_from_where_it_fell() -> None:
    track = inline("P" * 40, 36, fall=["16.0", "16.1", "16.2"])
    state = at_turn({"yellow-leader": {"at": "12.1"}}, track, dice={"events": [1], "peloton": [3, 3, 3]})
    state = act(state, "ann ride rider=yellow-leader to=17.1")
    state = pass_until_ride(act(state, "ann pass"))  # turn 3 ends; in turn 4 the fallen rider sits out
    assert state.turn == 5 and pending(state).rider == "yellow-leader"
    assert state.rider("yellow-leader").status == "fallen"
    assert {o.to for o in ride_options(state, "yellow-leader")} >= {"18.1", "18.0"}
    state = act(state, "ann ride rider=yellow-leader to=18.1")
    assert state.rider("yellow-leader").status == "breakaway"


def test_a_rider_cannot_risk_without_the_energy_to_pay_for_failure() -> None:
    track = inline("P" * 40, 36, fall=["15.0", "15.1", "15.2"])
    state = at_turn({"yellow-rouleur": {"at": "10.1", "energy": 5}}, track)
    options = {o.to: o for o in ride_options(state, "yellow-rouleur")}
    assert "15.1" not in options  # 3 free + 2 paid = 3, but a fall would cost 6
    assert "14.1" in options


def test_recovery_for_unused_free_squares() -> None:
    state = at_turn({"yellow-rouleur": {"at": "10.1", "energy": 20}})
    state = act(state, "ann ride rider=yellow-rouleur to=11.1")
    assert state.rider("yellow-rouleur").energy == 22
