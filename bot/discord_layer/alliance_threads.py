"""An alliance's private thread, opened before (``posting.open_private_thread``), given a new member."""

from __future__ import annotations

import logging

import discord

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
