"""Turning service outcomes into Discord replies and messages, and refusals into short private replies.

This is the one place where errors become answers: a ``Refusal`` or a rules error becomes a
short ephemeral reply; anything unexpected becomes "something went wrong (ref ...)" with the
traceback in the log under the same reference. Tokens never reach a log line.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import discord

from bot.discord_layer.components import lobby_view, menus, prompt_view, proposal_view
from bot.discord_layer.draft_components import edit_lobby, post_lobby
from bot.discord_layer.host import Host
from bot.discord_layer.live_prompts import REPLACED
from bot.discord_layer.pace_components import ahead_view
from bot.service.common import Refusal, chunks
from bot.service.model import (
    CHANNEL_POSTS,
    Close,
    DirectMessage,
    EditLobby,
    Effect,
    Elsewhere,
    LobbyEdit,
    OpenThread,
    Outcome,
    Post,
    Publish,
    Replace,
    Reply,
    Retire,
    ShowLobby,
)
from rules.errors import DomestiqueError
from rules.i18n import Language, _, current, lang_for, speaking

log = logging.getLogger("domestique")


def _file(name: str, data: bytes) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def own_language(interaction: discord.Interaction) -> Language:
    """The language of the person who interacts: their Discord client's."""
    return lang_for(interaction.locale.value if interaction.locale else None)


def server_locale(interaction: discord.Interaction) -> str | None:
    """The server's preferred locale (Discord's ``guild_locale``; the cached server's own when known)."""
    guild = interaction.guild
    preferred = getattr(guild, "preferred_locale", None) if guild is not None else None
    if preferred is not None:
        return str(getattr(preferred, "value", preferred))
    return interaction.guild_locale.value if interaction.guild_locale else None


T = TypeVar("T")


def in_own_language(
    complete: Callable[[discord.Interaction, str], Coroutine[Any, Any, T]],
) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, T]]:
    """An autocomplete that answers in the person's own language (their Discord client's)."""

    @functools.wraps(complete)
    async def answered(interaction: discord.Interaction, current: str) -> T:
        with speaking(own_language(interaction)):
            return await complete(interaction, current)

    return answered


async def seen(interaction: discord.Interaction) -> None:
    """Remember the server's and the person's locales: a timer, a league stage or a private message
    later has no interaction to ask (``bot/service/languages.py``)."""
    locale = interaction.locale.value if interaction.locale else None
    languages = cast(Host, interaction.client).service.languages
    await languages.seen(interaction.guild_id, server_locale(interaction), interaction.user.id, locale)


async def answer(interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True) -> None:
    """Run one intent for an interaction in the person's language: defer, do it, then walk its
    outcome's effects in order (what the channel shows is in the server's language: ``Walk``).

    A click on a public prompt that decides needs no reply of its own: the prompt is edited in
    place to show the choice made, its components removed. Elsewhere (typed play, a private
    menu) the decision's one-line result is posted in the channel.
    """
    with speaking(own_language(interaction)):
        await _answer(interaction, work, defer=defer)


async def _answer(interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool) -> None:
    clicked = interaction.type == discord.InteractionType.component and interaction.message is not None
    public_prompt = clicked and not (interaction.message and interaction.message.flags.ephemeral)
    if defer:
        if public_prompt:
            await interaction.response.defer()  # an update of the clicked message, no "thinking"
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await seen(interaction)
        outcome = await work
    except (Refusal, DomestiqueError) as exc:
        await say(interaction, str(exc), ephemeral=True)
        return
    except Exception:
        ref = secrets.token_hex(4)
        log.exception("unexpected error (ref %s) in %s", ref, interaction.data)
        await say(
            interaction,
            _("Something went wrong (ref {ref}). Nothing was changed by this request.", ref=ref),
            ephemeral=True,
        )
        return
    channel = interaction.channel
    where_to = channel if isinstance(channel, discord.abc.Messageable) else None
    await Walk(interaction.client, where_to, outcome, Asked(interaction, clicked, public_prompt, defer)).run()
    await hand_over_notes(interaction)


async def post_all(client: discord.Client, channel: discord.abc.Messageable, outcome: Outcome) -> None:
    """An outcome nobody asked for here (a timer, a league stage, another race's channel): its effects in order."""
    await Walk(client, channel, outcome).run()


