"""Messages out: a post in a channel (its board, file, buttons and a nonce of its own) and a private
message that says where it comes from. ``posting.Walk`` and the outbox (``outbox.py``) both send
through here."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord_layer.components import pact_view, prompt_view, proposal_view
from bot.service.alt_text import ALT_LIMIT
from bot.service.model import Post
from bot.service.races import RaceService
from rules.i18n import _, speaking

log = logging.getLogger("domestique")


def as_file(name: str, data: bytes, alt: str = "") -> discord.File:
    """An attachment; ``alt`` describes it for a screen reader (cut at Discord's limit, on a word)."""
    described = alt if len(alt) <= ALT_LIMIT else alt[: ALT_LIMIT - 1].rsplit(" ", 1)[0] + "…"
    return discord.File(io.BytesIO(data), filename=name, description=described or None)


def where(channel: discord.abc.Messageable | None, guild: discord.Guild | None = None) -> str:
    """Where a private message comes from: the server, the channel and a link to it."""
    guild = getattr(channel, "guild", None) or guild
    name = getattr(channel, "name", None)
    channel_id = getattr(channel, "id", None)
    place = " · ".join(p for p in (guild.name if guild else None, f"#{name}" if name else None) if p)
    link = f"https://discord.com/channels/{guild.id}/{channel_id}" if guild and channel_id else ""
    origin = place or _("a server")
    return _("From {place} ({link})", place=origin, link=link) if link else _("From {place}", place=origin)


async def send_private(
    client: discord.Client,
    service: RaceService,
    channel: discord.abc.Messageable | None,
    user_id: int,
    text: str,
    *,
    guild: discord.Guild | None = None,
) -> None:
    """A private message that says where it comes from (``channel``, or only its server ``guild`` when the
    channel is gone). When it cannot be delivered (closed DMs), it is kept as a note and shown to the
    person, privately, the next time they act in that server.
    Written in the recipient's language (``text`` already is: the service made it so)."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        with speaking(await service.languages.private(user_id)):
            origin = where(channel, guild)
        await user.send(f"{origin}:\n{text}"[:2000])
    except discord.HTTPException:
        log.info("could not send a private message to user %s; kept as a note", user_id)
        server = getattr(channel, "guild", None) or guild
        if server is not None:
            await service.people.keep_note(server.id, user_id, text)


async def send_post(channel: discord.abc.Messageable, post: Post, *, nonce: str | None = None) -> discord.Message:
    """``post`` in ``channel``. ``nonce``: the message's own, kept with it when it must be sent again
    (Discord's ``enforce_nonce`` makes a second send of the same nonce return the first message)."""
    kwargs: dict[str, Any] = {
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in post.mentions], everyone=False, roles=False
        ),
    }
    if nonce is not None:
        kwargs["nonce"] = nonce
    files = []
    if post.image is not None:
        files.append(as_file(post.image_name, post.image, post.image_alt))
    if post.file is not None:
        files.append(as_file(*post.file))
    if files:
        kwargs["files"] = files
    if post.prompt is not None and post.prompt.choices:
        kwargs["view"] = prompt_view(post.prompt)
    elif post.alliance_proposal is not None:
        kwargs["view"] = proposal_view(post.alliance_proposal)
    elif post.pact_proposal is not None:
        kwargs["view"] = pact_view(post.pact_proposal)
    message: discord.Message = await channel.send(post.text[:2000] or "\u200b", **kwargs)
    return message
