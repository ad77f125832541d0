"""The web pages in a process of their own, beside the bot's (``domestique run``, ``demo --web``).

Every request costs the process that answers it some interpreter time (aiohttp's parsing and
answering, a page or a board made): in the bot's process that time is taken from its event loop,
whose lag two hundred viewers nearly doubled (``docs/web.md``). So the bot binds the pages'
address itself (a busy port fails at start, in one line) and hands the listening socket to a
child process (``spawn``: a fresh interpreter) that opens the same database, reads it only, draws
its own boards and answers every request. It learns of new decisions as the pages always did: by
reading a watched race's version at most once a second.

The child ends with the bot: it waits on a pipe whose other end only the bot holds, so when the
bot ends (cleanly, or killed) the pipe closes and the child closes its pages and exits. If the
child ends on its own (a crash, a kill) while the bot runs, the bot starts another on the same
socket: connections made meanwhile wait in the socket's queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import socket
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bot.web.guard import RateLimit

log = logging.getLogger("domestique.web")

STARTING = 120.0  # seconds a new web process may take to import, open the database and listen
QUICK_CRASH = 30.0  # a web process that ends sooner than this after starting waits longer before the next
MOST_WAIT = 30.0  # the longest wait before starting the web process again


class WebProcessFailed(RuntimeError):
    """The web process could not start (the database would not open, ...): the reason in one line."""


@dataclass(frozen=True)
class Settings:
    """What the web process is given: the database, how to limit and whom to trust (picklable)."""

    database: str  # a URL or an SQLite file's path (``bot/storage/url.py``)
    behind_proxy: bool = False
    limit: RateLimit | None = None  # requests per address (None: the pages' default)


def _bind(address: tuple[str, int]) -> socket.socket:
    """The pages' listening socket, bound here so a busy address fails in the bot, at start."""
    infos = socket.getaddrinfo(address[0], address[1], type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, where = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen(1024)
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class WebProcess:
    """The pages served on ``address`` by a child process that reads ``settings.database``."""

    def __init__(self, settings: Settings, address: tuple[str, int]) -> None:
        self.settings = settings
        self.address = address
        self.restarts = 0
        self._sock: socket.socket | None = None
        self._process: Any = None  # multiprocessing's SpawnProcess
        self._conn: Connection | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        """The port the pages listen on (``address`` may ask for port 0: any free one)."""
        assert self._sock is not None, "the web process is not started"
        return int(self._sock.getsockname()[1])

    @property
    def pid(self) -> int | None:
        """The web process's id (None between a crash and its restart)."""
        process = self._process
        return int(process.pid) if process is not None and process.is_alive() else None

    async def start(self) -> None:
        """Bind the address, start the web process and wait until it listens; then keep it running.
        ``OSError`` if the address cannot be bound, ``WebProcessFailed`` if the process cannot start."""
        self._sock = _bind(self.address)
        try:
            await self._spawn()
        except BaseException:
            await self.stop()
            raise
        self._watch = asyncio.create_task(self._keep_running())

    async def stop(self) -> None:
        """End the web process (it closes its pages) and stop listening."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        await self._end_child()
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    async def _spawn(self) -> None:
        assert self._sock is not None
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=child_main, args=(self.settings, self._sock, theirs), name="domestique-web", daemon=True
        )
        process.start()
        theirs.close()  # the child holds the only other end: it reads EOF when this process ends
        self._process, self._conn = process, ours
        said = await self._first_word(process, ours)
        if said != "ready":
            await self._end_child()
            raise WebProcessFailed(said)

    async def _first_word(self, process: Any, conn: Connection) -> str:
        """What the new web process says first: "ready", or why it could not start."""
        loop = asyncio.get_running_loop()
        heard: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not heard.done():
                heard.set_result(None)

        loop.add_reader(conn.fileno(), wake)
        loop.add_reader(process.sentinel, wake)
        try:
            async with asyncio.timeout(STARTING):
                await heard
        except TimeoutError:
            return f"the web process did not start listening within {STARTING:.0f} s"
        finally:
            loop.remove_reader(conn.fileno())
            loop.remove_reader(process.sentinel)
        try:
            if conn.poll():
                return str(conn.recv())
        except (EOFError, OSError):
            pass
        return f"the web process ended as it started (exit code {process.exitcode})"

    async def _exited(self) -> None:
        """Wait until the current web process ends (without a thread: its sentinel becomes readable)."""
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[None] = loop.create_future()
        sentinel = self._process.sentinel

        def wake() -> None:
            if not ended.done():
                ended.set_result(None)

        loop.add_reader(sentinel, wake)
        try:
            await ended
        finally:
            loop.remove_reader(sentinel)

    async def _keep_running(self) -> None:
        """Start the web process again whenever it ends while the bot runs: at once if it ran a while,
        after a wait that doubles (up to ``MOST_WAIT``) while it keeps ending soon after starting."""
        wait, began = 0.25, time.monotonic()
        while True:
            ended = self._process
            if ended is not None:
                await self._exited()
                await self._end_child()
                code = ended.exitcode
                log.warning("the web pages' process ended (exit code %s): starting another", code)
            wait = min(wait * 2, MOST_WAIT) if time.monotonic() - began < QUICK_CRASH else 0.5
            await asyncio.sleep(wait)
            began = time.monotonic()
            try:
                await self._spawn()
            except (WebProcessFailed, OSError) as exc:
                log.warning("the web pages' process could not start again: %s", exc)
                continue
            self.restarts += 1
            log.info("the web pages are served again")

    def _close_conn(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def _end_child(self) -> None:
        """Close the pipe (the child closes its pages and exits); kill it if it takes too long."""
        process = self._process
        self._close_conn()
        if process is None:
            return
        loop = asyncio.get_running_loop()
        for ending in (None, process.terminate, process.kill):
            if ending is not None:
                ending()
            await loop.run_in_executor(None, process.join, 5.0)
            if process.exitcode is not None:
                break
        self._process = None


# ---- the child's side: runs in the web process


def child_main(settings: Settings, sock: socket.socket, conn: Connection) -> None:
    """The web process: serve the pages on ``sock`` until ``conn`` closes (the bot ended or stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the bot ends us
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(_serve(settings, sock, conn))
    except Exception as exc:
        with contextlib.suppress(OSError):
            conn.send(f"{type(exc).__name__}: {exc}")
        raise SystemExit(1) from None


async def _serve(settings: Settings, sock: socket.socket, conn: Connection) -> None:
    from aiohttp import web

    from bot.storage.url import storage_for
    from bot.web.app import make_app
    from bot.web.guard import PagesRunner

    _load_games_and_painters()
    storage = storage_for(settings.database)
    await storage.open()
    try:
        app = make_app(storage, limit=settings.limit, behind_proxy=settings.behind_proxy)
        runner = PagesRunner(app, access_log=None)  # an access log would write every page's token
        await runner.setup()
        try:
            await web.SockSite(runner, sock).start()
            conn.send("ready")
            await _parent_gone(conn)
        finally:
            await runner.cleanup()
    finally:
        await storage.close()


def _load_games_and_painters() -> None:
    """Load every game and painter before the first request, on this thread: the first viewers'
    requests then find them loaded (the registries load on first use; a second thread asking while
    one loads waits for it, so this only moves the loading out of the first requests)."""
    from renderer.registry import find_painter
    from rules.registry import games

    games()
    find_painter("")


async def _parent_gone(conn: Connection) -> None:
    """Wait until the bot's end of the pipe closes, in a thread of its own (not one of the threads
    that replay races and draw boards)."""
    loop = asyncio.get_running_loop()
    gone = asyncio.Event()

    def watch() -> None:
        _until_closed(conn)
        with contextlib.suppress(RuntimeError):  # the loop already closed: nobody is waiting
            loop.call_soon_threadsafe(gone.set)

    threading.Thread(target=watch, name="domestique-web-parent", daemon=True).start()
    await gone.wait()


def _until_closed(conn: Connection) -> None:
    """Block until the bot's end of the pipe closes (it sends nothing else)."""
    with contextlib.suppress(EOFError, OSError):
        while True:
            conn.recv()
