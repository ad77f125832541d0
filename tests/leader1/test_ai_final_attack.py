"""The Leader 1 family's AI makes its final attack (issue 30): energy is worth nothing after the
line of a single stage, so its riders spend it instead of crossing with two thirds unspent, and a
lone AI team beats three greedy ones (``rules/baselines.py``) in whole races with seeded dice."""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from bot.cli.ai_bench import _ai, _greedy, _random, lone
from rules.leader1 import ai_kit
from rules.record import Record, start_state
from rules.registry import find_game

SEEDS = range(1, 5)


@pytest.mark.parametrize("game_id", ["leader1", "hell-of-the-north"])
def test_the_ai_crosses_the_line_of_a_single_stage_with_at_most_a_quarter_of_its_energy(game_id: str) -> None:
    game = find_game(game_id)
    seen = lone(game, game.tracks.default, SEEDS, _ai, _greedy, True)
    assert seen.left and statistics.fmean(seen.left) <= 0.25, seen.left
    assert seen.wins >= 50 and seen.place <= 1.8, seen.places


def test_a_random_team_does_not_beat_three_hell_of_the_north_ais_by_a_late_breakaway() -> None:
    game = find_game("hell-of-the-north")
    seen = lone(game, game.tracks.default, range(1, 9), _random, _ai, False)
    assert seen.wins == 0, seen.places


def test_the_attack_waits_until_the_energy_would_otherwise_be_left_over() -> None:
    game = find_game("leader1")
    record = Record(game="leader1", track="leader1/first-race", players=game.sample_players(4), seed=1)
    _, state = start_state(record)
    rider = state.riders[0]
    to_go = state.setup.road.finish - state.peloton
    assert not ai_kit.attack_worth(state, rider)  # at the start: the whole stage to ride
    assert rider.energy < to_go
    rich = replace(rider, energy=to_go + 4)
    assert ai_kit.attack_worth(state, rich)


def test_a_stage_of_a_stage_race_keeps_the_energy_the_next_stage_gets() -> None:
    """D.3: up to 15 points are carried to the next stage, so a league stage's attack keeps them."""
    from rules.leader1 import ai

    game = find_game("leader1")
    players = game.sample_players(4)
    single = start_state(Record(game="leader1", track="leader1/first-race", players=players, seed=1))[1]
    league = start_state(
        Record(game="leader1", track="leader1/first-race", players=players, seed=1, options={"stage_race": True})
    )[1]
    to_go = single.setup.road.finish - single.peloton
    rider = replace(single.riders[0], energy=to_go + 4)
    assert ai_kit.attack_worth(single, rider, ai.keep(single))
    assert not ai_kit.attack_worth(league, rider, ai.keep(league))
    assert ai_kit.attack_worth(league, replace(rider, energy=to_go + 4 + 15), ai.keep(league))
