"""Turning service outcomes into Discord replies and messages, and refusals into short private replies.

This is the one place where errors become answers: a ``Refusal`` or a rules error becomes a
short ephemeral reply; anything unexpected becomes "something went wrong (ref ...)" with the
traceback in the log under the same reference. Tokens never reach a log line.
"""

from __future__ import annotations

import contextlib
import io
import logging
import secrets
from collections.abc import Awaitable
from typing import Any, cast

import discord

from bot.discord_layer.components import lobby_view, menus, prompt_view, proposal_view
from bot.discord_layer.draft_components import edit_lobby, post_lobby
from bot.discord_layer.host import Host
from bot.discord_layer.live_prompts import REPLACED
from bot.discord_layer.pace_components import ahead_view
from bot.service.common import Refusal, chunks
from bot.service.model import Outcome, Post
from rules.errors import DomestiqueError

log = logging.getLogger("domestique")


def _file(name: str, data: bytes) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def answer(interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True) -> None:
    """Run one intent for an interaction: defer, do it, reply, then post to the channel.

    A click on a public prompt that decides needs no reply of its own: the prompt is edited in
    place to show the choice made, its components removed. Elsewhere (typed play, a private
    menu) the decision's one-line result is posted in the channel.
    """
    clicked = interaction.type == discord.InteractionType.component and interaction.message is not None
    public_prompt = clicked and not (interaction.message and interaction.message.flags.ephemeral)
    if defer:
        if public_prompt:
            await interaction.response.defer()  # an update of the clicked message, no "thinking"
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await work
    except (Refusal, DomestiqueError) as exc:
        await say(interaction, str(exc), ephemeral=True)
        return
    except Exception:
        ref = secrets.token_hex(4)
        log.exception("unexpected error (ref %s) in %s", ref, interaction.data)
        await say(
            interaction, f"Something went wrong (ref {ref}). Nothing was changed by this request.", ephemeral=True
        )
        return
    drafted = outcome.lobby_edit is not None and public_prompt and defer
    typed_lobby = outcome.lobby_race is not None and not (public_prompt and defer)
    if typed_lobby and await edit_lobby_message(interaction, outcome):
        # a typed lobby command: the lobby message shows the change, the command says it in a line
        outcome.reply, outcome.lobby_race = outcome.lobby_line, None
    if outcome.lobby_edit is not None and outcome.retire is not None:
        # a draft pick: the channel's post tells it and the lobby message shows it; a typed one
        # is answered privately with the pick itself
        outcome.reply, outcome.retire = outcome.retire, None
    if outcome.retire is not None:
        live = cast(Host, interaction.client).live_prompts
        if public_prompt and defer and interaction.message is not None:
            shown = f"{interaction.message.content}\n{outcome.retire}"[:2000]
            await interaction.edit_original_response(content=shown, view=None)
            live.answered(interaction.channel_id or 0, interaction.message.id)
        else:
            # answered elsewhere (a private menu, typed): the public prompt shows the line, as a click's does
            channel = interaction.channel
            if not (isinstance(channel, discord.abc.Messageable) and await live.retire(channel, outcome.retire)):
                outcome.posts.insert(0, Post(outcome.retire))
            if clicked and defer:
                await interaction.edit_original_response(content=outcome.retire, view=None)
    if outcome.lobby_race is not None and public_prompt and defer:
        # the lobby is one message, edited in place: who sits where, and its live buttons
        view = lobby_view(outcome.lobby_race, outcome.lobby_colours)
        await interaction.edit_original_response(content=outcome.reply[:2000], view=view)
        if interaction.message is not None:
            await remember_lobby(interaction, outcome.lobby_race, interaction.message.id)
    elif drafted:
        pass  # a click on the lobby message (start, or a pick): the message itself shows what it did
    elif outcome.retire is None or not clicked or not defer:
        await _reply(interaction, outcome)
        if outcome.lobby_race is not None and not outcome.ephemeral:
            with contextlib.suppress(discord.HTTPException):
                lobby_message = await interaction.original_response()
                await remember_lobby(interaction, outcome.lobby_race, lobby_message.id)
    channel = interaction.channel
    if isinstance(channel, discord.abc.Messageable):
        await post_all(interaction.client, channel, outcome)
    await hand_over_notes(interaction)


