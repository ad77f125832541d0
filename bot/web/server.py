"""Starting the web pages beside the bot: ``DOMESTIQUE_WEB=host:port`` (off when unset).

``domestique run`` and ``demo --web`` serve them from a process of their own (``process.py``,
``settings_for``); ``start_web`` serves them on the running event loop (that process's, and tests')."""

from __future__ import annotations

import os

from aiohttp import web

from bot.service.drawing import Drawing
from bot.storage import Storage
from bot.web.app import make_app
from bot.web.guard import PagesRunner, RateLimit
from bot.web.process import Settings

DEMO_ADDRESS = "127.0.0.1:8080"


class BadAddress(ValueError):
    """DOMESTIQUE_WEB is not host:port."""


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise BadAddress(f"DOMESTIQUE_WEB={text!r}: expected host:port, e.g. 127.0.0.1:8080")
    return host.strip("[]") or "0.0.0.0", int(port)


def configured() -> tuple[str, int] | None:
    """Where ``domestique run`` serves the pages, or None (the default: no pages)."""
    text = os.environ.get("DOMESTIQUE_WEB", "").strip()
    return parse_address(text) if text else None


def public_url(address: tuple[str, int]) -> str:
    """The pages' address as the links the bot posts spell it (DOMESTIQUE_PUBLIC_URL, else host:port)."""
    given = os.environ.get("DOMESTIQUE_PUBLIC_URL", "").strip().rstrip("/")
    return given or f"http://{address[0]}:{address[1]}"


def behind_proxy() -> bool:
    """``DOMESTIQUE_WEB_PROXY=1``: rate-limit by the address the proxy adds to X-Forwarded-For."""
    return os.environ.get("DOMESTIQUE_WEB_PROXY", "").strip() == "1"


def settings_for(database: str, *, limit: RateLimit | None = None) -> Settings:
    """What the pages' own process is given: the database (URL or SQLite file) and the environment's choices."""
    return Settings(database, behind_proxy=behind_proxy(), limit=limit)


async def start_web(
    storage: Storage, address: tuple[str, int], *, drawing: Drawing | None = None, limit: RateLimit | None = None
) -> web.AppRunner:
    """Serve the pages on ``address`` on the running event loop; ``await runner.cleanup()`` stops them."""
    app = make_app(storage, drawing=drawing, limit=limit, behind_proxy=behind_proxy())
    runner = PagesRunner(app, access_log=None)  # an access log would write every page's token
    await runner.setup()
    site = web.TCPSite(runner, address[0], address[1])
    await site.start()
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the pages listen on (a test asks for port 0: any free one)."""
    for address in runner.addresses:
        if isinstance(address, tuple):
            return int(address[1])
    raise RuntimeError("the web pages are not listening")
