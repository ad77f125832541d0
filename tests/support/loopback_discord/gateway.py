"""The loopback Discord's gateway: one websocket at a time speaking Discord's protocol as plain JSON text
frames (discord.py reads text frames even when it asked for zlib-stream): HELLO, IDENTIFY → READY and a
GUILD_CREATE per server, heartbeats, RESUME → the missed events and RESUMED (or op 9 for a dead session),
dispatches with sequence numbers; and the faults a test asks for: a close with a code, op 7, op 9, a
dropped connection."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from tests.support.loopback_discord import payloads
from tests.support.loopback_discord.world import JSON

if TYPE_CHECKING:
    from tests.support.loopback_discord.server import LoopbackDiscord

log = logging.getLogger("loopback_discord")
HEARTBEAT_MS = 41250


@dataclass
class Session:
    id: str
    seq: int = 0
    events: list[JSON] = field(default_factory=list)  # every dispatch, for a RESUME's replay
    valid: bool = True


@dataclass
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    session: Session | None = None
    live: bool = False  # identified or resumed: dispatches may go out
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Gateway:
    def __init__(self, fake: LoopbackDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.current: Connection | None = None
        self.connections = 0
        self.identifies = 0
        self.resumes = 0  # RESUMEs answered with RESUMED
        self.refused_resumes = 0  # RESUMEs answered with op 9
        self.client_close_codes: list[int | None] = []  # how the client closed each connection it closed
        self.ops: list[int] = []  # every op the client sent
        self.intents = 0  # what the last IDENTIFY asked for
        self._session_ids = itertools.count(1)
        self._background: set[asyncio.Task[None]] = set()

    @property
    def live(self) -> bool:
        return self.current is not None and self.current.live

    # -- the socket ---------------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoclose=False, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request)
        self.current = connection
        self.connections += 1
        await self._send(connection, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None, "t": None})
        try:
            while True:
                msg = await ws.receive()
                if msg.type is WSMsgType.CLOSE:
                    self.client_close_codes.append(msg.data)
                    if not ws.closed:
                        await ws.close(code=msg.data or 1000)
                    break
                if msg.type in (WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
                    break
                if msg.type is WSMsgType.TEXT:
                    await self._received(connection, json.loads(msg.data))
        finally:
            connection.live = False
            if self.current is connection:
                self.current = None
            self.fake.changed()
        return ws

    async def _received(self, connection: Connection, payload: JSON) -> None:
        op = payload.get("op")
        self.ops.append(int(op or 0))
        if op == 1:
            await self._send(connection, {"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            self.intents = int(payload["d"].get("intents", 0))
            await self._identify(connection)
        elif op == 6:
            await self._resume(connection, payload["d"])
        self.fake.changed()

    async def _identify(self, connection: Connection) -> None:
        session = Session(f"loopback-session-{next(self._session_ids)}")
        self.sessions[session.id] = session
        connection.session = session
        self.identifies += 1
        world = self.fake.world
        present = [g for g in world.guilds.values() if g.bot_member]
        ready = {
            "v": 10,
            "user": payloads.user(world.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in present],
            "session_id": session.id,
            "resume_gateway_url": self.fake.gateway_url,
            "shard": [0, 1],
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self._dispatch_on(connection, "READY", ready)
        for guild in present:
            await self._dispatch_on(connection, "GUILD_CREATE", payloads.guild(guild, world))
        connection.live = True

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.valid:
            self.refused_resumes += 1
            await self._send(connection, {"op": 9, "d": False, "s": None, "t": None})
            return
        connection.session = session
        since = int(data.get("seq") or 0)
        async with connection.lock:
            for event in session.events:
                if int(event["s"]) > since:
                    await connection.ws.send_str(json.dumps(event))
        await self._dispatch_on(connection, "RESUMED", {})
        self.resumes += 1
        connection.live = True

    async def _send(self, connection: Connection, payload: JSON) -> None:
        async with connection.lock:
            if not connection.ws.closed:
                await connection.ws.send_str(json.dumps(payload))

    async def _dispatch_on(self, connection: Connection, event: str, data: JSON) -> int:
        session = connection.session
        assert session is not None
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        if event not in ("READY", "RESUMED"):
            session.events.append(payload)
        await self._send(connection, payload)
        return session.seq

    # -- what a test does ---------------------------------------------------------------------------

    async def dispatch(self, event: str, data: JSON, timeout: float = 30.0) -> int:
        """Send an event once the bot is connected (identified or resumed); its sequence number."""
        await self.fake.wait_for(lambda: self.live, timeout=timeout, what=f"a live gateway to send {event}")
        assert self.current is not None
        return await self._dispatch_on(self.current, event, data)

    async def dispatch_soon(self, event: str, data: JSON) -> None:
        """Dispatch without holding up the caller (a REST answer that Discord follows with an event)."""
        task = asyncio.create_task(self.dispatch(event, data))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self, code: int) -> None:
        """Close the connection with ``code`` (4000 unknown error, 1001 going away: resumable; 4009 session
        timed out: the session is over, its RESUME gets op 9)."""
        connection = await self._connected()
        if code in (4009, 4007, 1000) and connection.session is not None:
            connection.session.valid = False
        connection.live = False
        await connection.ws.close(code=code)

    async def reconnect(self) -> None:
        """Op 7: the client should reconnect and resume."""
        await self._send(await self._connected(), {"op": 7, "d": None, "s": None, "t": None})

    async def invalidate(self, resumable: bool = False) -> None:
        """Op 9: the session is invalid (``resumable``: d=true, the client may resume it)."""
        connection = await self._connected()
        if not resumable and connection.session is not None:
            connection.session.valid = False
        connection.live = False
        await self._send(connection, {"op": 9, "d": resumable, "s": None, "t": None})

    async def drop(self) -> None:
        """The TCP connection ends with no close frame at all."""
        connection = await self._connected()
        connection.live = False
        transport = connection.request.transport
        if transport is not None:
            transport.abort()

    async def _connected(self) -> Connection:
        await self.fake.wait_for(lambda: self.live, timeout=30, what="a live gateway connection")
        assert self.current is not None
        return self.current

    async def stop(self) -> None:
        for task in list(self._background):
            task.cancel()
        if self.current is not None and not self.current.ws.closed:
            await self.current.ws.close(code=1001)