async def edit_lobby_message(interaction: discord.Interaction, outcome: Outcome) -> bool:
    """Show the lobby as it is now on its one message; False when there is none to edit (not known
    yet, or deleted): the lobby is then posted anew."""
    partial = getattr(interaction.channel, "get_partial_message", None)
    if outcome.lobby_race is None or outcome.lobby_message is None or not outcome.lobby_line or partial is None:
        return False
    view = lobby_view(outcome.lobby_race, outcome.lobby_colours)
    try:
        await partial(outcome.lobby_message).edit(
            content=outcome.reply[:2000], view=view, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.info("race %s: its lobby message could not be edited; the lobby is posted anew", outcome.lobby_race)
        return False
    return True


async def remember_lobby(interaction: discord.Interaction, race_id: int, message_id: int) -> None:
    """The lobby message just shown is the one a game's draft becomes when the race starts."""
    await cast(Host, interaction.client).service.lobby.remember_lobby_message(race_id, message_id)


async def _reply(interaction: discord.Interaction, outcome: Outcome) -> None:
    files = []
    if outcome.file is not None:
        files.append(_file(*outcome.file))
    if outcome.image is not None:
        files.append(_file("board.png", outcome.image))
    view = None
    if outcome.prompt is not None and outcome.prompt.ahead:
        view = ahead_view(outcome.prompt)
    elif outcome.prompt is not None:
        view = menus(outcome.prompt, outcome.prompt_page)
    elif outcome.lobby_race is not None:
        view = lobby_view(outcome.lobby_race, outcome.lobby_colours)
    text = outcome.retire if (outcome.retire and outcome.reply == "Done.") else outcome.reply
    await say(interaction, text or "Done.", ephemeral=outcome.ephemeral, files=files, view=view)


async def say(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": discord.AllowedMentions.none()}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    # a long answer is split on line ends into several messages, never cut; the files and the
    # view go with the last part
    parts = chunks(text)
    quiet = {k: v for k, v in kwargs.items() if k in ("ephemeral", "allowed_mentions")}
    for n, part in enumerate(parts):
        extra = kwargs if n == len(parts) - 1 else quiet
        if interaction.response.is_done():
            await interaction.followup.send(part or "\u200b", **extra)
        else:
            await interaction.response.send_message(part or "\u200b", **extra)


async def post_all(client: discord.Client, channel: discord.abc.Messageable, outcome: Outcome) -> None:
    # the lobby message shows a draft pick before the channel is told of it; posted anew, it comes
    # below the posts (the draft stays the channel's latest message, where its menu is easy to find)
    edit = outcome.lobby_edit
    edited = edit is not None and await edit_lobby(channel, edit)
    live = cast(Host, client).live_prompts
    async with live.lock(channel):  # retire, post, remember: one outcome at a time in a channel
        prompted = False
        for post in outcome.posts:
            prompt = post.prompt is not None and bool(post.prompt.choices)
            if prompt:  # one live prompt in a channel: the one on screen gives way, saying why
                await live.retire(channel, outcome.replaced or REPLACED)
            message = await send_post(channel, post)
            if prompt:
                live.posted(message)
                prompted = True
        if outcome.closed is not None and not prompted:  # the race ended with no prompt to follow
            await live.retire(channel, outcome.closed)
    if edit is not None and not edited:
        await post_lobby(client, channel, edit)
    for name, users in outcome.threads:
        await open_private_thread(client, channel, name, users, outcome.alliance_thread)
    for user_id, text in outcome.dms:
        await send_private(client, channel, user_id, text)
    for channel_id, told in outcome.elsewhere:  # other races' channels (``/race away``, a return)
        other = client.get_channel(channel_id)
        if not isinstance(other, discord.abc.Messageable):
            continue  # not this process's server (a shard cluster), or gone
        try:
            await post_all(client, other, told)
        except discord.HTTPException:
            log.info("could not post in channel %s", channel_id)


def where(channel: discord.abc.Messageable) -> str:
    """Where a private message comes from: the server, the channel and a link to it."""
    guild = getattr(channel, "guild", None)
    name = getattr(channel, "name", None)
    channel_id = getattr(channel, "id", None)
    place = " · ".join(p for p in (guild.name if guild else None, f"#{name}" if name else None) if p)
    link = f"https://discord.com/channels/{guild.id}/{channel_id}" if guild and channel_id else ""
    return f"From {place or 'a server'}" + (f" ({link})" if link else "")


async def send_private(client: discord.Client, channel: discord.abc.Messageable, user_id: int, text: str) -> None:
    """A private message that says where it comes from. When it cannot be delivered (closed DMs),
    it is kept as a note and shown to the person, privately, the next time they act in that server."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        await user.send(f"{where(channel)}:\n{text}"[:2000])
    except discord.HTTPException:
        log.info("could not send a private message to user %s; kept as a note", user_id)
        guild = getattr(channel, "guild", None)
        if guild is not None:
            await cast(Host, client).service.people.keep_note(guild.id, user_id, text)


async def hand_over_notes(interaction: discord.Interaction) -> None:
    """Private messages that could not reach the person, shown to them now (only they see it)."""
    if interaction.guild_id is None:
        return
    notes = await cast(Host, interaction.client).service.people.notes_for(interaction.guild_id, interaction.user.id)
    if not notes:
        return
    text = (
        "I could not send you a private message (your direct messages from this server are closed), "
        "so here it is:\n" + "\n".join(f"- {note}" for note in notes)
    )
    await say(interaction, text, ephemeral=True)


async def open_private_thread(
    client: discord.Client, channel: discord.abc.Messageable, name: str, users: list[int], alliance_id: int | None
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
        await cast(Host, client).alliances.thread_opened(alliance_id, thread.id)


async def send_post(channel: discord.abc.Messageable, post: Post) -> discord.Message:
    kwargs: dict[str, Any] = {
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
        kwargs["view"] = prompt_view(post.prompt)
    elif post.alliance_proposal is not None:
        kwargs["view"] = proposal_view(post.alliance_proposal)
    message: discord.Message = await channel.send(post.text[:2000] or "\u200b", **kwargs)
    return message
