"""The channel's live prompt: the one public message whose buttons answer its race now.

A prompt answered with a click on it is retired in place by that click (``posting.answer``). One
whose moment ends otherwise is retired here, its buttons removed and a line added that says why:
answered elsewhere (in the private menu of its first step, by a typed ``/play move``: the
decision's line, as a click shows it), replaced by a newer prompt (``/race back``, a timer), or
the race over (its finish, an abort).
Kept per channel (one race per channel) in memory and in the database (``bot/storage/prompt_tables.py``):
a restarted bot still knows which message to retire.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.storage import PromptStorage
from rules.i18n import N_

log = logging.getLogger("domestique")
REPLACED = N_("The prompt below replaces this one.")  # shown as "⏭ " + _(REPLACED)


class LivePrompts:
    def __init__(self, storage: PromptStorage) -> None:
        self.storage = storage
        self._shown: dict[int, tuple[int, str]] = {}  # channel -> (message id, its text)
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, channel: discord.abc.Messageable) -> asyncio.Lock:
        """Held while a channel's posts go out: two outcomes (a timer's, a click's) never both find no
        live prompt to retire and each post one."""
        channel_id = int(getattr(channel, "id", 0) or 0)
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def posted(self, message: discord.Message) -> None:
        """``message`` is the channel's prompt now."""
        self._shown[message.channel.id] = (message.id, message.content)
        await self.storage.keep_live_prompt(message.channel.id, message.id, message.content)

    async def answered(self, channel_id: int, message_id: int) -> None:
        """The prompt ``message_id`` was answered on itself (and retired by its click)."""
        if self._shown.get(channel_id, (None, ""))[0] == message_id:
            del self._shown[channel_id]
        await self.storage.drop_live_prompt(channel_id, message_id)

    async def deleted(self, channel_id: int, message_id: int) -> bool:
        """A message of ``channel_id`` was deleted; True when it was the channel's live prompt (now forgotten)."""
        shown = self._shown.get(channel_id) or await self.storage.live_prompt(channel_id)
        if shown is None or shown[0] != message_id:
            return False
        self._shown.pop(channel_id, None)
        await self.storage.drop_live_prompt(channel_id, message_id)
        return True

    async def retire(self, channel: discord.abc.Messageable, why: str) -> bool:
        """Retire the channel's live prompt, if one is known: no buttons, ``why`` below its text.
        False when there was none to retire (or it could not be edited)."""
        channel_id = getattr(channel, "id", None)
        partial = getattr(channel, "get_partial_message", None)
        if channel_id is None or partial is None:
            return False
        shown = self._shown.pop(channel_id, None) or await self.storage.live_prompt(channel_id)  # after a restart
        if shown is None:
            return False
        await self.storage.drop_live_prompt(channel_id)
        message_id, text = shown
        try:
            await partial(message_id).edit(
                content=f"{text}\n{why}"[:2000], view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.info("channel %s: its last prompt could not be retired", channel_id)
            return False
        return True
