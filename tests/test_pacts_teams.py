"""A league's team classification (rules/teams.py, each game's ``team_result``): the best two pieces'
times (Leader 1, Hell of the North, Peloton) or the members' points (Formula Dé Mini) of a stage, a piece
without a time counted after the last, and the teams over a league's stages."""

from __future__ import annotations

from dataclasses import replace

from rules.formula_de_mini.game import POINTS
from rules.game import TeamResult
from rules.registry import find_game
from rules.teams import after_the_last, best_times, ranked, totals
from tests.support.ai_races import ai_race

TEAMS = (("ai1", "ai2"), ("ai3", "ai4"))


def test_best_times_count_the_two_lowest_and_a_missing_piece_as_the_penalty() -> None:
    assert best_times([5, 1, 3], penalty=9) == 4
    assert best_times([None, 2, None], penalty=9) == 11
    assert best_times([], penalty=9) == 18
    assert after_the_last([3, None, 7], 1) == 8


def test_leader1_counts_the_best_two_riders_turns_behind_the_winner() -> None:
    game = find_game("leader1")
    _record, final = ai_race("leader1", 4, 5)
    first = min(r.arrived_turn for r in final.riders if r.arrived_turn is not None)
    for team in TEAMS:
        delays = sorted(r.arrived_turn - first for r in final.riders if r.player in team and r.arrived_turn)
        assert game.team_result(final, team).score == sum(delays[:2])


def test_leader1_counts_a_rider_out_of_the_race_after_the_last() -> None:
    game = find_game("leader1")
    _record, final = ai_race("leader1", 2, 5)
    others = [r.arrived_turn for r in final.riders if r.player != "ai1" and r.arrived_turn is not None]
    first, last = min(others), max(others)
    mine = [r for r in final.riders if r.player == "ai1"]
    out = replace(final, riders=tuple(replace(r, status="eliminated") if r in mine else r for r in final.riders))
    result = game.team_result(out, ("ai1",))
    assert result.score == 2 * (last - first + 1)
    assert result.text.startswith("best two riders: ")


def test_hell_of_the_north_counts_turns_after_the_bonuses() -> None:
    game = find_game("hell-of-the-north")
    _record, final = ai_race("hell-of-the-north", 4, 3)
    from rules.hell_of_the_north.stage import stage_result

    for team in TEAMS:
        turns = sorted(line.turns for line in stage_result(final) if line.player in team and not line.eliminated)
        assert game.team_result(final, team).score == sum(turns[:2])


def test_formula_de_mini_adds_the_members_points() -> None:
    game = find_game("formula-de-mini")
    _record, final = ai_race("formula-de-mini", 4, 3)
    for team in TEAMS:
        points = sum(POINTS[i] for i, cid in enumerate(final.arrivals) if final.car(cid).player in team)
        result = game.team_result(final, team)
        assert (result.score, result.higher_better, result.text) == (points, True, f"{points} points")


def test_peloton_counts_the_best_two_cyclists_times() -> None:
    game = find_game("peloton")
    _record, final = ai_race("peloton", 4, 3)
    from rules.peloton import timing

    for team in TEAMS:
        times = sorted(timing.leg_total(final, c) for c in final.cyclists if c.player in team)
        assert game.team_result(final, team).score == sum(times[:2])


def test_the_teams_of_a_stage_and_of_a_league() -> None:
    low = {"a": TeamResult(7, ""), "b": TeamResult(3, ""), "c": TeamResult(7, "")}
    assert [team for team, _ in ranked(low)] == ["b", "a", "c"]
    high = {"a": TeamResult(7, "", True), "b": TeamResult(3, "", True)}
    assert [team for team, _ in ranked(high)] == ["a", "b"]
    assert totals([high, {"a": TeamResult(1, "", True), "b": TeamResult(9, "", True)}]) == [("b", 12), ("a", 8)]
    assert totals([low, {"a": TeamResult(0, ""), "b": TeamResult(5, ""), "c": TeamResult(1, "")}]) == [
        ("a", 7),
        ("b", 8),
        ("c", 8),
    ]


def test_a_game_without_a_team_result_says_so() -> None:
    from tests.support import toy_game

    assert toy_game.GAME.team_result is None
