"""The lobby message as a game's draft (Peloton's time-trial cards): edited in place after each
pick, with the pick's menu on it; posted anew (and remembered) when there is none to edit."""

from __future__ import annotations

import logging
from typing import Any, cast

import discord

from bot.discord_layer.components import MENU, ChoiceSelect, menus
from bot.discord_layer.host import Host
from bot.service.model import LobbyEdit

log = logging.getLogger("domestique")
QUIET = discord.AllowedMentions.none()  # whoever picks is mentioned once, in the channel's post


def draft_view(edit: LobbyEdit) -> discord.ui.View | None:
    """One select menu of the choices (a card each), on the draft's version; none once it is over."""
    prompt = edit.prompt
    if prompt is None or not prompt.choices:
        return None
    if len(prompt.choices) > MENU:
        return menus(prompt, 0)  # paged, never cut (Peloton's 13 cards fit one menu)
    options = [
        discord.SelectOption(label=c.label[:100], value=str(c.index), description=c.detail[:100] or None)
        for c in prompt.choices
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(ChoiceSelect(prompt.race_id, prompt.version, 0, options, edit.placeholder))
    return view


async def edit_lobby(channel: discord.abc.Messageable, edit: LobbyEdit) -> bool:
    """Edit the lobby message into the draft as it is now; False when there is none to edit (a
    league stage opens without one, or it was deleted)."""
    partial = getattr(channel, "get_partial_message", None)
    if edit.message_id is None or partial is None:
        return False
    try:
        await partial(edit.message_id).edit(content=edit.text[:2000], view=draft_view(edit), allowed_mentions=QUIET)
    except discord.NotFound:
        log.info("race %s: its lobby message is gone; the draft is posted anew", edit.race_id)
        return False
    return True


async def post_lobby(client: discord.Client, channel: discord.abc.Messageable, edit: LobbyEdit) -> None:
    """Post the draft as a new message (below the channel's latest posts) and remember it, so
    the next picks edit it."""
    view = draft_view(edit)
    kwargs: dict[str, Any] = {"allowed_mentions": QUIET}
    if view is not None:
        kwargs["view"] = view
    message = await channel.send(edit.text[:2000], **kwargs)
    await cast(Host, client).service.lobby.remember_lobby_message(edit.race_id, message.id)
