"""What a player does, as Discord delivers it: a slash command (with subcommands and options typed as
the synced command declares them), a button click, a menu choice, an autocomplete; and what they then
see (``Exchange``: the answer to them, public or private)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tests.support.loopback_discord import payloads
from tests.support.loopback_discord.world import JSON, Channel, Interaction, Message, User

if TYPE_CHECKING:
    from tests.support.loopback_discord.server import LoopbackDiscord

SUBCOMMAND, GROUP = 1, 2
USER_OPTION, CHANNEL_OPTION = 6, 7


@dataclass
class Exchange:
    """One interaction and the answer it got: ``messages`` are what the person sees (the original
    response, then the followups; a deferred update's original is the clicked message)."""

    fake: LoopbackDiscord
    interaction: Interaction

    @property
    def acknowledged(self) -> bool:
        return self.interaction.callbacks > 0

    @property
    def answered(self) -> bool:
        return self.interaction.answered_at is not None

    @property
    def failed(self) -> bool:
        """Discord told the person "This interaction failed": the bot acknowledged it too late (or twice)."""
        return self.interaction.refused > 0 and not self.acknowledged

    @property
    def messages(self) -> list[Message]:
        world = self.fake.world
        ids = [self.interaction.original_id, *self.interaction.followup_ids]
        seen: list[Message] = []
        for message_id in ids:
            message = world.messages.get(message_id or 0)
            if message is not None and message not in seen:
                seen.append(message)
        return seen

    @property
    def text(self) -> str:
        return "\n".join(m.content for m in self.messages)

    @property
    def ephemeral(self) -> bool:
        return bool(self.messages) and all(m.ephemeral for m in self.messages)

    @property
    def choices(self) -> list[JSON]:
        return list(self.interaction.choices or [])


def _option_types(command: JSON, path: list[str]) -> list[JSON]:
    """The option definitions of the (sub)command named by ``path`` under ``command``."""
    options: list[JSON] = list(command.get("options") or [])
    for name in path:
        found = next((o for o in options if o["name"] == name and o["type"] in (SUBCOMMAND, GROUP)), None)
        if found is None:
            raise ValueError(f"no subcommand {name!r} in /{command['name']} (synced: {[o['name'] for o in options]})")
        options = list(found.get("options") or [])
    return options


def command_data(fake: LoopbackDiscord, name: str, values: dict[str, Any], focused: str | None = None) -> JSON:
    """The ``data`` of a slash command interaction for ``/name`` (``"race new"``), users and channels resolved."""
    top, *path = name.split()
    command = fake.world.commands.get(top)
    if command is None:
        raise ValueError(f"/{top} was never synced (synced: {sorted(fake.world.commands)})")
    definitions = _option_types(command, path)
    resolved: JSON = {}
    given: list[JSON] = []
    for key, value in values.items():
        definition = next((o for o in definitions if o["name"] == key), None)
        if definition is None:
            raise ValueError(f"/{name} has no option {key!r} (it has {[o['name'] for o in definitions]})")
        kind = int(definition["type"])
        option: JSON = {"name": key, "type": kind}
        if isinstance(value, User):
            option["value"] = str(value.id)
            resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
            member = payloads.member(value)
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
        elif isinstance(value, Channel):
            option["value"] = str(value.id)
            channel = payloads.channel(value, fake.world)
            channel["permissions"] = payloads.ALL_PERMISSIONS
            resolved.setdefault("channels", {})[str(value.id)] = channel
        else:
            option["value"] = value
        if key == focused:
            option["focused"] = True
        given.append(option)
    options: list[JSON] = given
    for depth, sub in reversed(list(enumerate(path))):  # the last name is a subcommand, any before it a group
        options = [{"name": sub, "type": SUBCOMMAND if depth == len(path) - 1 else GROUP, "options": options}]
    data: JSON = {"id": command["id"], "name": top, "type": 1, "options": options}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def interaction_payload(fake: LoopbackDiscord, interaction: Interaction, message: Message | None) -> JSON:
    """INTERACTION_CREATE's data, as Discord sends it for a member in a server channel (or a DM)."""
    world = fake.world
    user = world.users[interaction.user_id]
    channel = world.channels[interaction.channel_id]
    payload: JSON = {
        "id": str(interaction.id),
        "application_id": str(world.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "token": interaction.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": {**payloads.channel(channel, world), "permissions": payloads.ALL_PERMISSIONS},
        "locale": "en-US",
        "app_permissions": payloads.ALL_PERMISSIONS,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(interaction.guild_id or 0)},
        "context": 0 if interaction.guild_id else 1,
        "attachment_size_limit": 26_214_400,
    }
    if interaction.guild_id is not None:
        guild = world.guilds[interaction.guild_id]
        payload["guild_id"] = str(guild.id)
        payload["guild_locale"] = guild.locale
        payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        payload["member"] = payloads.member(user, permissions=True)
    else:
        payload["user"] = payloads.user(user)
    if message is not None:
        payload["message"] = payloads.message(message, world, fake.port)
    return payload


def new_interaction(
    fake: LoopbackDiscord, kind: int, user: User, channel: Channel, data: JSON, late: float, message: Message | None
) -> Interaction:
    created = time.monotonic() - late
    interaction = Interaction(
        id=fake.world.ids.next(time.time() - late),
        token=f"loopback-token-{secrets.token_hex(8)}",
        type=kind,
        user_id=user.id,
        channel_id=channel.id,
        guild_id=channel.guild_id,
        data=data,
        created=created,
        message_id=message.id if message is not None else None,
    )
    fake.world.interactions[interaction.id] = interaction
    fake.world.by_token[interaction.token] = interaction.id
    return interaction


def find_button(message: Message, label: str | None, custom_id: str | None) -> JSON:
    for button in message.buttons():
        if (label is None or button.get("label") == label) and (
            custom_id is None or button.get("custom_id") == custom_id
        ):
            return button
    shown = [(b.get("label"), b.get("custom_id")) for b in message.buttons()]
    raise ValueError(f"no button label={label!r} custom_id={custom_id!r} on {message!r}: {shown}")


def find_select(message: Message, custom_id: str | None) -> JSON:
    for select in message.selects():
        if custom_id is None or select.get("custom_id") == custom_id:
            return select
    raise ValueError(f"no menu custom_id={custom_id!r} on {message!r}")
