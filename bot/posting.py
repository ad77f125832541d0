"""Turning service outcomes into Discord replies and messages, and refusals into short private replies.

This is the one place where errors become answers: a ``Refusal`` or a rules error becomes a
short ephemeral reply; anything unexpected becomes "something went wrong (ref ...)" with the
traceback in the log under the same reference. Tokens never reach a log line.
"""

from __future__ import annotations

import io
import logging
import secrets
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord

from bot.service import Refusal
from bot.views_model import Outcome, Post
from rules.errors import DomestiqueError

if TYPE_CHECKING:
    from bot.app import DomestiqueBot

log = logging.getLogger("domestique")


def _file(name: str, data: bytes) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def answer(interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True) -> None:
    """Run one intent for an interaction: defer, do it, reply, then post to the channel."""
    if defer:
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await work
    except (Refusal, DomestiqueError) as exc:
        await _say(interaction, str(exc), ephemeral=True)
        return
    except Exception:
        ref = secrets.token_hex(4)
        log.exception("unexpected error (ref %s) in %s", ref, interaction.data)
        await _say(
            interaction, f"Something went wrong (ref {ref}). Nothing was changed by this request.", ephemeral=True
        )
        return
    files = []
    if outcome.file is not None:
        files.append(_file(*outcome.file))
    if outcome.image is not None:
        files.append(_file("board.png", outcome.image))
    view = None
    if outcome.prompt is not None:
        from bot.components import menus

        prompt = outcome.prompt
        view = menus(prompt.race_id, prompt.version, list(prompt.choices), outcome.prompt_page, prompt.rider)
    elif outcome.lobby_race is not None:
        from bot.components import lobby_view

        view = lobby_view(outcome.lobby_race, outcome.lobby_colours)
    await _say(interaction, outcome.reply or "Done.", ephemeral=outcome.ephemeral, files=files, view=view)
    bot = interaction.client
    channel = interaction.channel
    if isinstance(channel, discord.abc.Messageable):
        await post_all(bot, channel, outcome)  # type: ignore[arg-type]


async def _say(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    kwargs: dict[str, object] = {"ephemeral": ephemeral, "allowed_mentions": discord.AllowedMentions.none()}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], **kwargs)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(text[:2000], **kwargs)  # type: ignore[arg-type]


async def post_all(bot: DomestiqueBot, channel: discord.abc.Messageable, outcome: Outcome) -> None:
    from bot.components import prompt_view

    for post in outcome.posts:
        await send_post(channel, post, prompt_view)
    for name, users in outcome.threads:
        await open_private_thread(bot, channel, name, users, outcome.alliance_thread)
    for user_id, text in outcome.dms:
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not send a private message to user %s", user_id)


async def open_private_thread(
    bot: DomestiqueBot, channel: discord.abc.Messageable, name: str, users: list[int], alliance_id: int | None
) -> None:
    """A private thread with exactly ``users``; where the server does not allow it, say so plainly."""
    if not isinstance(channel, discord.TextChannel):
        await channel.send(f"{name}: private threads can only be opened in a text channel; talk in private messages.")
        return
    try:
        thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.private_thread, invitable=False)
        for user in users:
            await thread.add_user(discord.Object(user))
    except discord.Forbidden:
        await channel.send(
            f"I could not open a private thread for {name}: this server does not let me. "
            "Give me the Create Private Threads and Send Messages in Threads permissions in this "
            "channel, or talk in private messages."
        )
        return
    except discord.HTTPException as exc:
        await channel.send(f"I could not open a private thread for {name} ({exc.text or exc.status}).")
        return
    await thread.send(
        f"{' '.join(f'<@{u}>' for u in users)}: this thread is yours alone.",
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
    )
    if alliance_id is not None:
        await bot.alliances.thread_opened(alliance_id, thread.id)


async def send_post(channel: discord.abc.Messageable, post: Post, prompt_view: object) -> discord.Message:
    kwargs: dict[str, object] = {
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in post.mentions], everyone=False, roles=False
        ),
    }
    files = []
    if post.image is not None:
        files.append(_file(post.image_name, post.image))
    if post.file is not None:
        files.append(_file(*post.file))
    if files:
        kwargs["files"] = files
    if post.prompt is not None and post.prompt.choices:
        kwargs["view"] = prompt_view(post.prompt)  # type: ignore[operator]
    elif post.alliance_proposal is not None:
        from bot.components import proposal_view

        kwargs["view"] = proposal_view(post.alliance_proposal)
    return await channel.send(post.text[:2000] or "\u200b", **kwargs)  # type: ignore[arg-type]
