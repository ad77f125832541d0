"""The routes of the web pages and what they remember between requests.

A page is reached by its token only (``/r/<token>``, ``/l/<token>``). A race is replayed once per
version (``timeline``); its page, its boards and its recap are made once and then served from
memory, so hundreds of viewers cost one read of the race's version a second. Boards are drawn
by the ``Drawing`` given (under ``domestique run``, a thread of the pages' own process: never the
bot's). Nothing is written: the only files served are the two under ``static/``, read once at start.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any, TypeVar

from aiohttp import web

from bot.leagues.pact_records import public_ledger
from bot.service.drawing import Drawing, ThreadDrawing
from bot.service.recap import recap_gif
from bot.storage import RaceRow, Storage
from bot.web import pages
from bot.web.guard import RateLimit, guard
from bot.web.health import health_route
from bot.web.language import picked
from bot.web.league_page import league_main, league_page, version_of
from bot.web.pact_section import ledger_section, with_section
from bot.web.timeline import Timeline, timeline
from rules.i18n import current

T = TypeVar("T")
TOKEN = r"{token:[A-Za-z0-9_-]{16,64}}"
FRESH = 1.0  # seconds a race's version is trusted before it is read again
LEAGUE_FRESH = 5.0  # seconds a league page's live part is kept before it is read again
STATIC = {name: resources.files("bot.web").joinpath("static", name).read_bytes() for name in ("web.js", "web.css")}
TYPES = {"web.js": "text/javascript", "web.css": "text/css"}
# a wheel: what browsers ask for on every page (an SVG, which they all read under this name)
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" fill="none" '
    b'stroke="#1d1d1f" stroke-width="3"/><path d="M16 3v26M3 16h26M7 7l18 18M25 7 7 25" stroke="#1d1d1f" '
    b'stroke-width="1.5"/><circle cx="16" cy="16" r="3" fill="#c0392b"/></svg>'
)


class Kept(OrderedDict[Any, Any]):
    """The ``size`` most recently used values."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Pages:
    """Everything the routes read, remembered: races by version, pages, boards."""

    def __init__(self, storage: Storage, drawing: Drawing, *, discord_url: str = "https://discord.com") -> None:
        self.storage = storage
        self.drawing = drawing
        self.discord_url = discord_url
        self._versions: dict[int, tuple[float, int | None]] = {}
        self._timelines: Kept = Kept(32)  # each race's latest version only: a timeline holds every turn's state
        self._made: Kept = Kept(256)  # pages and images, by what they show
        self._making: dict[Any, asyncio.Future[Any]] = {}

    async def once(self, key: Any, make: Callable[[], Awaitable[T]], *, kept: Kept | None = None) -> T:
        """``make()``'s value for ``key``, made once however many viewers ask at the same moment, and
        remembered in ``kept`` (the pages and images, unless given). It is made in a task of its own:
        a viewer who goes away (the browser cancels an image it no longer needs) cancels neither the
        making nor the other viewers waiting for it."""
        kept = self._made if kept is None else kept
        if key in kept:
            kept.move_to_end(key)
            return kept[key]  # type: ignore[no-any-return]
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(self._make(key, make, kept))
            self._making[key] = making
        return await asyncio.shield(making)

    async def _make(self, key: Any, make: Callable[[], Awaitable[T]], kept: Kept) -> T:
        try:
            value = await make()
        finally:
            self._making.pop(key, None)
        kept.keep(key, value)
        return value

    async def version(self, race_id: int) -> int | None:
        """The race's version, read at most once a second however many viewers ask."""
        now = time.monotonic()
        seen = self._versions.get(race_id)
        if seen is not None and now - seen[0] < FRESH:
            return seen[1]
        version = await self.once(("version", race_id), lambda: self.storage.race_version(race_id), kept=Kept(0))
        self._versions[race_id] = (now, version)
        return version

    async def race(self, token: str) -> Timeline:
        found = await self.storage.web_page(token)
        if found is None or found[0] != "race":
            raise web.HTTPNotFound()
        race_id = found[1]
        version = await self.version(race_id)
        if version is None:
            raise web.HTTPNotFound()
        # the race in words is in the viewer's language: one timeline per race and language
        kept = (race_id, current())
        latest = self._timelines.get(kept)
        if latest is not None and latest.version == version:
            self._timelines.move_to_end(kept)
            return latest  # type: ignore[no-any-return]
        key = ("timeline", race_id, version, current())
        made = await self.once(key, lambda: self._timeline(race_id, latest), kept=Kept(0))
        if made.version >= getattr(self._timelines.get(kept), "version", -1):
            self._timelines.keep(kept, made)
        return made

    async def _timeline(self, race_id: int, previous: Timeline | None) -> Timeline:
        """The race replayed (from ``previous``, its last version seen, when it only has more actions)."""
        row = await self.storage.race(race_id)
        if row is None:
            raise web.HTTPNotFound()
        self._versions[race_id] = (time.monotonic(), row.version)
        return await asyncio.to_thread(timeline, row, previous)

    def channel_link(self, race: RaceRow | Timeline, guild: int, channel: int) -> str:
        return f"{self.discord_url}/channels/{guild}/{channel}"

    async def _row(self, race_id: int) -> RaceRow:
        row = await self.storage.race(race_id)
        if row is None:
            raise web.HTTPNotFound()
        return row

    async def board(self, race: Timeline, state: Any, acting: tuple[str, ...]) -> bytes:
        image = await self.drawing.paint(
            race.game.id, state, highlight=[], acting=acting, title=race.title, legend=[], language=current()
        )
        if image is None:
            raise web.HTTPNotFound()
        return image


