"""Pace commands: ``/race ahead`` (decide ahead), ``/race order`` (standing orders), ``/race pace``, ``/league pace``.

They hang on the ``/race`` and ``/league`` groups; importing this module adds them.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_layer.commands import Choices, _matching, race
from bot.discord_layer.host import channel_of, host
from bot.discord_layer.league_commands import league
from bot.discord_layer.posting import in_own_language
from bot.service.bounds import ORDER_NUMBER, ORDER_UNTIL
from rules.i18n import _


@race.command(name="ahead", description="Decide your next decision now, while others decide (only you see it)")
@app_commands.describe(cancel="drop the decision you made ahead")
async def race_ahead(interaction: discord.Interaction, cancel: bool = False) -> None:
    bot = host(interaction)
    channel, user = channel_of(interaction), interaction.user.id
    work = bot.service.pace.cancel_ahead(channel, user) if cancel else bot.service.pace.ahead(channel, user)
    await bot.answer(interaction, work, defer=False)


@in_own_language
async def own_piece_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    pieces = await host(interaction).service.pace.own_piece_names(channel_of(interaction), interaction.user.id)
    return _matching(pieces, current)


@in_own_language
async def order_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    opened = await host(interaction).service.core.store.opened_in(channel_of(interaction))
    kinds = opened.game.pace.orders if opened is not None else ()
    return _matching([(k.name, _(k.label)) for k in kinds] + [("cancel", _("cancel this piece's orders"))], current)


@in_own_language
async def moment_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    opened = await host(interaction).service.core.store.opened_in(channel_of(interaction))
    moments = opened.game.pace.moments if opened is not None else ()
    return _matching([(m.name, _("until {moment}", moment=_(m.label))) for m in moments], current)


@race.command(name="order", description="A standing order for one of your pieces in routine decisions")
@app_commands.describe(
    piece="your rider or car",
    order="what it does until you say otherwise (or cancel)",
    number="the order's N, if it has one",
    until="a moment that ends the order",
    until_number="the moment's N, if it has one",
)
@app_commands.autocomplete(piece=own_piece_autocomplete, order=order_autocomplete, until=moment_autocomplete)
async def race_order(
    interaction: discord.Interaction,
    piece: str,
    order: str,
    number: app_commands.Range[int, ORDER_NUMBER.low, ORDER_NUMBER.high] | None = None,
    until: str | None = None,
    until_number: app_commands.Range[int, ORDER_UNTIL.low, ORDER_UNTIL.high] | None = None,
) -> None:
    bot = host(interaction)
    user = interaction.user.id
    work = bot.service.pace.order(channel_of(interaction), user, piece, order, number, until, until_number)
    await bot.answer(interaction, work, defer=False)


@race.command(name="pace", description="Each player's median and slowest decision times, and automatic ones")
async def race_pace(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.pace.pace(channel_of(interaction)), defer=False)


@league.command(name="pace", description="Each player's decision times over the league's stages")
async def league_pace(interaction: discord.Interaction, league: str | None = None) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.leagues.pace(interaction.guild_id or 0, league), defer=False)
