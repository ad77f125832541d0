"""A page or image is made once however many viewers ask, and a viewer who goes away mid-way (the
browser cancels an image it no longer needs) neither cancels the making nor leaves the others
waiting for nothing: before, the second viewer's request ended cancelled and its image never came."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service.drawing import ThreadDrawing
from bot.web.app import Pages


async def test_a_viewer_going_away_leaves_the_others_their_image() -> None:
    pages = Pages(storage=Any, drawing=ThreadDrawing())  # type: ignore[arg-type]  # nothing is read here
    made: list[int] = []
    release = asyncio.Event()

    async def make() -> bytes:
        await release.wait()
        made.append(1)
        return b"GIF89a..."

    first = asyncio.create_task(pages.once(("recap", 1, 7), make))
    second = asyncio.create_task(pages.once(("recap", 1, 7), make))
    await asyncio.sleep(0)
    first.cancel()  # the first viewer navigates away
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.wait_for(second, 5) == b"GIF89a..."
    assert made == [1]  # made once
    assert await pages.once(("recap", 1, 7), make) == b"GIF89a..." and made == [1]  # then remembered
