"""``domestique bench pace`` covers every game, with the habits each game's showcase gives, and with
them the AI makes at most the absent people's share of the people's decisions plus 10 points."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli.pace_bench import SETTINGS, _run
from rules.registry import find_game, games


def test_every_game_gives_the_bench_habits_its_own_orders_can_carry_out() -> None:
    shipped = {"leader1", "hell-of-the-north", "formula-de-mini", "peloton"}
    assert shipped <= {game.id for game in games() if game.showcase.habits}  # all four in bench pace
    for game in games():
        kinds = {k.name: k for k in game.pace.orders}
        moments = {m.name for m in game.pace.moments}
        for kind, number, until, _ in game.showcase.habits:
            assert kind in kinds, (game.id, kind)
            assert (number is not None) == bool(kinds[kind].number), (game.id, kind)
            assert until is None or until in moments, (game.id, until)


@pytest.mark.parametrize("game_id", ["formula-de-mini", "peloton"])
def test_with_habits_the_ai_makes_little_more_than_the_absent_peoples_decisions(game_id: str) -> None:

    seated = min(6, find_game(game_id).players[1])
    stages = asyncio.run(_run(find_game(game_id), SETTINGS[3], 3, seated, 2, 3 * 3600, 1.0))
    automatic = sum(s.automatic for s in stages) / sum(s.automatic + s.human for s in stages)
    assert all(0 < s.days <= 7 for s in stages)
    assert automatic <= 2 / seated + 0.10, automatic


def test_every_order_reads_whole_in_the_order_menu() -> None:
    """``/race order``'s autocomplete shows an order by its words, cut at Discord's 100 characters."""
    for game in games():
        for kind in game.pace.orders:
            assert len(kind.label) <= 100, (game.id, kind.name, len(kind.label))
