"""What the loopback Discord keeps, as a real server would: servers, channels, members, messages (with
their attachments' bytes, components, flags and edits), interactions and their answers.

Everything is plain data in memory; ``payloads`` turns it into the JSON Discord sends."""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
MENTION = re.compile(r"<@!?(\d+)>")

JSON = dict[str, Any]


class Snowflakes:
    """Discord ids: the creation time in the top bits, so ``discord.utils.snowflake_time`` reads it."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self, at: float | None = None) -> int:
        ms = int((time.time() if at is None else at) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass
class User:
    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Guild:
    id: int
    name: str
    locale: str = "en-US"
    channels: list[int] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    bot_member: bool = True  # False while the bot is removed from the server


@dataclass
class Channel:
    id: int
    name: str
    type: int = 0  # 0 text, 1 DM, 4 category, 11 public thread, 12 private thread
    guild_id: int | None = None
    parent_id: int | None = None
    recipient_id: int | None = None  # a DM's other person
    deleted: bool = False
    thread_members: list[int] = field(default_factory=list)


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None  # the alt text a screen reader reads


@dataclass
class Message:
    """A message as Discord keeps it; ``content``/``components`` are the latest, ``history`` the earlier ones."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    embeds: list[JSON] = field(default_factory=list)
    flags: int = 0
    nonce: str | None = None
    interaction_id: int | None = None  # a response or followup to this interaction
    deleted: bool = False
    history: list[tuple[str, list[JSON]]] = field(default_factory=list)  # (content, components) before each edit

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.history)

    def mentions(self) -> list[int]:
        return [int(m) for m in MENTION.findall(self.content)]

    def children(self) -> list[JSON]:
        """Buttons and menus, row after row."""
        out: list[JSON] = []
        for row in self.components:
            out.extend(row.get("components", []) if row.get("type") == 1 else [row])
        return out

    def buttons(self) -> list[JSON]:
        return [c for c in self.children() if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        return [c for c in self.children() if c.get("type") in (3, 5, 6, 7, 8)]

    def has_image(self) -> bool:
        return any(a.filename.endswith((".png", ".gif", ".webp", ".jpg")) for a in self.attachments)

    def __repr__(self) -> str:
        labels = [c.get("label") or c.get("custom_id") for c in self.children()]
        files = [a.filename for a in self.attachments]
        return f"<Message {self.id} in {self.channel_id}: {self.content[:80]!r} files={files} components={labels}>"


@dataclass
class Interaction:
    """One interaction the fake delivered and what the bot answered to it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: JSON
    created: float  # time.monotonic() of the moment Discord "received" it (earlier than delivery when late)
    message_id: int | None = None  # the clicked message
    callback_type: int | None = None
    callbacks: int = 0
    refused: int = 0  # callbacks answered 10062 (too late) or 40060 (twice): the person sees it failed
    original_id: int | None = None  # the message the original response is
    followup_ids: list[int] = field(default_factory=list)
    answered_at: float | None = None  # first answer a person sees: a message, an edit of the original, a followup
    choices: list[JSON] | None = None  # an autocomplete's answer
    token_dead: bool = False  # a test killed the token: webhooks answer 401 50027


@dataclass
class World:
    bot: User
    application_id: int
    ids: Snowflakes = field(default_factory=Snowflakes)
    users: dict[int, User] = field(default_factory=dict)
    guilds: dict[int, Guild] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    interactions: dict[int, Interaction] = field(default_factory=dict)
    by_token: dict[str, int] = field(default_factory=dict)
    commands: dict[str, JSON] = field(default_factory=dict)  # name -> the synced command (global or guild)
    nonces: dict[tuple[int, str], tuple[int, float]] = field(default_factory=dict)  # -> (message id, when)

    def add_user(self, name: str) -> User:
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, locale: str = "en-US") -> Guild:
        guild = Guild(self.ids.next(), name, locale)
        self.guilds[guild.id] = guild
        guild.members.append(self.bot.id)
        return guild

    def add_channel(self, guild: Guild, name: str, *, type: int = 0, parent_id: int | None = None) -> Channel:
        channel = Channel(self.ids.next(), name, type, guild.id, parent_id)
        self.channels[channel.id] = channel
        guild.channels.append(channel.id)
        return channel

    def dm_channel(self, user_id: int) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient_id == user_id:
                return channel
        channel = Channel(self.ids.next(), "", 1, None, recipient_id=user_id)
        self.channels[channel.id] = channel
        return channel

    def in_channel(self, channel_id: int, *, ephemeral: bool = False, deleted: bool = False) -> list[Message]:
        """The channel's messages, oldest first: as everyone sees them (no ephemeral, no deleted) by default."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and (ephemeral or not m.ephemeral) and (deleted or not m.deleted)
        ]
