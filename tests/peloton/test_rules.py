"""Peloton's rules one by one, each on a small inline course (rulings R-PEL-*)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rules.action import Action
from rules.errors import IllegalAction, InvalidSetup, MalformedRecord
from rules.peloton import engine
from rules.peloton.cards import CARDS, wind_of
from rules.peloton.course import build_course, load_course, random_course_data, split
from rules.peloton.engine import apply, build, dial_options, legal_actions, move_order, pending, rides, speed_range
from rules.peloton.model import State


def course(segments: list[dict[str, Any]], discipline: str = "leg", width: int = 3, **extra: Any) -> dict[str, Any]:
    return {"discipline": discipline, "width": width, "segments": segments, **extra}


LEVEL = course([{"hexagons": 40, "terrain": "level"}])


def race(
    track: dict[str, Any],
    cyclists: dict[str, dict[str, Any]],
    *,
    teams: int = 2,
    per_team: int = 3,
    options: dict[str, Any] | None = None,
    rnd: int = 5,
) -> State:
    players = [{"id": f"p{i}", "team": ("grey", "red", "blue", "green")[i], "cyclists": per_team} for i in range(teams)]
    # cyclists not placed wait off the road far behind: put them in the start area's back strips
    return build(
        {"track": track, "players": players, "options": options or {}, "start": {"round": rnd, "cyclists": cyclists}}
    )


def set_dial(state: State, position: int) -> State:
    d = pending(state)
    assert d is not None and d.kind == "dial", d
    action = next(o.action for o in legal_actions(state, d.player) if o.action.get("dial") == position)
    return apply(state, action)[0]


def ride_to(state: State, to: str) -> State:
    d = pending(state)
    assert d is not None and d.kind == "ride", d
    action = next((o.action for o in legal_actions(state, d.player) if o.action.get("to") == to), None)
    assert action is not None, [o.action.get("to") for o in legal_actions(state, d.player)]
    return apply(state, action)[0]


# ---------------------------------------------------------------- the road


def test_cells_have_two_or_three_forward_neighbours_and_strips_are_indented() -> None:
    c = build_course(LEVEL)
    assert [d for d, _ in c.forward("20.1")] == ["left", "straight", "right"]
    assert c.forward("20.0") == [("straight", "22.0"), ("right", "21.1")]
    assert c.forward("20.2") == [("left", "21.1"), ("straight", "22.2")]
    assert not c.has("20.1") and c.has("21.1")  # a lane's cells alternate with its neighbours'
    assert all((split(x)[0] - split(x)[1]) % 2 == 0 for x in c.cells())


def test_terrain_turnings_bonus_and_finish_come_from_the_segments() -> None:
    c = build_course(
        course(
            [
                {"hexagons": 5},
                {"hexagons": 3, "terrain": "up"},
                {"turn": "right"},
                {"hexagons": 2, "terrain": "down", "bonus": "uphill"},
            ]
        )
    )
    assert c.hexagons == 12 and c.finish == c.start + 24
    assert c.terrain_at(c.start + 10) == "up" and c.terrain_at(c.start + 9) == "level"
    t = c.turning_at(c.start + 16)
    assert t is not None and t.side == "right"
    assert [t.limit(lane, 3) for lane in range(3)] == [7, 5, 4]  # inside lane (right) is the tightest trail
    assert c.bonuses[0].kind == "uphill" and c.bonuses[0].at == c.start + 20


@pytest.mark.parametrize(
    "bad, path",
    [
        ({"segments": []}, "$.track.segments"),
        ({"segments": [{"hexagons": 3, "terrain": "steep"}]}, "$.track.segments[0].terrain"),
        ({"width": 9, "segments": [{"hexagons": 3}]}, "$.track.width"),
        ({"segments": [{"hexagons": 3, "slope": 1}]}, "$.track.segments[0].slope"),
        ({"discipline": "crit", "segments": [{"hexagons": 3}]}, "$.track.discipline"),
    ],
)
def test_course_format_errors_name_their_path(bad: dict[str, Any], path: str) -> None:
    with pytest.raises(MalformedRecord) as err:
        build_course(bad)
    assert err.value.path == path


def test_shipped_courses_have_the_books_lengths_and_energies() -> None:
    assert load_course("leg-bohemia").hexagons >= 100
    for name, hexagons, energy, checkpoints in (("itt-25", 25, 5, 0), ("itt-50", 50, 10, 1), ("itt-75", 75, 15, 2)):
        c = load_course(name)
        assert (c.hexagons, c.energy, len(c.checkpoints)) == (hexagons, energy, checkpoints)
    assert load_course("ttt-100").hexagons == 100
    leg = load_course("leg-bohemia")
    assert (
        {b.kind for b in leg.bonuses} == {"speed", "uphill"}
        and leg.turnings
        and any(t.crossroads for t in leg.turnings)
    )


def test_random_course_builder_is_deterministic_and_has_the_length() -> None:
    assert random_course_data("random-120-s5") == random_course_data("random-120-s5")
    assert random_course_data("random-120-s5") != random_course_data("random-120-s6")
    for name, hexagons, checkpoints in (
        ("random-120-s1", 120, 0),
        ("random-itt-50-s2", 50, 1),
        ("random-itt-75-s3", 75, 2),
    ):
        c = load_course(name)
        assert c.hexagons == hexagons and len(c.checkpoints) == checkpoints


# ---------------------------------------------------------------- the dial and energy


def test_dial_turns_clockwise_never_through_zero_and_must_advance() -> None:
    s = race(LEVEL, {"1": {"at": "40.0", "dial": 2, "energy": 20}}, teams=1, per_team=1)
    assert [o.position for o in dial_options(s, s.cyclist("1"))] == [0, 3, 4]  # from +1 (2nd): on, or back to +0
    s = race(LEVEL, {"1": {"at": "40.0", "dial": 4, "energy": 20}}, teams=1, per_team=1)
    # after +2 +2 the only position is +0 (a rest): set without asking
    assert s.cyclist("1").dial == 0 and pending(s) == engine.Pending("p0", "ride", "1")
    assert any(e.type == "dial" and e.data["value"] == 0 for e in s.events)
    s = race(LEVEL, {"1": {"at": "40.0", "dial": 0, "energy": 20}}, teams=1, per_team=1)
    assert [o.position for o in dial_options(s, s.cyclist("1"))] == [0, 1, 2, 3, 4]


def test_abrupt_zero_to_two_costs_three_and_no_acceleration_without_energy() -> None:
    s = race(LEVEL, {"1": {"at": "40.0", "energy": 20}}, teams=1, per_team=1)
    assert {o.position: o.cost for o in dial_options(s, s.cyclist("1"))} == {0: 0, 1: 1, 2: 1, 3: 3, 4: 3}
    s = race(LEVEL, {"1": {"at": "40.0", "dial": 2, "energy": 20}}, teams=1, per_team=1)
    assert {o.position: o.cost for o in dial_options(s, s.cyclist("1"))} == {0: 0, 3: 2, 4: 2}
    s = race(LEVEL, {"1": {"at": "40.0", "energy": 2}}, teams=1, per_team=1)
    assert [o.position for o in dial_options(s, s.cyclist("1"))] == [0, 1, 2]
    s = set_dial(s, 2)
    assert s.cyclist("1").energy == 1


def test_headwind_costs_a_leading_cyclist_one_more_not_one_in_tandem() -> None:
    # wind 2 blows from the east, the road heads east: a headwind
    s = race(
        LEVEL, {"1": {"at": "40.0", "energy": 20}, "4": {"at": "38.0", "energy": 20}}, options={"wind": 2}, per_team=1
    )
    assert {o.position: o.cost for o in dial_options(s, s.cyclist("1"))}[1] == 2
    assert {o.position: o.cost for o in dial_options(s, s.cyclist("4"))}[1] == 1
    # judged from the position at the move's start: no. 1 goes first and rides away, no. 4 still
    # started the move behind it (IV.1: "depends on his initial position")
    s = set_dial(s, 0)
    s = ride_to(s, "46.0")
    assert pending(s) == engine.Pending("p1", "dial", "4")
    assert {o.position: o.cost for o in dial_options(s, s.cyclist("4"))}[1] == 1
    assert set_dial(s, 1).cyclist("4").energy == 19


# ---------------------------------------------------------------- speed and tandem


def test_tandem_needs_a_cyclist_directly_in_front_not_uphill_not_at_the_start() -> None:
    placed = {"1": {"at": "40.0"}, "2": {"at": "38.0"}, "3": {"at": "39.1"}, "4": {"at": "36.2"}}
    s = race(LEVEL, placed)
    # 2 straight behind 1, 3 crosswise behind 1: both directly behind (any forward hexagon, R-PEL-TANDEM);
    # 4 has 38.2 and 37.1 in front of it, both free
    assert s.tandem == {"2", "3"}
    assert speed_range(s, s.cyclist("2")) == (3, 4)
    hill = course([{"hexagons": 40, "terrain": "up"}])
    s = race(hill, {"1": {"at": "40.0"}, "2": {"at": "38.0"}}, teams=1, per_team=2)
    assert s.tandem == frozenset() and speed_range(s, s.cyclist("2")) == (2, 2)
    s = race(
        LEVEL, {"1": {"at": "40.0", "status": "start"}, "2": {"at": "38.0", "status": "start"}}, teams=1, per_team=2
    )
    assert s.tandem == frozenset()


def test_the_start_is_abreast_without_tandem() -> None:
    s = build({"track": "peloton/leg-bohemia", "players": [{"id": "a", "team": "grey"}, {"id": "b", "team": "red"}]})
    assert s.round == 1 and s.tandem == frozenset()
    assert all(c.status == "start" for c in s.cyclists)


def test_side_wind_tandem_only_behind_a_cyclist_crosswise_against_the_wind() -> None:
    # wind 1 blows from the north: from the left of a road heading east
    placed = {"1": {"at": "40.0"}, "2": {"at": "39.1"}, "3": {"at": "37.1"}, "4": {"at": "30.0"}, "5": {"at": "31.1"}}
    s = race(LEVEL, placed, options={"wind": 1})
    assert engine.relative_wind(s, "39.1") == "left"
    assert "2" in s.tandem  # 1 is ahead crosswise on the windward (left) side
    assert "3" not in s.tandem  # 2 is directly in front of 3, but that is no shelter from a side wind
    assert "4" not in s.tandem  # 5 is crosswise ahead on the lee side


def test_speed_is_basic_plus_tandem_plus_acceleration_and_the_dial_is_paid_first() -> None:
    s = race(LEVEL, {"1": {"at": "40.0"}, "2": {"at": "38.0", "energy": 20}}, teams=1, per_team=2)
    s = set_dial(s, 0)
    s = ride_to(s, "45.1")
    s = set_dial(s, 3)  # +0 -> +2: 3 energy
    assert s.cyclist("2").energy == 17
    ends = {r.to: r.hexagons for r in rides(s, s.cyclist("2"))}
    assert max(ends.values()) == 6 and min(ends.values()) == 3  # 3 + 1 + 2, at least the basic 3
    assert "50.0" in ends and "44.0" in ends and "38.0" not in ends


# ---------------------------------------------------------------- falls


def test_a_cyclist_who_cannot_make_the_basic_speed_falls_lies_stands_then_rides_basic() -> None:
    narrow = course([{"hexagons": 40}], width=2)
    placed = {
        "4": {"at": "44.0", "status": "lying"},
        "5": {"at": "43.1", "status": "lying"},
        "1": {"at": "40.0", "energy": 20},
    }
    s = race(narrow, placed, per_team=2)
    # 4 and 5 lie ahead: they stand up (no decision); 1 can ride one hexagon, not its basic 3
    assert s.cyclist("4").status == "standing" and s.cyclist("5").status == "standing"
    s = set_dial(s, 0)
    ends = rides(s, s.cyclist("1"))
    assert {(r.to, r.fell) for r in ends} == {("42.0", "blocked"), ("41.1", "blocked")}
    s = ride_to(s, "42.0")
    one = s.cyclist("1")
    assert one.status == "lying" and one.cell == "42.0" and one.dial == 0
    # next move: 4 and 5 ride at basic speed only; 1 stands up without moving
    assert speed_range(s, s.cyclist("4")) == (3, 3)
    while s.cyclist("1").status == "lying":
        d = pending(s)
        assert d is not None
        s = apply(s, legal_actions(s, d.player)[0].action)[0]
    assert s.cyclist("1").status == "standing" and s.cyclist("1").cell == "42.0"
    # the move after, it rides at the basic speed, no dial, no tandem
    while pending(s) is not None and pending(s).cyclist != "1":  # type: ignore[union-attr]
        d = pending(s)
        assert d is not None
        s = apply(s, legal_actions(s, d.player)[0].action)[0]
    assert pending(s).kind == "ride"  # type: ignore[union-attr]
    assert speed_range(s, s.cyclist("1")) == (3, 3)


def test_a_hemmed_in_cyclist_falls_where_it_stands() -> None:
    narrow = course([{"hexagons": 40}], width=2)
    s = race(
        narrow,
        {
            "4": {"at": "42.0", "status": "lying"},
            "5": {"at": "41.1", "status": "lying"},
            "1": {"at": "40.0", "energy": 20},
        },
        per_team=2,
    )
    s = set_dial(s, 0)
    assert [(r.to, r.fell) for r in rides(s, s.cyclist("1"))] == [("40.0", "blocked")]
    s = ride_to(s, "40.0")
    assert s.cyclist("1").status == "lying"


def test_swerve_makes_the_cyclist_fall() -> None:
    s = race(LEVEL, {"1": {"at": "40.0", "energy": 20}}, teams=1, per_team=1)
    s = set_dial(s, 0)
    d = pending(s)
    assert d is not None
    # left-right zigzag is never offered...
    assert all(
        "41.1" not in (o.action.get("via") or ()) or o.action.get("to") != "42.0" for o in legal_actions(s, d.player)
    )
    # ...and when given, the cyclist falls where the swerve ends
    swerve = Action(d.player, "ride", cyclist="1", to="42.0", via=("41.1",))
    after, events = apply(s, swerve)
    assert any(e.type == "fell" and e.data["reason"] == "swerve" and e.data["at"] == "42.0" for e in events)
    # it lay down; alone on the road, the next move begins at once and it stands up
    assert after.cyclist("1").cell == "42.0" and after.cyclist("1").status == "standing"
    assert any(e.type == "stood-up" for e in events)


def test_turning_above_speed_four_needs_a_lane_fit_for_the_speed() -> None:
    bend = course([{"hexagons": 6, "terrain": "down"}, {"turn": "left", "hexagons": 3}, {"hexagons": 20}])
    c = build_course(bend)
    first = c.turning_at(c.start + 12)
    assert first is not None
    start = c.start + 6  # on the downhill: basic 4, +1 dial = 5
    s = race(bend, {"1": {"at": f"{start}.0", "dial": 0, "energy": 20}}, teams=1, per_team=1)
    s = set_dial(s, 1)
    ends = rides(s, s.cyclist("1"))
    # at speed 5 no safe path may use the inside lane (limit 4) of the turning (one that does is a
    # fall on its first hexagon there, offered apart since issue 24: R-PEL-OVERSPEED)
    for r in ends:
        if r.hexagons == 5 and not r.fell:
            assert all(not (c.turning_at(split(x)[0]) and split(x)[1] == 0) for x in (*r.via, r.to))
    d = pending(s)
    assert d is not None
    inside = f"{start + 10}.0"  # five straight hexagons in lane 0 end inside the turning
    assert c.turning_at(start + 10) is not None
    with pytest.raises(IllegalAction):
        apply(s, Action(d.player, "ride", cyclist="1", to=inside, via=tuple(f"{start + 2 * k}.0" for k in range(1, 5))))


def test_a_forced_fall_in_a_turning_is_offered_at_every_path_s_first_unsafe_hexagon() -> None:
    """R-PEL-FALLS, IV.2: "fall on the hexagon where he did not keep to the safe trail" - every path."""
    bend = course([{"hexagons": 6, "terrain": "down"}, {"turn": "left", "hexagons": 3}, {"hexagons": 20}], "itt", 2)
    c = build_course(bend)
    at = c.start + 8  # downhill: 4, +1 in a time trial = 5, above the inside lane's safe 4
    blocker = f"{at + 9}.1"  # lying on the second lane inside the turning
    s = race(
        bend,
        {"1": {"at": f"{at}.0", "energy": 5}, "2": {"at": blocker, "status": "lying"}},
        teams=1,
        per_team=2,
        options={"wind": 0},
    )
    assert pending(s) == engine.Pending("p0", "dial", "1") and s.cyclist("2").status == "standing"
    s = set_dial(s, 0)
    assert speed_range(s, s.cyclist("1")) == (5, 5)
    falls = {r.to: r for r in rides(s, s.cyclist("1"))}
    assert all(r.fell == "turning" for r in falls.values())
    for r in falls.values():  # each fall hexagon is the first of its path off the safe trail (lane 0)
        assert split(r.to)[1] == 0 and c.turning_at(split(r.to)[0]) is not None
        assert all(split(x)[1] == 1 or c.turning_at(split(x)[0]) is None for x in r.via)
    # the furthest: four hexagons on the second lane, then forced onto the inside lane by no. 2
    assert f"{at + 8}.0" in falls and len(falls[f"{at + 8}.0"].via) == 4
    assert f"{at + 4}.0" in falls  # or leave the trail at once
    s = ride_to(s, f"{at + 8}.0")
    fell = {"cyclist": "1", "at": f"{at + 8}.0", "reason": "turning"}
    assert any(e.type == "fell" and e.data == fell for e in s.events)
    assert s.cyclist("1").cell == f"{at + 8}.0" and s.cyclist("1").dial == 0


def test_turning_at_speed_four_may_take_the_inside_lane() -> None:
    bend = course([{"hexagons": 6, "terrain": "level"}, {"turn": "left", "hexagons": 3}, {"hexagons": 20}])
    c = build_course(bend)
    start = c.start + 6
    s = race(bend, {"1": {"at": f"{start}.0", "dial": 0, "energy": 20}}, teams=1, per_team=1)
    s = set_dial(s, 1)  # 3 + 1 = 4: the inside trail is fit for 4
    assert f"{start + 8}.0" in {r.to for r in rides(s, s.cyclist("1"))}


# ---------------------------------------------------------------- order


def test_move_order_ahead_first_then_further_on_the_strip_then_the_inside_line() -> None:
    s = race(LEVEL, {"1": {"at": "40.0"}, "2": {"at": "41.1"}, "3": {"at": "40.2"}, "4": {"at": "44.0"}})
    assert move_order(s)[:4] == ["4", "2", "1", "3"]  # 1 and 3 level: the left (no turning ahead) first
    right = course([{"hexagons": 30}, {"turn": "right"}, {"hexagons": 10}])
    s = race(right, {"1": {"at": "40.0"}, "3": {"at": "40.2"}}, teams=1)
    assert move_order(s)[:2] == ["3", "1"]  # the next turning is to the right: its inside line first


# ---------------------------------------------------------------- time trials


ITT = course([{"hexagons": 25}], discipline="itt", width=2)


def test_time_trial_basic_speed_is_one_more_unless_against_the_wind_and_no_tandem() -> None:
    s = race(ITT, {"1": {"at": "20.0"}, "2": {"at": "18.0"}}, teams=1, per_team=2, options={"wind": 0})
    assert speed_range(s, s.cyclist("2"))[0] == 4 and s.tandem == frozenset()
    s = race(ITT, {"1": {"at": "20.0"}}, teams=1, per_team=1, options={"wind": 2})
    assert speed_range(s, s.cyclist("1"))[0] == 3


def test_individual_starts_every_two_moves_after_the_card_draft() -> None:
    s = build(
        {
            "track": ITT,
            "players": [{"id": "a", "team": "grey", "cyclists": 2}, {"id": "b", "team": "red", "cyclists": 1}],
        }
    )
    assert s.phase == "cards" and list(s.card_queue) == ["1", "4", "2"]
    for n in (13, 1, 7):
        d = pending(s)
        assert d is not None and d.kind == "card"
        s, _ = apply(s, Action(d.player, "card", cyclist=d.cyclist, card=n))
    assert s.cyclist("1").energy == 5 - 2 and s.cyclist("4").energy == 5 + 2
    assert s.wind == wind_of([c.number for c in CARDS if c.number not in (13, 1, 7)])
    assert [s.cyclist(c).start_round for c in ("1", "4", "2")] == [1, 3, 5]
    assert s.cyclist("1").cell is not None and s.cyclist("4").cell is None


@pytest.mark.parametrize("cyclists, wind", [(12, 1), (13, 0)])
def test_with_twelve_or_thirteen_cyclists_the_wind_is_what_the_cards_left_say(cyclists: int, wind: int) -> None:
    """R-PEL-CARDS: with 12 cyclists one card is left (no. 13, W 1): its W alone is the wind; with 13 none
    is left: no wind (not the course's wind, nor a card drawn). Taken in order 1, 2, ... so the card left
    is the last."""
    counts = [3, 3, 3, 3] + ([1] if cyclists == 13 else [])
    teams = ("grey", "red", "blue", "green", "white")
    players = [{"id": f"p{i}", "team": teams[i], "cyclists": n} for i, n in enumerate(counts)]
    s = build({"track": ITT, "players": players})
    for n in range(1, cyclists + 1):
        d = pending(s)
        assert d is not None and d.kind == "card"
        s, _ = apply(s, Action(d.player, "card", cyclist=d.cyclist, card=n))
    assert s.phase == "ride" and s.wind == wind


def test_cards_cannot_be_taken_twice() -> None:
    s = build({"track": ITT, "players": [{"id": "a", "team": "grey", "cyclists": 2}]})
    s, _ = apply(s, Action("a", "card", cyclist="1", card=5))
    with pytest.raises(IllegalAction):
        apply(s, Action("a", "card", cyclist="2", card=5))


def test_a_time_trial_with_cards_has_at_most_13_cyclists() -> None:
    """One card a cyclist: a fourteenth would wait for a card forever (R-PEL-CARDS)."""
    teams = ("grey", "red", "blue", "green", "white")
    players = [{"id": t, "team": t, "cyclists": 3 if t != "white" else 1} for t in teams]
    s = build({"track": ITT, "players": players})
    assert len(s.card_queue) == 13  # thirteen take the thirteen cards
    players[-1]["cyclists"] = 2
    with pytest.raises(InvalidSetup, match="at most 13 cyclists"):
        build({"track": ITT, "players": players})
    s = build({"track": ITT, "players": players, "options": {"cards": False}})  # without cards, no limit
    assert s.phase != "cards" and len(s.cyclists) == 14


def test_checkpoint_overdrawn_costs_one_more_per_point() -> None:
    fifty = course([{"hexagons": 25}, {"hexagons": 25, "checkpoint": True}], discipline="itt", width=2)
    c = build_course(fifty)
    at = c.checkpoints[0] - 2  # one straight hexagon before the midway
    s = race(fifty, {"1": {"at": f"{at}.0", "energy": 3, "start_round": 1}}, teams=1, per_team=1, options={"wind": 0})
    s = set_dial(s, 0)
    s = ride_to(s, f"{at + 8}.0")
    assert s.cyclist("1").energy == 1  # 3 left, position 5 expected: 2 overdrawn cost 2 more
    assert any(e.type == "checkpoint" and e.data["overdrawn"] == 2 for e in s.events)


def test_team_time_trial_moves_the_team_in_any_order_and_keeps_the_dial_in_tandem() -> None:
    ttt = course([{"hexagons": 60}], discipline="ttt", width=3)
    s = race(
        ttt,
        {
            "1": {"at": "40.0", "dial": 1, "energy": 10},
            "2": {"at": "38.0", "dial": 1, "energy": 10},
            "3": {"at": "30.2", "energy": 10},
        },
        teams=1,
        options={"wind": 0},
    )
    d = pending(s)
    assert d is not None and d.kind == "dial" and d.cyclist is None
    movers = {o.action.get("cyclist") for o in legal_actions(s, d.player)}
    assert movers == {"1", "2", "3"}
    assert not [o for o in legal_actions(s, d.player) if o.action.get("keep")]  # 1 is still in 2's way
    s = apply(s, Action("p0", "dial", cyclist="1", dial=2))[0]  # the leader first: +1 -> +1
    s = ride_to(s, "48.0")
    d = pending(s)
    assert d is not None
    keeps = [o for o in legal_actions(s, d.player) if o.action.get("keep")]
    assert {o.action.get("cyclist") for o in keeps} == {"2"}  # only 2 rode tandem (behind 1)
    s, _ = apply(s, keeps[0].action)  # 2 keeps +1 (position 1) after a move in tandem
    assert s.cyclist("2").dial == 1 and s.cyclist("2").energy == 9
    # after a kept dial 2 must end its move behind a team-mate: the menu and the rule (VI.3)
    assert all(engine._behind_mate(s, s.cyclist("2"), r.to) for r in rides(s, s.cyclist("2")))
    with pytest.raises(IllegalAction, match="behind a team-mate"):
        apply(s, Action("p0", "ride", cyclist="2", to="44.2", via=("39.1", "40.2", "42.2")))
    s, _ = apply(s, Action("p0", "ride", cyclist="2", to="46.0", via=("40.0", "42.0", "44.0")))
    assert s.cyclist("2").cell == "46.0"  # straight behind no. 1 on 48.0


def test_ttt_tandem_is_only_behind_a_team_mate() -> None:
    ttt = course([{"hexagons": 60}], discipline="ttt", width=3)
    s = race(ttt, {"1": {"at": "40.0"}, "4": {"at": "38.0"}, "2": {"at": "36.0"}}, per_team=2, options={"wind": 0})
    assert "4" not in s.tandem and "2" not in s.tandem
    s = race(ttt, {"1": {"at": "40.0"}, "2": {"at": "38.0"}}, per_team=2, options={"wind": 0})
    assert "2" in s.tandem


# ---------------------------------------------------------------- bonuses


def test_bonus_lines_score_by_crossing_order() -> None:
    track = course([{"hexagons": 20}, {"hexagons": 20, "bonus": "speed"}])
    c = build_course(track)
    line = c.bonuses[0].at
    s = race(track, {"1": {"at": f"{line - 1}.1"}, "4": {"at": f"{line - 2}.0"}}, per_team=1)
    s = set_dial(s, 0)
    s = ride_to(s, f"{line + 5}.1")
    s = set_dial(s, 0)
    s = ride_to(s, f"{line + 4}.0")
    view = engine_view(s)
    assert view["classifications"]["points"] == {"1": 5, "4": 3}


def engine_view(s: State) -> dict[str, Any]:
    from rules.peloton.view import public_view

    return public_view(s)


def test_illegal_actions_say_what_is_allowed() -> None:
    s = race(LEVEL, {"1": {"at": "40.0", "dial": 2, "energy": 20}}, teams=1, per_team=1)
    with pytest.raises(IllegalAction, match="positions 0, 3, 4"):
        apply(s, Action("p0", "dial", cyclist="1", dial=1))
    s = set_dial(s, 0)
    with pytest.raises(IllegalAction, match="at least its basic speed"):
        apply(s, Action("p0", "ride", cyclist="1", to="42.0"))


# ---------------------------------------------------------------- rulings without a test of their own


def test_the_start_area_fills_from_the_line_each_teams_first_cyclist_first() -> None:
    """R-PEL-START-ORDER: seats in turn, each team's first cyclist, then the seconds, then the thirds."""
    players = [{"id": "a", "team": "grey"}, {"id": "b", "team": "red"}]
    s = build({"track": course([{"hexagons": 30}]), "players": players})
    cells = build_course(course([{"hexagons": 30}])).start_cells()
    placed = {c.id: c.cell for c in s.cyclists}
    assert [placed[cid] for cid in ("1", "4", "2", "5", "3", "6")] == cells[:6]
    assert move_order(s)[:3] == ["1", "4", "2"]  # the front strip, left lane first


def test_a_cyclist_finishes_once_past_the_line_and_leaves_the_road_after_its_move() -> None:
    """R-PEL-LINE: finished when its hexagon is beyond the line (s > finish); the distance past is in half
    hexagons; the hexagon is free for the others from the next move (round) on."""
    track = course([{"hexagons": 10}])
    line = build_course(track).finish
    s = race(track, {"1": {"at": f"{line - 4}.0"}, "4": {"at": f"{line - 6}.0"}}, teams=3, per_team=1)
    s = set_dial(s, 0)
    s = ride_to(s, f"{line}.0")  # on the line is not past it
    assert s.cyclist("1").finish_round is None
    s = set_dial(s, 0)
    s = ride_to(s, f"{line - 1}.1")
    s = _rest_of_the_move(s)  # no. 7 rides from the start area
    s = set_dial(s, 0)
    s = ride_to(s, f"{line + 6}.0")
    one = s.cyclist("1")
    assert one.status == "finished" and one.past == 6
    assert f"{line + 6}.0" in engine.occupied(s)  # still in the way of those moving after it this move
    s = _rest_of_the_move(s)  # 4 and 7 ride
    assert f"{line + 6}.0" not in engine.occupied(s)  # gone once the move is over


def _rest_of_the_move(s: State) -> State:
    rnd = s.round
    while s.round == rnd and (d := pending(s)) is not None:
        s = apply(s, legal_actions(s, d.player)[0].action)[0]
    return s


def test_no_move_turns_back_or_leaves_the_marked_road() -> None:
    """R-PEL-TURN-BACK: every offered ride goes forward on the course; no turn-back action exists."""
    from rules.peloton.game import VOCABULARY

    assert "turn" not in {f.name for f in VOCABULARY.fields}
    s = race(LEVEL, {"1": {"at": "31.1"}, "4": {"at": "34.0"}}, per_team=1)
    s = set_dial(s, 0)
    d = pending(s)
    assert d is not None and d.cyclist == "4"
    s = ride_to(s, "40.0")
    s = set_dial(s, 2)  # no. 1, +1: it could ride 3 or 4 hexagons, none of them backwards
    for r in rides(s, s.cyclist("1")):
        path = [s.cyclist("1").cell, *r.via, r.to]
        assert all(split(b)[0] > split(a)[0] for a, b in itertools.pairwise(path))


def test_the_discipline_is_the_courses() -> None:
    """R-PEL-DISCIPLINE: a course names its discipline; random names choose it; the race follows it."""
    names = ("leg-bohemia", "itt-25", "ttt-100", "random-120-s1", "random-itt-50-s2", "random-ttt-100-s3")
    assert [load_course(n).discipline for n in names] == ["leg", "itt", "ttt", "leg", "itt", "ttt"]
    players = [{"id": "a", "team": "grey"}]
    phases = [build({"track": f"peloton/{n}", "players": players}).phase for n in ("leg-bohemia", "itt-25", "ttt-100")]
    assert phases == ["ride", "cards", "cards"]  # time trials open with the card draft


def test_up_to_eight_players_may_each_ride_one_cyclist() -> None:
    """R-PEL-PLAYERS: a seat is one team of 1-3 cyclists in one of 8 colours; the book's '12 players -
    each player plays with 1 cyclist' plays with at most 8."""
    from rules.errors import InvalidSetup
    from rules.peloton.model import TEAMS

    players = [{"id": f"p{i}", "team": team, "cyclists": 1} for i, team in enumerate(TEAMS)]
    s = build({"track": "peloton/leg-bohemia", "players": players})
    assert len(s.cyclists) == 8 and len({c.player for c in s.cyclists}) == 8
    with pytest.raises(InvalidSetup):
        build({"track": "peloton/leg-bohemia", "players": [*players, {"id": "p8", "team": "grey", "cyclists": 1}]})
