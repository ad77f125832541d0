"""What every response of the web pages goes through: GET only, bounded requests, a rate limit per
address, strict headers, and errors as plain pages (never a traceback)."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.web.language import language_of
from bot.web.pages import plain_page
from rules.i18n import N_, _, speaking

log = logging.getLogger("domestique.web")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_URL = 512  # characters of path and query: a token and two numbers need far fewer
HEADERS = {
    # scripts, styles and images from this host only, none inline; nothing framed, nothing sent elsewhere
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # a page's link is its key: never handed to the sites it links to
    "Cross-Origin-Resource-Policy": "same-origin",
}
REASONS = {
    404: N_("There is no page here. The link may be mistyped, or its host turned the page off or made a new link."),
    405: N_("Only reading is possible here."),
    414: N_("That address is too long."),
    429: N_("Too many requests from your address: wait a few seconds and try again."),
    500: N_("Something went wrong on our side; nothing was changed."),
}


class RateLimit:
    """A token bucket per address: ``burst`` requests at once, then ``rate`` a second."""

    def __init__(self, rate: float = 15.0, burst: float = 60.0, *, kept: int = 10_000) -> None:
        self.rate, self.burst, self.kept = rate, burst, kept
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        level, then = self._buckets.pop(address, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        allowed = level >= 1.0
        self._buckets[address] = (level - 1.0 if allowed else level, now)
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return allowed


def error_page(status: int) -> web.Response:
    """A plain page for an error, in the language of the moment (the viewer's: ``guard`` sets it)."""
    reason = _(REASONS[status]) if status in REASONS else ""
    response = web.Response(status=status, text=plain_page(status, reason), content_type="text/html")
    response.headers.update(HEADERS)
    return response


def address_of(request: web.Request, *, behind_proxy: bool) -> str:
    """The viewer's address: the last one a trusted reverse proxy added, else the connection's."""
    if behind_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        if forwarded:
            return forwarded.rsplit(",", 1)[-1].strip()
    return request.remote or "?"


def guard(limit: RateLimit | None, *, behind_proxy: bool = False) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        with speaking(language_of(request)):  # the page, its board and its errors in the viewer's language
            return await _checked(request, handler)

    async def _checked(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            response = error_page(405)
            response.headers["Allow"] = "GET, HEAD"
            return response
        if len(request.raw_path) > MAX_URL or request.content_length:
            return error_page(414 if len(request.raw_path) > MAX_URL else 405)
        if limit is not None and not limit.allow(address_of(request, behind_proxy=behind_proxy)):
            response = error_page(429)
            response.headers["Retry-After"] = "5"
            return response
        try:
            served = await handler(request)
        except web.HTTPException as exc:
            return error_page(exc.status if exc.status in REASONS else 404)
        except Exception:
            log.exception("web page %s failed", request.path.split("/")[1:2])
            return error_page(500)
        served.headers.update(HEADERS)
        return served

    return middleware
