"""The bot's processes run the cyclic garbage collector less often than Python's default
(``bot/service/collector.py``): the bot process (``domestique run``, and the bench as it measures
the bot) and each board worker."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.service.board_pool import BoardPool
from bot.service.collector import YOUNG, pace_collector
from bot.service.drawing import _warm


@pytest.fixture
def default_pace() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_the_young_generation_is_collected_every_50000_objects(default_pace: tuple[int, int, int]) -> None:
    assert default_pace[0] < YOUNG
    pace_collector()
    assert gc.get_threshold() == (YOUNG, default_pace[1], default_pace[2])  # the older ones as before
    pace_collector()  # again: the same pace
    assert gc.get_threshold() == (YOUNG, default_pace[1], default_pace[2])


async def test_a_board_worker_runs_at_the_bot_s_pace() -> None:
    pool = BoardPool(1, preload=["renderer", "rules"], warm=_warm)  # as PoolDrawing makes it
    pool.start()
    try:
        assert (await pool.run(gc.get_threshold))[0] == YOUNG
    finally:
        pool.close()
