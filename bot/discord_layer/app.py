"""The Discord client: commands synced on start, buttons that survive restarts, timers from the database."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_layer import posting
from bot.discord_layer.background import stopped
from bot.discord_layer.command_tree import register_all
from bot.discord_layer.components import DYNAMIC_ITEMS
from bot.discord_layer.failures import DISCORD_FAILURES, FailureCounts
from bot.discord_layer.health import Health
from bot.discord_layer.live_prompts import LivePrompts
from bot.discord_layer.outbox import Outbox
from bot.discord_layer.pace_components import AheadSelect
from bot.discord_layer.sending import send_private
from bot.discord_layer.translator import CatalogTranslator
from bot.leagues.alliance import AllianceService
from bot.leagues.league import LeagueService
from bot.leagues.pacts import PactService
from bot.service.drawing import Drawing
from bot.service.listeners import Listeners
from bot.service.model import Outcome
from bot.service.races import RaceService
from bot.shards import Shards
from bot.storage.url import storage_for
from bot.web.links import Links
from rules.i18n import _, speaking

log = logging.getLogger("domestique")
IDLE_CHECK = 3600.0  # the loop also wakes whenever a deadline changes


class DomestiqueBot(discord.Client):
    """The bot on one database: ``db`` is an SQLite file (or ``sqlite:///`` URL) or a ``postgresql://`` URL."""

    def __init__(
        self,
        db: str,
        *,
        dev_guild: int | None = None,
        now: Callable[[], float] | None = None,
        seeds: Callable[[], int] | None = None,
        shards: Shards | None = None,
        drawing: Drawing | None = None,
        web_url: str | None = None,
        report_health: bool = False,
        **client: Any,
    ) -> None:
        # nobody is pinged unless a message names them on purpose (Post.mentions)
        quiet = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)
        super().__init__(intents=discord.Intents.default(), allowed_mentions=quiet, **client)
        self.tree: app_commands.CommandTree[DomestiqueBot] = app_commands.CommandTree(self)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        register_all(self.tree)
        self.storage = storage_for(db)
        clock = now or (lambda: discord.utils.utcnow().timestamp())
        self.service = RaceService(
            self.storage,
            now=clock,
            seeds=seeds,
            drawing=drawing,
            # the servers whose timers, reminders and league stages this process runs (docs/deploy.md)
            shards=shards,
            listeners=Listeners(changed=[self._reschedule]),
            # the pages' links in the posts, when ``domestique run`` serves them on ``web_url`` (docs/web.md)
            pages=Links(self.storage, web_url) if web_url else None,
        )
        self.leagues = LeagueService(self.service, self.storage)
        self.alliances = AllianceService(self.service, self.storage)
        self.pacts = PactService(self.alliances, self.storage)
        self.leagues.stage_opened.append(self.alliances.carry_over)  # league alliances ride on stage to stage
        self.leagues.pact_tally = self.pacts.tally  # each member's pacts kept and broken, in the standings
        self.leagues.teams = self.alliances.teams  # the alliances a league's team classification scores
        self.live_prompts = LivePrompts(self.storage)  # each channel's prompt whose buttons answer now
        self.failures = FailureCounts()  # Discord's failures by kind, posts sent again (the health page)
        # what Discord did not take, kept and sent again; what another process owes this one's channels
        self.outbox = Outbox(self, self.service, self.live_prompts, self.failures, shards)
        # this process's health, written for /health every few seconds (``domestique run``: docs/deploy.md)
        self.health = Health(self.storage, self.outbox, self.failures, shards) if report_health else None
        self.dev_guild = dev_guild
        self._timers: asyncio.Task[None] | None = None
        self._gateway: asyncio.Task[Any] | None = None  # the task reading the gateway, stopped first on close
        self._ticking = False
        self._telling: set[asyncio.Task[None]] = set()
        self._server_locks: dict[int, asyncio.Lock] = {}  # timer outcomes being posted, a task per channel
        self._repaired = False  # the first timer pass finishes the starts a crash left unfinished

    async def answer(self, interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True) -> None:
        await posting.answer(interaction, work, defer=defer)

    async def setup_hook(self) -> None:
        await self.storage.open()
        self.add_dynamic_items(*DYNAMIC_ITEMS, AheadSelect)
        await self.tree.set_translator(CatalogTranslator())  # commands in Hungarian and Czech (docs/translating.md)
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self._timers = asyncio.create_task(self._run_timers())
        await self.outbox.start()
        if self.health is not None:
            await self.health.start(self)

    async def connect(self, *, reconnect: bool = True) -> None:
        self._gateway = asyncio.current_task()
        await super().connect(reconnect=reconnect)

    async def close(self) -> None:
        await self._stop_reading()
        await stopped(self._timers)
        if self._telling:
            await asyncio.wait(self._telling, timeout=10)
        await self.outbox.stop()
        if self.health is not None:
            await self.health.stop()
        await self.storage.close()
        self.service.core.drawing.close()
        await super().close()

    async def _stop_reading(self) -> None:
        """Stop the gateway read before the socket is closed, so that it closes with 1000 and Discord ends the
        session (and shows the bot offline) at once. discord.py's ``Client.close`` closes the socket while
        ``poll_event`` waits in aiohttp's ``receive()``: aiohttp wakes that read with a CLOSING message before it
        writes any close frame, and ``poll_event`` answers it with ``socket.close(code=4000)``, which goes out
        first; the 1000 then finds the socket closed. Its ``Shard.close`` cancels the reading task first, as here.
        """
        task, self._gateway = self._gateway, None
        if task is None or task.done() or task is asyncio.current_task():
            return  # not connected, or discord.py closing from inside its own gateway loop
        task.cancel()
        await asyncio.wait({task})

    def _reschedule(self) -> None:
        """A deadline changed: restart the sleeping timer loop so it sleeps until the new earliest one."""
        if self._ticking or self._timers is None or self._timers.done() or self.is_closed():
            return
        self._timers.cancel()
        self._timers = asyncio.create_task(self._run_timers())

    async def _run_timers(self) -> None:
        """Reminders and automatic decisions; deadlines live in the database, so they survive restarts."""
        await self.wait_until_ready()
        while not self.is_closed():
            self._ticking = True
            try:
                upcoming = await self._timer_pass()
            finally:
                self._ticking = False
            now = self.service.core.now()
            wait = IDLE_CHECK if upcoming is None else min(IDLE_CHECK, max(1.0, upcoming - now))
            await asyncio.sleep(wait)

    async def _timer_pass(self) -> float | None:
        """One pass: league schedules, then race deadlines, each part failing alone (each league and
        race inside them too, with a bounded backoff); the time of the next thing due."""
        parts: list[tuple[str, Callable[[], Awaitable[list[tuple[int, Outcome]]]]]] = [
            ("league schedules", self._league_tick),
            ("race timers", self.service.timers.tick),
            ("alliance invitations", self.alliances.lapse),
        ]
        if not self._repaired:
            parts.insert(0, ("unfinished starts", self._repair_starts))
        for name, tick in parts:
            try:
                ticks = await tick()
            except Exception:
                log.exception("timer pass: %s failed; the other part goes on", name)
                continue
            for channel_id, outcome in ticks:  # each channel told on its own: none waits on another's posts
                self._telling.add(task := asyncio.create_task(self._tell_channel(channel_id, outcome)))
                task.add_done_callback(self._telling.discard)
        if self.health is not None:
            self.health.timer_pass()
        dues: list[float] = []
        for next_due in (self.service.timers.next_deadline, self.leagues.next_due, self.alliances.next_lapse):
            try:
                due = await next_due()
            except Exception:
                log.exception("timer pass: reading the next deadline failed")
                continue
            if due is not None:
                dues.append(due)
        return min(dues) if dues else None

    async def _tell_channel(self, channel_id: int, outcome: Outcome) -> None:
        try:
            channel = self.get_channel(channel_id)
            if isinstance(channel, discord.abc.Messageable):
                await posting.post_all(self, channel, outcome)
            else:  # not in this process's cache now (a server unavailable): the outbox sends it when it can
                await posting.keep_for_later(self, channel_id, outcome)
        except Exception:
            log.exception("timer pass: telling channel %s failed", channel_id)

    async def _repair_starts(self) -> list[tuple[int, Outcome]]:
        done = await self.service.lobby.repair_starts(self.service.core.shards)
        self._repaired = True
        return done

    async def _league_tick(self) -> list[tuple[int, Outcome]]:
        return await self.leagues.tick(self._stage_channel)

    async def _stage_channel(self, league_channel_id: int, name: str) -> int:
        """A league stage runs in a thread of the league's channel, or a channel of its category."""
        parent = self.get_channel(league_channel_id) or await self.fetch_channel(league_channel_id)
        if isinstance(parent, discord.CategoryChannel):
            channel = await parent.guild.create_text_channel(name[:100], category=parent)
            return channel.id
        if isinstance(parent, discord.TextChannel):
            thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
            return thread.id
        raise RuntimeError(f"league channel {league_channel_id} is neither a text channel nor a category")

    # ---- what moderators and Discord do around a race (issue 43)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deleted live prompt is posted again (the race as it stands), so the race does not stall."""
        if payload.guild_id is not None and await self.live_prompts.deleted(payload.channel_id, payload.message_id):
            log.info("channel %s: its live prompt was deleted; posted again", payload.channel_id)
            await self.outbox.refresh(payload.channel_id, payload.guild_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id, channel.guild)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id, self.get_guild(payload.guild_id))

    async def _channel_gone(self, channel_id: int, guild: discord.Guild | None) -> None:
        """A race's channel was deleted: the race waits (no AI plays into it) and its host is told how to go on."""
        await self.storage.forget_owed(channel_id)
        self.outbox.owed.discard(channel_id)
        told = await self.service.waiting.pause_channel(channel_id, "channel-gone")
        for user_id, text in told.dms:
            await send_private(self, self.service, None, user_id, text, guild=guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its races wait until the bot is added back."""
        async with self._server_lock(guild.id):
            paused = await self.service.waiting.pause_server(guild.id)
        log.info("removed from server %s: %s races wait", guild.id, paused)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added back to a server: each race that waited shows its board and a live prompt, and goes on."""
        async with self._server_lock(guild.id):  # after a removal's pause, never before it
            back = await self.service.waiting.back_in_server(guild.id)
        for channel_id, outcome in back:
            await self._tell_channel(channel_id, outcome)

    def _server_lock(self, guild_id: int) -> asyncio.Lock:
        """A server's removal and return are handled one after the other, in the order they came."""
        return self._server_locks.setdefault(guild_id, asyncio.Lock())

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        with speaking(posting.own_language(interaction)):
            if isinstance(error, app_commands.CheckFailure):
                await posting.say_safely(interaction, _("This command works in a server channel."))
                return
            cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
            if isinstance(cause, DISCORD_FAILURES):  # Discord's weather, not a bug: one line, no traceback
                self.failures.failed(cause, f"command of interaction {interaction.id}")
                return
            ref = f"{interaction.id:x}"[-8:]
            log.error("command error (ref %s)", ref, exc_info=error)
            await posting.say_safely(interaction, _("Something went wrong (ref {ref}). Nothing was changed.", ref=ref))


class ShardedDomestiqueBot(DomestiqueBot, discord.AutoShardedClient):
    """One process of a cluster: it connects only its shards and runs only their servers' timers."""

    def __init__(self, db: str, *, shards: Shards, **options: Any) -> None:
        super().__init__(db, shards=shards, shard_ids=list(shards.ids), shard_count=shards.count, **options)


def make_bot(db: str, *, shards: Shards | None = None, **options: Any) -> DomestiqueBot:
    """The bot for ``domestique run``: sharded when ``shards`` names some (``DOMESTIQUE_SHARDS``)."""
    if shards is None:
        return DomestiqueBot(db, **options)
    return ShardedDomestiqueBot(db, shards=shards, **options)
