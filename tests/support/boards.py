"""Helpers for the board tests of every game: a pixel's colour, one AI race per game to draw from,
the squares the bot would highlight, and every board of a race drawn as the bot draws it."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image

from bot.cli.images import mid_race
from rules.game import Choice
from rules.record import Record, start_state
from rules.registry import find_game
from tests.support.ai_races import ai_race
from tests.support.pictures import picture


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


def every_board_is_phone_sized(game: str) -> None:
    """Each decision's board of ``game``'s race as the bot paints it, with its offered squares:
    960 x 800, < 1 MB; and the same picture twice for the same state."""
    from renderer.registry import paint

    record = race(game)
    rules, state = start_state(record)
    step = max(1, len(record.actions) // 60)  # every few decisions: the whole race, in reasonable time
    for index, action in enumerate([*record.actions, None]):
        if index % step == 0 or action is None:
            decision = rules.rules.pending(state)
            choices = offered(game, state) if decision is not None else []
            png = paint(game, state, highlight=choices, acting=[decision.piece] if decision and decision.piece else [])
            assert png is not None and len(png) < 1_000_000
            assert Image.open(io.BytesIO(png)).size == (960, 800)
        if action is not None:
            state, _ = rules.rules.apply(state, action)
    middle = mid_race(record)
    again = [picture(paint(game, middle, highlight=offered(game, middle))) for _ in range(2)]
    assert again[0] == again[1]  # the same state, the same picture
