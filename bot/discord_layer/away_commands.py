"""``/race mine`` (every race I sit in) and ``/race away`` (the AI plays all my seats until a date).

They hang on the ``/race`` group and, unlike the channel's commands, work in a private message
to the bot too; importing this module adds them.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_layer.commands import race
from bot.discord_layer.host import host
from bot.service.away import Visible
from bot.service.bounds import MINE_PAGE
from bot.shards import Shards


def visible_to(client: discord.Client, user_id: int, shards: Shards) -> Visible:
    """Whether the person can see a race's channel: the bot shares its server with them and the
    channel is one they may view. A server of another process's shards (a shard cluster,
    ``docs/deploy.md``) is not in this process's cache: it is asked over Discord's REST API (the
    server and the member once per answer, each channel once)."""
    fetched: dict[int, tuple[discord.Guild, discord.Member] | None] = {}

    async def can_see(guild_id: int, channel_id: int) -> bool:
        guild = client.get_guild(guild_id)
        if guild is None:
            if shards.owns(guild_id):  # this process would hold it: the bot is not in that server
                return False
            return await _seen_elsewhere(client, fetched, guild_id, channel_id, user_id)
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                return False
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return can_see


async def _seen_elsewhere(
    client: discord.Client,
    fetched: dict[int, tuple[discord.Guild, discord.Member] | None],
    guild_id: int,
    channel_id: int,
    user_id: int,
) -> bool:
    """``can_see`` for a server another process of the cluster holds: the server (with its roles) and
    the member, fetched over REST once per server, then the channel (with its overwrites)."""
    if guild_id not in fetched:
        try:
            guild = await client.fetch_guild(guild_id)
            fetched[guild_id] = (guild, await guild.fetch_member(user_id))
        except discord.HTTPException:  # the bot or the person is not in it
            fetched[guild_id] = None
    found = fetched[guild_id]
    if found is None:
        return False
    guild, member = found
    try:
        channel = await guild.fetch_channel(channel_id)
    except discord.HTTPException:  # the channel is gone, or hidden from the bot
        return False
    return isinstance(channel, discord.abc.GuildChannel) and channel.permissions_for(member).view_channel


@race.command(name="mine", description="Every race you sit in, in every server: whose decision, when due (private)")
@app_commands.describe(page="the page of a long list")
async def race_mine(
    interaction: discord.Interaction, page: app_commands.Range[int, MINE_PAGE.low, MINE_PAGE.high] = 1
) -> None:
    bot = host(interaction)
    user = interaction.user.id
    can_see = visible_to(interaction.client, user, bot.service.core.shards)
    await bot.answer(interaction, bot.service.away.mine(user, can_see, page))


@race.command(name="away", description="The AI plays all your seats, in every race, until you are back")
@app_commands.describe(until="when you are back: 2d, 1w, 36h, a date like 2026-12-24 (UTC), or back")
async def race_away(interaction: discord.Interaction, until: str) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.away.away(interaction.user.id, until))
