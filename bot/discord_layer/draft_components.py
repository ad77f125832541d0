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


async def show_lobby(client: discord.Client, channel: discord.abc.Messageable, edit: LobbyEdit) -> None:
    """Edit the lobby message into the draft as it is now; when it is gone (deleted, or a league
    stage that never had one) post the draft and remember that message instead."""
    view = draft_view(edit)
    quiet = discord.AllowedMentions.none()  # whoever picks is mentioned once, in the channel's post
    partial = getattr(channel, "get_partial_message", None)
    if edit.message_id is not None and partial is not None:
        try:
            await partial(edit.message_id).edit(content=edit.text[:2000], view=view, allowed_mentions=quiet)
            return
        except discord.NotFound:
            log.info("race %s: its lobby message is gone; the draft is posted anew", edit.race_id)
    kwargs: dict[str, Any] = {"allowed_mentions": quiet}
    if view is not None:
        kwargs["view"] = view
    message = await channel.send(edit.text[:2000], **kwargs)
    await cast(Host, client).service.remember_lobby_message(edit.race_id, message.id)
