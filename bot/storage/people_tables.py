"""What the SQLite storage keeps about people in a server: how they want to be told, and
private notes kept for them when a direct message could not be delivered."""

from __future__ import annotations

import time
from collections import OrderedDict

from bot.storage.database import Database

NOTE_LIMIT = 20  # notes kept per person and server; older ones are dropped
MODES_KEPT = 4096  # people whose notify mode is remembered (a few bytes each)


class PeopleTables:
    def __init__(self, db: Database) -> None:
        self.db = db
        # Notify modes already read or set (None: the default), most recently used last. Every prompt
        # that pings asks for one, and they change only by ``set_notify_mode``, which a server's
        # commands reach in the one process that owns the server (a shard cluster splits by server),
        # the same process that posts its prompts.
        self._modes: OrderedDict[tuple[int, int], str | None] = OrderedDict()

    def _remember_mode(self, key: tuple[int, int], mode: str | None) -> None:
        self._modes[key] = mode
        self._modes.move_to_end(key)
        while len(self._modes) > MODES_KEPT:
            self._modes.popitem(last=False)

    async def notify_mode(self, guild_id: int, user_id: int) -> str | None:
        key = (guild_id, user_id)
        if key in self._modes:
            self._modes.move_to_end(key)
            return self._modes[key]
        rows = await self.db.rows("SELECT notify FROM people WHERE guild_id = {} AND user_id = {}", key)
        mode = str(rows[0][0]) if rows else None
        self._remember_mode(key, mode)
        return mode

    async def set_notify_mode(self, guild_id: int, user_id: int, mode: str) -> None:
        self._modes.pop((guild_id, user_id), None)  # never served stale, even if the write fails
        await self.db.update(
            "INSERT INTO people (guild_id, user_id, notify) VALUES ({}, {}, {}) "
            "ON CONFLICT(guild_id, user_id) DO UPDATE SET notify = excluded.notify",
            (guild_id, user_id, mode),
        )
        self._remember_mode((guild_id, user_id), mode)

    async def add_note(self, guild_id: int, user_id: int, text: str) -> None:
        await self.db.transaction(
            [
                (
                    "INSERT INTO notes (guild_id, user_id, text, created) VALUES ({}, {}, {}, {})",
                    (guild_id, user_id, text, time.time()),
                ),
                (
                    "DELETE FROM notes WHERE guild_id = {} AND user_id = {} AND id NOT IN "
                    "(SELECT id FROM notes WHERE guild_id = {} AND user_id = {} ORDER BY id DESC LIMIT {})",
                    (guild_id, user_id, guild_id, user_id, NOTE_LIMIT),
                ),
            ]
        )

    async def take_notes(self, guild_id: int, user_id: int) -> list[str]:
        """The notes kept for a person, oldest first, removed as they are handed over."""
        rows = await self.db.rows(
            "SELECT id, text FROM notes WHERE guild_id = {} AND user_id = {} ORDER BY id", (guild_id, user_id)
        )
        if rows:
            await self.db.update(
                f"DELETE FROM notes WHERE id IN ({', '.join('{}' for _ in rows)})", tuple(int(r[0]) for r in rows)
            )
        return [str(r[1]) for r in rows]
