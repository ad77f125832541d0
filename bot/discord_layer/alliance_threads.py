"""An alliance's private thread, opened before (``posting.open_private_thread``), given a new member;
an invitation or a pact proposal answered with its buttons, shown so on its message."""

from __future__ import annotations

import logging

import discord

from bot.service.model import Answered

log = logging.getLogger(__name__)


async def join_thread(client: discord.Client, thread_id: int, users: tuple[int, ...]) -> None:
    """``users`` added to the thread; a thread gone or refused is logged, never raised (the member is
    told in the channel that they joined, and the thread's members can add them by hand)."""
    thread = client.get_channel(thread_id)
    if not isinstance(thread, discord.Thread):
        log.warning("alliance thread %s is not known here: %s not added", thread_id, users)
        return
    for user in users:
        try:
            await thread.add_user(discord.Object(user))
        except discord.HTTPException as exc:
            log.warning("could not add %s to alliance thread %s: %s", user, thread_id, exc)


async def answered_on(message: discord.Message | None, answered: Answered) -> None:
    """The clicked invitation or proposal says who answered, and loses its buttons once it is settled.
    Someone else's invitation to the same alliance (it does not mention the one who answered) stays."""
    if message is None or (answered.user_id is not None and answered.user_id not in message.raw_mentions):
        return
    content = f"{message.content}\n{answered.line}"[:2000]
    none = discord.AllowedMentions.none()
    if answered.closed:
        await message.edit(content=content, view=None, allowed_mentions=none)
    else:
        await message.edit(content=content, allowed_mentions=none)
