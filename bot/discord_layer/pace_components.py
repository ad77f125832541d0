"""The private "decide ahead" menu (``/race ahead``): its choices carry race, version and index, like prompts."""

from __future__ import annotations

import discord

from bot.discord_layer.components import MENU, MENUS_PER_MESSAGE, ChoiceSelect, _selected
from bot.discord_layer.host import host
from bot.service.model import Prompt


class AheadSelect(ChoiceSelect, template=r"dq:ah:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)"):
    """A prompt's menu (``ChoiceSelect``) under its own custom id: a pick is a decision made ahead."""

    def __init__(
        self,
        race: int,
        version: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Decide ahead",
    ) -> None:
        select = ChoiceSelect(race, version, page, options, placeholder).item
        select.custom_id = f"dq:ah:{race}:{version}:{page}"
        # ChoiceSelect's own __init__ would check the prompt's custom id against this template
        discord.ui.DynamicItem.__init__(self, select)
        self.race, self.version = race, version

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
