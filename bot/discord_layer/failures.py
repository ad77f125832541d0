"""What Discord's failures mean for the bot: each refused or lost request sorted by kind, counted,
and told in one log line (never a traceback: they are Discord's weather, not the bot's bugs).

The kinds decide what happens next (``posting.Walk``, ``outbox.Outbox``):

- ``rate-limited``, ``discord-error``, ``network``: Discord will take it later; the post is kept and
  sent again with a backoff.
- ``forbidden``: a moderator took a permission away; the race waits and its host is told once.
- ``channel-gone``: the channel was deleted; the race waits and its host is told how to go on.
- ``message-gone``: the message to edit was deleted; a new one is posted instead.
- ``interaction-expired``: the interaction's token is dead (late, or older than 15 minutes): what it
  would have said goes to the channel instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
import discord

log = logging.getLogger("domestique")

# Discord's JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes)
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
ALREADY_ACKNOWLEDGED = 40060

TRANSIENT = frozenset({"rate-limited", "discord-error", "network"})

# what a request to Discord can raise when Discord (or the way to it) fails
DISCORD_FAILURES: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    discord.GatewayNotFound,
    aiohttp.ClientError,
    asyncio.TimeoutError,
    OSError,
)


def kind_of(exc: BaseException) -> str:
    """The kind of a failed request to Discord (see the module's docstring)."""
    if isinstance(exc, discord.HTTPException):
        code = getattr(exc, "code", 0)
        if exc.status == 429:
            return "rate-limited"
        if exc.status >= 500:
            return "discord-error"
        if code == UNKNOWN_CHANNEL:
            return "channel-gone"
        if code == UNKNOWN_MESSAGE:
            return "message-gone"
        if code in (UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN, ALREADY_ACKNOWLEDGED):
            return "interaction-expired"
        if exc.status == 403 or code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            return "forbidden"
        if exc.status == 404:
            return "message-gone"
        return "refused"
    if isinstance(exc, (aiohttp.ClientError, asyncio.TimeoutError, OSError)):
        return "network"
    return "refused"


def short(exc: BaseException) -> str:
    """The failure in one line: its status, Discord's code and text (never a token: Discord's own text)."""
    if isinstance(exc, discord.HTTPException):
        text = " ".join((exc.text or "").split())[:120]
        return f"{exc.status} {getattr(exc, 'code', 0)} {text}".strip()
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}".strip()


@dataclass
class FailureCounts:
    """Discord's failures by kind, posts sent again from the outbox, and what the outbox holds:
    what an operator watches (``/health``, ``docs/deploy.md``)."""

    by_kind: Counter[str] = field(default_factory=Counter)
    posts_retried: int = 0
    posts_delivered_late: int = 0

    def failed(self, exc: BaseException, doing: str) -> str:
        """Count ``exc`` and log it in one line; its kind."""
        kind = kind_of(exc)
        self.by_kind[kind] += 1
        log.warning("discord: %s failed (%s: %s)", doing, kind, short(exc))
        return kind
