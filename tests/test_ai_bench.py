"""``domestique bench ai`` and its baseline players (issue 30): the random and greedy players
choose only among the game's listed legal choices, the same seed plays the same race, greedy
never takes a risky choice when a safe one is listed and eats a kept tile at once, and the bench
covers every game and every kind of course."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cli import ai_bench
from bot.cli import main as cli
from bot.service import race_options
from rules.baselines import greedy, measure_for, random_player
from rules.game import Game
from rules.record import Record, start_state
from rules.registry import find_game, games


def decisions(game: Game, policy_of: Any, seed: int, limit: int = 400) -> list[tuple[Any, str, Any]]:
    """(state, player, action) of a race with every seat played by ``policy_of(seat index)``."""
    players = game.sample_players(4)
    policies = {p["id"]: policy_of(i) for i, p in enumerate(players)}
    track = game.tracks.resolve(game.tracks.default, seed)
    record = Record(game.id, track, players, seed, options=race_options.defaults(game))
    _, state = start_state(record)
    out = []
    while not game.rules.outcome(state).finished and len(out) < limit:
        decision = game.rules.pending(state)
        assert decision is not None
        action = policies[decision.player](state, decision.player)
        out.append((state, decision.player, action))
        state, _ = game.rules.apply(state, action)
    return out


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_the_baselines_choose_among_the_listed_choices_and_greedy_runs_no_needless_risk(game: Game) -> None:
    plain = greedy(game)
    seen = decisions(game, lambda i: plain if i % 2 else random_player(game, i), seed=3)
    assert seen
    for state, player, action in seen:
        listed = game.rules.choices(state, player)
        assert action in [c.action for c in listed]
    for state, player, _ in seen[::7]:
        listed = game.rules.choices(state, player)
        chosen = plain(state, player)
        kept = next((c for c in listed if c.anytime), None)
        if kept is not None:
            assert chosen == kept.action  # a kept tile is eaten at once
            continue
        picked = next(c for c in listed if c.action == chosen)
        assert not picked.risky or all(c.risky for c in listed)
        measure = measure_for(game)(state, player)
        best = max(measure(c)[0] - measure(c)[1] for c in listed if not c.risky or all(x.risky for x in listed))
        assert measure(picked)[0] - measure(picked)[1] == best


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_a_random_player_plays_the_same_race_for_the_same_seed(game: Game) -> None:
    first = [a for _, _, a in decisions(game, lambda i: random_player(game, 10 + i), seed=5, limit=120)]
    again = [a for _, _, a in decisions(game, lambda i: random_player(game, 10 + i), seed=5, limit=120)]
    other = [a for _, _, a in decisions(game, lambda i: random_player(game, 20 + i), seed=5, limit=120)]
    assert first == again and first != other


def test_greedy_takes_the_most_distance_for_the_least_cost_on_the_peloton_dial() -> None:
    game = find_game("peloton")
    plain = greedy(game)
    dials = [a for _, _, a in decisions(game, lambda i: plain, seed=1, limit=300) if a.do == "dial"]
    # +1, then +2 for 2 and +2 again, then the rest: never the abrupt +0 -> +2 that costs 3
    assert {int(a.get("dial") or 0) for a in dials} == {1, 3, 4}


def test_the_bench_covers_every_game_and_every_kind_of_course() -> None:
    kinds = {g.id: ai_bench.bench_courses(g) for g in games()}
    assert set(kinds) == {g.id for g in games()}
    peloton = kinds["peloton"]
    assert peloton[0] == find_game("peloton").tracks.default
    assert any("itt" in c for c in peloton) and any("ttt" in c for c in peloton)
    assert any(c.startswith("random-bohemia") for c in peloton)


def test_places_go_by_each_players_best_piece(capsys: pytest.CaptureFixture[str]) -> None:
    from rules.game import Outcome, Placing

    outcome = Outcome(
        True, (Placing("a1", "a", 1), Placing("b1", "b", 2), Placing("a2", "a", 3), Placing("c1", "c", None))
    )
    assert ai_bench.places(outcome, ["a", "b", "c", "d"]) == {"a": 1, "b": 2, "c": 3, "d": 3}
    assert cli(["bench", "ai", "--seeds", "1", "--game", "leader1"]) == 0
    table = capsys.readouterr().out
    assert "| Leader 1 first-race |" in table and "ms |" in table
