"""``LoopbackDiscord``: a Discord of the project's own on 127.0.0.1 for the real ``domestique run``: its
REST API (``rest.py``), its gateway (``gateway.py``), what it keeps (``world.py``), the faults a test
scripts (``faults.py``), and the players' and moderators' actions (``players.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.support.loopback_discord import payloads
from tests.support.loopback_discord.faults import Fault, Faults, Request
from tests.support.loopback_discord.gateway import Gateway
from tests.support.loopback_discord.players import (
    Exchange,
    command_data,
    find_button,
    find_select,
    interaction_payload,
    new_interaction,
)
from tests.support.loopback_discord.rest import Rest
from tests.support.loopback_discord.world import JSON, Channel, Guild, Interaction, Message, User, World

GUILD_MEMBERS = 1 << 1  # the privileged intent


class LoopbackDiscord:
    """Start with ``async with LoopbackDiscord() as fake:``; point the bot at ``fake.api_url`` (``run_bot.py``)."""

    def __init__(self) -> None:
        bot = User(1_100_000_000_000_000_001, "Domestique", bot=True)
        self.world = World(bot=bot, application_id=bot.id)
        self.world.users[bot.id] = bot
        self.faults = Faults()
        self.requests: list[Request] = []
        self.counts: Counter[tuple[str, int]] = Counter()  # (route, status) -> requests
        self.unknown_routes: list[str] = []
        self.synced = asyncio.Event()  # the bot synced its commands
        self.port = 0
        self.rest = Rest(self)
        self.gateway = Gateway(self)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None

    # -- life -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> LoopbackDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.socket)
        app.router.add_get("/attachments/{id}/{name}", self._attachment)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.gateway.stop()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def _attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404)

    # -- waiting ----------------------------------------------------------------------------------------

    def changed(self) -> None:
        """Something happened (a request, a gateway op): wake whoever waits."""
        self._changed.set()

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float, what: str = "") -> Any:
        """Wait until ``predicate()`` is truthy (checked on every change the fake sees, and every 0.1 s for
        what it cannot see, such as the bot's log); its value. Raises TimeoutError naming ``what``."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"loopback Discord: waited {timeout:.0f} s for {what or predicate}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.1))

    # -- the world --------------------------------------------------------------------------------------

    def add_guild(self, name: str = "Loopback server", locale: str = "en-US") -> Guild:
        """A server the bot is in (add it before the bot connects, or ``add_bot_back`` it after)."""
        return self.world.add_guild(name, locale)

    def add_channel(self, guild: Guild, name: str = "race") -> Channel:
        return self.world.add_channel(guild, name)

    async def create_channel(self, guild: Guild, name: str) -> Channel:
        """A channel made while the bot is connected: Discord tells it with CHANNEL_CREATE."""
        channel = self.world.add_channel(guild, name)
        await self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(channel, self.world))
        return channel

    def add_member(self, guild: Guild, name: str) -> User:
        user = self.world.add_user(name)
        guild.members.append(user.id)
        return user

    def channel_messages(self, channel: Channel, *, ephemeral: bool = False, deleted: bool = False) -> list[Message]:
        """The channel as a player sees it, oldest first (no one else's private answers, nothing deleted)."""
        return self.world.in_channel(channel.id, ephemeral=ephemeral, deleted=deleted)

    def dms(self, user: User) -> list[Message]:
        """The private messages the bot sent ``user``."""
        channel = next((c for c in self.world.channels.values() if c.type == 1 and c.recipient_id == user.id), None)
        return [] if channel is None else self.world.in_channel(channel.id)

    def requests_to(self, method: str, route: str, status: int | None = None) -> list[Request]:
        """The requests the bot made to ``route`` (``/channels/{channel_id}/messages``), by status if given."""
        wanted = f"{method} {route}"
        return [r for r in self.requests if r.route == wanted and (status is None or r.status == status)]

    # -- players ----------------------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        name: str,
        *,
        wait: str = "answer",
        late: float = 0.0,
        twice: bool = False,
        timeout: float = 30.0,
        **options: Any,
    ) -> Exchange:
        """``user`` types ``/name`` (``"race new"``) with ``options`` in ``channel``. ``wait``: "answer" (until
        they see an answer), "ack" (until the bot acknowledged it), "none"; or until it failed for them
        (``exchange.failed``: acknowledged too late). ``late``: delivered this many
        seconds after Discord received it (past 3 s its callback answers 10062); ``twice``: delivered twice."""
        data = command_data(self, name, options)
        interaction = new_interaction(self, 2, user, channel, data, late, None)
        return await self._deliver(interaction, None, wait, twice, timeout, f"an answer to /{name}")

    async def autocomplete(
        self, user: User, channel: Channel, name: str, option: str, typed: str, **others: Any
    ) -> list[JSON]:
        """The choices the bot offers while ``user`` types ``typed`` in ``option`` of ``/name``."""
        data = command_data(self, name, {**others, option: typed}, focused=option)
        interaction = new_interaction(self, 4, user, channel, data, 0.0, None)
        exchange = await self._deliver(interaction, None, "answer", False, 30.0, f"autocomplete of /{name} {option}")
        return exchange.choices

    async def click(
        self,
        user: User,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        wait: str = "answer",
        late: float = 0.0,
        twice: bool = False,
        timeout: float = 30.0,
    ) -> Exchange:
        """``user`` clicks the button of ``message`` with ``label`` (or ``custom_id``)."""
        button = find_button(message, label, custom_id)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        channel = self.world.channels[message.channel_id]
        interaction = new_interaction(self, 3, user, channel, data, late, message)
        return await self._deliver(
            interaction, message, wait, twice, timeout, f"an answer to a click on {label or custom_id}"
        )

    async def select(
        self,
        user: User,
        message: Message,
        values: list[str],
        *,
        custom_id: str | None = None,
        wait: str = "answer",
        late: float = 0.0,
        twice: bool = False,
        timeout: float = 30.0,
    ) -> Exchange:
        """``user`` picks ``values`` in the menu of ``message`` (the one with ``custom_id``, else the first)."""
        menu = find_select(message, custom_id)
        data = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values}
        channel = self.world.channels[message.channel_id]
        interaction = new_interaction(self, 3, user, channel, data, late, message)
        return await self._deliver(
            interaction, message, wait, twice, timeout, f"an answer to a choice in {menu['custom_id']}"
        )

    async def _deliver(
        self, interaction: Interaction, message: Message | None, wait: str, twice: bool, timeout: float, what: str
    ) -> Exchange:
        payload = interaction_payload(self, interaction, message)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        if twice:
            await self.gateway.dispatch("INTERACTION_CREATE", payload)
        exchange = Exchange(self, interaction)
        if wait == "answer":
            await self.wait_for(lambda: exchange.answered or exchange.failed, timeout=timeout, what=what)
        elif wait == "ack":
            await self.wait_for(lambda: exchange.acknowledged or exchange.failed, timeout=timeout, what=f"{what} (ack)")
        return exchange

    # -- moderators and Discord ------------------------------------------------------------------------

    async def delete_message(self, message: Message) -> None:
        """A moderator deletes ``message``."""
        message.deleted = True
        channel = self.world.channels[message.channel_id]
        data: JSON = {"id": str(message.id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.gateway.dispatch("MESSAGE_DELETE", data)

    async def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes ``channel``."""
        channel.deleted = True
        await self.gateway.dispatch("CHANNEL_DELETE", payloads.channel(channel, self.world))

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from ``guild``."""
        guild.bot_member = False
        await self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def add_bot_back(self, guild: Guild) -> None:
        """The bot is invited to ``guild`` again: a GUILD_CREATE without ``unavailable`` (a join, not a server
        coming back from an outage)."""
        guild.bot_member = True
        joined = payloads.guild(guild, self.world)
        del joined["unavailable"]
        await self.gateway.dispatch("GUILD_CREATE", joined)

    async def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves ``guild``; the bot hears of it only if it asked for the GUILD_MEMBERS intent."""
        if user.id in guild.members:
            guild.members.remove(user.id)
        if self.gateway.intents & GUILD_MEMBERS:
            await self.gateway.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": payloads.user(user)})

    def kill_token(self, exchange: Exchange) -> None:
        """The interaction's token dies after its acknowledgement: its webhooks answer 401 50027."""
        exchange.interaction.token_dead = True

    # -- REST faults ------------------------------------------------------------------------------------

    def fail(
        self, method: str, route: str, status: int, code: int = 0, *, times: int | None = 1, **kwargs: Any
    ) -> Fault:
        """The next ``times`` requests to ``route`` (``/channels/{channel_id}/messages``; None: all until cleared)
        answer ``status`` with Discord's JSON ``code``. ``where={"channel_id": ...}``, ``when=`` narrow it."""
        return self.faults.add(Fault(method, route, status, code, times, **kwargs))

    def rate_limit(
        self,
        method: str,
        route: str,
        *,
        retry_after: float = 0.3,
        is_global: bool = False,
        times: int | None = 1,
        **kwargs: Any,
    ) -> Fault:
        """429s with ``retry_after`` and the X-RateLimit headers (``is_global``: the global limit)."""
        return self.faults.add(
            Fault(method, route, 429, 0, times, retry_after=retry_after, is_global=is_global, **kwargs)
        )

    def store_then_fail(
        self, method: str, route: str, status: int = 502, *, times: int | None = 1, **kwargs: Any
    ) -> Fault:
        """Do what was asked (the message is stored and shown) and still answer ``status``: a client that sends
        again makes a duplicate, unless its request carries a ``nonce`` with ``enforce_nonce``."""
        return self.faults.add(Fault(method, route, status, 0, times, after_store=True, **kwargs))

    def slow(self, method: str, route: str, seconds: float, *, times: int | None = 1, **kwargs: Any) -> Fault:
        """Answer after ``seconds`` (normally, unless ``status=`` says otherwise)."""
        return self.faults.add(Fault(method, route, kwargs.pop("status", 0), 0, times, delay=seconds, **kwargs))

    def clear_faults(self) -> None:
        self.faults.clear()
