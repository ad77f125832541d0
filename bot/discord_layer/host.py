"""What commands and components need from the running bot, as a protocol (no import of the client)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, cast

import discord

from bot.discord_layer.failures import FailureCounts
from bot.discord_layer.live_prompts import LivePrompts
from bot.leagues.alliance import AllianceService
from bot.leagues.league import LeagueService
from bot.leagues.pacts import PactService
from bot.service.model import Outcome
from bot.service.races import RaceService
from bot.storage.outbox_tables import OwedPost


class ChannelOutbox(Protocol):
    """What the channels are owed (``outbox.Outbox``): a post Discord refused, kept and sent again."""

    owed: set[int]

    def owes(self, channel_id: int) -> bool: ...
    async def keep(self, posts: list[OwedPost]) -> None: ...
    async def refresh(self, channel_id: int, guild_id: int) -> None: ...


class Host(Protocol):
    service: RaceService
    leagues: LeagueService
    alliances: AllianceService
    pacts: PactService
    live_prompts: LivePrompts
    outbox: ChannelOutbox  # what Discord did not take, sent again
    failures: FailureCounts  # Discord's failures by kind (the health page)

    async def answer(
        self, interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True
    ) -> None: ...


def host(interaction: discord.Interaction) -> Host:
    """The bot behind an interaction (``DomestiqueBot`` implements ``Host``)."""
    return cast(Host, interaction.client)


def channel_of(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0
