"""Premoves, standing orders, time banks and decision times (same connection and lock as the races).

Their schema is migrations 4 and 5 (``bot/storage/schema.py``). A commit's clocks and decision times are written in the
transaction that appends its actions (``CLOCK_SQL``, ``PACE_TIME_SQL``: ``sql.py``), so a
decision is never saved without its charge; an undo drops the decision times of the actions
it takes back and sets the clocks as they were before them, in its own transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage import Clock, PaceTime, Premove, StandingOrder
from bot.storage.database import Database

CLOCK_SQL = (
    "INSERT INTO clocks (race_id, player, budget, used, asked) VALUES ({}, {}, {}, {}, {}) "
    "ON CONFLICT(race_id, player) DO UPDATE SET budget = excluded.budget, used = excluded.used, "
    "asked = excluded.asked"
)
PACE_TIME_SQL = "INSERT INTO pace_times (race_id, player, seconds, automatic, idx) VALUES ({}, {}, {}, {}, {})"


def clock_rows(race_id: int, clocks: Sequence[Clock]) -> list[tuple[Any, ...]]:
    return [(race_id, c.player, c.budget, c.used, c.asked) for c in clocks]


def pace_time_rows(times: Sequence[PaceTime]) -> list[tuple[Any, ...]]:
    return [(t.race_id, t.player, t.seconds, int(t.automatic), t.index) for t in times]


PREMOVES_SQL = (
    "SELECT player, kind, piece, action, label, detail, user_id FROM premoves WHERE race_id = {} ORDER BY player"
)
ORDERS_SQL = (
    "SELECT player, piece, kind, number, until, until_number FROM standing_orders WHERE race_id = {} "
    "ORDER BY player, piece, kind"
)


class PaceTables:
    """The pace part of ``SqlStorage``: each method one guarded statement."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_premove(self, race_id: int, premove: Premove) -> None:
        """Set (or replace) the player's decision made ahead."""
        p = premove
        await self.db.update(
            "INSERT INTO premoves (race_id, player, kind, piece, action, label, detail, user_id) "
            "VALUES ({}, {}, {}, {}, {}, {}, {}, {}) ON CONFLICT(race_id, player) DO UPDATE SET kind = excluded.kind, "
            "piece = excluded.piece, action = excluded.action, label = excluded.label, detail = excluded.detail, "
            "user_id = excluded.user_id",
            (race_id, p.player, p.kind, p.piece, p.action, p.label, p.detail, p.user_id),
        )

    async def premoves(self, race_id: int) -> list[Premove]:
        return [Premove(*row) for row in await self.db.rows(PREMOVES_SQL, (race_id,))]

    async def plans(self, race_id: int) -> tuple[list[Premove], list[StandingOrder]]:
        """The race's decisions made ahead and standing orders, read together (every commit asks)."""
        premoves, orders = await self.db.reads([(PREMOVES_SQL, (race_id,)), (ORDERS_SQL, (race_id,))])
        return [Premove(*row) for row in premoves], [StandingOrder(*row) for row in orders]

    async def drop_premove(self, race_id: int, player: str) -> bool:
        """Forget the player's premove; whether there was one."""
        return await self.db.update("DELETE FROM premoves WHERE race_id = {} AND player = {}", (race_id, player)) > 0

    async def set_order(self, race_id: int, order: StandingOrder) -> None:
        o = order
        await self.db.update(
            "INSERT INTO standing_orders (race_id, player, piece, kind, number, until, until_number) "
            "VALUES ({}, {}, {}, {}, {}, {}, {}) ON CONFLICT(race_id, player, piece, kind) DO UPDATE SET "
            "number = excluded.number, until = excluded.until, until_number = excluded.until_number",
            (race_id, o.player, o.piece, o.kind, o.number, o.until, o.until_number),
        )

    async def orders(self, race_id: int) -> list[StandingOrder]:
        return [StandingOrder(*row) for row in await self.db.rows(ORDERS_SQL, (race_id,))]

    async def drop_orders(self, race_id: int, player: str, piece: str | None = None, kind: str | None = None) -> int:
        """Cancel a player's orders (all, one piece's, or one of its kinds); how many were cancelled."""
        sql = "DELETE FROM standing_orders WHERE race_id = {} AND player = {}"
        args: tuple[Any, ...] = (race_id, player)
        if piece is not None:
            sql, args = sql + " AND piece = {}", (*args, piece)
        if kind is not None:
            sql, args = sql + " AND kind = {}", (*args, kind)
        return await self.db.update(sql, args)

    async def clocks(self, race_id: int) -> list[Clock]:
        rows = await self.db.rows(
            "SELECT player, budget, used, asked FROM clocks WHERE race_id = {} ORDER BY player", (race_id,)
        )
        return [Clock(*row) for row in rows]

    async def save_clock(self, race_id: int, clock: Clock) -> None:
        await self.db.update(CLOCK_SQL, clock_rows(race_id, [clock])[0])

    async def add_pace_time(self, time: PaceTime) -> None:
        await self.db.update(PACE_TIME_SQL, pace_time_rows([time])[0])

    async def pace_times(self, race_ids: list[int]) -> list[PaceTime]:
        if not race_ids:
            return []
        marks = ", ".join("{}" for _ in race_ids)
        rows = await self.db.rows(
            f"SELECT race_id, player, seconds, automatic, idx FROM pace_times WHERE race_id IN ({marks}) ORDER BY id",
            tuple(race_ids),
        )
        return [PaceTime(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows]
