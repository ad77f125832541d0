"""Debian's ``chromium``, headless, for the web pages' browser tests: installed with apt-get when we
are root and it is missing (as ``pg_server.py`` installs PostgreSQL), else one clear line says why
not. A page is driven over the DevTools protocol (a websocket: aiohttp's client), no driver needed."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import shutil
import tempfile
from typing import Any

import aiohttp

from tests.support.apt import CannotInstall, installed

NAMES = ("chromium", "chromium-browser")


class NoBrowser(Exception):
    """No headless chromium can run here; the message says why in one line."""


def _found() -> str | None:
    return next((path for name in NAMES if (path := shutil.which(name))), None)


def chromium_binary() -> str:
    """The chromium binary, installed first (``tests/support/apt.py``) if missing."""
    try:
        installed(["chromium", "fonts-dejavu-core"], lambda: _found() is not None)
    except CannotInstall as exc:
        raise NoBrowser(f"chromium is missing: {exc}") from None
    found = _found()
    if found is None:
        raise NoBrowser("`apt-get install chromium` ran but left no chromium on the PATH")
    return found


class Browser:
    """One headless chromium and one tab, driven over the DevTools protocol."""

    def __init__(self) -> None:
        self._profile = tempfile.mkdtemp(prefix="domestique-chromium-")
        self._process: asyncio.subprocess.Process | None = None
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._target = ""
        self._ids = itertools.count(1)
        self._drain: asyncio.Task[bytes] | None = None

    async def start(self) -> None:
        binary = chromium_binary()
        self._process = await asyncio.create_subprocess_exec(
            binary,
            "--headless=new",
            "--no-sandbox",  # root in a container
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--remote-debugging-port=0",
            f"--user-data-dir={self._profile}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self._process.stderr is not None
        url = ""
        async with asyncio.timeout(30):
            while not url:
                line = (await self._process.stderr.readline()).decode(errors="replace")
                if not line:
                    raise NoBrowser("chromium exited before it listened for DevTools")
                found = re.search(r"DevTools listening on (ws://\S+)", line)
                url = found.group(1) if found else ""
        self._drain = asyncio.create_task(self._process.stderr.read())  # a full pipe would stall chromium
        self._session = aiohttp.ClientSession()
        self._socket = await self._session.ws_connect(url, max_msg_size=64 * 1024 * 1024)
        created = await self.send("Target.createTarget", url="about:blank")
        attached = await self.send("Target.attachToTarget", targetId=created["targetId"], flatten=True)
        self._target = attached["sessionId"]
        await self.send("Page.enable", session=True)
        await self.send("Runtime.enable", session=True)

    async def send(self, method: str, *, session: bool = False, **params: Any) -> Any:
        assert self._socket is not None
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = self._target
        await self._socket.send_str(json.dumps(message))
        async with asyncio.timeout(60):
            while True:
                reply = json.loads((await self._socket.receive()).data)
                if reply.get("id") == number:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        done = await self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return done.get("result", {}).get("value")

    async def open(self, url: str, width: int = 1280) -> None:
        await self.resize(width, 900)
        await self.send("Page.navigate", session=True, url=url)
        await self.wait_for("document.readyState === 'complete'")
        # an image the page loads lazily is fetched only once scrolled near: a long race's recap, at the
        # page's foot, never was (a flaky 60 s wait); a test looks at the whole page, so every one is fetched
        await self.evaluate("document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })")
        await self.wait_for("Array.from(document.images).every(i => i.complete)")

    async def resize(self, width: int, height: int) -> None:
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=width < 600,
        )

    async def wait_for(self, condition: str, seconds: float = 60.0) -> None:
        try:
            async with asyncio.timeout(seconds):
                while not await self.evaluate(f"Boolean({condition})"):
                    await asyncio.sleep(0.1)
        except TimeoutError:
            waiting = "JSON.stringify(Array.from(document.images).filter(i => !i.complete).map(i => i.src))"
            state = await self.evaluate(f"document.readyState + ' ' + location.href + ' ' + {waiting}")
            raise TimeoutError(f"page not ready in {seconds:g} s: {state}") from None

    async def screenshot(self, width: int) -> bytes:
        """The whole page at ``width`` CSS pixels wide, as a PNG."""
        await self.resize(width, 900)
        await self.wait_for("Array.from(document.images).every(i => i.complete)")
        height = int(await self.evaluate("document.documentElement.scrollHeight"))
        await self.resize(width, min(height, 12000))
        await self.wait_for("Array.from(document.images).every(i => i.complete)")
        shot = await self.send("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=True)
        return base64.b64decode(shot["data"])

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._session is not None:
            await self._session.close()
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            await self._process.wait()
        shutil.rmtree(self._profile, ignore_errors=True)