PAGES: web.AppKey[Pages] = web.AppKey("pages", Pages)


def _number(request: web.Request, name: str, most: int = 1_000_000) -> int | None:
    text = request.query.get(name, "")
    return int(text) if text.isdigit() and len(text) <= 7 and int(text) <= most else None


def public_origin(request: web.Request) -> str:
    """How the pages' addresses begin for a link preview: DOMESTIQUE_PUBLIC_URL (else
    DOMESTIQUE_WEB's address), as the links the bot posts; without either, the request's own."""
    given = os.environ.get("DOMESTIQUE_PUBLIC_URL", "").strip().rstrip("/")
    if given:
        return given
    served = os.environ.get("DOMESTIQUE_WEB", "").strip()
    return f"http://{served}" if served else f"{request.scheme}://{request.host}"


def _html(text: str) -> web.Response:
    response = web.Response(text=text, content_type="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _image(data: bytes, kind: str, *, forever: bool) -> web.Response:
    response = web.Response(body=data, content_type=kind)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if forever else "no-cache"
    return response


def routes(site: Pages) -> web.RouteTableDef:
    table = web.RouteTableDef()

    @table.get("/static/web.js")
    @table.get("/static/web.css")
    async def static(request: web.Request) -> web.Response:
        name = request.path.rsplit("/", 1)[-1]
        response = web.Response(body=STATIC[name], content_type=TYPES[name])
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    @table.get("/favicon.ico")
    async def favicon(request: web.Request) -> web.Response:
        response = web.Response(body=FAVICON, content_type="image/svg+xml")
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    @table.get(f"/r/{TOKEN}")
    async def race_page(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        race = await site.race(token)
        turn, since = _number(request, "turn"), _number(request, "since")
        start = race.turn_since(since) if since is not None else None
        origin = public_origin(request)
        key = ("page", race.race_id, race.version, turn, start, current(), origin)

        async def make() -> str:
            row = await site._row(race.race_id)
            channel = site.channel_link(race, row.guild_id, row.channel_id)
            league = None
            if row.league_id is not None:
                league_token = await site.storage.web_token("league", row.league_id)
                league = f"/l/{league_token}" if league_token else None
            base = f"/r/{token}"
            page = pages.race_page(race, base, channel=channel, turn=turn, since=start, league=league, origin=origin)
            return with_section(page, ledger_section(await public_ledger(site.storage, row)))

        return _html(await site.once(key, make))

    @table.get(f"/r/{TOKEN}/live")
    async def live(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        race = await site.race(token)
        if _number(request, "v") == race.version:
            return web.Response(status=204, headers={"Cache-Control": "no-store"})

        async def make() -> str:
            base = f"/r/{token}"
            last = race.turns[-1].number if race.turns else 0
            return json.dumps(
                {
                    "version": race.version,
                    "status": race.status,
                    "live": pages.live_html(race, base),
                    "words": pages.words_html(race),
                    "last": last,
                    "alt": {t.number: pages.turn_alt(race, t.number) for t in race.turns[-3:]},
                    "recap": pages.recap_html(race, base),
                }
            )

        body = await site.once(("live", race.race_id, race.version, token, current()), make)
        return web.Response(text=body, content_type="application/json", headers={"Cache-Control": "no-store"})

    @table.get(f"/r/{TOKEN}/board/{{version:[0-9]{{1,9}}}}.png")
    async def board_now(request: web.Request) -> web.Response:
        race = await site.race(request.match_info["token"])
        if int(request.match_info["version"]) != race.version or race.state is None:
            raise web.HTTPNotFound()
        key = ("board", race.race_id, race.version, current())
        data = await site.once(key, lambda: site.board(race, race.state, race.acting))
        # the same address is the same picture forever only when the language is in it
        return _image(data, "image/png", forever=picked(request))

    @table.get(f"/r/{TOKEN}/turn/{{turn:[0-9]{{1,6}}}}.png")
    async def board_of_turn(request: web.Request) -> web.Response:
        race = await site.race(request.match_info["token"])
        number = int(request.match_info["turn"])
        turn = next((t for t in race.turns if t.number == number), None)
        if turn is None:
            raise web.HTTPNotFound()
        # a turn's first board changes only if an undo takes back a decision before it
        key = ("turn", race.race_id, number, turn.key, current())
        data = await site.once(key, lambda: site.board(race, turn.state, ()))
        return _image(data, "image/png", forever=False)

    @table.get(f"/r/{TOKEN}/recap.gif")
    async def recap(request: web.Request) -> web.Response:
        race = await site.race(request.match_info["token"])
        if race.status != "finished":
            raise web.HTTPNotFound()

        async def make() -> bytes:
            row = await site._row(race.race_id)
            return await asyncio.to_thread(recap_gif, row, race.title)

        data = await site.once(("recap", race.race_id, race.version, current()), make)
        return _image(data, "image/gif", forever=False)

    @table.get(f"/l/{TOKEN}")
    async def league(request: web.Request) -> web.Response:
        found = await site.storage.web_page(request.match_info["token"])
        if found is None or found[0] != "league":
            raise web.HTTPNotFound()
        token = request.match_info["token"]
        return _html(await league_page(site.storage, found[1], f"/l/{token}/live"))

    @table.get(f"/l/{TOKEN}/live")
    async def league_live(request: web.Request) -> web.Response:
        found = await site.storage.web_page(request.match_info["token"])
        if found is None or found[0] != "league":
            raise web.HTTPNotFound()
        key = ("league", found[1], current(), int(time.monotonic() / LEAGUE_FRESH))
        _, main = await site.once(key, lambda: league_main(site.storage, found[1]))
        version = version_of(main)
        if request.query.get("v") == version:
            return web.Response(status=204, headers={"Cache-Control": "no-store"})
        body = json.dumps({"version": version, "main": main})
        return web.Response(text=body, content_type="application/json", headers={"Cache-Control": "no-store"})

    return table


def make_app(
    storage: Storage,
    *,
    drawing: Drawing | None = None,
    limit: RateLimit | None = None,
    behind_proxy: bool = False,
) -> web.Application:
    """The web pages on ``storage`` (already open): an aiohttp application, to be run by ``server``."""
    site = Pages(storage, drawing or ThreadDrawing())
    app = web.Application(
        middlewares=[guard(limit if limit is not None else RateLimit(), behind_proxy=behind_proxy)],
        client_max_size=1024,
        handler_args={"max_line_size": 1024, "max_field_size": 4096},
    )
    app.add_routes([*routes(site), health_route(storage)])  # /health: docs/deploy.md
    app[PAGES] = site
    return app
