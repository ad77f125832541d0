"""The loopback Discord's REST API under ``/api/v10``: the routes discord.py calls for the bot, each
answered from (and into) the ``World``; scripted faults first; every request counted; an unknown
route answered 404 and logged loudly (``LoopbackDiscord.unknown_routes``)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web

from tests.support.loopback_discord import payloads
from tests.support.loopback_discord.faults import Request, error_response
from tests.support.loopback_discord.world import EPHEMERAL, JSON, LOADING, Attachment, Interaction, Message

if TYPE_CHECKING:
    from tests.support.loopback_discord.server import LoopbackDiscord

log = logging.getLogger("loopback_discord")
NONCE_WINDOW = 300.0  # Discord: the same nonce within a few minutes returns the first message
INTERACTION_WINDOW = 3.0  # seconds to acknowledge an interaction
TOKEN_LIFETIME = 15 * 60.0


@dataclass
class Body:
    payload: JSON | None
    files: list[tuple[str, bytes, str]]


Handler = Callable[[Request, Body], Awaitable[web.Response]]


def json_response(data: object, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only when the content type is exactly application/json (no charset)
    return web.Response(status=status, body=json.dumps(data).encode(), content_type="application/json")


def not_found(code: int) -> web.Response:
    from tests.support.loopback_discord.faults import MESSAGES

    return error_response(404, {"message": MESSAGES[code], "code": code})


def refused(status: int, code: int) -> web.Response:
    from tests.support.loopback_discord.faults import MESSAGES

    return error_response(status, {"message": MESSAGES[code], "code": code})


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")


class Rest:
    def __init__(self, fake: LoopbackDiscord) -> None:
        self.fake = fake
        self.world = fake.world
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.me),
            ("GET", "/oauth2/applications/@me", self.application),
            ("GET", "/gateway/bot", self.gateway_bot),
            ("GET", "/gateway", self.gateway_plain),
            ("PUT", "/applications/{app}/commands", self.sync_commands),
            ("PUT", "/applications/{app}/guilds/{guild_id}/commands", self.sync_commands),
            ("GET", "/applications/{app}/commands", self.list_commands),
            ("GET", "/applications/{app}/guilds/{guild_id}/commands", self.list_commands),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages", self.history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            ("POST", "/guilds/{guild_id}/channels", self.create_guild_channel),
            ("POST", "/users/@me/channels", self.open_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app}/{token}", self.followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message_id}", self.delete_webhook_message),
        ]
        self.routes = [(method, template, _pattern(template), handler) for method, template, handler in routes]

    # -- the dispatcher: match, count, fault, answer --------------------------------------------------

    async def handle(self, http: web.Request) -> web.Response:
        path = "/" + http.match_info["tail"]
        found = next(((t, m, h) for meth, t, p, h in self.routes if meth == http.method and (m := p.match(path))), None)
        body = await _read_body(http)
        if found is None:
            request = Request(http.method, f"{http.method} ?{path}", path, {}, body.payload)
            self.fake.unknown_routes.append(f"{http.method} {path}")
            log.error("loopback Discord: UNKNOWN ROUTE %s %s (body %s)", http.method, path, body.payload)
            return self._answered(request, error_response(404, {"message": "404: Not Found", "code": 0}))
        template, match, handler = found
        params = {k: v for k, v in match.groupdict().items()}
        request = Request(
            http.method, f"{http.method} {template}", path, params, body.payload, [f[0] for f in body.files]
        )
        request.params.update({f"query:{k}": v for k, v in http.query.items()})
        fault = self.fake.faults.take(request)
        if fault is not None:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.after_store:
                await handler(request, body)
            if fault.status:
                log.info("loopback Discord: fault %s %s -> %s %s", http.method, path, fault.status, fault.code)
                return self._answered(request, fault.response())
        try:
            response = await handler(request, body)
        except KeyError as exc:
            log.exception("loopback Discord: %s %s failed", http.method, path)
            response = error_response(400, {"message": f"loopback: missing {exc}", "code": 50035})
        return self._answered(request, response)

    def _answered(self, request: Request, response: web.Response) -> web.Response:
        request.status = response.status
        self.fake.requests.append(request)
        self.fake.counts[(request.route, response.status)] += 1
        self.fake.changed()
        return response

    # -- login, gateway, commands ---------------------------------------------------------------------

    async def me(self, request: Request, body: Body) -> web.Response:
        return json_response(payloads.user(self.world.bot))

    async def application(self, request: Request, body: Body) -> web.Response:
        bot = payloads.user(self.world.bot)
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": bot,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": bot,
            }
        )

    async def gateway_bot(self, request: Request, body: Body) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.fake.gateway_url, "shards": 1, "session_start_limit": limit})

    async def gateway_plain(self, request: Request, body: Body) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def sync_commands(self, request: Request, body: Body) -> web.Response:
        sent = body.payload if isinstance(body.payload, list) else []
        stored = []
        for command in sent:
            given = {**command, "id": str(self.world.ids.next()), "application_id": str(self.world.application_id)}
            given["version"] = "1"
            if "guild_id" in request.params:
                given["guild_id"] = request.params["guild_id"]
            self.world.commands[command["name"]] = given
            stored.append(given)
        self.fake.synced.set()
        return json_response(stored)

    async def list_commands(self, request: Request, body: Body) -> web.Response:
        return json_response(list(self.world.commands.values()))

    # -- channels and messages ------------------------------------------------------------------------

    def _channel_refusal(self, channel_id: str) -> web.Response | None:
        channel = self.world.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            return not_found(10003)
        guild = self.world.guilds.get(channel.guild_id or 0)
        if guild is not None and not guild.bot_member:
            return refused(403, 50001)
        return None

    async def create_message(self, request: Request, body: Body) -> web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        channel_id = int(request.params["channel_id"])
        payload = body.payload or {}
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            seen = self.world.nonces.get((channel_id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW:
                return json_response(self._json(self.world.messages[seen[0]]))
        message = Message(self.world.ids.next(), channel_id, self.world.bot.id)
        self._fill(message, payload, body.files)
        message.nonce = str(nonce) if nonce is not None else None
        self.world.messages[message.id] = message
        if nonce is not None and payload.get("enforce_nonce"):
            self.world.nonces[(channel_id, str(nonce))] = (message.id, time.monotonic())
        return json_response(self._json(message))

    async def history(self, request: Request, body: Body) -> web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        shown = self.world.in_channel(int(request.params["channel_id"]))
        return json_response([self._json(m) for m in reversed(shown[-50:])])

    def _message(self, request: Request) -> Message | web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        message = self.world.messages.get(int(request.params["message_id"]))
        if message is None or message.deleted or message.channel_id != int(request.params["channel_id"]):
            return not_found(10008)
        return message

    async def get_message(self, request: Request, body: Body) -> web.Response:
        found = self._message(request)
        return found if isinstance(found, web.Response) else json_response(self._json(found))

    async def edit_message(self, request: Request, body: Body) -> web.Response:
        found = self._message(request)
        if isinstance(found, web.Response):
            return found
        if found.author_id != self.world.bot.id:
            return refused(403, 50005)
        self._edit(found, body)
        return json_response(self._json(found))

    async def delete_message(self, request: Request, body: Body) -> web.Response:
        found = self._message(request)
        if isinstance(found, web.Response):
            return found
        found.deleted = True
        return web.Response(status=204)

    async def get_channel(self, request: Request, body: Body) -> web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        return json_response(payloads.channel(self.world.channels[int(request.params["channel_id"])], self.world))

    async def create_thread(self, request: Request, body: Body) -> web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        parent = self.world.channels[int(request.params["channel_id"])]
        guild = self.world.guilds[parent.guild_id or 0]
        payload = body.payload or {}
        thread = self.world.add_channel(guild, str(payload.get("name", "thread")), type=int(payload.get("type", 11)))
        thread.parent_id = parent.id
        thread.thread_members.append(self.world.bot.id)
        data = payloads.channel(thread, self.world)
        await self.fake.gateway.dispatch_soon("THREAD_CREATE", {**data, "newly_created": True})
        return json_response(data)

    async def add_thread_member(self, request: Request, body: Body) -> web.Response:
        if (refusal := self._channel_refusal(request.params["channel_id"])) is not None:
            return refusal
        self.world.channels[int(request.params["channel_id"])].thread_members.append(int(request.params["user_id"]))
        return web.Response(status=204)

    async def create_guild_channel(self, request: Request, body: Body) -> web.Response:
        guild = self.world.guilds.get(int(request.params["guild_id"]))
        if guild is None or not guild.bot_member:
            return refused(403, 50001)
        payload = body.payload or {}
        parent = payload.get("parent_id")
        made = self.world.add_channel(
            guild,
            str(payload.get("name", "channel")),
            type=int(payload.get("type", 0)),
            parent_id=int(parent) if parent else None,
        )
        data = payloads.channel(made, self.world)
        await self.fake.gateway.dispatch_soon("CHANNEL_CREATE", data)
        return json_response(data)

    async def open_dm(self, request: Request, body: Body) -> web.Response:
        recipient = int((body.payload or {})["recipient_id"])
        if recipient not in self.world.users:
            return error_response(400, {"message": "Invalid Recipient(s)", "code": 50033})
        return json_response(payloads.channel(self.world.dm_channel(recipient), self.world))

    async def get_user(self, request: Request, body: Body) -> web.Response:
        found = self.world.users.get(int(request.params["user_id"]))
        return not_found(10013) if found is None else json_response(payloads.user(found))

    # -- interactions ---------------------------------------------------------------------------------

    async def callback(self, request: Request, body: Body) -> web.Response:
        interaction = self.world.interactions.get(int(request.params["interaction_id"]))
        if interaction is None or interaction.token != request.params["token"]:
            return not_found(10062)
        if interaction.callbacks:
            interaction.refused += 1
            return error_response(400, {"message": "Interaction has already been acknowledged.", "code": 40060})
        if time.monotonic() - interaction.created > INTERACTION_WINDOW:
            interaction.refused += 1
            return not_found(10062)
        payload = body.payload or {}
        kind = int(payload.get("type", 0))
        data = payload.get("data") or {}
        interaction.callbacks += 1
        interaction.callback_type = kind
        resource: JSON | None = None
        flags = int(data.get("flags", 0) or 0)
        if kind == 4:  # a message in answer
            message = Message(self.world.ids.next(), interaction.channel_id, self.world.bot.id)
            message.interaction_id = interaction.id
            self._fill(message, data, body.files)
            message.flags = flags & EPHEMERAL
            self.world.messages[message.id] = message
            interaction.original_id = message.id
            interaction.answered_at = time.monotonic()
            resource = self._json(message)
        elif kind == 5:  # "thinking…": a message filled in later
            message = Message(self.world.ids.next(), interaction.channel_id, self.world.bot.id)
            message.interaction_id = interaction.id
            message.flags = (flags & EPHEMERAL) | LOADING
            self.world.messages[message.id] = message
            interaction.original_id = message.id
            resource = self._json(message)
        elif kind in (6, 7):  # (deferred) update of the clicked message
            interaction.original_id = interaction.message_id
            clicked = self.world.messages.get(interaction.message_id or 0)
            if kind == 7 and clicked is not None:
                self._edit(clicked, Body(data, body.files))
                interaction.answered_at = time.monotonic()
            if clicked is not None:
                resource = self._json(clicked)
        elif kind == 8:  # autocomplete choices
            interaction.choices = list(data.get("choices", []))
            interaction.answered_at = time.monotonic()
        elif kind == 9:  # a modal
            interaction.answered_at = time.monotonic()
        answer: JSON = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(interaction.original_id) if interaction.original_id else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            }
        }
        if resource is not None:
            answer["resource"] = {"type": kind, "message": resource}
        return json_response(answer)

    def _by_token(self, request: Request) -> Interaction | web.Response:
        interaction = self.world.interactions.get(self.world.by_token.get(request.params["token"], 0))
        if interaction is None or interaction.callbacks == 0:
            return not_found(10015)
        if interaction.token_dead:
            return refused(401, 50027)
        if time.monotonic() - interaction.created > TOKEN_LIFETIME:
            return not_found(10015)
        return interaction

    async def followup(self, request: Request, body: Body) -> web.Response:
        interaction = self._by_token(request)
        if isinstance(interaction, web.Response):
            return interaction
        payload = body.payload or {}
        original = self.world.messages.get(interaction.original_id or 0)
        interaction.answered_at = interaction.answered_at or time.monotonic()
        if original is not None and original.loading and original.interaction_id == interaction.id:
            # the first followup after "thinking…" fills that message in (Discord's own behaviour)
            self._edit(original, Body(payload, body.files))
            original.flags &= ~LOADING
            interaction.followup_ids.append(original.id)
            return json_response(self._json(original))
        message = Message(self.world.ids.next(), interaction.channel_id, self.world.bot.id)
        message.interaction_id = interaction.id
        self._fill(message, payload, body.files)
        message.flags = int(payload.get("flags", 0) or 0) & EPHEMERAL
        self.world.messages[message.id] = message
        interaction.followup_ids.append(message.id)
        return json_response(self._json(message))

    def _webhook_message(self, request: Request) -> tuple[Interaction, Message] | web.Response:
        interaction = self._by_token(request)
        if isinstance(interaction, web.Response):
            return interaction
        wanted = request.params["message_id"]
        message_id = interaction.original_id if wanted == "@original" else int(wanted)
        message = self.world.messages.get(message_id or 0)
        if message is None or message.deleted:
            return not_found(10008)
        return interaction, message

    async def get_webhook_message(self, request: Request, body: Body) -> web.Response:
        found = self._webhook_message(request)
        return found if isinstance(found, web.Response) else json_response(self._json(found[1]))

    async def edit_webhook_message(self, request: Request, body: Body) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        interaction, message = found
        self._edit(message, body)
        message.flags &= ~LOADING
        interaction.answered_at = interaction.answered_at or time.monotonic()
        return json_response(self._json(message))

    async def delete_webhook_message(self, request: Request, body: Body) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        found[1].deleted = True
        return web.Response(status=204)

    # -- message bodies -------------------------------------------------------------------------------

    def _json(self, message: Message) -> JSON:
        return payloads.message(message, self.world, self.fake.port)

    def _fill(self, message: Message, payload: JSON, files: list[tuple[str, bytes, str]]) -> None:
        message.content = str(payload.get("content") or "")
        message.components = list(payload.get("components") or [])
        message.embeds = list(payload.get("embeds") or [])
        message.flags = int(payload.get("flags", 0) or 0)
        message.attachments = self._uploaded(payload, files)

    def _edit(self, message: Message, body: Body) -> None:
        payload = body.payload or {}
        message.history.append((message.content, message.components))
        if "content" in payload:
            message.content = str(payload.get("content") or "")
        if "components" in payload:
            message.components = list(payload.get("components") or [])
        if "embeds" in payload:
            message.embeds = list(payload.get("embeds") or [])
        if "attachments" in payload:
            kept = {str(a.get("id")) for a in payload.get("attachments") or []}
            message.attachments = [a for a in message.attachments if str(a.id) in kept]
        message.attachments += self._uploaded(payload, body.files)

    def _uploaded(self, payload: JSON, files: list[tuple[str, bytes, str]]) -> list[Attachment]:
        """The files of a request, each with the description its ``attachments`` entry gives (``files[n]``
        is the entry whose id is n)."""
        described = {str(a.get("id")): a.get("description") for a in payload.get("attachments") or []}
        return [
            Attachment(self.world.ids.next(), name, data, kind, described.get(str(n)))
            for n, (name, data, kind) in enumerate(files)
        ]


async def _read_body(http: web.Request) -> Body:
    if http.content_type.startswith("multipart/"):
        payload: JSON | None = None
        files: list[tuple[str, bytes, str]] = []
        form = await http.post()
        for name, value in form.items():
            if isinstance(value, web.FileField) and name != "payload_json":
                files.append((value.filename, value.file.read(), value.content_type))
            elif name == "payload_json":
                payload = json.loads(value.file.read() if isinstance(value, web.FileField) else value)
        return Body(payload, files)
    raw = await http.read()
    if not raw:
        return Body(None, [])
    try:
        return Body(json.loads(raw), [])
    except ValueError:
        return Body(None, [])
