"""The links the bot posts: a race's or a league's page, at the public address, by its token."""

from __future__ import annotations

from bot.storage import Storage


class Links:
    """Page links on ``base`` (``DOMESTIQUE_PUBLIC_URL``); None where the host turned a page off."""

    def __init__(self, storage: Storage, base: str) -> None:
        self.storage = storage
        self.base = base.rstrip("/")

    async def race(self, race_id: int, since: int | None = None) -> str | None:
        token = await self.storage.web_token("race", race_id)
        if token is None:
            return None
        return f"{self.base}/r/{token}" + (f"?since={since}#catch-up" if since is not None else "")

    async def league(self, league_id: int) -> str | None:
        token = await self.storage.web_token("league", league_id)
        return f"{self.base}/l/{token}" if token is not None else None
