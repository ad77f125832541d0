"""``domestique run``: the bot, with its token from the environment (never logged)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.discord_layer.app import DomestiqueBot
    from bot.web.process import WebProcess

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, copy its token "
    "into DISCORD_TOKEN, and invite it with the applications.commands and bot scopes. "
    "To see Domestique without a token, run: domestique demo"
)
BAD_TOKEN = "Discord refused the token in DISCORD_TOKEN: copy the bot's token again from the developer portal"

log = logging.getLogger("domestique")


class Failed(Exception):
    """A start-up failure, told to the operator in one line."""


async def serve(bot: DomestiqueBot, token: str, web: tuple[str, int] | None = None, database: str = "") -> None:
    """Run until Discord drops us for good or SIGTERM/SIGINT asks us to stop; then close cleanly.
    With ``web`` (DOMESTIQUE_WEB) the races' and leagues' pages are served there too, by a process
    of their own reading ``database`` (docs/web.md)."""
    import aiohttp
    import discord

    from bot.storage import NewerSchema

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    try:
        async with contextlib.AsyncExitStack() as stack, bot:
            try:
                await bot.storage.open()  # the database first: a bad one fails before any network
            except NewerSchema as exc:
                raise Failed(str(exc)) from None
            except Exception as exc:  # an unreachable server, a refused login, an unwritable file
                where = getattr(bot.storage, "path", "")  # a PostgreSQL URL is shown without its password
                detail = f"{type(exc).__name__}: {_clean(exc, token)}"
                raise Failed(f"cannot open the database {where} ({detail})") from None
            if web is not None:
                pages = await _serve_pages(bot, web, database)
                stack.push_async_callback(pages.stop)
            log.info("connecting to Discord")
            running = asyncio.create_task(bot.start(token))
            stop = asyncio.create_task(stopping.wait())
            await asyncio.wait({running, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not running.done():
                log.info("stop signal: closing")
                await bot.close()  # gateway, timer task and database; decisions are already committed
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await running
                return
            stop.cancel()
            try:
                running.result()
            except discord.LoginFailure:
                raise Failed(BAD_TOKEN) from None
            except discord.PrivilegedIntentsRequired as exc:
                raise Failed(f"Discord refused the gateway connection: {exc}") from None
            except (aiohttp.ClientError, OSError, discord.GatewayNotFound, discord.HTTPException) as exc:
                raise Failed(f"cannot reach Discord ({type(exc).__name__}: {_clean(exc, token)})") from None
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


async def _serve_pages(bot: DomestiqueBot, address: tuple[str, int], database: str) -> WebProcess:
    """The web pages on ``address``, served by a process of their own (the bot's posts link to them:
    ``make_bot(web_url=)``)."""
    from bot.web.process import WebProcess, WebProcessFailed
    from bot.web.server import public_url, settings_for

    pages = WebProcess(settings_for(database), address)
    try:
        await pages.start()
    except OSError as exc:
        raise Failed(f"cannot serve the web pages on {address[0]}:{address[1]} ({exc.strerror or exc})") from None
    except WebProcessFailed as exc:
        raise Failed(f"cannot serve the web pages: {' '.join(str(exc).split())}") from None
    log.info("web pages on %s:%s (process %s), linked as %s", address[0], address[1], pages.pid, public_url(address))
    return pages


def _clean(exc: BaseException, token: str) -> str:
    return " ".join(str(exc).replace(token, "<token>").split()) or "no detail"


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 1
    from bot.discord_layer.app import make_bot
    from bot.service.collector import pace_collector
    from bot.service.drawing import PoolDrawing
    from bot.shards import BadShards, Shards
    from bot.storage.url import BadDatabaseUrl, check_url, configured_url
    from bot.web.server import BadAddress, configured

    db = configured_url()  # DATABASE_URL (PostgreSQL), else the SQLite file DOMESTIQUE_DB
    guild = os.environ.get("DOMESTIQUE_DEV_GUILD", "").strip()
    wanted = os.environ.get("DOMESTIQUE_SHARDS", "").strip()
    try:
        check_url(db)  # a malformed URL, an unknown kind or no file at all fails here, in one line
        shards = Shards.parse(wanted) if wanted else None
        web = configured()  # DOMESTIQUE_WEB=host:port: the races' pages (off when unset)
    except (BadShards, BadDatabaseUrl, BadAddress) as exc:
        print(f"domestique run: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if shards is not None:
        log.info("this process runs %s", shards)
    pace_collector()  # a long-running process: the collector runs less often (bot/service/collector.py)
    drawing = PoolDrawing()  # boards drawn in worker processes, off the event loop
    drawing.start()
    from bot.web.server import public_url

    web_url = public_url(web) if web is not None else None  # the pages' links in the bot's posts
    dev_guild = int(guild) if guild.isdigit() else None
    bot = make_bot(db, shards=shards, dev_guild=dev_guild, drawing=drawing, web_url=web_url, report_health=True)
    try:
        asyncio.run(serve(bot, token, web, db))
    except Failed as exc:
        print(f"domestique run: {exc}", file=sys.stderr)
        return 1
    return 0
