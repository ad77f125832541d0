"""Each bot process's last word on its health, for the web pages' ``/health`` (another process):
a row per process, rewritten every few seconds (``bot/discord_layer/health.py``). The SQL runs on
SQLite and PostgreSQL (``schema.MIGRATIONS``)."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.database import Database

REPORT_EVERY = 10.0  # seconds between two reports of a process; one older than three of these is stale


class HealthTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def report_health(self, process: str, at: float, report: dict[str, Any]) -> None:
        await self.db.update(
            "INSERT INTO health (process, at, report) VALUES ({}, {}, {}) "
            "ON CONFLICT(process) DO UPDATE SET at = excluded.at, report = excluded.report",
            (process, at, json.dumps(report, sort_keys=True)),
        )

    async def health_reports(self) -> list[tuple[str, float, dict[str, Any]]]:
        """(process, when, its report) of every process that has reported, the latest first."""
        rows = await self.db.rows("SELECT process, at, report FROM health ORDER BY at DESC")
        return [(str(r[0]), float(r[1]), dict(json.loads(r[2]))) for r in rows]

    async def forget_health(self, process: str) -> None:
        """A process that stops cleanly leaves no stale report behind."""
        await self.db.update("DELETE FROM health WHERE process = {}", (process,))
