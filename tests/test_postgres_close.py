"""Closing a PostgreSQL storage while a method is under way: the method finishes, its connection
goes back to the pool, and close returns without cutting anything (CI once waited for ever here:
a connection released after close began was kept, and the pool waited for it)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.storage.postgres import PostgresStorage


async def test_close_waits_for_the_method_under_way_and_then_returns(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    storage = PostgresStorage(pg_url)
    await storage.open()
    started = asyncio.Event()

    async def slow_method() -> None:
        async with storage.db.guard:
            started.set()
            await storage.db._conn.execute("SELECT pg_sleep(0.3)")

    under_way = asyncio.create_task(slow_method())
    await started.wait()
    with caplog.at_level(logging.WARNING, logger="domestique"):
        await storage.close()
    await under_way  # it finished on its own connection, not cut off
    assert under_way.exception() is None
    assert "still in use" not in caplog.text  # nothing was terminated: the connection came back
    with pytest.raises(RuntimeError, match="not open"):
        await storage.leagues()
