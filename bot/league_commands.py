"""/league and /alliance commands."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.posting import answer

Team = Literal["yellow", "blue", "green", "white", "black"]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def _leagues(interaction: discord.Interaction) -> Any:
    return interaction.client.leagues  # type: ignore[attr-defined]


def _alliances(interaction: discord.Interaction) -> Any:
    return interaction.client.alliances  # type: ignore[attr-defined]


def _manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


league = app_commands.Group(name="league", description="Weekly stages with a general classification", guild_only=True)


@league.command(name="create", description="Create a league you organise")
@app_commands.describe(
    stages="comma-separated stages: first-race, flatlands, random, random-15 ...",
    channel="where stages run (a thread each), or a category (a channel each)",
    weekday="the day stages open",
    hour="the hour they open (0-23)",
    timezone="e.g. Europe/Paris",
    timer="minutes per decision at most",
    ring="squares of the GC hexagon (a rider lapped is eliminated)",
)
async def league_create(
    interaction: discord.Interaction,
    name: str,
    channel: discord.TextChannel | discord.CategoryChannel,
    stages: str = "first-race,flatlands,col-du-domestique",
    weekday: Weekday = "sat",
    hour: app_commands.Range[int, 0, 23] = 18,
    timezone: str = "UTC",
    timer: app_commands.Range[int, 1, 10080] = 1440,
    riders: app_commands.Range[int, 1, 3] = 3,
    ring: app_commands.Range[int, 3, 40] = 12,
) -> None:
    work = _leagues(interaction).create(
        interaction.guild_id or 0,
        interaction.user.id,
        name[:60],
        channel.id,
        stages=stages,
        weekday=weekday,
        hour=hour,
        zone=timezone,
        timer=timer * 60,
        riders=riders,
        ring=ring,
        seed=interaction.id % 100000,
    )
    await answer(interaction, work, defer=False)


@league.command(name="join", description="Join a league with a team colour")
async def league_join(interaction: discord.Interaction, team: Team | None = None, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).join(
            interaction.guild_id or 0, league, interaction.user.id, interaction.user.display_name, team
        ),
        defer=False,
    )


@league.command(name="ai", description="Add an AI team (organiser)")
async def league_ai(interaction: discord.Interaction, team: Team | None = None, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).add_ai(
            interaction.guild_id or 0, league, interaction.user.id, _manager(interaction), team
        ),
        defer=False,
    )


@league.command(name="remove", description="Remove a player from the league (organiser)")
async def league_remove(interaction: discord.Interaction, member: discord.Member, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).remove(
            interaction.guild_id or 0, league, interaction.user.id, _manager(interaction), member.id
        ),
        defer=False,
    )


@league.command(name="close", description="Close entries and schedule the stages (organiser)")
async def league_close(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).close(interaction.guild_id or 0, league, interaction.user.id, _manager(interaction)),
        defer=False,
    )


@league.command(name="standings", description="The general classification")
async def league_standings(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(interaction, _leagues(interaction).standings(interaction.guild_id or 0, league))


@league.command(name="schedule", description="What runs when")
async def league_schedule(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(interaction, _leagues(interaction).schedule(interaction.guild_id or 0, league), defer=False)


@league.command(name="results", description="A stage's result")
async def league_results(
    interaction: discord.Interaction, stage: app_commands.Range[int, 1, 50], league: str | None = None
) -> None:
    await answer(interaction, _leagues(interaction).results(interaction.guild_id or 0, league, stage), defer=False)


@league.command(name="export", description="Every stage record and the classification, as one file")
async def league_export(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(interaction, _leagues(interaction).export(interaction.guild_id or 0, league))


alliance = app_commands.Group(name="alliance", description="Alliances between players of this race", guild_only=True)


@alliance.command(name="propose", description="Propose an alliance to another player of this race")
async def alliance_propose(interaction: discord.Interaction, player: discord.Member) -> None:
    await answer(
        interaction,
        _alliances(interaction).propose(interaction.channel_id or 0, interaction.user.id, player.id),
        defer=False,
    )


@alliance.command(name="leave", description="End your alliances in this race (announced)")
async def alliance_leave(interaction: discord.Interaction) -> None:
    await answer(
        interaction, _alliances(interaction).leave(interaction.channel_id or 0, interaction.user.id), defer=False
    )


@alliance.command(name="share", description="Show your kept feed tiles to an ally, privately")
async def alliance_share(interaction: discord.Interaction, ally: discord.Member) -> None:
    await answer(
        interaction,
        _alliances(interaction).share_hand(interaction.channel_id or 0, interaction.user.id, ally.id),
        defer=False,
    )


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(league)
    tree.add_command(alliance)
