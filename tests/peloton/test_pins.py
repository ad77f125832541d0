"""Peloton's numbers and rules that no other test pinned: each test breaks when its rule does
(a rules review changed each rule in turn and every other Peloton test still passed)."""

from __future__ import annotations

from typing import Any

from rules.action import Action
from rules.peloton import engine
from rules.peloton.course import build_course
from rules.peloton.engine import apply, build, dial_options, pending, relative_wind, rides
from rules.peloton.view import public_view
from tests.peloton.test_rules import ITT, LEVEL, course, race, ride_to, set_dial


def test_the_wind_is_the_w_of_the_two_highest_numbered_cards_left() -> None:
    """R-PEL-CARDS: 13, 1 and 7 taken; left 2-6, 8-12: cards 11 (W 0) and 12 (W 1) make wind 1
    (the two lowest, 2 and 3, would make 3)."""
    players = [{"id": "a", "team": "grey", "cyclists": 2}, {"id": "b", "team": "red", "cyclists": 1}]
    s = build({"track": ITT, "players": players})
    for n in (13, 1, 7):
        d = pending(s)
        assert d is not None
        s, _ = apply(s, Action(d.player, "card", cyclist=d.cyclist, card=n))
    assert s.wind == 1


def test_the_first_third_checkpoint_expects_position_ten_of_fifteen() -> None:
    """R-PEL-CHECKPOINTS: "or with the thirds (position 10 and 5)": 8 left at the first third costs 2 more."""
    track = course(
        [{"hexagons": 25}, {"hexagons": 25, "checkpoint": True}, {"hexagons": 25, "checkpoint": True}], "itt", 2
    )
    first = build_course(track).checkpoints[0]
    s = race(track, {"1": {"at": f"{first - 2}.0", "energy": 8}}, teams=1, per_team=1, options={"wind": 0})
    s = set_dial(s, 0)
    s = ride_to(s, f"{first + 6}.0")
    assert s.cyclist("1").energy == 6


def _finish_two(track: dict[str, Any]) -> dict[str, Any]:
    line = build_course(track).finish
    s = race(track, {"1": {"at": f"{line - 2}.0"}, "4": {"at": f"{line - 4}.0"}}, per_team=1)
    s = set_dial(s, 0)
    s = ride_to(s, f"{line + 4}.0")
    s = set_dial(s, 0)
    s = ride_to(s, f"{line + 2}.0")
    return public_view(s)["classifications"]


def test_the_finish_of_a_leg_scores_15_then_12() -> None:
    """R-PEL-BONUS-POINTS: the finish gives 15, 12, 10 ... points."""
    assert _finish_two(course([{"hexagons": 10}]))["points"] == {"1": 15, "4": 12}


def test_a_green_line_scores_the_mountains_and_the_third_across_gets_one() -> None:
    """R-PEL-BONUS-POINTS: 5, 3, 1 to the first three; a green (uphill) line counts for the mountains only."""
    track = course([{"hexagons": 20}, {"hexagons": 20, "bonus": "uphill"}])
    line = build_course(track).bonuses[0].at
    placed = {"1": {"at": f"{line - 1}.1"}, "4": {"at": f"{line - 2}.0"}, "7": {"at": f"{line - 2}.2"}}
    s = race(track, placed, teams=3, per_team=1)
    for to in (f"{line + 5}.1", f"{line + 4}.0", f"{line + 4}.2"):
        s = set_dial(s, 0)
        s = ride_to(s, to)
    table = public_view(s)["classifications"]
    assert table["mountains"] == {"1": 5, "4": 3, "7": 1} and table["points"] == {}


def test_a_league_leg_may_borrow_five_points_of_the_next_leg() -> None:
    """II.5, R-PEL-LEAGUE: with nothing left, a leg of a league may still accelerate on the red positions."""
    s = race(LEVEL, {"1": {"at": "40.0", "energy": 0}}, teams=1, per_team=1, options={"borrow": True})
    assert [o.position for o in dial_options(s, s.cyclist("1"))] == [0, 1, 2, 3, 4]
    assert set_dial(s, 1).cyclist("1").energy == -1


def test_a_fallen_cyclist_blocks_its_hexagon_while_it_lies() -> None:
    """II.6: the piece is laid down on its hexagon; nobody rides through it."""
    narrow = course([{"hexagons": 40}], width=2)
    s = race(narrow, {"1": {"at": "41.1"}, "4": {"at": "39.1"}}, per_team=1)
    s = set_dial(s, 0)
    d = pending(s)
    assert d is not None
    s, _ = apply(s, Action(d.player, "ride", cyclist="1", to="43.1", via=("42.0",)))  # a swerve: it falls
    assert s.cyclist("1").status == "lying"
    s = set_dial(s, 0)
    assert all("43.1" not in (*r.via, r.to) for r in rides(s, s.cyclist("4")))


def test_team_trial_side_wind_tandem_is_crosswise_against_it_and_without_it_straight_behind() -> None:
    """VI.2 a (picture 16a) and b (16b) on a straight."""
    ttt = course([{"hexagons": 60}], "ttt", 3)
    placed = {"1": {"at": "40.0"}, "2": {"at": "39.1"}, "3": {"at": "37.1"}}
    side = race(ttt, placed, teams=1, options={"wind": 1, "cards": False})  # from the north: the left
    calm = race(ttt, placed, teams=1, options={"wind": 0, "cards": False})
    assert (side.tandem, calm.tandem) == ({"2"}, {"3"})


def test_a_team_trial_cyclist_gets_its_cards_energy() -> None:
    """VI with V: the cards' E counts in the team trial too (card 1: E +2 on 20)."""
    s = build({"track": course([{"hexagons": 100}], "ttt"), "players": [{"id": "a", "team": "grey"}]})
    s, _ = apply(s, Action("a", "card", cyclist="1", card=1))
    assert s.cyclist("1").energy == 22


def test_team_trial_teams_start_three_moves_apart_by_default() -> None:
    """R-PEL-TTT: "the starting intervals are 2 - 3 moves"; 3 unless the option says 2."""
    players = [{"id": "a", "team": "grey"}, {"id": "b", "team": "red"}]
    s = build({"track": course([{"hexagons": 100}], "ttt"), "players": players, "options": {"cards": False}})
    assert [c.start_round for c in s.cyclists if c.team == "red"] == [4, 4, 4]


def test_a_wind_60_degrees_off_the_nose_is_a_side_wind() -> None:
    """R-PEL-WIND: a headwind is within 30 degrees of the heading; after a left turning the road heads
    60 degrees from east, so wind 2 (from the east) comes from the right."""
    track = course([{"hexagons": 10}, {"turn": "left", "hexagons": 2}, {"hexagons": 20}])
    after = build_course(track).turnings[0].last + 8
    s = race(track, {"1": {"at": f"{after}.1"}}, teams=1, per_team=1, options={"wind": 2})
    assert relative_wind(s, f"{after}.1") == "right" and engine.basic_speed(s, s.cyclist("1")) == 3
