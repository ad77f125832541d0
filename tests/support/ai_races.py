"""Whole races played by the games' AI, for tests that only read one (its record, its final
state): played once per test process and shared. An AI race is the same for the same game,
players, seed and course (every AI is deterministic for a seed, and records replay), and
Peloton's leg-race AI, searching ahead through the bunch, takes a second or two a race; several
test files read the same races (the twenty seeds of leg-bohemia, seed 3 of leg-ridge-and-river).
A test about ``simulate`` itself (its determinism, its options) calls it directly."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.cli import sim
from bot.cli.sim import simulate
from rules.game import Sample
from rules.record import Record
from rules.registry import AnyGame, find_game


def ai_race(game: str, players: int, seed: int, stage: str | None = None) -> tuple[Record, Any]:
    """``simulate(game, players=..., seed=..., stage=...)``, played once: the course by name, the
    game's default when ``stage`` is None."""
    return _played(game, players, seed, stage or find_game(game).tracks.default)


@cache
def _played(game: str, players: int, seed: int, stage: str) -> tuple[Record, Any]:
    return simulate(game, players=players, seed=seed, stage=stage)


def sample_race(game: AnyGame, sample: Sample) -> tuple[Record, Any]:
    """``bot.cli.sim.sample_race`` (a game's docs picture, a benchmark's workload), its AI-played
    races played once (``ai_race``)."""
    if sample.seats:
        return sim.sample_race(game, sample)
    return ai_race(game.id, sample.players, sample.seed, sample.stage)
