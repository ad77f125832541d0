"""Each channel's live prompt (``bot/discord_layer/live_prompts.py``): the message whose buttons answer
its race now, and its text, kept so that a restarted bot still retires it (its buttons removed, a line
saying why) when the decision is made some other way. One row a channel; the SQL runs on SQLite and
PostgreSQL (``schema.MIGRATIONS`` 9)."""

from __future__ import annotations

from bot.storage.database import Database


class PromptTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def live_prompt(self, channel_id: int) -> tuple[int, str] | None:
        """(message id, text) of the channel's live prompt, if one is kept."""
        rows = await self.db.rows("SELECT message_id, content FROM live_prompts WHERE channel_id = {}", (channel_id,))
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    async def keep_live_prompt(self, channel_id: int, message_id: int, content: str) -> None:
        """``message_id`` is the channel's live prompt now."""
        await self.db.update(
            "INSERT INTO live_prompts (channel_id, message_id, content) VALUES ({}, {}, {}) "
            "ON CONFLICT(channel_id) DO UPDATE SET message_id = excluded.message_id, content = excluded.content",
            (channel_id, message_id, content),
        )

    async def drop_live_prompt(self, channel_id: int, message_id: int | None = None) -> None:
        """The channel has no live prompt now (``message_id``: only if it is still that one)."""
        if message_id is None:
            await self.db.update("DELETE FROM live_prompts WHERE channel_id = {}", (channel_id,))
        else:
            await self.db.update(
                "DELETE FROM live_prompts WHERE channel_id = {} AND message_id = {}", (channel_id, message_id)
            )
