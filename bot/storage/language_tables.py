"""Which language people and servers read (issue 27): the Discord locale last seen of each server
and each person, and the language a server's manager chose for its public text (``/race language``).

One row per server (``kind`` 'guild') and per person (``kind`` 'user', every server: a client's
language is the person's own). The SQL runs on SQLite and PostgreSQL (``schema.MIGRATIONS`` 8).
"""

from __future__ import annotations

from bot.storage.database import Database

GUILD = "guild"
USER = "user"


class LanguageTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def locale_of(self, kind: str, ref_id: int) -> tuple[str | None, str | None]:
        """(the Discord locale last seen, the language chosen) of a server or person; (None, None) if unknown."""
        rows = await self.db.rows("SELECT seen, chosen FROM languages WHERE kind = {} AND ref_id = {}", (kind, ref_id))
        if not rows:
            return None, None
        seen, chosen = rows[0]
        return (str(seen) if seen is not None else None), (str(chosen) if chosen is not None else None)

    async def see_locale(self, kind: str, ref_id: int, locale: str) -> None:
        """Remember the Discord locale a server or person showed last (a timer has no interaction to ask)."""
        await self.db.update(
            "INSERT INTO languages (kind, ref_id, seen) VALUES ({}, {}, {}) "
            "ON CONFLICT(kind, ref_id) DO UPDATE SET seen = excluded.seen",
            (kind, ref_id, locale),
        )

    async def choose_language(self, guild_id: int, language: str | None) -> None:
        """A server's public language chosen by its manager (None: Discord's preferred locale again)."""
        await self.db.update(
            "INSERT INTO languages (kind, ref_id, chosen) VALUES ({}, {}, {}) "
            "ON CONFLICT(kind, ref_id) DO UPDATE SET chosen = excluded.chosen",
            (GUILD, guild_id, language),
        )
