"""Buttons and select menus that survive restarts: every custom id carries race, version and choice.

A click is checked against the race's current version, so a button from an earlier state is
refused with a short private reply. Long lists of squares are split over several menus of 25,
and beyond four menus a "more" button pages them: no legal choice is ever dropped.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.posting import answer
from bot.views_model import ChoiceView, Prompt

MENU = 25
MENUS_PER_MESSAGE = 4


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:c:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<index>[0-9]+)",
):
    def __init__(
        self,
        race: int,
        version: int,
        index: int,
        label: str = "choose",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=f"dq:c:{race}:{version}:{index}", row=row)
        )
        self.race, self.version, self.index = race, version, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return cls(int(match["race"]), int(match["version"]), int(match["index"]), item.label or "choose")

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(
            interaction, _service(interaction).decide(self.race, self.version, interaction.user.id, self.index)
        )


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dq:s:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)",
):
    def __init__(
        self,
        race: int,
        version: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"dq:s:{race}:{version}:{page}",
            options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder[:150],
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.race, self.version = race, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> ChoiceSelect:
        return cls(int(match["race"]), int(match["version"]), int(match["page"]), list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        index = int(values[0]) if values and str(values[0]).isdigit() else -1
        await answer(interaction, _service(interaction).decide(self.race, self.version, interaction.user.id, index))


class RiderButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:r:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<rider>[a-z]+-[a-z]+)",
):
    """Breaking away in two steps: first the rider, then (privately) its squares."""

    def __init__(self, race: int, version: int, rider: str, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Break away: {rider}",
                style=discord.ButtonStyle.success,
                custom_id=f"dq:r:{race}:{version}:{rider}",
                row=row,
            )
        )
        self.race, self.version, self.rider = race, version, rider

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> RiderButton:
        return cls(int(match["race"]), int(match["version"]), match["rider"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(
            interaction, _service(interaction).rider_choices(self.race, self.version, interaction.user.id, self.rider)
        )


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:p:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)(?::(?P<rider>[a-z]+-[a-z]+))?",
):
    """More squares than four menus hold: the next ones, privately."""

    def __init__(self, race: int, version: int, page: int, rider: str | None = None) -> None:
        suffix = f":{rider}" if rider else ""
        super().__init__(
            discord.ui.Button(
                label="More squares…",
                style=discord.ButtonStyle.secondary,
                custom_id=f"dq:p:{race}:{version}:{page}{suffix}",
                row=4,
            )
        )
        self.race, self.version, self.page, self.rider = race, version, page, rider

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["race"]), int(match["version"]), int(match["page"]), match["rider"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(
            interaction,
            _service(interaction).choice_page(self.race, self.version, interaction.user.id, self.page, self.rider),
        )


def menus(race: int, version: int, choices: list[ChoiceView], page: int, rider: str | None) -> discord.ui.View:
    """Up to four menus of 25 squares, and a "more" button when there are more."""
    view = discord.ui.View(timeout=None)
    per_page = MENU * MENUS_PER_MESSAGE
    shown = choices[page * per_page : (page + 1) * per_page]
    for n in range(0, len(shown), MENU):
        part = shown[n : n + MENU]
        options = [
            discord.SelectOption(
                label=c.label[:100],
                value=str(c.index),
                description=c.description[:100] or None,
                emoji="⚠️" if c.risky else None,
            )
            for c in part
        ]
        first, last = part[0].label.split(" ")[0], part[-1].label.split(" ")[0]
        view.add_item(
            ChoiceSelect(
                race, version, page * MENUS_PER_MESSAGE + n // MENU, options, placeholder=f"Squares {first} … {last}"
            )
        )
    if len(choices) > (page + 1) * per_page:
        view.add_item(PageButton(race, version, page + 1, rider))
    return view


def prompt_view(prompt: Prompt) -> discord.ui.View:
    """The components of a decision prompt."""
    choices = list(prompt.choices)
    if prompt.kind == "ride":
        return menus(prompt.race_id, prompt.version, choices, 0, None)
    view = discord.ui.View(timeout=None)
    if prompt.kind == "buttons":  # a handful of choices (gears, leaving the pits): one button each
        for c in choices[:25]:
            view.add_item(
                ChoiceButton(
                    prompt.race_id,
                    prompt.version,
                    c.index,
                    c.label,
                    discord.ButtonStyle.danger if c.risky else discord.ButtonStyle.primary,
                )
            )
        return view
    if prompt.kind == "breakaway":
        riders = sorted({c.rider for c in choices if c.kind == "breakaway" and c.rider})
        for rider in riders:
            view.add_item(RiderButton(prompt.race_id, prompt.version, rider, row=0))
        for c in choices:
            if c.kind == "drop":
                view.add_item(
                    ChoiceButton(prompt.race_id, prompt.version, c.index, c.label, discord.ButtonStyle.secondary, row=1)
                )
    for c in choices:
        if c.kind in ("pass", "pursue"):
            style = discord.ButtonStyle.primary if c.kind == "pursue" else discord.ButtonStyle.secondary
            view.add_item(ChoiceButton(prompt.race_id, prompt.version, c.index, c.label, style, row=2))
    return view


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dq:l:(?P<race>[0-9]+):(?P<what>join|leave|ai|start)"
):
    LABELS: ClassVar[dict[str, str]] = {"join": "Join", "leave": "Leave", "ai": "Add AI rider", "start": "Start"}

    def __init__(self, race: int, what: str) -> None:
        style = discord.ButtonStyle.success if what in ("join", "start") else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=self.LABELS[what], style=style, custom_id=f"dq:l:{race}:{what}"))
        self.race, self.what = race, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["race"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        channel = interaction.channel_id or 0
        user = interaction.user
        work = {
            "join": lambda: service.join(channel, user.id, user.display_name),
            "leave": lambda: service.leave(channel, user.id),
            "ai": lambda: service.add_ai(channel, user.id),
            "start": lambda: service.start(channel, user.id),
        }[self.what]()
        await answer(interaction, work)


class ColourSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"dq:lc:(?P<race>[0-9]+)"):
    """Join the lobby in the colour you pick (the Join button takes the first free one)."""

    def __init__(self, race: int, colours: tuple[str, ...] = ()) -> None:
        options = [discord.SelectOption(label=c.capitalize(), value=c) for c in colours] or [
            discord.SelectOption(label="-", value="-")
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dq:lc:{race}", options=options, placeholder="Join in a colour…", min_values=1, max_values=1
            )
        )
        self.race = race

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> ColourSelect:
        return cls(int(match["race"]), tuple(o.value for o in item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        colour = str(values[0]) if values else None
        user = interaction.user
        await answer(
            interaction,
            _service(interaction).join(interaction.channel_id or 0, user.id, user.display_name, colour),
            defer=False,
        )


def lobby_view(race_id: int, colours: tuple[str, ...] = ()) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if colours:
        view.add_item(ColourSelect(race_id, colours))
    for what in ("join", "leave", "ai", "start"):
        view.add_item(LobbyButton(race_id, what))
    return view


class AllianceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dq:a:(?P<id>[0-9]+):(?P<answer>accept|decline)"
):
    def __init__(self, alliance_id: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(label=answer.capitalize(), style=style, custom_id=f"dq:a:{alliance_id}:{answer}")
        )
        self.alliance_id, self.answer = alliance_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> AllianceButton:
        return cls(int(match["id"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        alliances = interaction.client.alliances  # type: ignore[attr-defined]
        await answer(
            interaction, alliances.answer(self.alliance_id, interaction.user.id, self.answer == "accept"), defer=False
        )


def proposal_view(alliance_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AllianceButton(alliance_id, "accept"))
    view.add_item(AllianceButton(alliance_id, "decline"))
    return view


DYNAMIC_ITEMS = (ChoiceButton, ChoiceSelect, RiderButton, PageButton, LobbyButton, AllianceButton, ColourSelect)
