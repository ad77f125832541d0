"""The web pages' links (``docs/web.md``): one random token per race and per league.

A page is reached only by its token, never by an id; a host can turn it off (the token is
cleared) or make a new one (the old one stops working at once in this process, and within
``REMEMBERED`` seconds in the others of a cluster, which remember a lookup that long).
"""

from __future__ import annotations

import secrets
import time

from bot.storage.database import Database

KINDS = ("race", "league")
REMEMBERED = 5.0  # seconds a token's lookup is remembered (every page view asks for one)


def new_token() -> str:
    """128 random bits, in URL-safe letters."""
    return secrets.token_urlsafe(16)


class WebTables:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._web_seen: dict[str, tuple[float, tuple[str, int] | None]] = {}  # token: (when looked up, page)

    async def web_token(self, kind: str, ref_id: int) -> str | None:
        """The page's token, made on first use; None when the host turned the page off."""
        rows = await self.db.rows("SELECT token FROM web_links WHERE kind = {} AND ref_id = {}", (kind, ref_id))
        if rows:
            return str(rows[0][0]) if rows[0][0] is not None else None
        await self.db.update(
            "INSERT INTO web_links (kind, ref_id, token) VALUES ({}, {}, {}) ON CONFLICT(kind, ref_id) DO NOTHING",
            (kind, ref_id, new_token()),
        )
        rows = await self.db.rows("SELECT token FROM web_links WHERE kind = {} AND ref_id = {}", (kind, ref_id))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    async def renew_web_token(self, kind: str, ref_id: int) -> str:
        """A new token for the page (turning it on again if it was off); the old one stops working."""
        token = new_token()
        await self.db.update(
            "INSERT INTO web_links (kind, ref_id, token) VALUES ({}, {}, {}) "
            "ON CONFLICT(kind, ref_id) DO UPDATE SET token = excluded.token",
            (kind, ref_id, token),
        )
        self._web_seen.clear()
        return token

    async def web_off(self, kind: str, ref_id: int) -> None:
        """Turn the page off: its link stops working."""
        await self.db.update(
            "INSERT INTO web_links (kind, ref_id, token) VALUES ({}, {}, NULL) "
            "ON CONFLICT(kind, ref_id) DO UPDATE SET token = NULL",
            (kind, ref_id),
        )
        self._web_seen.clear()

    async def race_version(self, race_id: int) -> int | None:
        """The race's version alone (a page asks whether anything changed without reading the race)."""
        rows = await self.db.rows("SELECT version FROM races WHERE id = {}", (race_id,))
        return int(rows[0][0]) if rows else None

    async def web_page(self, token: str) -> tuple[str, int] | None:
        """(kind, id) of the page a token opens, or None."""
        now = time.monotonic()
        seen = self._web_seen.get(token)
        if seen is not None and now - seen[0] < REMEMBERED:
            return seen[1]
        rows = await self.db.rows("SELECT kind, ref_id FROM web_links WHERE token = {}", (token,))
        found = (str(rows[0][0]), int(rows[0][1])) if rows else None
        if len(self._web_seen) > 4096:
            self._web_seen.clear()
        self._web_seen[token] = (now, found)
        return found
