"""What every response of the web pages goes through: GET only, bounded requests, a rate limit per
address, strict headers, and errors as plain pages (never a traceback)."""

from __future__ import annotations

import gzip
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Middleware
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

from bot.web.language import language_of, picked
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
    "Server": "Domestique",  # never the versions of Python and aiohttp
}
COMPRESSED = ("text/", "application/json", "image/svg+xml")  # the kinds worth compressing (PNG and GIF are)
SAME_IN_EVERY_LANGUAGE = ("/static/", "/favicon.ico")
REASONS = {
    400: N_("That request could not be read."),
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
    response.headers["Cache-Control"] = "no-store"
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
            return finish(request, await _checked(request, handler))

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
        return served

    return middleware


def _vary(response: web.StreamResponse, header: str) -> None:
    said = [x.strip() for x in response.headers.get("Vary", "").split(",") if x.strip()]
    if header not in said:
        response.headers["Vary"] = ", ".join([*said, header])


_GZIPPED: OrderedDict[str, bytes] = OrderedDict()  # compressed bodies by their ETag: each compressed once


def _gzipped(tag: str, body: bytes) -> bytes:
    made = _GZIPPED.get(tag)
    if made is None:
        made = _GZIPPED[tag] = gzip.compress(body, compresslevel=6, mtime=0)
        while len(_GZIPPED) > 512:
            _GZIPPED.popitem(last=False)
    return made


def finish(request: web.Request, served: web.StreamResponse) -> web.StreamResponse:
    """Every answer's last touches: the strict headers; ``Vary: Accept-Language`` where the language
    came from the browser's header rather than the address; an ETag (and ``304`` when the browser
    has the same); the body compressed when the browser accepts gzip."""
    served.headers.update(HEADERS)
    if not request.path.startswith(SAME_IN_EVERY_LANGUAGE) and not picked(request):
        _vary(served, "Accept-Language")
    if not isinstance(served, web.Response) or not isinstance(served.body, bytes) or served.status != 200:
        return served
    body = served.body
    tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    kind = served.content_type or ""
    compressible = kind.startswith(COMPRESSED) and len(body) > 256
    if compressible:
        _vary(served, "Accept-Encoding")
    gz = compressible and "gzip" in request.headers.get("Accept-Encoding", "").lower()
    sent_tag = tag[:-1] + '-gz"' if gz else tag
    served.headers["ETag"] = sent_tag
    asked = {x.strip().removeprefix("W/") for x in request.headers.get("If-None-Match", "").split(",")}
    if sent_tag in asked or "*" in asked:
        unchanged = web.Response(status=304)
        for name in ("ETag", "Cache-Control", "Vary", *HEADERS):
            if name in served.headers:
                unchanged.headers[name] = served.headers[name]
        return unchanged
    if gz:
        served.body = _gzipped(tag, body)
        served.headers["Content-Encoding"] = "gzip"
    return served


class _QuietHandler(RequestHandler):
    """aiohttp's connection handler, but a request it cannot read (a request line over 1 kB, a header
    over 4 kB) gets the pages' own short 400 with their headers: never the start of the request line
    (which carries a page's token) in the answer or in the log."""

    def log_exception(self, *args: Any, **kw: Any) -> None:
        log.info("a request could not be read")

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        response = error_page(400 if status < 500 else 500)
        response.force_close()
        return response


class _QuietServer(Server):
    def __call__(self) -> RequestHandler:
        return _QuietHandler(self, loop=self._loop, **self._kwargs)


class PagesRunner(web.AppRunner):
    """The runner of the pages (``AppRunner`` with the quiet handling of unreadable requests)."""

    async def _make_server(self) -> Server:
        server = await super()._make_server()
        server.__class__ = _QuietServer
        return server
