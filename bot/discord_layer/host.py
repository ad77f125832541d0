"""What commands and components need from the running bot, as a protocol (no import of the client)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, cast

import discord

from bot.discord_layer.live_prompts import LivePrompts
from bot.leagues.alliance import AllianceService
from bot.leagues.league import LeagueService
from bot.service.model import Outcome
from bot.service.races import RaceService


class Host(Protocol):
    service: RaceService
    leagues: LeagueService
    alliances: AllianceService
    live_prompts: LivePrompts

    async def answer(
        self, interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True
    ) -> None: ...


def host(interaction: discord.Interaction) -> Host:
    """The bot behind an interaction (``DomestiqueBot`` implements ``Host``)."""
    return cast(Host, interaction.client)


def channel_of(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0
