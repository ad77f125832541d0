"""Who is away (``/race away``): a person's seats in every race are played by the AI until a time.

One row per person (not per server: an absence covers every race they sit in). The SQL runs on
SQLite and, through ``PostgresStorage``, on PostgreSQL (its twin is ``schema.MIGRATIONS`` 6).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.database import Database


class AwayTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_away(self, user_id: int, until: float, since: float) -> None:
        await self.db.update(
            "INSERT INTO away (user_id, until, since) VALUES ({}, {}, {}) "
            "ON CONFLICT(user_id) DO UPDATE SET until = excluded.until, since = excluded.since",
            (user_id, until, since),
        )

    async def away_until(self, user_ids: Sequence[int]) -> dict[int, float]:
        """When each of ``user_ids`` who is away comes back."""
        if not user_ids:
            return {}
        marks = ", ".join("{}" for _ in user_ids)
        rows = await self.db.rows(f"SELECT user_id, until FROM away WHERE user_id IN ({marks})", tuple(user_ids))
        return {int(r[0]): float(r[1]) for r in rows}

    async def end_away(self, user_id: int, until: float | None = None) -> bool:
        """Forget the person's absence (only the one ending at ``until``, if given); False when
        there was none (or another process ended it first)."""
        if until is None:
            return await self.db.update("DELETE FROM away WHERE user_id = {}", (user_id,)) > 0
        return await self.db.update("DELETE FROM away WHERE user_id = {} AND until = {}", (user_id, until)) > 0

    async def aways_due(self, now: float) -> list[tuple[int, float]]:
        """(person, until) of every absence that has ended by ``now``."""
        rows = await self.db.rows("SELECT user_id, until FROM away WHERE until <= {}", (now,))
        return [(int(r[0]), float(r[1])) for r in rows]

    async def next_return(self) -> float | None:
        rows = await self.db.rows("SELECT MIN(until) FROM away")
        return float(rows[0][0]) if rows and rows[0][0] is not None else None
