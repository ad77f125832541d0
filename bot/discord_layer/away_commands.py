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


def visible_to(client: discord.Client, user_id: int) -> Visible:
    """Whether the person can see a race's channel: the bot shares its server with them and the
    channel is one they may view."""

    async def can_see(guild_id: int, channel_id: int) -> bool:
        guild = client.get_guild(guild_id)
        if guild is None:
            return False
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                return False
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return can_see


@race.command(name="mine", description="Every race you sit in, in every server: whose decision, when due (private)")
@app_commands.describe(page="the page of a long list")
async def race_mine(interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] = 1) -> None:
    bot = host(interaction)
    user = interaction.user.id
    await bot.answer(interaction, bot.service.away.mine(user, visible_to(interaction.client, user), page))


@race.command(name="away", description="The AI plays all your seats, in every race, until you are back")
@app_commands.describe(until="when you are back: 2d, 1w, 36h, a date like 2026-12-24 (UTC), or back")
async def race_away(interaction: discord.Interaction, until: str) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.away.away(interaction.user.id, until))
