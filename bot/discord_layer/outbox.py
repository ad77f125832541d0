"""The channels' outbox: what Discord did not take is kept in the database and sent again.

A post that fails (Discord's 5xx, a rate limit it gave up on, the network, a revoked permission)
is kept as a row (``bot/storage/outbox_tables.py``) with its nonce, and this loop sends it again
with a growing wait until Discord takes it, across restarts. A channel owed something gets its
newer posts queued behind (``posting.Walk``), so it always reads in order; its race waits meanwhile
(``bot/service/timers.py``). A row for a channel of a server another process owns (a shard
cluster) is delivered by that process, which finds it on its next look (every few seconds).

What a failure means (``failures.py``): a deleted channel drops what it was owed and its race waits
for ``/race resume`` elsewhere; a revoked permission keeps the posts and tells the host once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from itertools import groupby

import discord

from bot.discord_layer.background import stopped
from bot.discord_layer.failures import DISCORD_FAILURES, TRANSIENT, FailureCounts, kind_of, short
from bot.discord_layer.live_prompts import REPLACED, LivePrompts
from bot.discord_layer.sending import send_post, send_private
from bot.service.model import Outcome, Post
from bot.service.races import RaceService
from bot.shards import Shards
from bot.storage.outbox_tables import REFRESH, OwedPost
from rules.i18n import _, speaking

log = logging.getLogger("domestique")

FIRST_WAIT = 5.0  # seconds before a failed post is tried again; doubled each time
LONGEST_WAIT = 900.0
CLUSTER_LOOK = 15.0  # how often a process of a cluster looks for posts another process kept for its servers


def new_nonce() -> str:
    """A message's own nonce (Discord takes up to 25 characters): a re-sent copy is made only once."""
    return secrets.token_hex(10)


def backoff(attempts: int) -> float:
    return float(min(LONGEST_WAIT, FIRST_WAIT * 2 ** min(attempts, 10)))


