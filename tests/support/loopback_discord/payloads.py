"""The loopback world as the JSON Discord's API and gateway send (the fields discord.py 2.7 reads)."""

from __future__ import annotations

import datetime

from tests.support.loopback_discord.world import JSON, Attachment, Channel, Guild, Message, User, World

ALL_PERMISSIONS = str((1 << 51) - 1)  # every permission: the members and the bot may do anything here
JOINED = "2026-01-01T00:00:00+00:00"


def iso(snowflake: int) -> str:
    ms = (snowflake >> 22) + 1_420_070_400_000
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).isoformat()


def user(u: User) -> JSON:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
    }


def member(u: User, *, permissions: bool = False) -> JSON:
    out: JSON = {
        "user": user(u),
        "nick": None,
        "roles": [],
        "joined_at": JOINED,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions:
        out["permissions"] = ALL_PERMISSIONS
    return out


def channel(c: Channel, world: World) -> JSON:
    out: JSON = {"id": str(c.id), "type": c.type, "name": c.name, "last_message_id": None, "flags": 0}
    if c.type == 1:
        recipient = world.users.get(c.recipient_id or 0)
        out["recipients"] = [user(recipient)] if recipient else []
        return out
    out.update(
        guild_id=str(c.guild_id),
        position=0,
        permission_overwrites=[],
        parent_id=str(c.parent_id) if c.parent_id else None,
        nsfw=False,
        topic=None,
        rate_limit_per_user=0,
    )
    if c.type in (11, 12):
        out.update(
            owner_id=str(world.bot.id),
            member_count=len(c.thread_members),
            message_count=0,
            thread_metadata={
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": JOINED,
                "locked": False,
                "invitable": c.type == 11,
            },
        )
    return out


def guild(g: Guild, world: World) -> JSON:
    everyone = {
        "id": str(g.id),
        "name": "@everyone",
        "permissions": ALL_PERMISSIONS,
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    channels = [world.channels[c] for c in g.channels if not world.channels[c].deleted]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.members[-1] if len(g.members) > 1 else world.bot.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": g.locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "unavailable": False,
        "large": False,
        "member_count": len(g.members),
        "joined_at": JOINED,
        "members": [member(world.users[m]) for m in g.members if m in world.users],
        "channels": [channel(c, world) for c in channels if c.type not in (11, 12)],
        "threads": [channel(c, world) for c in channels if c.type in (11, 12)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(a: Attachment, port: int) -> JSON:
    out: JSON = {
        "id": str(a.id),
        "filename": a.filename,
        "size": len(a.data),
        "url": f"http://127.0.0.1:{port}/attachments/{a.id}/{a.filename}",
        "proxy_url": f"http://127.0.0.1:{port}/attachments/{a.id}/{a.filename}",
        "content_type": a.content_type,
    }
    if a.description is not None:
        out["description"] = a.description
    return out


def message(m: Message, world: World, port: int) -> JSON:
    author = world.users.get(m.author_id) or world.bot
    ch = world.channels.get(m.channel_id)
    out: JSON = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "type": 0,
        "author": user(author),
        "content": m.content,
        "timestamp": iso(m.id),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(world.users[u]) for u in m.mentions() if u in world.users],
        "mention_roles": [],
        "attachments": [attachment(a, port) for a in m.attachments],
        "embeds": m.embeds,
        "pinned": False,
        "flags": m.flags,
        "components": m.components,
    }
    if ch is not None and ch.guild_id is not None:
        out["guild_id"] = str(ch.guild_id)
    if m.nonce is not None:
        out["nonce"] = m.nonce
    if m.interaction_id is not None:
        out["webhook_id"] = str(world.application_id)
        out["application_id"] = str(world.application_id)
        interaction = world.interactions.get(m.interaction_id)
        if interaction is not None:
            out["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user(world.users[interaction.user_id]),
                "authorizing_integration_owners": {},
            }
    return out
