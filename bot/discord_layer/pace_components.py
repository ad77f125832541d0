"""The private "decide ahead" menu (``/race ahead``): its choices carry race, version and index, like prompts."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_layer.components import MENU, MENUS_PER_MESSAGE, _options, _selected
from bot.discord_layer.host import host
from bot.service.model import Prompt


class AheadSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dq:ah:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)",
):
    def __init__(
        self,
        race: int,
        version: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Decide ahead",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"dq:ah:{race}:{version}:{page}",
            options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder[:150],
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.race, self.version = race, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AheadSelect:
        return cls(int(match["race"]), int(match["version"]), int(match["page"]), _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = _selected(interaction)
        index = int(value) if value is not None and value.isdigit() else -1
        bot = host(interaction)
        await bot.answer(interaction, bot.service.decide_ahead(self.race, self.version, interaction.user.id, index))


def ahead_view(prompt: Prompt) -> discord.ui.View:
    """Up to four menus of 25 choices of the decision to come (a decision ahead is rarely longer)."""
    view = discord.ui.View(timeout=None)
    shown = prompt.choices[: MENU * MENUS_PER_MESSAGE]
    for n in range(0, len(shown), MENU):
        part = shown[n : n + MENU]
        options = [
            discord.SelectOption(
                label=c.label[:100],
                value=str(c.index),
                description=c.detail[:100] or None,
                emoji="⚠️" if c.risky else None,
            )
            for c in part
        ]
        placeholder = f"Decide ahead: choices {n + 1}–{n + len(part)} of {len(prompt.choices)}"
        view.add_item(AheadSelect(prompt.race_id, prompt.version, n // MENU, options, placeholder))
    return view
