"""Helpers for the board tests of every game: a pixel's colour, one AI race per game to draw from,
and the squares the bot would highlight."""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image

from rules.game import Choice
from rules.record import Record
from rules.registry import find_game
from tests.support.ai_races import ai_race


def pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return value[:3]


@cache
@cache
def race(game: str) -> Record:
    record, _ = ai_race(game, 4, 3)
    return record


def offered(game: str, state: Any) -> list[Choice]:
    """The squares the bot would highlight: the targeted, one-step choices of the player to act."""
    rules = find_game(game).rules
    decision = rules.pending(state)
    assert decision is not None
    return [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
