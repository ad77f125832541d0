"""A local stand-in for Discord on 127.0.0.1: the few REST routes ``domestique run`` calls at start-up and a
gateway websocket that speaks HELLO, IDENTIFY → READY and heartbeats, recording how the client closes."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

BOT_ID = "1100000000000000001"
USER = {"id": BOT_ID, "username": "domestique", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
    "id": BOT_ID,
    "name": "Domestique",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": USER,
    "verify_key": "0" * 64,
    "flags": 0,
}


@dataclass
class Gateway:
    """What the fake saw: the ops the client sent, whether READY went out, the close codes it received."""

    identified: asyncio.Event = field(default_factory=asyncio.Event)
    ops: list[int] = field(default_factory=list)
    close_codes: list[int | None] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    port: int = 0

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"


def _json(data: object) -> web.Response:
    # discord.py reads a body as JSON only when the content type is exactly application/json (no charset)
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


def _app(gateway: Gateway) -> web.Application:
    async def me(_: web.Request) -> web.Response:
        return _json(USER)

    async def application(_: web.Request) -> web.Response:
        return _json(APPLICATION)

    async def commands(request: web.Request) -> web.Response:
        # tree.sync(): Discord answers with the commands it stored, each given an id
        sent: list[dict[str, Any]] = await request.json()
        stored = [{**c, "id": str(2000 + i), "application_id": BOT_ID, "version": "1"} for i, c in enumerate(sent)]
        return _json(stored)

    async def bot_gateway(_: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": gateway.ws, "shards": 1, "session_start_limit": limit})

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoclose=False)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        while True:
            msg = await ws.receive()
            if msg.type is WSMsgType.CLOSE:
                gateway.close_codes.append(msg.data)
                await ws.close(code=msg.data or 1000)
                break
            if msg.type in (WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
                break
            if msg.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            gateway.ops.append(payload["op"])
            if payload["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif payload["op"] == 2:  # identify
                shard = payload["d"].get("shard", [0, 1])
                ready = {
                    "v": 10,
                    "user": USER,
                    "guilds": [],
                    "session_id": "fake-session",
                    "resume_gateway_url": gateway.ws,
                    "shard": shard,
                    "application": {"id": BOT_ID, "flags": 0},
                }
                await ws.send_str(json.dumps({"op": 0, "d": ready, "s": 1, "t": "READY"}))
                gateway.identified.set()
        if not gateway.close_codes:
            gateway.close_codes.append(None)  # the TCP connection ended with no close frame at all
        gateway.closed.set()
        return ws

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    app.router.add_put("/api/v10/applications/{app}/commands", commands)
    app.router.add_put("/api/v10/applications/{app}/guilds/{guild}/commands", commands)
    app.router.add_get("/api/v10/gateway/bot", bot_gateway)
    app.router.add_get("/", socket)
    return app


async def start_gateway() -> tuple[Gateway, web.AppRunner]:
    """Serve the fake on a free port of 127.0.0.1; clean up with ``await runner.cleanup()``."""
    gateway = Gateway()
    runner = web.AppRunner(_app(gateway))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert server is not None and server.sockets
    gateway.port = server.sockets[0].getsockname()[1]
    return gateway, runner
