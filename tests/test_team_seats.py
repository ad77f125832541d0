"""The seats of the games with numbered teams (rules/team_seats.py): Formula Dé Mini's cars and
Peloton's cyclists, as the lobby, leagues and ``domestique sim`` use them through the game contract."""

from __future__ import annotations

import pytest

from bot.cli.sim import simulate
from rules.errors import InvalidSetup
from rules.game import Seat
from rules.i18n import speaking
from rules.registry import find_game


@pytest.mark.parametrize(("game", "most"), [("formula-de-mini", 2), ("peloton", 3)])
def test_a_seat_takes_a_free_colour_and_numbers_its_pieces_within_the_games_limits(game: str, most: int) -> None:
    g = find_game(game)
    first, second = g.colours[0], g.colours[1]
    assert g.seat([], 0, None) == (first, ("1",))
    assert g.seat([], 99, None) == (first, tuple(str(n) for n in range(1, most + 1)))
    taken = [Seat("u1", "Ann", first, ("1",))]
    assert g.seat(taken, 1, None)[0] == second
    assert g.seat(taken, 1, second)[0] == second
    with pytest.raises(ValueError, match=f"{first} is taken"):
        g.seat(taken, 1, first)
    with pytest.raises(ValueError, match="s: "):
        g.seat(taken, 1, "mauve")


def test_formula_de_mini_records_cars_and_carries_nothing() -> None:
    g = find_game("formula-de-mini")
    seats = [Seat("u1", "A" * 40, "red", ("1", "2"), carry={"1": 3}), Seat("u2", "Bo", "blue", ())]
    assert g.record_players(seats) == [
        {"id": "u1", "name": "A" * 32, "team": "red", "cars": 2},
        {"id": "u2", "name": "Bo", "team": "blue", "cars": 1},  # a seat saved without its cars: one car
    ]


def test_peloton_records_cyclists_and_their_energy_carried_within_five() -> None:
    g = find_game("peloton")
    seats = [Seat("u1", "Ann", "red", ("1", "2"), carry={"1": 9, "2": -7}), Seat("u2", "Bo", "grey", ())]
    assert g.record_players(seats) == [
        {"id": "u1", "name": "Ann", "team": "red", "cyclists": 2, "carry": {"1": 5, "2": -5}},
        {"id": "u2", "name": "Bo", "team": "grey", "cyclists": 3},
    ]


def test_a_formula_de_mini_race_needs_two_to_eight_cars() -> None:
    g = find_game("formula-de-mini")
    alone = [Seat("u1", "Ann", "red", ("1",))]
    assert g.check_lobby(alone, 1) == "A race has 2 to 8 cars; there are 1. Add AI drivers or invite friends."
    assert g.check_lobby([Seat("u1", "Ann", "red", ("1", "2"))], 2) is None
    full = [Seat(f"u{i}", "x", c, ("1", "2")) for i, c in enumerate(g.colours)]
    assert g.check_lobby(full, 2) is None
    assert g.check_lobby([], 2) is not None


def test_a_peloton_race_has_one_to_eight_teams() -> None:
    g = find_game("peloton")
    assert g.check_lobby([Seat("u1", "Ann", "red", ("1",))], 1) is None
    assert g.check_lobby([], 3) == "Peloton has 1 to 8 teams and at most 24 cyclists; there are 0."


@pytest.mark.parametrize(("game", "key", "pieces"), [("formula-de-mini", "cars", 2), ("peloton", "cyclists", 3)])
def test_sample_players_bring_the_usual_pieces_and_too_many_is_a_players_error(
    game: str, key: str, pieces: int
) -> None:
    g = find_game(game)
    sample = g.sample_players(2)
    assert [p["team"] for p in sample] == list(g.colours[:2])
    assert {p[key] for p in sample} == {pieces}
    with pytest.raises(InvalidSetup, match="--players"):
        simulate(game, players=len(g.colours) + 1, seed=1)


@pytest.mark.parametrize("game", ["formula-de-mini", "peloton"])
def test_a_lobby_that_cannot_start_is_told_why_in_the_language_of_the_moment(game: str) -> None:
    g = find_game(game)
    english = g.check_lobby([], 3)
    with speaking("hu"):
        hungarian = g.check_lobby([], 3)
    assert english is not None and hungarian is not None
    assert hungarian != english and "0" in hungarian
