"""The private "decide ahead" menu (``/race ahead``): its choices carry race, version and index, like prompts."""

from __future__ import annotations

from collections.abc import Awaitable

import discord

from bot.discord_layer.components import MENU, MENUS_PER_MESSAGE, ChoiceSelect, select_options
from bot.discord_layer.host import Host
from bot.service.model import Outcome, Prompt
from rules.i18n import _


class AheadSelect(ChoiceSelect, template=r"dq:ah:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)"):
    """A prompt's menu (``ChoiceSelect``) under its own custom id: a pick is a decision made ahead."""

    prefix = "dq:ah"

    def decide(self, bot: Host, user_id: int, index: int) -> Awaitable[Outcome]:
        return bot.service.pace.decide_ahead(self.race, self.version, user_id, index)


def ahead_view(prompt: Prompt) -> discord.ui.View:
    """Up to four menus of 25 choices of the decision to come (a decision ahead is rarely longer)."""
    view = discord.ui.View(timeout=None)
    shown = prompt.choices[: MENU * MENUS_PER_MESSAGE]
    for n in range(0, len(shown), MENU):
        part = shown[n : n + MENU]
        placeholder = _(
            "Decide ahead: choices {first}–{last} of {count}",
            first=n + 1,
            last=n + len(part),
            count=len(prompt.choices),
        )
        view.add_item(AheadSelect(prompt.race_id, prompt.version, n // MENU, select_options(part), placeholder))
    return view