class Outbox:
    def __init__(
        self,
        client: discord.Client,
        service: RaceService,
        live: LivePrompts,
        counts: FailureCounts,
        shards: Shards | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.storage = service.storage
        self.waiting = service.waiting
        self.live = live
        self.counts = counts
        self.now = service.core.now
        self.shards = shards or Shards.everything()
        self.owed: set[int] = set()  # channels owed posts (kept in step with the table)
        self._task: asyncio.Task[None] | None = None
        self._delivering = False  # a pass is sending: a wake-up asks for another pass after it
        self._again = False

    async def start(self) -> None:
        self.owed = await self.storage.owed_channels()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stopped(task)

    def wake(self) -> None:
        """Look at once: a sleeping loop is started again; one delivering looks again when it is done."""
        if self._delivering:
            self._again = True
        elif not self.client.is_closed():
            if self._task is not None and not self._task.done():
                self._task.cancel()  # it sleeps (asyncio.sleep: what tests' virtual clocks know how to skip)
            self._task = asyncio.create_task(self._run())

    def owes(self, channel_id: int) -> bool:
        return channel_id in self.owed

    async def keep(self, posts: list[OwedPost]) -> None:
        """Keep ``posts`` for their channels, to be sent as soon as Discord takes them."""
        if not posts:
            return
        await self.storage.owe(posts, self.now())
        self.owed.update(p.channel_id for p in posts)
        self.wake()

    async def refresh(self, channel_id: int, guild_id: int) -> None:
        """The channel is owed its race as it stands (its prompt was deleted, it was away)."""
        await self.keep([OwedPost(channel_id, guild_id, "", new_nonce(), kind=REFRESH)])

    async def _run(self) -> None:
        """Deliver until nothing is owed; a process of a cluster goes on looking for what others wrote it."""
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            self._delivering, self._again = True, False
            try:
                wait = await self.deliver_due()
            except Exception:  # a bug or the database: logged, and the loop goes on
                log.exception("outbox: a pass failed")
                wait = FIRST_WAIT
            finally:
                self._delivering = False
            if self._again:
                continue
            if wait is None:
                return  # nothing owed: ``keep`` starts the loop again
            await asyncio.sleep(wait)

    async def deliver_due(self) -> float | None:
        """Send what is due, channel by channel (each in order, all channels at once); seconds until
        the next look (None: nothing is owed, and no other process writes for this one)."""
        rows = await self.storage.owed(self.shards)
        now = self.now()
        channels = [
            list(group) for _, group in groupby(sorted(rows, key=lambda r: r.channel_id), lambda r: r.channel_id)
        ]
        due = [owed for owed in channels if owed[0].due <= now]
        await asyncio.gather(*(self._deliver_channel(owed) for owed in due))
        later = [r.due for r in await self.storage.owed(self.shards)]
        if not later and self.shards.all:
            return None
        return max(1.0, min([CLUSTER_LOOK if not self.shards.all else LONGEST_WAIT, *(d - self.now() for d in later)]))

    async def _deliver_channel(self, rows: list[OwedPost]) -> None:
        first = rows[0]
        if self.client.get_guild(first.guild_id) is None:
            return  # removed from the server (or it is not available now): its posts wait for it
        channel = await self._channel(first)
        if channel is None:
            return
        storage = self.storage
        async with self.live.lock(channel):
            for row in sorted(rows, key=lambda r: r.id):
                try:
                    await self._send(channel, row)
                except DISCORD_FAILURES as exc:
                    await self._failed(channel, row, exc)
                    return
                await storage.delivered(row.id)
                if row.attempts:
                    self.counts.posts_delivered_late += 1
        self.owed.discard(first.channel_id)
        race = await storage.active_race(first.channel_id)
        if race is not None and await self.waiting.go_on(race.id):
            log.info("race %s: its channel takes posts again; it goes on", race.id)

    async def _channel(self, row: OwedPost) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(row.channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        try:
            fetched = await self.client.fetch_channel(row.channel_id)
        except DISCORD_FAILURES as exc:
            if kind_of(exc) in ("channel-gone", "forbidden") and isinstance(exc, discord.HTTPException):
                await self._channel_gone(row.channel_id)
            return None
        return fetched if isinstance(fetched, discord.abc.Messageable) else None

    async def _send(self, channel: discord.abc.Messageable, row: OwedPost) -> None:
        waiting, live = self.waiting, self.live
        if row.kind == REFRESH:
            post = await waiting.showing(row.channel_id)
            if post is None:
                return
        else:
            prompt = await waiting.prompt_at(row.race_id, row.version)
            file = (row.file_name, row.file) if row.file_name and row.file is not None else None
            post = Post(
                row.content, row.image, row.image_name, prompt, list(row.mentions), file, image_alt=row.image_alt
            )
        if post.prompt is not None:  # one live prompt in a channel: the one on screen gives way
            race = await self.storage.active_race(row.channel_id)
            with speaking(await self.service.languages.public(race.guild_id if race else None)):
                await live.retire(channel, f"⏭ {_(REPLACED)}")
        message = await send_post(channel, post, nonce=row.nonce)
        if post.prompt is not None and post.prompt.choices:
            await live.posted(message)

    async def _failed(self, channel: discord.abc.Messageable, row: OwedPost, exc: BaseException) -> None:
        storage = self.storage
        kind = self.counts.failed(exc, f"sending again a post owed to channel {row.channel_id}")
        if kind == "channel-gone":
            await self._channel_gone(row.channel_id)
            return
        if kind in TRANSIENT or kind == "forbidden":
            self.counts.posts_retried += 1
            await storage.retry_later(row.id, self.now() + backoff(row.attempts), short(exc))
            if kind == "forbidden":
                await self._tell(row.channel_id, await self.waiting.pause_channel(row.channel_id, kind))
            return
        log.warning("outbox: channel %s will never take post %s (%s); dropped", row.channel_id, row.id, short(exc))
        await storage.delivered(row.id)

    async def _channel_gone(self, channel_id: int) -> None:
        """The channel was deleted: what it was owed is dropped, its race waits and its host is told."""
        dropped = await self.storage.forget_owed(channel_id)
        self.owed.discard(channel_id)
        log.info("channel %s is gone: %s owed posts dropped", channel_id, dropped)
        await self._tell(channel_id, await self.waiting.pause_channel(channel_id, "channel-gone"))

    async def _tell(self, channel_id: int, outcome: Outcome) -> None:
        """The host's private message about a race that waits (no channel to post in)."""
        race = await self.storage.latest_race(channel_id)
        guild = self.client.get_guild(race.guild_id) if race is not None else None
        for user_id, text in outcome.dms:
            await send_private(self.client, self.service, None, user_id, text, guild=guild)