@dataclass(frozen=True)
class Asked:
    """The interaction an outcome answers: a click on a public prompt (``public_prompt``, the message
    edited in place), on a private menu, or a typed command; ``deferred`` once acknowledged."""

    interaction: discord.Interaction
    clicked: bool
    public_prompt: bool
    deferred: bool

    @property
    def on_the_prompt(self) -> bool:
        """The answer is an edit of the clicked public message (a prompt, the lobby)."""
        return self.public_prompt and self.deferred


@dataclass
class Walk:
    """One outcome's effects, walked in order: the answer to the person first, then what the race
    channel shows (one outcome at a time in a channel), threads, private messages, other channels."""

    client: discord.Client
    channel: discord.abc.Messageable | None
    outcome: Outcome
    asked: Asked | None = None
    public: Language | None = None  # the server's language: what the channel shows (None: not known yet)
    retired: str | None = None  # the decision's line, once shown
    answered: bool = False  # the clicked message was edited: no other reply
    replaced: str | None = None  # why the prompt on screen gives way to the next one posted
    prompted: bool = False  # a prompt was posted
    unedited: LobbyEdit | None = None  # a lobby message that could not be edited: posted after the posts

    async def run(self) -> None:
        if self.public is None:
            guild = getattr(self.channel, "guild", None)
            self.public = await cast(Host, self.client).service.languages.public(guild.id if guild else None)
        live = cast(Host, self.client).live_prompts
        held: contextlib.AsyncExitStack | None = None
        for effect in self.outcome.effects:
            in_channel = isinstance(effect, CHANNEL_POSTS)
            if in_channel and held is None and self.channel is not None:
                held = contextlib.AsyncExitStack()  # retire, post, remember: one outcome at a time in a channel
                await held.enter_async_context(live.lock(self.channel))
            elif not in_channel and held is not None:
                await self._leave_channel(held)
                held = None
            private = isinstance(effect, Reply) or (isinstance(effect, ShowLobby) and effect.ephemeral)
            # the answer to the person in their language (the one of the moment); everything else public
            with speaking(current() if private or self.public is None else self.public):
                await self.apply(effect)
        if held is not None:
            await self._leave_channel(held)
        elif self.unedited is not None:
            await self._post_unedited()

    async def _leave_channel(self, held: contextlib.AsyncExitStack) -> None:
        await held.aclose()
        await self._post_unedited()

    async def _post_unedited(self) -> None:
        if self.unedited is not None and self.channel is not None:
            # posted anew, the lobby comes below the posts: the draft stays the channel's latest message
            with speaking(self.public or current()):
                await post_lobby(self.client, self.channel, self.unedited)
            self.unedited = None

    async def apply(self, effect: Effect) -> None:
        match effect:
            case Retire(line):
                await self._retire(line)
            case Reply():
                await self._reply(effect)
            case ShowLobby():
                await self._lobby(effect)
            case EditLobby(edit):
                if self.channel is not None and not await edit_lobby(self.channel, edit):
                    self.unedited = edit
            case Replace(why):
                self.replaced = why
            case Publish(post):
                await self._publish(post)
            case Close(why):
                if not self.prompted and self.channel is not None:  # the race ended with no prompt to follow
                    await cast(Host, self.client).live_prompts.retire(self.channel, why)
            case OpenThread(name, users, alliance_id):
                if self.channel is not None:
                    await open_private_thread(self.client, self.channel, name, list(users), alliance_id)
            case DirectMessage(user_id, text):
                if self.channel is not None:
                    await send_private(self.client, self.channel, user_id, text)
            case Elsewhere(channel_id, told):
                other = self.client.get_channel(channel_id)
                if not isinstance(other, discord.abc.Messageable):
                    return  # not this process's server (a shard cluster), or gone
                try:
                    await post_all(self.client, other, told)
                except discord.HTTPException:
                    log.info("could not post in channel %s", channel_id)

    async def _retire(self, line: str) -> None:
        """The decision's line replaces the prompt it answers: the clicked message itself, else the
        channel's live prompt (a private menu, a typed move), else it is posted."""
        self.retired = line
        live = cast(Host, self.client).live_prompts
        asked = self.asked
        message = asked.interaction.message if asked is not None else None
        if asked is not None and asked.on_the_prompt and message is not None:
            shown = f"{message.content}\n{line}"[:2000]
            await asked.interaction.edit_original_response(content=shown, view=None)
            await live.answered(asked.interaction.channel_id or 0, message.id)
            self.answered = True
            return
        if self.channel is not None and not await live.retire(self.channel, line):
            await send_post(self.channel, Post(line))
        if asked is not None and asked.clicked and asked.deferred:  # a private menu: it shows the line too
            await asked.interaction.edit_original_response(content=line, view=None)
            self.answered = True

    async def _reply(self, reply: Reply) -> None:
        asked = self.asked
        if asked is None or self.answered:
            return
        if asked.on_the_prompt and self.outcome.lobby_edit is not None:
            return  # a click on the lobby message (start, or a pick): the message itself shows what it did
        text = self.retired if (self.retired and reply.text == "Done.") else reply.text
        text = _("Done.") if text == "Done." else text  # the service's plain answer, in the person's words
        files = []
        if reply.file is not None:
            files.append(_file(*reply.file))
        if reply.image is not None:
            files.append(_file("board.png", reply.image))
        view: discord.ui.View | None = None
        if reply.prompt is not None and reply.prompt.ahead:
            view = ahead_view(reply.prompt)
        elif reply.prompt is not None:
            view = menus(reply.prompt, reply.prompt_page)
        await say(asked.interaction, text or _("Done."), ephemeral=reply.ephemeral, files=files, view=view)

    async def _lobby(self, lobby: ShowLobby) -> None:
        """The lobby is one message, edited in place: who sits where, and its live buttons."""
        asked = self.asked
        if asked is None:
            return
        interaction = asked.interaction
        view = lobby_view(lobby.race_id, lobby.colours)
        if asked.on_the_prompt:  # a lobby button: its message shows the change
            await interaction.edit_original_response(content=lobby.text[:2000], view=view)
            if interaction.message is not None:
                await remember_lobby(interaction, lobby.race_id, interaction.message.id)
            return
        if await edit_lobby_message(interaction, lobby):
            # a typed lobby command: the lobby message shows the change, the command says it in a line
            await say(interaction, lobby.line, ephemeral=lobby.ephemeral)
            return
        await say(interaction, lobby.text, ephemeral=lobby.ephemeral, view=view)
        if not lobby.ephemeral:
            with contextlib.suppress(discord.HTTPException):
                lobby_message = await interaction.original_response()
                await remember_lobby(interaction, lobby.race_id, lobby_message.id)

    async def _publish(self, post: Post) -> None:
        if self.channel is None:
            return
        live = cast(Host, self.client).live_prompts
        prompt = post.prompt is not None and bool(post.prompt.choices)
        if prompt:  # one live prompt in a channel: the one on screen gives way, saying why
            await live.retire(self.channel, self.replaced or f"⏭ {_(REPLACED)}")
        message = await send_post(self.channel, post)
        if prompt:
            await live.posted(message)
            self.prompted = True


