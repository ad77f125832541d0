"""What the SQLite storage keeps about people in a server: how they want to be told, and
private notes kept for them when a direct message could not be delivered."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

NOTE_LIMIT = 20  # notes kept per person and server; older ones are dropped


class PeopleTables(ABC):
    @abstractmethod
    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]: ...

    @abstractmethod
    async def _update(self, sql: str, args: tuple[Any, ...] = ()) -> int: ...

    @abstractmethod
    async def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None: ...

    async def notify_mode(self, guild_id: int, user_id: int) -> str | None:
        rows = await self._rows("SELECT notify FROM people WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return str(rows[0][0]) if rows else None

    async def set_notify_mode(self, guild_id: int, user_id: int, mode: str) -> None:
        await self._update(
            "INSERT INTO people (guild_id, user_id, notify) VALUES (?, ?, ?) "
            "ON CONFLICT(guild_id, user_id) DO UPDATE SET notify = excluded.notify",
            (guild_id, user_id, mode),
        )

    async def add_note(self, guild_id: int, user_id: int, text: str) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO notes (guild_id, user_id, text, created) VALUES (?, ?, ?, ?)",
                    (guild_id, user_id, text, time.time()),
                ),
                (
                    "DELETE FROM notes WHERE guild_id = ? AND user_id = ? AND id NOT IN "
                    "(SELECT id FROM notes WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?)",
                    (guild_id, user_id, guild_id, user_id, NOTE_LIMIT),
                ),
            ]
        )

    async def take_notes(self, guild_id: int, user_id: int) -> list[str]:
        """The notes kept for a person, oldest first, removed as they are handed over."""
        rows = await self._rows(
            "SELECT id, text FROM notes WHERE guild_id = ? AND user_id = ? ORDER BY id", (guild_id, user_id)
        )
        if rows:
            await self._update(
                f"DELETE FROM notes WHERE id IN ({', '.join('?' for _ in rows)})", tuple(int(r[0]) for r in rows)
            )
        return [str(r[1]) for r in rows]
