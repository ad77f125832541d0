"""Faults a test scripts into the loopback Discord's REST API: for requests that match a method and a
route (and optionally their parameters or body), answer the next N (or all, until cleared) with an
error Discord really sends, after a delay, or after storing what was asked ("stored but answered 502")."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.support.loopback_discord.world import JSON

# Discord's JSON error codes and the message it sends with each
MESSAGES = {
    0: "",
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50005: "Cannot edit a message authored by another user",
    50013: "Missing Permissions",
    50027: "Invalid Webhook Token",
}
STATUS_TEXT = {500: "500: Internal Server Error", 502: "502: Bad Gateway", 503: "503: Service Unavailable"}


@dataclass
class Request:
    """A request as the fake saw it: ``route`` is the template (``POST /channels/{channel_id}/messages``)."""

    method: str
    route: str
    path: str
    params: dict[str, str]
    payload: JSON | None = None
    files: list[str] = field(default_factory=list)  # uploaded file names
    at: float = field(default_factory=time.monotonic)
    status: int = 0  # filled in when answered


@dataclass
class Fault:
    """Answer matching requests with ``status`` (and Discord's ``code``), ``times`` times (None: until cleared).

    ``after_store``: do what was asked (store the message) and still answer ``status``, as when Discord's
    edge times out after the write. ``delay``: wait this long first (with ``status`` 0: then answer normally).
    ``where``: route parameters that must match (``{"channel_id": "123"}``); ``when``: any other test on the
    request (its JSON body, its files)."""

    method: str
    route: str
    status: int = 0
    code: int = 0
    times: int | None = 1
    retry_after: float = 0.5
    is_global: bool = False
    after_store: bool = False
    delay: float = 0.0
    where: dict[str, str] = field(default_factory=dict)
    when: Callable[[Request], bool] | None = None
    hits: int = 0

    def matches(self, request: Request) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method != "*" and self.method != request.method:
            return False
        if self.route != "*" and self.route != request.route.split(" ", 1)[1]:
            return False
        if any(request.params.get(k) != str(v) for k, v in self.where.items()):
            return False
        return self.when is None or self.when(request)

    @property
    def spent(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def response(self) -> web.Response:
        """The error Discord sends: a JSON body with its code, and for a 429 the rate-limit headers."""
        if self.status == 429:
            body: dict[str, Any] = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
            }
            headers = {
                "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                "X-RateLimit-Bucket": f"loopback-{abs(hash(self.route)) % 10**8}",
                "X-RateLimit-Scope": "global" if self.is_global else "user",
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            return error_response(429, body, headers)
        if self.status >= 500 and not self.code:
            return web.Response(status=self.status, text=STATUS_TEXT.get(self.status, str(self.status)))
        return error_response(self.status, {"message": MESSAGES.get(self.code, "error"), "code": self.code})


def error_response(status: int, body: JSON, headers: dict[str, str] | None = None) -> web.Response:
    import json

    return web.Response(status=status, body=json.dumps(body).encode(), content_type="application/json", headers=headers)


@dataclass
class Faults:
    """The faults a test has scripted, first match wins."""

    active: list[Fault] = field(default_factory=list)

    def add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def clear(self) -> None:
        self.active.clear()

    def take(self, request: Request) -> Fault | None:
        for fault in self.active:
            if fault.matches(request):
                fault.hits += 1
                return fault
        return None
