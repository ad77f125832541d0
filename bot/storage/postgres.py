"""The shared storage: a PostgreSQL server (asyncpg), for several bot processes over one database.

Every statement is a table part's (``bot/storage/sql.py``), written once for both databases
(``bot/storage/dialect.py``); what is PostgreSQL's own is its ``Database``, here: a pool, from which each public
method checks a connection out for its whole transaction (so the tasks of one process no longer
wait for each other), and migrations that several processes may start at once (an advisory lock).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

import asyncpg

from bot.storage import ConstraintFailed
from bot.storage.database import Database
from bot.storage.dialect import POSTGRESQL
from bot.storage.redact import shown
from bot.storage.sql import SqlStorage

log = logging.getLogger("domestique")
CLOSE_WAIT = 30.0  # seconds close() waits for the methods under way
MIGRATION_LOCK = 7_161_840  # pg_advisory_xact_lock key: processes starting together migrate one at a time
if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Connection = PoolConnectionProxy[Any]


class _Checkout:
    """``guard`` for PostgreSQL: a pooled connection held by the calling task for one method."""

    def __init__(self, storage: PostgresDatabase) -> None:
        self.storage = storage

    async def __aenter__(self) -> None:
        pool = self.storage._pool
        if pool is None:
            raise RuntimeError("storage is not open")
        self.storage._held.set((pool, await pool.acquire()))

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        held = self.storage._held.get()
        self.storage._held.set(None)
        if held is not None:
            # back to the pool it came from, even when close() has begun: close waits for every
            # connection, so one kept here would hold the shutdown for ever (CI once hung so)
            pool, connection = held
            await pool.release(connection)


class PostgresDatabase(Database):
    """A PostgreSQL database (``postgresql://user@host/name``), migrated on open; safe for several processes."""

    dialect = POSTGRESQL
    setting = "DATABASE_URL"

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.path = shown(url)
        self.url = url
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._held: contextvars.ContextVar[tuple[asyncpg.Pool, Connection] | None] = contextvars.ContextVar(
            "held", default=None
        )
        self.guard = _Checkout(self)

    @property
    def _conn(self) -> Connection:
        held = self._held.get()
        if held is None:
            raise RuntimeError("storage is not open, or used outside a method")
        return held[1]

    async def open(self) -> None:
        """Connect and migrate; a second call does nothing."""
        if self._pool is not None:
            return
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size)
        try:
            async with self.guard:
                await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Stop lending connections, let the methods under way finish (at most CLOSE_WAIT seconds),
        then close; a method still running after that loses its connection."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), CLOSE_WAIT)
            except TimeoutError:
                log.warning("PostgreSQL connections still in use after %s s; closing them", CLOSE_WAIT)
                pool.terminate()

    async def migration_lock(self) -> None:
        await self.run("SELECT pg_advisory_xact_lock({})", (MIGRATION_LOCK,))

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self._conn.fetch(self.dialect.sql(sql), *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintFailed(str(exc)) from exc

    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        try:
            status = await self._conn.execute(self.dialect.sql(sql), *args)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintFailed(str(exc)) from exc
        count = status.rsplit(" ", 1)[-1]  # the command tag: "UPDATE 2", "INSERT 0 1", "BEGIN"
        return int(count) if count.isdigit() else 0

    async def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(self.dialect.sql(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintFailed(str(exc)) from exc

    async def execute_script(self, sql: str) -> None:
        """Run statements as they are (tests and ``domestique db copy`` use it)."""
        async with self.guard:
            await self._conn.execute(sql)

    async def reset_ids(self) -> None:
        """Move each id sequence past the highest id (after rows were copied in with their ids)."""
        async with self.guard:
            rows = await self.fetch(
                "SELECT table_name FROM information_schema.columns "
                "WHERE column_name = 'id' AND table_schema = current_schema()"
            )
            for table in sorted(str(r[0]) for r in rows):
                await self.run(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"GREATEST((SELECT MAX(id) FROM {table}), 1), (SELECT MAX(id) FROM {table}) IS NOT NULL)"
                )


class PostgresStorage(SqlStorage):
    """The storage on a PostgreSQL server (``PostgresDatabase``)."""

    db: PostgresDatabase

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        super().__init__(PostgresDatabase(url, pool_size=pool_size))

    @property
    def url(self) -> str:
        return self.db.url

    async def execute_script(self, sql: str) -> None:
        """Run statements as they are (tests and ``domestique db copy`` use it)."""
        await self.db.execute_script(sql)

    async def reset_ids(self) -> None:
        """Move each id sequence past the highest id (after rows were copied in with their ids)."""
        await self.db.reset_ids()