async def edit_lobby_message(interaction: discord.Interaction, lobby: ShowLobby) -> bool:
    """Show the lobby as it is now on its one message; False when there is none to edit (not known
    yet, or deleted): the lobby is then posted anew."""
    partial = getattr(interaction.channel, "get_partial_message", None)
    if lobby.message_id is None or not lobby.line or partial is None:
        return False
    view = lobby_view(lobby.race_id, lobby.colours)
    try:
        await partial(lobby.message_id).edit(
            content=lobby.text[:2000], view=view, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.info("race %s: its lobby message could not be edited; the lobby is posted anew", lobby.race_id)
        return False
    return True


async def remember_lobby(interaction: discord.Interaction, race_id: int, message_id: int) -> None:
    """The lobby message just shown is the one a game's draft becomes when the race starts."""
    await cast(Host, interaction.client).service.lobby.remember_lobby_message(race_id, message_id)


async def say(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": discord.AllowedMentions.none()}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    # a long answer is split on line ends into several messages, never cut; the files and the
    # view go with the last part
    parts = chunks(text)
    quiet = {k: v for k, v in kwargs.items() if k in ("ephemeral", "allowed_mentions")}
    for n, part in enumerate(parts):
        extra = kwargs if n == len(parts) - 1 else quiet
        if interaction.response.is_done():
            await interaction.followup.send(part or "\u200b", **extra)
        else:
            await interaction.response.send_message(part or "\u200b", **extra)


def where(channel: discord.abc.Messageable) -> str:
    """Where a private message comes from: the server, the channel and a link to it."""
    guild = getattr(channel, "guild", None)
    name = getattr(channel, "name", None)
    channel_id = getattr(channel, "id", None)
    place = " · ".join(p for p in (guild.name if guild else None, f"#{name}" if name else None) if p)
    link = f"https://discord.com/channels/{guild.id}/{channel_id}" if guild and channel_id else ""
    origin = place or _("a server")
    return _("From {place} ({link})", place=origin, link=link) if link else _("From {place}", place=origin)


async def send_private(client: discord.Client, channel: discord.abc.Messageable, user_id: int, text: str) -> None:
    """A private message that says where it comes from. When it cannot be delivered (closed DMs),
    it is kept as a note and shown to the person, privately, the next time they act in that server.
    Written in the recipient's language (``text`` already is: the service made it so)."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        with speaking(await cast(Host, client).service.languages.private(user_id)):
            origin = where(channel)
        await user.send(f"{origin}:\n{text}"[:2000])
    except discord.HTTPException:
        log.info("could not send a private message to user %s; kept as a note", user_id)
        guild = getattr(channel, "guild", None)
        if guild is not None:
            await cast(Host, client).service.people.keep_note(guild.id, user_id, text)


async def hand_over_notes(interaction: discord.Interaction) -> None:
    """Private messages that could not reach the person, shown to them now (only they see it)."""
    if interaction.guild_id is None:
        return
    notes = await cast(Host, interaction.client).service.people.notes_for(interaction.guild_id, interaction.user.id)
    if not notes:
        return
    text = (
        _("I could not send you a private message (your direct messages from this server are closed), so here it is:")
        + "\n"
        + "\n".join(f"- {note}" for note in notes)
    )
    await say(interaction, text, ephemeral=True)


async def open_private_thread(
    client: discord.Client, channel: discord.abc.Messageable, name: str, users: list[int], alliance_id: int | None
) -> None:
    """A private thread with exactly ``users``; where the server does not allow it, say so plainly."""
    if not isinstance(channel, discord.TextChannel):
        await channel.send(
            _("{name}: private threads can only be opened in a text channel; talk in private messages.", name=name)
        )
        return
    try:
        thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.private_thread, invitable=False)
        for user in users:
            await thread.add_user(discord.Object(user))
    except discord.Forbidden:
        await channel.send(
            _(
                "I could not open a private thread for {name}: this server does not let me. "
                "Give me the Create Private Threads and Send Messages in Threads permissions in this "
                "channel, or talk in private messages.",
                name=name,
            )
        )
        return
    except discord.HTTPException as exc:
        await channel.send(
            _("I could not open a private thread for {name} ({problem}).", name=name, problem=exc.text or exc.status)
        )
        return
    await thread.send(
        _("{people}: this thread is yours alone.", people=" ".join(f"<@{u}>" for u in users)),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
    )
    if alliance_id is not None:
        await cast(Host, client).alliances.thread_opened(alliance_id, thread.id)


async def send_post(channel: discord.abc.Messageable, post: Post) -> discord.Message:
    kwargs: dict[str, Any] = {
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in post.mentions], everyone=False, roles=False
        ),
    }
    files = []
    if post.image is not None:
        files.append(_file(post.image_name, post.image))
    if post.file is not None:
        files.append(_file(*post.file))
    if files:
        kwargs["files"] = files
    if post.prompt is not None and post.prompt.choices:
        kwargs["view"] = prompt_view(post.prompt)
    elif post.alliance_proposal is not None:
        kwargs["view"] = proposal_view(post.alliance_proposal)
    message: discord.Message = await channel.send(post.text[:2000] or "\u200b", **kwargs)
    return message
