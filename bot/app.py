"""The Discord client: commands synced on start, buttons that survive restarts, timers from the database."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import discord
from discord import app_commands

from bot.commands import register
from bot.components import DYNAMIC_ITEMS
from bot.posting import post_all
from bot.service import RaceService
from bot.storage import SqliteStorage

log = logging.getLogger("domestique")
IDLE_CHECK = 60.0


class DomestiqueBot(discord.Client):
    def __init__(self, db_path: str, *, dev_guild: int | None = None, now: Callable[[], float] | None = None) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree: app_commands.CommandTree[DomestiqueBot] = app_commands.CommandTree(self)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        register(self.tree)
        self.storage = SqliteStorage(db_path)
        self.service = RaceService(self.storage, now=now or (lambda: discord.utils.utcnow().timestamp()))
        self.dev_guild = dev_guild
        self._timers: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        await self.storage.open()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self._timers = asyncio.create_task(self._run_timers())

    async def close(self) -> None:
        if self._timers is not None:
            self._timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timers
        await self.storage.close()
        await super().close()

    async def _run_timers(self) -> None:
        """Reminders and automatic decisions; deadlines live in the database, so they survive restarts."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                for channel_id, outcome in await self.service.tick():
                    channel = self.get_channel(channel_id)
                    if isinstance(channel, discord.abc.Messageable):
                        await post_all(self, channel, outcome)
                upcoming = await self.service.next_deadline()
            except Exception:
                log.exception("timer pass failed; retrying")
                upcoming = None
            now = self.service.now()
            wait = IDLE_CHECK if upcoming is None else min(IDLE_CHECK, max(1.0, upcoming - now))
            await asyncio.sleep(wait)

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        from bot.posting import _say

        if isinstance(error, app_commands.CheckFailure):
            await _say(interaction, "This command works in a server channel.", ephemeral=True)
            return
        ref = f"{interaction.id:x}"[-8:]
        log.error("command error (ref %s)", ref, exc_info=error)
        await _say(interaction, f"Something went wrong (ref {ref}). Nothing was changed.", ephemeral=True)
