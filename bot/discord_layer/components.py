"""Buttons and select menus that survive restarts: every custom id carries race, version and choice.

A click is checked against the race's current version, so a button from an earlier state is
refused with a short private reply. A prompt is laid out by its ``layout`` (buttons, a menu of
targets, or two steps); long lists are split over menus of 25, and beyond four menus a "more"
button pages them: no legal choice is ever dropped.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Sequence
from typing import Any, ClassVar, cast

import discord

from bot.discord_layer.host import Host, channel_of, host
from bot.service.model import ChoiceView, Outcome, Prompt
from rules.i18n import N_, _, pgettext

MENU = 25  # options in one select menu
MENUS_PER_MESSAGE = 4  # the fifth row holds the buttons
BUTTONS_PER_ROW = 5
ROWS = 5


def _label(item: discord.ui.Item[Any]) -> str:
    return getattr(item, "label", None) or "choose"


def _options(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    return list(item.options) if isinstance(item, discord.ui.Select) else []


def _selected(interaction: discord.Interaction) -> str | None:
    """The value picked in a select menu, if any."""
    data = cast(dict[str, Any], interaction.data or {})
    values = data.get("values") or []
    return str(values[0]) if values else None


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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return cls(int(match["race"]), int(match["version"]), int(match["index"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        await bot.answer(interaction, bot.service.core.decide(self.race, self.version, interaction.user.id, self.index))


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:k:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<index>[0-9]+)",
):
    """The second step of a choice that breaks a pact (``bot/service/pact_marks.py``): take it anyway."""

    def __init__(self, race: int, version: int, index: int, label: str = "confirm") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.danger, custom_id=f"dq:k:{race}:{version}:{index}"
            )
        )
        self.race, self.version, self.index = race, version, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmButton:
        return cls(int(match["race"]), int(match["version"]), int(match["index"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        work = bot.service.core.decide(self.race, self.version, interaction.user.id, self.index, sure=True)
        await bot.answer(interaction, work)


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dq:s:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)",
):
    """A menu of a prompt's choices (a page of them): a pick is the player's decision. A subclass
    with its own ``prefix`` (and template) and ``decide`` serves another menu of the same choices."""

    prefix: ClassVar[str] = "dq:s"

    def __init__(
        self,
        race: int,
        version: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{self.prefix}:{race}:{version}:{page}",
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
    ) -> ChoiceSelect:
        return cls(int(match["race"]), int(match["version"]), int(match["page"]), _options(item))

    def decide(self, bot: Host, user_id: int, index: int) -> Awaitable[Outcome]:
        return bot.service.core.decide(self.race, self.version, user_id, index)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = _selected(interaction)
        index = int(value) if value is not None and value.isdigit() else -1
        bot = host(interaction)
        await bot.answer(interaction, self.decide(bot, interaction.user.id, index))


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:r:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<step>[0-9]+)",
):
    """A two-step choice, step one: a piece (or group); its targets then come privately."""

    def __init__(self, race: int, version: int, step: int, label: str = "choose", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"dq:r:{race}:{version}:{step}",
                row=row,
            )
        )
        self.race, self.version, self.step = race, version, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepButton:
        return cls(int(match["race"]), int(match["version"]), int(match["step"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        work = bot.service.core.step_choices(self.race, self.version, interaction.user.id, self.step)
        await bot.answer(interaction, work)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dq:p:(?P<race>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)(?::(?P<step>[0-9]+))?",
):
    """More targets than four menus hold: the next ones, privately."""

    def __init__(self, race: int, version: int, page: int, step: int | None = None) -> None:
        suffix = f":{step}" if step is not None else ""
        super().__init__(
            discord.ui.Button(
                label=_("More choices…"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dq:p:{race}:{version}:{page}{suffix}",
                row=4,
            )
        )
        self.race, self.version, self.page, self.step = race, version, page, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        step = int(match["step"]) if match["step"] is not None else None
        return cls(int(match["race"]), int(match["version"]), int(match["page"]), step)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        work = bot.service.core.choice_page(self.race, self.version, interaction.user.id, self.page, self.step)
        await bot.answer(interaction, work)


def select_options(choices: Sequence[ChoiceView]) -> list[discord.SelectOption]:
    """A menu's options: each choice's label, its consequences as the description (first the pacts it
    would break), ⚠️ when it is risky or breaks a pact."""
    return [
        discord.SelectOption(
            label=c.label[:100],
            value=str(c.index),
            description=" · ".join(part for part in (c.breaks, c.detail) if part)[:100] or None,
            emoji="⚠️" if c.risky or c.breaks else None,
        )
        for c in choices
    ]


def _button(prompt: Prompt, c: ChoiceView, row: int | None) -> ChoiceButton | ConfirmButton:
    if c.confirm:
        return ConfirmButton(prompt.race_id, prompt.version, c.index, c.label)
    style = discord.ButtonStyle.danger if c.risky or c.breaks else discord.ButtonStyle.primary
    if c.passive and not c.breaks:
        style = discord.ButtonStyle.secondary
    label = f"{c.label} — {c.breaks}" if c.breaks else c.label  # Discord cuts a label at 80 characters
    return ChoiceButton(prompt.race_id, prompt.version, c.index, label, style, row)


def menus(prompt: Prompt, page: int) -> discord.ui.View:
    """Menus of 25 choices (four at most), a few choices without a target as buttons, and "more"."""
    view = discord.ui.View(timeout=None)
    others = [c for c in prompt.choices if c.target is None and c.step is None]
    if prompt.step is not None or len(others) > BUTTONS_PER_ROW - 1:
        others = []  # no room for them as buttons: they go into the menus, never dropped
    targets = [c for c in prompt.choices if c not in others]
    per_page = MENU * MENUS_PER_MESSAGE
    shown = targets[page * per_page : (page + 1) * per_page]
    for n in range(0, len(shown), MENU):
        part = shown[n : n + MENU]
        options = select_options(part)
        first = page * per_page + n + 1
        placeholder = _(
            "Choices {first}–{last} of {count}", first=first, last=first + len(part) - 1, count=len(targets)
        )
        view.add_item(
            ChoiceSelect(prompt.race_id, prompt.version, page * MENUS_PER_MESSAGE + n // MENU, options, placeholder)
        )
    more = len(targets) > (page + 1) * per_page
    room = BUTTONS_PER_ROW - (1 if more else 0)
    if page == 0:
        for c in others[:room]:
            view.add_item(_button(prompt, c, 4))
    if more:
        view.add_item(PageButton(prompt.race_id, prompt.version, page + 1, prompt.step))
    return view


def prompt_view(prompt: Prompt) -> discord.ui.View:
    """The components of a decision prompt, by its layout."""
    direct = prompt.direct()
    steps = prompt.steps()
    buttons_fit = len(steps) + len(direct) <= BUTTONS_PER_ROW * ROWS
    if prompt.layout == "menu" or not buttons_fit or any(c.target is not None for c in direct):
        return menus(prompt, 0)
    view = discord.ui.View(timeout=None)
    for n, (_key, label) in enumerate(steps):
        view.add_item(StepButton(prompt.race_id, prompt.version, n, label, row=n // BUTTONS_PER_ROW))
    first_row = (len(steps) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
    for n, c in enumerate(direct):
        view.add_item(_button(prompt, c, first_row + n // BUTTONS_PER_ROW))
    return view


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dq:l:(?P<race>[0-9]+):(?P<what>join|leave|ai|start)"
):
    LABELS: ClassVar[dict[str, str]] = {
        "join": N_("Join"),
        "leave": N_("Leave"),
        "ai": N_("Add AI player"),
        "start": N_("Start"),
    }

    def __init__(self, race: int, what: str) -> None:
        style = discord.ButtonStyle.success if what in ("join", "start") else discord.ButtonStyle.secondary
        label = _(self.LABELS[what])  # the lobby's language (public), as the Walk speaks it
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"dq:l:{race}:{what}"))
        self.race, self.what = race, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["race"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        service, channel, user = bot.service, channel_of(interaction), interaction.user
        work = {
            "join": lambda: service.lobby.join(channel, user.id, user.display_name, race_id=self.race),
            "leave": lambda: service.lobby.leave(channel, user.id, race_id=self.race),
            "ai": lambda: service.lobby.add_ai(channel, user.id, race_id=self.race),
            "start": lambda: service.lobby.start(channel, user.id, race_id=self.race),
        }[self.what]()
        await bot.answer(interaction, work)


class ColourSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"dq:lc:(?P<race>[0-9]+)"):
    """Join the lobby in the colour you pick (the Join button takes the first free one)."""

    def __init__(self, race: int, colours: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> None:
        """``words``: each colour as the channel reads it (its id where none is given)."""
        labels = [*words, *colours[len(words) :]]
        options = [
            discord.SelectOption(label=w[:1].upper() + w[1:], value=c) for c, w in zip(colours, labels, strict=False)
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dq:lc:{race}",
                options=options,
                placeholder=_("Join in a colour…"),
                min_values=1,
                max_values=1,
            )
        )
        self.race = race

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ColourSelect:
        options = _options(item)
        return cls(int(match["race"]), tuple(o.value for o in options), tuple(o.label for o in options))

    async def callback(self, interaction: discord.Interaction) -> None:
        colour = _selected(interaction)
        user = interaction.user
        bot = host(interaction)
        work = bot.service.lobby.join(channel_of(interaction), user.id, user.display_name, colour, race_id=self.race)
        await bot.answer(interaction, work)  # the lobby message it is on is edited in place


def lobby_view(race_id: int, colours: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> discord.ui.View:
    """The lobby's menu of free colours (``words``: as the channel reads them) and its buttons."""
    view = discord.ui.View(timeout=None)
    if colours:
        view.add_item(ColourSelect(race_id, colours[:MENU], words[:MENU]))
    for what in ("join", "leave", "ai", "start"):
        view.add_item(LobbyButton(race_id, what))
    return view


class AllianceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dq:a:(?P<id>[0-9]+):(?P<answer>accept|decline)"
):
    def __init__(self, alliance_id: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.danger
        label = pgettext("alliance", "Accept") if answer == "accept" else pgettext("alliance", "Decline")
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"dq:a:{alliance_id}:{answer}"))
        self.alliance_id, self.answer = alliance_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AllianceButton:
        return cls(int(match["id"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        work = bot.alliances.answer(self.alliance_id, interaction.user.id, self.answer == "accept")
        await bot.answer(interaction, work, defer=False)


def proposal_view(alliance_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AllianceButton(alliance_id, "accept"))
    view.add_item(AllianceButton(alliance_id, "decline"))
    return view


class PactButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dq:pact:(?P<id>[0-9]+):(?P<answer>accept|decline)"
):
    """Accept or decline a pact proposed to one's alliance (in its private thread)."""

    def __init__(self, pact_id: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.danger
        label = pgettext("alliance", "Accept") if answer == "accept" else pgettext("alliance", "Decline")
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"dq:pact:{pact_id}:{answer}"))
        self.pact_id, self.answer = pact_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PactButton:
        return cls(int(match["id"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        work = bot.pacts.answer(self.pact_id, interaction.user.id, self.answer == "accept")
        await bot.answer(interaction, work, defer=False)


def pact_view(pact_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PactButton(pact_id, "accept"))
    view.add_item(PactButton(pact_id, "decline"))
    return view


DYNAMIC_ITEMS = (
    ChoiceButton,
    ChoiceSelect,
    StepButton,
    PageButton,
    LobbyButton,
    AllianceButton,
    PactButton,
    ConfirmButton,
    ColourSelect,
)
