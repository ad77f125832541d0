"""The storage the service sees (the ``Storage`` protocol), composed of table parts over one ``Database``.

``SqlStorage`` holds a ``Database`` (``bot/storage/database.py``: the connection, the dialect, the
migrations) and one part per group of tables (``bot/storage/*_tables.py``), each built over that
database. Its methods are the parts' own, forwarded (``bot/storage/forward.py``): one line each, the
signature written once, in the part. ``SqliteStorage`` and ``PostgresStorage`` give it their database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.storage.alliance_tables import AllianceTables
from bot.storage.away_tables import AwayTables
from bot.storage.database import Database, Statement
from bot.storage.forward import Forward
from bot.storage.health_tables import HealthTables
from bot.storage.language_tables import LanguageTables
from bot.storage.league_tables import LeagueTables
from bot.storage.outbox_tables import OutboxTables
from bot.storage.pace_tables import PaceTables
from bot.storage.people_tables import PeopleTables
from bot.storage.prompt_tables import PromptTables
from bot.storage.race_tables import RaceTables
from bot.storage.web_tables import WebTables


class SqlStorage(
    LeagueTables,
    AllianceTables,
    PeopleTables,
    PaceTables,
    WebTables,
    AwayTables,
    LanguageTables,
    PromptTables,
    OutboxTables,
    HealthTables,
):
    """Everything the bot keeps, in SQL both databases run (``bot/storage/dialect.py``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.races = RaceTables(db)
        self._parts: dict[str, object] = {type(part).__name__: part for part in (self.races,)}

    @property
    def parts(self) -> Mapping[str, object]:
        return self._parts

    @property
    def path(self) -> str:
        """The database as it may be shown (no password)."""
        return self.db.path

    async def open(self) -> None:
        """Connect and migrate; a second call (the bot's start after ``domestique run`` opened it) does nothing."""
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    # ---- the table mixins' helpers (until they are parts)

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        return await self.db.rows(sql, args)

    async def _insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        return await self.db.insert(sql, args)

    async def _update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        return await self.db.update(sql, args)

    async def _transaction(self, statements: list[Statement]) -> None:
        await self.db.transaction(statements)

    async def _reads(self, statements: list[Statement]) -> list[list[Any]]:
        return await self.db.reads(statements)

    # ---- races (``bot/storage/race_tables.py``)

    create_race = Forward(RaceTables.create_race)
    active_race = Forward(RaceTables.active_race)
    race = Forward(RaceTables.race)
    running_races = Forward(RaceTables.running_races)
    latest_race = Forward(RaceTables.latest_race)
    league_race = Forward(RaceTables.league_race)
    update_lobby = Forward(RaceTables.update_lobby)
    keep_lobby = Forward(RaceTables.keep_lobby)
    start = Forward(RaceTables.start)
    append_actions = Forward(RaceTables.append_actions)
    truncate = Forward(RaceTables.truncate)
    set_status = Forward(RaceTables.set_status)
    set_reminded = Forward(RaceTables.set_reminded)
    save_snapshot = Forward(RaceTables.save_snapshot)
    snapshot = Forward(RaceTables.snapshot)
    drop_snapshot = Forward(RaceTables.drop_snapshot)
