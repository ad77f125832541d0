"""Turning service outcomes into Discord replies and messages, and refusals into short private replies.

This is the one place where errors become answers: a ``Refusal`` or a rules error becomes a
short ephemeral reply; anything unexpected becomes "something went wrong (ref ...)" with the
traceback in the log under the same reference. Tokens never reach a log line.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import discord

from bot.discord_layer.alliance_threads import answered_on, join_thread
from bot.discord_layer.components import lobby_view, menus
from bot.discord_layer.draft_components import edit_lobby, post_lobby
from bot.discord_layer.failures import DISCORD_FAILURES
from bot.discord_layer.host import Host
from bot.discord_layer.live_prompts import REPLACED
from bot.discord_layer.outbox import new_nonce
from bot.discord_layer.pace_components import ahead_view
from bot.discord_layer.sending import as_file, send_post, send_private
from bot.service.common import Refusal, chunks
from bot.service.core import SAVED
from bot.service.model import (
    CHANNEL_POSTS,
    Answered,
    Close,
    DirectMessage,
    EditLobby,
    Effect,
    Elsewhere,
    JoinThread,
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
from bot.storage.outbox_tables import OwedPost
from rules.errors import DomestiqueError
from rules.i18n import N_, Language, _, current, lang_for, speaking

log = logging.getLogger("domestique")


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
    host = cast(Host, interaction.client)
    if defer:
        try:
            if public_prompt:
                await interaction.response.defer()  # an update of the clicked message, no "thinking"
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except DISCORD_FAILURES as exc:
            # delivered late (Discord's 3 seconds are over) or twice: Discord shows the person it failed,
            # and the intent is not applied (it was never acknowledged)
            host.failures.failed(exc, f"acknowledging interaction {interaction.id} (not applied)")
            _drop(work)
            return
    saved = SAVED.set(False)
    try:
        await seen(interaction)
        outcome = await work
    except (Refusal, DomestiqueError) as exc:
        await say_safely(interaction, str(exc))
        return
    except Exception:
        ref = secrets.token_hex(4)
        log.exception("unexpected error (ref %s) in %s", ref, interaction.data)
        await say_safely(interaction, _broken(ref) if SAVED.get() else _untouched(ref))
        if SAVED.get():
            await _owe_the_race(host, interaction)
        return
    finally:
        done = SAVED.get()
        SAVED.reset(saved)
    channel = interaction.channel
    where_to = channel if isinstance(channel, discord.abc.Messageable) else None
    walk = Walk(interaction.client, where_to, outcome, Asked(interaction, clicked, public_prompt, defer))
    try:
        await walk.run()
        await hand_over_notes(interaction)
    except Exception:  # a bug past the commit: the decision is kept, and shown when the outbox can
        ref = secrets.token_hex(4)
        log.exception("unexpected error (ref %s) showing what was done for %s", ref, interaction.data)
        await say_safely(interaction, _broken(ref) if done else _untouched(ref))
        if done:
            await _owe_the_race(host, interaction)


def _untouched(ref: str) -> str:
    return _("Something went wrong (ref {ref}). Nothing was changed by this request.", ref=ref)


def _broken(ref: str) -> str:
    return _(
        "Your decision is saved, but something went wrong showing it (ref {ref}); the race is posted again "
        "in the channel.",
        ref=ref,
    )


def _drop(work: Awaitable[Outcome]) -> None:
    """An intent that will not run: closed, so Python does not warn that it was never awaited."""
    if inspect.iscoroutine(work):
        work.close()


async def _owe_the_race(host: Host, interaction: discord.Interaction) -> None:
    """The channel is owed the race as it stands (a decision was saved and not shown)."""
    if interaction.channel_id is not None and interaction.guild_id is not None:
        await host.outbox.refresh(interaction.channel_id, interaction.guild_id)


async def say_safely(interaction: discord.Interaction, text: str) -> None:
    """A private answer that may find the interaction dead (late, or its token expired): then only logged."""
    try:
        await say(interaction, text, ephemeral=True)
    except Exception as exc:
        # the bot stopping mid-walk closes its HTTP session: aiohttp says so with a RuntimeError
        if not isinstance(exc, DISCORD_FAILURES) and not interaction.client.is_closed():
            raise
        cast(Host, interaction.client).failures.failed(exc, f"answering interaction {interaction.id}")


async def post_all(client: discord.Client, channel: discord.abc.Messageable, outcome: Outcome) -> None:
    """An outcome nobody asked for here (a timer, a league stage, another race's channel): its effects in order."""
    await Walk(client, channel, outcome).run()


async def keep_for_later(client: discord.Client, channel_id: int, outcome: Outcome) -> None:
    """What a channel this process cannot reach now is told (another process's server in a cluster, or a
    server not available): kept in the outbox, for whichever process owns the server to post."""
    host = cast(Host, client)
    race = await host.service.storage.latest_race(channel_id)
    if race is None:
        return
    posts = [
        e.post if isinstance(e, Publish) else Post(e.line) for e in outcome.effects if isinstance(e, (Publish, Retire))
    ]
    await host.outbox.keep([owed_post(channel_id, race.guild_id, p) for p in posts])


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


IN_CHANNEL = (Retire, *CHANNEL_POSTS)  # what the race channel shows, under its lock


@dataclass
class Walk:
    """One outcome's effects, walked in order: the answer to the person first, then what the race
    channel shows (one outcome at a time in a channel), threads, private messages, other channels.

    Discord may refuse any of it. A refused answer to the person is logged; a refused post in the
    channel is kept in the outbox (``outbox.py``) with the rest of what the channel was to be shown,
    to be sent again when Discord takes it, and the person who acted is told so. A channel already
    owed something gets this outcome's posts queued behind it, never before. Nothing raises out of
    the walk for Discord's sake, and the channel's lock is released on every path."""

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
    owed: list[OwedPost] = field(default_factory=list)  # what the channel is owed (kept in the outbox)
    queued: bool = False  # the channel is owed posts from before: this outcome's go behind them
    refused: str = ""  # the kind of Discord's refusal of a channel post, once one was refused

    @property
    def host(self) -> Host:
        return cast(Host, self.client)

    async def run(self) -> None:
        if self.public is None:
            guild = getattr(self.channel, "guild", None)
            self.public = await self.host.service.languages.public(guild.id if guild else None)
        held: contextlib.AsyncExitStack | None = None
        try:
            for effect in self.outcome.effects:
                in_channel = isinstance(effect, IN_CHANNEL)
                if in_channel and held is None and self.channel is not None:
                    held = contextlib.AsyncExitStack()  # retire, post, remember: one outcome at a time in a channel
                    await held.enter_async_context(self.host.live_prompts.lock(self.channel))
                    self.queued = self.queued or self.host.outbox.owes(_id(self.channel))
                elif not in_channel and held is not None:
                    await held.aclose()
                    held = None
                    await self._post_unedited()
                private = isinstance(effect, Reply) or (isinstance(effect, ShowLobby) and effect.ephemeral)
                # the answer to the person in their language (the one of the moment); everything else public
                with speaking(current() if private or self.public is None else self.public):
                    await self._perform(effect)
        finally:
            if held is not None:
                await held.aclose()
        await self._post_unedited()
        await self._keep_owed()

    async def _perform(self, effect: Effect) -> None:
        """One effect; a post Discord refuses is kept for later, any other refusal logged."""
        if self.queued and isinstance(effect, (Retire, Publish)):
            self._owe(effect)
            return
        try:
            await self.apply(effect)
        except DISCORD_FAILURES as exc:
            kind = self.host.failures.failed(exc, f"{type(effect).__name__.lower()} in channel {_id(self.channel)}")
            if isinstance(effect, (Retire, Publish)) and kind != "channel-gone":
                self.refused = self.refused or kind
                self.queued = True  # what follows in this channel goes behind it
                self._owe(effect)

    def _owe(self, effect: Retire | Publish) -> None:
        guild = getattr(self.channel, "guild", None)
        if self.channel is None or guild is None:
            return
        if isinstance(effect, Retire):
            self.retired = effect.line
            post = Post(effect.line)
        else:
            post = effect.post
        self.owed.append(owed_post(_id(self.channel), guild.id, post))

    async def _keep_owed(self) -> None:
        if not self.owed:
            return
        await self.host.outbox.keep(self.owed)
        asked = self.asked
        if asked is not None and self.refused:  # the person who acted learns why the channel shows nothing yet
            why = _(REFUSALS.get(self.refused, REFUSALS["discord-error"]))
            await say_safely(asked.interaction, _("Your decision is saved. {why}", why=why))
            if self.refused == "forbidden":
                await _tell_host_once(self.host, self.client, self.channel)

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
                    await self.host.live_prompts.retire(self.channel, why)
            case OpenThread(name, users, alliance_id):
                if self.channel is not None:
                    await open_private_thread(self.client, self.channel, name, list(users), alliance_id)
            case JoinThread(thread_id, users):
                await join_thread(self.client, thread_id, users)
            case Answered():
                if self.asked is not None and self.asked.clicked:
                    await answered_on(self.asked.interaction.message, effect)
            case DirectMessage(user_id, text):
                if self.channel is not None:
                    await send_private(self.client, self.host.service, self.channel, user_id, text)
            case Elsewhere(channel_id, told):
                await self._elsewhere(channel_id, told)

    async def _elsewhere(self, channel_id: int, told: Outcome) -> None:
        """Another race's channel is told: here, or by the process that owns its server (the outbox)."""
        other = self.client.get_channel(channel_id)
        if isinstance(other, discord.abc.Messageable):
            await post_all(self.client, other, told)
        else:
            await keep_for_later(self.client, channel_id, told)

    async def _retire(self, line: str) -> None:
        """The decision's line replaces the prompt it answers: the clicked message itself, else the
        channel's live prompt (a private menu, a typed move), else it is posted."""
        self.retired = line
        live = self.host.live_prompts
        asked = self.asked
        message = asked.interaction.message if asked is not None else None
        if asked is not None and asked.on_the_prompt and message is not None:
            shown = f"{message.content}\n{line}"[:2000]
            try:
                await asked.interaction.edit_original_response(content=shown, view=None)
            except DISCORD_FAILURES as exc:  # the interaction's token died: the bot edits its own message
                self.host.failures.failed(exc, f"retiring the clicked prompt {message.id} by its interaction")
                await message.edit(content=shown, view=None, allowed_mentions=discord.AllowedMentions.none())
            await live.answered(asked.interaction.channel_id or 0, message.id)
            self.answered = True
            return
        if self.channel is not None and not await live.retire(self.channel, line):
            await send_post(self.channel, Post(line), nonce=new_nonce())
        if asked is not None and asked.clicked and asked.deferred:  # a private menu: it shows the line too
            try:
                await asked.interaction.edit_original_response(content=line, view=None)
                self.answered = True
            except DISCORD_FAILURES as exc:
                self.host.failures.failed(exc, "showing the decision on its private menu")

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
            files.append(as_file(*reply.file))
        if reply.image is not None:
            files.append(as_file("board.png", reply.image, reply.image_alt))
        view: discord.ui.View | None = None
        if reply.prompt is not None and reply.prompt.ahead:
            view = ahead_view(reply.prompt)
        elif reply.prompt is not None:
            view = menus(reply.prompt, reply.prompt_page)
        try:
            await say(asked.interaction, text or _("Done."), ephemeral=reply.ephemeral, files=files, view=view)
        except DISCORD_FAILURES as exc:  # the interaction died: what the channel shows still goes on
            self.host.failures.failed(exc, f"answering interaction {asked.interaction.id}")

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
        live = self.host.live_prompts
        prompt = post.prompt is not None and bool(post.prompt.choices)
        if prompt:  # one live prompt in a channel: the one on screen gives way, saying why
            await live.retire(self.channel, self.replaced or f"⏭ {_(REPLACED)}")
        message = await send_post(self.channel, post, nonce=new_nonce())
        if prompt:
            await live.posted(message)
            self.prompted = True


REFUSALS = {
    "forbidden": N_(
        "I may not post in this channel any more (a permission was taken away): the race waits until I can, "
        "and its host is told."
    ),
    "rate-limited": N_("Discord is making me wait: the board and the next prompt follow as soon as it lets me."),
    "discord-error": N_("Discord did not take the channel's post just now: it follows as soon as Discord takes it."),
    "network": N_("Discord did not take the channel's post just now: it follows as soon as Discord takes it."),
}


def owed_post(channel_id: int, guild_id: int, post: Post) -> OwedPost:
    """``post`` as the outbox keeps it: everything it needs, and the version of its prompt."""
    prompt = post.prompt if post.prompt is not None and post.prompt.choices else None
    file_name, file = post.file if post.file is not None else (None, None)
    return OwedPost(
        channel_id,
        guild_id,
        post.text[:2000],
        new_nonce(),
        race_id=prompt.race_id if prompt else None,
        version=prompt.version if prompt else None,
        mentions=tuple(post.mentions),
        image=post.image,
        image_name=post.image_name,
        image_alt=post.image_alt,
        file_name=file_name,
        file=file,
    )


async def _tell_host_once(host: Host, client: discord.Client, channel: discord.abc.Messageable | None) -> None:
    """A permission was taken away: the race waits, and its host is told, once."""
    told = await host.service.waiting.pause_channel(_id(channel), "forbidden")
    for user_id, text in told.dms:
        await send_private(client, host.service, channel, user_id, text)


def _id(channel: discord.abc.Messageable | None) -> int:
    return int(getattr(channel, "id", 0) or 0)


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
    if isinstance(channel, discord.Thread) and isinstance(channel.parent, discord.TextChannel):
        channel = channel.parent  # a league stage run in a thread: the alliance's thread beside it
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
